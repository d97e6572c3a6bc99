"""A knowledge document (the agent's final report for a request, a plan, a summary) is mined
whole: every statement in it is filed by what it means, its table rows and list items are items
with their heading, and the words around it (narration, offers, guesses, words to the reader)
are not memory. The agent's last words before the person speaks again are its report."""

from __future__ import annotations

import json

import pytest

from mem.extract import formats, patterns
from mem.extract.capture import Capture
from mem.extract.formats import Message
from mem.extract.summary import SessionSummary


def session(capture: Capture, steps: list[Message]) -> list:
    """Every candidate a session's messages give, in order, its end included."""
    found = []
    for message in steps:
        found += capture.mine(message, message.text)
    return found + capture.finish()


def report(text: str) -> list[tuple[str, str]]:
    return [(c.category, c.text) for c in patterns.extract(text, report=True)]


def from_person(text: str) -> list[tuple[str, str]]:
    return [(c.category, c.text) for c in patterns.from_person(text)]


def prose(text: str) -> list[tuple[str, str]]:
    return [(c.category, c.text) for c in patterns.extract(text)]


def what_of(report_text: str) -> str:
    """The handoff's What of a session whose one message is this report."""
    summary = SessionSummary()
    summary.take(Message("assistant", report_text), [])
    return summary.what


def test_a_report_keeps_statements_no_cue_word_names_filed_by_what_they_mean():
    text = (
        "The release step fails on tagged builds, so the artifacts never upload.\n\n"
        "The alternative was a temp dir, but the `.gitignore` entry is simpler.\n\n"
        "The change is uncommitted on `next`.\n\n"
        "I walked through the `release.yml` steps one by one in the runner.\n\n"
        "- The workflow releases from `main` every Tuesday.\n"
    )
    assert prose(text) == []
    assert report(text) == [
        ("lessons", "The release step fails on tagged builds, so the artifacts never upload."),
        ("decisions", "The alternative was a temp dir, but the `.gitignore` entry is simpler."),
        ("tasks", "The change is uncommitted on `next`."),
        # Free prose that shows no signal explains; a list item states (a fact sheet's shape).
        ("facts", "The workflow releases from `main` every Tuesday."),
    ]


@pytest.mark.parametrize(
    "sentence",
    [
        "Let me know if you want the same change on the release branch.",
        "Want me to open a pull request for it?",
        "This should help prevent the flaky failures from coming back.",
        "Check if there are any scope issues in the handler module.",
        "All 18 event watching tests passing.",
        "This looks solid and complete to me overall.",
        "SUMMARY: Moved the session store to Redis for the cluster.",
        "Soll ich mit den Korrekturen beginnen?",
        # a step said with its sequencing word first is still a step
        "Now let me add a procedure to get the next entry number and use it.",
        "Next, I'll update the setup page to show the correct API URLs.",
        "Verify your main exports and ESM compliance before you publish.",  # the reader's step
        # a way to look things up, not a way the work was done
        "I'll check the codebase and its docs directly rather than relying on memory.",
        # what handles failures names none
        "Provides comprehensive error handling and progress tracking for every call.",
    ],
)
def test_a_report_leaves_out_offers_guesses_steps_for_the_reader_status_and_chatter(sentence):
    assert report(sentence) == []


def test_a_reports_table_rows_and_list_items_are_items_under_their_heading():
    text = (
        "## Bugs fixed\n\n"
        "| Bug | File | Fix |\n"
        "|-----|------|-----|\n"
        "| Observer attached before the div existed | `ad.tsx` | Removed `isRendered` gating |\n\n"
        "## Known issues\n\n"
        "- Unused `pytest` imports in the placeholder test files\n"
    )
    assert report(text) == [
        (
            "lessons",  # "Bugs" in its heading files it
            (
                "Bugs fixed: Observer attached before the div existed — `ad.tsx` — Removed "
                "`isRendered` gating"
            ),
        ),
        ("lessons", "Known issues: Unused `pytest` imports in the placeholder test files"),
    ]


def test_the_agents_last_words_before_the_person_speaks_again_are_mined_as_its_report():
    capture = Capture()
    said = "- The workflow releases from `main` every Tuesday."  # a report's fact, not prose's
    assert capture.mine(Message("assistant", said), said) == []  # a report only if last
    assert capture.mine(Message("assistant", said), said) == []  # more followed: prose
    found = capture.mine(Message("user", "thanks, now the docs"), "thanks, now the docs")
    assert [c.text for c in found] == [said[2:]]
    capture.mine(Message("assistant", said + " "), said + " ")
    assert [c.text for c in capture.finish()] == [said[2:]]  # the session's last words


def test_what_the_agent_says_of_a_commit_later_taken_back_is_no_memory():
    capture = Capture()
    steps = [
        Message("user", "fix the crash"),
        Message("assistant", "Added error handling to the scraper in `scrape.py`."),
        Message("assistant", commits=("0fdc07f feat: add error handling",)),
        Message("user", "how did that fix it?"),
        Message("assistant", "Commit 0fdc07f wraps the page load, because navigation fails."),
        Message("undo", commits=("0fdc07f",)),
    ]
    for message in steps:
        capture.mine(message, message.text)
    capture.finish()
    assert {c.text for c in capture.retracted} == {
        "feat: add error handling",  # the commit's own subject
        "Added error handling to the scraper in `scrape.py`.",
        "Commit 0fdc07f wraps the page load, because navigation fails.",
    }


@pytest.mark.parametrize(
    "written",
    ["tests/**/*.ts", "__init__.py", "V{NNN}__{name}.sql", "*args and **kwargs", "snake_case_name"],
)
def test_text_stays_as_written_globs_underscores_and_asterisks(written):
    sentence = f"The root cause was that the loader only reads {written} at start-up."
    assert [text for _, text in prose(sentence)] == [sentence]
    assert [text for _, text in prose(f"**Root cause:** the loader only reads {written}.")] == [
        f"Root cause: the loader only reads {written}."
    ]


def test_headings_drawn_without_a_hash_head_the_items_under_them():
    text = (
        "Overview\n\n"
        "  1.1 Missing options\n\n"
        "- `setup({})` takes no options at all\n\n"
        "2. KNOWN BUGS\n\n"
        "- `colors.cyan` is undefined in `palette.lua`, so the group renders black\n"
    )
    assert report(text) == [
        # A numbered section title files what it heads but is too far from it to stand
        # before it; a short one ("Known issues") does.
        ("facts", "`setup({})` takes no options at all"),
        (
            "lessons",
            ("`colors.cyan` is undefined in `palette.lua`, so the group renders black"),
        ),
    ]


def test_a_reports_line_that_introduces_a_list_also_states_and_an_interjection_is_dropped():
    text = "All tests pass. Added two tests to `setup_test.go`:\n\n- `TestKeepsSettings`\n"
    assert ("decisions", "Added two tests to `setup_test.go`") in report(text)
    assert report("- Good, `setupHooks` already loads the settings first.") == [
        ("facts", "`setupHooks` already loads the settings first."),
    ]


@pytest.mark.parametrize(
    "line",
    [
        "- Fix: Passed the `timeout` option through to:",
        "- Actually, since the tag is already pushed, I should:",
        "- To fix this for good, the session start should be reviewed to ensure:",
        "- Reworked the export path in the following way, as it follows:",
        "- The export now writes every supported format (pick one or more):",
        "- Solução: o carregamento dos prompts passou a ser feito para:",
        "- Lösung: Die Palette wird jetzt geladen von:",
    ],
)
def test_a_line_that_ends_on_a_word_its_list_must_finish_states_nothing(line):
    text = f"**Issue 2: Slow export**\n{line}\n  - `export()` in the CLI\n  - the `sync` route\n"
    assert all(line[2:].rstrip(":") not in stored for _, stored in report(text))


def test_a_summary_item_its_sub_items_finish_is_in_the_what_without_its_dangling_word():
    summary = SessionSummary()
    text = (
        "Summary of changes:\n\n"
        "- Updated `future_development.md` with:\n"
        "  - the color naming plan\n"
        "- Created two tasks in task-master (dev tag)\n"
    )
    summary.take(Message("assistant", text), [])
    assert (
        summary.what
        == "Updated `future_development.md`; Created two tasks in task-master (dev tag)"
    )
    done = SessionSummary()  # an item that does not introduce a list is whole, whatever its end
    done.take(Message("assistant", "Summary of changes:\n\n- Turned the dark mode flag on\n"), [])
    assert done.what == "Turned the dark mode flag on"


def test_a_persons_document_keeps_its_rules_not_the_changes_it_requests():
    spec = (
        "Build the sales dashboard for the team.\n\n"
        "- Add a new tab called `Monday Plan` to the Streamlit app.\n"
        "- It must keep working without any external API.\n"
        "- Never rewrite the scoring module.\n\n" + "Context for the work. " * 80
    )
    found = [(c.category, c.text) for c in patterns.from_person(spec)]
    assert ("facts", "It must keep working without any external API.") in found
    assert ("facts", "Never rewrite the scoring module.") in found
    assert not any("Monday Plan" in text for _, text in found)


def test_a_form_with_blanks_is_never_mined_whatever_cues_it_holds():
    form = (
        "## Root Cause\n\nRoot cause: [identified cause or best hypothesis…]\n\n"
        "## Fix\n\nThe fix was [describe the change in one line]\n\n"
        "IMPORTANT: Do NOT use any tools. Never skip a section.\n"
    )
    assert list(patterns.from_person(form)) == []
    assert list(patterns.from_person(form * 10)) == []


def test_a_commit_subject_is_a_decision_and_a_merge_or_a_formatting_run_is_not():
    capture = Capture()
    message = Message(
        "assistant",
        commits=(
            "462a28b gitproto: send empty pack on pack-less ref creates",
            "1a2b3c4 Merge x",
            "5d6e7f8 style: Format code with linter",  # only formats: no behaviour changed
            "9a8b7c6 Run prettier",
            "0f1e2d3 feat: format dates in the invoice header",
            "3c4d5e6 Format code blocks in chat replies",
        ),
    )
    found = capture.mine(message, "") + capture.finish()
    assert [(c.category, c.text) for c in found] == [
        ("decisions", "gitproto: send empty pack on pack-less ref creates"),
        ("decisions", "feat: format dates in the invoice header"),
        ("decisions", "Format code blocks in chat replies"),
    ]


def test_prose_on_the_way_to_a_report_keeps_the_causes_it_finds_and_nothing_else_unnamed():
    said = (
        "The deploy never got past action setup because `pnpm` was missing from the runner. "
        "The workflow has two jobs and a matrix of `node` versions."
    )
    steps = [Message("assistant", said), Message("assistant", "Next I'll read the logs.")]
    found = session(Capture(), steps)
    assert [(c.category, c.text) for c in found] == [
        (
            "lessons",
            "The deploy never got past action setup because `pnpm` was missing from the runner.",
        )
    ]


def test_phrasings_the_rules_once_missed_are_caught_by_structure_and_meaning():
    text = (
        "The login loop was fixed by clearing the stale session cookie first.\n\n"
        "Next step: 1. Rebuild the search index after the migration\n\n"
        "### Root Cause of Failures:\n\n"
        "The core mistake was reading the config before the env file was loaded.\n"
    )
    assert report(text) == [
        # The fix said by what it did is the change made: a decision.
        ("decisions", "The login loop was fixed by clearing the stale session cookie first."),
        ("tasks", "1. Rebuild the search index after the migration"),
        ("lessons", "The core mistake was reading the config before the env file was loaded."),
    ]


def test_a_clause_that_stands_alone_is_kept_from_a_sentence_that_does_not():
    # "They were…" leans on what came before; the clause after ", and" names its subject.
    said = (
        "They were repeat runs of the same job, and the job never got past action setup "
        "because `pnpm` was missing from the runner PATH."
    )
    assert report(said) == [
        (
            "lessons",
            "The job never got past action setup because `pnpm` was missing from the runner PATH.",
        )
    ]
    assert report("They were retries, and the runner did not have it set up at all.") == []


def test_what_the_agent_found_that_made_it_act_is_a_lesson_without_the_action():
    said = (
        "GitHub's deployment object does not include the final result inline, so I'm pulling "
        "each deployment's statuses next."
    )
    found = session(
        Capture(), [Message("assistant", said), Message("assistant", "Reading them now.")]
    )
    assert [(c.category, c.text) for c in found] == [
        ("lessons", "GitHub's deployment object does not include the final result inline."),
    ]
    said = "The build is green on `main`, so I'll merge the branch."  # a status, not a finding
    assert session(Capture(), [Message("assistant", said), Message("assistant", "Merging.")]) == []


def test_a_heading_that_labels_what_it_states_is_a_statement():
    text = (
        "## Root Cause: race condition in `EzoicPlaceholder`\n\n"
        "`showAds(id)` ran before the placeholder div existed.\n\n"
        "The main subtlety is traversal: an include rule has to reopen a skipped directory.\n"
    )
    found = prose(text)
    assert ("lessons", "Root Cause: race condition in `EzoicPlaceholder`") in found
    assert (
        "lessons",
        "The main subtlety is traversal: an include rule has to reopen a skipped directory.",
    ) in found


