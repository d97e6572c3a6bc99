"""The index's own small files, written on a full disk: an error, and no temp file left.

`mem doctor` looks for temp files a killed write left among the category files, not in `.mem/`,
so a temp file the index leaves there would never be found. A file size limit (RLIMIT_FSIZE)
makes the write fail as a full disk does, in a child process so the limit stays there.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

WRITES = textwrap.dedent(
    """
    import errno, resource, signal, sys
    from datetime import UTC, datetime
    from pathlib import Path
    from mem.index import notes_file, related
    from mem.model import Entry

    folder = Path(sys.argv[1])
    lesson = Entry("l1", "dev", "lessons", "lesson", datetime(2026, 11, 20, tzinfo=UTC), (),
                   "never run make clean " * 50, (("kind", "lesson"),), path="dev/lessons.md")
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG
    resource.setrlimit(resource.RLIMIT_FSIZE, (64, 64))
    writes = {
        "notes": lambda: notes_file.write(folder, {"dev/lessons.md": [lesson]}),
        "related": lambda: related.write(folder, {"login": [("redirect", 0.5)] * 20}),
    }
    for name, write in writes.items():
        try:
            write()
        except OSError as exc:
            print(name, errno.errorcode[exc.errno])
    """
)


def test_a_sidecar_write_that_fails_leaves_no_temp_file(tmp_path):
    done = subprocess.run(
        [sys.executable, "-c", WRITES, str(tmp_path)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[:2] == ["notes EFBIG", "related EFBIG"]
    assert sorted(path.name for path in tmp_path.iterdir()) == []
