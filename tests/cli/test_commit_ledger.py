"""`mem commit` is idempotent: input committed before adds, reinforces and hands off nothing,
and a commit killed halfway is completed by running it again, with nothing counted twice."""

from __future__ import annotations

import json
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from mem.vault import entries as codec
from mem.vault import layout, store

from .helpers import KILL_BEFORE_WRITE, data, ok, snapshot
from conftest import SHARED

SESSION = """I looked into the failing login test.

The root cause was a race between the session write and the redirect.
We decided to use a server-side session store instead of signed cookies because of the size limit.

Next steps:
- Add a regression test for the redirect race

SUMMARY: Fixed the login redirect race by moving sessions server-side.
"""
MORE = """
Turns out the staging proxy strips the SameSite attribute from every cookie.
We chose Redis over Memcached for the session store because it persists across restarts.
"""
TRANSCRIPT = SHARED / "formats" / "claude-code" / "coverage-test-fix.transcript.jsonl"


def memory(vault: Path, shared_counts: bool = True) -> list[tuple[str, str, int]]:
    """Every live entry as (category, body, times reinforced), dates and ids aside. Without
    shared counts, a shared fact's count reads -1: promotion copies the count a fact has when
    promoted, so sessions stored in another order may leave another one there."""
    shared = layout.file_ref("dev", "facts", scope="shared").path
    found = []
    for ref in layout.category_files(vault):
        parsed = codec.parse_ref(store.read_text(vault, ref.path), ref)
        hidden = ref.path == shared and not shared_counts
        found += [
            (e.category, e.body, -1 if hidden else e.reinforced)
            for e in parsed.entries
            if not e.archived
        ]
    return sorted(found)


def test_the_same_input_again_adds_reinforces_and_hands_off_nothing(mem, vault):
    first = data(mem("commit", "--agent", "dev", "--json", input=SESSION))
    assert first["added"] and first["handoff"] is not None
    before = snapshot(vault)
    again = data(mem("commit", "--agent", "dev", "--json", input=SESSION))
    assert again["added"] == again["reinforced"] == [] and again["handoff"] is None
    assert again["already_committed"] == again["messages"] > 0
    assert snapshot(vault) == before
    assert "already committed" in ok(mem("commit", "--agent", "dev", input=SESSION)).stderr


def test_input_that_grew_commits_only_what_is_new_and_keeps_one_handoff(mem, vault):
    first = data(mem("commit", "--agent", "dev", "--json", input=SESSION))
    grown = data(mem("commit", "--agent", "dev", "--json", input=SESSION + MORE))
    bodies = sorted(entry["body"] for entry in grown["added"])
    assert len(bodies) == 2 and "SameSite" in bodies[0] and "Redis" in bodies[1]
    assert grown["reinforced"] == []
    # The session's handoff is written again, in place of the first: one handoff, same id.
    assert grown["handoff"]["id"] == first["handoff"]["id"]
    handoffs = [e for e in memory(vault) if e[0] == "handoffs"]
    assert len(handoffs) == 1


def test_the_same_statement_from_another_session_still_reinforces(mem, vault):
    ok(mem("commit", "--agent", "dev", input=SESSION))
    other = "The root cause was a race between the session write and that redirect."
    third = data(mem("commit", "--agent", "dev", "--json", input=other))
    assert third["added"] == [] and third["reinforced"][0]["reinforced"] == 1


