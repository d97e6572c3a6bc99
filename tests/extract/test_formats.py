"""Format readers on real transcripts (from ../shared/formats) and on small fixtures we wrote."""

from __future__ import annotations

import json

import pytest

from mem.extract import formats

from conftest import SHARED

CLAUDE = SHARED / "formats" / "claude-code"
AIDER = SHARED / "formats" / "aider"
needs_shared = pytest.mark.skipif(not CLAUDE.is_dir(), reason="../shared/formats is absent")


def read_file(path):
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    fmt = formats.detect(lines[: formats.DETECT_LINES])
    return fmt, list(formats.read(fmt, lines))


@needs_shared
def test_claude_transcript_yields_files_commits_and_tokens():
    fmt, messages = read_file(CLAUDE / "coverage-test-fix.transcript.jsonl")
    assert fmt == "claude-jsonl"
    files = [path for message in messages for path in message.files]
    commits = [commit for message in messages for commit in message.commits]
    assert "src/math_utils.py" in files and "tests/test_math_utils.py" in files
    assert commits == ["6322cf4 Add multiply_numbers function with test"]
    assert sum(message.output_tokens for message in messages) > 0
    prompts = [message.text for message in messages if message.role == "user"]
    assert prompts[0].startswith("Add a function called multiply_numbers")


@needs_shared
def test_claude_transcript_skips_hook_feedback_and_tool_output():
    _, messages = read_file(CLAUDE / "hello-world-script.transcript.jsonl")
    texts = " ".join(message.text for message in messages)
    assert "Stop hook feedback" not in texts  # an isMeta line from a hook
    assert "Hello world" not in [message.text.strip() for message in messages]  # tool output
    assert any("hello.sh" in message.files for message in messages)


@needs_shared
@pytest.mark.parametrize("name", ["monochromatic", "zen-mcp-server"])
def test_aider_history_is_detected_and_tool_output_is_not_prose(name):
    fmt, messages = read_file(AIDER / f"{name}.aider.chat.history.md")
    assert fmt == "aider"
    for message in messages:
        assert not message.text.lstrip().startswith(">")


@needs_shared
def test_aider_commits_and_edits_are_noticed():
    _, messages = read_file(AIDER / "monochromatic.aider.chat.history.md")
    commits = [commit for message in messages for commit in message.commits]
    assert "54d022e docs: Add coding conventions document" in commits
    assert any("CONVENTIONS.md" in path for message in messages for path in message.files)


def test_stream_json_reads_assistant_text_and_usage_once():
    lines = [
        json.dumps({"type": "system", "subtype": "init", "session_id": "s1", "cwd": "/w"}),
        json.dumps(
            {
                "type": "assistant",
                "message": {
                    "id": "m1",
                    "role": "assistant",
                    "content": [
                        {"type": "text", "text": "We decided to keep SQLite for the test suite."},
                        {
                            "type": "tool_use",
                            "id": "t1",
                            "name": "Edit",
                            "input": {"file_path": "/w/src/db.py"},
                        },
                    ],
                    "usage": {"input_tokens": 10, "output_tokens": 5},
                },
            }
        ),
        json.dumps(
            {
                "type": "user",
                "message": {
                    "role": "user",
                    "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "ok"}],
                },
            }
        ),
        json.dumps(
            {
                "type": "result",
                "subtype": "success",
                "result": "We decided to keep SQLite for the test suite.",
                "usage": {"input_tokens": 10, "output_tokens": 5},
            }
        ),
    ]
    assert formats.detect(lines) == "stream-json"
    messages = list(formats.read("stream-json", lines))
    assert [m.text for m in messages if m.text] == ["We decided to keep SQLite for the test suite."]
    assert [p for m in messages for p in m.files] == ["src/db.py"]
    assert sum(m.output_tokens for m in messages) == 5


def test_codex_events_give_messages_file_changes_and_commits():
    lines = [
        json.dumps({"type": "thread.started", "thread_id": "t"}),
        json.dumps({"type": "turn.started"}),
        json.dumps(
            {
                "type": "item.completed",
                "item": {
                    "id": "1",
                    "type": "command_execution",
                    "command": "git commit -m x",
                    "aggregated_output": "[main 1a2b3c4] Fix the redirect loop\n 1 file changed",
                    "exit_code": 0,
                    "status": "completed",
                },
            }
        ),
        json.dumps(
            {
                "type": "item.completed",
                "item": {
                    "id": "2",
                    "type": "file_change",
                    "status": "completed",
                    "changes": [{"path": "app/login.py", "kind": "update"}],
                },
            }
        ),
        json.dumps(
            {
                "type": "item.completed",
                "item": {
                    "id": "3",
                    "type": "agent_message",
                    "text": "The root cause was a stale cookie.",
                },
            }
        ),
        json.dumps({"type": "turn.completed", "usage": {"input_tokens": 7, "output_tokens": 3}}),
    ]
    assert formats.detect(lines) == "codex-jsonl"
    messages = list(formats.read("codex-jsonl", lines))
    assert [c for m in messages for c in m.commits] == ["1a2b3c4 Fix the redirect loop"]
    assert [p for m in messages for p in m.files] == ["app/login.py"]
    assert [m.text for m in messages if m.text] == ["The root cause was a stale cookie."]


def test_plain_text_is_the_fallback_and_the_recall_block_is_dropped():
    lines = [
        "Here is what I did.\n",
        '<mem-recall agent="dev" tokens="10" budget="2000">\n',
        "We decided to use MySQL.\n",
        "</mem-recall>\n",
        "We decided to use Postgres.\n",
    ]
    assert formats.detect(lines) == "text"
    text = "".join(m.text for m in formats.read("text", lines))
    assert "MySQL" not in text and "Postgres" in text


def test_broken_json_lines_are_skipped_not_fatal():
    lines = [
        '{"type": "assistant", "sessionId": "s", "message": {"content": "hi"}}\n',
        "{not json\n",
    ]
    assert list(formats.read("claude-jsonl", lines))


def test_a_long_log_without_blank_lines_is_read_in_linear_time(monkeypatch):
    # Counting a chunk's fences at every line of a log with no blank line to cut at read the
    # whole chunk again per line: 10 MB of build log took hours. The blank line is looked at first.
    calls = 0
    real = formats.fence_mark

    def counted(line):
        nonlocal calls
        calls += 1
        return real(line)

    monkeypatch.setattr(formats, "fence_mark", counted)
    lines = [f"gcc -O2 -c src/file_{n}.c -o build/file_{n}.o\n" for n in range(5000)]
    messages = list(formats.read_text(lines))
    assert sum(message.text.count("\n") for message in messages) == 5000
    assert calls < 3 * len(lines)


def test_a_log_without_a_blank_line_is_cut_so_no_message_grows_with_the_input():
    # One message as large as the input would make memory grow with it (1 GB of log on stdin).
    lines = [f"npm WARN deprecated package-{n}@1.0.{n}\n" for n in range(9_000)]
    lines[10] = "```\n"  # a fence never closed keeps can_cut from ever cutting
    messages = list(formats.read_text(lines))
    assert [message.text.count("\n") for message in messages] == [4000, 4000, 1000]
