"""Qt signals for what the user is looking at: the key pointed at and the veil over the weights.
The state itself is model/view_state.py's ViewState, as are the chosen query and the shown head."""
