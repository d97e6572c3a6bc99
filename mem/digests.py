"""md5, sha1 and sha256 from CPython's own modules, with the same digests as hashlib's.

Importing hashlib starts OpenSSL: ~3.5-5 ms of a `mem search` that picks up an edit, or of a
hook, which take ~50-100 ms in all. On a Python built without these modules, hashlib's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Protocol

    class Hash(Protocol):
        def digest(self) -> bytes: ...
        def hexdigest(self) -> str: ...

    Hasher = Callable[..., Hash]  # (data, usedforsecurity=...) as hashlib's


def _builtin(*candidates: tuple[str, str]) -> Hasher | None:
    for module, name in candidates:
        try:
            found: Hasher = getattr(__import__(module), name)
        except (ImportError, AttributeError):
            continue
        return found
    return None


def _hashlib(name: str) -> Hasher:
    import hashlib

    found: Hasher = getattr(hashlib, name)
    return found


md5: Hasher = _builtin(("_md5", "md5")) or _hashlib("md5")
sha1: Hasher = _builtin(("_sha1", "sha1")) or _hashlib("sha1")
# Python 3.12 moved sha256 from _sha256 to _sha2.
sha256: Hasher = _builtin(("_sha2", "sha256"), ("_sha256", "sha256")) or _hashlib("sha256")
