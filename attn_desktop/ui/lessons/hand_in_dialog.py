"""File → Hand In…: asks the student's name, says what will be handed in, and hands in on Return."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QFormLayout, QLabel, QLineEdit, QVBoxLayout, QWidget

from attn_desktop.language import ntr, tr
from attn_desktop.model.teaching.lesson_results_reading import MAX_STUDENT_CHARS


class HandInDialog(QDialog):
    def __init__(self, lesson_title: str, answered: int, exercises: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(tr("Hand In"))
        self.name_edit = QLineEdit()
        self.name_edit.setMaxLength(MAX_STUDENT_CHARS)
        self.name_edit.setAccessibleName(tr("Your name"))
        self.name_edit.setPlaceholderText(tr("as your teacher knows you"))
        lesson_label = QLabel(lesson_title)
        lesson_label.setTextFormat(Qt.TextFormat.PlainText)  # the file's words, never its markup
        lesson_label.setWordWrap(True)
        lesson_label.setAccessibleName(tr("Lesson"))
        self.summary_label = QLabel(ntr("{answered} of {count} exercise answered. Your answers, their verdicts, the "
                                        "challenges you did and the times go into a small file for your teacher.",
                                        "{answered} of {count} exercises answered. Your answers, their verdicts, "
                                        "the challenges you did and the times go into a small file for your teacher.",
                                        exercises).format(answered=answered, count=exercises))
        self.summary_label.setWordWrap(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.hand_in_button = buttons.addButton(tr("Hand In…"), QDialogButtonBox.ButtonRole.AcceptRole)
        self.hand_in_button.setEnabled(False)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        self.name_edit.textChanged.connect(lambda name: self.hand_in_button.setEnabled(bool(name.strip())))
        form = QFormLayout()
        form.addRow(tr("Lesson:"), lesson_label)
        name_label = QLabel(tr("&Your name:"))
        name_label.setBuddy(self.name_edit)
        form.addRow(name_label, self.name_edit)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.summary_label)
        layout.addWidget(buttons)
        self.name_edit.setFocus()
        self.setMinimumWidth(self.fontMetrics().averageCharWidth() * 60)  # the placeholder and summary unclipped

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        # Return in the name hands in: the box chooses its own default as it shows, so this one is made it after.
        self.hand_in_button.setDefault(True)

    @property
    def student(self) -> str:
        return self.name_edit.text().strip()
