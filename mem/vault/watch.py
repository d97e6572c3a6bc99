"""Watch a vault's files with watchdog, and say which category files changed once they settle.

Editors save in many ways: in place, or to a temporary file renamed over the original (the
change is then the event's `dest_path`, not its `src_path`), often as a burst of events. Changes
are gathered until the vault has been quiet for a moment, then handed over together. What mem
writes itself (`.mem/`: the index, state, locks) and git's own folder are not changes to the
vault; private entries, which live under `.mem/private/`, are.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from watchdog.events import FileSystemEvent, FileSystemEventHandler
from watchdog.observers import Observer

from mem.vault import layout

IGNORED_EVENTS = frozenset({"opened", "closed_no_write"})  # reads change nothing


class VaultChanges(FileSystemEventHandler):
    """Gathers the vault paths that events name; `settled` hands them over after a quiet
    moment. Called from watchdog's thread; read from the watcher's."""

    def __init__(self, vault: Path) -> None:
        self.vault = vault.resolve()
        self.wake = threading.Event()  # set when a change arrives
        self._lock = threading.Lock()
        self._paths: set[str] = set()
        self._last = 0.0

    def on_any_event(self, event: FileSystemEvent) -> None:
        if event.event_type in IGNORED_EVENTS:
            return
        named = [
            self.vault_path(raw, event.is_directory) for raw in (event.src_path, event.dest_path)
        ]
        found = {path for path in named if path is not None}
        if found:
            with self._lock:
                self._paths |= found
                self._last = time.monotonic()
            self.wake.set()

    def vault_path(self, raw: bytes | str, folder: bool = False) -> str | None:
        """The vault-relative path of a category file, or of a folder that may hold some
        (an agent folder renamed or deleted); None for anything else."""
        if not raw:
            return None
        try:
            relative = Path(os.fsdecode(raw)).relative_to(self.vault).as_posix()
        except ValueError:
            return None  # outside the vault
        parts = relative.split("/")
        if ".git" in parts:
            return None
        if parts[0] == layout.STATE_DIR and not relative.startswith(layout.PRIVATE_DIR + "/"):
            return None  # mem's own index, state and locks
        if folder:
            return relative
        return relative if layout.describe(relative) is not None else None

    def settled(self, quiet: float, now: float | None = None) -> list[str] | None:
        """The paths changed since the last call, once nothing changed for `quiet` seconds;
        None while there are none or they are still coming."""
        moment = time.monotonic() if now is None else now
        with self._lock:
            if not self._paths or moment - self._last < quiet:
                return None
            paths = sorted(self._paths)
            self._paths.clear()
            self.wake.clear()
        return paths


@contextmanager
def watching(vault: Path) -> Iterator[VaultChanges]:
    """Watch the whole vault tree while the block runs; stop the observer thread after."""
    changes = VaultChanges(vault)
    observer = Observer()
    observer.schedule(changes, str(changes.vault), recursive=True)
    observer.start()
    try:
        yield changes
    finally:
        observer.stop()
        observer.join(timeout=5)
