"""What the agent posted for other people in a shell call (a pull request's description, an
issue, a comment) is read from the command, once the call succeeded, and mined as a note."""

from __future__ import annotations

import json

import pytest

from extract.claude_sessions import bash_session
from mem.extract import formats
from mem.extract.capture import Capture
from mem.extract.formats import Message
from mem.extract.posted import posted
from mem.extract.summary import SessionSummary

PR_HEREDOC = (
    'git push -u origin fix/cold-start && gh pr create --title "fix: raise on cold start" '
    "--body \"$(cat <<'EOF'\n"
    "## Root cause\n\n"
    "The cold-start guard returned `{}` on any failure, and the coordinator records any\n"
    "returned value as a successful update, so the lock looked recovered while unreachable.\n\n"
    "## Type of change\n\n"
    "- [x] Bugfix\n"
    "- [ ] New feature (which adds functionality)\n"
    "- [ ] Breaking change (fix causing existing functionality to break)\n\n"
    "🤖 Generated with [Claude Code](https://claude.com/claude-code)\n"
    "EOF\n"
    ')"'
)


@pytest.mark.parametrize(
    ("command", "text"),
    [
        (
            (
                'gh issue create --title "Flaky upload" --body "Uploads fail on retry because the '
                'token expires." --label bug'
            ),
            "Uploads fail on retry because the token expires.",
        ),
        (
            'gh pr comment 12 --body="Rebased on main; CI is green."',
            "Rebased on main; CI is green.",
        ),
        (
            'gh pr create -t "Fix" -b "The parser dropped the last token."',
            "The parser dropped the last token.",
        ),
        (
            (
                'gh pr create --base main --title "Fix deploy" --body "The \\`migrate\\` job ran '
                '\\`uvicorn\\` instead of Alembic."'
            ),
            "The `migrate` job ran `uvicorn` instead of Alembic.",
        ),
        # `-m` is `gh pr create`'s milestone, `-d` its draft flag: neither is the text.
        ('gh pr create -m "Week 7" -d --title "Fix"', ""),
        ('glab mr create --title "Fix" --description "Pins pnpm to 9."', "Pins pnpm to 9."),
        ("gh release create v1.2.0 --notes 'Drops Python 3.9.'", "Drops Python 3.9."),
        (
            "gh pr create --title Fix --body-file - <<'EOF'\nThe cache outlived the session.\nEOF",
            "The cache outlived the session.",
        ),
        (
            (
                "BODY=$(cat <<'EOF'\nThe index is rebuilt on start.\nEOF\n)\n"
                'gh pr create --title "Rebuild" --body "$BODY"'
            ),
            "The index is rebuilt on start.",
        ),
        (
            (
                "$c = @'\nClaude leg still open - needs a Claude Code session.\n'@\n"
                "gh issue comment 47 --body $c"
            ),
            "Claude leg still open - needs a Claude Code session.",
        ),
        (
            "bash -lc 'gh issue close 3 --comment \"Fixed by pinning pnpm.\"'",
            "Fixed by pinning pnpm.",
        ),
        ('gh pr view 12 --json body && echo "--body x"', ""),
        ('gh pr create --body "an unbalanced quote', ""),
        ('gh pr create --body "$UNSET"', ""),
        ("git log --oneline", ""),
        # `gh pr review -c` says the review is a comment; glab's `-m` on create is a milestone
        (
            'gh pr review 12 --comment -b "The cache key ignores the locale."',
            "The cache key ignores the locale.",
        ),
        (
            'glab mr create -t "Fix" -m "v1.2" -d "The key ignored the locale."',
            "The key ignored the locale.",
        ),
        ('glab mr note 4 -m "Rebased on main."', "Rebased on main."),
        # each command of the script is its own: a post, then another program's here-document
        (
            "gh issue close 5 && git commit -m \"$(cat <<'EOF'\nFix crash\n\nInternal note\nEOF\n)\"",
            "",
        ),
        (
            'gh issue create --title A --body "First." && gh pr comment 3 --body "Second."',
            "First.\n\nSecond.",
        ),
        ("gh pr create --title T --fill\ngit log -1 -b x", ""),
        # a gh command written into a file, or named in a commit message, posts nothing
        (
            'cat > release.sh <<\'EOF\'\ngh release create "$TAG" --notes "Automated"\nEOF\nchmod +x release.sh',
            "",
        ),
        ("git commit -F - <<'EOF'\nDocs: gh pr create --title \"Oops\" example\nEOF", ""),
        (
            'git commit -m "docs: gh pr comment --body usage" -m "We call gh pr comment --body now."',
            "",
        ),
        # what the shell would compute cannot be read
        ('gh pr create --title T --body "$(cat pr.md)"', ""),
        # a later line the quoting of which is unbalanced takes nothing from the post
        (
            "gh pr create --title T --body \"The fix.\"\ncat <<'EOF' > NOTES.md\nIt's done\nEOF",
            "The fix.",
        ),
        # a line of the body that only starts with the delimiter does not end it
        (
            "gh pr create -t T --body \"$(cat <<'EOF'\nFirst line\nEOF handling was the bug\nEOF\n)\"",
            "First line\nEOF handling was the bug",
        ),
        # variables as PowerShell and bash set them
        (
            '$Body = "Guards stay silent under Copilot."\ngh issue comment 47 --body $body',
            "Guards stay silent under Copilot.",
        ),
        (
            "read -r -d '' BODY <<'EOF'\nThe cache outlived the session.\nEOF\ngh pr create -t T -b \"$BODY\"",
            "The cache outlived the session.",
        ),
        (
            "cd repo && BODY=$(cat <<'EOF'\nPinned pnpm to 9.\nEOF\n)\ngh pr create -t T -b \"$BODY\"",
            "Pinned pnpm to 9.",
        ),
        ('BODY="old"\nBODY="new"\ngh pr create -t T -b "$BODY"', "new"),
        # a PowerShell here-string's lines are text, whatever quotes they hold
        (
            (
                "$body = @'\nThe guard's fallback dies; don't | use it.\n'@\n"
                "gh issue create --title T --body $body | Tee-Object -Variable url"
            ),
            "The guard's fallback dies; don't | use it.",
        ),
    ],
)
def test_the_text_a_command_posts_is_read_from_it(command, text):
    assert posted(command)[0] == text


