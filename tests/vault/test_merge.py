"""Category files merged entry by entry, as git's merge driver: each entry whole from the side
that changed it, so no merge can put one entry's header over another's body."""

from __future__ import annotations

from datetime import UTC, datetime

from mem.vault import entries as codec
from mem.vault.merge import merge

HEAD = codec.new_file_text("dev", "handoffs")
WEEK = datetime(2026, 11, 2, 9, 0, tzinfo=UTC)


def block(entry_id: str, body: str, *pairs: tuple[str, str], at: datetime = WEEK) -> str:
    return codec.render_entry(entry_id, at, (), body, (("kind", "handoff"), *pairs))


def ids(text: str) -> list[str]:
    return [span.entry.id for span in codec.parse_file(text, "f.md", "dev", "handoffs").spans]


def test_entries_both_sides_added_are_all_kept_theirs_on_top():
    base = HEAD + block("b1", "base")
    ours = HEAD + block("o1", "ours") + block("b1", "base")
    theirs = HEAD + block("t1", "theirs") + block("b1", "base")
    merged = merge(base, ours, theirs)
    assert merged is not None and ids(merged) == ["t1", "o1", "b1"]
    assert codec.parse_file(merged, "f.md", "dev", "handoffs").problems == ()


def test_a_roll_up_on_one_side_and_a_new_session_on_the_other_keep_every_header_on_its_body():
    # The case git's union merge got wrong: a weekly roll-up shares its heading line with its
    # first session, and the other branch added a handoff just above.
    first, second = block("h1", "session 1 fixed the build"), block("h2", "session 2 fixed auth")
    base = HEAD + first + second
    rollup = block("r1", "2 session(s) of week 2026-W45", ("rollup", "2026-W45"))
    ours = HEAD + rollup  # the compaction moved h1 and h2 to the archive
    theirs = HEAD + block("h3", "session 3 fixed the login", at=datetime(2026, 11, 20, tzinfo=UTC))
    theirs += first + second
    merged = merge(base, ours, theirs)
    assert merged is not None and ids(merged) == ["h3", "r1"]
    parsed = codec.parse_file(merged, "f.md", "dev", "handoffs")
    assert parsed.problems == ()
    assert {e.id: e.body for e in parsed.entries} == {
        "h3": "session 3 fixed the login",
        "r1": "2 session(s) of week 2026-W45",
    }


def test_an_entry_taken_away_on_one_side_and_changed_on_the_other_is_kept_changed():
    base = HEAD + block("b1", "base")
    ours = HEAD  # forgotten and moved, or compacted
    theirs = HEAD + block("b1", "base", ("reinforced", "2"))
    assert ids(merge(base, ours, theirs) or "") == ["b1"]
    assert ids(merge(base, ours, HEAD + block("b1", "base")) or "x") == []


def test_both_sides_changing_one_entry_keep_both_changes():
    base = HEAD + block("b1", "the cache is warmed at start")
    ours = HEAD + block("b1", "the cache is warmed at start", ("reinforced", "3"))
    ours = ours.replace("warmed at start", "warmed at start\nours: by the worker")
    theirs = HEAD + block("b1", "the cache is warmed at start", ("superseded-by", "forgotten"))
    theirs = theirs.replace("warmed at start", "warmed at start\ntheirs: not in tests")
    merged = merge(base, ours, theirs)
    assert merged is not None
    (entry,) = codec.parse_file(merged, "f.md", "dev", "handoffs").entries
    assert entry.get("reinforced") == "3" and entry.get("superseded-by") == "forgotten"
    assert "ours: by the worker" in entry.body and "theirs: not in tests" in entry.body


def test_a_note_between_entries_stays_with_the_entry_above_it():
    base = HEAD + block("b1", "base") + "a note by hand\n\n" + block("b2", "two")
    theirs = HEAD + block("t1", "new") + block("b1", "base") + "a note by hand\n\n"
    theirs += block("b2", "two")
    merged = merge(base, base, theirs)
    assert merged is not None and "a note by hand" in merged and ids(merged) == ["t1", "b1", "b2"]


def test_a_file_mem_cannot_cut_apart_is_left_to_the_union_merge():
    damaged = HEAD + block("b1", "base").replace(" -->", "")  # a header that never closes
    assert merge(HEAD, damaged, HEAD) is None
    twice = HEAD + block("b1", "one") + block("b1", "two")
    assert merge(HEAD, twice, HEAD) is None
    assert merge("not a category file\n", "ours\n", "theirs\n") is None  # heads both changed
