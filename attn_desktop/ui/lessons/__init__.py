"""Lessons: the lesson text, its exercises and the challenges, and the controller that opens a lesson's scene."""
