"""`mem commit`: agent output in, deduplicated and redacted memory out."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest
from extract.claude_sessions import bash_session
from extract.fake_secrets import FAKE_SECRETS

from .helpers import ENTRY_ID, data, ok, snapshot
from conftest import SHARED

SESSION = """I looked into the failing login test.

The root cause was a race between the session write and the redirect.
We decided to use a server-side session store instead of signed cookies because of the size limit.
The user prefers small commits with conventional messages.

```python
# TODO: we decided to remove this helper
def helper(): ...
```

Next steps:
- Add a regression test for the redirect race

SUMMARY: Fixed the login redirect race by moving sessions server-side.
"""


def vault_text(vault):
    return "\n".join(
        path.read_text(encoding="utf-8", errors="replace")
        for path in sorted(vault.rglob("*.md"))
        if ".mem" not in path.parts
    )


def test_commit_stores_each_category_and_a_handoff(mem, vault):
    report = data(mem("commit", "--agent", "dev", "--json", input=SESSION))
    kinds = sorted((entry["category"], entry["kind"]) for entry in report["added"])
    assert kinds == [
        ("decisions", "decision"),
        ("facts", "preference"),
        ("lessons", "lesson"),
        ("tasks", "task"),
    ]
    assert report["handoff"]["body"].startswith("**What:** Fixed the login redirect race")
    assert "Add a regression test" in report["handoff"]["body"]
    assert all(entry["header"]["source"] == "commit" for entry in report["added"])
    text = (vault / "dev" / "decisions.md").read_text()
    assert "server-side session store" in text and "remove this helper" not in vault_text(vault)
    hits = data(mem("search", "redirect race", "--json"))["hits"]
    assert {hit["category"] for hit in hits} >= {"lessons", "handoffs"}


def test_dry_run_stores_nothing_and_says_what_it_would(mem, vault):
    before = snapshot(vault)
    report = data(mem("commit", "--agent", "dev", "--dry-run", "--json", input=SESSION))
    assert report["dry_run"] is True and len(report["added"]) == 4
    assert snapshot(vault) == before


def test_dry_run_says_it_would_write_a_handoff_without_an_id_it_never_made(mem, vault):
    before = snapshot(vault)
    said = ok(mem("commit", "--agent", "dev", "--dry-run", input=SESSION)).stdout.splitlines()
    assert said[0].startswith("would add 4, ")
    assert said[-1] == (
        "would write a handoff: **What:** Fixed the login redirect race by moving sessions "
        "server-side."
    )
    assert not ENTRY_ID.search(ok(mem("commit", "-a", "dev", "--dry-run", input=SESSION)).stdout)
    assert snapshot(vault) == before
    written = ok(mem("commit", "--agent", "dev", input=SESSION)).stdout.splitlines()
    assert re.fullmatch(
        rf"handoff {ENTRY_ID.pattern}: \*\*What:\*\* Fixed the login.*", written[-1]
    )


def test_empty_input_stores_nothing_and_says_so(mem, vault):
    before = snapshot(vault)
    result = ok(mem("commit", "--agent", "dev", input=""))
    assert "nothing to store" in result.stderr
    assert snapshot(vault) == before


def test_input_read_but_holding_no_words_says_what_was_read(mem, vault):
    # An Aider history of commands and start-up banners only: not empty, yet nothing to keep.
    history = (
        "\n# aider chat started at 2025-10-20 21:49:22\n\n"
        "> Aider v0.86.1  \n> Git repo: .git with 360 files  \n\n"
        "#### /add server.py  \n\n> ^C KeyboardInterrupt  \n"
    )
    before = snapshot(vault)
    result = ok(mem("commit", "--agent", "dev", input=history))
    assert re.fullmatch(
        r"nothing to store: \d+ message\(s\) read as aider, none with words in it\n", result.stderr
    )
    assert snapshot(vault) == before


def test_a_terminal_capture_is_read_without_its_colours(mem, vault):
    # As `script` or `tmux pipe-pane` record Claude Code: a header, then colour codes around
    # the glyphs the reader knows the agent by.
    capture = (
        'Script started on 2025-11-02 10:00:01+00:00 [TERM="xterm-256color"]\n'
        "\x1b[1m> fix the login redirect\x1b[0m\n\n"
        "\x1b[38;5;231m⏺\x1b[39m I will look at the router.\n\n"
        "\x1b[38;5;231m⏺\x1b[39m Read(src/router.ts)\n  ⎿  Read 120 lines\n\n"
        "\x1b[38;5;231m⏺\x1b[39m \x1b]8;;file:///src/router.ts\x07The root cause\x1b]8;;\x07 was "
        "that the redirect used a relative path, so Safari dropped the cookie.\n"
    )
    report = data(mem("commit", "--agent", "dev", "--json", input=capture))
    assert report["format"] == "claude-terminal"
    assert [entry["body"] for entry in report["added"]] == [
        "The root cause was that the redirect used a relative path, so Safari dropped the cookie."
    ]


def test_colours_carried_in_a_transcripts_json_strings_are_no_words(mem, vault):
    lines = bash_session(
        "pytest",
        "\x1b[32m3 passed\x1b[0m",
        after="\x1b[1mThe root cause\x1b[0m was a stale lock file in `/tmp/app.lock`, so the "
        "worker never started.",
    )
    report = data(mem("commit", "--agent", "dev", "--json", input="".join(lines)))
    assert "\\u001b" in lines[-1]  # the transcript carries the escape as JSON does
    bodies = [entry["body"] for entry in report["added"]]
    assert (
        "The root cause was a stale lock file in `/tmp/app.lock`, so the worker never started."
        in bodies
    )
    assert not any("[1m" in body or "[0m" in body for body in bodies)


def test_a_gemini_chat_shared_as_markdown_stores_what_the_person_and_model_said(mem, vault):
    chat = (
        "## USER 🧑\u200d💻\n\nThis is the Gemini CLI. We are setting up the context for our "
        "chat.\nReminder: Do not return an empty response when a tool call is required.\n\n"
        "---\n\n## USER 🧑\u200d💻\n\nBuild the reservation API. Never use Jest in this "
        "project.\n\n---\n\n## MODEL ✨\n\nThe overlap check failed because `endTime` was "
        "compared as a string, so 9:00 sorted after 10:00.\n"
    )
    report = data(mem("commit", "--agent", "dev", "--json", "--explain", input=chat))
    assert report["format"] == "gemini-md"
    added = {entry["body"]: entry["why"] for entry in report["added"]}
    assert added["Never use Jest in this project."].startswith("the person's words")
    assert not any("Reminder" in body for body in added)


def test_a_cline_task_export_stores_nothing_its_tools_read(mem, vault):
    task = (
        "**User:**\n\n<task>\nFix the Safari login. We never use relative redirects.\n</task>\n"
        "<environment_details>\n# Current Mode\nACT MODE\n</environment_details>\n\n---\n\n"
        "**Assistant:**\n\n<read_file>\n<path>src/router.ts</path>\n</read_file>\n\n---\n\n"
        "**User:**\n\n[read_file for 'src/router.ts'] Result:\n// We decided to use MySQL "
        "because the ORM needs it.\n\n---\n\n**Assistant:**\n\n<attempt_completion>\n<result>\n"
        "The root cause was a relative redirect, so Safari dropped the cookie.\n</result>\n"
        "</attempt_completion>\n"
    )
    report = data(mem("commit", "--agent", "dev", "--json", "--explain", input=task))
    assert report["format"] == "cline-md"
    added = {entry["body"]: entry["why"] for entry in report["added"]}
    assert added["We never use relative redirects."].startswith("the person's words")
    assert "The root cause was a relative redirect, so Safari dropped the cookie." in added
    assert not any("MySQL" in body for body in added)


def test_tee_copies_stdin_unchanged_and_reports_on_stderr(vault):
    raw = SESSION.encode() + b"\xff\xfe not utf-8 \x00 bytes \x1b[31mred\x1b[0m\n"
    completed = subprocess.run(
        [sys.executable, "-m", "mem", "--vault", str(vault), "commit", "--agent", "dev", "--tee"],
        input=raw,
        capture_output=True,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    assert completed.stdout == raw
    assert b"added 4" in completed.stderr


def test_the_recall_block_is_never_stored_again(mem, vault):
    output = (
        '<mem-recall agent="dev" tokens="40" budget="2000">\n'
        "## Relevant decisions\nWe decided to use MySQL for everything.\n</mem-recall>\n"
        "We decided to keep Postgres for the billing service.\n"
    )
    report = data(mem("commit", "--agent", "dev", "--json", input=output))
    assert [entry["body"] for entry in report["added"]] == [
        "We decided to keep Postgres for the billing service."
    ]
    assert "MySQL" not in vault_text(vault)


def test_no_secret_reaches_any_file_of_the_vault(mem, vault):
    output = "\n\n".join(
        f"We decided to keep this config for {secret.name}: {secret.text}"
        for secret in FAKE_SECRETS
    )
    result = mem("commit", "--agent", "dev", "--json", input=output)
    assert result.exit_code == 0, result.stderr
    report = json.loads(result.stdout)  # (one fake secret sits in a quoted traceback)
    assert report["redactions"] >= len(FAKE_SECRETS)
    everything = "".join(
        path.read_text(encoding="utf-8", errors="replace")
        for path in vault.rglob("*")
        if path.is_file()
    )
    leaked = [secret.name for secret in FAKE_SECRETS if secret.secret in everything]
    assert leaked == []


def test_a_fact_reinforced_in_three_more_sessions_is_promoted_to_shared(mem, vault):
    fact = "This codebase uses pnpm workspaces for every package."
    # One session sent four times (a hook resends the transcript) is still one session.
    for _ in range(4):
        assert data(mem("commit", "--agent", "dev", "--json", input=fact))["promoted"] == []
    for session in range(2):
        ok(mem("commit", "--agent", "dev", input=f"Session {session} wrapped up.\n\n{fact}"))
    report = data(mem("commit", "--agent", "dev", "--json", input=f"Another day.\n\n{fact}"))
    assert [entry["agent"] for entry in report["promoted"]] == ["_shared"]
    shared = (vault / "_shared" / "facts.md").read_text()
    assert "pnpm workspaces" in shared and "by:dev" in shared


def test_a_fact_confirmed_by_a_second_agent_is_promoted_with_both(mem, vault):
    ok(mem("commit", "--agent", "dev", input="Always run make lint before committing."))
    report = data(
        mem(
            "commit",
            "--agent",
            "qa",
            "--json",
            input="Always run make lint before committing anything.",
        )
    )
    assert len(report["promoted"]) == 1
    assert report["promoted"][0]["header"]["by"] == "dev,qa"


def test_facts_beyond_fifty_go_to_the_archive(mem, vault):
    facts = "\n\n".join(
        f"This codebase uses module{n} for the {word}{n} feature in package{n}."
        for n, word in enumerate(["alpha"] * 55)
    )
    report = data(mem("commit", "--agent", "dev", "--json", input=facts))
    assert len(report["added"]) == 55 and len(report["archived"]) == 5
    assert (vault / "dev" / "facts.md").read_text().count("<!-- id:") == 50
    assert (vault / "dev" / "archive" / "facts.md").read_text().count("<!-- id:") == 5


def test_a_crash_between_archive_and_removal_archives_nothing_twice(mem, vault):
    facts = "\n\n".join(
        f"This codebase uses module{n} for the alpha{n} feature." for n in range(55)
    )
    mem("commit", "--agent", "dev", input=facts)
    hot, archive = vault / "dev" / "facts.md", vault / "dev" / "archive" / "facts.md"
    # The state a crash leaves after the archive write: the five are in both files.
    blocks = archive.read_text().split("<!-- id:")[1:]
    hot.write_text(hot.read_text() + "".join("<!-- id:" + block for block in blocks))
    mem("commit", "--agent", "dev", input="This codebase uses rollup for the bundling step.")
    ids = [
        line.split()[1] for line in archive.read_text().splitlines() if line.startswith("<!-- id:")
    ]
    assert len(ids) == len(set(ids)) == 6
    assert hot.read_text().count("<!-- id:") == 50


def test_eight_commits_at_once_lose_nothing(mem, vault, run_mem):
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "mem", "--vault", str(vault), "commit", "--agent", "dev"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for _ in range(8)
    ]
    for n, proc in enumerate(procs):
        proc.communicate(f"We decided to name queue{n} after service{n} zone{n}.".encode())
        assert proc.returncode == 0
    bodies = (vault / "dev" / "decisions.md").read_text()
    assert all(f"queue{n} after service{n}" in bodies for n in range(8))


@pytest.mark.parametrize("args", [("--format", "yaml"), ("--file", "/nope/missing.txt")])
def test_bad_commit_input_is_one_line(mem, args):
    result = mem("commit", "--agent", "dev", *args, input="x")
    assert result.exit_code in (1, 2)
    assert result.stderr.startswith("mem: ") and "Traceback" not in result.stderr


CLAUDE = SHARED / "formats" / "claude-code"


@pytest.mark.skipif(not CLAUDE.is_dir(), reason="../shared/formats is absent")
@pytest.mark.parametrize(
    "path",
    sorted(CLAUDE.glob("*.jsonl")) + sorted((SHARED / "formats" / "aider").glob("*.md")),
    ids=lambda path: path.name,
)
def test_real_transcripts_commit_without_mining_tool_output(mem, path):
    report = data(mem("commit", "--agent", "real", "--file", str(path), "--json"))
    for entry in report["added"]:
        body = entry["body"]
        assert not body.lstrip().startswith((">", "$", "```", "Traceback")), body
        assert "<mem-recall" not in body


def test_a_secret_in_a_commit_subject_never_reaches_the_handoff(mem, vault):
    secret = "ghp_" + "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z5A"
    output = f"[main 1a2b3c4] rotate GITHUB_TOKEN={secret}\n 1 file changed\nSUMMARY: Rotated the CI token.\n"
    report = data(mem("commit", "--agent", "dev", "--json", input=output))
    assert report["redactions"] >= 1
    assert secret not in vault_text(vault)
    assert "1a2b3c4 rotate" in report["handoff"]["body"]


def claude_pull_request(title: str) -> str:
    """A Claude Code session that opens a pull request with this title."""
    command = f'gh pr create --title "{title}" --body "The cache key now includes the locale."'
    lines = bash_session(command, "https://x/pull/1", prompt="open the PR", after="Opened the PR.")
    return "".join(lines)


def test_a_secret_in_a_pull_requests_title_never_reaches_the_handoff(mem, vault):
    secret = "ghp_" + "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z5A"
    report = data(
        mem("commit", "--agent", "dev", "--json", input=claude_pull_request(f"Rotate {secret}"))
    )
    assert report["redactions"] >= 1
    assert secret not in vault_text(vault)
    assert report["handoff"]["body"].startswith("**What:** Rotate [REDACTED")


def test_half_an_emoji_in_a_pull_requests_title_is_stored_as_a_replacement_character(mem, vault):
    session = claude_pull_request("Fix emoji \ud83d handling")  # JSON can carry half an emoji
    report = data(mem("commit", "--agent", "dev", "--json", input=session))
    assert "Fix emoji \ufffd handling" in report["handoff"]["body"]


def test_json_lines_cut_short_are_refused_not_mined_as_prose(mem, vault, tmp_path):
    cut = tmp_path / "cut.jsonl"
    cut.write_text(
        '{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":'
        '"We decided to use a 302 because browsers cache a 301 forever. Do'
    )
    result = mem("commit", "-a", "dev", "--file", str(cut))
    assert result.exit_code != 0 and result.stdout == ""
    assert result.stderr.startswith("mem: the input is JSON lines that do not parse (cut short?)")
    assert "\n" not in result.stderr.strip()
    assert not (vault / "dev" / "decisions.md").exists()
    assert not (vault / "dev" / "handoffs.md").exists()
    whole = tmp_path / "whole.jsonl"  # the same session with its last line cut: that line goes
    whole.write_text(
        '{"type":"user","message":{"role":"user","content":"Fix the login redirect"}}\n'
        '{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":'
        '"I switched the login redirect in `auth/views.py` to a 302 so browsers stop caching '
        'it."}]}}\n' + cut.read_text()
    )
    ok(mem("commit", "-a", "dev", "--file", str(whole)))
    handoff = (vault / "dev" / "handoffs.md").read_text()
    assert "**What:** I switched the login redirect" in handoff and '"type"' not in handoff
    # A whole JSON array on one line is no cut record: it is read, as text
    ok(mem("commit", "-a", "dev", input='[{"number": 12, "title": "Fix the login loop"}]\n'))
