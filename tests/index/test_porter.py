"""mem's Porter stemmer gives Whoosh's stem for every word: the index was built with the same
stems, so one word stemmed otherwise would never be found again."""

from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from whoosh.lang.porter import stem as whoosh_stem

from mem.index.porter import STEP2, STEP3, STEP4, stem

SHARED = Path(__file__).resolve().parents[3] / "shared"
SUFFIXES = [*STEP2, *STEP3, *STEP4, "ed", "ing", "s", "sses", "ies", "y", "e", "ll", "eed"]
SUFFIXES += ["sion", "tion", "ational", "ingly", "é", "ß"]
LETTERS = "aeiouyslztbdgnmwxrcYé"


@pytest.mark.parametrize(
    "word",
    ["", "a", "at", "sky", "yes", "yellowing", "hopping", "feed", "agreed", "bled", "sized"]
    + ["filing", "failing", "generalization", "relational", "conditional", "hopeful"]
    + ["goodness", "adjustment", "adoption", "controll", "roll", "rate", "cease", "café"],
)
def test_known_words(word: str) -> None:
    assert stem(word) == whoosh_stem(word)


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=LETTERS, max_size=10), st.lists(st.sampled_from(SUFFIXES), max_size=3))
def test_words_built_of_the_suffixes_it_strips(base: str, suffixes: list[str]) -> None:
    word = base + "".join(suffixes)
    assert stem(word) == whoosh_stem(word)


def test_random_words() -> None:
    rng = random.Random(7)
    for _ in range(20_000):
        word = "".join(rng.choice(LETTERS) for _ in range(rng.randint(1, 9)))
        word += "".join(rng.choice(SUFFIXES) for _ in range(rng.randint(0, 2)))
        assert stem(word) == whoosh_stem(word), word


def test_every_word_of_the_benches() -> None:
    bench = SHARED / "bench"
    if not bench.is_dir():
        pytest.skip("../shared/bench is not beside the repository")
    words: set[str] = set()
    for path in sorted(bench.rglob("*")):
        readable = path.is_file() and path.suffix in {".md", ".json", ".jsonl", ".txt"}
        if readable and path.stat().st_size < 20_000_000:
            text = path.read_text(encoding="utf-8", errors="ignore").lower()
            words.update(re.findall(r"\w+", text))
    assert len(words) > 10_000
    assert [word for word in words if stem(word) != whoosh_stem(word)] == []


def test_analysis_stems_without_whoosh() -> None:
    # The point of the module: a search stems its words without importing Whoosh's stemmer,
    # which compiles thirteen patterns at import.
    code = (
        "import sys; from mem.index.analysis import terms; print(terms('generalizations ran'));"
        "print(sorted(m for m in sys.modules if m.startswith('whoosh')))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert done.stdout.split("\n")[:2] == ["['gener', 'run']", "[]"]
