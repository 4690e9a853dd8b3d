"""What a student who cannot see the screen or use a mouse is given: accessible objects for painted items,
announcements of what changed, and the words of both."""
