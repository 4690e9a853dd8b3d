"""Whether a self-test's output was written in the language asked for.

The self-test builds what it expects in the active language, so a `--lang` that quietly fell back to English
would pass it in every language alike. The lessons' lines name their chosen query's word as the language has it
(lesson 3's "it": él, 它, هو, or the pseudo-language's), which no fallback to English can show.
"""

from __future__ import annotations

from attn_desktop.model.teaching.lesson_words import token_word

LESSON_3_LINE = "ok   lesson 3. "


def spoke(language: str, self_test_output: str) -> bool:
    """Whether lesson 3's line of SELF_TEST_OUTPUT names its query "it" as LANGUAGE writes it."""
    lines = [line for line in self_test_output.splitlines() if line.startswith(LESSON_3_LINE)]
    return len(lines) == 1 and f"weights for {token_word('it', language)} " in lines[0]
