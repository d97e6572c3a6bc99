"""The index's fast analysis gives exactly the terms of its Whoosh analyzer, which stays in the
schema: a rebuild analyses every entry's text three times, and tokens go ~5x faster without a
Token object per word."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mem.index.analysis import content_analyzer, term_counts, terms

SHARED = Path(__file__).resolve().parents[3] / "shared"
PIECES = [
    "React.lazy",
    "createRouter",
    "DATE_MED",
    "_internal",
    "___",
    "python3.11",
    "v2.0.1",
    "x86_64",
    "I",
    "a",
    "the",
    "running",
    "went",
    "İstanbul",
    "café",
    "ICommand",
    "SD500",
    "foo*bar",
    "**",
    "1.5",
    "src/pip/utils",
    "don't",
    "co-op",
    "e.g.",
    "naïve_Café2",
    "ß",
    "ǅemal",
    "١٢٣",
    "日本語のテキスト",
    "\u00a0",
    "\t",
    "\n",
    " ",
    ".",
    "_",
    "9",
]


def whoosh_terms(text: str) -> list[str]:
    return [token.text for token in content_analyzer()(text)]


@settings(max_examples=400, deadline=None, derandomize=True, database=None)
@given(st.lists(st.one_of(st.sampled_from(PIECES), st.text(max_size=12)), max_size=30))
def test_any_text_gives_the_analyzers_terms(pieces):
    text = " ".join(pieces)
    assert terms(text) == whoosh_terms(text)


def test_counts_are_the_terms_counted():
    text = "Running tests: run the test suite, then run it again. createRouter"
    found = term_counts(text)
    assert found == {term: terms(text).count(term) for term in dict.fromkeys(terms(text))}
    assert list(found) == list(dict.fromkeys(terms(text)))  # in order of first occurrence


def test_real_sessions_give_the_analyzers_terms():
    folder = SHARED / "bench" / "capture-dev"
    if not folder.is_dir():
        pytest.skip("../shared/bench/capture-dev is not beside this checkout")
    checked = 0
    for path in sorted(p for p in folder.rglob("*") if p.is_file())[:40]:
        text = path.read_text(encoding="utf-8", errors="replace")[:100_000]
        assert terms(text) == whoosh_terms(text), path.name
        checked += 1
    assert checked


def test_the_id_field_indexes_a_value_as_whooshs_id_field_does():
    from whoosh import fields

    from mem.index.text_field import Id

    for stored in (True, False):
        for value in ["dev", "", "dev/archive/lessons.md", "Ünïcode Value", " spaced ", "*"]:
            assert list(Id(stored=stored).index(value)) == list(
                fields.ID(stored=stored).index(value)
            )
    assert list(Id().index(["a", "b"])) == list(fields.ID().index(["a", "b"]))
