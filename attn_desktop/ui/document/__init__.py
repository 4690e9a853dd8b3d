"""The open document: its file, its undo history, autosave, the file dialogs and every export."""