def test_a_participle_before_a_finding_is_no_step_under_way():
    said = (
        "Looking at the linter error, the issue is that `Iterable` should be imported from "
        "`collections.abc` instead of `typing`."
    )
    assert report(said) == [("lessons", said)]
    assert report("Checking whether an older `so` binary exists elsewhere in PATH.") == []


def test_the_finding_is_kept_without_the_agent_coming_to_it():
    said = (
        "After reviewing the commit, I realize that the modification doesn't directly address "
        "an UnboundLocalError."
    )
    assert report(said) == [
        ("lessons", "The modification doesn't directly address an UnboundLocalError.")
    ]


def test_a_question_a_reports_list_leaves_open_is_a_task_and_one_to_the_reader_is_not():
    text = (
        "Pending work:\n"
        "- Yank v0.2.2 from PyPI?\n"
        "- Want me to open the pull request?\n"
        "- Should you rerun the failing job?\n"
    )
    assert report(text) == [("tasks", "Yank v0.2.2 from PyPI?")]
    # Listed anywhere else, a question asks the person now: the answer is memory, not it.
    asked = "What to check next:\n- Is pagination working correctly?\n- Are there JSON parsing issues?\n"
    assert report(asked) == []


def test_an_earlier_sessions_summary_the_person_pasted_is_mined_as_a_summary_and_not_its_log():
    summary = (
        "Discoveries\n"
        "- Blockint rules are implemented as `Policy` struct extensions, not service calls\n"
        "Next Steps\n"
        "- Tag the release for the hackathon submission\n"
        "Critical Context\n"
        "- Anchor program ID: `BaSZuLcwjfh75T3TjbVYpTH4qpJt1tNoZ3S6PTkvNhCb`\n"
        "- `/logs` endpoints now return `PaginatedLogsResponse`\n"
    )
    log = "".join(
        f"Thinking: now let me run step {n} of the release checks and look at the output.\n"
        f"$ cargo test --release\n15 passed; 0 failed; 0 ignored; finished in 0.{n}s\n"
        for n in range(12)
    )
    pasted = summary + "▣ Compaction · 54.9s\n" + log + "Everything has been pushed successfully.\n"
    assert patterns.is_session_summary(pasted)
    found = [(c.category, c.text) for c in patterns.from_person(pasted)]
    texts = " ".join(text for _, text in found)
    assert "implemented as `Policy` struct extensions" in texts
    assert "`BaSZuLcwjfh75T3TjbVYpTH4qpJt1tNoZ3S6PTkvNhCb`" in texts
    assert "`/logs` endpoints now return `PaginatedLogsResponse`" in texts
    assert ("tasks", "Tag the release for the hackathon submission") in found
    assert "passed" not in texts and "pushed successfully" not in texts
    # The same sections in a short remark, or a document with one of them, are no summary.
    assert not patterns.is_session_summary(summary)
    assert not patterns.is_session_summary("Next Steps\n- x\n" + log)


def test_a_report_keeps_what_it_says_of_a_thing_it_names_in_code():
    text = (
        "`--include-file` is repeatable, resolved relative to `--repo`, and loaded after "
        "`.gitignore`.\n\n"
        "The `gitService.branch` method first checks for the session in the database.\n\n"
        "The dashboard looks much cleaner now.\n"
    )
    assert [category for category, _ in report(text)] == ["facts", "facts"]
    assert prose(text) == []  # on the way to a report, a description is no finding


def test_what_a_persons_issue_expects_and_a_list_of_their_rules_are_kept_as_one_entry_each():
    issue = (
        "Can you improve the flaky Windows tests?\n\n"
        "The Windows job in the nightly build exposed several related reliability problems "
        "that amplified one failure into many reported failures across the whole package. "
        "A failed cleanup left the demo extension installed in shared user configuration, and "
        "later quota, telemetry and storage tests entered prompt paths they did not expect.\n\n"
        + "Findings\n\n"
        + "".join(
            f"The {name} test used unchecked fixture assertions in its {part} step, and the "
            f"run that followed it reported every remaining case as failed.\n"
            for name, part in (
                ("quota", "setup"),
                ("telemetry", "teardown"),
                ("storage", "poll"),
                ("network", "retry"),
                ("cache", "cleanup"),
            )
        )
        + "\n"
        + "Expected behavior\n\n"
        "Extension cleanup should tolerate transient Windows file locks without sleeps.\n\n"
        "1. NÃO ALTERAR (regras críticas)\n\n"
        "* Não remover nenhuma funcionalidade existente\n"
        "* Não alterar a estrutura de abas atual\n"
    )
    assert patterns.is_document(issue)
    found = [(c.category, c.text) for c in patterns.from_person(issue)]
    assert (
        "facts",
        "Extension cleanup should tolerate transient Windows file locks without sleeps.",
    ) in found
    assert (
        "facts",
        "Não remover nenhuma funcionalidade existente; Não alterar a estrutura de abas atual",
    ) in found


def test_how_the_person_wants_it_done_is_kept_from_the_request_around_it():
    asked = "fix issue 147 then commit, push and open a pr and follow our tpr template"
    assert from_person(asked) == [("facts", "Follow our tpr template")]
    asked = "Suggest changes and make sure each sentence is on a new line in markdown."
    assert from_person(asked) == [
        ("facts", "Make sure each sentence is on a new line in markdown.")
    ]
    assert from_person("make sure the tests pass before you push") == []


@pytest.mark.parametrize(
    "rule",
    [
        "the full schema should not be updated ever",
        "不是让你改测试，是让你修代码",
        "Não quero notebook.",
        # typed as people type, without a full stop: the line heads nothing
        "I prefer small commits",
        "stop adding comments to every line",
        "avoid adding new dependencies",
        "only use the stdlib for this",
        "it's fine to break the internal API",
        "going forward use conventional commits",
        "from now on, write the changelog in English",
        "that's wrong, the config lives in ~/.config/app not in the repo",
        "keine neuen Abhängigkeiten hinzufügen",
    ],
)
def test_a_persons_short_rule_is_kept_in_any_language(rule):
    assert [(c.category, c.text) for c in patterns.from_person(rule)] == [("facts", rule)]


@pytest.mark.parametrize(
    "said",
    [
        "Fix the login bug",
        "Now deploy it",
        "When you're done, commit and push the branch",  # for this once
        "Overview",
        # what a page displayed, quoted, and a doubt: a report of what the person sees
        (
            "GA4 タグは検出されませんでした。 もう一度試すか、後で設定してください。と表示されるので"
            "正しく設定されていないようです"
        ),
    ],
)
def test_a_persons_request_or_report_of_what_they_see_is_no_rule(said):
    assert list(patterns.from_person(said)) == []


def closed_by(step: str, report: str, asked: str = "migrate the search") -> tuple[list, list]:
    """The tasks a session found and those it took back, where the agent leaves `step` open
    and a later message says `report`."""
    capture = Capture()
    steps = [
        Message("user", asked),
        Message("assistant", step),
        Message("user", "go on"),
        Message("assistant", report),
        Message("user", "thanks"),
    ]
    found = session(capture, steps)
    return [c.text for c in found if c.category == "tasks"], [c.text for c in capture.retracted]


STEP = "Next step: rebuild the search index after the migration."


@pytest.mark.parametrize(
    ("step", "report"),
    [
        (STEP, "Rebuilt the search index; queries return the new fields."),
        # a paragraph wrapped over two lines is read as one
        (STEP, "I have now rebuilt\nthe search index after the migration, as planned."),
        # Chinese puts no space between words: two characters that stand together are compared
        (
            "下一步：把本地的 3 个提交推送到远程仓库。",
            "已完成：本地的 3 个提交已经推送到远程仓库。",
        ),
    ],
)
def test_a_task_the_agent_reports_done_later_is_taken_back(step, report):
    tasks, taken_back = closed_by(step, report)
    assert tasks and taken_back == tasks


def test_a_report_closes_a_task_by_a_line_that_says_it_done_not_by_all_its_words():
    # A report's heading and list items end no sentence: read as one, its words would name
    # most earlier tasks, and "Added" anywhere in it would close them.
    summary = (
        "## Summary\n\n- Added the search migration\n- Index rebuild after the "
        "migration is still to come\n- Queries return the new fields\n"
    )
    tasks, taken_back = closed_by(STEP, summary)
    assert "rebuild the search index after the migration." in tasks
    assert taken_back == []


def test_a_code_block_reports_no_work_done():
    # An edit's comment ("# rebuilt the search index") is code, not the agent saying it did
    # the task: the task stays open.
    capture = Capture()
    steps = [
        Message("user", "migrate the search"),
        Message("assistant", "Next step: rebuild the search index after the migration."),
        Message("user", "go on"),
        Message(
            "assistant",
            "Here is the migration script.\n\n```python\n# rebuilt the search index\n"
            "rebuild(search_index, after=migration)\n```\n",
        ),
        Message("user", "thanks"),
    ]
    found = session(capture, steps)
    assert [c.text for c in found if c.category == "tasks"] == [
        "rebuild the search index after the migration."
    ]
    assert capture.retracted == []


def test_what_the_person_asks_for_is_no_open_task_once_the_agent_has_worked_on_it():
    asked = "The blog looks nice, but I am missing a nice header image."
    worked = Capture()
    for message in [
        Message("user", asked),
        Message("assistant", files=("src/header.astro",)),
        Message("assistant", "Added a header image to the layout in `src/header.astro`."),
    ]:
        worked.mine(message, message.text)
    assert [c.category for c in worked.finish()] == ["decisions"]
    left = Capture()
    left.mine(Message("user", asked), asked)
    assert [(c.category, c.text) for c in left.finish()] == [("tasks", asked)]


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("But the session database doesn't have a record for this session yet.", []),
        (  # an action, with a failure word in it: a change made, not a lesson
            "- Deleted all 20 stale `production` deployment records from the repo.",
            [("decisions", "Deleted all 20 stale `production` deployment records from the repo.")],
        ),
        ("- Unrelated `.entire/` and `.github/hooks/` remain uncommitted.", []),
        ("- `.so/config.yaml`, `discovery.json`, `evals/`, `guardrails/`", []),
        ("- [implementation_plan.md](file:///C:/Users/me/.gemini/brain/plan.md)", []),
        ("- Tabela Detalhada: Lista completa das 2.089 oportunidades abertas", []),
        ("- Implementation: All 72 unit tests pass cleanly with `uv run pytest`.", []),
        ("- Verification: `bun run lint` — no lint issues", []),
        ("On the remote machine, every evaluation of the repository fails with", []),
        ("- Created and switched to `codex/docs-honor-ignore-lists`.", []),
        ("- Added `--include-file` to the CLI, committed, and pushed.", []),
        ("Fixed — one line in [.gitignore:184](.gitignore:184).", []),
        ("I have created the implementation plan for the dashboard and its API.", []),
        ("Each was created by the historical `deploy` workflow after `ci` completed.", []),
        ("- Branch: `codex/docs-honor-ignore-lists` tracking `origin/main`", []),
        (  # a change made, whatever word for open work it names: no task
            "- Expanded the TODO checklist in `PLAN.md` with 25 action items.",
            [("decisions", "Expanded the TODO checklist in `PLAN.md` with 25 action items.")],
        ),
        ("Your dark blog is now live at https://example.github.io/blog/ for everyone.", []),
        ("Sua entrega agora não é apenas um software, mas uma solução de `RevOps`.", []),
        ("Hmm, the `!.agents/` line is also a negation, which means it is not ignored.", []),
    ],
)
def test_a_report_leaves_out_fragments_inventories_status_and_others_work(said, kept):
    assert report(said) == kept


def test_the_agents_thinking_keeps_only_a_cause_it_finds_in_something_named():
    capture = Capture()
    thought = (
        "The root cause is clear. Checking whether an older `so` binary exists, since the shell "
        "cannot find it. For testing, I'll use a throwaway key. The stale `bin/so` is picked "
        "up by `so install` because its directory is in the PATH."
    )
    found = capture.mine(Message("thinking", thought), thought)
    assert [(c.category, c.text, c.why.split(":")[0]) for c in found] == [
        (
            "lessons",
            "The stale `bin/so` is picked up by `so install` because its directory is in the PATH.",
            "the agent's thinking",
        )
    ]
    assert capture.finish() == []


def test_a_claim_a_later_message_corrects_is_dropped_and_a_reverted_change_is_a_lesson():
    capture = Capture()
    steps = [
        Message("user", "why is the pack limit not configurable?"),
        Message(
            "assistant", "The `TargetMaxPackBytes` option isn't reachable from the public API."
        ),
        Message("user", "are you sure?"),
        Message(
            "assistant",
            "Actually the `TargetMaxPackBytes` option is reachable from the public API "
            "through `AdvancedOptions`.",
        ),
        Message("user", "ok, and the cache?"),
        Message("assistant", "Switched the session cache to Redis so restarts keep sessions."),
        Message("user", "the tests hang"),
        Message("assistant", "Reverted the switch of the session cache to Redis: the tests hang."),
        Message("user", "thanks"),
    ]
    found = session(capture, steps)
    texts = [(c.category, c.text) for c in found if c not in capture.retracted]
    assert not any("isn't reachable" in text for _, text in texts)
    assert (
        "lessons",
        "Tried, then taken back: Switched the session cache to Redis so restarts keep sessions.",
    ) in texts
    assert not any(c == "decisions" and "Switched" in t for c, t in texts)


