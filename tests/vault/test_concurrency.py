"""Many writers at once, writers killed mid-write, searches racing to build the index."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from mem.config import load_settings
from mem.services.add import add
from mem.vault import entries as codec
from mem.vault import layout, store

# A child that imports mem, says "ready", waits for "go" on stdin, then adds entries through the
# service, printing each id (flushed) once `add` has returned.
ADD_LOOP = """
import sys
from mem.config import load_settings
from mem.services.add import add

vault, worker, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
settings = load_settings(vault_flag=vault, agent_flag="dev")
print("ready", flush=True)
sys.stdin.readline()
for number in range(count):
    entry = add(settings, f"parallel write {worker}-{number} w{worker}n{number}", "decisions")
    print(entry.id, flush=True)
"""

# A child that adds entries until it is killed; every fifth one supersedes the one before it,
# so a kill can also land in an index update or a header edit of another entry.
ENDLESS_ADDS = """
import sys
from mem.config import load_settings
from mem.services.add import add

vault, worker = sys.argv[1], sys.argv[2]
settings = load_settings(vault_flag=vault, agent_flag="dev")
filler = " ".join(f"word{n}" for n in range(150))
print("ready", flush=True)
previous = None
number = 0
while True:
    category = ("decisions", "lessons")[number % 2]
    supersedes = previous if number % 5 == 4 and previous else None
    entry = add(settings, f"crash {worker}-{number} {filler}", category, supersedes=supersedes)
    previous = entry.id if category == "decisions" else previous
    print(entry.id, flush=True)
    number += 1
"""


def child(script: str, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", script, *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def vault_entries(vault: Path) -> list[codec.Entry]:
    """Parse every category file, asserting each one has no problems."""
    found: list[codec.Entry] = []
    for ref in layout.category_files(vault):
        parsed = codec.parse_ref(store.read_text(vault, ref.path), ref)
        assert parsed.problems == (), (ref.path, parsed.problems)
        found.extend(parsed.entries)
    return found


def search_ids(run_mem, vault: Path, words: str, *flags: str) -> set[str]:
    result = run_mem("--vault", str(vault), "search", words, "--limit", "100000", "--json", *flags)
    assert result.exit_code == 0, result.stderr
    assert "Traceback" not in result.stderr
    return {hit["id"] for hit in json.loads(result.stdout)["hits"]}


def test_eight_processes_adding_fifty_entries_each_lose_nothing(vault, run_mem):
    workers = [child(ADD_LOOP, str(vault), str(worker), "50") for worker in range(8)]
    for process in workers:
        assert process.stdout is not None and process.stdout.readline() == "ready\n"
    for process in workers:  # release them together, so their writes overlap
        assert process.stdin is not None
        process.stdin.write("go\n")
        process.stdin.flush()
    printed: list[str] = []
    for process in workers:
        out, err = process.communicate(timeout=120)
        assert process.returncode == 0, err
        printed.extend(out.split())

    entries = vault_entries(vault)

    ids = [entry.id for entry in entries]
    assert len(printed) == 400
    assert len(ids) == 400
    assert len(set(ids)) == 400
    assert set(ids) == set(printed)
    assert {entry.path for entry in entries} == {"dev/decisions.md"}
    assert search_ids(run_mem, vault, "parallel") == set(printed)
    assert search_ids(run_mem, vault, "w3n49") == {
        entry.id for entry in entries if "w3n49" in entry.body
    }


def test_parallel_mem_add_commands_lose_nothing(vault, run_mem):
    printed: list[str] = []
    failures: list[str] = []

    def adds(worker: int) -> None:
        for number in range(5):
            result = run_mem(
                "--vault",
                str(vault),
                "add",
                f"shell write {worker}-{number}",
                "-c",
                "lessons",
                "--agent",
                "dev",
            )
            if result.exit_code != 0:
                failures.append(result.stderr)
            printed.append(result.stdout.strip())

    threads = [threading.Thread(target=adds, args=(worker,)) for worker in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert failures == []
    ids = [entry.id for entry in vault_entries(vault)]
    assert len(ids) == 20
    assert sorted(ids) == sorted(printed)
    assert search_ids(run_mem, vault, "shell write") == set(printed)


def test_writers_killed_at_random_moments_leave_files_parseable_and_completed_adds_kept(
    vault, run_mem
):
    seed = random.randrange(2**32)
    chance = random.Random(seed)
    completed: set[str] = set()
    for round_number in range(50):
        process = child(ENDLESS_ADDS, str(vault), str(round_number))
        assert process.stdout is not None and process.stdout.readline() == "ready\n"
        # Wait for some adds to finish first, however slow the machine, so that every round
        # proves something; then kill at a random moment of the adds that follow.
        # A child that hangs is killed after a minute, so the read below ends either way.
        watchdog = threading.Timer(60, process.kill)
        watchdog.start()
        for _ in range(chance.randint(1, 3)):
            line = process.stdout.readline()
            if not line.endswith("\n"):
                watchdog.cancel()
                _, err = process.communicate(timeout=30)
                raise AssertionError(f"seed {seed}: child ended or hung before adding\n{err}")
            completed.add(line.strip())
        watchdog.cancel()
        time.sleep(chance.uniform(0, 0.06))
        process.send_signal(signal.SIGKILL)
        out, err = process.communicate(timeout=30)
        assert process.returncode == -signal.SIGKILL, f"seed {seed}: child ended early\n{err}"
        # Only whole lines: a line is printed after its add returned.
        completed.update(
            line.strip() for line in out.splitlines(keepends=True) if line.endswith("\n")
        )

        present = {entry.id for entry in vault_entries(vault)}
        missing = completed - present
        assert not missing, f"seed {seed}, round {round_number}: lost {sorted(missing)}"

    entries = vault_entries(vault)
    assert search_ids(run_mem, vault, "crash", "--all") == {entry.id for entry in entries}
    temp_files = [name for name in os.listdir(vault / "dev") if name.endswith(".tmp")]
    assert all(name.startswith(".") for name in temp_files)  # leftovers are hidden, not .md


def add_entries(vault: Path, count: int, word: str) -> None:
    settings = load_settings(vault_flag=str(vault), agent_flag="dev")
    for number in range(count):
        add(settings, f"{word} racing search {number}", ("decisions", "lessons")[number % 2])


def searches_at_once(vault: Path, words: str, how_many: int = 3) -> list[set[str]]:
    processes = [
        subprocess.Popen(
            [sys.executable, "-m", "mem", "--vault", str(vault), "search", words]
            + ["--limit", "100000", "--json"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(how_many)
    ]
    found = []
    for process in processes:
        out, err = process.communicate(timeout=120)
        assert process.returncode == 0, err
        assert "Traceback" not in err
        found.append({hit["id"] for hit in json.loads(out)["hits"]})
    return found


def test_searches_at_once_on_an_index_that_must_be_built_all_succeed(vault):
    add_entries(vault, 300, "alpha")
    everything = {entry.id for entry in vault_entries(vault)}

    assert searches_at_once(vault, "racing") == [everything] * 3


def test_searches_at_once_on_an_index_that_must_be_updated_all_succeed(vault, run_mem):
    add_entries(vault, 200, "alpha")
    search_ids(run_mem, vault, "alpha")  # build the index
    for round_number in range(3):
        add_entries(vault, 40, f"beta{round_number}")
        everything = {entry.id for entry in vault_entries(vault)}

        assert searches_at_once(vault, "racing") == [everything] * 3
