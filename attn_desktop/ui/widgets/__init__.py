"""Small generic widgets that know nothing of attention: eliding buttons and drop-downs, flowing rows and grids,
tight tabs, a check box for a toolbar's action. Any room of the window may use them."""
