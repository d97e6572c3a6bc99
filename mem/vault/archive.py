"""Move entries from a category file to its archive (`archive/<category>.md`), losing nothing.

The archive is written first and the entries taken out of the hot file after, each write atomic:
a process killed in between leaves a copy in both files, never a loss, and the next move takes
such copies out of the hot file first without archiving them twice.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from pathlib import Path

from mem.model import Entry
from mem.vault import entries as entry_codec
from mem.vault import layout, store


def archive_ref(ref: layout.FileRef) -> layout.FileRef:
    return layout.file_ref(ref.agent, ref.category, ref.scope, archived=True)


def move_to_archive(
    vault: Path,
    ref: layout.FileRef,
    choose: Callable[[list[Entry]], Collection[str]],
) -> list[Entry]:
    """Under the hot file's lock, move the entries `choose` names (given the file's entries
    as they are then, but for copies already in the archive) to the archive; return those newly
    archived."""
    return move_entries(vault, ref, archive_ref(ref), choose)


def move_entries(
    vault: Path,
    ref: layout.FileRef,
    archive: layout.FileRef,
    choose: Callable[[list[Entry]], Collection[str]],
    finish_copies: bool = True,
) -> list[Entry]:
    """Move the entries `choose` names from `ref` to another file (`archive`), written there
    first; return those newly written there.

    With `finish_copies` (a move to the file's own archive), an entry already in both files
    is a move a kill stopped: it leaves whatever `choose` says. Without it (a private entry
    becoming the agent's), only what `choose` names leaves: an id the other file holds too
    may be another entry's (a hand copy, a merge), and a private entry goes public only when
    it is due."""
    with store.locked(vault, ref.path):
        parsed = entry_codec.parse_ref(store.read_strict(vault, ref.path), ref)
        archived = {
            entry.id
            for entry in entry_codec.parse_ref(
                store.read_text(vault, archive.path), archive
            ).entries
        }
        if finish_copies:
            # Copies a killed move left in both files leave anyway; `choose` judges the rest.
            wanted = set(choose([s.entry for s in parsed.spans if s.entry.id not in archived]))
            leaving = [s for s in parsed.spans if s.entry.id in wanted or s.entry.id in archived]
        else:
            wanted = set(choose([s.entry for s in parsed.spans]))
            leaving = [s for s in parsed.spans if s.entry.id in wanted]
        if not leaving:
            return []

        def add_to_archive(old: str) -> str:
            text = old or entry_codec.new_file_text(ref.agent, ref.category)
            text = with_later_copies(text, archive, parsed, leaving)
            current = entry_codec.parse_ref(text, archive)
            present = {entry.id for entry in current.entries}
            # In one insertion, in the hot file's order (newest first): a compaction moves
            # thousands, and parsing the archive again for each would cost their square.
            blocks = "".join(
                parsed.text[span.start : span.end].rstrip("\n") + "\n\n"
                for span in leaving
                if span.entry.id not in present
            )
            return entry_codec.insert_entry(current, blocks) if blocks else text

        store.update(vault, archive.path, add_to_archive)
        gone = {span.entry.id for span in leaving}

        def take_out(old: str) -> str:
            # The file as it is now: a person may have saved it since it was read above.
            current = entry_codec.parse_ref(old, ref)
            return without(old, [span for span in current.spans if span.entry.id in gone])

        store.rewrite(vault, ref.path, take_out)
    return [span.entry for span in leaving if span.entry.id not in archived]


def with_later_copies(
    text: str,
    archive: layout.FileRef,
    hot: entry_codec.ParsedFile,
    leaving: list[entry_codec.EntrySpan],
) -> str:
    """The archive's text with each entry a stopped move left in both files as the hot file
    has it: it may have been edited (or reinforced) since the archive's copy was written."""
    current = entry_codec.parse_ref(text, archive)
    later = {
        span.entry.id: hot.text[span.start : span.end].rstrip("\n") + "\n\n" for span in leaving
    }
    for span in reversed(current.spans):  # from the end: earlier offsets stay good
        copy = later.get(span.entry.id)
        if copy is None:
            continue
        block = text[span.start : span.end]
        copy = entry_codec.with_keys_of(block, copy)  # a forget only the archive's copy has
        if block.rstrip("\n") != copy.rstrip("\n"):
            text = text[: span.start] + copy + text[span.end :].lstrip("\n")
    return text


def without(text: str, spans: list[entry_codec.EntrySpan]) -> str:
    """The text with these entries cut out, each with the blank lines after it (one pass)."""
    pieces, cursor = [], 0
    for span in sorted(spans, key=lambda s: s.start):
        pieces.append(text[cursor : span.start])
        cursor = span.end
        while cursor < len(text) and text[cursor] in "\r\n":
            cursor += 1
    pieces.append(text[cursor:])
    return "".join(pieces)
