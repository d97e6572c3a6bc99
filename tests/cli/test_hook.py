"""`mem hook`: each agent event answered as the agent expects, on real transcripts, fail-open."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from tests.cli.helpers import added_id, ok

FORMATS = Path(__file__).resolve().parents[2].parent / "shared" / "formats" / "claude-code"
TRANSCRIPT = FORMATS / "coverage-test-fix.transcript.jsonl"
LABEL = "Reference data from mem"


def needs_formats() -> None:
    if not TRANSCRIPT.is_file():
        pytest.skip("../shared/formats is not beside the repository")


@pytest.fixture
def hook(mem, vault):
    """Send one hook event's JSON to `mem hook AGENT --agent dev`; return (stdout, result)."""

    def send(event: str, agent: str = "claude-code", **fields):
        payload = {"session_id": "s-1", "hook_event_name": event, "cwd": str(vault.parent)}
        payload.update(fields)
        result = mem("hook", agent, "--agent", "dev", input=json.dumps(payload))
        assert result.exit_code == 0, result.stderr
        return result.stdout, result

    return send


def context_of(stdout: str, event: str) -> str:
    reply = json.loads(stdout)
    assert reply["hookSpecificOutput"]["hookEventName"] == event
    return reply["hookSpecificOutput"]["additionalContext"]


def seed(mem) -> dict[str, str]:
    ids = {}
    for key, text, category, extra in (
        ("db", "We chose PostgreSQL over MySQL for its JSONB columns.", "decisions", ()),
        (
            "settings",
            "settings.py is generated from settings.toml by `make settings`; edits by hand are lost.",
            "lessons",
            (),
        ),
        (
            "push",
            "git push --force to main broke the release branch twice; push a branch instead.",
            "lessons",
            ("--kind", "warning"),
        ),
    ):
        ids[key] = added_id(ok(mem("add", text, "-c", category, "-a", "dev", *extra)))
    return ids


def test_session_start_gives_the_recall_labelled_as_reference_data(mem, hook):
    ids = seed(mem)
    stdout, _ = hook("SessionStart", source="startup")
    context = context_of(stdout, "SessionStart")
    assert context.startswith(LABEL) and "not instructions" in context.splitlines()[0]
    assert "<mem-recall" in context and context.rstrip().endswith("</mem-recall>")
    assert "PostgreSQL" in context and ids["db"]


def test_session_start_stays_within_claude_codes_cap(mem, hook, vault):
    (vault / "mem.toml").write_text("[recall]\nbudget = 50000\n")
    for n in range(60):
        text = f"Service {n} keeps its queue in Redis stream orders-{n}; " + "detail " * 40
        ok(mem("add", text, "-c", "facts", "-a", "dev"))
    stdout, _ = hook("SessionStart", source="startup")
    assert len(context_of(stdout, "SessionStart")) <= 10_000


def test_nothing_remembered_means_no_output(hook):
    stdout, _ = hook("SessionStart", source="startup")
    assert stdout == ""


def test_only_the_first_prompt_gets_memory_and_only_what_is_relevant(mem, hook):
    seed(mem)
    stdout, _ = hook("UserPromptSubmit", prompt="Why PostgreSQL rather than MySQL here?")
    context = context_of(stdout, "UserPromptSubmit")
    assert "PostgreSQL" in context and "settings.py" not in context
    again, _ = hook("UserPromptSubmit", prompt="And the PostgreSQL JSONB columns?")
    assert again == ""
    unrelated, _ = hook("UserPromptSubmit", prompt="Add a dark mode toggle", session_id="s-2")
    assert unrelated == ""


def test_the_first_prompt_does_not_repeat_what_the_session_start_showed(mem, hook):
    seed(mem)
    start, _ = hook("SessionStart", source="startup")
    assert "PostgreSQL" in context_of(start, "SessionStart")
    stdout, _ = hook("UserPromptSubmit", prompt="Why PostgreSQL rather than MySQL here?")
    assert stdout == ""


def test_an_edit_gets_the_lessons_that_name_its_file(mem, hook, vault):
    ids = seed(mem)
    path = str(vault.parent / "app" / "settings.py")
    stdout, _ = hook(
        "PreToolUse", tool_name="Edit", tool_input={"file_path": path, "old_string": "a"}
    )
    context = context_of(stdout, "PreToolUse")
    assert "`settings.py`" in context and ids["settings"] in context
    assert ids["push"] not in context and "<mem-recall" in context


def test_a_command_gets_the_warnings_that_name_it(mem, hook):
    ids = seed(mem)
    stdout, _ = hook(
        "PreToolUse", tool_name="Bash", tool_input={"command": "cd app && git push --force"}
    )
    context = context_of(stdout, "PreToolUse")
    assert ids["push"] in context and "`git push`" in context and "`cd" not in context


