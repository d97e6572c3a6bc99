"""Write one of the index's own small files (manifest, notes, related words, central facts)."""

from __future__ import annotations

import os
from pathlib import Path


def replace_text(path: Path, text: str) -> None:
    """Replace `path` with `text` at once: a temp file beside it, renamed over it, so a reader
    sees the old file or the new. A write that fails (a full disk) removes its temp file: `mem
    doctor` leaves `.mem/` alone, so nothing else would ever find it."""
    temp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        temp.write_text(text, encoding="utf-8")
        os.replace(temp, path)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
