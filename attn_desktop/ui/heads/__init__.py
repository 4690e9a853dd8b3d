"""Several heads of one layer side by side, and how W_O mixes their outputs."""
