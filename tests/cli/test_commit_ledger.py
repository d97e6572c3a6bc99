"""`mem commit` is idempotent: input committed before adds, reinforces and hands off nothing,
and a commit killed halfway is completed by running it again, with nothing counted twice."""

from __future__ import annotations

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

    seed = random.randrange(2**32)
    chance = random.Random(seed)
    kills = 0
    for round_number in range(12):
        work = tmp_path / f"round{round_number}"
        shutil.copytree(base, work)
        vault = work / ".memory"
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
        time.sleep(chance.uniform(0, 0.15))
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
        "by_category",
    }
