"""Every real shape of agent output reads as messages: exported chats, terminal captures,
`codex exec` logs, agent-kept logs, subagent transcripts, compaction summaries, Codex rollouts.

Real sessions come from ../shared (skipped when it is absent); shapes with no real sample here
are small fixtures written from their documented form (../shared/INTEGRATIONS.md)."""

from __future__ import annotations

import json

import pytest

from mem.extract import formats
from mem.extract.capture import Capture

from conftest import SHARED

CAPTURE = SHARED / "bench" / "capture-dev"
CLAUDE = SHARED / "formats" / "claude-code"
needs_capture = pytest.mark.skipif(not CAPTURE.is_dir(), reason="../shared/bench is absent")
needs_claude = pytest.mark.skipif(not CLAUDE.is_dir(), reason="../shared/formats is absent")


def read_lines(lines: list[str]) -> tuple[str, list[formats.Message]]:
    fmt = formats.detect(lines[: formats.DETECT_LINES])
    return fmt, list(formats.read(fmt, lines))


def read_file(path) -> tuple[str, list[formats.Message]]:
    return read_lines(path.read_text(encoding="utf-8").splitlines(keepends=True))


def prose(messages: list[formats.Message], role: str = "assistant") -> str:
    return "\n".join(m.text for m in messages if m.role == role and m.text.strip())


@needs_capture
@pytest.mark.parametrize(
    "name", ["copilot-destyler-zh.md", "cursor-bsc-rag-pt.md", "claude-munsellspace-specstory.md"]
)
def test_an_exported_chat_reads_as_turns_without_its_tool_blocks(name):
    fmt, messages = read_file(CAPTURE / name)
    assert fmt == "markdown-chat"
    assert any(m.role == "user" for m in messages) and any(m.role == "assistant" for m in messages)
    everything = prose(messages) + prose(messages, "user")
    for chrome in ("Tool use: **", "<tool-use", "vscodeToolId", "<system-reminder>", "_**Agent"):
        assert chrome not in everything


@needs_capture
def test_an_exported_chat_keeps_the_agents_thinking_apart_and_the_files_it_edited():
    _, messages = read_file(CAPTURE / "cursor-bsc-rag-pt.md")
    recap = "Corrigimos o threshold de 60s para 200s"  # a thought's recap
    assert recap in prose(messages, "thinking") and recap not in prose(messages)
    assert "tests/integration/test_e2e.py" in [f for m in messages for f in m.files]


@needs_capture
def test_a_claude_code_terminal_capture_yields_prompts_prose_commits_and_edited_files():
    fmt, messages = read_file(CAPTURE / "claude-astroblog-terminal.txt")
    assert fmt == "claude-terminal"
    commits = [c for m in messages for c in m.commits]
    assert "4d956ca fix: update GitHub Actions workflow to use latest versions" in commits
    assert ".github/workflows/deploy.yml" in [f for m in messages for f in m.files]
    assert "I hate white pages" in prose(messages, "user")
    assistant = prose(messages)
    assert "failed due to a deprecated version" in assistant
    for noise in ("ctrl+r to expand", "Bash(", "border-bottom", "⎿"):
        assert noise not in assistant


@needs_capture
def test_a_codex_exec_log_yields_the_prompt_the_patched_files_and_the_final_answer_last():
    fmt, messages = read_file(CAPTURE / "codex-miniagi-exec.log")
    assert fmt == "codex-log"
    assert prose(messages, "user").startswith("# SLICE SPEC")
    said = [m.text for m in messages if m.role == "assistant" and m.text.strip()]
    assert said[-1].startswith("Updated failure output to label every captured line")
    assert len([text for text in said if text.startswith("Updated failure output")]) == 1
    assert any(f.endswith("scripts/gate-lib.sh") for m in messages for f in m.files)
    everything = "\n".join(m.text for m in messages)
    for noise in ("hook: PostToolUse", "reasoning effort", "npm notice", "+++ b/scripts"):
        assert noise not in everything
    assert sum(m.output_tokens for m in messages) == 37830


@needs_capture
def test_a_log_the_agent_keeps_reads_the_persons_lines_as_theirs():
    fmt, messages = read_file(CAPTURE / "gemini-lwpm-log.txt")
    assert fmt == "text"
    asked = prose(messages, "user")
    assert "Note for linting I want single quotes" in asked
    assert "USER_INPUT" not in prose(messages)
    assert "## Decision" in prose(messages)  # the label heads what the agent decided


def test_a_subagent_transcript_reads_as_a_transcript_and_sidechains_stay_out_of_a_main_one():
    def line(kind: str, text: str, sidechain: bool) -> str:
        message = {"role": kind, "content": [{"type": "text", "text": text}]}
        if kind == "assistant":
            message["id"] = text[:8]
        record = {"type": kind, "isSidechain": sidechain, "sessionId": "s1", "message": message}
        return json.dumps(record) + "\n"

    subagent = [
        line("user", "Find why the build is slow.", True),
        line("assistant", "The root cause was a cold cache on every CI run.", True),
    ]
    _, messages = read_lines(subagent)
    assert "cold cache" in prose(messages)
    main = [line("user", "Speed up CI.", False), *subagent]
    _, messages = read_lines(main)
    assert "cold cache" not in prose(messages)


