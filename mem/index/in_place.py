"""Read the index's segment files in place, from the memory map Whoosh opens them in.

Whoosh maps a segment's compound file and hands each file in it out as a BufferFile, which
builds an io.BytesIO over its part of the map, and BytesIO copies what it is given. At 10,000
entries a search opens the terms (1 MB), postings (2.6 MB) and stored fields (3.8 MB): ~7 ms of
copying on every `mem search` and `mem recall`, for files of which it reads a few kilobytes.
ViewFile reads straight from the map instead; the few hundred reads a search makes through it
(headers, pickled term infos) cost less than a copy of one file.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Self

CHUNK = 256  # readline looks for the line's end this far at a time
# What peek hands the unpickler: Whoosh's pickles (term infos, a segment's header) are small,
# and with peek the unpickler reads one in a call or two rather than one call per opcode.
PEEK = 4096


class ViewFile:
    """A read-only file over a buffer (a memoryview of the map, or bytes), without copying it."""

    def __init__(self, buffer: Any) -> None:
        self._buffer: Any = buffer
        self._size = len(buffer)
        self._position = 0
        self.closed = False

    def read(self, size: int | None = -1) -> bytes:
        start = self._position
        data = bytes(
            self._buffer[start:] if size is None or size < 0 else self._buffer[start : start + size]
        )
        self._position = start + len(data)
        return data

    def peek(self, size: int = 0) -> bytes:
        start = self._position
        return bytes(self._buffer[start : start + PEEK])

    def readinto(self, target: Any) -> int:
        start = self._position
        count = max(0, min(len(target), self._size - start))
        target[:count] = self._buffer[start : start + count]
        self._position = start + count
        return count

    def readline(self, size: int | None = -1) -> bytes:
        limit = self._size if size is None or size < 0 else min(self._position + size, self._size)
        end = self._position
        while end < limit:
            chunk = bytes(self._buffer[end : min(end + CHUNK, limit)])
            found = chunk.find(b"\n")
            if found >= 0:
                end += found + 1
                break
            end += len(chunk)
        return self.read(end - self._position)

    def seek(self, offset: int, whence: int = 0) -> int:
        if whence not in (0, 1, 2):
            raise ValueError(f"invalid whence ({whence}, should be 0, 1 or 2)")
        base = (0, self._position, self._size)[whence]
        if base + offset < 0:
            raise ValueError(f"negative seek position {base + offset}")
        self._position = base + offset
        return self._position

    def tell(self) -> int:
        return self._position

    def flush(self) -> None:
        pass

    def close(self) -> None:
        self._buffer = None  # BufferFile releases the view next, and the map can close
        self.closed = True

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __iter__(self) -> Iterator[bytes]:
        while line := self.readline():
            yield line


def read_in_place() -> None:
    """Make Whoosh's BufferFile read through a ViewFile; once per process, before the index
    is opened. Only the reading side changes: mem never writes through a BufferFile."""
    from whoosh.filedb.structfile import BufferFile

    if getattr(BufferFile, "reads_in_place", False):
        return

    original = BufferFile.__init__

    def init(self: Any, buf: Any, name: str | None = None, onclose: Any = None) -> None:
        original(self, b"", name, onclose)  # all it does but the copy: BytesIO(b"") is free
        self._buf = buf
        self.file = ViewFile(buf)

    BufferFile.__init__ = init
    BufferFile.reads_in_place = True
