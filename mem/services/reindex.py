"""Rebuild the index in an interpreter of its own, after work that leaves a process large.

A compaction of 100,000 entries parses every category file and rewrites most of them; the
memory that work held stays with the process (Python seldom gives it back), and a rebuild in
the same process came on top of it: 240 MB. Rebuilt in a fresh interpreter, each process holds
what its own work needs. The child tells the parent what it would have said, a line at a time
on stderr, and the parent passes it on through its Feedback.

    python -m mem.services.reindex VAULT     # what rebuild_apart runs
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

from mem import fresh_process
from mem.errors import IndexRebuildFailed, MemError
from mem.services.feedback import QUIET, Feedback

APART_FROM = 20_000  # entries; below this a rebuild in the caller's process costs less
NOTICE = "notice "
PROGRESS = "progress "
DONE = "done "
FAILED = "failed "
OS_ERROR = "oserror "


def rebuild_apart(vault: Path, feedback: Feedback = QUIET) -> int:
    """Rebuild the vault's index, archive included (refresh.rebuild_index), in a fresh
    interpreter when the vault holds APART_FROM entries or more; return how many it holds."""
    from mem.services.refresh import entry_count, rebuild_index

    if entry_count(vault, archive=True) < APART_FROM:
        return rebuild_index(vault, feedback)
    with subprocess.Popen(
        fresh_process.command("mem.services.reindex", str(vault)),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env=fresh_process.environment(),
    ) as child:
        assert child.stderr is not None
        return relay(child.stderr, feedback)


def relay(lines: Iterable[str], feedback: Feedback) -> int:
    """Pass on what the child says (its stderr, line by line) and return the number of
    entries it indexed; raise what it failed with."""
    done, failure, last = None, None, ""
    for line in lines:
        line = line.rstrip("\n")
        last = line or last
        if line.startswith(NOTICE):
            feedback.notice(line[len(NOTICE) :])
        elif line.startswith(PROGRESS) and feedback.progress is not None:
            made, _, total = line[len(PROGRESS) :].partition("/")
            feedback.progress(int(made), int(total))
        elif line.startswith(DONE):
            done = int(line[len(DONE) :])
        elif line.startswith((FAILED, OS_ERROR)):
            failure = line
    if failure is not None and failure.startswith(OS_ERROR):
        raise fresh_process.os_error_of(failure[len(OS_ERROR) :])
    if failure is not None:
        code, _, message = failure[len(FAILED) :].partition(" ")
        raise error_of(code)(message)
    if done is None:
        raise IndexRebuildFailed(
            f"rebuilding the index failed ({last or 'no word from the process'}); "
            "run `mem doctor --fix`"
        )
    return done


def error_of(code: str) -> type[MemError]:
    """The kind of failure the child named by its code (IndexRebuildFailed for no known one)."""
    kinds: list[type[MemError]] = [MemError]
    while kinds:
        kind = kinds.pop()
        if kind.code == code and kind is not MemError:
            return kind
        kinds += kind.__subclasses__()
    return IndexRebuildFailed


def say(line: str) -> None:
    """A line for the parent; none when it is gone (killed): the rebuild goes on to the end."""
    try:
        print(line, file=sys.stderr, flush=True)
    except OSError:
        pass


def main(argv: list[str]) -> int:
    from mem.services.refresh import rebuild_index

    if len(argv) != 1:
        say("usage: python -m mem.services.reindex VAULT")
        return 2
    feedback = Feedback(
        notice=lambda message: say(NOTICE + message.replace("\n", " ")),
        progress=lambda made, total: say(f"{PROGRESS}{made}/{total}"),
    )
    try:
        say(f"{DONE}{rebuild_index(Path(argv[0]), feedback)}")
    except MemError as error:
        say(f"{FAILED}{error.code} " + str(error).replace("\n", " "))
        return 1
    except OSError as error:
        say(OS_ERROR + fresh_process.os_error_line(error))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
