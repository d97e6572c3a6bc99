"""`mem merge-driver BASE OURS THEIRS [PATH]`: what git runs to merge a category file, once
`mem init` has set it up. It writes the merge into OURS and exits 0, or exits 1 with OURS as it
was, and git's union merge, named after it in the driver, does the merge instead."""

from __future__ import annotations

import sys
from pathlib import Path

USAGE = "usage: mem merge-driver BASE OURS THEIRS [PATH] (git runs it; see `mem init`)"


def run(arguments: list[str]) -> int:
    if len(arguments) not in (3, 4):
        print(f"mem: {USAGE}", file=sys.stderr)
        return 2
    from mem.errors import MemError
    from mem.services.merge_files import merge_into_ours

    base, ours, theirs = (Path(argument) for argument in arguments[:3])
    try:
        return 0 if merge_into_ours(base, ours, theirs) else 1
    except MemError as exc:
        print(f"mem: {exc}", file=sys.stderr)
        return 1
