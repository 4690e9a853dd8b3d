"""The √d_k lab: how the spread of raw scores grows with the key width."""
