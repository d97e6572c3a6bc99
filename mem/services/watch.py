"""`mem watch`: keep the index current while people edit the vault, file by file as they save."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from mem.config import Settings
from mem.errors import MemError
from mem.services.refresh import changed_files, fresh_index, indexed_refs, open_index

QUIET_SECONDS = 0.3  # an editor's save is a burst of events; reindex once it is over
POLL_SECONDS = 0.5  # how often the loop looks at the stop flag when nothing happens


class Reindexed(NamedTuple):
    """One pass of bringing the index up to date."""

    files: tuple[str, ...]  # the category files reindexed or dropped
    rebuilt: bool = False  # the whole index was built again (missing, damaged, another version)
    error: str = ""  # why the pass failed; the watch goes on


def reindex(vault: Path) -> Reindexed:
    """Bring the index up to date with the markdown and say what that took."""
    try:
        # the hot files, as recall wants them; the archive waits for a search of it
        pending = changed_files(vault, open_index(vault), indexed_refs(vault), archive=False)
        fresh_index(vault)
    except MemError as exc:
        return Reindexed((), error=str(exc))
    if pending is None:
        return Reindexed((), rebuilt=True)
    changed, removed = pending
    return Reindexed(tuple(sorted([*changed, *removed])))


def watch(
    settings: Settings,
    report: Callable[[Reindexed], None],
    stop: threading.Event | None = None,
    quiet: float = QUIET_SECONDS,
) -> None:
    """Reindex now, then after every settled burst of changes, until `stop` is set (or the
    caller's thread is interrupted: Ctrl-C raises KeyboardInterrupt out of here, and the
    watcher thread is stopped on the way out)."""
    from mem.vault.watch import watching  # watchdog's import: only this command pays it

    vault = settings.require_vault()
    stop = stop or threading.Event()
    with watching(vault) as changes:
        report(reindex(vault))  # what changed while nobody watched
        while not stop.is_set():
            if not changes.wake.wait(POLL_SECONDS):
                continue
            stop.wait(quiet / 3)  # let the burst go on; `settled` says when it is over
            if changes.settled(quiet) is not None:
                done = reindex(vault)
                if done.files or done.rebuilt or done.error:
                    report(done)
