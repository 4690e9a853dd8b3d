"""The main window: the application, the window that assembles the panels, its actions as a table, and its declared layouts."""
