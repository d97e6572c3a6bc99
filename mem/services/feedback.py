"""How services tell people what they are doing, without printing anything themselves."""

from collections.abc import Callable
from dataclasses import dataclass


def _ignore_notice(message: str) -> None:
    return None


@dataclass(frozen=True)
class Feedback:
    """Callbacks the command layer supplies: a one-line notice, and progress of long work."""

    notice: Callable[[str], None] = _ignore_notice
    progress: Callable[[int, int], None] | None = None


QUIET = Feedback()
