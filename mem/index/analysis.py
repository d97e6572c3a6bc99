"""How text becomes index terms: identifiers split into their words, and Whoosh's Porter
stemmer (mem.index.porter: the same stems, nothing compiled at import) with the step it leaves
out."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from mem.index.irregular import BASE_OF
from mem.index.porter import stem as porter

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


# Whoosh's RegexTokenizer's default pattern, its group made non-capturing for findall.
TOKEN = re.compile(r"[\w\*]+(?:\.?[\w\*]+)*")
MIN_WORD = 2  # StopFilter's minsize: a one-letter word is no term


@lru_cache(maxsize=262144)
def token_terms(token: str) -> tuple[str, ...]:
    """The terms content_analyzer makes of one token of its tokenizer, worked out once per
    distinct token: the same steps as its filters, without a Token object per word."""
    from mem.index.identifier_words import token_words

    return tuple(
        stem(lowered)
        for word in token_words(token)
        if len(lowered := word.lower()) >= MIN_WORD and lowered not in STOP_WORDS
    )


def terms(text: str) -> list[str]:
    """The terms content_analyzer makes of `text`, in order: the same list, several times
    faster (a rebuild analyses every entry's text three times)."""
    return [term for token in TOKEN.findall(text) for term in token_terms(token)]


def term_counts(text: str) -> dict[str, int]:
    """How many times each term of `text` occurs, in order of first occurrence."""
    counts: dict[str, int] = {}
    for token in TOKEN.findall(text):
        for term in token_terms(token):
            counts[term] = counts.get(term, 0) + 1
    return counts
