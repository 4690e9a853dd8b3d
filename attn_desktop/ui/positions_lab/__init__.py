"""The Positions lab: where each word is, and what attention makes of it (order, added, rotated, a real head)."""
