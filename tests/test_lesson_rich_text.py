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


def test_an_arrow_name_the_scene_has_is_a_link_by_its_place_and_nothing_else_is():
    names = ["q·it", "k·cat", "k·cats", "v·<b>"]
    shown = lesson_rich_text("", "Drag *k·cat* to **q·it**, not xk·cat or k·cat2; k·cats; v·<b>; "
                                 '<a href="arrow:0">q·dog</a>', names)
    assert '<em><a href="arrow:1">k·cat</a></em>' in shown
    assert '<b><a href="arrow:0">q·it</a></b>' in shown
    assert '<a href="arrow:2">k·cats</a>' in shown
    assert '<a href="arrow:3">v·&lt;b&gt;</a>' in shown  # a token's markup escaped, its link the app's
    assert shown.count("<a ") == 4  # not xk·cat, k·cat2, nor the file's own <a>, which reads as characters
    assert '&lt;a href=&quot;arrow:0&quot;&gt;q·dog&lt;/a&gt;' in shown
    assert "<a " not in lesson_rich_text("", "k·cat")  # no names given: no links
