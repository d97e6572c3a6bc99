"""`mem handoff`, `mem checkpoint` and `mem roster`: session state between sessions and agents."""

from __future__ import annotations

import json

from .helpers import data, entry_block, error_payload, failed, messages, ok, write_category_file


def test_a_handoff_from_flags_is_a_structured_entry(mem, vault):
    result = ok(
        mem(
            "handoff",
            "--what",
            "Fixed the login redirect",
            "--decision",
            "Sessions live server-side",
            "--changed",
            "/home/me/app/src/auth/session.py",
            "--commit",
            "4f2a9c1 Fix redirect race",
            "--unfinished",
            "The e2e test",
            "--next",
            "Document SESSION_BACKEND",
            "--next",
            "Ask QA for a pass",
            "-a",
            "dev",
            input="",
        )
    )
    assert messages(result.stderr) == ["handoff written to dev/handoffs.md"]
    shown = ok(mem("handoff", "show", "-a", "dev")).stdout
    assert shown == (
        "**What:** Fixed the login redirect\n\n"
        "**Decisions:**\n- Sessions live server-side\n\n"
        "**Files changed:**\n- /home/me/app/src/auth/session.py\n\n"
        "**Commits:**\n- 4f2a9c1 Fix redirect race\n\n"
        "**Unfinished:**\n- The e2e test\n\n"
        "**Next:**\n- Document SESSION_BACKEND\n- Ask QA for a pass\n"
    )
    text = (vault / "dev" / "handoffs.md").read_text()
    assert "kind:handoff source:handoff" in text


def test_a_handoff_from_stdin_is_kept_as_written_with_secrets_redacted(mem, vault):
    summary = (
        "Rotated the deploy key.\nThe old one was ghp_abcdefghijklmnopqrstuvwxyz0123456789AB\n"
    )
    payload = data(mem("handoff", "--json", input=summary))
    assert payload["redactions"] == 1
    body = payload["entry"]["body"]
    assert body.startswith("Rotated the deploy key.") and "ghp_" not in body
    assert "ghp_abcdef" not in (vault / "main" / "handoffs.md").read_text()


def test_a_handoff_to_another_agent_lands_in_its_handoffs(mem, vault):
    ok(mem("handoff", "--what", "API ready for testing", "--to", "qa", "-a", "dev", input=""))
    shown = data(mem("handoff", "show", "-a", "qa", "--json"))["entry"]
    assert shown["agent"] == "qa" and shown["body"] == "**What:** API ready for testing"
    assert shown["header"]["from"] == "dev"
    assert "from dev" in ok(mem("recall", "-a", "qa")).stdout
    assert data(mem("handoff", "show", "-a", "dev", "--json"))["entry"] is None


def test_a_handoff_to_an_agent_without_a_folder_says_it_made_one(mem, vault):
    mem("add", "QA prefers pytest.", "-c", "facts", "-a", "qa")
    first = ok(mem("handoff", "--what", "API ready", "--to", "reviewr", "-a", "dev", input=""))
    assert "reviewr is a new agent: created reviewr/ (agents so far: qa)" in first.stderr
    again = ok(mem("handoff", "--what", "API ready", "--to", "reviewr", "-a", "dev", input=""))
    assert "new agent" not in again.stderr
    known = ok(mem("handoff", "--what", "API ready", "--to", "qa", "-a", "dev", input=""))
    assert "new agent" not in known.stderr


def test_handoff_show_prints_the_newest(mem, vault):
    mem("handoff", "--what", "First session", input="")
    mem("handoff", "--what", "Second session", input="")
    shown = ok(mem("handoff", "show"))
    assert shown.stdout == "**What:** Second session\n"
    assert messages(shown.stderr)[0].startswith("main/handoffs.md:6 (")


def test_bad_handoffs_are_refused_and_nothing_is_written(mem, vault):
    error_payload(mem("handoff", "--json", input=""), 2, "invalid_input")
    assert "agent" in failed(mem("handoff", "--what", "done", "--to", "../etc", input=""), 2)
    assert not (vault / "main" / "handoffs.md").exists()
    assert ok(mem("handoff", "show")).stderr.strip().endswith("no handoff yet")


def test_checkpoint_save_show_and_clear(mem, vault):
    ok(mem("checkpoint", "--task", "migrate sessions", "--what", "half the tables", "-a", "dev"))
    shown = data(mem("checkpoint", "show", "-a", "dev", "--json"))["checkpoint"]
    assert shown["status"] == "active" and shown["task"] == "migrate sessions"
    assert shown["what"] == "half the tables"
    path = vault / ".mem" / "state" / "dev" / "checkpoint.json"
    assert json.loads(path.read_text())["what"] == "half the tables"
    assert not list(path.parent.glob("*.tmp"))
    assert data(mem("checkpoint", "clear", "-a", "dev", "--json")) == {
        "schema_version": 1,
        "cleared": True,
    }
    assert data(mem("checkpoint", "show", "-a", "dev", "--json"))["checkpoint"] is None
    assert "nothing to checkpoint" in failed(mem("checkpoint", "-a", "dev"), 2)