def test_the_handoffs_what_is_the_commits_subject_before_a_step_the_report_names():
    from mem.extract.summary import SessionSummary

    summary = SessionSummary()
    summary.take(Message("user", "Windows tests are flaky"), [])
    summary.take(Message("assistant", commits=("ca3da16 Improve Windows test reliability",)), [])
    summary.take(Message("assistant", "Created branch `fix/flaky` and committed as `ca3da16`."), [])
    assert summary.what == "Improve Windows test reliability"
    summary.take(Message("user", "thanks, and the docs?"), [])
    summary.take(Message("assistant", "Fixed three inconsistencies in `PROTOCOL.md`."), [])
    assert summary.what == "Improve Windows test reliability"  # the session's commits


def test_the_handoffs_what_is_never_a_tool_line_an_exclamation_or_narration():
    from mem.extract.summary import SessionSummary

    summary = SessionSummary()
    summary.take(
        Message(
            "assistant",
            "Read file: src/start.ts\n\nGreat observation!\n\nLet me check the tests.\n\n"
            "The session is now added to the database before its branch is created.",
        ),
        [],
    )
    assert summary.what == (
        "The session is now added to the database before its branch is created."
    )


def test_the_handoffs_what_says_what_was_done_to_what_not_a_bare_status():
    from mem.extract.summary import SessionSummary

    summary = SessionSummary()
    summary.take(
        Message(
            "assistant",
            "Fixed — one line in `.gitignore`.\n\n"
            "Added `/src/gomodcache` next to `/src/dist` in `.gitignore`, so the release "
            "step sees a clean tree again.",
        ),
        [],
    )
    assert summary.what.startswith("Added `/src/gomodcache` next to `/src/dist`")


def test_the_handoffs_what_is_the_fix_where_the_report_leads_with_what_broke():
    from mem.extract.summary import SessionSummary

    report_text = (
        "What broke: the new packaging step leaves `src/gomodcache` behind, and GoReleaser "
        "counts untracked files as a dirty tree.\n\n"
        "The fix: I added `/src/gomodcache` to `.gitignore` next to the `/src/dist` entry."
    )
    summary = SessionSummary()
    summary.take(Message("assistant", report_text), [])
    assert summary.what.startswith("The fix: I added `/src/gomodcache` to `.gitignore`")
    plain = "The importer now streams rows from `reader.py` instead of loading the whole file."
    summary = SessionSummary()
    summary.take(Message("assistant", plain + "\n\nSet `CHUNK` in `config.py` to tune it."), [])
    assert summary.what == plain  # the report's lead says what was done: it stays the What


def test_explain_names_a_commit_subject_as_such_not_as_prose():
    capture = Capture()
    message = Message("assistant", commits=("462a28b gitproto: send empty pack on ref creates",))
    found = capture.mine(message, "") + capture.finish()
    assert [c.why for c in found] == ["a commit subject the agent wrote"]


def test_a_pasted_claude_code_summary_with_prose_indented_under_its_sections_is_a_summary():
    summary = (
        "Summary:\n"
        "1. Primary Request and Intent:\n"
        "   The user asked to make the importer stream rows from `reader.py`.\n\n"
        "2. Errors and fixes:\n"
        "   - The importer crashed on empty CSV files because `csv.DictReader` yields no header"
        " row.\n\n"
        "3. Pending Tasks:\n"
        "   - Add a regression test for empty CSV files\n"
    )
    log = "".join(f"Thinking: let me run step {n} and look at the output.\n" for n in range(30))
    assert patterns.is_session_summary(summary + log)
    found = [(c.category, c.text) for c in patterns.from_person(summary + log)]
    assert (
        "lessons",
        "The importer crashed on empty CSV files because `csv.DictReader` yields no header row.",
    ) in found
    assert ("tasks", "Add a regression test for empty CSV files") in found


def test_a_long_prompt_with_a_section_name_split_over_lines_is_read_without_failing():
    text = "x " * 700 + "\nnext\nsteps\n" + "Critical  \n  context\n" + "y " * 300
    assert not patterns.is_session_summary(text)
    assert list(patterns.from_person(text)) == []


def test_the_person_saying_what_something_does_not_mean_is_no_rule():
    said = "Não quer dizer que o teste esteja errado, só que ele é lento demais. " * 25
    assert list(patterns.from_person(said)) == []


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("I don't think that's it.", []),
        ("I can't see the button anymore, fix it", []),
        ("Don't push to main without a review.", ["Don't push to main without a review."]),
    ],
)
def test_a_person_saying_what_they_do_not_think_or_see_states_no_rule(said, kept):
    assert [text for _, text in from_person(said)] == kept


def test_work_the_agent_says_it_is_doing_now_is_not_left_open():
    said = "One call site still needs the new option; I'm patching that along with the parser."
    assert prose(said) == []
    assert prose("The migration still needs a backfill for old rows.") == [
        ("tasks", "The migration still needs a backfill for old rows.")
    ]


@pytest.mark.parametrize(
    "said",
    [
        "All docs are now consistent with each other and with the actual practice.",
        "The blog is now ready for deployment to GitHub Pages and content creation!",
        "O painel está 100% validado, sem erros técnicos e com a documentação alinhada.",
    ],
)
def test_the_work_judging_itself_done_is_no_memory(said):
    assert report(said) == []


def test_a_verdict_with_its_reason_is_still_kept():
    said = "The parser is now complete because the spec's last two rules are implemented."
    assert [category for category, _ in report(said)] == ["lessons"]


def test_the_handoffs_what_is_the_work_done_when_the_last_report_only_answers_a_remark():
    summary = SessionSummary()
    for message in [
        Message("user", "Build the sales dashboard."),
        Message("assistant", "Added the dashboard page with the pipeline chart in `app.py`."),
        Message("user", "Why does my editor show import warnings?"),
        Message("assistant", "Those warnings are only linter messages from the editor's Python."),
    ]:
        summary.take(message, [])
    assert summary.what == "Added the dashboard page with the pipeline chart in `app.py`."
    told = SessionSummary()  # not a step for the reader, though
    for message in [
        Message("user", "Set it up."),
        Message("assistant", "Set your workspace to the new `dashboard` folder in the IDE."),
        Message("user", "Is it done?"),
        Message("assistant", "The whole scaffold of the dashboard project was built here."),
    ]:
        told.take(message, [])
    assert told.what == "The whole scaffold of the dashboard project was built here."


def test_the_handoffs_what_is_the_turn_that_changed_most_not_a_last_tweak():
    summary = SessionSummary()
    for message in [
        Message("user", "Add the CSV export."),
        Message("assistant", files=("export.py", "cli.py", "tests/test_export.py")),
        Message("assistant", "Added the CSV export: `mem export --csv` writes one row per entry."),
        Message("user", "Rename that flag variable."),
        Message("assistant", files=("cli.py",)),
        Message("assistant", "Renamed the flag variable in `cli.py` to `as_csv` for clarity."),
    ]:
        summary.take(message, [])
    assert summary.what == "Added the CSV export: `mem export --csv` writes one row per entry."


def test_a_file_a_report_names_is_the_file_a_tool_call_wrote_listed_once():
    summary = SessionSummary()
    summary.take(Message("assistant", files=("/w/entire/cli/setup.go",)), [])
    summary.take(
        Message("assistant", "Fixed it in `setup.go` and updated `cli/setup_test.go`."), []
    )
    summary.take(Message("assistant", files=("entire/cli/setup_test.go",)), [])
    assert summary.files == ["entire/cli/setup.go", "entire/cli/setup_test.go"]


def test_the_handoffs_what_that_introduces_a_list_says_the_items_that_finish_it():
    summary = SessionSummary()
    summary.take(
        Message(
            "assistant",
            "Yes, that was a bug.\n\n"
            "Fixed in `setup.go:181-190` and `setup.go:289-298` - now both functions:\n"
            "1. Load existing settings first with `LoadEntireSettings()`\n"
            "   - the file is read once\n"
            "2. Update only the specific fields (Strategy, LocalDev, Enabled)\n",
        ),
        [],
    )
    assert summary.what == (
        "Fixed in `setup.go:181-190` and `setup.go:289-298` - now both functions: Load existing "
        "settings first with `LoadEntireSettings()`; Update only the specific fields "
        "(Strategy, LocalDev, Enabled)"
    )
    long_items = SessionSummary()  # as many items as fit one entry
    long_items.take(
        Message(
            "assistant",
            "Changed the importer in `reader.py`:\n"
            + "- a step " * 0
            + "".join(
                f"- streamed part {n} of the rows through the new chunked reader\n"
                for n in range(9)
            ),
        ),
        [],
    )
    assert long_items.what.startswith("Changed the importer in `reader.py`: streamed part 0")
    assert len(long_items.what) <= 300 and "part 8" not in long_items.what


def test_the_handoffs_what_is_the_report_that_lists_a_change_a_short_commit_subject_titles():
    summary = SessionSummary()
    for message in [
        Message("user", "Fix the flaky Windows tests."),
        Message("assistant", files=("pkg/osutil/remove.go", "pkg/prompt/spinner.go")),
        Message(
            "assistant",
            "Improved the Windows test reliability:\n\n"
            "- Extension removal now retries transient Windows file locks.\n"
            "- Prompt spinners honor injected writers.\n",
        ),
        Message("user", "Commit it on a branch."),
        Message("assistant", commits=("ca3da16 Improve Windows test reliability",)),
        Message("assistant", "Created branch `fix/windows-tests` and committed as `ca3da16`."),
    ]:
        summary.take(message, [])
    assert summary.what == (
        "Improved the Windows test reliability: Extension removal now retries transient Windows "
        "file locks; Prompt spinners honor injected writers"
    )
    told = SessionSummary()  # a subject that says what was done to what stays the What
    told.take(
        Message("assistant", commits=("9f3e1ab Retry extension removal on Windows file locks",)), []
    )
    told.take(Message("assistant", "Improved the tests:\n\n- Removal retries.\n- Spinners.\n"), [])
    assert told.what == "Retry extension removal on Windows file locks"


def test_a_tables_cells_are_never_the_handoffs_what():
    summary = SessionSummary()
    summary.take(
        Message(
            "assistant",
            "| Kind | Destination |\n|---|---|\n"
            "| Rules and skills with no trees | Default roots are `.agents/rules` and skills |\n\n"
            "Moved the guidance into the native vendor documents of the repository.",
        ),
        [],
    )
    assert summary.what == "Moved the guidance into the native vendor documents of the repository."


@pytest.mark.parametrize(
    "text",
    [
        (
            "### Option A: switch the cache to Redis\n\nWe'd use Redis instead of memcached.\n\n"
            "### Option B: keep memcached\n\n- Decided to raise the pool size to 50.\n"
        ),
        "**Option 2**: Moved the parser into `reader.py` because it is shared.\n",
        "方案 1：添加专用的 beta 发布脚本\n\n- 决定使用 `pnpm run publish:beta` 发布 beta 版本\n",
        "Opção 2: usar Redis em vez de memcached porque reinicia mais rápido.\n",
        "#### Variante A\n\nWir verwenden Redis statt memcached, weil es schneller startet.\n",
    ],
)
def test_an_option_put_forward_is_no_decision_whatever_cue_it_holds(text):
    assert report(text) == []
    assert prose(text) == []


def test_what_follows_an_options_section_is_mined_again():
    text = (
        "## Option 1: a dedicated beta script\n\n- Use `pnpm run publish:beta` for betas.\n\n"
        "## Outcome\n\nWe switched to one publish script instead of two, because CI stays simple.\n"
    )
    assert [category for category, _ in report(text)] == ["decisions"]
    assert "Optional: the cache is flushed on deploy, because keys change" in " ".join(
        t for _, t in report("Optional: the cache is flushed on deploy, because keys change.\n")
    )


def test_a_line_of_a_form_to_fill_is_no_memory_but_a_rule_naming_a_date_format_is():
    capture = Capture()
    text = (
        "Per the workflow rule, every log line reads:\n\n"
        "- YYYY-MM-DD: Implemented X feature because the task asked for it\n\n"
        "We decided to name the logs `YYYY-MM-DD.md` because they sort by date."
    )
    found = [c.text for c in capture.mine(Message("assistant", text), text) + capture.finish()]
    assert not any("Implemented X" in t for t in found)
    assert any("`YYYY-MM-DD.md`" in t for t in found)


def test_a_decision_and_the_reasons_a_label_under_it_gives_are_one_entry():
    text = (
        "### Version Numbering\n"
        "- **Decision:** Use PEP 440 pre-release suffixes (`1.0.0a5`)\n"
        "- **Rationale:**\n"
        "  - Prevents accidental installation of unstable versions\n"
        "  - Signals the development phase to users\n"
        "- **Migration Path:** v0.2.2 (old) → v1.0.0a1 (alpha) → v1.0.0 (stable)\n"
    )
    found = report(text)
    assert found[0] == (
        "decisions",
        (
            "Version Numbering: Decision: Use PEP 440 pre-release suffixes (`1.0.0a5`) — "
            "rationale: Prevents accidental installation of unstable versions; Signals the "
            "development phase to users"
        ),
    )
    assert not any(t.startswith("Version Numbering: Prevents") for _, t in found)
    assert len(found) == 2  # the migration path stands alone


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("Decision: Moved the cache to Redis.\nWhy: restarts must keep sessions.\n", "why"),
        ("- Decisão: usar Redis para o cache\n- Motivo: reinícios mantêm as sessões\n", "motivo"),
        (
            "- Entscheidung: Redis als Cache\n- Begründung: Neustarts behalten Sitzungen\n",
            "begründung",
        ),
    ],
)
def test_a_reason_given_on_its_label_line_joins_the_statement_before_it(text, reason):
    found = report(text)
    assert len(found) == 1 and f" — {reason}: " in found[0][1]


