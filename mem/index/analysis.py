"""How text becomes index terms: identifiers split into their words, and Whoosh's Porter
stemmer with the step it leaves out."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from mem.index.irregular import BASE_OF

UNDOUBLED = frozenset("bcdfghjkmnpqrtvwx")
# English function words: Whoosh's own short list plus pronouns, auxiliaries and question words.
# A question ("What did we decide about caching?") is otherwise matched on "what" and "did".
STOP_WORDS = frozenset(
    [
        "a",
        "about",
        "above",
        "after",
        "again",
        "against",
        "all",
        "am",
        "an",
        "and",
        "any",
        "are",
        "as",
        "at",
        "be",
        "because",
        "been",
        "before",
        "being",
        "below",
        "between",
        "both",
        "but",
        "by",
        "can",
        "could",
        "did",
        "do",
        "does",
        "doing",
        "down",
        "during",
        "each",
        "few",
        "for",
        "from",
        "further",
        "had",
        "has",
        "have",
        "having",
        "he",
        "her",
        "here",
        "hers",
        "herself",
        "him",
        "himself",
        "his",
        "how",
        "i",
        "if",
        "in",
        "into",
        "is",
        "it",
        "its",
        "itself",
        "just",
        "me",
        "more",
        "most",
        "my",
        "myself",
        "no",
        "nor",
        "not",
        "now",
        "of",
        "off",
        "on",
        "once",
        "only",
        "or",
        "other",
        "our",
        "ours",
        "ourselves",
        "out",
        "over",
        "own",
        "same",
        "she",
        "should",
        "so",
        "some",
        "such",
        "tbd",
        "than",
        "that",
        "the",
        "their",
        "theirs",
        "them",
        "themselves",
        "then",
        "there",
        "these",
        "they",
        "this",
        "those",
        "through",
        "to",
        "too",
        "under",
        "until",
        "up",
        "us",
        "very",
        "was",
        "we",
        "were",
        "what",
        "when",
        "where",
        "which",
        "while",
        "who",
        "whom",
        "why",
        "will",
        "with",
        "would",
        "yet",
        "you",
        "your",
        "yours",
        "yourself",
        "yourselves",
    ]
)  # Porter step 1b keeps a double l, s or z ("fall")


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """Stem like Porter, including step 1b's undoubling: "running" → "run", not "runn".

    Whoosh's Porter never applies that step, so "running" and "run" would not match. An
    irregular form is stemmed as the word it is a form of: "went" as "go".
    """
    from whoosh.lang.porter import stem as porter

    word = BASE_OF.get(word, word)
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


def content_analyzer() -> Any:
    """Words as people and code write them: `React.lazy`, `snake_case`, `createRouter` and
    `src/pip/utils` give their words (react, lazy; snake, case; create, router) and the whole,
    joined (reactlazy), so a task that says "lazy" finds the note that says `React.lazy`."""
    from whoosh.analysis import LowercaseFilter, RegexTokenizer, StemFilter, StopFilter

    from mem.index.identifiers import IdentifierFilter

    return (
        RegexTokenizer()
        | IdentifierFilter()
        | LowercaseFilter()
        | StopFilter(stoplist=STOP_WORDS)
        | StemFilter(stemfn=stem)
    )
