"""How text becomes index terms: Whoosh's Porter stemmer, with the step it leaves out."""

from __future__ import annotations

from functools import lru_cache

UNDOUBLED = frozenset("bcdfghjkmnpqrtvwx")  # Porter step 1b keeps a double l, s or z ("fall")


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """Stem like Porter, including step 1b's undoubling: "running" → "run", not "runn".

    Whoosh's Porter never applies that step, so "running" and "run" would not match.
    """
    from whoosh.lang.porter import stem as porter

    stemmed: str = porter(word)
    if (
        stemmed != word
        and word.endswith(("ing", "ed"))
        and len(stemmed) > 3  # "added" stays "add", as "add" does
        and stemmed[-1] == stemmed[-2]
        and stemmed[-1] in UNDOUBLED
    ):
        return stemmed[:-1]
    return stemmed
