"""Reindex a changed category file by the chunks that changed, told from its chunk table.

Works only on files whose chunks are plain: each chunk one entry, every id once. Anything else
(a merge's leftovers, a malformed entry, an id twice, a changed frontmatter) is read whole, as
before; so is a file whose table the manifest does not vouch for.
"""

from collections import Counter
from collections.abc import Sequence
from typing import NamedTuple

from mem.digests import md5
from mem.index.chunk_table import Patch, Row, Table, digest
from mem.index.context import InContext, Indexed, in_context, with_neighbours
from mem.vault import entries as codec


class Reading(NamedTuple):
    """A category file read for the index: its entries whole, or a patch by the chunks that
    changed; the table of its chunks to keep (None: none to trust); the sha256 of its bytes."""

    found: list[Indexed] | Patch
    table: Table | None
    sha256: str


def fingerprint(block: str) -> str:
    """Identify an entry's exact text, to tell changed entries from unchanged ones."""
    return md5(block.encode("utf-8"), usedforsecurity=False).hexdigest()


def indexed(parsed: codec.ParsedFile) -> list[Indexed]:
    """A parsed file's entries with the fingerprints of their text, top down."""
    text = parsed.text
    return [(span.entry, fingerprint(text[span.start : span.end])) for span in parsed.spans]


def preamble(cut: codec.Cut) -> str:
    """The digest of the text above the first chunk."""
    start = cut.offsets[cut.heads[0]] if cut.heads else len(cut.text)
    return digest(cut.text[:start])


def chunk_digests(cut: codec.Cut) -> list[str]:
    return [digest(cut.text[slice(*cut.chunk_span(at))]) for at in range(len(cut.heads))]


def whole_table(cut: codec.Cut, sha256: str, found: Sequence[Indexed]) -> Table | None:
    """The table of a file read whole (`found`: its entries top down, as parse_file read
    them), or None when its chunks are not plain."""
    ids = [entry.id for entry, _ in found]
    if len(found) != len(cut.heads) or len(set(ids)) != len(ids) or not codec.plain_chunks(cut):
        return None
    # As the index was written: bottom up, each with its neighbours' text (see in_context).
    prints = [fingerprint_ for _, fingerprint_, _ in in_context(reversed(found))][::-1]
    rows = zip(chunk_digests(cut), ids, prints, strict=True)
    return Table(sha256, preamble(cut), tuple(Row(*row) for row in rows))


def patch_for(cut: codec.Cut, sha256: str, old: Table) -> Patch | None:
    """The documents to delete and add to bring a file from `old` to `cut`, parsing only the
    chunks that changed and their neighbours; None when the file must be read whole."""
    if preamble(cut) != old.preamble or not codec.plain_chunks(cut):
        return None
    digests = chunk_digests(cut)
    was = {row.digest: k for k, row in enumerate(old.rows)}
    if len(was) != len(old.rows) or len(set(digests)) != len(digests):
        return None  # two chunks of the same text: the same id twice

    def unchanged(k: int) -> bool:
        """Whether chunk k and both its neighbours are as they were, next to each other."""
        j = was.get(digests[k])
        if j is None:
            return False
        before = old.rows[j - 1].digest if j > 0 else None
        after = old.rows[j + 1].digest if j + 1 < len(old.rows) else None
        return before == (digests[k - 1] if k > 0 else None) and after == (
            digests[k + 1] if k + 1 < len(digests) else None
        )

    redo = [k for k in range(len(digests)) if not unchanged(k)]
    needed = {n for k in redo for n in (k - 1, k, k + 1) if 0 <= n < len(digests)}
    found: dict[int, Indexed] = {}
    for k in sorted(needed):
        spans = codec.read_chunk(cut, k).spans
        if len(spans) != 1:
            return None  # a malformed entry: read whole, where its problem is reported
        entry = spans[0].entry
        found[k] = (entry, fingerprint(cut.text[spans[0].start : spans[0].end]))
    rows = [old.rows[was[d]] if d in was else Row(d, "", "") for d in digests]
    added: list[InContext] = []
    for k in reversed(redo):  # bottom first, as the index adds a file's entries: see top()
        # Below, then above: the order in_context hands them over in, reading bottom up.
        neighbours = tuple(found[n] for n in (k + 1, k - 1) if n in found)
        entry, fingerprint_, context = with_neighbours(found[k], neighbours)
        rows[k] = Row(digests[k], entry.id, fingerprint_)
        added.append((entry, fingerprint_, context))
    ids = [row.entry_id for row in rows]
    if len(set(ids)) != len(ids):
        return None
    # Documents whose (id, fingerprint) the file no longer has go; by id, so one of an entry
    # that changed goes before its new one comes.
    now = Counter((row.entry_id, row.fingerprint) for row in rows)
    before = Counter((row.entry_id, row.fingerprint) for row in old.rows)
    deleted = {entry_id for entry_id, _ in before - now}
    fresh = tuple(
        item for item in added if (item[0].id, item[1]) not in before or item[0].id in deleted
    )
    return Patch(
        tuple(sorted(deleted)), fresh, tuple(ids), Table(sha256, old.preamble, tuple(rows))
    )
