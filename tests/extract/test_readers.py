"""Each session format reads with roles: the person's words as `user`, the agent's prose as
`assistant`, reasoning as `thinking` (never prose), what the harness injected as nobody's.

Small fixtures are written from each format's documented shape (Codex: codex-rs/protocol
`items.rs`; the others: the real files in ../shared/bench/capture-dev); real files are read
from ../shared, skipped when it is absent."""

from __future__ import annotations

import json

import pytest

from mem.extract import formats

from conftest import SHARED

CAPTURE = SHARED / "bench" / "capture-dev"
needs_capture = pytest.mark.skipif(not CAPTURE.is_dir(), reason="../shared/bench is absent")


def read_lines(lines: list[str]) -> tuple[str, list[formats.Message]]:
    fmt = formats.detect(lines[: formats.DETECT_LINES])
    return fmt, list(formats.read(fmt, lines))


def read_records(records: list[dict]) -> tuple[str, list[formats.Message]]:
    return read_lines([json.dumps(record) + "\n" for record in records])


def read_file(name: str) -> tuple[str, list[formats.Message]]:
    return read_lines((CAPTURE / name).read_text(encoding="utf-8").splitlines(keepends=True))


def said(messages: list[formats.Message], role: str) -> list[str]:
    return [m.text.strip() for m in messages if m.role == role and m.text.strip()]


def files_of(messages: list[formats.Message]) -> list[str]:
    return [path for m in messages for path in m.files]


def commits_of(messages: list[formats.Message]) -> list[str]:
    return [commit for m in messages for commit in m.commits]


# --- Codex 0.171 rollouts: event_msg item_completed ----------------------------------------


def item(item: dict) -> dict:
    payload = {"type": "item_completed", "thread_id": "t1", "turn_id": "1", "item": item}
    return {"timestamp": "2026-11-02T10:00:00Z", "type": "event_msg", "payload": payload}


CODEX_0171 = [
    {"timestamp": "2026-11-02T10:00:00Z", "type": "session_meta", "payload": {"id": "s-171"}},
    item(
        {
            "type": "UserMessage",
            "id": "u0",
            "content": [{"type": "text", "text": "<environment_context>\n  <cwd>/r</cwd>\n"}],
        }
    ),
    item(
        {
            "type": "UserMessage",
            "id": "u1",
            "content": [{"type": "text", "text": "Rename foo to bar", "text_elements": []}],
        }
    ),
    item({"type": "Reasoning", "id": "r1", "summary_text": ["Plan the rename"], "raw_content": []}),
    item(
        {
            "type": "FileChange",
            "id": "p1",
            "changes": {
                "src/a.rs": {"type": "update", "unified_diff": "@@", "move_path": None},
                "src/old.rs": {"type": "delete", "content": "x"},
            },
            "status": "completed",
        }
    ),
    item(
        {
            "type": "CommandExecution",
            "id": "c1",
            "command": [
                "bash",
                "-lc",
                "git commit -am 'Rename foo to bar' -m 'The old name clashed with the prelude.'",
            ],
            "cwd": "/r",
            "parsedCmd": [],
            "source": "agent",
            "status": "completed",
            "aggregatedOutput": "[main 1a2b3c4] Rename foo to bar\n 1 file changed\n",
            "exitCode": 0,
        }
    ),
    item(
        {
            "type": "AgentMessage",
            "id": "a1",
            "content": [{"type": "Text", "text": "Renamed foo to bar in src/a.rs."}],
        }
    ),
    # The legacy event of the same message, where a rollout keeps both.
    {
        "type": "event_msg",
        "payload": {"type": "agent_message", "message": "Renamed foo to bar in src/a.rs."},
    },
]


def test_a_codex_0171_rollout_reads_its_turn_items():
    fmt, messages = read_records(CODEX_0171)
    assert fmt == "codex-jsonl"
    assert said(messages, "user") == ["Rename foo to bar"]
    assert said(messages, "assistant") == ["Renamed foo to bar in src/a.rs."]  # once
    assert "Plan the rename" not in " ".join(m.text for m in messages)
    assert files_of(messages) == ["src/a.rs"]
    assert commits_of(messages) == ["1a2b3c4 Rename foo to bar"]
    # The message's body, read from the command given as a list to a shell.
    assert said(messages, "commit") == ["The old name clashed with the prelude."]
    assert {m.session for m in messages} == {"s-171"}


def test_an_older_codex_rollout_still_reads_its_events_and_finds_commits_in_shell_calls():
    call = {"cmd": "git commit -m 'Fix it'", "workdir": "/r"}
    records = [
        {"type": "session_meta", "payload": {"id": "s-old"}},
        {
            "type": "response_item",
            "payload": {
                "type": "message",
                "role": "developer",
                "content": [{"type": "input_text", "text": "<permissions instructions>…"}],
            },
        },
        {"type": "event_msg", "payload": {"type": "user_message", "message": "fix it"}},
        {
            "type": "response_item",
            "payload": {
                "type": "function_call",
                "name": "exec_command",
                "arguments": json.dumps(call),
                "call_id": "k1",
            },
        },
        {
            "type": "response_item",
            "payload": {
                "type": "function_call_output",
                "call_id": "k1",
                "output": "Process exited with code 0\nOutput:\n[fix 0fd2317] Fix it\n",
            },
        },
        {"type": "event_msg", "payload": {"type": "agent_message", "message": "Fixed."}},
    ]
    fmt, messages = read_records(records)
    assert fmt == "codex-jsonl"
    assert said(messages, "user") == ["fix it"] and said(messages, "assistant") == ["Fixed."]
    assert commits_of(messages) == ["0fd2317 Fix it"]


@needs_capture
def test_the_real_codex_rollouts_read_with_roles_and_their_commit():
    _, messages = read_file("codex-entire-graph-ignore-include-files.jsonl")
    assert "commit/push" in said(messages, "user")
    assert not any("Filesystem sandboxing" in text for text in said(messages, "user"))
    assert "0fd2317 Honor ignore files in worktree snapshots" in commits_of(messages)
    _, messages = read_file("codex-cyspbot-stale-production-deployments.jsonl")
    assert said(messages, "user")[0].startswith("this repository shows failed deployments")
    assert len(said(messages, "assistant")) == 23