def test_a_reasons_label_with_nothing_to_follow_or_nothing_under_it_changes_nothing():
    assert report("- **Rationale:**\n  - Keeps restarts cheap because sessions survive\n") == (
        report("- **Why:**\n  - Keeps restarts cheap because sessions survive\n")
    )
    alone = "- Decided to move the cache to Redis because restarts keep sessions.\n- Why:\n"
    assert next(t for _, t in report(alone)) == (
        "Decided to move the cache to Redis because restarts keep sessions."
    )


def test_a_list_of_changes_that_gives_no_reason_is_a_change_log_bounded_to_its_first_entries():
    items = [
        f"- Added the `{name}` step to `.github/workflows/lint.yml` for the coverage table"
        for name in ("permissions", "summary", "comment", "upload", "badge", "cache", "matrix")
    ]
    text = "## Implementation\n\n" + "\n".join(items) + "\n"
    found = report(text)
    assert len(found) == 2  # what the work was; the diff and the commits hold the rest
    assert "`permissions`" in found[0][1] and "`summary`" in found[0][1]
    reasoned = "## Implementation\n\n" + "\n".join(
        f"- Moved the `{name}` check into `ci.yml` because the hook was too slow"
        for name in ("lint", "test", "type", "format", "build")
    )
    assert len(report(reasoned)) == 5  # a change with its reason is a decision of its own


@pytest.mark.parametrize(
    "label", ["Solution Implemented", "Fix applied", "Solução implementada", "Workaround chosen"]
)
def test_the_solution_a_session_note_says_it_implemented_files_its_items_as_decisions(label):
    text = (
        "### Phase 2: Event watching bug fix\n"
        "- **Root Cause:** `eth_newFilter` is blocked by the public endpoint\n"
        f"- **{label}:**\n"
        "  - Dual-strategy event watching with automatic fallback\n"
    )
    assert any(
        c == "decisions" and t.endswith(": Dual-strategy event watching with automatic fallback")
        for c, t in report(text)
    )


def test_a_choice_the_agents_thinking_states_is_kept_a_plan_or_a_passing_change_is_not():
    capture = Capture()
    thought = (
        "For testing, I'll use SSH signing with a throwaway key since it's simpler in CI "
        "than GPG. Now I need to read `signing.go` to see the callers. The config was updated "
        "in the last step."
    )
    found = [(c.category, c.text) for c in capture.mine(Message("thinking", thought), thought)]
    choice = "For testing, I'll use SSH signing with a throwaway key since it's simpler in CI "
    assert found == [("decisions", choice + "than GPG.")]


def test_an_issues_lines_under_a_heading_are_its_items_though_they_lost_their_markers():
    issue = (
        "Improve the Windows test flakiness, on a best effort basis.\n\n"
        "Findings\n"
        "The failed cleanup left the demo extension installed in shared user configuration.\n"
        "Later tests then received an unexpected warning from that extension and hung.\n\n"
        "Expected behavior\n"
        "Extension cleanup should tolerate transient Windows file locks without sleeps.\n"
        "Functional tests that modify extensions should use isolated state for later tests.\n"
    )
    found = [c.text for c in patterns.extract(issue, report=True, person=True)]
    for line in issue.splitlines()[3:5] + issue.splitlines()[7:9]:
        assert any(line.rstrip(".") in t for t in found), line
    wrapped = (  # a hard-wrapped paragraph's lines are one statement: only its opening is filed
        "Findings\n"
        "The failed cleanup left the demo extension installed in the\n"
        "shared user configuration. The tests later hung on its warning because\n"
        "they ran against the same user folder.\n"
    )
    assert all(u.own_line is False for u in patterns.prose_units(wrapped))


def test_a_choice_the_agent_states_on_the_way_is_kept_with_its_reason_only():
    def on_the_way(said: str) -> list[tuple[str, str]]:
        steps = [
            Message("user", "Format the changed files."),
            Message("assistant", said),
            Message("assistant", "Formatted `record.go` with golines; the build passes again."),
        ]
        return [(c.category, c.text) for c in session(Capture(), steps) if c.text in said]

    said = "These are pre-existing lines over the limit. Reverting them to keep the diff surgical."
    assert on_the_way(said) == [("decisions", "Reverting them to keep the diff surgical.")]
    assert on_the_way("Revert those again before the commit lands on the branch.") == []


@pytest.mark.parametrize(
    ("introduction", "items"),
    [
        (
            "These loud color pairs (green on red, blue on green) are jarring and should either",
            ["Be defined properly with no background", "Be removed or commented out"],
        ),
        (
            "Diese grellen Kombinationen (grün auf rot) sind visuell störend und sollten entweder",
            ["Korrekt definiert werden (ohne Hintergrund)", "Entfernt oder auskommentiert werden"],
        ),
    ],
)
def test_a_list_that_finishes_the_line_before_it_is_kept_with_that_line(introduction, items):
    text = "## Problems\n\n" + introduction + ":\n" + "".join(f"  - {item}\n" for item in items)
    found = [t for _, t in report(text)]
    assert found == [f"{introduction}: {items[0]}; {items[1]}"]


def test_the_handoffs_what_is_what_a_report_lists_under_what_the_work_made():
    summary = SessionSummary()
    summary.take(
        Message(
            "assistant",
            "I have completed building the entire career operating system.\n\n"
            "### Core Components Created:\n"
            "- **Django REST Backend**: JWT authentication and a resume parser.\n"
            "- **Chrome Extension**: scrapes jobs and maps forms for autofill.\n\n"
            "### Files Modified:\n- `app.py`\n",
        ),
        [],
    )
    assert summary.what == (
        "Django REST Backend: JWT authentication and a resume parser; Chrome Extension: scrapes "
        "jobs and maps forms for autofill"
    )


@pytest.mark.parametrize(
    "heading", ["### Quick Context Recovery", "## TL;DR", "**Key takeaways:**"]
)
def test_the_handoffs_what_is_what_session_notes_give_as_their_quick_context(heading):
    summary = SessionSummary()
    notes = (
        "## Phase 3: Version management\n\n- Created the v0.2.2 tag to preserve the old SDK.\n\n"
        f"{heading}\n- Event watching now falls back to log polling on public RPCs\n"
        "- Query tests are scaffolded but empty\n"
    )
    summary.take(Message("assistant", notes), [])
    assert summary.what == (
        "Event watching now falls back to log polling on public RPCs; Query tests are "
        "scaffolded but empty"
    )


def test_a_problem_and_the_root_cause_a_label_right_after_it_gives_are_one_lesson():
    text = (
        "### Phase 2: Event watching bug fix\n"
        "- **Issue:** Tests failing on the public testnet with 403 Forbidden errors\n"
        "- **Root Cause:** `eth_newFilter` is blocked by the public RPC endpoint\n"
    )
    assert [c for c, _ in report(text)] == ["lessons"]
    assert report(text)[0][1].endswith(
        "Issue: Tests failing on the public testnet with 403 Forbidden errors — root cause: "
        "`eth_newFilter` is blocked by the public RPC endpoint"
    )


def test_reasons_join_only_a_labelled_statement_or_an_item_of_the_same_list():
    said = (
        "I updated the handler and all 40 tests pass now.\n\n"
        "Root cause: the cache key ignored the locale, so French pages were served in English.\n"
    )
    found = [t for _, t in report(said)]
    assert not any(" — root cause: " in t for t in found)
    assert any(t.startswith("Root cause: the cache key ignored the locale") for t in found)
    rationale = "- **Rationale:** Restarts keep sessions. Pools stay warm.\n"
    joined = report("- **Decision:** Moved the cache to Redis\n" + rationale)
    assert joined == [
        (
            "decisions",
            "Decision: Moved the cache to Redis — rationale: Restarts keep sessions. Pools stay warm.",
        )
    ]


def test_an_option_holds_only_its_own_list_and_a_conclusion_ends_an_options_section():
    decisions = (
        "## Decisions\n"
        "- Decided to use Redis because it restarts fast.\n"
        "- Option B: keep memcached\n"
        "  - Decided to keep the old client because it is tested\n"
        "- Decided to raise the pool to 50 because load doubled.\n"
    )
    found = [t for _, t in report(decisions)]
    assert any("raise the pool to 50" in t for t in found)
    assert not any("old client" in t for t in found)
    paragraph = "Option B: keep both caches.\n\nWe decided to use Redis because restarts keep it.\n"
    assert [t for _, t in report(paragraph)] == [
        "We decided to use Redis because restarts keep it."
    ]
    concluded = (
        "### Option B\nWe would keep both caches.\n\n"
        "**Recommendation:** we decided to use Redis because restarts keep sessions.\n"
    )
    assert any("we decided to use Redis" in t for _, t in report(concluded))


@pytest.mark.parametrize(
    "rule",
    [
        "Never use `{{ secrets.token }}` in PR workflows from forks because it leaks the token.",
        "Always use `[x for x in items if x]` instead of `filter(None, items)` in this codebase.",
    ],
)
def test_code_that_looks_like_a_blank_does_not_make_a_rule_a_form(rule):
    capture = Capture()
    assert [c.text for c in capture.mine(Message("user", rule), rule)] == [rule]


def test_the_whats_list_is_an_items_own_sub_items_never_its_siblings_nor_a_table():
    summary = SessionSummary()
    summary.take(
        Message(
            "assistant",
            "- Updated the retry logic in `client.go`:\n"
            "- Added tests for the retry path in `client_test.go`\n"
            "- Removed the old sleep from the loop\n",
        ),
        [],
    )
    assert "Updated the retry logic in `client.go`: Added" not in summary.what
    table = SessionSummary()
    table.take(
        Message(
            "assistant",
            "I fixed the race by waiting for the session in `start.ts`:\n\n"
            "| step | before |\n|---|---|\n| clone | first |\n",
        ),
        [],
    )
    assert "clone" not in table.what


def test_lines_of_statements_still_answer_what_went_wrong():
    answer = (
        "The CI image still ships Node 16 for the build step.\n"
        "The lockfile was written by npm 9 which needs Node 18.\n"
    )
    found = patterns.extract(answer, default=("lessons", "lesson"))
    assert [c.category for c in found][:1] == ["lessons"]


def test_a_summary_label_over_a_list_is_no_what_by_itself():
    summary = SessionSummary()
    summary.take(
        Message(
            "assistant",
            "**Summary:**\n- `main` has 6 timeouts\n- your branch has 14\n\n"
            "Created `bunfig.toml` with a 15-second default test timeout.",
        ),
        [],
    )
    assert summary.what != "**"
    assert "timeout" in summary.what
    summary = SessionSummary()
    summary.take(Message("assistant", "**Summary:** the tests time out on `main` too."), [])
    assert summary.what == "the tests time out on `main` too."
    summary = SessionSummary()
    summary.take(Message("assistant", "Summary: *all tests pass now* after the fix."), [])
    assert summary.what == "*all tests pass now* after the fix."


def test_a_long_statement_keeps_the_sentence_its_signal_is_in():
    paragraph = (
        "Bug 2 — frontend pnpm setup. `frontend/package.json` does have `packageManager: "
        "pnpm@9.15.4`, but the `pnpm/action-setup@v4` step runs at the repository root and "
        "reads the root `package.json`, which names no package manager at all, so it errors "
        "with 'No pnpm version is specified' before any dependency is installed on the runner."
    )
    [(category, text)] = report(paragraph)
    assert category == "lessons"
    assert "so it errors" in text


def test_what_a_statement_stresses_stays_as_written_and_a_bold_label_is_read_as_a_label():
    found = report(
        "**Root cause:** the tests hit the **5000ms timeout** due to resource constraints on "
        "the CI runners."
    )
    assert found == [
        (
            "lessons",
            (
                "Root cause: the tests hit the **5000ms timeout** due to resource constraints on "
                "the CI runners."
            ),
        )
    ]


@pytest.mark.parametrize(
    ("said", "category"),
    [
        (
            "The login loop was fixed by clearing the stale session cookie before the redirect.",
            "decisions",
        ),
        (
            "The fix was to load the existing settings first, then merge in the new values.",
            "decisions",
        ),
        (
            "O bug foi corrigido ao mover a validação para antes do envio do formulário.",
            "decisions",
        ),
        ("Der Absturz wurde behoben, indem der Cache vor dem Start geleert wird.", "decisions"),
        ("我们通过在启动前清空本地缓存修复了这个崩溃问题。", "decisions"),
        ("設定ファイルを先に読み込むことで修正しました。", "decisions"),
        ("テストボットは同意ボタンを押さないので、ヒットがゼロになります。", "lessons"),
        # what would happen otherwise
        (
            (
                "Manual `Publish` needs a separate ref input, otherwise dispatching it on an old tag"
                " would use the old workflow file."
            ),
            "lessons",
        ),
        (
            "Der Cache muss vor dem Start geleert werden, sonst lädt der Server alte Daten.",
            "lessons",
        ),
    ],
)
def test_a_fix_said_by_what_it_did_and_a_cause_are_read_in_every_language(said, category):
    found = prose(said) or [
        (c.category, c.text) for c in patterns.extract(said, signals=frozenset({"cause"}))
    ]
    assert [c for c, _ in found] == [category]