def test_a_pull_requests_heredoc_body_keeps_its_text_without_the_tools_trailer():
    body = posted(PR_HEREDOC)[0]
    assert body.startswith("## Root cause")
    assert "Generated with" not in body
    assert body.endswith("- [ ] Breaking change (fix causing existing functionality to break)")


def claude_session(command: str, result: str, error: bool) -> list[formats.Message]:
    lines = bash_session(command, result, error, prompt="open the PR")
    return list(formats.read(formats.detect(lines), lines))


def mined(messages: list[formats.Message]) -> list:
    capture = Capture()
    return [c for m in messages for c in capture.mine(m, m.text)] + capture.finish()


def test_a_pull_request_the_agent_opened_is_mined_only_once_it_was_opened():
    opened = claude_session(PR_HEREDOC, "https://github.com/o/r/pull/7", False)
    assert [m.role for m in opened if m.role == "posted"] == ["posted"]
    found = [c for c in mined(opened) if c.why.startswith("what the agent posted")]
    assert [c.category for c in found] == ["lessons"]
    assert "records any returned value as a successful update" in found[0].text
    # The options its form leaves unticked are not work to do.
    assert not [c for c in mined(opened) if c.category == "tasks"]
    refused = claude_session(PR_HEREDOC, "pull request create failed: GraphQL error", True)
    assert not [m for m in refused if m.role == "posted"]


def test_a_codex_rollout_gives_a_posted_text_once_though_two_lines_report_the_call():
    command = (
        'gh issue create --title "Flaky" --body "Uploads fail on retry because the token expires."'
    )
    lines = [
        json.dumps({"type": "session_meta", "payload": {"id": "c1"}}),
        json.dumps(
            {
                "type": "response_item",
                "payload": {
                    "type": "function_call",
                    "name": "shell",
                    "call_id": "k1",
                    "arguments": json.dumps({"command": ["bash", "-lc", command]}),
                },
            }
        ),
        json.dumps(
            {
                "type": "event_msg",
                "payload": {
                    "type": "exec_command_end",
                    "call_id": "k1",
                    "command": ["bash", "-lc", command],
                    "exit_code": 0,
                },
            }
        ),
        json.dumps(
            {
                "type": "response_item",
                "payload": {
                    "type": "function_call_output",
                    "call_id": "k1",
                    "output": json.dumps(
                        {"output": "https://github.com/o/r/issues/9", "metadata": {"exit_code": 0}}
                    ),
                },
            }
        ),
    ]
    messages = list(formats.read(formats.detect(lines), lines))
    assert [m.text for m in messages if m.role == "posted"] == [
        "Uploads fail on retry because the token expires."
    ]