# --- GitHub Copilot CLI events --------------------------------------------------------------

COPILOT = [
    {"type": "session.start", "data": {"sessionId": "cp-1", "context": {"cwd": "/r"}}},
    {
        "type": "system.message",
        "data": {"role": "system", "content": "You are the GitHub Copilot CLI"},
    },
    {"type": "user.message", "data": {"content": "Sign the records", "transformedContent": "<x/>"}},
    {
        "type": "user.message",
        "data": {"content": "<system_reminder>tools</system_reminder>", "source": "system"},
    },
    {
        "type": "assistant.message",
        "data": {
            "messageId": "m1",
            "content": "Signing is opt-in and off by default.",
            "reasoningText": "Maybe check the config first",
            "outputTokens": 42,
            "toolRequests": [
                {"toolCallId": "e1", "name": "edit", "arguments": {"path": "/r/sign.go"}},
                {
                    "toolCallId": "b1",
                    "name": "bash",
                    "arguments": {"command": 'git commit -m x -m "Unsigned repos keep working."'},
                },
            ],
        },
    },
    {"type": "tool.execution_complete", "data": {"toolCallId": "e1", "success": True}},
    {
        "type": "tool.execution_complete",
        "data": {"toolCallId": "b1", "success": True, "result": {"content": "[main 42bc2ee] x"}},
    },
]


@pytest.mark.parametrize("wrapped", [False, True])
def test_copilot_cli_events_read_with_roles_bare_or_wrapped(wrapped):
    records = COPILOT
    if wrapped:  # another recorder's envelope: {role, content, timestamp, raw: event}
        records = [{"role": "", "content": "", "timestamp": "t", "raw": event} for event in COPILOT]
    fmt, messages = read_records(records)
    assert fmt == "copilot-jsonl"
    assert said(messages, "user") == ["Sign the records"]
    assert said(messages, "assistant") == ["Signing is opt-in and off by default."]
    assert said(messages, "thinking") == ["Maybe check the config first"]
    assert files_of(messages) == ["sign.go"] and commits_of(messages) == ["42bc2ee x"]
    assert said(messages, "commit") == ["Unsigned repos keep working."]
    assert sum(m.output_tokens for m in messages) == 42


@needs_capture
@pytest.mark.parametrize(
    "name",
    ["copilot-azure-dev-windows-test-flakiness.jsonl", "copilot-wasa-cli-signed-checkpoints.jsonl"],
)
def test_the_real_copilot_sessions_read_as_events_not_json_text(name):
    fmt, messages = read_file(name)
    assert fmt == "copilot-jsonl"
    everything = " ".join(m.text for m in messages)
    assert '"type":' not in everything and "Custom instructions from" not in everything
    assert said(messages, "user") and said(messages, "assistant") and commits_of(messages)


# --- OpenTelemetry GenAI spans (Cursor via a hook recorder) ----------------------------------


def span(**attributes) -> dict:
    return {
        "trace_id": "t",
        "span_id": "s",
        "name": "coding_agent.llm.turn",
        "attributes": attributes,
    }


def chat(*messages: tuple[str, str]) -> str:
    return json.dumps([{"role": r, "parts": [{"type": "text", "content": t}]} for r, t in messages])


def test_otel_spans_read_messages_from_attributes_that_are_json_strings():
    records = [
        span(
            **{
                "gen_ai.conversation.id": "c1",
                "gen_ai.input.messages": chat(("user", "so init ran")),
            }
        ),
        span(**{"coding_agent.llm.thought.text": "Checking the results of so init."}),
        span(**{"gen_ai.output.messages": chat(("assistant", "Init did the adaptive work."))}),
        # A later chat span repeats the history before it.
        span(**{"gen_ai.input.messages": chat(("user", "so init ran"), ("user", "now cursor"))}),
        {
            "name": "coding_agent.edit.decision",
            "span_id": "e",
            "attributes": {
                "code.file.path": "/r/eval.go",
                "coding_agent.edit.decision": "auto_accepted",
            },
        },
    ]
    fmt, messages = read_records(records)
    assert fmt == "otel-spans"
    assert said(messages, "user") == ["so init ran", "now cursor"]
    assert said(messages, "assistant") == ["Init did the adaptive work."]
    assert said(messages, "thinking") == ["Checking the results of so init."]
    assert files_of(messages) == ["/r/eval.go"]
    assert messages[0].session == "c1"


def test_otlp_json_spans_read_too():
    attributes = [
        {"key": "gen_ai.output.messages", "value": {"stringValue": chat(("assistant", "Done."))}},
        {"key": "gen_ai.prompt.0.role", "value": {"stringValue": "user"}},
        {"key": "gen_ai.prompt.0.content", "value": {"stringValue": "do it"}},
    ]
    record = {
        "resourceSpans": [{"scopeSpans": [{"spans": [{"spanId": "1", "attributes": attributes}]}]}]
    }
    fmt, messages = read_records([record])
    assert fmt == "otel-spans"
    assert said(messages, "assistant") == ["Done."] and said(messages, "user") == ["do it"]


@needs_capture
def test_the_real_cursor_spans_read_the_person_and_the_agent():
    fmt, messages = read_file("cursor-superopen-native-docs-githooks.jsonl")
    assert fmt == "otel-spans"
    assert "so init ran" in said(messages, "user")
    assert any(
        text.startswith("**Init did the right adaptive work.**")
        for text in said(messages, "assistant")
    )
    assert not any("trace_id" in m.text for m in messages)


# --- Antigravity ------------------------------------------------------------------------------

