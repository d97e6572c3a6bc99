"""Related words: words that keep occurring together in this vault's entries, worked out when
the index is written, so a search also finds, a little lower, entries that use the vault's
other words for the task's subject.

A task says "upload"; the entries that settled it say "multipart" and "S3". Where several
entries hold two words together, each word brings the other into a search, at a fraction of a
task word's weight. Nothing is computed at query time but a lookup in a small text file.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from mem.index.sidecar import replace_text

if TYPE_CHECKING:
    from mem.index.segment_reader import IndexReader

RELATED_FILE = "related.txt"
HEADER = "# mem related words 1"
MAX_SHARE = 0.05  # a word in more than 1 entry of 20 is too common to say what one is about
MIN_TOGETHER = 2  # two words in one entry together may be chance; in two, a pattern
MIN_DICE = 0.1  # 2·together / (entries with one + entries with the other)
PER_WORD = 6  # the closest words kept for each word
# An entry's pairs grow as the square of its words: a roll-up of a year of handoffs holds
# ~1,500, a million pairs alone; at 100,000 entries, with the archive, 3.8 GB were counted.
# A long entry counts its rarest words only. Entries this long are few (roll-ups, imported
# documents); a conversation turn or a lesson holds far fewer.
MAX_WORDS = 40
WEIGHT = 0.3  # a related word counts this × its association, against 1 for the task's own
MAX_ADDED = 8  # related words a search adds, the closest first: each costs a postings read
# Measured on LoCoMo's dev half: search any@10 0.675 → 0.687, evidence in budget 0.710 → 0.720;
# on coding-recall-dev, relevant memories in a 1,000-token block 0.858 → 0.868, and nothing more
# injected on the negative controls (related words do not count toward relevance).

Table = dict[str, list[tuple[str, float]]]


def compute(reader: IndexReader, field: str = "content") -> Table:
    """Each word's closest companions (Dice coefficient over live entries), from the index.

    Private entries are left out: the table widens every agent's searches and names the words
    it added (`~word`), so a word learned from one agent's private entry would reach others."""
    count = reader.doc_count()
    if not count:
        return {}
    private = frozenset(reader.ids("scope", "private"))
    most = max(MIN_TOGETHER, int(count * MAX_SHARE))
    words_of: dict[int, list[str]] = {}
    entries_with: dict[str, int] = {}
    for word, frequency in reader.terms(field):
        if not MIN_TOGETHER <= frequency <= most:
            continue  # the frequency counts deleted entries too: only a first sift
        docs = [d for d in reader.ids(field, word) if d not in private]
        if len(docs) < MIN_TOGETHER:
            continue
        entries_with[word] = len(docs)
        for docnum in docs:
            words_of.setdefault(docnum, []).append(word)
    # Each word's companions counted from its own entries, one word at a time: counting every
    # pair of the vault at once held them all (hundreds of MB at 100,000 entries).
    holding: dict[str, list[int]] = {}
    for docnum, words in words_of.items():
        if len(words) > MAX_WORDS:  # its rarest words: they say most of what it is about
            words = sorted(words, key=lambda word: (entries_with[word], word))[:MAX_WORDS]
            words_of[docnum] = words
        for word in words:
            holding.setdefault(word, []).append(docnum)
    table: Table = {}
    for word, docs in holding.items():
        counts: Counter[str] = Counter()
        for docnum in docs:
            counts.update(words_of[docnum])
        del counts[word]
        pairs = [
            (2 * both / (entries_with[word] + entries_with[other]), other)
            for other, both in counts.items()
            if both >= MIN_TOGETHER
        ]
        close = sorted((pair for pair in pairs if pair[0] >= MIN_DICE), reverse=True)
        if close:
            table[word] = [(other, dice) for dice, other in close[:PER_WORD]]
    return table


def write(folder: Path, table: Mapping[str, list[tuple[str, float]]]) -> None:
    """Save the table as sorted text lines, `word<TAB>other:0.42 other:0.31`, atomically."""
    lines = [HEADER]
    for word in sorted(table):
        lines.append(word + "\t" + " ".join(f"{other}:{dice:.3f}" for other, dice in table[word]))
    replace_text(folder / RELATED_FILE, "\n".join(lines) + "\n")


class RelatedWords:
    """The saved table, read once per process when a search first needs it."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / RELATED_FILE
        self._text: str | None = None

    def around(self, words: Iterable[str]) -> dict[str, float]:
        """The words related to `words` and not among them, with their weights, closest first,
        at most MAX_ADDED."""
        if self._text is None:
            try:
                text = self.path.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                text = ""
            # Another version's table is ignored, not misread: the index is rebuilt anyway.
            self._text = "\n" + text if text.startswith(HEADER + "\n") else ""
        asked = list(dict.fromkeys(words))
        weights: dict[str, float] = {}
        for word in asked:
            start = self._text.find(f"\n{word}\t")
            if start < 0:
                continue
            end = self._text.find("\n", start + 1)
            for pair in self._text[start + len(word) + 2 : end].split():
                other, _, dice = pair.rpartition(":")
                weight = WEIGHT * float(dice)
                if other not in asked and weight > weights.get(other, 0.0):
                    weights[other] = weight
        closest = sorted(weights.items(), key=lambda pair: (-pair[1], pair[0]))[:MAX_ADDED]
        return dict(closest)
