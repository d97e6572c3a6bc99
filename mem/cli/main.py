"""The `mem` entry point: a plain `mem recall` or `mem search` skips the Typer app; everything
else uses it."""

from __future__ import annotations

import os
import sys


def main() -> None:
    arguments = sys.argv[1:]
    if ("recall" in arguments or "search" in arguments) and "_MEM_COMPLETE" not in os.environ:
        from mem.cli.quick import run

        code = run(arguments)
        if code is not None:
            sys.stdout.flush()
            raise SystemExit(code)
    from mem.cli.app import main as typer_main

    typer_main()
