"""`mem commit` is idempotent: input committed before adds, reinforces and hands off nothing,
and a commit killed halfway is completed by running it again, with nothing counted twice."""

from __future__ import annotations

import json
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mem.vault import entries as codec
from mem.vault import layout, store

from .helpers import data, ok, snapshot
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


def memory(vault: Path) -> list[tuple[str, str, int]]:
    """Every live entry as (category, body, times reinforced), dates and ids aside."""
    found = []
    for ref in layout.category_files(vault):
        parsed = codec.parse_ref(store.read_text(vault, ref.path), ref)
        found += [(e.category, e.body, e.reinforced) for e in parsed.entries if not e.archived]
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


# A child that imports mem, says "ready", waits for "go", then commits SESSION + MORE.
COMMIT_CHILD = """
import sys
from mem.config import load_settings
from mem.services.commit import commit

vault, text = sys.argv[1], sys.stdin.readline()[:-1].replace("\\\\n", "\\n")
settings = load_settings(vault_flag=vault, agent_flag="dev")
print("ready", flush=True)
sys.stdin.readline()
commit(settings, text.splitlines(keepends=True))
print("done", flush=True)
"""


def test_a_commit_killed_at_any_moment_is_completed_by_running_it_again(tmp_path, run_mem):
    """Kill a commit at random moments; running the same input again must leave exactly what
    one uninterrupted commit leaves: every entry once, each reinforcement counted once."""
    base = tmp_path / "base"
    base.mkdir()
    ok(run_mem("init", cwd=base))
    # An earlier session that the killed one reinforces (the root cause) and extends.
    ok(run_mem("--vault", str(base / ".memory"), "commit", "--agent", "dev", input=MORE))
    reference = tmp_path / "reference"
    shutil.copytree(base, reference)
    second = SESSION + MORE.replace("Turns out", "It turned out")
    ok(run_mem("--vault", str(reference / ".memory"), "commit", "--agent", "dev", input=second))
    expected = memory(reference / ".memory")
    assert any(times == 1 for _, _, times in expected), "nothing reinforced: the test is moot"

    def start(vault: Path) -> subprocess.Popen[str]:
        process = subprocess.Popen(
            [sys.executable, "-c", COMMIT_CHILD, str(vault)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert process.stdin is not None and process.stdout is not None
        process.stdin.write(second.replace("\n", "\\n") + "\n")
        process.stdin.flush()
        assert process.stdout.readline() == "ready\n"
        process.stdin.write("go\n")
        process.stdin.flush()
        return process

    # How long one commit takes here, so the kills land while it runs on any machine.
    timing = tmp_path / "timing"
    shutil.copytree(base, timing)
    child = start(timing / ".memory")
    began = time.perf_counter()
    out, _ = child.communicate(timeout=60)
    duration = time.perf_counter() - began
    assert out.endswith("done\n")

    seed = random.randrange(2**32)
    chance = random.Random(seed)
    kills = 0
    for round_number in range(12):
        work = tmp_path / f"round{round_number}"
        shutil.copytree(base, work)
        vault = work / ".memory"
        process = start(vault)
        time.sleep(chance.uniform(0, duration))
        process.send_signal(signal.SIGKILL)
        process.communicate(timeout=30)
        kills += process.returncode == -signal.SIGKILL
        ok(run_mem("--vault", str(vault), "commit", "--agent", "dev", input=second))
        assert memory(vault) == expected, f"seed {seed}, round {round_number}"
    assert kills >= 6, f"seed {seed}: most commits finished before the kill; the test proved little"


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
