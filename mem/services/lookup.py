"""Name an entry on the command line by its id, a unique prefix of it, or a unique part of its
random tail (the date part of a made id is the same for every entry of the day)."""

from __future__ import annotations

import re
from pathlib import Path

from mem.config import Settings
from mem.errors import AmbiguousId, DuplicateId, EntryNotFound, InvalidInput
from mem.model import ENTRY_ID, MIN_ID_PREFIX, Entry
from mem.services.feedback import QUIET, Feedback
from mem.services.refresh import fresh_index
from mem.vault import layout, store


def find_entry(settings: Settings, given: str, feedback: Feedback = QUIET) -> Entry:
    """Return the one entry whose id is `given` or starts with it, as it stands in its file."""
    return find_entry_block(settings, given, feedback)[0]


def find_entry_block(
    settings: Settings, given: str, feedback: Feedback = QUIET
) -> tuple[Entry, str]:
    """Like find_entry, with the entry's block exactly as it stands in its file."""
    vault = settings.require_vault()
    if not ENTRY_ID.fullmatch(given):
        raise InvalidInput(f"{given!r} is not an entry id; ids use letters, digits, '-' and '_'")
    if len(given) < MIN_ID_PREFIX:
        raise InvalidInput(
            f"id prefix {given!r} is too short; give at least {MIN_ID_PREFIX} characters"
        )
    index = fresh_index(vault, feedback, archive=True)  # an archived entry has its id too

    def visible(found: list[Entry]) -> list[Entry]:
        return [e for e in found if e.is_visible_to(settings.agent)]

    candidates = visible(index.ids_with_prefix(given))
    if not candidates and "-" not in given:
        candidates = visible(index.ids_with_tail_part(given.lower()))
    exact = [entry for entry in candidates if entry.id == given]
    if exact:
        candidates = exact
    unique_ids = sorted({entry.id for entry in candidates})
    if not unique_ids:
        raise EntryNotFound(f"no entry with id {given}; find it with `mem search` or `mem list`")
    if len(unique_ids) > 1:
        shown = ", ".join(unique_ids[:5]) + (" ..." if len(unique_ids) > 5 else "")
        raise AmbiguousId(
            f"id {given} matches {len(unique_ids)} entries ({shown}); give more characters"
        )
    return current(vault, candidates[0])


def refuse_duplicates(settings: Settings, entry: Entry) -> None:
    """Refuse to act on an id two entries share (a git merge can leave that): the index keeps
    one of them, so a command would pick one silently. Says where each is and what to do."""
    vault = settings.require_vault()
    header = header_pattern(entry.id)
    places: list[str] = []
    for ref in layout.category_files(vault):
        if ref.scope == "private" and ref.agent != settings.agent:
            continue  # another agent's private entries are not named to this one
        text = store.read_text(vault, ref.path)
        if f"id:{entry.id}" not in text:  # cheap, before the pattern
            continue
        for found in header.finditer(text):
            line = text.count("\n", 0, found.start()) + 1
            places.append(f"{ref.path}:{line}")
    if len(places) > 1:
        raise DuplicateId(
            f"id {entry.id} is used by {len(places)} entries ({', '.join(places)}); run "
            "`mem doctor --fix` to tell them apart (a second entry gets a new id, an "
            "identical copy is dropped, a stopped compaction is finished), then name the one "
            "you mean"
        )


def current(vault: Path, indexed: Entry) -> tuple[Entry, str]:
    """Re-read an entry and its block from its file, so edits act on the text as it is now."""
    ref = layout.describe(indexed.path)
    if ref is None:
        raise EntryNotFound(f"entry {indexed.id} is no longer in {indexed.path}")
    from mem.vault import entries as entry_codec  # recall, which imports this module, never parses

    parsed = entry_codec.parse_ref(store.read_text(vault, ref.path), ref)
    span = parsed.span_of(indexed.id)
    if span is None:
        raise EntryNotFound(
            f"entry {indexed.id} is no longer in {indexed.path}; "
            "run `mem doctor` if the file was edited"
        )
    return span.entry, parsed.text[span.start : span.end]


def with_lines(vault: Path, found: list[Entry]) -> list[Entry]:
    """Fill in where each entry's header stands now (the index does not keep line numbers,
    so that inserting one entry does not make every entry below it stale). A file is read from
    its top only as far as its entries' headers: the newest entries, most often found, are
    near the top of a category file of thousands."""
    wanted: dict[str, set[str]] = {}
    for entry in found:
        wanted.setdefault(entry.path, set()).add(entry.id)
    lines: dict[tuple[str, str], int] = {}
    for path, ids in wanted.items():
        for part in store.read_from_top(vault, path):
            starts = {entry_id: header_start_bytes(part, entry_id) for entry_id in ids}
            if all(start >= 0 for start in starts.values()):
                for entry_id, start in starts.items():
                    lines[path, entry_id] = part.count(b"\n", 0, start) + 1
                break
        else:  # some header is not in the form mem writes, or not in the file
            text = part.decode("utf-8", errors="replace")
            for entry_id in ids:
                start = header_start(text, entry_id)
                lines[path, entry_id] = text.count("\n", 0, start) + 1 if start >= 0 else 0
    return [entry._replace(line=lines[entry.path, entry.id]) for entry in found]


def header_start_bytes(data: bytes, entry_id: str) -> int:
    """Where the first header of an entry starts in a category file's bytes, when it is in the
    form mem writes and no header of another form comes before it; else -1."""
    written = f"<!-- id:{entry_id}".encode()
    at = data.find(written)
    while at >= 0:
        after = data[at + len(written) : at + len(written) + 3]
        if (at == 0 or data[at - 1 : at] == b"\n") and (after[:1].isspace() or after == b"-->"):
            return at if data.find(f"id:{entry_id}".encode(), 0, at) < 0 else -1
        at = data.find(written, at + 1)
    return -1


def header_pattern(entry_id: str) -> re.Pattern[str]:
    """A header line of the entry, in whatever form a person wrote it."""
    return re.compile(rf"^<!--\s*id:{re.escape(entry_id)}(?=\s|-->)", re.MULTILINE)


def header_start(text: str, entry_id: str) -> int:
    """Where the first header line of an entry starts in a category file's text, in whatever
    form a person wrote it, or -1 (with_lines tries the form mem writes first, as bytes)."""
    header = header_pattern(entry_id).search(text)
    return header.start() if header else -1
