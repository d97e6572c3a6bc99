"""Plain-text helpers every layer shares: code fences, words, and cutting text to a room."""

from __future__ import annotations

import re
from collections.abc import Iterable

FENCE_MARKS = ("```", "~~~")
WORD = re.compile(r"\w+")  # a word as search and recall split queries and tasks
# A sentence ends at . ! ? before a space or the end, or at a CJK full stop wherever it is.
SENTENCE_END = re.compile(r"[.!?。！？](?=\s|$)|[。！？]")
SENTENCE_OR_LINE_END = re.compile(SENTENCE_END.pattern + r"|\n")


# What a terminal draws with and never says: colours and cursor moves (CSI: `ESC [ … m`),
# window titles and links (OSC: `ESC ] … BEL` or `ESC ] … ESC \`), and the two-character
# escapes. A capture made with `script` or `tmux`, or `bat` output pasted into a chat, is full
# of them.
TERMINAL_ESCAPE = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"  # CSI: colours, cursor moves
    r"|\x1b\][^\x07\x1b\n]*(?:\x07|\x1b\\)?"  # OSC, up to its end or the line's
    r"|\x1b[()*+][0-9A-Za-z]|\x1b[@-Z\\-_78=>]"  # character sets, the two-character escapes
)


def without_escapes(text: str) -> str:
    """`text` without the terminal's escape sequences."""
    return TERMINAL_ESCAPE.sub("", text) if "\x1b" in text else text


def fence_mark(line: str) -> str | None:
    """Return the fence a line opens or closes (``` or ~~~), or None: the one test used everywhere."""
    stripped = line.lstrip(" \t")
    return stripped[:3] if stripped.startswith(FENCE_MARKS) else None


def unfenced(lines: Iterable[str]) -> list[str]:
    """The lines that stand outside fenced code blocks (the fence lines left out too)."""
    kept: list[str] = []
    fenced = False
    for line in lines:
        if fence_mark(line):
            fenced = not fenced
        elif not fenced:
            kept.append(line)
    return kept


def cut_words(text: str, room: int) -> str:
    """`text` within `room` characters, cut at a word with an ellipsis; '' when nothing fits."""
    if len(text) <= room:
        return text
    if room < 2:
        return ""
    window = text[: room - 1]
    return (window[: window.rfind(" ")] if " " in window else window).rstrip(",;:") + "…"


def cut_at_sentence(text: str, room: int, least: int = 1, lines: bool = False) -> str:
    """`text` within `room` characters, cut after its last sentence end (or line end, with
    `lines`) that keeps at least `least` characters; '' when there is none."""
    if len(text) <= room:
        return text
    window = text[: max(room, 0)]
    ends = (SENTENCE_OR_LINE_END if lines else SENTENCE_END).finditer(window)
    kept = [match.end() for match in ends if match.end() >= least]
    return window[: kept[-1]] if kept else ""
