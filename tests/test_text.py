"""Cutting text to a room: the one sentence cut that extraction and recall share."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from mem.text import cut_at_sentence, cut_words, without_escapes


def test_a_cut_ends_at_the_last_sentence_that_fits():
    text = "The cache is per process. It is dropped after every write. Then it is rebuilt."
    assert cut_at_sentence(text, 60) == "The cache is per process. It is dropped after every write."
    assert cut_at_sentence(text, 20) == ""
    assert cut_at_sentence(text, 200) == text


def test_chinese_sentences_end_at_their_own_stops():
    text = "npm 默认会标记为 latest。npm 不会自动设置 tag。之后再发布。"
    assert cut_at_sentence(text, 35) == "npm 默认会标记为 latest。npm 不会自动设置 tag。"


def test_a_cut_keeps_at_least_what_it_is_asked_to_keep():
    text = "Yes. The root cause was a race between the session write and the redirect"
    assert cut_at_sentence(text, 40) == "Yes."
    assert cut_at_sentence(text, 40, least=15) == ""


def test_line_ends_count_when_asked():
    text = "## Recovering\n- the login test\n- the redirect race and what it broke"
    assert cut_at_sentence(text, 40) == ""
    assert cut_at_sentence(text, 40, lines=True) == "## Recovering\n- the login test\n"


@given(st.text(alphabet="ab .!?。\n", max_size=80), st.integers(-5, 90), st.booleans())
def test_a_cut_is_a_prefix_within_the_room(text, room, lines):
    cut = cut_at_sentence(text, room, lines=lines)
    assert text.startswith(cut)
    assert cut == text or len(cut) <= max(room, 0)
    words = cut_words(text, room)
    assert len(words) <= max(room, 0) or words == text


def test_a_terminals_escapes_go_and_its_words_stay():
    # A window title with no end stops at the line's end: the next line is words.
    assert without_escapes("\x1b]0;build\nThe build must use Node 20.\n") == (
        "\nThe build must use Node 20.\n"
    )
    assert without_escapes("\x1b[1;31mred\x1b[0m \x1b(Bplain\x1b7\x1b8") == "red plain"
    assert without_escapes("\x1b]8;;file:///src/a.py\x07a.py\x1b]8;;\x07") == "a.py"
    assert without_escapes("no escapes [31m here") == "no escapes [31m here"
