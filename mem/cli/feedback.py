"""Notices and progress bars for people, on stderr."""

from __future__ import annotations

import sys
from typing import Any

from mem.services.feedback import Feedback


class ProgressBar:
    """A Rich progress bar on stderr, started on the first report and closed at the end."""

    def __init__(self) -> None:
        self._bar: Any = None
        self._task: Any = None

    def __call__(self, done: int, total: int) -> None:
        if self._bar is None:
            from rich.console import Console
            from rich.progress import Progress

            self._bar = Progress(console=Console(stderr=True), transient=True)
            self._bar.start()
            self._task = self._bar.add_task("indexing", total=total)
        self._bar.update(self._task, completed=done)
        if done >= total:
            self._bar.stop()


def notice(message: str) -> None:
    sys.stderr.write(f"mem: {message}\n")


def for_people() -> Feedback:
    """Feedback that writes notices and a progress bar to stderr."""
    return Feedback(notice=notice, progress=ProgressBar())
