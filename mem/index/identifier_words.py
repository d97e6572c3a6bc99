"""Identifiers split into their words: what the index's analyzer makes of a token (without
Whoosh: searches analyse their query with these alone)."""

from __future__ import annotations

import re

DELIMITERS = re.compile(r"[._]+")  # within a token of the tokenizer: `moment.js`, `gone_in`
# ASCII identifier words, split where a lower-case letter meets an upper-case one; digits stay
# with their word (a part of digits alone would match every id and version that holds them):
# create|Router2, SD500, w3n49, ICommand.
CAMEL_PART = re.compile(r"[A-Z]*[a-z0-9]+|[A-Z0-9]+")


def identifier_parts(word: str) -> list[str]:
    """The parts of an identifier: `DATE_MED` → DATE, MED; `createRouter` → create, Router;
    `python3.11` → python3, 11. Letters outside ASCII are never split within a run."""
    parts: list[str] = []
    for chunk in DELIMITERS.split(word):
        if chunk:
            parts += CAMEL_PART.findall(chunk) if chunk.isascii() else [chunk]
    return parts


def plain_word(text: str) -> bool:
    """A word no identifier rule splits: letters alone, in one case or capitalised."""
    return text.isalpha() and (text.islower() or text.isupper() or text.istitle())


def token_words(text: str) -> list[str]:
    """The words IdentifierFilter makes of one token: the token, or for an identifier of
    several words, those words and the whole joined. A part of digits alone would match every
    id and version that holds them: it is only found within the whole (`python3.11` gives
    python3 and python311); `_internal` is internal."""
    parts = [text] if plain_word(text) else identifier_parts(text)
    words = [part for part in parts if not part.isdigit()]
    if len(parts) <= 1 or not words:
        return [parts[0] if len(parts) == 1 else text]
    return [*words, "".join(parts)]
