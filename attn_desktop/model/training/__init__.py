"""Training a head by hand in NumPy: the tasks, the head's parameters and maths, the training loop, a trained
head as a document and as the student edits it."""