TRAJECTORY = [
    {
        "step_index": 0,
        "source": "USER_EXPLICIT",
        "type": "USER_INPUT",
        "status": "DONE",
        "content": "<USER_REQUEST>\nBuild the scaffold.\n</USER_REQUEST>\n<ADDITIONAL_METADATA>\ntime\n</ADDITIONAL_METADATA>",
    },
    {"step_index": 1, "source": "SYSTEM", "type": "CONVERSATION_HISTORY", "status": "DONE"},
    {
        "step_index": 2,
        "source": "MODEL",
        "type": "PLANNER_RESPONSE",
        "status": "DONE",
        "content": "I will write settings.py with a SQLite fallback.",
        "thinking": "**Weighing the database**",
        "tool_calls": [
            {
                "name": "write_to_file",
                "args": {"TargetFile": json.dumps("C:\\p\\settings.py"), "IsArtifact": "false"},
            },
            {
                "name": "write_to_file",
                "args": {"TargetFile": json.dumps("C:\\brain\\plan.md"), "IsArtifact": "true"},
            },
        ],
    },
    {
        "step_index": 3,
        "source": "MODEL",
        "type": "CODE_ACTION",
        "status": "DONE",
        "content": "Created file file:///C:/p/settings.py with requested content.",
    },
]


def test_an_antigravity_trajectory_reads_requests_responses_and_written_files():
    fmt, messages = read_records(TRAJECTORY)
    assert fmt == "antigravity-jsonl"
    assert said(messages, "user") == ["Build the scaffold."]
    assert said(messages, "assistant") == ["I will write settings.py with a SQLite fallback."]
    assert said(messages, "thinking") == ["**Weighing the database**"]
    assert files_of(messages) == ["C:\\p\\settings.py"]  # its own artifacts are not project files


ANTIGRAVITY_CHAT = """# Chat Conversation

Note: *This is purely the output of the chat conversation and does not contain any raw data.*

### User Input

Crie o projeto com app.py.

### Nota

Use regras explicáveis.

*User accepted the command `py -m streamlit run app.py`*

*Checked command status*

*Edited relevant file*

### Planner Response

O projeto está pronto.

### 🚀 Como rodar agora:

`py -m streamlit run app.py`
"""


def test_an_antigravity_chat_export_reads_turns_and_not_its_tool_lines():
    fmt, messages = read_lines(ANTIGRAVITY_CHAT.splitlines(keepends=True))
    assert fmt == "antigravity-md"
    assert said(messages, "user") == [
        "Crie o projeto com app.py.\n\n### Nota\n\nUse regras explicáveis."
    ]
    (reply,) = said(messages, "assistant")
    assert reply.startswith("O projeto está pronto.") and "Como rodar agora" in reply
    assert "Checked command status" not in " ".join(m.text for m in messages)


@needs_capture
def test_the_real_antigravity_files_read_with_roles():
    fmt, messages = read_file("antigravity-ApplySense-career-os-scaffold.jsonl")
    assert fmt == "antigravity-jsonl" and len(said(messages, "user")) == 2
    assert not any("Your current permission grants" in t for t in said(messages, "assistant"))
    fmt, messages = read_file("antigravity-ai-master-challenge-sales-priority-os.md")
    assert fmt == "antigravity-md" and len(said(messages, "user")) >= 5
    assert not any("*Edited relevant file*" in m.text for m in messages)


# --- fallbacks: other glyphs, excerpts, thinking in SpecStory --------------------------------


def test_a_claude_terminal_drawn_with_bullets_and_chevrons_reads_with_roles():
    lines = [
        "❯ why does the build fail?\n",
        "\n",
        "● Bash(make build)\n",
        "  ⎿  error: missing dep\n",
        "\n",
        "● The build fails because the Makefile lacks the parser dependency.\n",
        "  Adding it fixes the build.\n",
        "\n",
        "● Update(Makefile)\n",
        "❯ thanks\n",
    ]
    fmt, messages = read_lines(lines)
    assert fmt == "claude-terminal"
    assert said(messages, "user") == ["why does the build fail?", "thanks"]
    assert said(messages, "assistant") == [
        "The build fails because the Makefile lacks the parser dependency.\nAdding it fixes the build."
    ]
    assert files_of(messages) == ["Makefile"]


def test_an_aider_excerpt_without_its_header_reads_as_aider():
    lines = [
        "Some notes pasted before the log\n",
        "\n",
        "#### fix the windows test  \n",
        "\n",
        "> Applied edit to aider/repo.py  \n",
        "> Commit b6994aa fix: Normalize the cwd  \n",
        "\n",
        "The path is now normalized before comparing.\n",
    ]
    fmt, messages = read_lines(lines)
    assert fmt == "aider"
    assert said(messages, "user") == ["fix the windows test"]
    assert commits_of(messages) == ["b6994aa fix: Normalize the cwd"]


def test_an_aider_excerpt_whose_trailing_spaces_an_editor_trimmed_reads_as_aider():
    lines = [
        "#### fix the flaky test in tests/test_io.py\n",
        "\n",
        "The test fails because it relies on dict ordering. I will sort the keys.\n",
        "\n",
        "> Applied edit to tests/test_io.py\n",
        "> Commit 1a2b3c4 fix: sort keys in test_io\n",
    ]
    fmt, messages = read_lines(lines)
    assert fmt == "aider"
    assert said(messages, "user") == ["fix the flaky test in tests/test_io.py"]
    assert commits_of(messages) == ["1a2b3c4 fix: sort keys in test_io"]


def test_a_markdown_quote_after_a_heading_is_no_aider_history():
    lines = ["#### Notes\n", "\n", "> Quoted from the RFC: retries must be idempotent.\n"]
    assert read_lines(lines)[0] == "text"


CURSOR_EXPORT = """# Fix login redirect
_Exported on 11/2/2025 at 10:00:00 GMT+2 from Cursor (1.7.38)_

---

**User**

the login redirect drops the session cookie on Safari

---

**Cursor**

The root cause was a relative redirect, so Safari dropped the cookie.

---

**User**

we never use relative redirects, remember that

---

**Cursor**

Understood: every redirect now goes through `absoluteUrl()` in `src/url.ts`.
"""


def test_cursors_own_chat_export_reads_who_said_what():
    fmt, messages = read_lines(CURSOR_EXPORT.splitlines(keepends=True))
    assert fmt == "markdown-chat"
    assert said(messages, "user") == [
        "the login redirect drops the session cookie on Safari",
        "we never use relative redirects, remember that",
    ]
    assert said(messages, "assistant") == [
        "The root cause was a relative redirect, so Safari dropped the cookie.",
        "Understood: every redirect now goes through `absoluteUrl()` in `src/url.ts`.",
    ]
    assert not any("Exported on" in m.text for m in messages)


