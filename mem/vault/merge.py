"""A three-way merge of one category file, entry by entry: the merge driver `mem init` gives git.

Git's union merge works line by line: when both branches change entries next to each other, it
can put one entry's header over another's body (a weekly roll-up of handoffs shares its heading
line with its first session), and nothing read afterwards can tell. Merged by id, each entry is
taken whole from the side that changed it; only where both changed one entry are they joined:
its header keys as `mem doctor --fix` joins a doubled header, and the lines of the other's text
that this one lacks kept in it, so no one's words are lost. A file that does not read as a
category file on any side (a damaged header, an id twice) is left to the union merge."""

from __future__ import annotations

from typing import NamedTuple

from mem.vault import entries as codec

# What makes a file's entries ambiguous to cut apart by id: left to the union merge.
UNCLEAR = {"malformed_entry", "duplicate_header", "shared_body", "unclosed_fence"}


class Split(NamedTuple):
    """A category file cut into its entries: the text before the first, then each entry's
    text with whatever follows it up to the next (a note between entries stays with it)."""

    head: str
    blocks: dict[str, str]
    order: list[str]


def split(text: str) -> Split | None:
    """The file's entries by id, or None when it cannot be cut apart by id without doubt."""
    parsed = codec.parse_file(text, "merge.md", "merge", "facts")
    if any(problem.code in UNCLEAR for problem in parsed.problems):
        return None
    spans = parsed.spans
    order = [span.entry.id for span in spans]
    if len(set(order)) != len(order):
        return None
    if not spans:
        return Split(text, {}, [])
    ends = [span.start for span in spans[1:]] + [len(text)]
    blocks = {span.entry.id: text[span.start : end] for span, end in zip(spans, ends, strict=True)}
    return Split(text[: spans[0].start], blocks, order)


def merge(base: str, ours: str, theirs: str) -> str | None:
    """Ours and theirs merged entry by entry against their common base; None when a side does
    not read as a category file, or both changed the text above the entries differently."""
    old, mine, other = split(base), split(ours), split(theirs)
    if old is None or mine is None or other is None:
        return None
    if mine.head == other.head or other.head == old.head:
        head = mine.head
    elif mine.head == old.head:
        head = other.head
    else:
        return None
    merged: dict[str, str] = {}
    for entry_id in dict.fromkeys([*mine.order, *other.order, *old.order]):
        block = merge_entry(
            old.blocks.get(entry_id), mine.blocks.get(entry_id), other.blocks.get(entry_id)
        )
        if block is not None:
            merged[entry_id] = block
    # Entries new on their side go on top, newest first as mem writes them; then ours, in our
    # order; then any of theirs that we no longer hold but they changed.
    new = [i for i in other.order if i not in mine.blocks and i not in old.blocks]
    order = [*new, *mine.order, *(i for i in other.order if i not in mine.blocks)]
    chosen = [merged[i] for i in dict.fromkeys(order) if i in merged]
    # The last of a side's file may end at its `---`: above another entry it needs its blank.
    return head + "".join([*(separated(block) for block in chosen[:-1]), *chosen[-1:]])


def merge_entry(old: str | None, mine: str | None, other: str | None) -> str | None:
    """One entry as it stands after the merge; None when it is gone from both sides, or one
    side took it away (a forget's move, a compaction) and the other left it as it was."""
    if mine is None or other is None:
        kept = mine if other is None else other
        return None if kept is None or kept == old else kept
    if mine == other or other == old:
        return mine
    if mine == old:
        return other
    return joined(mine, other)


def joined(mine: str, other: str) -> str:
    """Both sides changed one entry: ours, with the header keys theirs holds joined in and the
    lines of their text ours lacks added before its closing `---`."""
    block = codec.with_keys_of(other, mine)
    own = set(body_lines(block))
    extra = [line for line in body_lines(other) if line.strip() and line not in own]
    if not extra:
        return block
    close = block.rfind(f"\n{codec.SEPARATOR}\n")
    if close < 0:
        return block.rstrip("\n") + "\n" + "\n".join(extra) + "\n"
    body = block[:close].rstrip("\n")
    return body + "\n" + "\n".join(extra) + "\n" + block[close:]


def body_lines(block: str) -> list[str]:
    """The lines of an entry's text below its header and heading, up to its `---`."""
    lines = block.split("\n")[1:]
    if codec.SEPARATOR in lines:
        lines = lines[: lines.index(codec.SEPARATOR)]
    return lines[1:]


def separated(block: str) -> str:
    """An entry's block ending in a blank line, so the next header starts a line of its own."""
    if block.endswith("\n\n"):
        return block
    return block + ("\n" if block.endswith("\n") else "\n\n")
