"""Postings, field lengths and columns read a block at a time, straight from Whoosh's files.

At 100,000 entries a common word of a task is held by tens of thousands of entries; read one
posting, one length and one rank key at a time through Whoosh's matcher and column objects,
that is ~10 Python calls each and most of a search. These read whole blocks and whole columns
of whoosh3 3.54.0 (pinned) and fall back to the public, slower calls for anything else."""

from __future__ import annotations

import struct
import sys
from array import array
from collections.abc import Iterator, Sequence
from typing import Any

Block = tuple[Sequence[int], Sequence[float]]


def posting_blocks(leaf: Any, field: str, text: str) -> Iterator[Block]:
    """Each block of one word's postings in one segment: (document numbers, frequencies),
    deleted documents left out."""
    from whoosh.codec.whoosh3 import W3LeafMatcher

    terms = getattr(leaf, "_terms", None)
    matcher = None
    if terms is not None:
        matcher = terms.matcher(field, leaf._text_to_bytes(field, text), leaf.schema[field].format)
    if not isinstance(matcher, W3LeafMatcher):
        yield from public_postings(leaf, field, text)
        return
    deleted = leaf.deleted_docs_set if leaf.has_deletions() else frozenset()
    while matcher.is_active():
        matcher._read_ids()
        matcher._read_weights()
        ids, weights = matcher._ids, matcher._weights
        if deleted:
            kept = [n for n, docnum in enumerate(ids) if docnum not in deleted]
            ids, weights = [ids[n] for n in kept], [weights[n] for n in kept]
        yield ids, weights
        matcher._next_block()


def all_postings(reader: Any, field: str, text: str) -> list[tuple[int, float]]:
    """(document number, frequency) of every live document of the index holding a word."""
    found: list[tuple[int, float]] = []
    for leaf, offset in reader.leaf_readers():  # each segment numbers its documents from 0
        if (field, text) in leaf:
            for ids, weights in posting_blocks(leaf, field, text):
                found += zip([docnum + offset for docnum in ids], weights, strict=True)
    return found


def all_ids(reader: Any, field: str, text: str) -> list[int]:
    """Every live document of the index holding a term, read a block at a time."""
    found: list[int] = []
    for leaf, offset in reader.leaf_readers():  # each segment numbers its documents from 0
        if (field, text) in leaf:
            for ids, _ in posting_blocks(leaf, field, text):
                found += [docnum + offset for docnum in ids] if offset else ids
    return found


def public_postings(leaf: Any, field: str, text: str) -> Iterator[Block]:
    matcher = leaf.postings(field, text)  # skips deleted documents
    ids: list[int] = []
    weights: list[float] = []
    while matcher.is_active():
        ids.append(matcher.id())
        weights.append(matcher.weight())
        matcher.next()
    yield ids, weights


def length_bytes(leaf: Any, field: str) -> bytes | None:
    """Each document's length in `field` as Whoosh stores it, one byte a document (decode
    with whoosh.util.numeric.byte_to_length); None when the segment cannot give it whole."""
    column = column_of(leaf, f"_{field}_len")
    if column is None or getattr(column, "_fixedlen", None) != 1:
        return None
    data = column._dbfile.get(column._basepos, column._count)
    return bytes(data) + bytes(leaf.doc_count_all() - column._count)


def rank_keys(leaf: Any) -> Sequence[int] | None:
    """Every document's packed rank key (see rank_key.py) in one segment, in one read; None
    when the segment cannot give them whole."""
    column = column_of(leaf, "rank")
    if column is None or getattr(column, "_typecode", None) != "q":
        return None
    data = column._dbfile.get(column._basepos, column._count * 8)
    keys = array("q")
    keys.frombytes(bytes(data))
    if sys.byteorder == "little":
        keys.byteswap()  # Whoosh packs columns big-endian ("!q")
    default = column._default
    keys.extend([default] * (leaf.doc_count_all() - column._count))
    return keys


def column_of(leaf: Any, name: str) -> Any:
    perdoc = getattr(leaf, "_perdoc", None)
    if perdoc is None or not perdoc.has_column(name):
        return None
    try:
        if name == "rank":
            return leaf.column_reader(name, translate=False)
        from whoosh.codec.whoosh3 import LENGTHS_COLUMN

        return perdoc._cached_reader(name, LENGTHS_COLUMN)
    except (KeyError, AttributeError, struct.error):
        return None
