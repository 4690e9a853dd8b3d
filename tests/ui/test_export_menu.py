"""File → Export, as a teacher making a handout would use it."""

import csv
import io

from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication, QFileDialog, QInputDialog


def test_png_at_a_chosen_scale_and_csv_of_the_matrix(window, tmp_path, monkeypatch):
    picture = tmp_path / "handout"  # typed without an extension
    monkeypatch.setattr(QInputDialog, "getDouble", lambda *a, **k: (1.5, True))
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(picture), ""))
    window.menu_actions["export_png_action"].trigger()
    image = QImage(str(picture) + ".png")
    expected_width = 1.5 * (window.canvas.width() + window.matrix_view.width())
    assert not image.isNull() and abs(image.width() - expected_width) < 0.1 * expected_width

    table = tmp_path / "weights.csv"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(table), ""))
    window.menu_actions["export_weights_csv_action"].trigger()
    rows = list(csv.reader(io.StringIO(table.read_text(encoding="utf-8"))))
    assert rows[0][1:] == ["The", "cat", "sat", "on", "the", "mat"]
    sat = next(row for row in rows if row[0] == "sat")
    assert [round(float(value) * 100) for value in sat[1:]] == [0, 76, 6, 1, 0, 17]


def test_copy_picture_puts_an_image_on_the_clipboard(window):
    window.menu_actions["copy_image_action"].trigger()
    assert not QApplication.clipboard().image().isNull()
