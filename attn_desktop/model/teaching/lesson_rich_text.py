"""A lesson file's text as rich text the app builds itself: a safe Markdown subset, everything else escaped.

The text comes from another machine. Nothing in it is taken as HTML: each line is escaped first, then only the
subset's own marks become tags (headings `#`, emphasis `*…*` and `**…**`, bulleted `-` and numbered `1.` lists).
A `<b>` or an `<img>` in the file reads as those characters; nothing is fetched.

The one link made is the app's own: an arrow's name the scene has (`k·cat`), written in the text, becomes
`<a href="arrow:N">` with N its place in the names given, so clicking it (or Tab to it and Enter) selects
and highlights that arrow. The file's words never make a link, and the href carries no text of theirs.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from functools import partial

_HEADING = re.compile(r"^(#{1,6})\s+(.*)$")
_BULLET = re.compile(r"^\s*[-*]\s+(.*)$")
_NUMBERED = re.compile(r"^\s*\d{1,9}[.)]\s+(.*)$")
_STRONG = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*")
_EMPHASIS = re.compile(r"\*(?=\S)(.+?)(?<=\S)\*")


ARROW_LINK = "arrow:"  # an arrow link's href: ARROW_LINK and the name's place in ARROW_NAMES


def lesson_rich_text(title: str, text: str, arrow_names: Sequence[str] = ()) -> str:
    """TITLE as a heading, then TEXT's subset as rich text; every character the file gave escaped. Each of
    ARROW_NAMES written in the text is a link to that arrow (see ARROW_LINK)."""
    inline = partial(_inline, arrows=_arrow_pattern(arrow_names), places={name: place for place, name in
                                                                           enumerate(arrow_names)})
    parts = [f"<h3>{_escaped(title)}</h3>"] if title else []
    list_tag = ""
    paragraph: list[str] = []

    def end_paragraph() -> None:
        if paragraph:
            parts.append("<p>" + " ".join(paragraph) + "</p>")
            paragraph.clear()

    def end_list() -> None:
        nonlocal list_tag
        if list_tag:
            parts.append(f"</{list_tag}>")
            list_tag = ""

    for line in text.splitlines():
        heading, bullet, numbered = _HEADING.match(line), _BULLET.match(line), _NUMBERED.match(line)
        item = bullet or numbered
        if item is not None:
            end_paragraph()
            wanted = "ul" if bullet else "ol"
            if list_tag != wanted:
                end_list()
                parts.append(f"<{wanted}>")
                list_tag = wanted
            parts.append(f"<li>{inline(item.group(1))}</li>")
            continue
        end_list()
        if heading is not None:
            end_paragraph()
            level = min(len(heading.group(1)) + 2, 6)  # under the lesson's title
            parts.append(f"<h{level}>{inline(heading.group(2))}</h{level}>")
        elif line.strip():
            paragraph.append(inline(line.strip()))
        else:
            end_paragraph()
    end_paragraph()
    end_list()
    return "".join(parts)


def _escaped(text: str) -> str:
    return html.escape(text, quote=True)


def _arrow_pattern(names: Sequence[str]) -> re.Pattern[str] | None:
    """The escaped names, longest first (k·cats before k·cat), each a whole word of the text."""
    if not names:
        return None
    alternatives = "|".join(re.escape(_escaped(name)) for name in sorted(set(names), key=len, reverse=True))
    return re.compile(rf"(?<![\w·])(?:{alternatives})(?![\w·])")


def _inline(text: str, arrows: re.Pattern[str] | None = None, places: dict[str, int] | None = None) -> str:
    """Arrow names as links, then emphasis marks as tags, in text escaped first (neither the names' letters
    nor the marks are characters escaping changes)."""
    escaped = _escaped(text)
    if arrows is not None and places is not None:
        escaped = arrows.sub(lambda found: f'<a href="{ARROW_LINK}{places[html.unescape(found.group(0))]}">'
                                           f"{found.group(0)}</a>", escaped)
    escaped = _STRONG.sub(r"<b>\1</b>", escaped)
    return _EMPHASIS.sub(r"<em>\1</em>", escaped)