SUMMARY = (
    "This session is being continued from a previous conversation.\n"
    "Summary:\n"
    "1. Primary Request and Intent:\n   Make the nightly import idempotent.\n"
    "2. Errors and fixes:\n"
    "   - The importer crashed on empty CSV files: `csv.DictReader` yields no header row.\n"
    "3. Pending Tasks:\n   - Add a regression test for empty CSV files\n"
)


def summary_transcript(*after: str) -> list[str]:
    records = [
        {"type": "system", "subtype": "compact_boundary", "sessionId": "s2"},
        {
            "type": "user",
            "isCompactSummary": True,
            "sessionId": "s2",
            "message": {"role": "user", "content": SUMMARY},
        },
    ]
    for number, text in enumerate(after):
        content = [{"type": "text", "text": text}]
        message = {"id": f"m{number}", "role": "assistant", "content": content}
        records.append({"type": "assistant", "sessionId": "s2", "message": message})
    return [json.dumps(record) + "\n" for record in records]


def mined(lines: list[str]) -> list[tuple[str, str]]:
    capture = Capture()
    found = []
    for message in read_lines(lines)[1]:
        found += capture.mine(message, message.text)
    found += capture.finish()
    return [(candidate.category, candidate.text) for candidate in found]


def test_a_compaction_summary_is_mined_section_by_section():
    _, messages = read_lines(summary_transcript())
    assert [m.role for m in messages] == ["summary"]
    found = mined(summary_transcript())
    assert (
        "lessons",
        "The importer crashed on empty CSV files: `csv.DictReader` yields no header row.",
    ) in found
    assert ("tasks", "Add a regression test for empty CSV files") in found
    assert not any("idempotent" in text for _, text in found)  # the request is no memory


def test_a_summarys_pending_tasks_go_when_the_session_went_on_to_work_on_them():
    found = mined(summary_transcript("Adding the test now.", "Added the test; it passes."))
    assert not any(category == "tasks" for category, _ in found)


def test_a_codex_rollout_reads_prompts_answers_and_patches_once():
    def line(kind: str, payload: dict) -> str:
        return json.dumps({"timestamp": "2026-03-01T10:00:00Z", "type": kind, "payload": payload})

    rollout = [
        line("session_meta", {"id": "r1", "cwd": "/w", "originator": "codex_cli_rs"}),
        line("event_msg", {"type": "user_message", "message": "# AGENTS.md instructions for /w"}),
        line("event_msg", {"type": "user_message", "message": "Fix the flaky retry test."}),
        line(
            "response_item",
            {
                "type": "message",
                "role": "assistant",
                "content": [{"type": "output_text", "text": "Fixed it."}],
            },
        ),
        line("event_msg", {"type": "agent_message", "message": "Fixed it."}),
        line(
            "event_msg",
            {
                "type": "patch_apply_end",
                "success": True,
                "changes": {"tests/test_retry.py": {"type": "update"}},
            },
        ),
        line(
            "event_msg",
            {
                "type": "exec_command_end",
                "command": ["git", "commit", "-m", "x"],
                "exit_code": 0,
                "aggregated_output": "[main 9f3e1ab] fix retry\n",
            },
        ),
    ]
    fmt, messages = read_lines([text + "\n" for text in rollout])
    assert fmt == "codex-jsonl"
    assert prose(messages, "user") == "Fix the flaky retry test."
    assert prose(messages) == "Fixed it."
    assert [f for m in messages for f in m.files] == ["tests/test_retry.py"]
    assert [c for m in messages for c in m.commits] == ["9f3e1ab fix retry"]
    assert {m.session for m in messages} == {"r1"}


@pytest.mark.parametrize(
    "text",
    [
        '{"type": "mystery", "payload": 1}\n{"type": "other"}\n',
        '_**User**_\n\n<tool-use data-tool-type="x">\nnever closed\n',
        "⏺ Bash(ls\n  ⎿ a\n⏺ \n",
        "OpenAI Codex v9\nuser\n",
        '{"type":"session_meta","payload":"not an object"}\n',
    ],
)
def test_unknown_or_broken_shapes_never_fail(text):
    _, messages = read_lines(text.splitlines(keepends=True))
    assert isinstance(messages, list)


@pytest.mark.parametrize(
    "text",
    [
        "Steps:\n- \n1. \n* \n",
        "OpenAI Codex v9\ntokens used\n,\n",
        "OpenAI Codex v9\ntokens used\n" + "9" * 5000 + "\n",
    ],
)
def test_odd_lines_never_crash_the_readers_or_the_rules(text):
    _, messages = read_lines(text.splitlines(keepends=True))
    capture = Capture()
    for message in messages:
        list(capture.mine(message, message.text))
    list(capture.finish())
