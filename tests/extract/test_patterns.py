"""Sentence rules: what a careful person keeps, and the traps they would not fall into."""

from __future__ import annotations

import pytest

from mem.extract.patterns import MAX_CHARS, RULE_WINDOW, extract


def found(text: str) -> list[tuple[str, str]]:
    return [(candidate.category, candidate.text) for candidate in extract(text)]


@pytest.mark.parametrize(
    ("sentence", "category"),
    [
        ("We decided to use Postgres over MySQL because of JSONB support.", "decisions"),
        ("Chose bcrypt over argon2: argon2-cffi does not build on Alpine.", "decisions"),
        ("Going with a token bucket for the rate limiter.", "decisions"),
        ("Decidimos usar Redis para o cache de sessões.", "decisions"),
        ("Optamos por manter o SQLite nos testes.", "decisions"),
        ("The root cause was a race between the session write and the redirect.", "lessons"),
        ("Turns out the CI image ships an old OpenSSL.", "lessons"),
        ("Gotcha: pytest-xdist reorders the fixtures.", "lessons"),
        ("O problema era o fuso horário do servidor de CI.", "lessons"),
        ("Aprendemos que o cache precisa de TTL.", "lessons"),
        ("The user prefers tabs over spaces in Makefiles.", "facts"),
        ("This codebase uses pnpm workspaces for every package.", "facts"),
        ("Always run make lint before committing.", "facts"),
        ("Make sure to regenerate the client after changing the schema.", "facts"),
        ("TODO: document the MEM_VAULT variable in the README", "tasks"),
        ("- [ ] wire the retry middleware into the client", "tasks"),
    ],
)
def test_a_memorable_sentence_is_found_in_its_category(sentence, category):
    assert [c for c, _ in found(sentence)] == [category]


@pytest.mark.parametrize(
    "text",
    [
        "I decided to look at the logs first.",
        "Note: I'll run the tests now.",
        "Let me check whether we decided to use Redis.",
        "```python\n# TODO: we decided to remove this\nx = 1\n```",
        'Traceback (most recent call last):\n  File "app.py", line 3, in <module>',
        "    we decided to inline this (indented code)",
        "- [x] remove the old endpoint after the migration",
        "ok",
    ],
)
def test_narration_code_output_and_done_items_are_not_memory(text):
    assert found(text) == []


def test_bullets_under_next_steps_become_tasks():
    text = "Next steps:\n- Add a migration for the users table\n- Update the deployment guide\n"
    assert found(text) == [
        ("tasks", "Add a migration for the users table"),
        ("tasks", "Update the deployment guide"),
    ]


def test_a_long_extract_is_cut_at_a_sentence_end():
    sentence = "We decided to use Postgres because " + "it is boring and well known. " * 20
    ((category, text),) = found(sentence)
    assert category == "decisions" and len(text) <= MAX_CHARS and text.endswith(".")


def test_rules_read_the_start_of_a_run_on_line_not_all_of_it():
    # A cue the extract could not hold does not make a run-on line of output memory.
    filler = " ".join(["step", "output", "value", "line"] * 60)  # ~1,200 characters, no full stop
    ((category, text),) = found(f"We decided to cap retries at three because {filler}")
    assert category == "decisions" and text.startswith("We decided to cap retries")
    assert found(f"{filler} but we decided to use Postgres for billing") == []


def test_a_word_cut_by_the_rules_window_is_not_read_as_a_cue():
    cue = "and we will use"
    filler = "the team met and talked about the plan for a while " * 20
    head = filler[: RULE_WINDOW - len(cue) - 1] + " " + cue
    assert len(head) == RULE_WINDOW
    assert found(head + "fully worded notes for the record") == []  # "usefully", not "use"
    assert found(head + " Postgres for billing")[0][0] == "decisions"
