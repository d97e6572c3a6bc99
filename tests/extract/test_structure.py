"""Structure decides as much as cue words: headings and introducing lines file the items under
them, list items stay whole, a person's own words are preferences, a failed command's cause is
a lesson; and cue words are data, one table per language."""

from __future__ import annotations

import importlib
import pkgutil

import pytest

from mem.extract import cues, patterns
from mem.extract.capture import Capture
from mem.extract.formats import Message


def found(text: str) -> list[tuple[str, str]]:
    return [(candidate.category, candidate.text) for candidate in patterns.extract(text)]


def from_person(text: str) -> list[tuple[str, str]]:
    return [(candidate.category, candidate.text) for candidate in patterns.from_person(text)]


# --- languages are data ---------------------------------------------------------------------


def test_every_language_is_one_table_and_all_of_them_are_read():
    modules = {
        info.name for info in pkgutil.iter_modules(cues.__path__) if not info.name.startswith("_")
    }
    assert modules >= {"en", "pt", "zh"}
    tables = cues.tables()
    for name in modules:
        table = importlib.import_module(f"mem.extract.cues.{name}").CUES
        assert isinstance(table, cues.Cues) and table in tables


def test_chinese_sentences_end_without_spaces_and_a_why_heading_files_a_lesson():
    text = "## 为什么会这样？\n\nnpm 默认会将发布的包标记为 `latest` tag。这个命令没有问题。"
    assert found(text)[0] == ("lessons", "npm 默认会将发布的包标记为 `latest` tag。")
    assert patterns.sentences("第一句。第二句！第三句？") == ["第一句。", "第二句！", "第三句？"]


@pytest.mark.parametrize(
    ("text", "split"),
    [
        ("If a stem exists (e.g. Pi `deploy`), it is synced. Next.", 2),
        ("Chose Redis vs. Postgres for the cache. Done.", 2),
        ("Nutze z.B. Redis für den Cache. Fertig.", 2),
        ("It works. E.g. Foo is fine too.", 2),  # a sentence may open with one
    ],
)
def test_an_abbreviations_full_stop_ends_no_sentence(text, split):
    assert len(patterns.sentences(text)) == split


def test_portuguese_headings_and_cues_work_like_english_ones():
    text = "## Pendências\n\n- Rodar a suíte E2E completa de novo\n\nO problema era o fuso do CI."
    assert found(text) == [
        ("tasks", "Rodar a suíte E2E completa de novo"),
        ("lessons", "O problema era o fuso do CI."),
    ]


# --- structure ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("heading", "category"),
    [
        ("## Errors and fixes", "lessons"),
        ("**Root cause:**", "lessons"),
        ("### Known issues", "lessons"),
        ("## Trade-offs", "decisions"),
        ("## Pending Tasks", "tasks"),
        ("### ✅ Next steps", "tasks"),
        ("## Out of scope", "tasks"),
        ("## [OK] Decisions", "decisions"),
    ],
)
def test_a_heading_files_the_items_under_it(heading, category):
    text = f"{heading}\n\n- the parser keeps a cache of compiled grammars per file\n"
    assert [c for c, _ in found(text)] == [category]


def test_a_heading_files_the_opening_sentence_after_it_not_a_whole_explanation():
    text = (
        "## Why\n\n"
        "The worker reclaimed messages before the first one finished with them. "
        "Consumer groups keep a pending list for each consumer in general."
    )
    assert found(text) == [
        ("lessons", "The worker reclaimed messages before the first one finished with them.")
    ]


def test_an_introducing_line_files_the_list_that_follows_as_one_entry():
    # Each item alone ("Create a new `dev` tag") would be a fragment; under the line that
    # introduced them they say what the workaround was.
    text = (
        "The workaround was to:\n"
        "- Create a new `dev` tag (which worked)\n"
        "- Update `state.json` to point to the `dev` tag\n\n"
        "However, there's one potential issue that could arise on Windows:\n\n"
        "Windows paths use backslashes, while `normalize_path` converts paths to forward slashes.\n"
    )
    assert found(text) == [
        (
            "decisions",
            (
                "The workaround was to: Create a new `dev` tag (which worked); Update `state.json`"
                " to point to the `dev` tag"
            ),
        ),
        (
            "lessons",
            (
                "Windows paths use backslashes, while `normalize_path` converts paths to forward "
                "slashes."
            ),
        ),
    ]


def test_items_nested_under_an_introducing_item_are_filed_and_siblings_are_not():
    text = (
        "- Decided on the stack:\n"
        "  - H2 in file mode (over SQLite: native Java)\n"
        "  - HikariCP for connection pooling\n"
        "- Scaffolded the project in build.gradle.kts\n"
    )
    assert found(text) == [
        (
            "decisions",
            (
                "Decided on the stack: H2 in file mode (over SQLite: native Java); HikariCP for "
                "connection pooling"
            ),
        ),
    ]


