"""Training one head live: the panel, its curves, the worker that trains and the controller that shows it."""