def test_a_copilot_session_gives_what_a_successful_call_posted():
    command = 'gh pr comment 3 --body "The flake came from a shared temp dir, so each test gets its own now."'

    def session(success: bool) -> list[formats.Message]:
        lines = [
            json.dumps({"type": "session.start", "data": {"sessionId": "p1"}}),
            json.dumps(
                {
                    "type": "tool.execution_start",
                    "data": {
                        "toolCallId": "c1",
                        "toolName": "bash",
                        "arguments": {"command": command},
                    },
                }
            ),
            json.dumps(
                {
                    "type": "tool.execution_complete",
                    "data": {"toolCallId": "c1", "success": success},
                }
            ),
        ]
        return list(formats.read(formats.detect(lines), lines))

    assert [m.role for m in session(True) if m.role == "posted"] == ["posted"]
    assert not [m for m in session(False) if m.role == "posted"]


def test_a_gemini_session_gives_what_its_shell_calls_that_succeeded_posted():
    def call(body: str, status: str) -> dict:
        command = f'gh issue create --title "Flaky" --body "{body}"'
        return {"name": "run_shell_command", "args": {"command": command}, "status": status}

    lines = [
        json.dumps(
            {"sessionId": "g-1", "projectHash": "ab12", "startTime": "2026-11-20T10:00:00Z"}
        ),
        json.dumps({"id": "u1", "type": "user", "content": [{"text": "file the bug"}]}),
        json.dumps(
            {
                "id": "g1",
                "type": "gemini",
                "content": [{"text": "Filed."}],
                "toolCalls": [
                    call("The retry reuses an expired token.", "success"),
                    call("A draft that was refused.", "error"),
                ],
            }
        ),
    ]
    messages = list(formats.read(formats.detect(lines), lines))
    assert [m.text for m in messages if m.role == "posted"] == [
        "The retry reuses an expired token."
    ]


@pytest.mark.parametrize(
    ("command", "title"),
    [
        (PR_HEREDOC, "fix: raise on cold start"),
        ('glab mr create -t "Pin pnpm to 9" --description "x"', "Pin pnpm to 9"),
        ("gh pr create --fill", ""),
        ('gh issue create --title "Flaky upload" --body "x"', ""),  # an issue is no work done
        ('TITLE="Fix the cache key"\ngh pr create --title "$TITLE" --body x', "Fix the cache key"),
        ('gh pr create --title "$(git log -1 --format=%s)" --body x', ""),
    ],
)
def test_the_title_of_a_pull_request_a_command_opens_is_read(command, title):
    assert posted(command)[1] == title


def test_the_what_of_a_session_that_opened_a_pull_request_is_its_title():
    summary = SessionSummary()
    summary.take(Message("assistant", commits=("1a2b3c4 ci: bump the runner",)), [])
    summary.take(Message("assistant", "I triggered the Deploy workflow; it built `v5`."), [])
    summary.take(
        formats.post_of('gh pr create --title "fix(deploy): migrate job command" --body x'), []
    )
    summary.take(Message("assistant", "The grant works: the token pushed `v5`."), [])
    assert summary.what == "fix(deploy): migrate job command"


def test_how_a_pull_request_was_tested_is_not_memory():
    body = (
        "## Root cause\n\n"
        "The resolver imports `zod/v4/core` but only declares `react-hook-form` as a peer, so\n"
        "Turbopack cannot resolve it.\n\n"
        "## Test plan\n\n"
        "- `deploy.yml` parses as valid YAML and the workflow is dispatch-only.\n"
        "- Full suite: `1269 passed` on the branch.\n\n"
        "## Notes\n\n"
        "Production was unaffected: the migration gate aborted before any rollout.\n"
    )
    command = f"gh pr create --title T --body-file - <<'EOF'\n{body}EOF"
    found = [c.text for c in mined(claude_session(command, "https://x/pull/1", False))]
    assert any("only declares `react-hook-form` as a peer" in text for text in found)
    assert any("Production was unaffected" in text for text in found)
    assert not [text for text in found if "YAML" in text or "1269" in text]