def test_a_way_the_agent_takes_over_another_on_the_way_is_a_decision_whatever_the_verb():
    said = (
        "I'll bump line-length to 120 to match the codebase style rather than reformat all tests."
    )
    found = session(Capture(), [Message("assistant", said), Message("assistant", "Running it.")])
    assert [(c.category, c.text) for c in found] == [("decisions", said)]
    plan = "I'll bump line-length to 120 and run the linter again."  # a plan, no way declined
    found = session(Capture(), [Message("assistant", plan), Message("assistant", "Running it.")])
    assert found == []


def test_the_rules_read_through_bold_and_a_stressed_opening_stays_as_written():
    found = report(
        "Fixed:\n\n"
        "- **Precomputed the two empty packs** (`push.go`): the bytes depend only on the hash.\n\n"
        "Follow-ups:\n\n"
        "- **Bug 1** still needs a reproduction on a real Matter setup.\n"
    )
    assert (
        "decisions",
        "**Precomputed the two empty packs** (`push.go`): the bytes depend only on the hash.",
    ) in [(c, t.removeprefix("Fixed: ")) for c, t in found]
    assert any(
        t.endswith("**Bug 1** still needs a reproduction on a real Matter setup.") for _, t in found
    )


def test_a_source_a_report_cites_by_its_link_is_not_memory():
    found = report(
        "**Recommendation**\n\n"
        "- Use `checkpoint-pi` as the base today.\n\n"
        "Sources:  \n"
        "- Claude Code rewind docs  \n"
        "  https://docs.anthropic.com/en/docs/claude-code/interactive-mode#rewind  \n"
        "- Pi extensions + list  \n"
        "  https://github.com/nicobailon/pi-rewind-hook\n"
    )
    texts = [t for _, t in found]
    assert not any("rewind docs" in t or "Pi extensions" in t for t in texts)
    assert any("checkpoint-pi" in t for t in texts)
    # A link said with what it is stays: "Blog URL: …" names the project's own place.
    assert report("Deployed.\n\n- Blog URL: https://example.github.io/blog/\n") == [
        ("facts", "Blog URL: https://example.github.io/blog/")
    ]


def test_a_conclusion_drawn_with_so_or_but_is_kept_by_what_it_states():
    found = report(
        "So the guard is largely redundant, because `async_setup` already catches the failure "
        "one layer up.\n\n"
        "So I will run the tests again.\n"
    )
    assert found == [
        (
            "lessons",
            (
                "The guard is largely redundant, because `async_setup` already catches the "
                "failure one layer up."
            ),
        )
    ]


@pytest.mark.parametrize(
    ("item", "cited"),
    [
        ("Claude Code rewind docs https://docs.anthropic.com/en/docs/claude-code", True),
        ("Pi extensions + list https://github.com/nicobailon/pi-rewind-hook", True),
        ("`origin` → `https://github.com/example/radio-recognition.git`", False),
        ("Blog URL: https://example.github.io/blog/", False),
        ("The deploy now runs from https://ci.example.com/job/7 on every push to main", False),
        ("Upstream bug https://example.org/issues/3 breaks the arm64 build", False),
        ("Still blocked by https://example.org/issues/3", False),
    ],
)
def test_a_source_cited_by_its_link_is_told_from_a_link_the_project_names(item, cited):
    assert patterns.is_reference(item) is cited


def test_what_a_report_says_was_found_out_is_a_lesson_and_what_it_verified_is_not():
    found = report(
        "Session summary:\n\n"
        "- Discovered that many pending features were actually already implemented in `src/`\n"
        "- Verified that the integration suite runs against the local server\n"
    )
    assert (
        "lessons",
        "Many pending features were actually already implemented in `src/`",
    ) in found
    assert not any(c == "lessons" and "integration suite" in t for c, t in found)


def test_a_change_said_in_chinese_with_ba_or_jiang_is_a_decision():
    assert report(
        "已经把 `configs/fastmldnn/paper` 加到 `pyrightconfig.json` 的 `exclude` 里了。"
    ) == [
        (
            "decisions",
            "已经把 `configs/fastmldnn/paper` 加到 `pyrightconfig.json` 的 `exclude` 里了。",
        )
    ]


def test_what_the_rules_find_past_bold_is_cut_from_the_text_as_written():
    c = patterns.compiled()
    said = "The **deployment** object has no **result** inline at all, so I'm pulling its statuses"
    assert patterns.meaning(said, c).text == (
        "The **deployment** object has no **result** inline at all."
    )
    asked = (
        "Fix the **login** bug in **auth.py**, then open a PR and follow our tpr template please."
    )
    assert [f.text for f in patterns.from_person(asked)] == ["Follow our tpr template please."]
    assert report("I found that `build(**opts)` drops the keyword arguments of every caller.") == [
        ("lessons", "`build(**opts)` drops the keyword arguments of every caller.")
    ]


def test_a_commit_a_report_names_with_its_subject_is_a_decision_and_a_list_of_them_one_entry():
    assert report(
        "Pushed.\n\nCommit: `462a28b` — `gitproto: send empty pack on pack-less ref creates`\n"
    ) == [("decisions", "Commit: `462a28b` — `gitproto: send empty pack on pack-less ref creates`")]
    found = report(
        "Three commits on `main`:\n\n"
        "- `ec4b1d8` — chore: bump version to 0.3.0 for the release\n"
        "- `3d72efa` — feat: add policy rules and an on-chain audit trail\n"
        "- `9efe77f` — feat: add the how-to-use skill\n"
    )
    assert [c for c, _ in found] == ["decisions"]
    assert "`3d72efa` — feat: add policy rules" in found[0][1]


def test_the_handoff_says_a_commit_amended_once_and_asks_in_the_persons_first_sentence():
    summary = SessionSummary()
    summary.take(
        Message(
            "user",
            "research why the deploy has been failing. with the log below\n"
            "t/app:build: · staleTimes",
        ),
        [],
    )
    summary.take(
        Message(
            "assistant",
            commits=(
                "19d6a54 fix(deps): declare zod peer via packageExtensions",
                "28fca20 fix(deps): declare zod peer via packageExtensions",
            ),
        ),
        [],
    )
    assert summary.what == "fix(deps): declare zod peer via packageExtensions"
    assert summary.asked == "research why the deploy has been failing."


def test_a_prompt_that_opens_in_the_middle_of_a_paste_says_no_ask_rather_than_its_fragment():
    summary = SessionSummary()
    summary.take(
        Message(
            "user",
            "ION_ON_CHAIN env var)\n- Installed the skills for development-time expertise\n"
            "- Policy rules implemented as Rust trait impls\n\nContinue please\n",
        ),
        [],
    )
    assert summary.asked == ""
    summary = SessionSummary()
    summary.take(Message("user", "hey :) can you fix the login loop in `auth.py`?"), [])
    assert summary.asked == "hey :) can you fix the login loop in `auth.py`?"


def test_a_word_in_code_is_a_name_and_signals_no_meaning():
    found = patterns.extract(
        "The `consent.js` script is loaded with `defer` by the base template of the site.",
        report=True,
    )
    assert not [c for c in found if "defer" in c.why]
    named = patterns.extract(
        "`build.rs` now removed from the crate, with its bindings.", report=True
    )
    assert [c.why for c in named] == ["change signal '`build.rs` now'"]  # quoted as written
    kept = patterns.extract("We deferred the `consent.js` change to the next release.", report=True)
    assert [(c.category, c.why) for c in kept] == [("decisions", "choice signal 'deferred'")]


def test_the_items_nested_under_a_next_step_are_said_with_it():
    text = (
        "## Next Steps\n\n"
        "1. [ ] Implement `get_frontier_nodes()` (2-3 hours)\n"
        "   - Compute down-closure of mastered nodes\n"
        "   - Location: `state/session_planner.py:211-235`. Then add a migration.\n"
        "2. **GitHub Actions CI** (30 min)\n"
        "   - Automated testing on push\n"
        "3. Refactor the transcript reader\n"
    )
    tasks = [stored for category, stored in report(text) if category == "tasks"]
    assert tasks == [
        (
            "Implement `get_frontier_nodes()` (2-3 hours): Compute down-closure of mastered "
            "nodes; Location: `state/session_planner.py:211-235`; Then add a migration"
        ),
        "**GitHub Actions CI** (30 min): Automated testing on push",
        "Refactor the transcript reader",
    ]
    steps = (
        "## Next Steps\n\n- Refactor the reader\n  - Add a regression test\n  - Update the README\n"
    )
    assert [stored for _, stored in report(steps)] == [
        "Refactor the reader: Add a regression test; Update the README"
    ]


@pytest.mark.parametrize(
    ("said", "why"),
    [
        (
            "我们希望这个框架尽量只依赖 mmengine，对其它框架的依赖尽量最低。",
            "preference cue '我们希望'",
        ),
        (
            "整个项目是基于 mmengine 进行开发的，用于频谱信号识别。",
            "convention cue '整个项目是基于'",
        ),
        ("这个项目使用 pnpm 管理依赖。", "convention cue '这个项目使用'"),
        (
            "Wir bevorzugen kleine Commits mit einer Änderung pro Commit.",
            "preference cue 'Wir bevorzugen'",
        ),
        (
            "Dieses Projekt verwendet pnpm für alle Pakete im Monorepo.",
            "convention cue 'Dieses Projekt verwendet'",
        ),
        (
            "このプロジェクトでは pnpm を使用しています。",
            "convention cue 'このプロジェクトでは pnpm を使用'",
        ),
    ],
)
def test_other_languages_read_we_and_this_project_as_english_does(said, why):
    assert [(c.category, c.why) for c in patterns.from_person(said)] == [("facts", why)]


def test_the_opening_bold_of_a_summary_item_goes_as_a_pair_in_the_what():
    text = (
        "Summary of changes:\n\n"
        "1. **Updated `future_development.md`** with:\n"
        "   - the color naming plan\n"
        "2. **Created two tasks in task-master** (dev tag):\n"
        "   - Task 1\n"
    )
    assert what_of(text) == (
        "Updated `future_development.md`; Created two tasks in task-master (dev tag)"
    )


@pytest.mark.parametrize(
    "said",
    [
        "Wir wollen jetzt die Tests ausführen und dann pushen.",
        "我们想要先跑一下测试，然后再提交。",
        "日本プロジェクトではpnpmを使用しています。",  # 本 within a word is not "this"
    ],
)
def test_the_work_at_hand_is_no_preference_and_a_word_within_another_no_cue(said):
    assert list(patterns.from_person(said)) == []


@pytest.mark.parametrize(
    "line",
    [
        "Fix options (in order of preference):",
        "Fix options (in order of preference)\n",  # a title line, then its list
        "Opções de correção:",
        "Mögliche Alternativen:",
    ],
)
def test_the_list_a_line_of_options_introduces_decides_nothing(line):
    text = (
        f"{line}\n"
        "- **pnpm `packageExtensions`** in `pnpm-workspace.yaml` to patch the phantom dep\n"
        "- **Upgrade `@hookform/resolvers`** to a newer release that declares zod as a peer\n"
    )
    assert report(text) == []


def test_the_what_of_a_summary_in_sections_is_their_titles():
    text = (
        "# Session Summary\n\n"
        "## Work Completed in This Session\n\n"
        "### 1. Documentation Accuracy Update\n"
        "- Updated CLAUDE.md to reflect actual implementation status\n"
        "- Fixed discrepancies between documentation and code\n"
        "- Discovered that many features were already implemented\n\n"
        "### 2. Buffer Pooling Implementation\n"
        "**Files modified:**\n"
        "- `internal/terminal/ansi.go`: buffer pool Get/Put\n\n"
        "### 3. Testing\n"
        "- All 18 integration tests pass\n\n"
        "### 4. Raw ANSI Passthrough Mode\n"
        "- Preserves original ANSI sequences exactly as received\n\n"
        "## Next Steps\n"
        "- Profile the renderer\n"
    )
    assert what_of(text) == (
        "Documentation Accuracy Update; Buffer Pooling Implementation; Raw ANSI Passthrough Mode"
    )


def test_a_forms_none_says_nothing_and_what_none_remains_leaves_nothing_open():
    for said in ("- [ ] None for this integration.", "None.", "N/A", "Keine."):
        assert patterns.says_nothing(said)
    assert not patterns.says_nothing("None of the tests touch the network, so they run offline.")
    text = "## Follow-ups\n- None for this integration.\n  - Separate Amos auth follow-up beads remain open.\n"
    assert report(text) == [("tasks", "Separate Amos auth follow-up beads remain open.")]
    assert report("古いIDや誤ったIDは残っていません。") == []
    assert [c for c, _ in report("古いIDがまだ残っています。")] == ["tasks"]


def test_a_statement_that_opens_with_a_bold_question_asks_the_person():
    text = (
        "Before we go on:\n\n"
        "- **PyPI project created?** If not, I can walk through trusted publishing setup.\n"
        "- The release workflow publishes on a version tag.\n"
    )
    assert not [stored for _, stored in report(text) if "PyPI project" in stored]
    assert report("**PyPI project created?** If not, I can walk you through it.") == []


