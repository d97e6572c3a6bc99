"""`mem backfill`: a project's past sessions, found where each agent keeps them, committed once."""

from __future__ import annotations

import json
import os
import re
import shutil
import time
from datetime import UTC, datetime
from pathlib import Path

import pytest

from tests.cli.helpers import ok
from tests.conftest import SHARED

CLAUDE = SHARED / "formats" / "claude-code"
AIDER = SHARED / "formats" / "aider" / "monochromatic.aider.chat.history.md"
LAST_MONTH = datetime(2026, 10, 20, 9, 30, tzinfo=UTC).timestamp()


def needs_formats() -> None:
    if not CLAUDE.is_dir() or not AIDER.is_file():
        pytest.skip("../shared/formats is not beside the repository")


@pytest.fixture
def home(tmp_path: Path) -> Path:
    folder = tmp_path / "home"
    folder.mkdir(exist_ok=True)
    return folder


def env_of(home: Path) -> dict[str, str]:
    return {"HOME": str(home), "CODEX_HOME": "", "CLAUDE_CONFIG_DIR": ""}


def claude_sessions(home: Path, project: Path) -> Path:
    """This project's folder under ~/.claude/projects/, holding the real transcripts."""
    slug = re.sub(r"[^A-Za-z0-9]", "-", str(project.resolve()))
    folder = home / ".claude" / "projects" / slug
    folder.mkdir(parents=True)
    for path in sorted(CLAUDE.glob("*.jsonl")):
        shutil.copy(path, folder / path.name)
    return folder


def rollout(home: Path, name: str, cwd: Path, said: str) -> Path:
    """A Codex session rollout in the documented shape: session_meta first, then items."""
    folder = home / ".codex" / "sessions" / "2026" / "11" / "02"
    folder.mkdir(parents=True, exist_ok=True)
    meta = {"id": name, "timestamp": "2026-11-02T10:00:00Z", "cwd": str(cwd)}
    asked = "Fix the flaky upload test."
    user_item = {"type": "input_text", "text": asked}
    agent_item = {"type": "output_text", "text": said}
    # A rollout has the text twice: as response items and as events (mem reads the events).
    lines = [
        ("session_meta", {**meta, "originator": "codex_cli_rs", "cli_version": "0.150.0"}),
        ("response_item", {"type": "message", "role": "user", "content": [user_item]}),
        ("event_msg", {"type": "user_message", "message": asked}),
        ("response_item", {"type": "message", "role": "assistant", "content": [agent_item]}),
        ("event_msg", {"type": "agent_message", "message": said}),
    ]
    records = [{"timestamp": "2026-11-02T10:00:00Z", "type": t, "payload": p} for t, p in lines]
    path = folder / f"rollout-2026-11-02T10-00-00-{name}.jsonl"
    path.write_text("".join(json.dumps(record) + "\n" for record in records))
    return path


def test_claude_code_sessions_are_committed_once_and_dated_when_they_ran(mem, vault, home):
    needs_formats()
    folder = claude_sessions(home, vault.parent)
    for path in folder.glob("*.jsonl"):
        os.utime(path, (LAST_MONTH, LAST_MONTH))
    everything = ("--since", "all")  # these ran more than 30 days ago
    first = ok(
        mem("backfill", "--from", "claude-code", *everything, "--agent", "dev", env=env_of(home))
    )
    assert "claude-code: 3 session(s)" in first.stdout and "3 handoff(s)" in first.stdout
    handoffs = vault / "dev" / "handoffs.md"
    written = handoffs.read_bytes()
    assert written.count(b"## 2026-10-20T09:30Z") == 3
    again = ok(mem("backfill", *everything, "--agent", "dev", env=env_of(home)))
    assert "0 entries added, 0 reinforced, 0 handoff(s)" in again.stdout
    assert handoffs.read_bytes() == written


def test_codex_rollouts_of_this_project_only(mem, vault, home):
    said = "Decision: we retry uploads three times with backoff because S3 throttles bursts."
    mine = rollout(home, "aaa", vault.parent / "src", said)
    rollout(home, "bbb", home / "elsewhere", "Decision: we use tabs in the other project.")
    listed = ok(mem("backfill", "--from", "codex", "--dry-run", "--json", env=env_of(home)))
    sessions = json.loads(listed.stdout)["sessions"]
    assert [s["path"] for s in sessions] == [str(mine)]
    ok(mem("backfill", "--from", "codex", "--agent", "dev", env=env_of(home)))
    stored = "".join(p.read_text() for p in (vault / "dev").glob("*.md"))
    assert "three times with backoff" in stored and "tabs" not in stored


