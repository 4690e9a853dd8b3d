"""Where the window's parts go: the docks' designs (everyday and presentation), presentation mode, the layout
kept per screen, hand-set sizes, tab bars, the canvas or the heads in the middle, and fitting the screen."""
