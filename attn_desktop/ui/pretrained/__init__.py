"""The heads of a real (pretrained) language model: load it off the window's thread, see every head, open one as a scene."""