def test_a_long_list_is_gathered_into_entries_of_at_most_300_characters_each_headed():
    items = [f"- `module_{n}` keeps the {n}th cache of parsed documents on disk" for n in range(9)]
    text = "## Decisions\n" + "\n".join(items) + "\n"
    entries = [(c.category, c.text) for c in patterns.extract(text, report=True)]
    assert len(entries) > 1
    assert all(cat == "decisions" and len(body) <= 300 for cat, body in entries)
    assert all(body.startswith("Decisions: ") for _, body in entries)
    joined = " ".join(body for _, body in entries)
    assert all(f"`module_{n}`" in joined for n in range(9))  # no item lost at a cut


def test_a_heading_that_names_nothing_files_as_the_heading_above_it():
    text = (
        "## Recommendations\n\n"
        "### High priority\n\n"
        "1. Undefined `colors.cyan` in languagedefaults.lua must be defined\n\n"
        "# Appendix\n\n"
        "### Low priority\n\n"
        "1. The palette file lists twelve colours in `palette.lua`\n"
    )
    assert found(text) == [
        ("tasks", "Undefined `colors.cyan` in languagedefaults.lua must be defined"),
    ]


def test_a_hard_wrapped_list_item_is_one_entry():
    text = (
        "- Key finding: all Kotlin/JS and Kotlin/Wasm approaches still use node/webpack\n"
        "  under the hood via the Gradle plugin.\n"
    )
    ((category, body),) = found(text)
    assert category == "lessons" and body.endswith("under the hood via the Gradle plugin.")


def test_a_todo_line_does_not_swallow_the_line_after_it():
    text = "TODO: document the MEM_VAULT variable\nThe release went out on Friday without it.\n"
    assert found(text) == [("tasks", "document the MEM_VAULT variable")]


def test_a_changelog_line_under_a_decisions_heading_is_not_a_decision_unless_it_says_why():
    text = (
        "## Decision\n"
        "- Verified all 63 unit tests pass cleanly.\n"
        "- Added `ruff` to the dev dependencies.\n"
        "- Configured Ruff to prefer single quotes for formatting and linting.\n"
    )
    assert found(text) == [
        ("decisions", "Configured Ruff to prefer single quotes for formatting and linting.")
    ]


# --- a person's own words -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("prompt", "category"),
    [
        ("Note for linting I want single quotes", "facts"),
        ("no, use pnpm for everything in this repo", "facts"),
        ("Now let's change it to a dark theme because I hate white pages.", "facts"),
        ("will that fix work? this bug only appears on windows", "facts"),
        ("Nice, but I am missing a header image.", "tasks"),
        ("我只有 beta 和 latest", "facts"),
    ],
)
def test_a_persons_preferences_corrections_and_wishes_are_kept(prompt, category):
    assert [c for c, _ in from_person(prompt)] == [category]


@pytest.mark.parametrize(
    "prompt",
    ["Please commit and push.", "Great. Please checkout a feature branch.", "continue"],
)
def test_a_persons_one_off_commands_are_not_memory(prompt):
    assert from_person(prompt) == []


def test_a_long_pasted_prompt_is_instructions_not_memory():
    checklist = "\n".join(f"- [ ] Always check item {n} before you answer" for n in range(40))
    template = f"# Review template\n\n{checklist}\n\nNever skip a step. We prefer short answers.\n"
    assert from_person(template) == []


# --- tool events ----------------------------------------------------------------------------


def test_the_cause_stated_right_after_a_failed_command_is_a_lesson():
    capture = Capture()
    said = "The migration needs Postgres 15; the CI image ships 13."
    after = Message("assistant", said, after_failure=True)
    # Mined as prose on the way to a report (more of the agent's words follow it).
    capture.mine(after, said)
    assert [c.category for c in capture.release(report=False)] == ["lessons"]
    before = Message("assistant", said)
    capture.mine(before, said)
    assert capture.release(report=False) == []


def test_the_answer_to_what_went_wrong_is_a_lesson():
    capture = Capture()
    question = Message("user", "Question: what was the issue with task-master?")
    capture.mine(question, question.text)
    answer = "The project was initialized with an older version, and the schema changed since."
    capture.mine(Message("assistant", answer), answer)
    assert [c.category for c in capture.finish()] == ["lessons"]


def test_a_line_that_is_only_a_sections_name_heads_what_follows_without_blank_lines():
    text = (
        "The tests fail on Windows.\n"
        "Expected behavior\n"
        "Extension cleanup should tolerate transient Windows file locks without sleeps.\n"
    )
    units = list(patterns.prose_units(text))
    assert [u.kind for u in units] == ["sentence", "heading", "sentence"]
    found = [(c.category, c.text) for c in patterns.extract(text, report=True, person=True)]
    assert (
        "facts",
        "Extension cleanup should tolerate transient Windows file locks without sleeps.",
    ) in found


