"""Headless uses of the real window: snapshot, self-test, the layout and label audits, picture export, synthetic mouse."""
