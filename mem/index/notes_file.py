"""The vault's lessons and warnings, kept beside the index, one JSON line each.

`mem hook` looks them up before every edit and command an agent makes. Read from this file,
the answer takes a few milliseconds; opening the Whoosh index to ask it the same costs ~90 ms
(its import and its table of contents) before the lookup even starts. One line per note lets
a lookup decode only the lines that hold the words it wants. The index writer keeps the file in
step, replacing a category file's notes whenever it reindexes that file.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime
from json.decoder import scanstring  # type: ignore[attr-defined]
from pathlib import Path

from mem.index.sidecar import replace_text
from mem.model import Entry

NOTES_FILE = "notes.jsonl"
HEADER = '{"mem-notes": 1}'

ByPath = dict[str, list[Entry]]


def is_note(entry: Entry) -> bool:
    """An entry a tool call may need: a lesson, or a warning of any category."""
    return entry.category == "lessons" or entry.kind == "warning"


def line_of(entry: Entry) -> str:
    row = [
        entry.path,
        entry.id,
        entry.agent,
        entry.category,
        entry.kind,
        int(entry.date.timestamp()),
        entry.scope,
        [list(pair) for pair in entry.header],
        entry.body,
    ]
    return json.dumps(row, ensure_ascii=False)


def entry_of(line: str) -> Entry:
    path, entry_id, agent, category, kind, seconds, scope, header, body = json.loads(line)
    return Entry(
        id=entry_id,
        agent=agent,
        category=category,
        kind=kind,
        date=datetime.fromtimestamp(seconds, UTC),
        tags=(),
        body=body,
        header=tuple((str(key), str(value)) for key, value in header),
        scope=scope,
        path=path,
        archived="/archive/" in path,
    )


def by_path(entries: Iterable[Entry]) -> ByPath:
    """The notes among `entries`, grouped by the file they live in."""
    found: ByPath = {}
    for entry in entries:
        if is_note(entry):
            found.setdefault(entry.path, []).append(entry)
    return found


def read_lines(folder: Path) -> list[str] | None:
    """The saved notes' lines, or None when there is no readable file of this version: the
    caller then works the notes out from the index."""
    try:
        text = (folder / NOTES_FILE).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    header, _, rest = text.partition("\n")
    if header != HEADER:
        return None
    return rest.splitlines()


def read(folder: Path) -> ByPath | None:
    """Every saved note, by file, or None when there is no readable file."""
    lines = read_lines(folder)
    return None if lines is None else by_path(entries(lines))


def entries(lines: Iterable[str], words: Sequence[str] = ()) -> list[Entry]:
    """The notes these lines hold, unreadable lines skipped; given `words` (lowercase), only
    the notes whose line holds one of them (the caller matches the survivors exactly)."""
    wanted = [json.dumps(word, ensure_ascii=False)[1:-1] for word in words]  # as a line has it
    found = []
    for line in lines:
        if wanted and not any(word in line.lower() for word in wanted):
            continue
        try:
            found.append(entry_of(line))
        except (TypeError, ValueError, OverflowError):
            continue  # a damaged line loses one note until the next write, not the rest
    return found


def write(folder: Path, notes: Mapping[str, list[Entry]]) -> None:
    """Save the notes atomically (a reader sees the old file or the new, never half)."""
    write_lines(folder, [line_of(entry) for path in sorted(notes) for entry in notes[path]])


def replace(folder: Path, notes: Mapping[str, list[Entry]]) -> bool:
    """Replace the notes of the files in `notes` and keep every other line as it stands, not
    decoded: a vault of 100,000 entries holds ~25,000 notes, and one edited file should not
    cost them all. False when there is no readable file to change."""
    lines = read_lines(folder)
    if lines is None:
        return False
    kept = [(path, line) for line in lines if (path := path_of(line)) not in notes]
    kept += [(path, line_of(entry)) for path in notes for entry in notes[path]]
    kept.sort(key=lambda pair: pair[0])  # stable: by file, each file's notes in their order
    write_lines(folder, [line for _, line in kept])
    return True


def path_of(line: str) -> str:
    """The file a line's note lives in (its first field), read without decoding the rest;
    '' for a damaged line, which goes on being skipped."""
    try:
        return str(scanstring(line, 2)[0]) if line.startswith('["') else ""
    except ValueError:
        return ""


def write_lines(folder: Path, lines: list[str]) -> None:
    replace_text(folder / NOTES_FILE, "\n".join([HEADER, *lines]) + "\n")