def test_since_leaves_older_sessions_out(mem, vault, home):
    old = rollout(home, "old", vault.parent, "Decision: the old way, because reasons.")
    rollout(home, "new", vault.parent, "Decision: the new way, because reasons.")
    os.utime(old, (LAST_MONTH, LAST_MONTH))
    listed = ok(mem("backfill", "--since", "7d", "--dry-run", "--json", env=env_of(home)))
    assert [Path(s["path"]).name for s in json.loads(listed.stdout)["sessions"]] == [
        "rollout-2026-11-02T10-00-00-new.jsonl"
    ]


def test_aiders_history_is_committed_once_each_session_dated_when_it_ran(mem, vault, home):
    needs_formats()
    shutil.copy(AIDER, vault.parent / ".aider.chat.history.md")
    run = ("backfill", "--from", "aider", "--since", "all", "--agent", "dev", "--json")
    listed = json.loads(ok(mem(*run, "--dry-run", env=env_of(home))).stdout)["sessions"]
    starts = re.findall(r"^# aider chat started at (\S+ \S+)", AIDER.read_text(), re.MULTILINE)
    assert len(listed) == len(starts) == 19
    local = [datetime.fromisoformat(s["written"]).astimezone() for s in listed]
    assert [f"{moment:%Y-%m-%d %H:%M:%S}" for moment in local] == starts
    first = ok(mem(*run, env=env_of(home)))
    (report,) = json.loads(first.stdout)["sources"]
    assert report["source"] == "aider" and report["sessions"] == 19 and report["added"] > 0
    assert report["handoffs"] > 1  # the sessions that did something, each its own
    handoffs = (vault / "dev" / "handoffs.md").read_text()
    assert "## 2025-06-" in handoffs and "## 2026-" not in handoffs  # dated when they ran
    again = ok(mem(*run, env=env_of(home)))
    assert json.loads(again.stdout)["sources"][0]["added"] == 0


def test_by_default_only_the_last_30_days_are_committed(mem, vault, home):
    old = rollout(home, "old", vault.parent, "Decision: the old way, because reasons.")
    rollout(home, "new", vault.parent, "Decision: the new way, because reasons.")
    os.utime(old, (time.time() - 40 * 86400,) * 2)
    listed = ok(mem("backfill", "--dry-run", "--json", env=env_of(home)))
    assert [Path(s["path"]).name for s in json.loads(listed.stdout)["sessions"]] == [
        "rollout-2026-11-02T10-00-00-new.jsonl"
    ]
    every = ok(mem("backfill", "--since", "all", "--dry-run", "--json", env=env_of(home)))
    assert len(json.loads(every.stdout)["sessions"]) == 2


def test_nothing_found_says_so_and_a_bad_source_is_a_one_line_error(mem, home):
    empty = ok(mem("backfill", env=env_of(home)))
    assert "no past sessions of this project found" in empty.stdout
    bad = mem("backfill", "--from", "cursor", env=env_of(home))
    assert bad.exit_code == 2 and bad.stderr.count("\n") == 1 and "unknown source" in bad.stderr


def test_install_offers_the_backfill(mem, vault, home):
    needs_formats()
    folder = claude_sessions(home, vault.parent)
    old = min(folder.glob("*.jsonl"))
    os.utime(old, (time.time() - 40 * 86400,) * 2)  # what `mem backfill` leaves by default
    installed = ok(mem("install", "claude-code", "--agent", "dev", env=env_of(home)))
    assert "2 claude-code session(s) of this project from the last 30d found" in installed.stderr
    assert "mem backfill --from claude-code --agent dev" in installed.stderr
    assert "--since all takes older ones too" in installed.stderr


def test_gemini_sessions_are_found_by_their_project_root_file(mem, vault, home):
    said = "We decided to pin numpy below 2 because the wheels for Alpine are missing."
    records = [
        {"sessionId": "g-1", "projectHash": "ab", "startTime": "2026-11-20T10:00:00Z"},
        {"id": "u1", "type": "user", "content": [{"text": "Why does the build fail?"}]},
        {"id": "g1", "type": "gemini", "content": said},
    ]
    for slug, root in (("proj", vault.parent), ("other", home / "other")):
        folder = home / ".gemini" / "tmp" / slug
        (folder / "chats").mkdir(parents=True)
        (folder / ".project_root").write_text(str(root.resolve()))
        chat = folder / "chats" / "session-2026-11-20T10-00-g1.jsonl"
        chat.write_text("".join(json.dumps(r) + "\n" for r in records))
    done = ok(mem("backfill", "--from", "gemini", "--agent", "dev", env=env_of(home)))
    assert "gemini: 1 session(s), 1 entries added" in done.stdout
    decisions = (vault / "dev" / "decisions.md").read_text(encoding="utf-8")
    assert "pin numpy below 2" in decisions
