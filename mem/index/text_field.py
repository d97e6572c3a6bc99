"""A Whoosh text field that analyses with analysis.term_counts: the same terms as its
analyzer, without a Token object per word (imported with Whoosh: the schema pickles it)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from whoosh import fields
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
