"""One run of `mem commit` keeps a thing once: said again in other words and filed the same
(in prose on the way, then in the report), it is a repeat; two commits are two changes."""

from __future__ import annotations

import random
from functools import cache

from mem.extract import dedupe
from mem.extract.capture import COMMIT_WHY
from mem.extract.patterns import Candidate
from mem.services.commit import Batch


def kept(*candidates: Candidate) -> list[str]:
    batch = Batch()
    for candidate in candidates:
        batch.add(candidate, "s1", frozenset())
    return [c.text for found in batch.by_category.values() for c in found]


def test_a_finding_said_again_in_other_words_is_kept_once():
    first = Candidate("lessons", "lesson", "O problema é que o teste tem um threshold incorreto.")
    again = Candidate("lessons", "lesson", "O problema era apenas o threshold incorreto do teste.")
    assert kept(first, again) == [first.text]
    assert dedupe.repeats(dedupe.said(again.text), dedupe.said(first.text))


def test_other_words_filed_otherwise_or_two_commit_subjects_are_both_kept():
    lesson = Candidate("lessons", "lesson", "The scraper fails on pages whose navigation errors.")
    decision = Candidate(
        "decisions", "decision", "The scraper now handles pages whose navigation errors."
    )
    assert len(kept(lesson, decision)) == 2
    undone = Candidate(
        "decisions",
        "decision",
        "fix: resolve UnboundLocalError in scrape_with_playwright method",
        why=COMMIT_WHY,
    )
    landed = Candidate(
        "decisions",
        "decision",
        "fix: Handle UnboundLocalError in scrape_with_playwright",
        why=COMMIT_WHY,
    )
    assert kept(undone, landed) == [undone.text, landed.text]


def test_the_fix_that_reorders_the_steps_a_cause_named_is_not_a_repeat_of_it():
    cause = Candidate(
        "lessons",
        "lesson",
        "We clone the repository; then we create a branch; finally we add the session to the "
        "database",
    )
    fix = Candidate(
        "decisions", "decision", "Add the session to the database first; then clone the repository"
    )
    assert kept(cause, fix) == [cause.text, fix.text]
    restated = Candidate("decisions", "decision", "Precomputed the two empty packs")
    first = Candidate(
        "lessons",
        "lesson",
        "Fixed: Precomputed the two empty packs (`push.go`) — the bytes depend only on the hash",
    )
    assert kept(first, restated) == [first.text]


def test_a_report_that_restates_a_commit_subject_is_kept_once_and_named_tools_differ():
    subject = Candidate(
        "decisions",
        "decision",
        "Move the session insert before the clone in `start.ts`",
        why=COMMIT_WHY,
    )
    restated = Candidate(
        "decisions", "decision", "Moved the session insert before the clone in `start.ts`."
    )
    assert kept(subject, restated) == [subject.text]
    first = Candidate("facts", "fact", "The `ui` build step needs `gh` and `jq` installed on PATH")
    other = Candidate("facts", "fact", "The `db` build step needs `uv` and `go` installed on PATH")
    assert kept(first, other) == [first.text, other.text]


def test_words_said_in_the_same_order_are_counted_whatever_lies_between_them():
    assert dedupe.in_order("add the session first", "add the session first") == 4
    assert dedupe.in_order("add the session first", "first add it the new session") == 3
    assert dedupe.in_order("clone then add", "add then clone") == 1
    assert dedupe.in_order("one two", "three four") == 0
    assert dedupe.in_order("", "anything") == 0


def test_the_count_in_order_is_the_longest_common_subsequence_of_words():
    def longest(first: tuple[str, ...], second: tuple[str, ...]) -> int:
        @cache
        def at(i: int, j: int) -> int:
            if i == len(first) or j == len(second):
                return 0
            if first[i] == second[j]:
                return 1 + at(i + 1, j + 1)
            return max(at(i + 1, j), at(i, j + 1))

        return at(0, 0)

    rng = random.Random(26)
    words = ["add", "the", "session", "first", "then", "clone", "it"]
    for _ in range(500):
        new = [rng.choice(words) for _ in range(rng.randint(0, 12))]
        old = [rng.choice(words) for _ in range(rng.randint(0, 12))]
        assert dedupe.in_order(" ".join(new), " ".join(old)) == longest(tuple(new), tuple(old))
