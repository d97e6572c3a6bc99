"""A write of mem's carried over a person's save that touched other entries."""

from __future__ import annotations

from datetime import UTC, datetime

from hypothesis import given, settings
from hypothesis import strategies as st

from mem.vault import entries as codec
from mem.vault.rebase import changed
from mem.vault.rebase import rebased as carried

MOMENT = datetime(2026, 3, 1, 10, 0, tzinfo=UTC)
TOP = codec.new_file_text("dev", "lessons")


def block(number: int, body: str | None = None, reinforced: int = 0) -> str:
    header = [("kind", "lesson")] + ([("reinforced", str(reinforced))] if reinforced else [])
    text = body if body is not None else f"lesson {number}"
    return codec.render_entry(f"20260301-100000-{number:04d}", MOMENT, (), text, tuple(header))


def rebased(base: str, ours: str, theirs: str) -> str | None:
    """The merged text alone (see test_what_their_save_put_in_is_named for the rest)."""
    found = carried(base, ours, theirs)
    return None if found is None else found[0]


def file_of(blocks: list[str]) -> str:
    return TOP + "".join(blocks)


def entries(text: str) -> list[tuple[str, str, tuple[tuple[str, str], ...]]]:
    parsed = codec.parse_file(text, "dev/lessons.md", "dev", "lessons")
    assert not parsed.problems
    return [(entry.id, entry.body, entry.header) for entry in parsed.entries]


def test_an_entry_mem_put_on_top_and_one_saved_at_the_end_are_both_kept():
    base = file_of([block(1), block(2)])
    ours = file_of([block(9), block(1), block(2)])
    theirs = file_of([block(1), block(2), block(3, "saved by hand")])
    merged = rebased(base, ours, theirs)
    assert merged == file_of([block(9), block(1), block(2), block(3, "saved by hand")])


def test_an_entry_mem_put_on_top_is_kept_over_a_save_that_changed_the_first_entry():
    base = file_of([block(1), block(2)])
    ours = file_of([block(9), block(1), block(2)])
    theirs = file_of([block(1, "changed by hand"), block(2)])
    assert rebased(base, ours, theirs) == file_of([block(9), block(1, "changed by hand"), block(2)])


def test_a_reinforcement_is_carried_over_a_save_to_another_entry_either_side():
    base = file_of([block(1), block(2), block(3)])
    ours = file_of([block(1), block(2), block(3, reinforced=2)])
    theirs = file_of([block(1, "changed by hand"), block(2), block(3)])
    expected = file_of([block(1, "changed by hand"), block(2), block(3, reinforced=2)])
    assert rebased(base, ours, theirs) == expected
    assert rebased(base, theirs, ours) == expected


def test_changes_to_one_entry_or_next_to_each_other_are_worked_out_again():
    base = file_of([block(1), block(2)])
    ours = file_of([block(1, reinforced=1), block(2)])
    # The same entry: its header, and its body.
    assert rebased(base, ours, file_of([block(1, "changed by hand"), block(2)])) is None
    # Neighbours with no whole header between the changes: entry 1's body, entry 2's header.
    theirs = file_of([block(1), block(2, reinforced=3)])
    assert (
        rebased(file_of([block(1), block(2)]), file_of([block(1, "x"), block(2)]), theirs) is None
    )
    # Both put an entry in the same place.
    assert (
        rebased(
            base, file_of([block(8), block(1), block(2)]), file_of([block(9), block(1), block(2)])
        )
        is None
    )
    # Text appended after the last entry, while mem changes that entry.
    assert rebased(base, file_of([block(1), block(2, reinforced=1)]), base + "a note\n") is None


def test_what_their_save_put_in_is_named():
    # A commit that added an entry looks at what a person's save put in for one saying the same.
    base = file_of([block(1), block(2)])
    ours = file_of([block(9), block(1), block(2)])
    theirs = file_of([block(1), block(2), block(3, "saved by hand")])
    assert carried(base, ours, theirs) == (
        file_of([block(9), block(1), block(2), block(3, "saved by hand")]),
        block(3, "saved by hand"),
    )


def test_a_change_either_side_left_alone_is_taken_as_it_is():
    base = file_of([block(1)])
    assert rebased(base, base, "anything") == "anything"
    assert rebased(base, "ours", base) == "ours"


def test_where_two_texts_part_is_found_across_long_equal_stretches_in_whole_lines():
    base = "a\n" * 5_000 + "b\n" + "c\n" * 4_500
    other = "a\n" * 5_000 + "XY\n" + "c\n" * 4_500
    assert changed(base, other) == (10_000, 10_002, 10_003)
    # An entry put on top of another: the stretch starts and ends at whole lines.
    assert changed("x\nid:1\n", "x\nid:9\nid:1\n") == (2, 2, 7)
    assert changed("a\nbcd\n", "a\nbXd\n") == (2, 6, 6)
    assert changed("aaaa", "aaaaaa") == (0, 0, 2)  # the suffix never reaches into the prefix
    assert changed("abc", "abc") == (0, 0, 0)


@settings(max_examples=200, deadline=None, database=None)
@given(
    st.integers(min_value=2, max_value=8).flatmap(
        lambda size: st.tuples(
            st.just(size),
            st.integers(min_value=0, max_value=size - 1),
            st.integers(min_value=0, max_value=size - 1),
            st.sampled_from(["reinforce", "rewrite", "delete"]),
            st.sampled_from(["reinforce", "rewrite", "delete", "insert"]),
        )
    )
)
def test_a_carried_change_reads_as_both_changes_made_one_after_the_other(case):
    size, mine, yours, my_edit, your_edit = case

    def edited(blocks: list[str], at: int, how: str) -> list[str]:
        blocks = list(blocks)
        if how == "reinforce":
            blocks[at] = block(at, reinforced=5)
        elif how == "rewrite":
            blocks[at] = block(at, f"rewritten {at} by {how}")
        elif how == "delete":
            del blocks[at]
        else:
            blocks.insert(at, block(100 + at, "inserted by hand"))
        return blocks

    start = [block(number) for number in range(size)]
    ours, theirs = edited(start, mine, my_edit), edited(start, yours, your_edit)
    merged = rebased(file_of(start), file_of(ours), file_of(theirs))
    if merged is None:
        return  # worked out again: nothing to check here
    # Both changes, as if mem had worked its change out on the person's save.
    by_id = {entry_id: (body, header) for entry_id, body, header in entries(file_of(ours))}
    mine_id = f"20260301-100000-{mine:04d}"
    expected = []
    for entry_id, body, header in entries(file_of(theirs)):
        if entry_id == mine_id:
            if my_edit == "delete":
                continue
            body, header = by_id[entry_id]
        expected.append((entry_id, body, header))
    assert entries(merged) == expected
