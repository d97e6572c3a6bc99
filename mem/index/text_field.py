"""Whoosh fields that index without a Token object per word: a text field analysed with
analysis.term_counts (the same terms as its analyzer), and an id field that indexes a value
whole, as Whoosh's ID does. Imported with Whoosh: the schema pickles them."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from whoosh import fields
from whoosh.analysis import IDTokenizer
from whoosh.system import pack_uint

from mem.index.analysis import content_analyzer, term_counts


class Text(fields.TEXT):  # type: ignore[misc]  # Whoosh is untyped
    """Frequencies only (no positions: no search of mem's asks for a phrase). Its analyzer is
    kept for what Whoosh itself may analyse with it; indexing goes through term_counts."""

    def __init__(self, **options: Any) -> None:
        super().__init__(analyzer=content_analyzer(), phrase=False, **options)

    def index(self, value: Any, **kwargs: Any) -> Iterator[tuple[bytes, int, float, bytes]]:
        if not isinstance(value, str):
            yield from super().index(value, **kwargs)
            return
        boost = self.format.field_boost
        for term, count in term_counts(value).items():
            yield term.encode("utf-8"), count, count * boost, pack_uint(count)


class Id(fields.ID):  # type: ignore[misc]  # Whoosh is untyped
    """Whoosh's ID field, indexing a string as the one term Whoosh's would make of it: its
    analyzer (IDTokenizer) and format (Existence) cost ~10 calls a value, and a document has a
    dozen such fields."""

    def index(self, value: Any, **kwargs: Any) -> Iterator[tuple[bytes, int, float, bytes]]:
        if not isinstance(value, str) or not isinstance(self.analyzer, IDTokenizer):
            yield from super().index(value, **kwargs)
            return
        yield value.encode("utf-8"), 1, self.format.field_boost, b""