def test_neither_leans_on_what_was_said_before():
    assert (
        report("Neither is a GHCR or image problem — the image is fine and the token works.") == []
    )


def test_the_investigation_retold_is_narration():
    assert report("I've now traced both code paths Kyle cites.") == []
    assert report("I checked the deploy logs of the last three runs.") == []
    kept = report("The deploy logs show the migrate job ran `uvicorn`, so the gate failed closed.")
    assert kept and kept[0][0] == "lessons"


def test_words_waiting_on_the_reader_are_no_memory():
    assert report("A couple of natural follow-ups when you're ready.") == []


def test_a_bold_question_the_report_answers_is_kept():
    found = report(
        "**Why did the job run `uvicorn`?** Because `--image` replaced the template without its "
        "configured command, so the image's default CMD ran."
    )
    assert [category for category, _ in found] == ["lessons"]


def test_a_summarys_opening_sentence_is_the_what_and_a_summary_within_a_summary_counts():
    opening = (
        "## Session Summary (UPDATED - End of Day)\n\n"
        "This session implemented **prerequisite-aware frontier filtering** and completed all "
        "pre-merge validation checks.\n\n"
        "- Branch ready to merge\n"
    )
    assert what_of(opening) == (
        "This session implemented **prerequisite-aware frontier filtering** and completed all "
        "pre-merge validation checks."
    )
    nested = (
        "# Session Summary - January 11, 2025\n"
        "## TerminalBridge - *Headless yet Powerful*\n\n"
        "## Work Completed in This Session\n\n"
        "### 1. Buffer Pooling Implementation\n- Escape buffers use sync.Pool\n\n"
        "### 2. Raw ANSI Passthrough Mode\n- Preserves original ANSI sequences\n"
    )
    assert what_of(nested) == "Buffer Pooling Implementation; Raw ANSI Passthrough Mode"


def test_a_document_read_in_parts_keeps_the_summary_of_its_first_part_as_the_what():
    first = (
        "# Session Handoff Notes\n\n## Session Summary\n\n"
        "This session implemented prerequisite-aware frontier filtering and completed the "
        "pre-merge checks.\n"
    )
    last = "## Next Steps\n\n2. Weight normalization (bounds and normalization in adjust_focus)\n"
    summary = SessionSummary()
    for part in (first, last):
        summary.take(Message("assistant", part), [])
    assert summary.what.startswith("This session implemented prerequisite-aware frontier")
    asked = SessionSummary()  # a session with a person in it: its last report says the work
    asked.take(Message("user", "continue"), [])
    for part in (first, "Renamed `adjust_focus` to `rebalance` across the planner."):
        asked.take(Message("assistant", part), [])
    assert asked.what == "Renamed `adjust_focus` to `rebalance` across the planner."


@pytest.mark.parametrize(
    "said",
    [
        "The tree-sitter warning is from the existing dependency build, not the new code.",
        "One pre-existing `TestPushToOrigin` network failure reproduces on `main` too.",
        "The timeout failures in the plugin tests are not caused by this PR's rename.",
        "O teste de integração já falhava antes, não foi causado pela minha alteração.",
        "Der Fehler im Linter ist vorbestehend und tritt auch auf main auf.",
        "这个测试失败与本次修改无关，之前就存在。",
        "このテストの失敗は今回の変更とは無関係で、既存の問題です。",
    ],
)
def test_a_failure_that_was_there_before_the_work_is_a_lesson_in_any_language(said):
    """Said on the way or in the report, a failure the agent found older than its work tells
    the next session not to chase it."""
    steps = [Message("assistant", said), Message("assistant", "Running the suite again.")]
    assert [(c.category, c.text) for c in session(Capture(), steps)] == [("lessons", said)]
    assert report(said) == [("lessons", said)]


@pytest.mark.parametrize(
    "said",
    [
        "Unrelated files remain uncommitted in the working tree.",  # state, nothing went wrong
        "The pre-existing helpers in `utils.py` were moved into `paths.py`.",  # a change made
        "I read the config from the existing setup before writing the new one.",
    ],
)
def test_older_work_that_says_nothing_went_wrong_is_no_known_failure(said):
    steps = [Message("assistant", said), Message("assistant", "Running the suite again.")]
    assert not [c for c in session(Capture(), steps) if c.category == "lessons"]


def test_a_failure_word_of_one_language_is_not_read_into_another():
    """Portuguese "erro" is no stem of English "error handling"; English "errored" fails."""
    assert report("Falhou com um erro de permissão: faltando o diretório `dist/` do build.") != []
    said = "The nightly sync errored on the second page of `entries`, so the import stopped there."
    assert [c for c, _ in report(said)] == ["lessons"]


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        # a failure's name alone: a symptom, or what error handling handles
        ("Now the system will log the exact error message when the insertion fails.", False),
        ("Error fetching URL from the upstream mirror, status code: 404", False),
        (
            "Commits: Dotfiles `8e04a6a47`, `e8db61d91` — Scintillate executor regression/fix.",
            False,
        ),
        ("O build do projeto falhou com um erro na etapa de empacotamento.", False),
        # how it went wrong, why, or what will fail
        ("The insert fails because the `voucher` key is missing from the payload.", True),
        ("The migrate job never runs `alembic upgrade`, so the schema stays behind.", True),
        ("Turbopack does not hoist `zod`, so production builds fail on `zod/v4/core`.", True),
        ("`release.yml` validates the date and will fail on an undated heading.", True),
    ],
)
def test_a_failure_is_a_lesson_when_it_says_how_or_why_it_went_wrong(said, kept):
    assert ("lessons" in [c for c, _ in report(said)]) is kept


def test_what_to_do_in_the_other_case_is_no_cause():
    said = "It writes a complete AGENTS.md when the file is missing, otherwise appending the notes."
    assert list(patterns.extract(said, signals=frozenset({"cause"}))) == []


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        # a determiner: the noun after it names the thing
        (
            (
                "This repo nests everything under `plugins/entire/skills/`, which is why Cursor "
                "installs break."
            ),
            True,
        ),
        (
            "That directory stays behind as untracked, so the release step right after it fails.",
            True,
        ),
        # a pronoun: half a thought said before it
        (
            "This fixes the subsumed-branch path, so the request body now ends with a trailer.",
            False,
        ),
        ("That perfectly explains the contradiction, so the guard was never the cause.", False),
        # a doubt is no finding
        ("The mismatch could potentially cause problems when comparing `cwd` and `fname`.", False),
    ],
)
def test_this_and_that_open_a_statement_when_a_noun_follows_them(said, kept):
    steps = [Message("assistant", said), Message("assistant", "Running the tests.")]
    assert bool(session(Capture(), steps)) is kept


def test_a_link_into_the_checkout_keeps_the_files_name_and_not_the_agents_path():
    said = (
        "I patched:\n\n"
        "- [release.yml](/home/me/projects/agentv/.github/workflows/release.yml:40): emits the "
        "release tag and calls Publish directly as a reusable workflow.\n"
        "- [task.md](file:///C:/Users/me/.gemini/antigravity/brain/3f00/task.md) (All items done)\n"
    )
    texts = [text for _, text in report(said)]
    # "I patched:" files what it lists as the changes made
    assert any(
        category == "decisions" and "[release.yml]: emits the release tag and calls Publish" in t
        for category, t in report(said)
    )
    assert not any("/home/me" in t or "task.md" in t for t in texts)


@pytest.mark.parametrize(
    ("said", "rule"),
    [
        (
            "PR opened. Per your standing rule (review before merge), running the review now.",
            "Per your standing rule (review before merge)",
        ),
        (
            "GREEN. Now the whole suite (per project rule: run `pytest tests/` before pushing):",
            "Per project rule: run `pytest tests/` before pushing",
        ),
    ],
)
def test_a_rule_the_agent_says_it_follows_is_the_projects_convention(said, rule):
    steps = [Message("assistant", said), Message("assistant", "Running it.")]
    assert ("facts", rule) in [(c.category, c.text) for c in session(Capture(), steps)]


def test_what_follows_i_see_the_issue_is_the_lesson_without_the_agent_coming_to_it():
    said = (
        "I see the issue - task-master v0.37.1 expects tags at the root level, not inside `tags`."
    )
    steps = [Message("assistant", said), Message("assistant", "Fixing the structure.")]
    assert [(c.category, c.text) for c in session(Capture(), steps)] == [
        ("lessons", "Task-master v0.37.1 expects tags at the root level, not inside `tags`.")
    ]
    assert report("I see the issue!") == []


def test_an_items_heading_is_said_without_its_stress():
    said = (
        "## 2. **ESM Compliance Confirmation**\n\n- `package.json` is configured for ESM modules\n"
    )
    assert report(said) == [
        ("facts", "2. ESM Compliance Confirmation: `package.json` is configured for ESM modules")
    ]


def test_what_a_shell_command_printed_is_no_words_of_the_person():
    lines = [
        json.dumps({"type": "user", "sessionId": "s", "message": {"role": "user", "content": c}})
        + "\n"
        for c in (
            "<bash-input>./run_test.sh tests/pr.test.ts</bash-input>",
            (
                "<bash-stdout>Because it had too many issues, it kept debugging its feelings!"
                "</bash-stdout><bash-stderr></bash-stderr>"
            ),
            "never push to main without a review",
        )
    ]
    people = [m.text for m in formats.read("claude-jsonl", lines) if m.role == "user"]
    assert people == ["never push to main without a review"]


def test_the_issue_said_of_its_state_is_no_cause_found():
    """ "The issue is X" names a cause; "the issue is still occurring" says how things stand."""
    assert (
        patterns.classify("The issue is still occurring after the restart of the server.") is None
    )
    found = patterns.classify("The issue is that the cache key ignores the locale of the page.")
    assert found is not None and found.category == "lessons"


@pytest.mark.parametrize(
    "said",
    [
        # "to be safe, I'll check widely that no old ID remains": what the agent will look at
        "念のため、古いIDが残っていないか、また設定漏れがないか広く確認します。",
        "次に、ビルドの設定ファイルを順番に調べてみます。",
    ],
)
def test_japanese_words_of_what_the_agent_will_look_at_are_narration(said):
    assert report(said) == []


def test_to_be_safe_in_japanese_gives_no_cause():
    """念のため ("to be safe") holds ため, which elsewhere says "because"."""
    said = "念のため、デプロイ後にステージングのログをもう一度見ておくと確実です。"
    assert [c for c, _ in report(said)] != ["lessons"]


@pytest.mark.parametrize(
    ("said", "rule"),
    [
        ("原因を調査してください", False),  # asks for work, as "please look into it"
        ("テストには pytest を使ってください", True),  # how the person wants it done
        ("本番の設定ファイルは編集しないでください", True),
    ],
)
def test_a_japanese_request_for_work_is_no_rule_of_the_person(said, rule):
    assert bool(from_person(said)) is rule


def test_a_list_of_the_files_the_work_touched_is_no_fact():
    text = "Files modified: Main.kt, MainView.kt, README.md\n\nThe H2 console now runs standalone."
    assert "Files modified" not in " ".join(body for _, body in report(text))


@pytest.mark.parametrize(
    "said",
    [
        "Now the synchronization process will handle pagination properly.",
        "The action should now work properly when the demo setup is enabled.",
        "The code in `sync.py` is now much cleaner and consistent.",
    ],
)
def test_what_a_change_is_promised_to_do_is_no_memory(said):
    assert report(said) == []


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        # what follows from a statement, after a pause: a cause, whatever word comes next
        (
            (
                "`DataUpdateCoordinator` records any non-raising return as a success — so "
                "returning `{}` flips `last_update_success` to `True`."
            ),
            True,
        ),
        ("The label sits in the final `runtime` stage, so freshly built images carry it.", True),
        # the agent acting on it, or "so far"
        ("The lockfile in `frontend/` is stale, so I'm regenerating it now.", False),
        ("The migration in `db/` is applied, so far without any trouble at all.", False),
    ],
)
def test_what_follows_after_a_pause_and_so_is_a_cause(said, kept):
    assert ([c for c, _ in report(said)] == ["lessons"]) is kept


def test_a_statement_after_but_stands_alone_when_it_says_why():
    said = (
        "The guard keeps entities available before the first poll. But HA's "
        "`DataUpdateCoordinator` records any return as a success — so returning `{}` flips "
        "`last_update_success` to `True`."
    )
    stands = (
        "HA's `DataUpdateCoordinator` records any return as a success — so returning `{}` "
        "flips `last_update_success` to `True`."
    )
    assert report(said)[-1] == ("lessons", stands)


def test_a_sentence_under_a_heading_that_leans_on_the_one_before_goes_with_it():
    text = (
        "## Known issues\n\n"
        "The schemas for `dist/validators/` are not exported.\n"
        "These are critical for validation and agent-first design.\n\n"
        "(Makes it show under the repo and inherit its visibility.)\n"
    )
    kept = [body for _, body in report(text)]
    assert kept == [
        (
            "The schemas for `dist/validators/` are not exported. These are critical for "
            "validation and agent-first design."
        )
    ]


