"""Turn expected failures into a one-line message and an exit code, in one place."""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable
from typing import ParamSpec, TypeVar

import typer

from mem.errors import ExitCode, MemError

P = ParamSpec("P")
R = TypeVar("R")


def reports_errors(command: Callable[P, R]) -> Callable[P, R]:
    """Report MemError as `mem: <message>` (and a JSON error with --json), then exit."""

    @functools.wraps(command)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return command(*args, **kwargs)
        except MemError as exc:
            fail(str(exc), exc.code, exc.exit_code, bool(kwargs.get("as_json")))
        except KeyboardInterrupt:
            fail("interrupted", "interrupted", ExitCode.INTERRUPTED, bool(kwargs.get("as_json")))
        raise AssertionError("unreachable")  # fail() always raises

    return run


def fail(message: str, code: str, exit_code: int, as_json: bool) -> None:
    sys.stderr.write(f"mem: {message}\n")
    if as_json:
        payload = {"schema_version": 1, "error": {"code": code, "message": message}}
        sys.stdout.write(json.dumps(payload, ensure_ascii=False) + "\n")
    raise typer.Exit(int(exit_code))
