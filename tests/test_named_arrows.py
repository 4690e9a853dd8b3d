"""The arrows a lesson's text names keep their labels: which names a text mentions, as whole words."""

from attn_desktop.model.teaching.named_arrows import named_in


def test_a_name_counts_only_as_a_whole_word():
    names = {"cat": "k·cat", "cats": "k·cats", "query": "q·it", "blank": ""}
    text = "Drag k·cat towards q·it; k·catalogue is not an arrow here."
    assert named_in(text, names) == {"cat", "query"}


def test_names_with_signs_are_matched_literally():
    names = {"plus": "k·a+b", "dot": "v·x.y"}
    assert named_in("compare k·a+b with v·x.y.", names) == {"plus", "dot"}
    assert named_in("k·aab and v·xzy", names) == set()
