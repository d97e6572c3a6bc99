"""Read and write category files safely: a sidecar lock per file, atomic replace, fsync."""

from __future__ import annotations

import errno
import fcntl
import functools
import os
import re
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from mem.errors import (
    DiskFull,
    FileUnreadable,
    FileUnwritable,
    MemError,
    NotUtf8,
    VaultReadOnly,
)
from mem.vault.layout import STATE_DIR, inside

LOCK_DIR = f"{STATE_DIR}/locks"
# A write redoes its change on a file a person keeps saving for at least this many tries and
# seconds: a large file an editor saves every 50 ms can take many tries to win.
UPDATE_TRIES = 20
UPDATE_SECONDS = 10.0
READ_ONLY_ERRNOS = {errno.EACCES, errno.EPERM, errno.EROFS}
FULL_ERRNOS = {errno.ENOSPC, errno.EDQUOT}


def read_bytes(vault: Path, relative: str) -> bytes:
    """Return a file's bytes (b'' when it does not exist)."""
    try:
        return inside(vault, relative).read_bytes()
    except FileNotFoundError:
        return b""
    except OSError as exc:
        raise FileUnreadable(
            f"cannot read {relative} ({exc.strerror}); check its permissions"
        ) from exc


def read_from_top(vault: Path, relative: str, first: int = 1 << 16) -> Iterator[bytes]:
    """A file's bytes from its top, `first` bytes and then twice as many each time, until the
    whole file (b'' when it does not exist): for what is near the top of a long file, where
    mem writes the newest entries."""
    try:
        with inside(vault, relative).open("rb") as file:
            data = file.read(first)
            while True:
                more = file.read(max(len(data), first))
                if not more:
                    yield data
                    return
                yield data
                data += more
    except FileNotFoundError:
        yield b""
    except OSError as exc:
        raise FileUnreadable(
            f"cannot read {relative} ({exc.strerror}); check its permissions"
        ) from exc


def read_text(vault: Path, relative: str) -> str:
    """Return a file's text ('' when it does not exist); undecodable bytes are replaced."""
    return read_bytes(vault, relative).decode("utf-8", errors="replace")


def read_strict(vault: Path, relative: str) -> str:
    """Return a file's text for rewriting; refuse bytes that are not UTF-8.

    Replacing them would silently change what a person wrote elsewhere in the file.
    """
    return decoded_strict(read_bytes(vault, relative), relative)


