"""Merge one category file for git, entry by entry (see vault/merge.py)."""

from __future__ import annotations

from pathlib import Path

from mem.vault import store
from mem.vault.merge import merge


def merge_into_ours(base: Path, ours: Path, theirs: Path) -> bool:
    """Write the merge of the three versions git gives into `ours`; False, with nothing
    written, when the file is better left to git's union merge (not a category file as mem
    reads one, CRLF line ends, bytes that are not UTF-8)."""
    try:
        texts = [path.read_bytes().decode("utf-8") for path in (base, ours, theirs)]
    except (OSError, UnicodeDecodeError):
        return False
    if any("\r\n" in text for text in texts):
        return False
    merged = merge(*texts)
    if merged is None:
        return False
    if merged != texts[1]:
        store.replace_file(ours, merged.encode("utf-8"))
    return True
