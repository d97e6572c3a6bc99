"""The joined cue patterns are a shortcut for speed; this guards that they match exactly where
the plain union of the patterns matches."""

from __future__ import annotations

import re

import pytest

from mem.extract import cues, patterns

from conftest import REPO

CASES = REPO / "bench" / "extraction"
FIELDS = ("rules", "lead_ins", "sections", "introducers")


def sentences() -> list[str]:
    found: list[str] = []
    for path in sorted(CASES.glob("**/cases/*")):
        text = path.read_text(encoding="utf-8", errors="replace")
        found += [patterns.clean(unit.text) for unit in patterns.prose_units(text)]
        found += [line.strip() for line in text.splitlines() if line.strip()]
    return found + [
        "They'll use pnpm instead of npm.",
        "It'll use the cache instead of the database.",
        "- [ ] write the test",
        "É sempre assim aqui.",
        "这样 CI 工作流保持简洁，版本判断逻辑都在 `package.json` 脚本中。",
    ]


@pytest.mark.parametrize("field", FIELDS)
def test_joined_patterns_match_exactly_where_their_plain_union_does(field):
    texts = sentences()
    assert len(texts) > 2000
    for slot in {slot for table in cues.tables() for slot in getattr(table, field)}:
        sources = [p for table in cues.tables() for p in getattr(table, field).get(slot, ())]
        if not sources:
            continue
        plain = re.compile("|".join(sources), re.IGNORECASE)
        joined = cues.either(sources)
        differ = [t for t in texts if bool(plain.search(t)) != bool(joined.search(t))]
        assert differ == [], f"{field}/{slot}"


@pytest.mark.parametrize(
    ("pattern", "branches"),
    [
        (r"a|b", ["a", "b"]),
        (r"(?:a|b)|c", ["(?:a|b)", "c"]),
        (r"[|(]x|y", ["[|(]x", "y"]),
        (r"\(|\)|z", [r"\(", r"\)", "z"]),
        (r"\b(?:we|'ll)\s+use", [r"\b(?:we|'ll)\s+use"]),
    ],
)
def test_a_pattern_splits_at_its_top_level_bars_only(pattern, branches):
    assert cues.branches(pattern) == branches


def test_a_branch_that_may_start_with_a_non_letter_keeps_its_word_boundary():
    assert cues.starts_with_letter("(?:we|i)\\s+use")
    assert not cues.starts_with_letter("(?:we|'ll)\\s+use")
    assert cues.either([r"\b(?:we|'ll)\s+use\s+\S+\s+instead\s+of\b"]).search(
        "They'll use pnpm instead of npm."
    )


def lowered_pairs() -> list[tuple[str, re.Pattern[str], re.Pattern[str]]]:
    plain, low = cues.compiled(), cues.lowered()
    pairs = [
        (name, getattr(plain, name), getattr(low, name))
        for name in ("note_about_self", "narration", "decided_in_passing", "general", "specific")
    ]
    pairs.append(("hedge", plain.hedge, low.hedge))
    for field in ("lead_ins", "rules"):
        for (pattern, slot, _, _), (twin, _, _, _) in zip(
            getattr(plain, field), getattr(low, field), strict=True
        ):
            pairs.append((f"{field}/{slot}", pattern, twin))
    return pairs


def test_the_lowered_patterns_find_on_lowercased_text_the_spans_the_cues_find_as_written():
    texts = sentences() + ["DECIDED TO USE Redis", "Root Cause: the CACHE", "İstanbul used X"]
    for name, pattern, twin in lowered_pairs():
        for text in texts:
            lower = text.lower()
            if len(lower) != len(text):
                continue  # classify reads such a text with the patterns as compiled
            found, again = pattern.search(text), twin.search(lower)
            assert (found and found.span()) == (again and again.span()), (name, text)


@pytest.mark.parametrize(
    ("source", "lowered"),
    [
        (r"\bDecided\s+To\b", r"\bdecided\s+to\b"),
        (r"(?P<label>Why)\S+\W\B[A-Z]", r"(?P<label>why)\S+\W\B[a-z]"),
        (r"^TODO:\s", r"^todo:\s"),
    ],
)
def test_a_lowered_source_keeps_its_escapes_and_group_names(source, lowered):
    assert cues.lower_source(source) == lowered
