"""Tell a new candidate from one already remembered: exact text, or similar word sets."""

from __future__ import annotations

import re
from typing import NamedTuple

SIMILAR = 0.6  # Jaccard similarity of word sets above which two texts say the same thing
HELD = 0.8  # share of a text's words another holds for it to say nothing more (in one commit)
HELD_WORDS = 4  # ... when the text has at least this many words: shorter ones may differ in one
WORD = re.compile(r"[^\W_]+", re.UNICODE)
# The words that carry a text's meaning, their endings cut: "O problema era o threshold
# incorreto do teste" and "O problema é que o teste tem um threshold incorreto" share them all.
# A word with a digit in it ("job12", "8082") or in backticks (`gh`, `jq`) is a name,
# compared whole whatever its length.
CONTENT = re.compile(r"`([^`\n]{1,60})`|([^\W_]{4,})")
STEM = 5


def normalise(text: str) -> str:
    """Lowercase words only: what two texts that say the same thing share exactly."""
    return " ".join(WORD.findall(text.lower()))


def word_set(text: str) -> frozenset[str]:
    return frozenset(WORD.findall(text.lower()))


def jaccard(first: frozenset[str], second: frozenset[str]) -> float:
    if not first or not second:
        return 0.0
    return len(first & second) / len(first | second)


class Said(NamedTuple):
    """What dedupe compares of a text, worked out once when one text meets many."""

    form: str
    words: frozenset[str]
    content: frozenset[str] = frozenset()


def said(text: str) -> Said:
    content = frozenset(
        code or (word[:STEM] if word.isalpha() else word)
        for code, word in CONTENT.findall(text.lower())
    )
    return Said(normalise(text), word_set(text), content)


def in_order(new: str, old: str) -> int:
    """How many of `new`'s words `old` says in the same order (the longest common
    subsequence): "add the session first, then clone" is not "clone, then add the session"."""
    first, second = new.split(), old.split()
    # Words only one text says are in no common subsequence: leave them out of the table.
    shared = set(first) & set(second)
    first = [word for word in first if word in shared]
    second = [word for word in second if word in shared]
    row = [0] * (len(second) + 1)
    for word in first:
        diagonal = left = 0  # this row's cell up-left, and the one to the left
        for index, other in enumerate(second, 1):
            up = row[index]
            # (No `max()`: this loop is where a long commit's dedupe spends its time.)
            left = diagonal + 1 if word == other else (up if up > left else left)  # noqa: FURB136
            row[index], diagonal = left, up
    return row[-1]


def alike(first: Said, second: Said) -> bool:
    """Duplicates: equal when normalised, or similar word sets."""
    return first.form == second.form or jaccard(first.words, second.words) > SIMILAR


def is_same(first: str, second: str) -> bool:
    """Tell whether two texts are duplicates: equal when normalised, or similar word sets."""
    return alike(said(first), said(second))


def repeats(new: Said, old: Said, same_category: bool = True, commits: bool = False) -> bool:
    """Whether a text found in one commit says nothing the earlier `old` did not: a duplicate,
    or most of its words already there ("Precomputed the two empty packs" after "Fixed:
    Precomputed the two empty packs (`push.go`) — …")."""
    if commits:
        return new.form == old.form  # two commits are two changes, however alike their words
    if alike(new, old):
        return True
    if (
        len(new.words) >= HELD_WORDS
        and len(new.words & old.words) >= HELD * len(new.words)
        and in_order(new.form, old.form) >= HELD * len(new.form.split())
    ):
        return True  # most of its words said before, in the same order
    # The same finding said again in other words, filed the same (in prose, then the report).
    held = len(new.content & old.content)
    return same_category and len(new.content) >= HELD_WORDS and held >= HELD * len(new.content)
