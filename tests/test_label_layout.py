"""Arrow labels: placed so they do not cover one another or leave the plot (attn_desktop/ui/label_layout.py)."""

from hypothesis import given, settings
from hypothesis import strategies as st

from attn_desktop.ui.label_layout import HIDDEN, LabelRequest, place_labels

BOUNDS = (0.0, 0.0, 400.0, 300.0)


def _box(request, shift):
    left, top, right, bottom = request.box
    return left + shift[0], top + shift[1], right + shift[0], bottom + shift[1]


def _overlap(first, second):
    return first[0] < second[2] and second[0] < first[2] and first[1] < second[3] and second[1] < first[3]


def test_the_most_important_label_keeps_its_place_and_the_next_moves_off_it():
    chosen = LabelRequest((100, 100, 160, 116), tip_x=95)
    key = LabelRequest((105, 104, 165, 120), tip_x=100)
    shifts = place_labels([chosen, key], BOUNDS)
    assert shifts[0] == (0.0, 0.0)
    assert shifts[1] != (0.0, 0.0) and not _overlap(_box(chosen, shifts[0]), _box(key, shifts[1]))


def test_a_label_past_the_right_edge_goes_to_the_other_side_of_its_tip():
    edge = LabelRequest((370, 50, 430, 66), tip_x=365)
    (shift,) = place_labels([edge], BOUNDS)
    left, _, right, _ = _box(edge, shift)
    assert right <= 400 and left < 365  # flipped to the tip's left, fully in view


def test_a_minor_label_with_no_room_is_left_out_and_a_major_one_stays_in_view():
    crowd = [LabelRequest((x, y, x + 40, y + 16), tip_x=x - 5) for x in range(0, 400, 40) for y in range(0, 300, 16)]
    minor = LabelRequest((200, 150, 240, 166), tip_x=195, minor=True)
    major = LabelRequest((200, 150, 240, 166), tip_x=195)
    shifts = place_labels([*crowd, minor, major], BOUNDS)
    assert shifts[-2] is HIDDEN
    box = _box(major, shifts[-1])
    assert 0 <= box[0] and box[2] <= 400 and 0 <= box[1] and box[3] <= 300


requests = st.lists(
    st.builds(
        lambda x, y, width, tip_offset: LabelRequest((x, y, x + width, y + 16), tip_x=x - tip_offset, minor=True),
        st.floats(0, 380), st.floats(0, 290), st.floats(20, 80), st.floats(2, 12),
    ),
    max_size=30,
)


@settings(max_examples=200, deadline=None)
@given(requests)
def test_shown_minor_labels_never_overlap_and_stay_in_view(labels):
    shifts = place_labels(labels, BOUNDS)
    shown = [_box(request, shift) for request, shift in zip(labels, shifts) if shift is not HIDDEN]
    for index, box in enumerate(shown):
        assert box[0] >= 0 and box[1] >= 0 and box[2] <= 400 and box[3] <= 300
        assert not any(_overlap(box, other) for other in shown[:index])


def test_a_pushed_label_keeps_last_times_spot_while_its_usual_place_is_taken_and_returns_when_free():
    """No swapping mid-drag: a label pushed off its usual place stays where it went while that is free."""
    chosen = LabelRequest((100, 100, 160, 116), tip_x=95)
    pushed = LabelRequest((100, 104, 160, 120), tip_x=95, previous=(0.0, 33.0))  # overlaps `chosen` where it is
    assert place_labels([chosen, pushed], BOUNDS)[1] == (0.0, 33.0)  # not the nearer spot below `chosen`
    free_again = LabelRequest((200, 104, 260, 120), tip_x=195, previous=(0.0, 33.0))
    assert place_labels([chosen, free_again], BOUNDS)[1] == (0.0, 0.0)


def test_labels_at_one_tip_sit_next_to_each_other():
    """The second goes to the other side of the tip; the third one row up, not two."""
    first, second, third = (LabelRequest((100, 100, 160, 116), tip_x=95) for _ in range(3))
    _, (dx2, dy2), (dx3, dy3) = place_labels([first, second, third], BOUNDS)
    assert (dx2, dy2) == (-70, 0)
    assert dx3 == 0 and 16 < abs(dy3) < 18
