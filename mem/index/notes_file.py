"""The vault's lessons and warnings, kept beside the index, one JSON line each.

`mem hook` looks them up before every edit and command an agent makes. Read from this file,
the answer takes a few milliseconds; opening the Whoosh index to ask it the same costs ~90 ms
(its import and its table of contents) before the lookup even starts. One line per note lets
a lookup decode only the lines that hold the words it wants. The index writer keeps the file in
step, replacing a category file's notes whenever it reindexes that file.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from datetime import UTC, datetime
from json.decoder import scanstring  # type: ignore[attr-defined]
from pathlib import Path
from typing import TYPE_CHECKING

from mem.index.sidecar import replace_text
from mem.model import Entry

if TYPE_CHECKING:
    from mem.index.chunk_table import Patch

NOTES_FILE = "notes.jsonl"
HEADER = '{"mem-notes": 1}'

ByPath = dict[str, list[Entry]]


def is_note(entry: Entry) -> bool:
    """An entry a tool call may need: a lesson, or a warning of any category, in a hot file.
    The archive's are left out: no tool call is shown one, and after a year they are most of
    the vault's notes, which every lookup would read."""
    return not entry.archived and (entry.category == "lessons" or entry.kind == "warning")


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
    text = saved_text(folder)
    return None if text is None else lines_of(text)


def saved(folder: Path, words: Sequence[str] = ()) -> Iterator[Entry] | None:
    """The saved notes, newest first (given lowercase `words`, those whose line holds one), or
    None when there is no readable file of this version. The words are looked for in the whole
    text at once, and a line is decoded only when its note is asked for: at 100,000 entries
    the file holds ~25,000 notes, thousands may name a file, and this runs before every tool
    call an agent makes, which wants the newest few."""
    text = saved_text(folder)
    if text is None:
        return None
    lines = lines_holding(text, words) if words else lines_of(text)
    lines.sort(key=newest_key, reverse=True)
    return entries(lines, words)


def lines_of(text: str) -> list[str]:
    """The file's lines, split at newlines only: json.dumps leaves a U+2028 in a body as it
    is, and str.splitlines would cut the note in two there."""
    return [line for line in text.split("\n") if line]


def saved_text(folder: Path) -> str | None:
    """The saved notes' lines as one text, below the file's header; None when there is no
    readable file of this version."""
    try:  # bytes, decoded at once: a text read translates newlines, ~3 times slower
        text = (folder / NOTES_FILE).read_bytes().decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    header, _, rest = text.partition("\n")
    return rest if header == HEADER else None


def lines_holding(text: str, words: Sequence[str]) -> list[str]:
    """The lines of `text` whose lowercase form holds one of the lowercase `words` (as a JSON
    line writes them), in order. Lowercasing may change a text's length, never its lines."""
    lowered = text.lower()
    hits: dict[int, int] = {}  # where each line holding a word starts, and ends
    for word in words:
        wanted = json.dumps(word, ensure_ascii=False)[1:-1]
        if not wanted:
            continue
        at = lowered.find(wanted)
        while at >= 0:
            end = lowered.find("\n", at)
            hits[lowered.rfind("\n", 0, at) + 1] = len(lowered) if end < 0 else end
            at = -1 if end < 0 else lowered.find(wanted, end)
    if not hits:
        return []
    if len(lowered) == len(text):  # every character lowercased to one: the same places
        return [text[start : hits[start]] for start in sorted(hits)]
    # Line numbers of the hits, counted once through the text (the same in both forms).
    numbers, line, last = [], 0, 0
    for start in sorted(hits):
        line += lowered.count("\n", last, start)
        numbers.append(line)
        last = start
    lines = text.split("\n")
    return [lines[number] for number in numbers]


def read(folder: Path) -> ByPath | None:
    """Every saved note, by file, or None when there is no readable file."""
    lines = read_lines(folder)
    return None if lines is None else by_path(entries(lines))


def entries(lines: Iterable[str], words: Sequence[str] = ()) -> Iterator[Entry]:
    """The notes these lines hold, decoded as they are asked for, unreadable lines skipped;
    given `words` (lowercase), only the notes whose line holds one of them (the caller matches
    the survivors exactly)."""
    wanted = [json.dumps(word, ensure_ascii=False)[1:-1] for word in words]  # as a line has it
    for line in lines:
        if wanted and not any(word in line.lower() for word in wanted):
            continue
        try:
            yield entry_of(line)
        except (TypeError, ValueError, OverflowError):
            continue  # a damaged line loses one note until the next write, not the rest


