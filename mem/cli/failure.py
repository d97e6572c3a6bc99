"""How an expected failure is reported, without Typer: `mem: …` on stderr, a JSON error with --json."""

from __future__ import annotations

import json
import sys


def report_failure(message: str, code: str, as_json: bool) -> None:
    sys.stderr.write(f"mem: {message}\n")
    if as_json:
        payload = {"schema_version": 1, "error": {"code": code, "message": message}}
        sys.stdout.write(json.dumps(payload, ensure_ascii=False) + "\n")
