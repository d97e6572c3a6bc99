"""Cutting text to a number of characters, for lines a prompt or a terminal shows."""

from __future__ import annotations


def cut_words(text: str, room: int) -> str:
    """`text` within `room` characters, cut at a word with an ellipsis; '' when nothing fits."""
    if len(text) <= room:
        return text
    if room < 2:
        return ""
    window = text[: room - 1]
    return (window[: window.rfind(" ")] if " " in window else window).rstrip(",;:") + "…"
