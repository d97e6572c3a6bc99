"""The `mem` entry point: `mem --help` and a plain `mem recall`, `mem search` or `mem hook`
skip the Typer app; everything else uses it."""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False  # typing itself is not imported: `mem --help` never needs it
if TYPE_CHECKING:
    from typing import NoReturn


# A quick command collects cycles after this many new container objects, not Python's 700.
# A search or recall keeps ~7,000-18,000 (its modules' classes and functions, the index's
# tables) and makes and drops tens of thousands more; at 700, the collector ran ~40 times over
# them, ~4-5 ms of a ~70 ms command, and found next to nothing to free: what it makes is freed
# as it is dropped. A rebuild it starts still collects, every GC_THRESHOLD objects (its peak
# moved by under 1.5 MiB); the Typer commands, the server and `mem watch` keep Python's own.
GC_THRESHOLD = 50_000


def main() -> None:
    for name in ("stdout", "stderr"):
        if getattr(sys, name) is None:
            # Closed by whoever started mem (`mem search x >&-`): Python leaves None there,
            # which every print would trip on. Write nowhere instead; the work is still done.
            setattr(sys, name, open(os.devnull, "w", encoding="utf-8"))  # noqa: SIM115
    code = quick(sys.argv[1:])
    if code is not None:
        leave(code)
    from mem.cli.app import main as typer_main

    try:
        try:
            typer_main()
        finally:
            # Flush here, not at interpreter exit: a reader that left (`mem list | head -1`)
            # must end the command quietly, not print "Exception ignored" and exit 120.
            sys.stdout.flush()
    except BrokenPipeError:
        quiet_stdout()
        raise SystemExit(1) from None


def quick(arguments: list[str]) -> int | None:
    """Answer without Typer when the arguments allow; None when Typer should answer."""
    try:
        if arguments in (["--help"], ["-h"]) and columns() >= 80:
            from mem.cli.root_help import TEXT

            sys.stdout.write(TEXT)
            sys.stdout.flush()
            return 0
        if arguments[:1] == ["merge-driver"]:  # git runs it: no app, no vault
            from mem.cli.merge_driver import run as merge_driver

            return merge_driver(arguments[1:])
        fast = "recall" in arguments or "search" in arguments or "hook" in arguments
        if fast and "_MEM_COMPLETE" not in os.environ:
            import gc

            usual = gc.get_threshold()
            gc.set_threshold(GC_THRESHOLD, *usual[1:])
            from mem.cli.quick import run

            code = run(arguments)
            if code is None:  # a form only Typer reads: the command runs as any other
                gc.set_threshold(*usual)
            else:
                sys.stdout.flush()
            return code
    except BrokenPipeError:
        # Whoever read the output left (`mem search … | head -1`): stop quietly with 1, as Click
        # does for every other command, and keep Python from failing again at exit.
        quiet_stdout()
        return 1
    return None


def leave(code: int) -> NoReturn:
    """End a quick command now that its work is done: run what was registered to run at exit
    (a temporary index copy's removal), flush what was written, then skip the interpreter's
    teardown. Freeing every module, the index's maps and the search's dicts one object at a
    time is ~9 ms of a ~70 ms search, and nothing of mem's waits on it: every file it writes is
    closed (and renamed into place) before the command returns."""
    import atexit

    atexit._run_exitfuncs()
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        code = code or 1  # whoever read the output left: as quick() answers it
    try:
        sys.stderr.flush()
    except OSError:
        pass  # nowhere left to say anything
    os._exit(code)


def quiet_stdout() -> None:
    """Point stdout at /dev/null, so Python's own flush at exit meets no closed pipe."""
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def columns() -> int:
    """The terminal's width as Click reads it (shutil.get_terminal_size, without importing it)."""
    try:
        return int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        pass
    if sys.__stdout__ is None:
        return 80
    try:
        return os.get_terminal_size(sys.__stdout__.fileno()).columns or 80
    except (ValueError, OSError):  # not a terminal, or closed: Click falls back to 80 too
        return 80