@pytest.mark.parametrize(
    "tool_input",
    [
        {"command": "git status"},
        {"file_path": "/somewhere/README.md", "content": "x"},
        {"command": "cat settings.toml.bak"},
    ],
)
def test_a_tool_call_nothing_names_gets_nothing(mem, hook, tool_input):
    seed(mem)
    stdout, _ = hook("PreToolUse", tool_name="Bash", tool_input=tool_input)
    assert stdout == ""


def test_another_agents_private_lesson_never_reaches_a_tool_call(mem, hook):
    ok(mem("add", "Never touch billing.py on Fridays.", "-c", "lessons", "-a", "ops"))
    ok(
        mem(
            "add",
            "billing.py holds the tax tables.",
            "-c",
            "lessons",
            "-a",
            "ops",
            "--scope",
            "private",
        )
    )
    stdout, _ = hook("PreToolUse", tool_name="Write", tool_input={"file_path": "/p/billing.py"})
    context = context_of(stdout, "PreToolUse")
    assert "Fridays" in context and "tax tables" not in context


def test_a_lesson_edited_by_hand_reaches_the_next_tool_call_and_leaves_with_it(mem, hook, vault):
    ids = seed(mem)
    edit = {"file_path": "/p/billing.py", "content": "x"}
    assert hook("PreToolUse", tool_name="Write", tool_input=edit)[0] == ""
    lessons = vault / "dev" / "lessons.md"
    before = lessons.read_text(encoding="utf-8")
    entry = (
        "<!-- id:by-hand kind:lesson -->\n## 2026-11-20T10:00Z\n\nbilling.py rounds half-even.\n"
    )
    hand = f"{before.rstrip()}\n\n{entry}\n---\n"
    lessons.write_text(hand, encoding="utf-8")
    context = context_of(hook("PreToolUse", tool_name="Write", tool_input=edit)[0], "PreToolUse")
    assert "by-hand" in context and "half-even" in context and ids["settings"] not in context
    lessons.write_text(before, encoding="utf-8")
    assert hook("PreToolUse", tool_name="Write", tool_input=edit)[0] == ""


def test_a_damaged_notes_file_still_answers_and_the_next_write_mends_it(mem, hook, vault):
    ids = seed(mem)
    edit = {"file_path": "/p/settings.py", "old_string": "a"}
    assert ids["settings"] in context_of(
        hook("PreToolUse", tool_name="Edit", tool_input=edit)[0], "PreToolUse"
    )
    notes = vault / ".mem" / "index" / "notes.jsonl"
    assert ids["settings"] in notes.read_text(encoding="utf-8")
    notes.write_bytes(b"\x00garbage")
    context = context_of(hook("PreToolUse", tool_name="Edit", tool_input=edit)[0], "PreToolUse")
    assert ids["settings"] in context
    late = added_id(ok(mem("add", "settings.py needs a restart.", "-c", "lessons", "-a", "dev")))
    context = context_of(hook("PreToolUse", tool_name="Edit", tool_input=edit)[0], "PreToolUse")
    assert late in context
    mended = notes.read_text(encoding="utf-8")
    assert ids["settings"] in mended and late in mended and ids["db"] not in mended


def test_stop_commits_the_transcript_once_however_often_it_is_sent(mem, hook):
    needs_formats()
    for _ in range(2):
        stdout, _ = hook("Stop", transcript_path=str(TRANSCRIPT), stop_hook_active=False)
        assert stdout == ""
    handoffs = json.loads(ok(mem("list", "-c", "handoffs", "-a", "dev", "--json")).stdout)
    assert len(handoffs["entries"]) == 1
    assert "multiply_numbers" in handoffs["entries"][0]["body"]
    ledger_runs = json.loads(
        ok(mem("commit", "-a", "dev", "--json", "--file", str(TRANSCRIPT))).stdout
    )
    assert ledger_runs["added"] == [] and ledger_runs["handoff"] is None


def test_pre_compact_commits_what_compaction_is_about_to_fold_away(mem, hook):
    needs_formats()
    other = FORMATS / "hello-world-script.transcript.jsonl"
    stdout, _ = hook("PreCompact", transcript_path=str(other), trigger="auto")
    assert stdout == ""
    handoffs = json.loads(ok(mem("list", "-c", "handoffs", "-a", "dev", "--json")).stdout)
    assert len(handoffs["entries"]) == 1 and "hello.sh" in handoffs["entries"][0]["body"]
    hook("Stop", transcript_path=str(other))  # the turn after: nothing new, nothing twice
    again = json.loads(ok(mem("list", "-c", "handoffs", "-a", "dev", "--json")).stdout)
    assert again["entries"] == handoffs["entries"]


