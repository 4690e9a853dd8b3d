"""Starting the app: the application and its first window, the first paint, and a start that fails."""
