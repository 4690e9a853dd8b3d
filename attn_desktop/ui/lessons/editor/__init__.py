"""The lesson editor: a teacher's own lesson written in the app (File → New Lesson from This Scene…)."""
