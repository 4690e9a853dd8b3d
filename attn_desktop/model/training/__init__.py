"""Training a head by hand in NumPy: the tasks, the training loop, and a trained head as the student edits it."""
