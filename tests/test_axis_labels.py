"""Which names an axis of cells can show (the matrix's column and row labels), without a window."""

from itertools import pairwise

from attn_desktop.geometry.axis_labels import place_axis_labels, turned_length


def _centres(count: int, cell: float) -> list[float]:
    return [(index + 0.5) * cell for index in range(count)]


def test_a_long_name_uses_the_room_its_short_neighbours_leave():
    """the dog chased it, in cells narrower than "chased": every name whole, none skipped."""
    lengths = [20.0, 22.0, 40.0, 8.0]
    labels = place_axis_labels(_centres(4, 43.0), lengths, (0.0, 172.0), 6.0, range(4), 15.0)
    assert [(label.index, label.whole) for label in labels] == [(0, True), (1, True), (2, True), (3, True)]
    assert all(a.end <= b.start for a, b in pairwise(labels))


def test_a_name_with_no_room_whole_is_shortened_rather_than_left_out():
    lengths = [17.0, 16.0, 16.0, 43.0, 8.0, 33.0]
    labels = {label.index: label for label in place_axis_labels(_centres(6, 24.0), lengths, (0.0, 144.0), 6.0,
                                                                 [3, 1, 0, 2, 4, 5], 15.0)}
    assert sorted(labels) == [0, 1, 2, 3, 4, 5]
    assert not labels[3].whole and labels[3].end - labels[3].start - 6.0 >= 15.0


def test_where_there_is_truly_no_room_the_names_given_first_are_kept():
    """Twenty rows shorter than a line: the chosen row's name (given first) is kept, neighbours give way."""
    order = [7] + [row for row in range(20) if row != 7]
    labels = place_axis_labels(_centres(20, 10.0), [16.0] * 20, (0.0, 200.0), 0.0, order, 16.0)
    shown = [label.index for label in labels]
    assert 7 in shown and 6 not in shown and 8 not in shown
    assert all(a.end <= b.start for a, b in pairwise(labels))
    assert len(shown) >= 10


def test_names_stay_inside_the_axis():
    labels = place_axis_labels(_centres(3, 20.0), [30.0, 4.0, 30.0], (0.0, 60.0), 6.0, range(3), 15.0)
    assert all(0.0 <= label.start and label.end <= 60.0 for label in labels)


def test_a_shortened_last_name_leans_inwards_into_the_room_its_neighbour_leaves():
    """"purred" at the right edge beside "it": the room it is shortened in reaches left of its cell's middle."""
    lengths = [18.0, 17.0, 17.0, 46.0, 7.0, 36.0]
    labels = {label.index: label for label in place_axis_labels(_centres(6, 30.0), lengths, (0.0, 180.0), 6.0,
                                                                 range(6), 15.0)}
    last = labels[5]
    assert not last.whole and last.end == 180.0 and last.end - last.start > 30.0
    assert last.start >= labels[4].end


def test_turned_names_reach_as_far_as_the_longest_needs_but_no_further_than_the_limit():
    assert turned_length([12.0, 40.0, 25.0], 2.0, 80.0) == 42.0
    assert turned_length([12.0, 140.0], 2.0, 80.0) == 80.0  # a longer name is shortened, the cells stay put
    assert turned_length([], 2.0, 80.0) == 2.0
