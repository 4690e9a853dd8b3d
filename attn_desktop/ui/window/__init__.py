"""The main window, which assembles the panels, and its rooms: start-up, actions (a table), layout and status bar."""