def test_a_cursor_export_without_its_header_still_reads_as_one():
    lines = CURSOR_EXPORT.splitlines(keepends=True)[3:]  # the title and the date cut off
    fmt, messages = read_lines(lines)
    assert fmt == "markdown-chat"
    assert said(messages, "user")[0] == "the login redirect drops the session cookie on Safari"


def test_a_document_with_a_bold_user_line_is_no_chat():
    lines = ["# Roles\n", "\n", "**User**\n", "\n", "Can read every page.\n"]
    assert read_lines(lines)[0] == "text"


def gemini_share(*turns: tuple[str, str]) -> list[str]:
    """A chat as Gemini CLI's `/chat share` writes it: its setup turn, then `turns`."""
    setup = (
        "This is the Gemini CLI. We are setting up the context for our chat.\n"
        "Today's date is Thursday, January 29, 2026.\nMy operating system is: linux\n\n"
        "Reminder: Do not return an empty response when a tool call is required.\n\n"
        "My setup is complete. I will provide my first command in the next turn."
    )
    heads = {"USER": "## USER 🧑\u200d💻", "MODEL": "## MODEL ✨"}
    text = "\n\n---\n\n".join(f"{heads[who]}\n\n{said}" for who, said in [("USER", setup), *turns])
    return (text + "\n").splitlines(keepends=True)


def tool(kind: str, value: dict) -> str:
    return f"**Tool {kind}**:\n```json\n{json.dumps(value, indent=2)}\n```"


def test_a_shared_gemini_chat_reads_the_persons_words_apart_from_the_clis():
    lines = gemini_share(
        (
            "USER",
            (
                "Build a room reservation API. Never use Jest here.\n"
                "--- Content from referenced files ---\nContent from @notes.md:\n"
                "We decided to use MySQL.\n--- End of content ---"
            ),
        ),
        ("MODEL", "I'll look first." + tool("Command", {"name": "read_file", "args": {}})),
        ("USER", tool("Response", {"name": "read_file", "response": {"output": "Use Postgres."}})),
        ("MODEL", "The overlap check failed because times were compared as strings."),
    )
    fmt, messages = read_lines(lines)
    assert fmt == "gemini-md"
    assert said(messages, "user") == ["Build a room reservation API. Never use Jest here."]
    assert said(messages, "assistant") == [
        "I'll look first.",
        "The overlap check failed because times were compared as strings.",
    ]


def test_a_shared_gemini_chat_keeps_what_its_tools_did_when_they_succeeded():
    commit = "git commit -m 'fix: parse times before comparing'"
    output = "[main 1a2b3c4] fix: parse times before comparing\n 1 file changed\nExit Code: 0"
    lines = gemini_share(
        ("USER", "fix the overlap check"),
        (
            "MODEL",
            "Writing the fix."
            + tool("Command", {"name": "write_file", "args": {"file_path": "src/overlap.ts"}})
            + "\n"
            + tool("Command", {"name": "write_file", "args": {"file_path": "src/other.ts"}}),
        ),
        (
            "USER",
            tool("Response", {"name": "write_file", "response": {"output": "Wrote it."}})
            + "\n\n"
            + tool("Response", {"name": "write_file", "response": {"error": "Cancelled."}}),
        ),
        ("MODEL", tool("Command", {"name": "run_shell_command", "args": {"command": commit}})),
        ("USER", tool("Response", {"name": "run_shell_command", "response": {"output": output}})),
        ("MODEL", tool("Command", {"name": "run_shell_command", "args": {"command": commit}})),
        (
            "USER",
            tool(
                "Response",
                {"name": "run_shell_command", "response": {"output": "nothing\nExit Code: 1"}},
            ),
        ),
    )
    _, messages = read_lines(lines)
    assert files_of(messages) == ["src/overlap.ts"]  # the second write was cancelled
    assert commits_of(messages) == ["1a2b3c4 fix: parse times before comparing"]


def test_a_compressed_gemini_chat_gives_its_snapshot_as_a_summary():
    snapshot = (
        "<state_snapshot>\n<key_knowledge>Rooms are kept in memory.</key_knowledge>\n"
        "</state_snapshot>"
    )
    _, messages = read_lines(gemini_share(("USER", snapshot), ("MODEL", "Got it.")))
    assert [m.text for m in messages if m.role == "summary"] == [
        "<key_knowledge>Rooms are kept in memory.</key_knowledge>"
    ]
    assert said(messages, "user") == []


def cline_task(*turns: tuple[str, str]) -> list[str]:
    """A task as Cline's "Export task" writes it."""
    state = "\n<environment_details>\n# VSCode Visible Files\nsrc/router.ts\n</environment_details>"
    text = "\n\n---\n\n".join(
        f"**{who}:**\n\n{said}{state if who == 'User' else ''}" for who, said in turns
    )
    return (text + "\n").splitlines(keepends=True)


def test_a_cline_task_reads_the_request_the_models_words_and_its_report():
    lines = cline_task(
        ("User", "<task>\nFix the Safari login. We never use relative redirects.\n</task>"),
        (
            "Assistant",
            (
                "<thinking>\nLet me read the router.\n</thinking>\n\n"
                "<read_file>\n<path>src/router.ts</path>\n</read_file>"
            ),
        ),
        ("User", "[read_file for 'src/router.ts'] Result:\n// We decided to use MySQL.\n"),
        (
            "Assistant",
            (
                "<attempt_completion>\n<result>\nThe root cause was a relative redirect.\n"
                "</result>\n</attempt_completion>"
            ),
        ),
        (
            "User",
            (
                "[attempt_completion] Result:\nThe user has provided feedback on the results.\n"
                "<feedback>\nAlso keep the cookie SameSite=Lax.\n</feedback>"
            ),
        ),
        ("User", "[TASK RESUMPTION] This task was interrupted 2 minutes ago."),
    )
    fmt, messages = read_lines(lines)
    assert fmt == "cline-md"
    assert said(messages, "user") == [
        "Fix the Safari login. We never use relative redirects.",
        "Also keep the cookie SameSite=Lax.",
    ]
    assert said(messages, "assistant") == ["The root cause was a relative redirect."]
    assert said(messages, "thinking") == ["Let me read the router."]


