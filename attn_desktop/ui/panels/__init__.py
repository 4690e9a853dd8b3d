"""The panels that read one head of the scene: scores, matrix, weights, output, shapes, grids, sentence and code."""
