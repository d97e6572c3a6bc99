"""Open an entry in the person's editor, then take in whatever they changed."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from mem.config import Settings
from mem.errors import EditorFailed
from mem.model import Entry, Problem
from mem.services.add import without_secrets
from mem.services.feedback import QUIET, Feedback
from mem.services.lookup import find_entry, refuse_duplicates
from mem.services.refresh import fresh_index, parse
from mem.vault import entries as entry_codec
from mem.vault import layout, operations, store

OpenEditor = Callable[[Path, int], int]  # (file, line) -> the editor's exit status


class EditReport(NamedTuple):
    before: Entry
    after: Entry | None  # None when the entry is gone or no longer parses
    changed: bool
    problems: tuple[Problem, ...]


def edit(
    settings: Settings, given: str, open_editor: OpenEditor, feedback: Feedback = QUIET
) -> EditReport:
    """Open the entry's file at its line; reindex the file once the editor closes."""
    vault = settings.require_vault()
    entry = find_entry(settings, given, feedback)
    refuse_duplicates(settings, entry)  # which copy the editor opens would be a guess
    path = layout.inside(vault, entry.path)
    before = store.read_bytes(vault, entry.path)
    status = open_editor(path, entry.line)
    if status != 0:
        raise EditorFailed(f"the editor exited with status {status}; the file is as it saved it")
    changed = store.read_bytes(vault, entry.path) != before
    fresh_index(vault, feedback, archive=True)  # the entry may be an archived one
    ref = layout.describe(entry.path)
    assert ref is not None  # find_entry only returns entries of category files
    entries, problems = parse(vault, ref)
    after = next((item for item in entries if item.id == entry.id), None)
    if changed and after is not None and redacted(vault, after, feedback):
        fresh_index(vault, feedback, archive=True)
        entries, problems = parse(vault, ref)
        after = next((item for item in entries if item.id == entry.id), None)
    return EditReport(entry, after, changed, problems)


def redacted(vault: Path, entry: Entry, feedback: Feedback) -> bool:
    """Replace any secret the person typed into the entry with its marker, as `mem add` does:
    True when one was. Only this entry: the rest of the file is the person's to keep."""
    ref = layout.describe(entry.path)
    assert ref is not None
    text = store.read_text(vault, entry.path)
    span = entry_codec.parse_ref(text, ref).span_of(entry.id)
    if span is None:
        return False
    block = text[span.start : span.end]
    clean = without_secrets([block], feedback)[0]
    return clean != block and operations.replace_block(
        vault, entry.path, entry.id, block, lambda _: clean
    )