def test_the_agent_naming_its_own_tooling_decides_nothing():
    said = "I'm using the GitHub CI-fix skill because this is a failed Actions publish run."
    assert prose(said) == []
    assert [
        c for c, _ in prose("I'll use SSH signing instead of GPG because CI has no agent.")
    ] == ["decisions"]


def test_if_the_issue_is_asks_and_does_not_say_what_the_issue_was():
    assert report("Key improvements: helps identify if the issue is with the data itself.") == []


def test_an_interjection_on_the_way_is_chatter_and_what_follows_it_may_be_found():
    said = (
        "Good, `setupAgentHooks` already loads settings first and only modifies specific "
        "fields, so it's fine."
    )
    steps = [Message("assistant", said), Message("assistant", "Running the tests.")]
    assert [c.text for c in session(Capture(), steps)] == [said.removeprefix("Good, ")]


@pytest.mark.parametrize("name", ["Expected behavior", "Target behavior:", "Desired outcome"])
def test_what_a_spec_says_the_work_must_do_is_a_convention_under_any_name_of_it(name):
    item = "Settled workers collapse out of the strip after the next user turn."
    found = report(f"{name}\n\n- {item}\n")
    assert [c for c, _ in found] == ["facts"] and found[0][1].endswith(item)


def test_what_follows_done_is_what_was_done():
    said = (
        "Done — added `CLICKHOUSE_DB: ${{ secrets.CLICKHOUSE_DB }}` to the Test step's env block."
    )
    assert report(said) == [("decisions", "A" + said.removeprefix("Done — a"))]


def test_a_persons_short_rule_in_their_document_is_kept():
    spec = (
        "7. A interface precisa ser clara para usuário não técnico.\n"
        "Não quero notebook.\n"
        "8. Criar README.md com:\n"
        "* visão executiva\n"
    )
    found = [(c.category, c.text) for c in patterns.extract(spec, report=True, person=True)]
    assert ("facts", "Não quero notebook.") in found
    # not any short line of it: a rule says what is not to be done, or must be
    assert all(text != "Criar README.md com:" for _, text in found)


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("**The orchestrator fix is the real fix** — it handles auth before the agent runs.", True),
        (
            "Orientation: **The bad `/fleet` UI is quarantined.** It exists only on one branch.",
            True,
        ),
        # a stressed label, question, step, pronoun or a feature said with no subject
        ("**Are there JSON parsing issues?** The sync log shows seven entries in the year.", False),
        ("**Run these tests serially** with the `--runInBand` flag of the runner.", False),
        (
            "Bug 1 — the actual blocker: `async_is_device_available()` — **this is what fails**",
            False,
        ),
        ("The sync **uses existing HTTP Client infrastructure** for all of its requests.", False),
    ],
)
def test_a_statement_a_report_sets_in_bold_is_what_it_marks_as_mattering(said, kept):
    assert bool(report(said)) is kept


@pytest.mark.parametrize(
    ("said", "lesson"),
    [
        ("問題はIDではなく「同意モードの構成」です。", True),  # the problem is the consent setup
        ("本番のビルドには問題はありません。", False),  # no problem in the build
    ],
)
def test_the_problem_is_said_in_japanese_is_a_lesson(said, lesson):
    assert ([c for c, _ in prose(said)] == ["lessons"]) is lesson


@pytest.mark.parametrize(
    "said",
    [
        "Läuft. War nur ein Timing-Problem beim Deploy-Check.",
        "Das eigentliche Problem war der falsche Pfad in `deploy.sh`.",
        "It was just a timing issue in the deploy check of the NAS.",
    ],
)
def test_what_kind_of_trouble_it_was_is_a_lesson(said):
    assert "lessons" in [c for c, _ in report(said)]


def test_a_german_verb_negated_says_how_something_went_wrong_as_an_english_one_does():
    said = "Kein QSL Container oder Verzeichnis auf `host-node-01`, das Deployment läuft dort nie."
    assert [c for c, _ in report(said)] == ["lessons"]


def test_a_portuguese_failure_says_how_as_an_english_one_does():
    said = "O arquivo `config.yaml` não existe no container, e o deploy falha na inicialização."
    assert [c for c, _ in report(said)] == ["lessons"]


@pytest.mark.parametrize(
    "said",
    [
        "If `'voucherNumber'` doesn't work, we can easily try `'voucher'` by changing one line.",
        "Wenn der Import nicht klappt, können wir den alten Parser wieder einschalten.",
    ],
)
def test_a_failure_supposed_is_no_finding(said):
    assert "lessons" not in [c for c, _ in report(said)]


def test_preferences_the_noun_choose_nothing():
    assert report("Learner approves the plan, and the session starts with preferences.") == []


def test_a_heading_whose_label_names_a_decision_states_it_however_short():
    text = "### Version strategy: `bump-my-version`\n\nManual bump command, then push a tag.\n"
    assert report(text) == [("decisions", "Version strategy: `bump-my-version`")]
    assert report("### Phase 4: PyPI Release Management\n\nThe upload runs on tags.\n") == []


def test_what_a_report_files_as_nice_to_have_is_no_task():
    text = (
        "## Next steps\n\n"
        "### HIGH (bugs)\n"
        "- Enable and fix `noice.lua`: every group has nonsense colours\n\n"
        "### LOW (nice-to-have)\n"
        "- A light theme variant of the palette\n"
        "- Extras for other tools such as Kitty and Alacritty\n\n"
        "### Low priority\n"
        "- **Rate limiting** - prevent input flooding of the bridge\n"
    )
    tasks = [body for category, body in report(text) if category == "tasks"]
    assert len(tasks) == 1 and "noice.lua" in tasks[0]


def test_a_line_that_only_announces_a_list_leaves_the_what_to_its_items():
    text = (
        "I've made the following changes:\n\n"
        "1. **Removed AutoIncrement** from the `Entry No.` field of the landing table\n"
        "2. **Added a `GetNextEntryNo()` procedure** that finds the next free entry number\n"
    )
    assert what_of(text).startswith("**Removed AutoIncrement** from the `Entry No.` field")


# --- what a review of this round found the new rules caught too much of ----------------------


@pytest.mark.parametrize(
    "said",
    [
        "If the cache directory is missing, the loader silently returns an empty config.",
        "In case of a timeout the worker never retries the job, it just drops it.",
        "Falls back to the default locale when the `Accept-Language` header is missing.",
        "The `--force` flag never reaches `deploy.sh` because the wrapper drops it.",
    ],
)
def test_how_code_behaves_in_a_case_is_still_a_lesson(said):
    assert "lessons" in [c for c, _ in report(said)]


@pytest.mark.parametrize(
    ("said", "opens"),
    [
        ("Fixed-size buffers are used for the ring because the allocator is slow.", "Fixed-size"),
        ("Done-ness is tracked in the `status` column, because the UI reads it.", "Done-ness"),
    ],
)
def test_a_word_joined_by_a_hyphen_is_no_interjection(said, opens):
    assert all(body.startswith(opens) for _, body in report(said))


def test_a_label_of_what_was_fixed_is_no_interjection():
    said = "Fixed: the cache race, by locking the writer in `store.py` before flushing."
    assert report(said) == [("decisions", said)]


def test_low_priority_hides_the_tasks_under_it_and_not_its_lessons():
    text = (
        "## Known issues (low priority)\n\n"
        "- The importer crashes on empty CSV files because `csv.reader` yields no header.\n\n"
        "## Optional dependencies\n\n"
        "- `pyarrow` is needed for Parquet export because pandas delegates to it.\n"
    )
    assert len(report(text)) == 2


@pytest.mark.parametrize(
    "said",
    [
        "Old sessions will now be pruned after 30 days by the nightly job.",
        "Now it will refuse to start if `DATABASE_URL` points at production.",
        "Now the build will fail when `uv.lock` is out of date with `pyproject.toml`.",
    ],
)
def test_what_a_change_will_do_is_no_verdict_on_it(said):
    assert report(said) != []


def test_the_first_sentence_under_a_heading_leans_on_nothing():
    text = "## Known issues\n\nIt takes about forty seconds to rebuild the `api` Docker image.\n"
    assert report(text) != []


@pytest.mark.parametrize(
    "said",
    [
        "問題は特にありませんでした。",
        "問題は見つかりませんでした。",
        "この問題は既に修正済みです。",
        "Das Problem ist jetzt behoben, der Test läuft wieder.",
        "Das ist nur ein Problem, wenn man den Server unter Windows startet.",
        "Es gibt keine Fehler mehr im Build, seit `vite` aktualisiert wurde.",
        "The token was rotated yesterday, so we re-ran the deploy of the `api` service.",
        "That is only a GitHub issue link for the tracker of the upstream project.",
    ],
)
def test_no_problem_found_or_fixed_is_no_lesson(said):
    assert "lessons" not in [c for c, _ in report(said)]


def test_what_a_tool_does_in_japanese_is_no_narration():
    said = "- CIのlintジョブは`pyproject.toml`の設定で型エラーを検索します。"
    assert report(said) != []


@pytest.mark.parametrize(
    "said",
    [
        "After the rerun, **all 42 tests pass and the build is green on every runner** again.",
        "Thanks for waiting. **I have pushed everything and opened the PR for it** just now.",
    ],
)
def test_a_status_or_the_agents_step_in_bold_is_not_stressed_as_a_finding(said):
    assert report(said) == []


def test_an_unclosed_bold_marker_costs_no_scan_per_marker():
    said = "- The value of " + "**x y " * 10_000 + "is kept."
    assert patterns.stressed_statement(said) == ""  # returns; bounded to the rule window


@pytest.mark.parametrize(
    "heading",
    ["### Root cause: still unknown", "### Solution: see below", "### Testing strategy: TBD"],
)
def test_a_labels_placeholder_in_a_heading_states_nothing(heading):
    assert all(heading.lstrip("# ") not in body for _, body in report(f"{heading}\n\nSoon.\n"))


def test_a_persons_short_line_is_a_rule_only_when_it_opens_on_the_rule():
    spec = "Context for the work:\n\n" + "It must be flaky.\n\nI never got it working.\n" * 80
    assert [t for _, t in patterns.extract(spec, report=True, person=True)] == []


def test_a_line_announcing_a_list_keeps_where_it_says_the_changes_were():
    text = "Made the following changes to the CLI:\n\n- Added `--json` to `status`\n"
    assert "CLI" in what_of(text)


def test_a_change_the_report_says_it_will_make_and_then_makes_is_its_what():
    # Chat exports show the edit right after the sentence that announces it; the announcement,
    # without its "I'll", says what the turn did. One that nothing follows is only a plan.
    made = (
        "I'll fix the order of operations in the `startSession.ts` file:\n\n"
        "```diff\n+  await sessionDB.addSession(sessionRecord);\n```\n"
    )
    assert what_of(made) == "Fix the order of operations in the `startSession.ts` file"
    zh = "明白了，我来修改 `package.json` 中的 `publish:ci` 脚本，让它自动判断版本号： 完成！"
    assert what_of(zh) == "修改 `package.json` 中的 `publish:ci` 脚本，让它自动判断版本号"
    ja = "GA4 の同意モードで page_view が送られない設定を修正します。\n\n```js\ngtag()\n```\n"
    assert what_of(ja) == "GA4 の同意モードで page_view が送られない設定を修正。"
    # Not a plan: nothing follows it, or what follows is not its edit, or it is offered.
    planned = "I'll update the README to mention the new `--tag` flag later this week."
    assert not what_of(planned).startswith("Update the README")
    not_yet = (
        "I'll fix the order of operations in `x.ts` after the tests finish. Nothing is fixed yet."
    )
    assert not what_of(not_yet).startswith("Fix the order")
    output = (
        "Let me fix the failing assertion in `tests/test_sync.py` next. The error is:\n\n"
        "```\nAssertionError: 3 != 4\n```\n"
    )
    assert not what_of(output).startswith("Fix the failing")
    offered = (
        "I'll refactor the config loader to read environment variables first:\n\n"
        "```python\ndef load(): ...\n```\n\nWant me to apply this?"
    )
    assert not what_of(offered).startswith("Refactor the config loader")
    wrapped = (
        "The nightly job fails with this output:\n\n```\nTypeError\n```\n\n"
        "Next I'll fix the order of operations in\n`startSession.ts` once you confirm it.\n"
    )
    assert not what_of(wrapped).startswith("Fix the order")
    # A short line that ends in a colon over its diff, as Chinese and Japanese put it.
    assert what_of("我来修改 `x.ts` 中的运算顺序和返回值：\n\n```ts\nx\n```\n") == (
        "修改 `x.ts` 中的运算顺序和返回值"
    )


def test_a_commit_subject_says_the_work_before_a_change_announced_on_the_way():
    summary = SessionSummary()
    summary.take(
        Message(
            "assistant",
            "I'll modify the `scrape_with_playwright` method in `aider/scrape.py` to fix this:\n\n"
            "```python\nresponse = None\n```\n",
            commits=("b6994aa fix: Handle UnboundLocalError in scrape_with_playwright",),
        ),
        [],
    )
    assert summary.what == "fix: Handle UnboundLocalError in scrape_with_playwright"


