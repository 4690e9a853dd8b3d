"""Colours for the three roles and the output.

Okabe–Ito colours: distinguishable with the common colour-vision
deficiencies, and every arrow also carries its role letter in its label.
"""

from PySide6.QtGui import QColor

from attn_desktop.model import Role

ROLE_COLORS = {
    Role.QUERY: QColor("#0072B2"),
    Role.KEY: QColor("#D55E00"),
    Role.VALUE: QColor("#009E73"),
    Role.EMBEDDING: QColor("#444444"),
}
OUTPUT_COLOR = QColor("#7A3E9D")
