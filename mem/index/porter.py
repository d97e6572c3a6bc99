"""Whoosh's Porter stemmer (whoosh.lang.porter, BSD licence), rewritten without regular
expressions: the same stems for every word, with nothing compiled at import.

Whoosh compiles thirteen patterns when its module is imported, ~4 ms of every search and recall
that stems a word. Each pattern below is the scan it stands for, including Whoosh's quirks (its
step 1b checks match the whole word, so "hopping" keeps its double p); mem's analysis adds the
undoubling itself. tests/index/test_porter.py compares the two on every word of the benches and
on random words.
"""

from __future__ import annotations

VOWELS = "aeiou"
VOWELS_Y = "aeiouy"

STEP2 = {
    "ational": "ate",
    "tional": "tion",
    "enci": "ence",
    "anci": "ance",
    "izer": "ize",
    "bli": "ble",
    "alli": "al",
    "entli": "ent",
    "eli": "e",
    "ousli": "ous",
    "ization": "ize",
    "ation": "ate",
    "ator": "ate",
    "alism": "al",
    "iveness": "ive",
    "fulness": "ful",
    "ousness": "ous",
    "aliti": "al",
    "iviti": "ive",
    "biliti": "ble",
    "logi": "log",
}
STEP3 = {
    "icate": "ic",
    "ative": "",
    "alize": "al",
    "iciti": "ic",
    "ical": "ic",
    "ful": "",
    "ness": "",
}
STEP4 = frozenset(
    ("al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent", "ou")
    + ("ism", "ate", "iti", "ous", "ive", "ize")
)


def _longest_suffix(word: str, suffixes: frozenset[str] | dict[str, str]) -> str | None:
    """The longest of `suffixes` that `word` ends with after at least one character: what
    `^(.+?)(a|b|...)$` matches, its lazy prefix being the shortest."""
    for start in range(1, len(word)):
        if word[start:] in suffixes:
            return word[start:]
    return None


def _measure_at_least(word: str, pairs: int) -> bool:
    """Whether `word` opens with `pairs` vowel-consonant runs after an optional consonant run:
    `^([^aeiouy]+)?[aeiou]+[^aeiouy]+` once (m > 0) or twice (m > 1). A `y` is in neither
    class, so it ends a run; the classes do not overlap, so the scan never backtracks."""
    size, at = len(word), 0
    while at < size and word[at] not in VOWELS_Y:
        at += 1
    for _ in range(pairs):
        start = at
        while at < size and word[at] in VOWELS:
            at += 1
        if at == start:
            return False
        start = at
        while at < size and word[at] not in VOWELS_Y:
            at += 1
        if at == start:
            return False
    return True


def _measure_one(word: str) -> bool:
    """`^([^aeiouy]+)?[aeiou]+[^aeiouy]+([aeiou]+)?$`: one vowel-consonant run, then at most
    vowels to the end."""
    size, at = len(word), 0
    while at < size and word[at] not in VOWELS_Y:
        at += 1
    for inside in (VOWELS, None):
        start = at
        while at < size and (word[at] in VOWELS if inside else word[at] not in VOWELS_Y):
            at += 1
        if at == start:
            return False
    while at < size and word[at] in VOWELS:
        at += 1
    return at == size


def _has_vowel(word: str) -> bool:
    """`^([^aeiouy]+)?[aeiouy]`: a vowel or `y` anywhere."""
    return any(char in VOWELS_Y for char in word)


def _ends_cvc(word: str) -> bool:
    """`^[^aeiouy]+[aeiouy][^aeiouwxy]$`: consonants only, then a vowel, then one consonant
    other than w, x or y."""
    return (
        len(word) >= 3
        and word[-2] in VOWELS_Y
        and word[-1] not in "aeiouwxy"
        and all(char not in VOWELS_Y for char in word[:-2])
    )


def stem(w: str) -> str:
    """The word as whoosh.lang.porter.stem would give it. (Not for text holding a newline,
    where Whoosh's `.` and `$` behave apart: no token of mem's analysis holds one.)"""
    if len(w) < 3:
        return w
    first_is_y = w[0] == "y"
    if first_is_y:
        w = "Y" + w[1:]
    # Step 1a
    if w.endswith("s"):
        if w.endswith(("sses", "ies")):
            w = w[:-2]
        elif w[-2] != "s":
            w = w[:-1]
    # Step 1b
    if w.endswith("eed"):
        if _measure_at_least(w[:-3], 1):
            w = w[:-1]
    elif w.endswith(("ed", "ing")):
        base = w[:-2] if w.endswith("ed") else w[:-3]
        if _has_vowel(base):
            w = base
            if w in ("at", "bl", "iz"):  # Whoosh matches `(at|bl|iz)$` from the start
                w += "e"
            elif len(w) == 2 and w[0] == w[1] and w[0] not in "aeiouylsz":
                w = w[:-1]  # the same: `([^aeiouylsz])\1$` from the start
            elif _ends_cvc(w):
                w += "e"
    # Step 1c
    if w.endswith("y") and _has_vowel(w[:-1]):
        w = w[:-1] + "i"
    # Steps 2 and 3
    for table in (STEP2, STEP3):
        suffix = _longest_suffix(w, table)
        if suffix is not None and _measure_at_least(w[: -len(suffix)], 1):
            w = w[: -len(suffix)] + table[suffix]
    # Step 4
    suffix = _longest_suffix(w, STEP4)
    if suffix is not None:
        if _measure_at_least(w[: -len(suffix)], 2):
            w = w[: -len(suffix)]
    elif len(w) > 4 and w.endswith(("sion", "tion")) and _measure_at_least(w[:-3], 2):
        w = w[:-3]
    # Step 5
    if len(w) > 1 and w.endswith("e"):
        base = w[:-1]
        if _measure_at_least(base, 2) or (_measure_one(base) and not _ends_cvc(base)):
            w = base
    if w.endswith("ll") and _measure_at_least(w, 2):
        w = w[:-1]
    if first_is_y:
        w = "y" + w[1:]
    return w