def test_a_heading_that_names_decisions_among_other_words_files_its_items_as_decisions():
    text = (
        "### Key Architectural Decisions for Your Review:\n"
        "1. **Local Privacy Mode**: The Electron app defaults to a local SQLite database.\n\n"
        "## Principais decisões de arquitetura\n"
        "- Usar SQLite local por padrão no app desktop\n"
    )
    found = [(c.category, c.text) for c in patterns.extract(text, report=True)]
    assert [category for category, _ in found] == ["decisions", "decisions"]
    assert found[0][1].endswith("The Electron app defaults to a local SQLite database.")


def test_a_sub_heading_names_the_item_under_it_and_stands_for_it_where_only_code_follows():
    text = (
        "1. KRITISCHE BUGS & PROBLEME\n\n"
        "1.2 Undefinierte Farbe\n\n"
        "colors.cyan existiert nicht in palette.lua - dies verursacht einen Fehler!\n\n"
        "1.4 Lualine Replace-Mode leer\n\n"
        "highlight(0, 'StorageClass', { fg = colors.cyan, bg = 'NONE' })\n\n"
        "2. ARCHITEKTUR\n\n"
        "Die Palette liegt in `palette.lua` und wird von allen Dateien geladen.\n"
    )
    found = [(c.category, c.text) for c in patterns.extract(text, report=True)]
    assert found[:2] == [
        (
            "lessons",
            (
                "Undefinierte Farbe: colors.cyan existiert nicht in palette.lua - dies "
                "verursacht einen Fehler!"
            ),
        ),
        ("lessons", "Lualine Replace-Mode leer"),
    ]
    assert not any("highlight(0" in text for _, text in found)  # a call drawn without a fence


def test_a_word_within_a_sub_heading_does_not_outweigh_the_section_it_stands_in():
    text = (
        "## Recommendations\n\n"
        "### HIGH (Bugs/Functionality)\n\n"
        "1. Define the missing `colors.cyan` in languagedefaults.lua\n"
    )
    found = [(c.category, c.text) for c in patterns.extract(text, report=True)]
    assert [category for category, _ in found] == ["tasks"]


def test_a_labelled_paragraph_is_one_entry_past_its_first_sentence():
    text = (
        "**Dica**: se precisar parar a execução, pressione `Ctrl+C` no terminal. Para rodar "
        "novamente, basta usar o comando `py -m streamlit run app.py`. Let me know if it works.\n"
    )
    found = [(c.category, c.text) for c in patterns.extract(text, report=True)]
    assert found == [
        (
            "facts",
            (
                "Dica: se precisar parar a execução, pressione `Ctrl+C` no terminal. Para rodar "
                "novamente, basta usar o comando `py -m streamlit run app.py`."
            ),
        )
    ]


def test_a_section_name_inside_wrapped_prose_is_no_heading():
    text = (
        "The loader reads `config.yaml` before the environment, which overrides\n"
        "the key design decisions\n"
        "made in the CLI because `MEM_HOME` is checked last.\n"
    )
    ((category, body),) = [(c.category, c.text) for c in patterns.extract(text, report=True)]
    assert category == "lessons" and body.startswith("The loader reads")


def test_a_heading_that_states_is_told_once_and_the_sub_heading_before_it_stays_its_own():
    text = (
        "## Critical bugs\n\n"
        "### Lualine replace mode empty\n\n"
        "### Root Cause: race condition in `EzoicPlaceholder` when it mounts twice\n"
    )
    assert [c.text for c in patterns.extract(text, report=True)] == [
        "Lualine replace mode empty",
        "Root Cause: race condition in `EzoicPlaceholder` when it mounts twice",
    ]


def test_a_gathered_list_names_its_heading_once_and_a_long_inventory_stops_at_two_entries():
    text = "## Conventions\n- Conventions for Go: use tabs\n- Run `gofmt` before each commit\n"
    assert [c.text for c in patterns.extract(text, report=True)] == [
        "Conventions for Go: use tabs; Run `gofmt` before each commit"
    ]
    inventory = "\n".join(f"- The `svc{n}` service listens on port {8000 + n}" for n in range(60))
    facts = list(patterns.extract("Services:\n" + inventory + "\n", report=True))
    assert len(facts) == 2 and all(len(fact.text) <= 300 for fact in facts)


@pytest.mark.parametrize(
    ("said", "category"),
    [
        ("Running `make` twice fails because the `build/` dir is never cleaned.", "lessons"),
        ("Build: requires Node 20 because `fetch` is global only there.", "lessons"),
        ("Seu teste é instável porque depende do relógio do sistema.", "lessons"),
    ],
)
def test_a_gerund_subject_a_state_label_with_a_reason_and_your_test_still_state(said, category):
    assert [c.category for c in patterns.extract(said, report=True)] == [category]
