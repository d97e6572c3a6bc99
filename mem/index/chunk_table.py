"""What the index holds of each category file, chunk by chunk, kept beside it.

A chunk is an entry's header line and everything down to the next header (see
entries.parse_file). For each file the table lists its chunks in order: a digest of the chunk's
text, the id of the entry it holds and the fingerprint of the document indexed for it (which
covers its neighbours' text: see context.py). When a person saves one entry of a file of
8,000, the next search tells the chunks that changed from the table, parses those and their
neighbours, and replaces their documents alone, instead of parsing the file and reading back
every document the index holds for it.

A table is trusted only for the very bytes it was made from: its first line holds their
sha256, which must be the one the manifest holds for the file. The tables are written first,
then the index, then the manifest, so a process stopped in between leaves a table the
manifest does not vouch for, and the file is read whole again; never an old table the manifest
still vouches for, beside documents already made from newer bytes.
"""

from pathlib import Path
from typing import NamedTuple

from mem.index.context import InContext
from mem.index.sidecar import replace_text

TABLE_DIR = "chunks"
MARK = "mem-chunks 1"
DIGEST_SIZE = 16  # hex digits


class Row(NamedTuple):
    """One chunk: the digest of its text, its entry's id, that entry's document fingerprint."""

    digest: str
    entry_id: str
    fingerprint: str


class Table(NamedTuple):
    """A file's chunks, as the index holds them, for the bytes whose sha256 it names."""

    sha256: str
    preamble: str  # the digest of the text above the first chunk (frontmatter, title)
    rows: tuple[Row, ...]


class Patch(NamedTuple):
    """How the index's documents of one file change, by the chunks that changed (worked out
    by services/file_patch.py): whose documents go, what comes."""

    deleted: tuple[str, ...]  # entry ids whose documents are deleted (before `added`)
    added: tuple[InContext, ...]  # documents added, bottom of the file first
    order: tuple[str, ...]  # the file's entry ids, top down, as it now stands
    table: Table


def digest(text: str) -> str:
    """A short digest of a chunk's text: only told from the file's other chunks and its
    earlier versions, so 64 bits do."""
    from mem.digests import md5  # only writing the index needs it

    return md5(text.encode("utf-8"), usedforsecurity=False).hexdigest()[:DIGEST_SIZE]


def table_path(folder: Path, path: str) -> Path:
    from mem.digests import md5

    name = md5(path.encode("utf-8"), usedforsecurity=False).hexdigest()[:20]
    return folder / TABLE_DIR / f"{name}.txt"


def read(folder: Path, path: str, sha256: str) -> Table | None:
    """The table of the file at `path` if it was made from bytes of this sha256; None when
    there is none, it is damaged, or it was made from other bytes."""
    try:
        lines = table_path(folder, path).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return None
    if len(lines) < 2 or lines[0] != f"{MARK} {sha256} {len(lines) - 2} {path}":
        return None  # made from other bytes, cut short, or not a table
    rows = []
    for line in lines[2:]:
        parts = line.split(" ")
        if len(parts) != 3 or len(parts[0]) != DIGEST_SIZE:
            return None
        rows.append(Row(*parts))
    return Table(sha256, lines[1], tuple(rows))


def write(folder: Path, path: str, table: Table | None) -> None:
    """Save a file's table (atomically), or remove it when there is none to trust."""
    target = table_path(folder, path)
    if table is None:
        target.unlink(missing_ok=True)
        return
    target.parent.mkdir(exist_ok=True)
    body = [f"{MARK} {table.sha256} {len(table.rows)} {path}", table.preamble]
    body += [" ".join(row) for row in table.rows]
    replace_text(target, "\n".join(body) + "\n")
