"""`mem watch`: a real watchdog session over a subprocess, and the event handler called directly."""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time

from watchdog.events import (
    DirDeletedEvent,
    FileClosedEvent,
    FileModifiedEvent,
    FileMovedEvent,
    FileOpenedEvent,
)

from mem.vault.watch import VaultChanges
from tests.cli.helpers import ok, with_default_sigint

LESSON = "<!-- id:by-editor kind:lesson -->\n## 2026-11-20T10:00Z\n\nThe cache warms in 40 s.\n"


def save_like_an_editor(path, text: str) -> None:
    """Write a temporary file beside the original and rename it over it (vim, VS Code)."""
    temp = path.with_name(f".{path.name}.swp")
    temp.write_text(text, encoding="utf-8")
    os.replace(temp, path)


def lines_of(stream) -> queue.Queue:
    found: queue.Queue = queue.Queue()
    threading.Thread(target=lambda: [found.put(line) for line in stream], daemon=True).start()
    return found


def next_pass(found: queue.Queue, seconds: float = 15) -> dict:
    return json.loads(found.get(timeout=seconds))


def test_a_watch_session_reindexes_saves_skips_mems_own_files_and_stops_on_ctrl_c(mem, vault):
    ok(mem("add", "The cache is cold at boot.", "-c", "lessons", "-a", "dev"))
    watcher = subprocess.Popen(
        with_default_sigint([sys.executable, "-m", "mem", "watch", "--json"]),
        cwd=vault.parent,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        found = lines_of(watcher.stdout)
        first = next_pass(found)  # the pass on start: the add above was never indexed
        assert first["rebuilt"] or "dev/lessons.md" in first["files"]
        lessons = vault / "dev" / "lessons.md"
        save_like_an_editor(lessons, lessons.read_text(encoding="utf-8") + "\n" + LESSON)
        saved = next_pass(found)
        assert (saved["files"], saved["rebuilt"], saved["error"]) == (
            ["dev/lessons.md"],
            False,
            None,
        )
        manifest = json.loads((vault / ".mem" / "index" / "manifest.json").read_text())
        assert manifest["files"]["dev/lessons.md"][0] == lessons.stat().st_size
        (vault / ".mem" / "scratch.md").write_text("mem's own state\n")
        (vault / "dev" / "notes.txt").write_text("not a category file\n")
        time.sleep(1.5)
        assert found.empty()
        watcher.send_signal(signal.SIGINT)
        assert watcher.wait(timeout=15) == 0
        assert "Traceback" not in watcher.stderr.read()
    finally:
        if watcher.poll() is None:
            watcher.kill()
        watcher.communicate()  # waits, and closes the pipes
    hits = mem("search", "cache warms", "--json")
    assert "by-editor" in hits.stdout


def moment() -> float:
    return time.monotonic()


def test_a_save_by_rename_counts_for_its_destination(vault):
    changes = VaultChanges(vault)
    root = changes.vault
    changes.on_any_event(
        FileMovedEvent(str(root / "dev/.lessons.md.swp"), str(root / "dev/lessons.md"))
    )
    assert changes.settled(0.3, moment() + 1) == ["dev/lessons.md"]
    assert changes.settled(0.3, moment() + 1) is None  # handed over once


def test_mems_own_files_git_and_reads_are_not_changes(vault):
    changes = VaultChanges(vault)
    root = changes.vault
    for event in (
        FileModifiedEvent(str(root / ".mem/index/manifest.json")),
        FileModifiedEvent(str(root / ".mem/state/hooks/dev.json")),
        FileModifiedEvent(str(root / ".git/index")),
        FileModifiedEvent(str(root / "dev/notes.txt")),
        FileOpenedEvent(str(root / "dev/lessons.md")),
        FileModifiedEvent(str(root.parent / "src/app.py")),
    ):
        changes.on_any_event(event)
    assert changes.settled(0.0, moment() + 1) is None and not changes.wake.is_set()


def test_private_entries_and_removed_folders_are_changes(vault):
    changes = VaultChanges(vault)
    root = changes.vault
    changes.on_any_event(FileClosedEvent(str(root / ".mem/private/dev/facts.md")))
    changes.on_any_event(DirDeletedEvent(str(root / "ops")))
    assert changes.settled(0.0, moment() + 1) == [".mem/private/dev/facts.md", "ops"]


def test_a_burst_of_events_is_handed_over_once_it_is_quiet(vault):
    changes = VaultChanges(vault)
    root = changes.vault
    changes.on_any_event(FileModifiedEvent(str(root / "dev/facts.md")))
    changes.on_any_event(FileModifiedEvent(str(root / "dev/decisions.md")))
    start = moment()
    assert changes.wake.is_set() and changes.settled(0.3, start) is None
    assert changes.settled(0.3, start + 0.5) == ["dev/decisions.md", "dev/facts.md"]


def test_a_pass_after_a_compaction_leaves_the_unindexed_archive_alone(mem, vault):
    # The archive is indexed when a search wants it: a watch pass must neither index it nor
    # report it as reindexed, pass after pass.
    from mem.services.watch import reindex
    from tests.cli.test_compact import write_file

    decisions = [(f"d{n:03d}", 40 + n, "", f"Decision {n} picked engine{n}.") for n in range(260)]
    write_file(vault, "dev", "decisions", decisions)
    ok(mem("compact"))
    assert (vault / "dev" / "archive" / "decisions.md").exists()
    assert reindex(vault) == reindex(vault) == ((), False, "")
