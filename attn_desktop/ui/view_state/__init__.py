"""What the user is looking at, shared by every panel that shows it: the key pointed at and the veil over the
weights. View state, never the document: Qt signal objects here; which head is shown is model/view_state.py."""