def decoded_strict(data: bytes, relative: str) -> str:
    """`read_strict` of bytes already read."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise NotUtf8(
            f"{relative} is not UTF-8 (line {line}); re-save it as UTF-8 before mem writes to it"
        ) from None


def explain_os_error(exc: OSError, what: str) -> MemError:
    """Turn an OS error from a write into a one-line message."""
    if exc.errno in READ_ONLY_ERRNOS:
        return VaultReadOnly(
            f"cannot write {what}: the vault is read-only ({exc.strerror}); "
            "check its permissions or mount"
        )
    if exc.errno in FULL_ERRNOS:
        return DiskFull(f"cannot write {what} ({exc.strerror})")
    return FileUnwritable(f"cannot write {what} ({exc.strerror})")


@contextmanager
def locked(vault: Path, relative: str) -> Iterator[None]:
    """Hold the sidecar lock of one vault file, so writers take turns."""
    lock_dir = inside(vault, LOCK_DIR)
    lock_path = lock_dir / (relative.replace("/", "%") + ".lock")
    try:
        lock_dir.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o666)
    except OSError as exc:
        raise explain_os_error(exc, relative) from exc
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX)
        yield
    finally:
        os.close(descriptor)  # closing releases the lock, also when the process dies


class ChangedMeanwhile(Exception):
    """The file is no longer what the writer read: someone saved it in between."""


def write_atomic(vault: Path, relative: str, text: str, read: bytes | None = None) -> None:
    """Replace a file's content all at once: temp file, fsync, rename, keeping its mode.

    With `read` (the bytes the new text was made from), nothing is written and
    ChangedMeanwhile raised when the file no longer holds them: a person's editor takes no
    lock of ours, so a save of theirs can only be seen, not kept out (see `swap_in`)."""
    target = inside(vault, relative)
    if uses_crlf(target):
        # A file a person saved with CRLF line ends keeps them: never a mix of both.
        text = LONE_LF.sub("\r\n", text)
    try:
        swap_in(target, text.encode("utf-8"), read)
    except OSError as exc:
        raise explain_os_error(exc, relative) from exc


def replace_file(path: Path, data: bytes) -> None:
    """Replace a file outside the vault (an agent's settings) all at once, keeping its mode;
    its folder is made when missing."""
    try:
        swap_in(path, data)
    except OSError as exc:
        raise FileUnwritable(f"cannot write {path} ({exc.strerror})") from exc


def swap_in(target: Path, data: bytes, expect: bytes | None = None) -> None:
    """Write a temp file beside `target`, fsync it, give it the target's mode and rename it
    over the target: a reader sees the old content or the new, never a part.

    With `expect`, the file must still hold those bytes when the new ones take its place, or
    nothing is written and ChangedMeanwhile is raised. The file is compared right before the
    rename; on Linux the rename is then an exchange (renameat2 RENAME_EXCHANGE), which hands
    back exactly the file it displaced, so a save landing between the check and the rename
    is seen too and the exchange undone. Elsewhere that window (a read and a rename long)
    stays open."""
    temp = target.with_name(f".{target.name}.{os.getpid()}-{os.urandom(4).hex()}.tmp")
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        mode: int | None = os.stat(target).st_mode & 0o7777
    except FileNotFoundError:
        mode = None  # a new file gets the umask's default mode
    descriptor = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        if mode is not None:
            os.chmod(temp, mode)
        if expect is None:
            os.replace(temp, target)
        elif (file_bytes(target) or b"") != expect:
            raise ChangedMeanwhile(str(target))  # the common case, seen before anything moves
        elif mode is not None and exchange(temp, target):
            if temp.read_bytes() != expect:
                undo_exchange(temp, target, data)
                raise ChangedMeanwhile(str(target))
            temp.unlink()
        else:
            os.replace(temp, target)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
    sync_folder(target.parent)


def file_bytes(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None


def undo_exchange(temp: Path, target: Path, placed: bytes) -> None:
    """Put back the save an exchange displaced. What the second exchange hands back is the
    text mem placed, unless a second save came in the microseconds between the two: that one
    is kept beside the file, named in the error, never deleted; so is the first, should the
    exchange back fail."""
    try:
        swapped = exchange(temp, target)
    except OSError:
        swapped = False
    if not swapped:
        kept = keep_beside(temp, target)
        raise FileUnwritable(
            f"{target.name} was saved while mem wrote it and mem could not put that save back: "
            f"it is in {kept.name} beside it; merge it into {target.name} by hand"
        )
    if temp.read_bytes() != placed:
        kept = keep_beside(temp, target)
        raise FileUnwritable(
            f"{target.name} was saved twice while mem wrote it; the file holds the first "
            f"save and {kept.name} beside it the second: merge them by hand"
        )


def keep_beside(temp: Path, target: Path) -> Path:
    """Give a person's displaced save a name beside its file that no cleanup removes."""
    kept = target.with_name(f"{target.name}.kept-{os.urandom(3).hex()}")
    os.replace(temp, kept)
    return kept


AT_FDCWD = -100
RENAME_EXCHANGE = 2
EXCHANGE_UNSUPPORTED = {errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP, errno.EPERM}
exchange_works = sys.platform == "linux"  # set False once the system says it cannot


def exchange(first: Path, second: Path) -> bool:
    """Swap two paths' files in one atomic step (Linux renameat2); False where the system or
    the filesystem cannot, and the caller falls back to a rename."""
    global exchange_works
    call = renameat2() if exchange_works else None
    if call is None:
        exchange_works = False
        return False
    done = call(AT_FDCWD, os.fsencode(first), AT_FDCWD, os.fsencode(second), RENAME_EXCHANGE)
    if done == 0:
        return True
    import ctypes

    number = ctypes.get_errno()
    if number in EXCHANGE_UNSUPPORTED:
        exchange_works = False
        return False
    raise OSError(number, os.strerror(number), str(second))


@functools.cache
def renameat2() -> Any:
    """libc's renameat2, looked up once a process (None where libc has none)."""
    import ctypes  # only writes pay for it (about 5 ms)

    return getattr(ctypes.CDLL(None, use_errno=True), "renameat2", None)


LONE_LF = re.compile(r"(?<!\r)\n")


def uses_crlf(path: Path) -> bool:
    """Whether a file's first line ends in CRLF (the file's own line ending)."""
    try:
        with path.open("rb") as handle:
            head = handle.read(65536)
    except OSError:
        return False
    end = head.find(b"\n")
    return end > 0 and head[end - 1 : end] == b"\r"


def sync_folder(folder: Path) -> None:
    """Make a rename durable by syncing the folder that holds it."""
    try:
        descriptor = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(descriptor)
    except OSError:
        pass  # some filesystems cannot sync a folder; the rename itself is still atomic
    finally:
        os.close(descriptor)


def update(
    vault: Path,
    relative: str,
    change: Callable[[str], str],
    dry_run: bool = False,
    carry: Callable[[str], bool] | None = None,
) -> tuple[str, str]:
    """Under the file's lock, read it, apply `change`, and write it if the text changed; with
    `dry_run`, apply it to the text as it is and write nothing. Given `carry`, a change that a
    person's save overtook may be carried over it (see rewrite).

    Returns (old text, new text).
    """
    if dry_run:
        old = read_text(vault, relative)
        return old, change(old)
    with locked(vault, relative):
        return rewrite(vault, relative, change, carry)


def rewrite(
    vault: Path,
    relative: str,
    change: Callable[[str], str],
    carry: Callable[[str], bool] | None = None,
) -> tuple[str, str]:
    """`update` for a caller that holds the file's lock: read, change, and write unless the
    file changed in between, else again from what it now holds.

    When a person saved the file since the change was worked out, the change is worked out
    again on their text; or, given `carry`, carried over their save when the two touched
    different entries (rebase.py) and `carry` accepts the text their save put in (a change
    that decided something from the whole file, as a commit's dedupe does, looks at it)."""
    started = time.monotonic()
    tries = 0
    made: tuple[str, str] | None = None  # the text the change was worked out on, and its result
    while tries < UPDATE_TRIES or time.monotonic() - started < UPDATE_SECONDS:
        tries += 1
        raw = read_bytes(vault, relative)
        old = decoded_strict(raw, relative)
        new = None
        if made is not None and carry is not None:
            from mem.vault.rebase import rebased  # writers only: the parser's module comes with it

            carried = rebased(*made, old)
            if carried is not None and carry(carried[1]):
                new = carried[0]
        if new is None:
            new = change(old)
            made = (old, new)
        if new == old:
            return old, new
        try:
            write_atomic(vault, relative, new, read=raw)
        except ChangedMeanwhile:
            continue
        return old, new
    raise FileUnwritable(
        f"cannot write {relative}: it changed {tries} times in "
        f"{time.monotonic() - started:.1f} s while mem was writing it (an editor saving it "
        "in a loop?); it is as it was last saved: run the command again"
    )
