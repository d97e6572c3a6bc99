"""How services tell people what they are doing, without printing anything themselves."""

from collections.abc import Callable
from typing import NamedTuple


def _ignore_notice(message: str) -> None:
    return None


class Feedback(NamedTuple):
    """Callbacks the command layer supplies: a one-line notice, and progress of long work."""

    notice: Callable[[str], None] = _ignore_notice
    progress: Callable[[int, int], None] | None = None


QUIET = Feedback()