def test_a_subagents_transcript_is_committed_without_a_handoff(mem, hook):
    needs_formats()
    stdout, _ = hook(
        "SubagentStop",
        transcript_path="/nowhere/main.jsonl",
        agent_transcript_path=str(TRANSCRIPT),
    )
    assert stdout == ""
    handoffs = json.loads(ok(mem("list", "-c", "handoffs", "-a", "dev", "--json")).stdout)
    assert handoffs["entries"] == []


def test_session_end_commits_in_a_detached_process(mem, hook):
    needs_formats()
    started = time.monotonic()
    stdout, _ = hook("SessionEnd", transcript_path=str(TRANSCRIPT), reason="other")
    assert stdout == ""
    deadline = started + 30
    while time.monotonic() < deadline:
        listed = json.loads(ok(mem("list", "-c", "handoffs", "-a", "dev", "--json")).stdout)
        if listed["entries"]:
            break
        time.sleep(0.2)
    assert listed["entries"], "the detached commit never wrote the handoff"


def test_codex_stop_prints_nothing_and_gemini_always_prints_json(mem, hook):
    seed(mem)
    codex, _ = hook("Stop", agent="codex", transcript_path=None, turn_id="t1")
    assert codex == ""
    gemini_quiet, _ = hook("BeforeTool", agent="gemini", tool_name="read_file", tool_input={})
    assert json.loads(gemini_quiet) == {}
    gemini, _ = hook(
        "BeforeTool",
        agent="gemini",
        tool_name="run_shell_command",
        tool_input={"command": "git push origin main"},
    )
    assert "git push" in context_of(gemini, "BeforeTool")


def test_a_codex_stop_without_a_rollout_keeps_the_turns_last_message(mem, hook, vault):
    # `codex exec --ephemeral` writes no rollout: Codex 0.171 sends transcript_path null.
    said = "We decided to use Redis over Memcached because restarts keep sessions."
    for _ in range(2):  # the same Stop again (a hook that continued the turn): kept once
        stdout, _ = hook(
            "Stop",
            agent="codex",
            transcript_path=None,
            turn_id="t1",
            last_assistant_message=said,
            stop_hook_active=False,
        )
        assert stdout == ""
    decisions = (vault / "dev" / "decisions.md").read_text(encoding="utf-8")
    assert decisions.count(said) == 1
    handoffs = json.loads(ok(mem("list", "-c", "handoffs", "-a", "dev", "--json")).stdout)
    assert len(handoffs["entries"]) == 1 and said in handoffs["entries"][0]["body"]


@pytest.mark.parametrize(
    ("agent", "event", "records"),
    [
        # A Codex 0.171 rollout at a session's end when no prompt was sent: its first line.
        (
            "codex",
            "Stop",
            [{"type": "session_meta", "payload": {"id": "c-1", "cli_version": "0.171.0"}}],
        ),
        # Gemini CLI 0.61 fires PreCompress before the first answer: the preamble, no turn.
        (
            "gemini",
            "PreCompress",
            [
                {"sessionId": "g-1", "projectHash": "ab", "startTime": "2026-11-28T18:01:53Z"},
                {"id": "u0", "type": "user", "content": [{"text": "<session_context>\n…"}]},
            ],
        ),
    ],
)
def test_a_session_file_with_nothing_said_yet_is_no_failure(
    hook, vault, tmp_path, agent, event, records
):
    session = tmp_path / "session.jsonl"
    session.write_text("".join(json.dumps(r) + "\n" for r in records))
    hook(event, agent=agent, transcript_path=str(session))
    assert not (vault / ".mem" / "hook-errors.log").exists()
    assert not (vault / "dev" / "handoffs.md").exists() or "id:" not in (
        vault / "dev" / "handoffs.md"
    ).read_text(encoding="utf-8")


def test_gemini_after_agent_commits_its_session_file_once(mem, hook, vault, tmp_path):
    said = "We decided to keep PostgreSQL because the JSONB queries need it."
    records = [
        {"sessionId": "g-9", "projectHash": "ab", "startTime": "2026-11-20T10:00:00Z"},
        {"id": "u1", "type": "user", "content": [{"text": "Which database?"}]},
        {"id": "g1", "type": "gemini", "content": said},
    ]
    chat = tmp_path / "session-2026-11-20T10-00-g9.jsonl"
    chat.write_text("".join(json.dumps(r) + "\n" for r in records))
    for _ in range(2):
        stdout, _ = hook("AfterAgent", agent="gemini", transcript_path=str(chat))
        assert json.loads(stdout) == {}
    decisions = (vault / "dev" / "decisions.md").read_text(encoding="utf-8")
    assert decisions.count("keep PostgreSQL because the JSONB queries") == 1