def test_a_cline_task_keeps_what_its_tools_did_when_the_result_says_so():
    commit = 'git commit -am "fix: absolute redirects"'
    lines = cline_task(
        ("User", "<task>\nfix it\n</task>"),
        (
            "Assistant",
            "<write_to_file>\n<path>src/url.ts</path>\n<content>x</content>\n</write_to_file>",
        ),
        ("User", "[write_to_file for 'src/url.ts'] Result:\nThe content was successfully saved."),
        ("Assistant", "<replace_in_file>\n<path>src/app.ts</path>\n</replace_in_file>"),
        ("User", "[replace_in_file for 'src/app.ts'] Result:\nThe user denied this operation."),
        ("Assistant", f"<execute_command>\n<command>{commit}</command>\n</execute_command>"),
        (
            "User",
            (
                f"[execute_command for '{commit}'] Result:\nCommand executed.\nOutput:\n"
                "[main 4d5e6f7] fix: absolute redirects\n 1 file changed"
            ),
        ),
    )
    _, messages = read_lines(lines)
    assert files_of(messages) == ["src/url.ts"]
    assert commits_of(messages) == ["4d5e6f7 fix: absolute redirects"]


CODEX_VIEW = """╭──────────────────────────────────────────────╮
│ >_ OpenAI Codex (v0.63.0)                    │
╰──────────────────────────────────────────────╯

› the checkout total is off by one cent

• I'll look at how totals are rounded.

• Explored
  └ Search round\\( in src
    Read cart.py

• Edited src/cart.py (+3 -2)
    41 -    total = round(sum(prices), 2)
    41 +    total = sum(Decimal(p) for p in prices)

• Ran git commit -am "fix: sum cart prices as Decimal"
  └ [main 9f8e7d6] fix: sum cart prices as Decimal
     1 file changed

• The total was off because prices were summed as floats, so a cent
  was lost in rounding.

─ Worked for 1m 12s ──────────────────────────────

› thanks
"""


def test_codexs_interactive_view_reads_who_said_what_and_what_its_tools_did():
    fmt, messages = read_lines(CODEX_VIEW.splitlines(keepends=True))
    assert fmt == "codex-terminal"
    assert said(messages, "user") == ["the checkout total is off by one cent", "thanks"]
    assert said(messages, "assistant") == [
        "I'll look at how totals are rounded.",
        "The total was off because prices were summed as floats, so a cent\nwas lost in rounding.",
    ]
    assert files_of(messages) == ["src/cart.py"]
    assert commits_of(messages) == ["9f8e7d6 fix: sum cart prices as Decimal"]


def test_codexs_2025_view_marks_every_prompt_line_and_opens_replies_with_a_quote_mark():
    lines = [
        "▌ the snooze popup never shows, fix it. we always ship defaults\n",
        "▌ as enabled.\n",
        "\n",
        "• Ran rg -n snooze_prompt_enabled\n",
        '  └ focuscheck/settings/defaults.py:352:    "snooze_prompt_enabled": False,\n',
        "\n",
        "> The popup never showed because the default was False. I changed\n",
        "  it to True.\n",
        "\n",
        "> Model changed to gpt-5-codex\n",
    ]
    fmt, messages = read_lines(lines)
    assert fmt == "codex-terminal"
    assert said(messages, "user") == [
        "the snooze popup never shows, fix it. we always ship defaults\nas enabled."
    ]
    assert said(messages, "assistant") == [
        "The popup never showed because the default was False. I changed\nit to True."
    ]


ROLE_HEADED = """# Claude Code Session

**Project:** /home/me/shop

---

## User

The nightly export times out. We never load whole tables into memory.

## Assistant

Let me check the export job.

*Tokens: 2 in, 3 out*

_[tool: list_files]_

### Tool Call: shell_command (succeeded)

```json
{"command": "rg -n fetchall src/export.py"}
```

**Output:**
We decided to use MySQL because the output said so.

### Thinking

The fetchall loads everything.

## Assistant

The timeout came from `cursor.fetchall()`, which loaded every row first.
"""


def test_a_chat_exported_with_a_heading_per_turn_reads_who_said_what():
    fmt, messages = read_lines(ROLE_HEADED.splitlines(keepends=True))
    assert fmt == "markdown-roles"
    assert said(messages, "user") == [
        "The nightly export times out. We never load whole tables into memory."
    ]
    assert said(messages, "assistant") == [
        "Let me check the export job.",
        "The timeout came from `cursor.fetchall()`, which loaded every row first.",
    ]
    assert said(messages, "thinking") == ["The fetchall loads everything."]


def test_a_document_with_an_assistant_section_alone_is_no_chat():
    lines = ["# Product\n", "\n", "## Assistant\n", "\n", "The assistant answers questions.\n"]
    assert read_lines(lines)[0] == "text"


def test_specstory_thinking_is_yielded_as_thinking_never_as_the_agents_prose():
    text = """_**User (2025-10-14 22:25Z)**_

why?

---

_**Assistant (claude-4.5-sonnet-thinking)**_

<think><details><summary>Thought Process</summary>The user asks why.
The threshold of 60s is unrealistic.</details></think>

---

The threshold was unrealistic: I raised it to 200s.

<details><summary>Thought Process</summary>Now run it again.</details>

Done.
"""
    fmt, messages = read_lines(text.splitlines(keepends=True))
    assert fmt == "markdown-chat"
    prose = " ".join(said(messages, "assistant"))
    assert "unrealistic: I raised it" in prose and "Done." in prose
    assert "60s is unrealistic" not in prose and "run it again" not in prose
    assert said(messages, "thinking") == [
        "The user asks why.\nThe threshold of 60s is unrealistic.",
        "Now run it again.",
    ]


