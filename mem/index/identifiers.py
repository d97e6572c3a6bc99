"""The index analyzer's filter that splits identifiers into their words (imported with Whoosh:
the schema pickles it under this name)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from whoosh.analysis import Filter

from mem.index.identifier_words import token_words


class IdentifierFilter(Filter):  # type: ignore[misc]  # Whoosh is untyped
    """Each token, then, for an identifier of several words, those words and the whole joined.
    Whoosh's IntraWordFilter does the same, but compiles patterns of every Unicode letter when
    the index opens: about 8 ms of every search."""

    def __call__(self, tokens: Iterator[Any]) -> Iterator[Any]:
        for token in tokens:
            for word in token_words(token.text):
                token.text = word
                yield token