def test_a_handoff_clears_the_checkpoint(mem, vault):
    ok(mem("checkpoint", "--what", "in the middle of it"))
    ok(mem("handoff", "--what", "done with it", input=""))
    assert data(mem("checkpoint", "show", "--json"))["checkpoint"] is None


def test_a_damaged_checkpoint_reads_as_none(mem, vault):
    path = vault / ".mem" / "state" / "main" / "checkpoint.json"
    path.parent.mkdir(parents=True)
    path.write_text("{not json")
    assert data(mem("checkpoint", "show", "--json"))["checkpoint"] is None
    assert "## Recovering" not in ok(mem("recall")).stdout


def test_roster_has_one_line_per_agent(mem, vault):
    mem(
        "handoff",
        "--what",
        "Built the payments webhook " + "with many details " * 20,
        "-a",
        "dev",
        input="",
    )
    mem("add", "QA prefers pytest.", "-c", "facts", "-a", "qa")
    lines = ok(mem("roster")).stdout.splitlines()
    assert len(lines) == 2
    assert lines[0].startswith("dev ") and "Built the payments webhook" in lines[0]
    assert len(lines[0]) < 150 and lines[0].endswith("…")
    assert lines[1].startswith("qa ") and "no handoff yet" in lines[1]
    payload = data(mem("roster", "--json"))
    assert [row["agent"] for row in payload["agents"]] == ["dev", "qa"]
    assert payload["agents"][1] == {"agent": "qa", "when": None, "what": ""}


def test_a_commit_that_writes_a_handoff_clears_the_checkpoint(mem, vault):
    ok(mem("checkpoint", "--what", "in the middle of it", "-a", "dev"))
    ok(mem("commit", "-a", "dev", "--dry-run", input="Fixed the flaky login test at last."))
    assert data(mem("checkpoint", "show", "-a", "dev", "--json"))["checkpoint"] is not None
    ok(mem("commit", "-a", "dev", input="Fixed the flaky login test at last."))
    assert data(mem("checkpoint", "show", "-a", "dev", "--json"))["checkpoint"] is None


def test_the_roster_credits_a_handoff_to_the_agent_that_sent_it(mem, vault):
    ok(mem("handoff", "--what", "API ready for testing", "--to", "qa", "-a", "dev", input=""))
    ok(mem("handoff", "--what", "Wrote the load tests", "-a", "qa", input=""))
    rows = {row["agent"]: row["what"] for row in data(mem("roster", "--json"))["agents"]}
    assert rows == {"dev": "API ready for testing", "qa": "Wrote the load tests"}


def handed(count: int, what: str, **header: str) -> list[str]:
    """`count` handoffs, the newest first, all on 2026-11-02 (after 2026-03-16)."""
    return [
        entry_block(f"h{n:04d}", f"2026-11-02T10:{n:02d}Z", f"**What:** {what} {n}", **header)
        for n in reversed(range(count))
    ]


def test_the_roster_finds_an_agents_own_handoff_under_many_it_received(mem, vault):
    # Written by hand in the older form (a numeric id, a date with no zone), under 20 newer
    # handoffs dev sent to qa: once "qa  no handoff yet".
    own = entry_block("1773679871839", "2026-03-16T16:51", "Tested the release candidate.")
    sent = handed(20, "dev asks qa", kind="handoff", **{"from": "dev"})
    write_category_file(vault, "qa/handoffs.md", "qa", "handoffs", *sent, own)
    rows = {row["agent"]: row for row in data(mem("roster", "--json"))["agents"]}
    assert rows["qa"] == {
        "agent": "qa",
        "when": "2026-03-16T16:51:00Z",
        "what": "Tested the release candidate.",
    }
    assert rows["dev"]["what"] == "dev asks qa 19"
    assert "qa   2026-03-16 16:51Z  Tested the release candidate." in ok(mem("roster")).stdout


def test_the_roster_finds_a_handoff_an_agent_sent_long_ago(mem, vault):
    sent = entry_block("q0001", "2026-03-16T16:51Z", "**What:** Keys rotated.", **{"from": "ops"})
    write_category_file(vault, "dev/handoffs.md", "dev", "handoffs", *handed(20, "dev"), sent)
    ok(mem("add", "Ops prefers Terraform.", "-c", "facts", "-a", "ops"))
    rows = {row["agent"]: row["what"] for row in data(mem("roster", "--json"))["agents"]}
    assert rows == {"dev": "dev 19", "ops": "Keys rotated."}
