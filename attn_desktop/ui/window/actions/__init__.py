"""The window's commands: the table of every menu and toolbar command (table.py), the menus by id, the toolbar,
and the parts commands act through (scene switches, snap steps, text boxes' own undo)."""