# --- JSON nobody has seen -------------------------------------------------------------------


def test_unknown_json_lines_read_with_roles_and_tool_calls_are_not_prose():
    records = [
        {"kind": "meta", "session_id": "g1", "version": 3},
        {"event": {"speaker": "human", "content": "Please add a cache."}},
        {
            "event": {
                "speaker": "ai",
                "content": [
                    {"type": "thinking", "thinking": "hmm"},
                    {"type": "text", "text": "Added an LRU cache to the loader."},
                    {"type": "tool_use", "name": "Edit", "input": {"file_path": "a.py"}},
                ],
            }
        },
        {"event": {"speaker": "ai", "content": [{"type": "tool_use", "name": "Bash"}]}},
        {"event": {"role": "tool", "content": "[main abc1234] tool output"}},
        {"event": {"role": "system", "content": "You are a helpful agent."}},
    ]
    fmt, messages = read_records(records)
    assert fmt == "generic-json"
    assert said(messages, "user") == ["Please add a cache."]
    assert said(messages, "assistant") == ["Added an LRU cache to the loader."]
    assert {m.session for m in messages} == {"g1"}


def test_one_unknown_json_document_reads_its_nested_messages():
    document = {
        "title": "chat",
        "mapping": {
            "n1": {
                "message": {"author": {"role": "user"}, "content": {"parts": ["Why is CI red?"]}}
            },
            "n2": {
                "message": {
                    "author": {"role": "assistant"},
                    "content": {"parts": ["The lockfile was stale; regenerating it fixed CI."]},
                }
            },
        },
    }
    fmt, messages = read_lines(json.dumps(document, indent=2).splitlines(keepends=True))
    assert fmt == "generic-json"
    assert said(messages, "user") == ["Why is CI red?"]
    assert said(messages, "assistant") == ["The lockfile was stale; regenerating it fixed CI."]


def test_a_chat_exported_from_vs_code_reads_each_request_and_its_response():
    # The shape of VS Code's "Chat: Export Chat…" (and of its chatSessions files): no roles,
    # a `message` and the `response` parts streamed for it.
    document = {
        "requesterUsername": "octocat",
        "responderUsername": "GitHub Copilot",
        "requests": [
            {
                "requestId": "request_1",
                "message": {
                    "text": "The CSV import drops quoted commas. We never split on commas."
                },
                "response": [
                    {"value": "The cause was `import_rows()` in "},
                    {
                        "kind": "inlineReference",
                        "inlineReference": {"$mid": 1, "path": "/w/app/importer.py"},
                    },
                    {"value": " splitting lines on commas."},
                    {"kind": "toolInvocationSerialized", "invocationMessage": {"value": "Reading"}},
                    {"kind": "textEditGroup", "uri": {"$mid": 1, "path": "/w/app/importer.py"}},
                ],
            }
        ],
    }
    fmt, messages = read_lines(json.dumps(document, indent=2).splitlines(keepends=True))
    assert fmt == "generic-json"
    assert said(messages, "user") == [
        "The CSV import drops quoted commas. We never split on commas."
    ]
    assert said(messages, "assistant") == [
        "The cause was `import_rows()` in `importer.py` splitting lines on commas."
    ]
    assert files_of(messages) == ["/w/app/importer.py"]


def test_an_opencode_export_reads_the_role_beside_the_parts():
    document = {
        "info": {"id": "ses_1", "title": "Fix CSV import"},
        "messages": [
            {
                "info": {"id": "msg_1", "role": "user", "sessionID": "ses_1"},
                "parts": [{"type": "text", "text": "Fix the CSV import."}],
            },
            {
                "info": {"id": "msg_2", "role": "assistant", "sessionID": "ses_1"},
                "parts": [
                    {"type": "reasoning", "text": "Let me look."},
                    {"type": "tool", "tool": "edit", "state": {"status": "completed"}},
                    {"type": "text", "text": "Quoted fields were split; `csv.reader` fixes it."},
                ],
            },
        ],
    }
    fmt, messages = read_lines(json.dumps(document).splitlines(keepends=True))
    assert fmt == "generic-json"
    assert said(messages, "user") == ["Fix the CSV import."]
    assert said(messages, "assistant") == ["Quoted fields were split; `csv.reader` fixes it."]


def test_an_http_log_of_requests_and_responses_is_no_chat():
    records = [{"request": {"method": "GET", "url": "/health"}, "response": {"status": 200}}]
    fmt, messages = read_records(records)
    assert fmt == "generic-json"
    assert said(messages, "user") == []


def test_json_with_no_messages_never_fails_and_reads_as_text():
    fmt, messages = read_records(
        [{"metric": "latency", "value": 12}, {"metric": "rps", "value": 3}]
    )
    assert fmt == "generic-json"
    assert [m.role for m in messages] == ["assistant"] and "latency" in messages[0].text


def test_mem_commit_says_it_read_unknown_json_as_generic_json(run_mem, vault):
    lines = [
        json.dumps({"speaker": "human", "content": "We use uv for everything."}),
        json.dumps({"speaker": "ai", "content": "Decided to pin Python 3.11 because CI runs it."}),
    ]
    result = run_mem("commit", "--agent", "dev", input="\n".join(lines) + "\n", cwd=vault.parent)
    assert result.exit_code == 0, result.stderr
    assert "(generic-json, 2 messages)" in result.stdout


