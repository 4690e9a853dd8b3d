"""The app's language on the Qt side: Qt's own translations, right-to-left layout, the fonts Chinese and
Arabic need, and re-wording a window that is already shown."""
