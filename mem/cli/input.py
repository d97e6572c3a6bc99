"""Text given on the command line, or read from stdin when it is `-`."""

from __future__ import annotations

import sys

from mem.errors import InvalidContent
from mem.model import MAX_ENTRY_BYTES

MAX_STDIN_BYTES = MAX_ENTRY_BYTES  # `mem commit` streams larger input


def clean_text(text: str) -> str:
    """Replace bytes that were not UTF-8 on the command line (Python keeps them as surrogates)."""
    return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def text_or_stdin(text: str) -> str:
    """Return `text`, or stdin when it is `-` (bounded; undecodable bytes replaced)."""
    if text != "-":
        return clean_text(text)
    data = sys.stdin.buffer.read(MAX_STDIN_BYTES + 1)
    if len(data) > MAX_STDIN_BYTES:
        raise InvalidContent(
            f"stdin holds more than {MAX_STDIN_BYTES // 1024} KiB; one entry "
            "should be short (use `mem commit` for agent output)"
        )
    if b"\0" in data:
        raise InvalidContent("stdin looks binary (it holds NUL bytes); give text")
    return data.decode("utf-8", errors="replace")
