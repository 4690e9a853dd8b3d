"""The canvas: the plots, the arrows drawn and dragged on them, and how the plots are framed and titled."""
