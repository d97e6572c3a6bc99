"""Central facts: which of an agent's facts say most about what the rest of the vault is about,
worked out when the related words are, so the Knowledge sections have a better order than
"newest first" for the facts that no task singled out and no reinforcement set apart.

Standing context is a summary of what the project knows, shown whatever the task; a summary
takes the most central items of a collection (LexRank's degree centrality): here, each fact's
tf-idf cosine with every other entry, which is its cosine with the sum of them all, less 1.
Nothing is computed at query time but a lookup in a small text file.
"""

from __future__ import annotations

import math
import operator
import re
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from mem.index.rank_key import SECONDS_SHIFT
from mem.index.sidecar import replace_text

if TYPE_CHECKING:
    from mem.index.segment_reader import IndexReader

CENTRAL_FILE = "central.txt"
HEADER = "# mem central facts 1"
STAMP = "newest\t"  # the second line: the date of the newest entry when the file was written


def save(folder: Path, reader: IndexReader, field: str = "content") -> None:
    """Work the order out from the index and save it beside it, atomically."""
    rows = compute(reader, field)
    newest = 0
    if reader.doc_count():
        packed = reader.rank_keys()
        newest = max(packed[d] >> SECONDS_SHIFT for d in reader.all_doc_ids())
    lines = [HEADER, f"{STAMP}{newest}"]
    lines += [f"{agent}\t{entry_id}" for agent, entry_id in rows]
    replace_text(folder / CENTRAL_FILE, "\n".join(lines) + "\n")


def compute(reader: IndexReader, field: str = "content") -> list[tuple[str, str]]:
    """(agent, id) of every live fact, most central first."""
    count = reader.doc_count()
    if not count:
        return []
    # Every entry says what the vault is about, but only the hot files' facts are listed: no
    # Knowledge section shows an archived one, and after a year they are most of them.
    facts = set(reader.ids("category", "facts")) - set(reader.ids("archived", "yes"))
    live = set(reader.all_doc_ids()) if reader.has_deletions() else None
    # Each entry's squared tf-idf length, word by word (in a list by document number: a dict
    # of 100,000 entries cost seconds of a rebuild); then its cosine with all the others.
    squares = [0.0] * reader.doc_count_all()
    for ids, weights in weighted(reader, field, count):
        for docnum, w in zip(ids, weights, strict=True):
            squares[docnum] += w * w
    lengths = [math.sqrt(square) for square in squares]
    score = dict.fromkeys(facts & {d for d, square in enumerate(squares) if square}, 0.0)
    for ids, weights in weighted(reader, field, count):
        if len(ids) < 2 or score.keys().isdisjoint(ids):
            continue  # a word of one entry adds to its length, to no cosine; nor one no fact holds
        units = list(map(operator.truediv, weights, map(lengths.__getitem__, ids)))
        total = sum(units)
        for docnum, unit in zip(ids, units, strict=True):
            if docnum in score:  # its cosine with every other entry, word by word
                score[docnum] += unit * (total - unit)
    found = []
    for docnum in sorted(facts if live is None else facts & live):
        stored = reader.stored_fields(docnum)  # a fact of no telling word comes last
        found.append((-score.get(docnum, -1.0), stored["id"], stored.get("agent", "")))
    found.sort()
    return [(agent, entry_id) for _, entry_id, agent in found]


def weighted(
    reader: IndexReader, field: str, count: int
) -> Iterator[tuple[list[int], list[float]]]:
    """Each telling word's live entries and their tf-idf weights: read twice rather than
    held, since every posting of the vault held at once was most of a rebuild's memory."""
    log = math.log
    for word, _ in reader.terms(field):
        ids: list[int] = []
        frequencies: list[float] = []
        for leaf, offset in reader.leaf_readers():
            for found, weights in leaf.blocks(field, word):
                ids += [docnum + offset for docnum in found] if offset else found
                frequencies += [weights] * len(found) if isinstance(weights, float) else weights
        if not ids or len(ids) >= count:
            continue  # a word every entry holds says nothing about any of them
        idf = log(count / len(ids))
        weight = {f: (1 + log(f)) * idf for f in set(frequencies)}
        yield ids, list(map(weight.__getitem__, frequencies))


class Table:
    """The saved order: the date of the newest entry when it was worked out, and each agent's
    facts, most central first."""

    def __init__(self, text: str, newest: int, rows_at: int) -> None:
        self.text = text
        self.newest = newest
        self.rows_at = rows_at  # where the rows start, below the header and the date line
        self._places: dict[str, dict[str, int]] = {}

    def ids(self, agent: str) -> Iterator[str]:
        """`agent`'s facts, most central first."""
        for row in rows_of(agent).finditer(self.text, self.rows_at):
            yield row.group(1)

    def place(self, agent: str, entry_id: str) -> int:
        """Where the fact stands in the agent's order (lower is more central), or -1 if it is
        not in. The agent's order is read once, by one regular expression over the rows: a
        recall asks for hundreds of facts, and an agent may have thousands."""
        if agent not in self._places:
            found = rows_of(agent).findall(self.text, self.rows_at)
            # An id listed twice stands where it comes first: the first place is set last.
            places = zip(reversed(found), range(len(found) - 1, -1, -1), strict=True)
            self._places[agent] = dict(places)
        return self._places[agent].get(entry_id, -1)


def rows_of(agent: str) -> re.Pattern[str]:
    """An agent's rows of the table (`agent<TAB>id`), the id as the group."""
    return re.compile(f"^{re.escape(agent)}\t(.*)$", re.MULTILINE)


def read(folder: Path) -> Table | None:
    """The saved order; None without a readable file of this version."""
    try:
        text = (folder / CENTRAL_FILE).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    head, _, rest = text.partition("\n")
    stamp, _, _ = rest.partition("\n")
    if head != HEADER or not stamp.startswith(STAMP):
        return None  # another version's file is ignored, not misread: it is rewritten anyway
    try:
        return Table(text, int(stamp[len(STAMP) :]), len(head) + len(stamp) + 2)
    except ValueError:
        return None
