"""Where an entry's header stands in its file: found as mem writes it, or as a person may."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from mem.services.lookup import header_start


def by_pattern(text: str, entry_id: str) -> int:
    found = re.search(rf"^<!--\s*id:{re.escape(entry_id)}(?=\s|-->)", text, re.MULTILINE)
    return found.start() if found else -1


def test_the_header_is_found_in_the_forms_a_file_may_hold():
    text = (
        "# Lessons\n"
        "see <!-- id:abc --> inline\n"  # not at a line's start
        "<!-- id:abcd -->\n"  # another id that starts alike
        "<!--   id:abc   kind:lesson -->\n"  # spaced as a person might
        "<!-- id:abc -->\n"
    )
    assert header_start(text, "abc") == text.index("<!--   id:abc")
    assert header_start(text, "abcd") == text.index("<!-- id:abcd")
    assert header_start(text, "ab") == -1
    assert header_start("<!-- id:abc-->", "abc") == 0
    assert header_start("<!-- id:abc", "abc") == -1


@given(
    st.lists(
        st.sampled_from(["<!-- id:", "<!--  id:", "a1", "a", "1", " ", "\n", "-->", "x"]),
        max_size=30,
    ),
    st.sampled_from(["a1", "a", "1"]),
)
def test_it_finds_what_the_pattern_finds(parts, entry_id):
    text = "".join(parts)
    assert header_start(text, entry_id) == by_pattern(text, entry_id)
