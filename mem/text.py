"""Plain-text helpers every layer shares: code fences, and cutting text to a room."""

from __future__ import annotations

FENCE_MARKS = ("```", "~~~")


def fence_mark(line: str) -> str | None:
    """Return the fence a line opens or closes (``` or ~~~), or None: the one test used everywhere."""
    stripped = line.lstrip(" \t")
    return stripped[:3] if stripped.startswith(FENCE_MARKS) else None


def cut_words(text: str, room: int) -> str:
    """`text` within `room` characters, cut at a word with an ellipsis; '' when nothing fits."""
    if len(text) <= room:
        return text
    if room < 2:
        return ""
    window = text[: room - 1]
    return (window[: window.rfind(" ")] if " " in window else window).rstrip(",;:") + "…"