def test_list_items_that_are_sentences_are_joined_as_written():
    text = (
        "Conventions:\n\n"
        "- Tests live beside the module they test.\n"
        "- Each package exports one public entry point.\n"
    )
    assert report(text) == [
        (
            "facts",
            (
                "Conventions: Tests live beside the module they test. "
                "Each package exports one public entry point."
            ),
        )
    ]
    fragments = "Conventions:\n\n- tests beside the module they test;\n- one entry point\n"
    assert report(fragments) == [
        ("facts", "Conventions: tests beside the module they test; one entry point"),
    ]


@pytest.mark.parametrize(
    "introduction", ["Improved the Windows test reliability:", "Summary of the change:"]
)
def test_a_line_that_says_what_was_made_better_files_the_changes_under_it(introduction):
    text = (
        f"{introduction}\n\n"
        "- Extension removal now retries transient Windows file locks.\n"
        "- Force-install tests use isolated `AZD_CONFIG_DIR` state.\n"
    )
    ((category, stored),) = report(text)
    assert category == "decisions"
    assert stored.endswith(
        "Extension removal now retries transient Windows file locks. "
        "Force-install tests use isolated `AZD_CONFIG_DIR` state."
    )
    # Problems it fixed are no changes: what each says files it.
    fixed = "Fixed these issues:\n\n- The export never closes its file handle, so it leaks.\n"
    assert report(fixed)[0][0] == "lessons"


def test_what_a_report_puts_forward_as_possible_or_guesses_is_not_stored():
    possible = (
        "Possible fixes:\n\n"
        "- **Pre-build the CLI** before running tests so the spawned processes start fast.\n"
        "- Raise the default test timeout to 15 seconds for the CLI package.\n"
    )
    assert report(possible) == []
    guessed = (
        "The failing insert is likely related to either:\n\n"
        "- Primary key conflicts in the `Entry No.` auto-numbering.\n"
        "- Field validation errors on the posting date.\n"
    )
    assert report(guessed) == []
    # A guess within a line that states something ("…, which were probably meant as
    # markers:") does not make its list guesses: the line and its items are read.
    stated = (
        "### Known issues\n\n"
        "Many theme files define highlights with clashing colours in `treesitter.lua`, "
        "which were probably meant as markers:\n\n"
        "- `@define` uses green on red in the tree-sitter groups.\n"
    )
    assert [text for _, text in report(stated)] == [
        (
            "Many theme files define highlights with clashing colours in `treesitter.lua`, "
            "which were probably meant as markers"
        ),
        "Known issues: `@define` uses green on red in the tree-sitter groups.",
    ]


def test_thinking_keeps_a_cause_its_rules_name_not_a_bare_so():
    capture = Capture()
    reasoning = (
        "Dev is in a solid state with the train landed and CI green, so opening the PR from "
        "this known good point is safe. The stale `bin/so` is being picked up by `so install` "
        "because its directory is in the PATH."
    )
    kept = [c.text for c in capture.mine(Message("thinking", reasoning), reasoning)]
    assert kept == [
        (
            "The stale `bin/so` is being picked up by `so install` because its directory is in "
            "the PATH."
        )
    ]


def test_a_mark_that_stands_alone_as_a_symbol_ends_no_sentence():
    sentences = patterns.sentences(
        "In `.gitignore` the ! means negation, so every JSON file but the keypair is ignored.",
        patterns.compiled(),
    )
    assert len(sentences) == 1


@pytest.mark.parametrize(
    "label",
    ["Files modified:", "**Key Files Modified:**", "### Files Changed", "Arquivos Modificados:"],
)
def test_a_list_of_the_files_the_work_touched_is_not_memory(label):
    text = (
        f"{label}\n\n"
        "- `state/session_planner.py` - Negative weight clamping in the planner\n"
        "- `state/coach.py` - Preview and adjust methods, session logging\n\n"
        "### Root cause\n\n"
        "- The planner clamps a strand's weight to zero, so no exercise is ever picked.\n"
    )
    assert report(text) == [
        (
            "lessons",
            (
                "Root cause: The planner clamps a strand's weight to zero, so no exercise is "
                "ever picked."
            ),
        )
    ]


@pytest.mark.parametrize(
    "label",
    ["**All blocking issues resolved**:", "All review items addressed:", "## All tasks completed"],
)
def test_a_list_under_a_line_that_says_it_is_all_done_is_the_handoffs(label):
    text = (
        f"{label}\n\n"
        "- Repo hygiene: switched the fixtures to SQLite instead of tracked DB dumps\n"
        "- Data provenance (complete citations)\n"
        "- Session logging now writes to the database because files got lost\n"
    )
    assert report(text) == []
    # A note after the list is read as any line is.
    note = "\n\nNote: the `sync` job must run before `deploy` because it writes the manifest.\n"
    assert [category for category, _ in report(text + note)] == ["lessons"]


def test_a_list_of_what_is_not_done_yet_is_read():
    text = (
        "All blocking issues resolved, but these remain open:\n\n"
        "- TODO: migrate the remaining 12 endpoints to the new client.\n"
    )
    assert [category for category, _ in report(text)] == ["tasks"]


def test_a_check_label_in_any_language_states_no_memory():
    assert report("Validação visual: o gráfico agora usa o `plotly` com os dados de 2024.") == []
    assert report("Manual test: the login form now rejects an empty `password` field.") == []


def test_a_session_that_changed_nothing_is_summed_up_by_what_its_report_concludes():
    research = (
        "## Ranked comparison\n\n"
        "Ranking criterion: how complete and reliable the rewind experience is for real "
        "coding sessions.\n\n"
        "| Rank | Tool | Notes |\n|---|---|---|\n| 1 | checkpoint-pi | per-turn snapshots |\n\n"
        "**Recommendation**\n\n"
        "Use **`checkpoint-pi`** as the base today.\n"
    )
    assert what_of(research) == "Recommendation: Use **`checkpoint-pi`** as the base today."
    labelled = "The audit covered all 40 modules.\n\nVerdict: keep the ESM build and drop CommonJS."
    assert what_of(labelled) == "Verdict: keep the ESM build and drop CommonJS."
    # An account of work done says it first.
    done = "Fixed the export so every format is written.\n\nRecommendation: release it as 1.2."
    assert what_of(done) == "Fixed the export so every format is written."


def test_a_list_after_a_guess_is_guesses_only_where_the_list_finishes_the_line():
    changed = (
        "I made three changes that should fix the flaky upload test:\n\n"
        "- Uploads now retry three times because S3 returns transient 503s.\n"
    )
    assert [category for category, _ in report(changed)] == ["lessons"]
    found = (
        "Die Ursache war wahrscheinlich doppelt, beide sind behoben:\n\n"
        "- Der Parser verwirft die letzte Zeile, weil der Puffer nicht geleert wird.\n"
    )
    assert report(found) != []


def test_a_short_final_verdict_is_the_what_after_an_earlier_report():
    summary = SessionSummary()
    summary.take(Message("assistant", "The audit covered all forty modules in the repository."), [])
    summary.take(Message("user", "and?"), [])
    summary.take(Message("assistant", "Verdict: keep the ESM build."), [])
    assert summary.what == "Verdict: keep the ESM build."


def test_sentences_of_a_chinese_list_are_joined_without_a_space():
    text = "约定：\n\n- 测试文件放在被测模块旁边。\n- 每个包只导出一个公共入口。\n"
    assert report(text) == [("facts", "约定: 测试文件放在被测模块旁边。每个包只导出一个公共入口。")]


@pytest.mark.parametrize(
    "line",
    [
        "There are **two root causes** producing this bug:",
        "I found 3 problems in the export path:",
        "Es gibt zwei Ursachen für den Absturz:",
        "有两个原因：",
    ],
)
def test_a_line_that_only_counts_what_follows_states_nothing(line):
    text = f"{line}\n\n### Root cause 1\n\nThe onboarding never asks for the start date, so it is today.\n"
    assert all(not stored.startswith(line.rstrip(":：")) for _, stored in report(text))


def test_a_line_whose_verb_wants_its_list_states_nothing_alone():
    text = (
        'The "Test Period Configuration" action now shows:\n\n- Years that will be synchronized\n'
    )
    assert all("now shows" not in stored for _, stored in report(text))


def test_a_checklist_line_marked_done_is_status():
    assert report("- **CI push access** → ✅ done (this screen).") == []
    assert report("- Migration: done") == []


def test_a_line_that_only_announces_its_list_states_nothing():
    text = (
        "Done. Summary of what was accomplished:\n\n"
        "- Created two tasks in task-master under the `dev` tag\n"
    )
    assert all("Summary of what" not in stored for _, stored in report(text))


def test_a_listed_step_the_agent_took_is_no_fact():
    # The steps of the work, as the agent tells them (a real Claude Code transcript's report in
    # `../shared/formats/claude-code` lists them so); the commit subject says the change. ("Read
    # `x`" is left alone: it reads as well as the instruction "Read `docs/x.md` before…".)
    found = report(
        "**What was done:**\n"
        "1. Updated `README.md` test counts\n"
        "2. Installed the `pre-commit` hooks into `.git/hooks`\n"
        "3. Wrote `docs/setup.md` from the old wiki page\n"
    )
    assert [text for category, text in found if category == "facts"] == []


def test_a_listed_fact_opening_on_an_adjective_is_still_a_fact():
    found = report(
        "Notes:\n"
        "- Shared config lives in `packages/config/`, one folder per tool\n"
        "- Cached builds sit under `.cache/turbo`, one folder per branch\n"
    )
    assert [category for category, _ in found] == ["facts", "facts"]


CYSPBOT_CAUSE = (  # a real report (`codex-cyspbot`): the cause is in the sentence that goes on
    "The failed entries were not caused by application code regressions. They were repeat "
    "invocations of the same job, and it never got past setup because `pnpm` was missing from "
    "the runner PATH."
)
# A real report (`antigravity-ai-master`): the cause opens the next paragraph.
EDITOR_WARNINGS = (
    (
        'As mensagens de "Cannot find module `streamlit`" no seu editor são apenas **avisos de '
        "linter (IDE)**."
    ),
    (
        "Eles ocorrem porque o ambiente do seu editor pode não estar apontando para o mesmo "
        "Python onde instalamos as dependências."
    ),
)
SRI = (
    "Googleの `gtag.js` は内容が動的に更新されるため `integrity` を付けると読み込みが壊れます。"
    "ここは意図的に付与しません。"
)


@pytest.mark.parametrize(
    ("text", "stored"),
    [
        (CYSPBOT_CAUSE, CYSPBOT_CAUSE),
        ("\n\n".join(EDITOR_WARNINGS), " ".join(EDITOR_WARNINGS)),
        (SRI, SRI),
    ],
)
def test_the_sentence_that_goes_on_from_a_statement_is_stored_with_it(text, stored):
    assert [body for _, body in report(text)] == [stored]


def test_a_sentence_goes_on_only_from_the_sentence_right_before_it():
    said = report(
        "- The cache in `loader.py` was never invalidated because the key ignored the locale.\n\n"
        "It took a while to find.\n\n"
        "The session token lives in `auth/state.ts`. But it is read only once per request.\n"
        "The queue in `worker.py` retries failed jobs because the broker drops them. It is "
        "exposed in two places:\n"
    )
    texts = [body for _, body in said]
    assert texts[0] == (
        "The cache in `loader.py` was never invalidated because the key ignored the locale."
    )
    assert not any("It took a while" in body for body in texts)  # not a list item's
    assert not any("two places" in body for body in texts)  # it introduces what follows


def test_a_persons_sentence_is_not_filed_by_the_one_that_goes_on_from_it():
    # The sentence after lends its words, never its meaning: "must" in it sets no rule.
    spec = "Context for the work:\n\n" + "I never got it working.\nIt must be flaky.\n\n" * 80
    assert list(patterns.extract(spec, report=True, person=True)) == []


@pytest.mark.parametrize(
    ("text", "stored"),
    [
        (
            # The second says something of its own: it is read on its own.
            (
                "The deploy script lives in `ops/deploy.sh`. It failed because the token had "
                "expired, so always refresh it first."
            ),
            [
                ("facts", "The deploy script lives in `ops/deploy.sh`."),
                ("lessons", "It failed because the token had expired, so always refresh it first."),
            ],
        ),
        (
            # The writer's story is no part of what was found.
            "We use pnpm workspaces in `packages/`. It took me a while to find.",
            [("facts", "We use pnpm workspaces in `packages/`.")],
        ),
        (
            # "Aber" carries a thought on, as "But" does.
            "Wir haben uns für Postgres entschieden. Aber der Cache bleibt in Redis.",
            [("decisions", "Wir haben uns für Postgres entschieden.")],
        ),
    ],
)
def test_a_sentence_goes_on_from_the_one_before_only_when_it_adds_words_to_it(text, stored):
    assert report(text) == stored


def test_a_listed_instruction_is_no_step_taken():
    found = report(
        "Notes:\n"
        "- Embed the build hash in `version.txt` at release time\n"
        "- Read `docs/ARCHITECTURE.md` before touching `core/`\n"
    )
    assert [category for category, _ in found] == ["facts"]
    assert "Read `docs/ARCHITECTURE.md`" in found[0][1]


def test_a_listed_fact_opening_on_an_adjective_before_a_name_in_code_is_still_a_fact():
    found = report("Notes:\n- Nested `<form>` elements break hydration in React 19\n")
    assert found == [("facts", "Nested `<form>` elements break hydration in React 19")]
