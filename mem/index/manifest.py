"""The index's manifest: which version of mem wrote the index, and the stamp of each category
file it holds. Read before every search, recall and tool call to tell whether the index is
current, so it stays light: no Whoosh, no ranking code.
"""

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any, NamedTuple

from mem.model import CATEGORY_OF_KIND

SCHEMA_VERSION = 21  # bump when the fields or sidecar files change: another version is rebuilt
MANIFEST = "manifest.json"
KIND_CODES: tuple[str, ...] = tuple(sorted(CATEGORY_OF_KIND))  # a kind's code in the rank column


class FileStamp(NamedTuple):
    """What a category file looked like when it was indexed."""

    size: int
    mtime_ns: int
    ctime_ns: int  # changes on every write, also one that restores the mtime (cp -p, rsync -t)
    inode: int
    sha256: str


def version_of(parser_version: str) -> str:
    """An index built by another schema, parser or kind list is rebuilt, not trusted: its
    fingerprints would let unchanged text keep values an older parser read from it."""
    return f"{SCHEMA_VERSION}/{parser_version}/{','.join(KIND_CODES)}"


def read_data(folder: Path, version: str) -> dict[str, Any] | None:
    """The manifest as saved, or None when it is missing, unreadable or of another version."""
    try:
        data = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("version") != version:
        return None
    return data


def stamps_of(data: Mapping[str, Any] | None) -> dict[str, FileStamp] | None:
    """The files' stamps a saved manifest holds, or None when it holds none readable."""
    if data is None:
        return None
    try:
        return {path: FileStamp(*stamp) for path, stamp in data["files"].items()}
    except (KeyError, TypeError, AttributeError):
        return None