def write(folder: Path, notes: Mapping[str, list[Entry]]) -> None:
    """Save the notes atomically (a reader sees the old file or the new, never half)."""
    write_lines(folder, [line_of(entry) for path in sorted(notes) for entry in notes[path]])


def replace(
    folder: Path, notes: Mapping[str, list[Entry]], patches: Mapping[str, Patch] | None = None
) -> bool:
    """Replace the notes of the files in `notes`, change those of the files `patches` name
    (see file_patch.py), and keep every other line as it stands, not decoded: a vault of
    100,000 entries holds ~25,000 notes, and one edited file should not cost them all. False
    when there is no readable file to change."""
    if patches and not notes and patch_in_place(folder, patches):
        return True
    lines = read_lines(folder)
    if lines is None:
        return False
    patches = patches or {}
    kept: list[tuple[str, str]] = []
    patched: dict[str, dict[str, str]] = {path: {} for path in patches}
    for line in lines:
        path = path_of(line)
        if path in patched:
            patched[path][id_of(line)] = line
        elif path not in notes:
            kept.append((path, line))
    kept += [(path, line_of(entry)) for path in notes for entry in notes[path]]
    for path, patch in patches.items():
        kept += [(path, line) for line in patched_lines(patched[path], patch)]
    kept.sort(key=lambda pair: pair[0])  # stable: by file, each file's notes in their order
    write_lines(folder, [line for _, line in kept])
    return True


def patched_lines(by_id: dict[str, str], patch: Patch) -> list[str]:
    """A file's note lines (`by_id`) as a patch of it leaves them, in the file's order."""
    for entry_id in patch.deleted:
        by_id.pop(entry_id, None)
    for entry, _, _ in patch.added:
        by_id.pop(entry.id, None)  # a note no more if its kind changed
        if is_note(entry):
            by_id[entry.id] = line_of(entry)
    return [by_id[entry_id] for entry_id in patch.order if entry_id in by_id]


def patch_in_place(folder: Path, patches: Mapping[str, Patch]) -> bool:
    """Change the lines of the patched files where they stand, finding them as text: the
    lines are sorted by file, so a file's notes are one run of lines starting with its path.
    False, with nothing written, for a file with no notes yet or a file not as expected: the
    caller goes the long way."""
    try:
        text = (folder / NOTES_FILE).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return False
    if not text.startswith(HEADER + "\n"):
        return False
    before = text
    for path, patch in patches.items():
        start_mark = "\n" + json.dumps([path], ensure_ascii=False)[:-1] + ", "
        start = text.find(start_mark)
        if start < 0:
            if not any(is_note(entry) for entry, _, _ in patch.added):
                continue  # no notes before, none now
            return False
        last = text.rfind(start_mark)  # the run's last line: the lines are sorted by file
        newline = text.find("\n", last + 1)
        end = len(text) if newline < 0 else newline + 1
        run = lines_of(text[start + 1 : end])
        if any(not line.startswith(start_mark[1:]) for line in run):
            return False  # not sorted by file after all
        by_id = {id_of(line): line for line in run}
        lines = patched_lines(by_id, patch)
        text = text[: start + 1] + "".join(line + "\n" for line in lines) + text[end:]
    if text != before:  # most edits of a decision or a fact touch no note
        replace_text(folder / NOTES_FILE, text)
    return True


def path_of(line: str) -> str:
    """The file a line's note lives in (its first field), read without decoding the rest;
    '' for a damaged line, which goes on being skipped."""
    try:
        return str(scanstring(line, 2)[0]) if line.startswith('["') else ""
    except ValueError:
        return ""


def newest_key(line: str) -> tuple[int, str]:
    """(date in seconds, id) of a line's note, read without decoding the rest, in one pass;
    (0, "") for a damaged line."""
    try:
        end = scanstring(line, 2)[1] + 2  # the path
        entry_id, end = scanstring(line, end + 1)
        end += 2
        for _ in range(3):  # agent, category, kind: each a JSON string and ", "
            end = scanstring(line, end + 1)[1] + 2
        return int(line[end : line.index(",", end)]), str(entry_id)
    except (ValueError, IndexError):
        return 0, ""


def id_of(line: str) -> str:
    """The id of a line's note (its second field), read without decoding the rest."""
    try:
        _, end = scanstring(line, 2)
        return str(scanstring(line, end + 3)[0]) if line[end : end + 3] == ', "' else ""
    except (ValueError, IndexError):
        return ""


def write_lines(folder: Path, lines: list[str]) -> None:
    replace_text(folder / NOTES_FILE, "\n".join([HEADER, *lines]) + "\n")
