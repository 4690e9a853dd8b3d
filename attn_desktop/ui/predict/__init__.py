"""Predict, then see: the veil over the weights, the guess strip and the rounds."""
