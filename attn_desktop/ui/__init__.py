"""The user interface: Qt and pyqtgraph only here. Sub-packages by job; the window assembles them and nothing imports it back."""
