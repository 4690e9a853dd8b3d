"""A lesson file's text shown as rich text: the subset's marks become tags, anything else is escaped."""

from attn_desktop.model.teaching.lesson_rich_text import lesson_rich_text


def test_the_subset_becomes_headings_emphasis_and_lists():
    shown = lesson_rich_text("Mine", "# Start\n\nDrag *k·cat* and **q·it**.\n\n- one\n- two\n\n1. first\n2. second")
    assert shown.startswith("<h3>Mine</h3><h3>Start</h3>")
    assert "<p>Drag <em>k·cat</em> and <b>q·it</b>.</p>" in shown
    assert "<ul><li>one</li><li>two</li></ul><ol><li>first</li><li>second</li></ol>" in shown


def test_html_in_the_file_is_shown_as_its_characters():
    shown = lesson_rich_text("<script>x</script>", "<img src='http://example.org/x.png'> <a href='x'>go</a> & <b>")
    assert "<img" not in shown and "<a " not in shown and "<script" not in shown and "<b>" not in shown
    assert "&lt;img src=&#x27;http://example.org/x.png&#x27;&gt;" in shown and "&amp;" in shown
