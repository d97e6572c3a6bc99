"""Carry a write of mem's over a person's save that landed while it was being made.

mem read a category file, worked out its change, and found on writing that an editor had saved
the file meanwhile. Working the change out again costs as much as the first time (a commit
parses the file and compares each candidate with every entry), and an editor saving every few
hundred milliseconds can outpace that on a large file. When the two changes touch different
entries, the text mem meant to write differs from what it read in one stretch, and the
person's save in another: mem's stretch is put into the person's text as it stands, at C speed.

Entries are read chunk by chunk, a chunk being a header line and what follows down to the next
(see entries.parse_file). Two stretches with a whole header line between them are in different
chunks, so the file reads as the person's save with mem's entries changed, and nothing else.
Anything closer (the same entry, or text outside every entry) is worked out again.
"""

from __future__ import annotations

from mem.vault.entries import HEADER

STEP = 4096  # characters compared at once while looking for where two texts part


def rebased(base: str, ours: str, theirs: str) -> tuple[str, str] | None:
    """`theirs` with the change that made `ours` out of `base`, when the two changes are
    stretches with a whole header line between them, and the stretch of text `theirs` put
    in; else None."""
    if ours == base:
        return theirs, ""
    if theirs == base:
        return ours, ""
    ours_start, ours_end, ours_new_end = changed(base, ours)
    theirs_start, theirs_end, theirs_new_end = changed(base, theirs)
    if ours_end <= theirs_start:
        merged = ours[:ours_new_end] + base[ours_end:theirs_start] + theirs[theirs_start:]
        gap = (ours_new_end, ours_new_end + theirs_start - ours_end)
    elif theirs_end <= ours_start:
        merged = theirs[:theirs_new_end] + base[theirs_end:ours_start] + ours[ours_start:]
        gap = (theirs_new_end, theirs_new_end + ours_start - theirs_end)
    else:
        return None
    put_in = theirs[theirs_start:theirs_new_end]
    return (merged, put_in) if holds_a_header(merged, *gap) else None


def changed(base: str, other: str) -> tuple[int, int, int]:
    """The one stretch in which `other` differs from `base`: (its start, its end in `base`,
    its end in `other`), the texts being equal before the start and after the ends."""
    # Whole lines: an entry put on top of another shares the start of its header line
    # ("<!-- id:2026…") and would otherwise seem to start mid-line, inside the other's chunk.
    start = base.rfind("\n", 0, common_prefix(base, other)) + 1
    limit = min(len(base), len(other)) - start  # the suffix may not reach into the prefix
    tail = common_suffix(base, other, limit)
    end = len(base) - tail
    if end > start and base[end - 1] != "\n":
        line_end = base.find("\n", end)
        tail = 0 if line_end < 0 else len(base) - line_end - 1
    return start, len(base) - tail, len(other) - tail


def common_prefix(first: str, second: str) -> int:
    """How many characters the two texts start with in common."""
    size = min(len(first), len(second))
    at = 0
    while at < size and first[at : at + STEP] == second[at : at + STEP]:
        at += STEP
    at = min(at, size)
    while at < size and first[at] == second[at]:
        at += 1
    return at


def common_suffix(first: str, second: str, limit: int) -> int:
    """How many characters (at most `limit`) the two texts end with in common."""
    last, other = len(first), len(second)
    tail = 0
    while (
        tail + STEP <= limit
        and first[last - tail - STEP : last - tail] == second[other - tail - STEP : other - tail]
    ):
        tail += STEP
    while tail < limit and first[last - tail - 1] == second[other - tail - 1]:
        tail += 1
    return tail


def holds_a_header(text: str, start: int, end: int) -> bool:
    """Whether text[start:end] holds a whole header line, starting a line of `text`."""
    at = start
    while True:
        found = text.find("<", at, end)
        if found < 0:
            return False
        stop = text.find("\n", found, end)
        if stop < 0:
            return False
        starts_line = found == 0 or text[found - 1] == "\n"
        if starts_line and HEADER.fullmatch(text[found:stop].rstrip("\r")):
            return True
        at = stop + 1
