"""The tables worked out from the whole index once it is written (the related words and the
central facts), in an interpreter of their own.

Working them out holds every entry's telling words for a while: ~50 MB at 100,000 entries. In
the process that has just written the index (or compacted the vault) that memory came on top
of what the writing left behind, and a rebuild peaked at 180 MB. A fresh interpreter starts
from nothing, reads the index without Whoosh (segment_reader.py), and gives its memory back
when it ends; it costs ~50 ms of start-up, against seconds of work.

    python -m mem.index.tables FOLDER     # what work_out_apart runs
"""

from __future__ import annotations

import sys
from pathlib import Path

from mem import fresh_process
from mem.errors import IndexTablesFailed
from mem.index import central, related
from mem.index.segment_reader import IndexReader

OS_ERROR = 3  # the child's exit code for an OSError; its last line of stderr: "errno message"
# Below this many documents the tables are worked out in the writer's own process: their
# memory is small, and a fresh interpreter would cost more than the work.
APART_FROM = 20_000


def work_out(folder: Path) -> None:
    """Work the tables out from the index in `folder` and save them beside it."""
    reader = IndexReader(folder)
    try:
        related.write(folder, related.compute(reader))
        central.save(folder, reader)
    finally:
        reader.close()


def work_out_for(folder: Path, documents: int) -> None:
    """Work the tables out of an index of `documents`: apart when it is large."""
    if documents >= APART_FROM:
        work_out_apart(folder)
    else:
        work_out(folder)


def work_out_apart(folder: Path) -> None:
    """work_out, in a fresh interpreter; an OSError there (a full disk) is raised here as one,
    anything else as IndexTablesFailed with its last line."""
    import subprocess

    done = subprocess.run(
        fresh_process.command("mem.index.tables", str(folder)),
        capture_output=True,
        text=True,
        env=fresh_process.environment(),
        check=False,
    )
    if done.returncode == 0:
        return
    last = (done.stderr.strip().splitlines() or [f"exit code {done.returncode}"])[-1]
    if done.returncode == OS_ERROR:
        raise fresh_process.os_error_of(last)
    raise IndexTablesFailed(
        f"working out the index's related words and central facts failed ({last}); run `mem doctor`"
    )


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m mem.index.tables FOLDER", file=sys.stderr)
        return 2
    try:
        work_out(Path(argv[0]))
    except OSError as error:
        print(fresh_process.os_error_line(error), file=sys.stderr)
        return OS_ERROR
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
