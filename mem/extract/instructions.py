"""Tell a candidate that restates the project's own instruction files (CLAUDE.md, AGENTS.md,
`_project.md`, …): agents echo them back all the time, and they are already written down."""

from __future__ import annotations

from mem.extract.dedupe import normalise, word_set
from mem.extract.patterns import body_of, prose_units

RESTATED = 0.8  # share of a candidate's words that one instruction line must hold


class Instructions:
    """The sentences of the instruction files, ready to compare candidates against."""

    def __init__(self, texts: list[str]) -> None:
        self.exact: set[str] = set()
        self.words: list[frozenset[str]] = []
        for text in texts:
            for unit in prose_units(text):
                body = body_of(unit)
                if len(body) >= 15:
                    self.exact.add(normalise(body))
                    self.words.append(word_set(body))

    def restate(self, text: str) -> bool:
        """Whether `text` says what an instruction line already says."""
        if not self.words:
            return False
        if normalise(text) in self.exact:
            return True
        words = word_set(text)
        return bool(words) and any(
            len(words & line) >= RESTATED * len(words) and len(line) <= 2 * len(words)
            for line in self.words
        )
