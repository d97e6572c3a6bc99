"""Guarded edits of category files: each takes the file's lock, changes only the entries it
names, and refuses a write that would change any other entry (the last line of defence
against losing one). Services decide what to write; this module writes it."""

from __future__ import annotations

import re
from collections.abc import Callable, Collection
from datetime import datetime
from pathlib import Path

from mem.errors import EntryNotFound, UnsafeEdit
from mem.model import SHARED_FOLDER, Entry
from mem.vault import entries as codec
from mem.vault import layout, store

OPEN_BOX = re.compile(r"^(?P<lead>\s*[-*] )\[ \](?P<rest>.*)$")


def insert(vault: Path, ref: layout.FileRef, blocks: str, new_ids: Collection[str]) -> list[Entry]:
    """Put rendered entries on top of a category file (creating it); return them as parsed."""
    folder_agent = SHARED_FOLDER if ref.scope == "shared" else ref.agent

    written: list[codec.ParsedFile] = []  # the text last made, parsed (no third parse)

    def change(old: str) -> str:
        text = old or codec.new_file_text(folder_agent, ref.category)
        before = codec.parse_ref(text, ref)
        after = codec.insert_entry(before, blocks)
        written[:] = [codec.parse_ref(after, ref)]
        check_others_unchanged(before, written[0], set(new_ids), ref.path)
        return after

    # What to add was decided before (a twin of it was looked for by the caller), so it can be
    # carried over a person's save to other entries as it is.
    store.update(vault, ref.path, change, carry=lambda put_in: True)
    found = [s.entry for s in written[0].spans if s.entry.id in new_ids]
    if len(found) != len(set(new_ids)):  # blocks we rendered always parse: anything else is a bug
        raise AssertionError(f"entries {sorted(new_ids)} did not parse after insertion")
    return found


def set_header(vault: Path, entry: Entry, updates: dict[str, str | None]) -> Entry:
    """Change header keys of one entry (None removes one), editing only its header line."""
    ref = ref_of(entry)

    def change(old: str) -> str:
        parsed = codec.parse_ref(old, ref)
        if parsed.span_of(entry.id) is None:
            raise gone(entry)
        after = codec.with_header(parsed, entry.id, updates)
        check_others_unchanged(parsed, codec.parse_ref(after, ref), {entry.id}, ref.path)
        return after

    _, new_text = store.update(vault, ref.path, change)
    span = codec.parse_ref(new_text, ref).span_of(entry.id)
    return span.entry if span else entry


def tick(vault: Path, entry: Entry, matching: str, done_at: datetime) -> tuple[Entry, int]:
    """Tick a task's open boxes (those containing `matching`, all when it is empty); mark the
    task done at `done_at` when none is left open. Returns the task and the boxes ticked."""
    ref = ref_of(entry)
    ticked = 0

    def change(old: str) -> str:
        nonlocal ticked
        ticked = 0
        parsed = codec.parse_ref(old, ref)
        span = parsed.span_of(entry.id)
        if span is None:
            raise gone(entry)
        lines = old[span.start : span.end].splitlines(keepends=True)
        for number, line in enumerate(lines):
            match = OPEN_BOX.match(line.rstrip("\r\n"))
            if match and matching.lower() in match.group("rest").lower():
                ending = line[len(line.rstrip("\r\n")) :]
                lines[number] = f"{match.group('lead')}[x]{match.group('rest')}{ending}"
                ticked += 1
        text = codec.with_entry_text(parsed, entry.id, "".join(lines))
        reparsed = codec.parse_ref(text, ref)
        done = reparsed.span_of(entry.id)
        if ticked and done and not done.entry.is_open_task:
            text = codec.with_header(reparsed, entry.id, {"done": codec.format_date(done_at)})
        check_others_unchanged(parsed, codec.parse_ref(text, ref), {entry.id}, ref.path)
        return text

    _, new_text = store.update(vault, entry.path, change)
    span = codec.parse_ref(new_text, ref).span_of(entry.id)
    return (span.entry if span else entry), ticked


def replace_block(
    vault: Path,
    path: str,
    entry_id: str,
    block: str,
    change: Callable[[str], str],
    last: bool = False,
) -> bool:
    """Under the file's lock, find the entry with this id and exactly this text, and replace
    its block with `change(block)` ("" removes it). Returns False when it is not there.

    Matching the text, not a line number, keeps a fix from hitting the wrong entry after an
    earlier fix or a person's edit moved things around.
    """
    ref = layout.describe(path)
    if ref is None:
        return False
    done = False

    def apply(old: str) -> str:
        nonlocal done
        parsed = codec.parse_ref(old, ref)
        matches = [
            span
            for span in parsed.spans
            if span.entry.id == entry_id and old[span.start : span.end] == block
        ]
        if not matches:
            return old
        span = matches[-1] if last else matches[0]
        done = True
        replacement = change(block)
        if replacement == "":
            return codec.without_entry(parsed, span)
        return old[: span.start] + replacement + old[span.end :]

    store.update(vault, path, apply)
    return done


def ref_of(entry: Entry) -> layout.FileRef:
    ref = layout.describe(entry.path)
    if ref is None:
        raise EntryNotFound(f"{entry.path} is not a category file")
    return ref


def gone(entry: Entry) -> EntryNotFound:
    return EntryNotFound(f"entry {entry.id} is no longer in {entry.path}; run the command again")


def check_others_unchanged(
    before: codec.ParsedFile, after: codec.ParsedFile, touched: set[str], path: str
) -> None:
    """Refuse a write that would change, hide or reveal any entry but the ones being written.

    A last line of defence: if the file holds something the parser reads differently after the
    edit (an odd fence, a stray header), stop rather than lose an entry.
    """

    def blocks(parsed: codec.ParsedFile) -> list[tuple[str, str]]:
        return [
            (span.entry.id, parsed.text[span.start : span.end])
            for span in parsed.spans
            if span.entry.id not in touched
        ]

    if blocks(before) != blocks(after) or any(after.span_of(i) is None for i in touched):
        raise UnsafeEdit(
            f"refusing to write {path}: the edit would change other entries; "
            "run `mem doctor` and fix the file by hand"
        )