@pytest.mark.parametrize(
    "sample",
    [
        "".join(gemini_share(("USER", "fix it"), ("MODEL", tool("Command", {"name": "x"})))),
        "".join(cline_task(("User", "<task>\nfix it\n</task>"), ("Assistant", "<thinking>\nhm"))),
        CODEX_VIEW,
        ROLE_HEADED,
        CURSOR_EXPORT,
    ],
)
def test_a_shape_cut_anywhere_still_reads_without_failing(sample):
    # An excerpt can stop mid-block: an unclosed fence, tag or JSON block is read as far as it goes.
    lines = sample.splitlines(keepends=True)
    fmt = formats.detect(lines[: formats.DETECT_LINES])
    for cut in range(len(lines) + 1):
        for message in formats.read(fmt, lines[:cut]):
            assert isinstance(message.text, str)
        for message in formats.read(fmt, [line[: len(line) // 2] for line in lines[:cut]]):
            assert isinstance(message.text, str)


# --- what a review of the new readers found -------------------------------------------------


def test_a_transcript_that_quotes_codexs_banner_is_still_read_as_what_it_is():
    record = {
        "type": "user",
        "sessionId": "s1",
        "message": {"role": "user", "content": "the banner >_ OpenAI Codex (v0.46.0) crashed"},
    }
    assert read_records([record])[0] == "claude-jsonl"


def test_a_codex_message_that_opens_on_a_verb_of_the_tools_is_the_agents_words():
    lines = [
        "› make the uploader retry\n",
        "• Added retries with exponential backoff to the uploader. The\n",
        "  S3 client must always retry on 503.\n",
        "• Edited src/upload.py (+4 -1)\n",
    ]
    fmt, messages = read_lines(lines)
    assert fmt == "codex-terminal"
    assert said(messages, "assistant") == [
        (
            "Added retries with exponential backoff to the uploader. The\nS3 client must always "
            "retry on 503."
        )
    ]
    assert files_of(messages) == ["src/upload.py"]


def test_a_readme_with_model_and_user_sections_is_no_chat():
    readme = (
        "# MyBot\nintro\n## Model\nWe fine-tune.\n## User\nUsers must log in.\n## License\nMIT\n"
    )
    assert read_lines(readme.splitlines(keepends=True))[0] == "text"


def test_a_bold_user_line_in_a_specstory_answer_starts_no_turn():
    lines = [
        "_**User (2025-10-14 22:25Z)**_\n",
        "\n",
        "describe the data model\n",
        "\n",
        "_**Assistant (claude-4.5-sonnet)**_\n",
        "\n",
        "**User**\n",
        "\n",
        "A user owns many portfolios.\n",
    ]
    fmt, messages = read_lines(lines)
    assert fmt == "markdown-chat"
    assert said(messages, "user") == ["describe the data model"]
    assert "A user owns many portfolios." in said(messages, "assistant")[0]


def test_a_heading_that_only_starts_with_tool_is_the_turns_prose():
    text = ROLE_HEADED.replace(
        "## Assistant\n\nThe timeout",
        "## Assistant\n\n### Tool comparison\n\nWe chose Vite over webpack.\n\nThe timeout",
    )
    _, messages = read_lines(text.splitlines(keepends=True))
    assert any("We chose Vite over webpack." in m for m in said(messages, "assistant"))


def test_a_cline_turn_that_opens_on_the_harnesss_notice_is_all_the_harnesss():
    lines = cline_task(
        ("User", "<task>\nfix it\n</task>"),
        (
            "User",
            (
                "[TASK RESUMPTION] This task was interrupted.\n\nNote: If you previously "
                "attempted a tool use that the user did not provide a result for, assume it failed."
            ),
        ),
    )
    assert said(read_lines(lines)[1], "user") == ["fix it"]


def test_a_cline_export_cut_inside_a_tool_call_keeps_the_call_out_of_the_prose():
    lines = cline_task(
        ("User", "<task>\nfix it\n</task>"),
        ("Assistant", "I will write it.\n<write_to_file>\n<path>a.py</path>\n<content>\n# MySQL"),
    )
    assert said(read_lines(lines)[1], "assistant") == ["I will write it."]


def test_json_whose_answer_has_a_role_of_its_own_is_read_as_before():
    record = {
        "prompt": "why?",
        "response": {"choices": [{"message": {"role": "assistant", "content": "Because."}}]},
    }
    assert said(read_records([record])[1], "assistant") == ["Because."]


def test_a_log_lines_message_and_response_are_no_chat():
    record = {"level": "error", "message": "Always retry on 503", "response": "503 Unavailable"}
    assert said(read_records([record])[1], "user") == []


def test_an_opencode_part_the_harness_wrote_is_nobodys_words():
    record = {
        "info": {"role": "user"},
        "parts": [
            {"type": "text", "text": "Fix @a.py"},
            {"type": "text", "synthetic": True, "text": "Called the Read tool with a.py"},
        ],
    }
    assert said(read_records([record])[1], "user") == ["Fix @a.py"]


def test_a_gemini_share_with_icons_first_and_joined_tool_blocks_reads_whole():
    text = (
        "🧑\u200d💻 ## USER\n\nfix it\n\n---\n\n✨ ## MODEL\n\nWriting both."
        + tool("Command", {"name": "write_file", "args": {"file_path": "a.ts"}})
        + tool("Command", {"name": "write_file", "args": {"file_path": "b.ts"}})
        + "\n\n---\n\n🧑\u200d💻 ## USER\n\n"
        + tool("Response", {"name": "write_file", "response": {"output": "ok"}})
        + tool("Response", {"name": "write_file", "response": {"output": "ok"}})
        + "\n"
    )
    fmt, messages = read_lines(text.splitlines(keepends=True))
    assert fmt == "gemini-md"
    assert said(messages, "user") == ["fix it"]
    assert files_of(messages) == ["a.ts", "b.ts"]


@pytest.mark.parametrize(
    "text",
    [
        "[" * 5000 + "\n",
        "".join(gemini_share(("MODEL", "**Tool Command**:\n```json\n" + "[" * 5000 + "\n```"))),
    ],
)
def test_json_nested_past_the_parsers_depth_never_fails(text):
    lines = text.splitlines(keepends=True)
    fmt = formats.detect(lines[: formats.DETECT_LINES])
    assert isinstance(list(formats.read(fmt, lines)), list)


# --- what a second review found ---------------------------------------------------------------


def test_a_tree_drawn_in_a_codex_message_is_the_messages():
    lines = [
        "› how is the project laid out?\n",
        "• The project is split like this:\n",
        "  src/\n",
        "  │   └── routes.py\n",
        "  └── main.py\n",
        "  The routes module is mounted by main.py, so routes load first.\n",
        "• Ran git status\n",
        "  └ nothing to commit\n",
    ]
    fmt, messages = read_lines(lines)
    assert fmt == "codex-terminal"
    assert "so routes load first." in said(messages, "assistant")[0]


def test_a_codex_message_opening_on_ran_is_no_command():
    lines = [
        "› list the services\n",
        "• Ran grpcurl -plaintext localhost:50051 list\n",
        "  └ grpc.health.v1.Health\n",
        "• Ran grpcurl -plaintext localhost:50051 list. Services available:\n",
        "  - grpc.health.v1.Health\n",
    ]
    assert said(read_lines(lines)[1], "assistant")[0].startswith("Ran grpcurl")


def test_a_codex_edit_of_several_files_or_a_rename_gives_the_files():
    lines = [
        "› rename the helper and add a test\n",
        "• Edited 2 files (+2 -1)\n",
        "  └ src/util.py (+1 -1)\n",
        "    1 +one changed\n",
        "  └ tests/test_util.py (+1 -0)\n",
        "• Edited old_name.rs → new_name.rs (+1 -1)\n",
    ]
    assert files_of(read_lines(lines)[1]) == ["src/util.py", "tests/test_util.py", "new_name.rs"]


@pytest.mark.parametrize(
    "text",
    [
        (
            "# Notes\n\nGemini CLI opens every chat with:\n\nThis is the Gemini CLI. We are setting "
            "up the context for our chat.\n\nWe always pin the CLI version in CI.\n"
        ),
        (
            "# codex-notify\n\n## Example\n\n```\n› fix the failing tests\n• Ran pytest -q\n"
            "  └ 3 passed in 0.2s\n```\n\nWe always notify on the last turn only.\n"
        ),
    ],
)
def test_a_document_that_quotes_a_shape_is_still_a_document(text):
    assert read_lines(text.splitlines(keepends=True))[0] == "text"


@pytest.mark.parametrize(
    "turn",
    [
        "[new_task completed] Result: Added a limiter. Always run `npm run test:redis` first.",
        "[switch_mode to 'code' because: the plan is done]",
        "[Tool]\nexport const RETRIES = 3 // callers rely on exactly three attempts",
    ],
)
def test_a_cline_turn_opening_on_a_bracketed_header_is_nobodys_words(turn):
    lines = cline_task(("User", "<task>\nadd rate limiting\n</task>"), ("User", turn))
    assert said(read_lines(lines)[1], "user") == ["add rate limiting"]


def test_a_cline_file_saved_with_denied_in_it_was_still_written():
    lines = cline_task(
        ("User", "<task>\nreturn 403 for non-admins\n</task>"),
        ("Assistant", "<write_to_file>\n<path>src/admin.ts</path>\n</write_to_file>"),
        (
            "User",
            (
                "[write_to_file for 'src/admin.ts'] Result:\nThe content was successfully saved.\n"
                "<final_file_content>\nres.status(403).send('Access denied')\n</final_file_content>"
            ),
        ),
    )
    assert files_of(read_lines(lines)[1]) == ["src/admin.ts"]


def test_an_exchange_part_of_another_kind_never_fails():
    record = {
        "prompt": "why is the build slow?",
        "response": [{"kind": ["markdown"], "value": "x"}],
    }
    assert isinstance(read_records([record])[1], list)


def test_a_user_section_inside_an_answer_is_the_answers():
    text = ROLE_HEADED.replace(
        "## Assistant\n\nThe timeout",
        "## Assistant\n\n### User\n\nThe `User` model keys on `email`.\n\nThe timeout",
    )
    _, messages = read_lines(text.splitlines(keepends=True))
    assert not any("keys on `email`" in m for m in said(messages, "user"))
    assert any("keys on `email`" in m for m in said(messages, "assistant"))


def test_an_opencode_markdown_export_reads_turns_thinking_and_tools():
    text = (
        "# Directory MD files overview\n\n**Session ID:** ses_1\n\n---\n\n## User\n\n"
        "summarize the md files\n\n---\n\n## Assistant (Build · gemini-3-flash · 20.5s)\n\n"
        "_Thinking:_\n\nI should glob first.\n\n**Tool: glob**\n\n**Output:**\n```\nREADME.md\n"
        "```\n\n---\n\n## Assistant (Build · gemini-3-flash · 8.6s)\n\n"
        "The MIDI clock must stay on the audio thread.\n"
    )
    fmt, messages = read_lines(text.splitlines(keepends=True))
    assert fmt == "markdown-roles"
    assert said(messages, "user") == ["summarize the md files"]
    assert said(messages, "thinking") == ["I should glob first."]
    assert said(messages, "assistant") == ["The MIDI clock must stay on the audio thread."]


def test_a_bold_user_line_in_cursors_own_answer_starts_no_turn():
    text = CURSOR_EXPORT.replace(
        "The root cause was a relative redirect",
        "**User**\n\nA user owns many sessions.\n\nThe root cause was a relative redirect",
    )
    _, messages = read_lines(text.splitlines(keepends=True))
    assert not any("owns many sessions" in m for m in said(messages, "user"))


def test_codexs_2025_thinking_block_is_thinking_and_the_input_box_is_nobodys():
    lines = [
        "▌ refactor the database module\n",
        "> Thinking\n",
        "  Maybe the REST backend should be the default.\n",
        "• Ran cargo test\n",
        "  │ --all-features\n",
        "  └ test result: ok\n",
        "> Implemented a transport abstraction.\n",
        "› Summarize recent commits\n",
        "  100% context left · ? for shortcuts\n",
    ]
    _, messages = read_lines(lines)
    assert said(messages, "thinking") == ["Maybe the REST backend should be the default."]
    assert said(messages, "user") == ["refactor the database module"]
    assert [check for m in messages for check in m.checks] == ["cargo test --all-features"]


def test_a_page_with_a_user_and_an_assistant_section_once_each_is_no_chat():
    page = (
        "# Message roles\n\nEvery message carries one of three roles.\n\n## User\n\n"
        "Typed by the end user.\n\n## Assistant\n\nWritten by the model.\n\n## Tool\n\n"
        "Results of tool calls.\n"
    )
    assert read_lines(page.splitlines(keepends=True))[0] == "text"