def test_a_gemini_session_stores_neither_its_recall_nor_the_clis_preamble(
    mem, hook, vault, tmp_path
):
    seed(mem)
    start, _ = hook("SessionStart", agent="gemini", source="startup")
    # Another session's first prompt: this one's start already showed what it would add.
    prompt, _ = hook(
        "BeforeAgent", agent="gemini", session_id="s-2", prompt="Why is settings.py reset?"
    )
    # Gemini CLI 0.61 escapes `<` and `>` in hook context (packages/core/src/hooks/types.ts) and
    # writes it as a user turn of its own (session start) or a second part (a prompt's).
    escaped = [
        context_of(reply, event).replace("<", "&lt;").replace(">", "&gt;")
        for reply, event in ((start, "SessionStart"), (prompt, "BeforeAgent"))
    ]
    preamble = (
        "<session_context>\nThis is the Gemini CLI. We are setting up the context for our chat."
        "\nToday's date is Friday, November 20, 2026.\nMy operating system is: linux\n"
        "- **Directory Structure:**\n\n/project/\n├───settings.toml\n└───src/\n</session_context>"
    )
    answer = (
        "I made the deploy script run `make settings`, so settings.py comes from settings.toml."
    )
    records = [
        {"sessionId": "g-7", "projectHash": "ab", "startTime": "2026-11-20T10:00:00Z"},
        {"id": "u0", "type": "user", "content": [{"text": preamble}]},
        {
            "id": "h0",
            "type": "user",
            "content": [{"text": f"<hook_context>{escaped[0]}</hook_context>"}],
        },
        {
            "id": "u1",
            "type": "user",
            "content": [
                {"text": "Why is settings.py reset on deploy?"},
                {"text": f"<hook_context>{escaped[1]}</hook_context>"},
            ],
        },
        {"id": "g1", "type": "gemini", "content": answer},
    ]
    chat = tmp_path / "session-2026-11-20T10-00-g7.jsonl"
    chat.write_text("".join(json.dumps(r) + "\n" for r in records))
    hook("AfterAgent", agent="gemini", transcript_path=str(chat))
    stored = "".join(path.read_text(encoding="utf-8") for path in (vault / "dev").glob("*.md"))
    assert "**Asked:** Why is settings.py reset on deploy?" in stored
    assert "Gemini CLI" not in stored and "Reference data" not in stored
    for recalled in ("PostgreSQL over MySQL", "edits by hand are lost", "push a branch instead"):
        assert stored.count(recalled) == 1, recalled  # the entry seed() added, once


@pytest.mark.parametrize("agent", ["claude-code", "gemini", "pi"])
def test_bad_input_is_logged_and_the_hook_still_succeeds(run_mem, vault, agent):
    # As an agent runs it: from the project's folder, no --vault; the input names no folder.
    result = run_mem("hook", agent, "--agent", "dev", input="{not json", cwd=vault.parent)
    assert result.exit_code == 0 and result.stderr == ""
    assert result.stdout.strip() in ("", "{}")
    assert (result.stdout.strip() == "{}") == (agent == "gemini")
    log = (vault / ".mem" / "hook-errors.log").read_text()
    assert f"mem hook {agent}: " in log
    assert ("unknown agent 'pi'" if agent == "pi" else "JSONDecodeError") in log


def test_a_turn_end_with_no_transcript_to_commit_says_why_in_the_log(hook, vault):
    hook("Stop")
    hook("Stop", transcript_path=str(vault.parent / "gone.jsonl"))
    log = (vault / ".mem" / "hook-errors.log").read_text()
    assert "mem hook claude-code: Stop gave no transcript_path: nothing committed" in log
    assert f"Stop: no transcript at {vault.parent / 'gone.jsonl'}: nothing committed" in log


def test_an_internal_failure_is_logged_under_mem_and_the_session_goes_on(mem, vault, hook):
    (vault / "mem.toml").write_text("[recall]\nbudget = -3\n")  # every command fails on it
    stdout, result = hook("SessionStart", source="startup")
    assert stdout == "" and result.exit_code == 0
    log = (vault / ".mem" / "hook-errors.log").read_text()
    assert "mem hook claude-code" in log and "recall.budget" in log


def test_the_agent_comes_from_mem_agent_and_the_vault_from_the_sessions_folder(
    run_mem, mem, vault, tmp_path
):
    seed(mem)
    payload = {
        "session_id": "s-9",
        "hook_event_name": "UserPromptSubmit",
        "prompt": "PostgreSQL or MySQL?",
        "cwd": str(vault.parent),
    }
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    result = run_mem(
        "hook", "claude-code", input=json.dumps(payload), cwd=elsewhere, env={"MEM_AGENT": "dev"}
    )
    assert "PostgreSQL" in context_of(result.stdout, "UserPromptSubmit")
