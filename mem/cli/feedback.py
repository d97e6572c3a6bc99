"""Notices and progress bars for people, on stderr."""

from __future__ import annotations

import sys
from typing import Any

from mem.config import CONFIG_FILE, Settings
from mem.services.feedback import Feedback


class ProgressBar:
    """A Rich progress bar on stderr, started on the first report and closed at the end."""

    def __init__(self, label: str = "indexing") -> None:
        self.label = label
        self._bar: Any = None
        self._task: Any = None

    def __call__(self, done: int, total: int) -> None:
        if not sys.stderr.isatty():
            return  # a log or a pipe: a bar would leave only a blank line there
        if self._bar is None:
            from rich.console import Console
            from rich.progress import Progress

            self._bar = Progress(console=Console(stderr=True), transient=True)
            self._bar.start()
            self._task = self._bar.add_task(self.label, total=total)
        self._bar.update(self._task, completed=done)
        if done >= total:
            self._bar.stop()


def notice(message: str) -> None:
    sys.stderr.write(f"mem: {message}\n")


def for_people(label: str = "indexing") -> Feedback:
    """Feedback that writes notices and a progress bar (of `label`) to stderr."""
    return Feedback(notice=notice, progress=ProgressBar(label))


def warn_unknown_settings(settings: Settings) -> None:
    """Name, in one line, the keys of mem.toml that no setting reads: ignored, not fatal."""
    keys = settings.unknown_settings
    if keys and settings.vault is not None:
        named = ", ".join(repr(key) for key in keys)
        what = f"setting {named} is" if len(keys) == 1 else f"settings {named} are"
        notice(f"{settings.vault / CONFIG_FILE}: unknown {what} ignored; check the spelling")