@pytest.mark.skipif(not TRANSCRIPT.is_file(), reason="../shared/formats is absent")
def test_a_transcript_sent_again_on_every_turn_is_counted_once(mem, vault):
    lines = TRANSCRIPT.read_text(encoding="utf-8").splitlines(keepends=True)
    half = "".join(lines[: len(lines) // 2])
    ok(mem("commit", "--agent", "dev", input=half))
    whole = data(mem("commit", "--agent", "dev", "--json", input="".join(lines)))
    assert 0 < whole["already_committed"] < whole["messages"]
    stored = memory(vault)
    again = data(mem("commit", "--agent", "dev", "--json", input="".join(lines)))
    assert again["added"] == again["reinforced"] == [] and again["handoff"] is None
    assert memory(vault) == stored
    assert len([e for e in stored if e[0] == "handoffs"]) == 1


# A child that commits stdin at a given moment and kills itself (SIGKILL, as `kill -9` would)
# just before its Nth file sync or rename: every point where a write can be cut short.
COMMIT_CHILD = (
    """
import sys
from datetime import datetime
from mem.config import load_settings
from mem.services.commit import commit

vault, kill_at, moment = sys.argv[1], int(sys.argv[2]), datetime.fromisoformat(sys.argv[3])
"""
    + KILL_BEFORE_WRITE
    + """
commit(load_settings(vault_flag=vault, agent_flag="dev"), sys.stdin.read().splitlines(True), now=moment)
print(calls[0], flush=True)
"""
)
FACT = "Keep in mind that the staging proxy runs nginx 1.25 with default buffers.\n"
SECOND = SESSION + FACT + MORE.replace("Turns out", "It turned out")
GROWN = SECOND + "\nWe pinned nginx to 1.25 because 1.26 changed the buffer defaults.\n"
MOMENT = "2026-03-01T10:00:00.250000+00:00"  # every run in one second: none told by its time


def child(vault: Path, text: str, kill_at: int = 0) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-c", COMMIT_CHILD, str(vault), str(kill_at), MOMENT]
    return subprocess.run(
        command, input=text, capture_output=True, text=True, timeout=60, check=False
    )


@pytest.fixture
def earlier(tmp_path, run_mem) -> Path:
    """A vault holding earlier sessions (their first lines differ): one that SECOND reinforces
    and extends, and a fact SECOND reinforces a third time, which promotes it."""
    base = tmp_path / "base"
    base.mkdir()
    ok(run_mem("init", cwd=base))
    for number, text in enumerate([MORE, FACT, FACT, FACT]):
        assert child(base / ".memory", f"Session {number}.\n{text}").returncode == 0
    return base


def uninterrupted(base: Path, text: str) -> tuple[list[tuple[str, str, int]], int]:
    """What one commit of `text` leaves in a copy of `base`, and how many writes it makes."""
    reference = base.parent / "reference"
    shutil.copytree(base, reference)
    finished = child(reference / ".memory", text)
    assert finished.returncode == 0, finished.stderr
    expected = memory(reference / ".memory")
    assert any(times == 1 for _, _, times in expected), "nothing reinforced: the test is moot"
    assert any(category == "facts" and times == 3 for category, _, times in expected)
    assert layout.file_ref("dev", "facts", scope="shared").path in snapshot(reference / ".memory")
    return expected, int(finished.stdout)


def test_a_commit_killed_before_any_write_is_completed_by_running_it_again(earlier, run_mem):
    """Kill a commit before each of its writes in turn; running the same input again must
    leave exactly what one uninterrupted commit leaves: every entry once, each reinforcement
    counted once, the fact it promotes shared once."""
    expected, writes = uninterrupted(earlier, SECOND)
    for kill_at in range(1, writes + 1):
        vault = earlier.parent / f"killed{kill_at}" / ".memory"
        shutil.copytree(earlier, vault.parent)
        assert child(vault, SECOND, kill_at).returncode == -signal.SIGKILL
        ok(run_mem("--vault", str(vault), "commit", "--agent", "dev", input=SECOND))
        assert memory(vault) == expected, f"killed before write {kill_at} of {writes}"
        again = data(
            run_mem("--vault", str(vault), "commit", "--agent", "dev", "--json", input=SECOND)
        )
        assert again["added"] == again["reinforced"] == [], f"kill {kill_at}: counted twice"


def test_a_killed_commit_then_killed_again_on_grown_input_loses_and_doubles_nothing(
    earlier, run_mem
):
    """The log grew before it was committed again (`agent | tee log`), and that commit was
    killed too: the one that finally runs leaves what one commit of the whole log leaves."""
    expected, writes = uninterrupted(earlier, GROWN)
    for kill_at in range(1, writes + 1):
        vault = earlier.parent / f"killed{kill_at}" / ".memory"
        shutil.copytree(earlier, vault.parent)
        assert child(vault, SECOND, kill_at).returncode == -signal.SIGKILL
        child(vault, GROWN, kill_at)  # killed as well, unless it writes less than that
        ok(run_mem("--vault", str(vault), "commit", "--agent", "dev", input=GROWN))
        assert memory(vault) == expected, f"killed before write {kill_at}"


def test_a_killed_commit_completed_after_another_session_wrote_the_same_entries_counts_once(
    earlier, run_mem
):
    """Between the kill and the run that completes it, another session reinforces the same
    entries, in the same second: each reinforcement still counts once, none is lost."""
    other = "Session 9.\n" + FACT + MORE
    reference = earlier.parent / "reference"
    shutil.copytree(earlier, reference)
    finished = child(reference / ".memory", SECOND)
    writes = int(finished.stdout)
    assert child(reference / ".memory", other).returncode == 0
    expected = memory(reference / ".memory", shared_counts=False)
    for kill_at in range(1, writes + 1):
        vault = earlier.parent / f"killed{kill_at}" / ".memory"
        shutil.copytree(earlier, vault.parent)
        assert child(vault, SECOND, kill_at).returncode == -signal.SIGKILL
        assert child(vault, other).returncode == 0
        ok(run_mem("--vault", str(vault), "commit", "--agent", "dev", input=SECOND))
        assert memory(vault, shared_counts=False) == expected, (
            f"killed before write {kill_at} of {writes}"
        )


def test_a_ledger_line_this_version_cannot_read_is_passed_over(mem, vault):
    ok(mem("commit", "--agent", "dev", input=SESSION))
    path = vault / ".mem" / "state" / "dev" / "ledger.jsonl"
    first = json.loads(path.read_text(encoding="utf-8").splitlines()[0])
    run, session = first["run"], first["session"]
    odd = {"run": run + "x", "state": "started", "at": "2026-03-01T10:00", "session": session}
    note = {"run": run + "x", "state": "writing", "category": "notes", "stored": ["k"]}
    with path.open("a", encoding="utf-8") as handle:
        handle.write(json.dumps(odd) + "\n" + json.dumps(note) + "\n")
    grown = data(mem("commit", "--agent", "dev", "--json", input=SESSION + MORE))
    assert len(grown["added"]) == 2


def test_the_commit_report_has_its_exact_keys(mem, vault):
    report = data(mem("commit", "--agent", "dev", "--json", input=SESSION))
    assert set(report) == {
        "schema_version",
        "dry_run",
        "format",
        "messages",
        "empty_input",
        "added",
        "reinforced",
        "promoted",
        "archived",
        "handoff",
        "redactions",
        "already_committed",
        "left_out",
        "unmined",
        "unmined_chars",
        "by_category",
    }


def transcript(session: str, *texts: str) -> str:
    """A Claude Code transcript of one session: a prompt, then the agent's messages."""
    records = [
        {
            "type": "user",
            "sessionId": session,
            "message": {"role": "user", "content": "Find why logins fail."},
        }
    ]
    for number, text in enumerate(texts):
        content = [{"type": "text", "text": text}]
        message = {"id": f"{session}-{number}", "role": "assistant", "content": content}
        records.append({"type": "assistant", "sessionId": session, "message": message})
    return "".join(json.dumps(record) + "\n" for record in records)


CAUSE = "The root cause was a stale session cookie left by the old domain."


def test_the_same_words_in_another_session_reinforce(mem, vault):
    ok(mem("commit", "--agent", "dev", input=transcript("a", CAUSE)))
    other = data(mem("commit", "--agent", "dev", "--json", input=transcript("b", CAUSE)))
    assert other["added"] == [] and [e["reinforced"] for e in other["reinforced"]] == [1]


def test_commits_of_one_input_at_the_same_time_count_it_once(vault, tmp_path):
    path = tmp_path / "s.jsonl"
    path.write_text(transcript("s", CAUSE, "SUMMARY: Found the stale cookie."))
    command = [
        sys.executable,
        "-m",
        "mem",
        "--vault",
        str(vault),
        "commit",
        "--agent",
        "dev",
        "--file",
        str(path),
    ]
    running = [
        subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE) for _ in range(4)
    ]
    for process in running:
        _, err = process.communicate(timeout=60)
        assert process.returncode == 0, err
    stored = memory(vault)
    assert [e for e in stored if e[0] == "lessons"] == [("lessons", CAUSE, 0)]
    assert len([e for e in stored if e[0] == "handoffs"]) == 1


def test_two_aider_sessions_in_one_history_get_a_handoff_each(mem, vault, tmp_path):
    first = (
        "# aider chat started at 2026-01-05 10:00:00\n\n#### fix the login redirect\n\n"
        "SUMMARY: Fixed the login redirect.\n\n"
    )
    second = (
        "# aider chat started at 2026-01-06 09:00:00\n\n#### add the audit log\n\n"
        "SUMMARY: Added the audit log.\n\n"
    )
    history = tmp_path / ".aider.chat.history.md"
    history.write_text(first)
    ok(mem("commit", "--agent", "dev", "--file", str(history)))
    history.write_text(first + second)
    report = data(mem("commit", "--agent", "dev", "--file", str(history), "--json"))
    assert report["handoff"]["body"].startswith("**What:** Added the audit log.")
    assert "login redirect" not in report["handoff"]["body"]
    handoffs = sorted(e[1].split("\n")[0] for e in memory(vault) if e[0] == "handoffs")
    assert handoffs == ["**What:** Added the audit log.", "**What:** Fixed the login redirect."]


# A child that commits its stdin and dies (os._exit) at one point of the run: fault injection
# at a chosen moment, where the random kills above land anywhere.
DIE_AT = """
import os, sys
from mem.config import load_settings
from mem.services import commit as service

vault, where = sys.argv[1], sys.argv[2]
def die(*args, **kwargs):
    os._exit(9)
setattr(service, where, die)
service.commit(load_settings(vault_flag=vault, agent_flag="dev"), sys.stdin.readlines())
"""


def die_during_commit(vault, where: str, text: str) -> None:
    done = subprocess.run(
        [sys.executable, "-c", DIE_AT, str(vault), where],
        input=text,
        text=True,
        timeout=60,
        capture_output=True,
        check=False,
    )
    assert done.returncode == 9, done.stderr


def test_a_run_killed_after_its_handoff_and_sent_again_grown_keeps_one_handoff(mem, vault):
    session = transcript("k", CAUSE, "SUMMARY: Found the stale cookie.")
    die_during_commit(vault, "cap_facts", session)  # after the handoff, before `done`
    grown = session + transcript("k", "Turns out the proxy also rewrote the cookie path.")
    ok(mem("commit", "--agent", "dev", input=grown))
    stored = memory(vault)
    assert len([e for e in stored if e[0] == "handoffs"]) == 1
    assert [(e[1], e[2]) for e in stored if e[0] == "lessons"] == [
        (CAUSE, 0),
        ("Turns out the proxy also rewrote the cookie path.", 0),
    ]


def test_a_killed_run_completed_after_another_run_reinforced_the_same_entry_counts_once(mem, vault):
    ok(mem("commit", "--agent", "dev", input=transcript("p", CAUSE)))
    killed = transcript("s", CAUSE, "SUMMARY: Checked the cookie again.")
    die_during_commit(vault, "cap_facts", killed)  # reinforced the cause, then died
    ok(mem("commit", "--agent", "dev", input=transcript("t", CAUSE)))
    ok(mem("commit", "--agent", "dev", input=killed))
    assert [e[2] for e in memory(vault) if e[0] == "lessons"] == [2]
