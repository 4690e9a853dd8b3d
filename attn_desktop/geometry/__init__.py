"""Qt-free geometry of the canvas: where labels go, which tip a press takes, which plane wide vectors are drawn in."""
