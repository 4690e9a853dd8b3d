"""Colours for the roles (queries, keys, values, word vectors x and a target's y) and the output.

Okabe–Ito colours: distinguishable with the common colour-vision
deficiencies, and every arrow also carries its role letter in its label.
The output's purple is darker and redder than Okabe–Ito's, to keep it apart from the query's blue
under simulated deuteranopia (Okabe–Ito's came within 5 CIEDE2000 of it, this within 11)
and from the word vectors' grey under simulated tritanopia (tests/ui/test_colours_for_every_eye.py holds
every pair at 10 or more for every eye).
"""

from PySide6.QtGui import QColor

from attn_desktop.model import Role

ROLE_COLORS = {
    Role.QUERY: QColor("#0072B2"),
    Role.KEY: QColor("#D55E00"),
    Role.VALUE: QColor("#009E73"),
    Role.EMBEDDING: QColor("#444444"),
    # A cross-attention scene's target words y: a dark red, 18 CIEDE2000 or more from every other colour for every
    # eye (the nearest, the word vectors' grey for a protanope), 8.9 : 1 on white.
    Role.TARGET: QColor("#990000"),
}
OUTPUT_COLOR = QColor("#682C84")
