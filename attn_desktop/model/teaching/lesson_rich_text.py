"""A lesson file's text as rich text the app builds itself: a safe Markdown subset, everything else escaped.

The text comes from another machine. Nothing in it is taken as HTML: each line is escaped first, then only the
subset's own marks become tags (headings `#`, emphasis `*…*` and `**…**`, bulleted `-` and numbered `1.` lists).
A `<b>` or an `<img>` in the file reads as those characters; no link is made, nothing is fetched.
"""

from __future__ import annotations

import html
import re

_HEADING = re.compile(r"^(#{1,6})\s+(.*)$")
_BULLET = re.compile(r"^\s*[-*]\s+(.*)$")
_NUMBERED = re.compile(r"^\s*\d{1,9}[.)]\s+(.*)$")
_STRONG = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*")
_EMPHASIS = re.compile(r"\*(?=\S)(.+?)(?<=\S)\*")


def lesson_rich_text(title: str, text: str) -> str:
    """TITLE as a heading, then TEXT's subset as rich text; every character the file gave escaped."""
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
            parts.append(f"<li>{_inline(item.group(1))}</li>")
            continue
        end_list()
        if heading is not None:
            end_paragraph()
            level = min(len(heading.group(1)) + 2, 6)  # under the lesson's title
            parts.append(f"<h{level}>{_inline(heading.group(2))}</h{level}>")
        elif line.strip():
            paragraph.append(_inline(line.strip()))
        else:
            end_paragraph()
    end_paragraph()
    end_list()
    return "".join(parts)


def _escaped(text: str) -> str:
    return html.escape(text, quote=True)


def _inline(text: str) -> str:
    """Emphasis marks as tags, in text escaped first (the marks are not characters escaping changes)."""
    escaped = _STRONG.sub(r"<b>\1</b>", _escaped(text))
    return _EMPHASIS.sub(r"<em>\1</em>", escaped)
