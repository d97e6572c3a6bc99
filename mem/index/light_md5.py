"""Load Whoosh without OpenSSL: its hash tables import hashlib for md5 alone, and hashlib
starts OpenSSL (~3.5 ms of every `mem search` and `mem recall`). CPython's own md5 module gives
the same digests."""

from __future__ import annotations

import sys
import types


def import_whoosh_tables() -> None:
    """Import whoosh.filedb.filetables with `hashlib` standing for CPython's md5 alone, then
    put hashlib back as it was: whatever imports it next gets the real one."""
    # What filetables imports besides, first and with the real hashlib within reach: the
    # stand-in is there for the length of filetables' own few lines.
    import whoosh.system
    import whoosh.util.numlists

    if "whoosh.filedb.filetables" in sys.modules or "hashlib" in sys.modules:
        return  # loaded already: nothing to save
    from mem.digests import md5

    stand_in = types.ModuleType("hashlib")
    stand_in.md5 = md5  # type: ignore[attr-defined]
    sys.modules["hashlib"] = stand_in
    try:
        import whoosh.filedb.filetables  # noqa: F401
    finally:
        if sys.modules.get("hashlib") is stand_in:
            del sys.modules["hashlib"]
