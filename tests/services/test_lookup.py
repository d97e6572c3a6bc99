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


@given(
    st.lists(
        st.sampled_from(["<!-- id:", "<!--  id:", "a1", "a", "1", " ", "\n", "-->", "é", "x"]),
        max_size=30,
    )
)
def test_a_header_found_in_bytes_is_the_one_the_pattern_finds(parts):
    from mem.services.lookup import header_start_bytes

    text = "".join(parts)
    for entry_id in ("a1", "a", "1"):
        found = header_start_bytes(text.encode(), entry_id)
        if found >= 0:  # else the caller looks with the pattern
            assert len(text.encode()[:found].decode()) == by_pattern(text, entry_id)


def test_lines_are_read_from_the_top_of_a_long_file_as_far_as_needed(tmp_path, monkeypatch):
    from mem.model import Entry
    from mem.services.lookup import with_lines
    from mem.vault import store

    blocks = [
        f"<!-- id:e{n} kind:lesson -->\n## Lesson {n}\n\nbody {'x' * 200}\n" for n in range(900)
    ]
    text = "---\ntitle: Lessons\n---\n\n" + "".join(blocks) + "<!--  id:odd -->\n## Odd\n"
    (tmp_path / "dev").mkdir()
    (tmp_path / "dev" / "lessons.md").write_text(text, encoding="utf-8")
    read: list[int] = []
    original = store.read_from_top

    def counted(vault, relative, first=1 << 16):
        for part in original(vault, relative, first):
            read.append(len(part))
            yield part

    monkeypatch.setattr(store, "read_from_top", counted)

    def entry(entry_id):
        return Entry(entry_id, "dev", "lessons", "lesson", None, (), "", (), path="dev/lessons.md")

    def line_of(entry_id):
        return text[: text.index(f"id:{entry_id} ")].count("\n") + 1

    placed = with_lines(tmp_path, [entry("e3"), entry("e10")])
    assert [e.line for e in placed] == [line_of("e3"), line_of("e10")]
    assert read == [1 << 16]  # the top of a ~200 KB file
    read.clear()
    placed = with_lines(tmp_path, [entry("e899"), entry("odd"), entry("gone")])
    assert [e.line for e in placed] == [line_of("e899"), text.count("\n") - 1, 0]
    assert read[-1] == len(text.encode())
