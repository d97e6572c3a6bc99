"""The commands a session checks its work with (tests, linters, builds) are how the next
session runs them: read from the shell calls that succeeded, in every format that records
them, and kept as one fact per session."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mem.extract import formats
from mem.extract.capture import CHECKS_WHY, Capture
from mem.extract.checks import check_commands, kind_of
from mem.extract.formats import Message


@pytest.mark.parametrize(
    ("command", "checks"),
    [
        ("cd /repo && mise run test 2>&1 | tail -50", ("mise run test",)),
        ("uv run pytest -q", ("uv run pytest -q",)),
        ("npm run build && npm run lint", ("npm run build", "npm run lint")),
        ("CI=1 API_TOKEN=abc npm test", ("npm test",)),
        ("timeout 300 cargo clippy -- -D warnings", ("cargo clippy -- -D warnings",)),
        ('echo "a && b"; make check', ("make check",)),
        ("npm test || true", ("npm test",)),
        ("bash -lc 'pytest -q'", ("pytest -q",)),
        ("make test &> out.log", ("make test",)),
        ("npm run build & sleep 2", ("npm run build",)),
        (
            "pytest tests/integration/test_e2e.py -n 6",
            ("pytest tests/integration/test_e2e.py -n 6",),
        ),
        # reading, searching, asking: a check word is their argument
        ("grep -r test .", ()),
        ("cat tests/app.py", ()),
        ("git diff --check", ()),
        ("gh pr checks 12", ()),
        ("command -v golangci-lint", ()),
        ("test -f setup.cfg && echo yes", ()),
        ("docker-compose up --build", ()),
        ("npm ci", ()),
        # one-off runs: one test by name, this machine's paths, scripts
        ("go test ./internal/gitproto/ -run 'TestEmptyPack|TestRefs' -v", ()),
        ("pytest tests/test_app.py::test_login", ()),
        ('uv run pytest -k "login or logout"', ()),
        ("go test -c ./pkg/osutil -o /tmp/osutil.test", ()),
        ("for f in tests/*; do pytest $f; done\nexit 0", ()),
        ("for f in tests/*; do pytest $f; done", ()),
        ("if true; then pytest; fi", ()),
        ("(cd web && npm test)", ()),
        ("bash -c 'pytest' || echo 'failed'", ()),
        ("pytest -q # note && x", ("pytest -q",)),
        # settings are dropped whole, quoted or not: a secret in one never reaches the vault
        ('AUTH="Bearer abcdef1234567890abcdef" npm test', ("npm test",)),
        ('PASSWORD="my secret pass" pytest -q', ("pytest -q",)),
        # a check word as the argument of something else, setting up, asking, watching
        ("mysql -psecret test", ()),
        ("psql test", ()),
        ("kubectl logs test", ()),
        ("pkill -f test", ()),
        ("docker build .", ()),
        ("python -c 'print(\"test\")'", ()),
        ("pip install black", ()),
        ("npm install --save-dev jest", ()),
        ("pytest --version", ()),
        ("tsc --watch", ()),
        ("yarn test --watch", ()),
        # how projects run their checks
        ("python -m pytest", ("python -m pytest",)),
        ("python manage.py test", ("python manage.py test",)),
        ("./scripts/test.sh", ("./scripts/test.sh",)),
        ("npm run test:unit", ("npm run test:unit",)),
        ("go vet ./...", ("go vet ./...",)),
        # Windows: backslashes are paths, the command stays as written
        (
            r'cd "D:\work\bsc" && .\venv\Scripts\python.exe -m pytest tests/e2e -n 6',
            (r".\venv\Scripts\python.exe -m pytest tests/e2e -n 6",),
        ),
    ],
)
def test_a_shell_command_is_read_for_the_checks_it_runs(command, checks):
    assert check_commands(command) == checks


@pytest.mark.parametrize(
    ("check", "kind"),
    [
        ("mise run test", "Tests"),
        ("uv run ruff check src/", "Lint"),
        ("ruff format --check src", "Format"),
        ("npx tsc --noEmit", "Type check"),
        ("go build ./...", "Build"),
        ("make check", "Checks"),
        ("./scripts/test.sh", "Tests"),
    ],
)
def test_a_check_is_labelled_by_what_it_checks(check, kind):
    assert kind_of(check) == kind


def claude_call(number: int, command: str, failed: bool = False) -> list[str]:
    call = {"type": "tool_use", "id": f"t{number}", "name": "Bash", "input": {"command": command}}
    result = {"type": "tool_result", "tool_use_id": f"t{number}", "content": "ok"}
    if failed:
        result["is_error"] = True
    return [
        json.dumps({"type": "assistant", "message": {"id": f"m{number}", "content": [call]}}),
        json.dumps({"type": "user", "message": {"role": "user", "content": [result]}}),
    ]


def checks_read(fmt: str, lines: list[str]) -> list[str]:
    return [check for message in formats.read(fmt, lines) for check in message.checks]


def test_claude_code_checks_are_the_bash_calls_that_succeeded():
    lines = [json.dumps({"type": "user", "sessionId": "s", "message": {"content": "fix it"}})]
    lines += claude_call(1, "cd /w && mise run test 2>&1 | tail -40", failed=True)
    lines += claude_call(2, "mise run test")
    lines += claude_call(3, "mise run lint")
    lines += claude_call(4, "git status --short")
    assert checks_read("claude-jsonl", lines) == ["mise run test", "mise run lint"]


def test_codex_checks_come_from_shell_calls_whose_output_says_they_exited_with_zero():
    def call(number: int, cmd: str, output: str) -> list[str]:
        arguments = json.dumps({"cmd": cmd, "workdir": "/w"})
        calling = {"type": "function_call", "name": "exec_command", "arguments": arguments}
        returned = {"type": "function_call_output", "call_id": f"c{number}", "output": output}
        return [
            json.dumps({"type": "response_item", "payload": {**calling, "call_id": f"c{number}"}}),
            json.dumps({"type": "response_item", "payload": returned}),
        ]

    lines = [json.dumps({"type": "session_meta", "payload": {"id": "s", "cwd": "/w"}})]
    lines += call(1, "go test ./...", "Chunk ID: 1\nProcess exited with code 0\nOutput:\nok")
    lines += call(2, "go vet ./...", "Chunk ID: 2\nProcess exited with code 1\nOutput:\nbad")
    lines += call(3, "make lint", "Process running with session ID 7")  # not done yet
    exec_event = {
        "type": "item.completed",
        "item": {
            "id": "4",
            "type": "command_execution",
            "command": ["bash", "-lc", "cargo test"],
            "exit_code": 0,
            "status": "completed",
        },
    }
    lines.append(json.dumps(exec_event))
    assert checks_read("codex-jsonl", lines) == ["go test ./...", "cargo test"]


def test_gemini_copilot_and_terminal_checks_are_read_too():
    gemini = [
        json.dumps({"sessionId": "g", "projectHash": "p", "startTime": "2026-11-20T10:00:00Z"}),
        json.dumps(
            {
                "id": "g1",
                "type": "gemini",
                "content": "Ran the tests.",
                "toolCalls": [
                    {"name": "run_shell_command", "args": {"command": "npm test"}},
                    {
                        "name": "run_shell_command",
                        "args": {"command": "npm run lint"},
                        "status": "error",
                    },
                ],
            }
        ),
    ]
    assert checks_read("gemini-jsonl", gemini) == ["npm test"]
    request = {"toolCallId": "k1", "name": "bash", "arguments": {"command": "make lint"}}
    copilot = [
        json.dumps({"type": "session.start", "data": {"sessionId": "c"}}),
        json.dumps(
            {"type": "assistant.message", "data": {"content": "", "toolRequests": [request]}}
        ),
        json.dumps(
            {"type": "tool.execution_complete", "data": {"toolCallId": "k1", "success": True}}
        ),
    ]
    assert checks_read("copilot-jsonl", copilot) == ["make lint"]
    terminal = ["> fix the build\n", "⏺ Bash(npm run build)\n", "  ⎿  built in 2s\n", "⏺ Done.\n"]
    assert checks_read("claude-terminal", terminal) == ["npm run build"]


def test_a_sessions_checks_are_facts_at_its_end_the_most_general_said_once_each():
    capture = Capture()
    found = []
    for message in [
        Message("user", "fix the flaky login test"),
        Message("assistant", checks=("mise run test",)),
        Message("assistant", checks=("mise run lint", "mise run test")),
        Message("assistant", checks=("mise run test -- tests/login_test.go",)),
        Message("assistant", checks=("mise run lint --fix", "mise run build")),
        Message("assistant", "The login test waited on a fixed sleep; it now polls."),
    ]:
        found += capture.mine(message, message.text)
    facts = [(c.category, c.text) for c in found + capture.finish() if c.why == CHECKS_WHY]
    assert facts == [  # the four most general, in the order they were run
        ("facts", "Tests: `mise run test`"),
        ("facts", "Lint: `mise run lint`"),
        ("facts", "Lint: `mise run lint --fix`"),
        ("facts", "Build: `mise run build`"),
    ]
    assert Capture().finish() == []  # no checks run: no such fact


def checks_kept(runs: list[tuple[str, ...]]) -> list[str]:
    capture = Capture()
    for checks in runs:
        capture.mine(Message("assistant", checks=checks), "")
    return [c.text for c in capture.finish() if c.why == CHECKS_WHY]


def test_a_toolchains_own_command_is_kept_only_when_the_project_shows_no_script_of_its_own():
    runs = [("go build ./...",), ("make lint",), ("go test ./...", "python -m pytest -q")]
    assert checks_kept(runs) == ["Lint: `make lint`", "Tests: `python -m pytest -q`"]
    assert checks_kept([("go build ./...", "go test ./...")]) == [
        "Build: `go build ./...`",
        "Tests: `go test ./...`",
    ]
    assert checks_kept([("cargo clippy",), ("npx tsc --noEmit",)]) == [
        "Type check: `npx tsc --noEmit`"
    ]


def test_a_failed_or_declined_call_checked_nothing():
    span = {
        "name": "tool",
        "trace_id": "t",
        "span_id": "s1",
        "status": {"code": 2},
        "attributes": {"coding_agent.tool.command": "npm test"},
    }
    passed = {**span, "span_id": "s2", "status": "STATUS_CODE_UNSET"}
    passed["attributes"] = {"coding_agent.tool.command": "npm run lint"}
    assert checks_read("otel-spans", [json.dumps(span), json.dumps(passed)]) == ["npm run lint"]
    declined = {"type": "CommandExecution", "command": "cargo test", "status": "declined"}
    lines = [
        json.dumps({"type": "session_meta", "payload": {"id": "s", "cwd": "/w"}}),
        json.dumps({"type": "event_msg", "payload": {"type": "item_completed", "item": declined}}),
    ]
    assert checks_read("codex-jsonl", lines) == []


SHELLISH = st.text(alphabet="ab test lint npm go pytest -=&|;<>()'\"\\#$`{}\n/.:", max_size=80)


@settings(max_examples=300, deadline=None, database=None)
@given(st.one_of(SHELLISH, st.text(max_size=120)))
def test_any_command_line_gives_checks_to_run_again_or_none_never_an_error(command):
    for check in check_commands(command):
        assert check.strip() == check and check
        assert "\n" not in check and "`" not in check and len(check) <= 80
        assert kind_of(check) in ("Tests", "Type check", "Format", "Lint", "Build", "Checks")


def test_chats_exported_as_markdown_give_the_checks_of_their_terminal_tool_blocks():
    cursor = [
        "_**User**_\n",
        "\n",
        "run the tests\n",
        "\n",
        "---\n",
        "\n",
        "_**Assistant**_\n",
        "\n",
        "Tool use: **run_terminal_cmd**\n",
        "\n",
        "```bash\n",
        "cd /w && uv run pytest -q\n",
        "```\n",
        "\n",
        "---\n",
        "\n",
        "All pass.\n",
    ]
    assert checks_read("markdown-chat", cursor) == ["uv run pytest -q"]
    copilot = [
        "_**User**_\n",
        "\n",
        "lint it\n",
        "\n",
        "---\n",
        "\n",
        "_**Assistant**_\n",
        "\n",
        '<tool-use data-tool-type="terminal" data-tool-name="run_in_terminal">\n',
        "<details><summary>Run in terminal</summary>\n",
        "\n",
        "```bash\n",
        "pnpm lint\n",
        "```\n",
        "</details>\n",
        "</tool-use>\n",
        "\n",
        "Clean.\n",
    ]
    assert checks_read("markdown-chat", copilot) == ["pnpm lint"]


def test_a_projects_own_script_run_through_a_toolchain_is_no_default():
    runs = [("python manage.py test",), ("deno task check",), ("mix check",), ("ruff check .",)]
    assert checks_kept(runs) == [
        "Tests: `python manage.py test`",
        "Checks: `deno task check`",
        "Checks: `mix check`",
        "Lint: `ruff check .`",
    ]


def test_a_log_with_no_request_and_no_commit_holds_only_the_latest_candidates():
    # Every candidate of a runaway log was held until a commit that never came: memory grew
    # with the input. Only the latest can still be taken back with the commit they lead to.
    from mem.model import MAX_COMMIT_CANDIDATES

    capture = Capture()
    for n in range(MAX_COMMIT_CANDIDATES + 200):
        text = f"We decided to use library{n} for the parser{n} because it streams its input."
        capture.mine(Message("assistant", text), text)
    assert 0 < len(capture.since_commit) <= MAX_COMMIT_CANDIDATES
    # The last message waits for the next to know whether it was the report.
    assert f"library{MAX_COMMIT_CANDIDATES + 198} " in capture.since_commit[-1].text
