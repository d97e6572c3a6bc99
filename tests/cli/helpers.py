"""Assertions and hand-written vault files shared by the CLI tests."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ENTRY_ID = re.compile(r"\d{8}-\d{6}-[a-z0-9]{6}")
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
# Notices `mem` may write on stderr before anything else when it (re)builds the index.
INDEX_NOTICE = re.compile(r"mem: (building the index|the index was missing or unreadable)\b.*")
STATS_KEYS = {
    "schema_version",
    "entries",
    "superseded",
    "private",
    "by_agent",
    "by_category",
    "by_kind",
    "by_age",
    "files",
    "vault_bytes",
    "index_bytes",
}
ENTRY_KEYS = {
    "id",
    "agent",
    "category",
    "kind",
    "date",
    "tags",
    "scope",
    "path",
    "line",
    "reinforced",
    "superseded_by",
    "archived",
    "header",
    "body",
}


def no_traceback(result: Any) -> None:
    assert "Traceback" not in result.stderr, result.stderr
    assert "Traceback" not in result.stdout, result.stdout


def ok(result: Any) -> Any:
    """Assert a run succeeded cleanly and return it."""
    assert result.exit_code == 0, f"exit {result.exit_code}\n{result.stderr}"
    no_traceback(result)
    return result


def data(result: Any) -> dict[str, Any]:
    """Assert a successful --json run printed exactly one JSON object; return it."""
    ok(result)
    assert result.stdout.endswith("\n") and result.stdout.count("\n") == 1, result.stdout
    payload = json.loads(result.stdout)
    assert isinstance(payload, dict)
    assert payload["schema_version"] == 1
    return payload


def messages(stderr: str) -> list[str]:
    """The lines of stderr, without the index-building notices."""
    return [line for line in stderr.splitlines() if not INDEX_NOTICE.fullmatch(line)]


def failed(result: Any, exit_code: int) -> str:
    """Assert an expected failure: the exit code, one `mem: ...` line on stderr; return it."""
    assert result.exit_code == exit_code, (
        f"exit {result.exit_code}, wanted {exit_code}\n{result.stdout}\n{result.stderr}"
    )
    no_traceback(result)
    lines = messages(result.stderr)
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("mem: "), result.stderr
    return lines[0]


def error_payload(result: Any, exit_code: int, code: str) -> str:
    """Assert a --json failure: the one-line message and the error object; return the message."""
    line = failed(result, exit_code)
    payload = json.loads(result.stdout)
    assert payload == {
        "schema_version": 1,
        "error": {"code": code, "message": line.removeprefix("mem: ")},
    }
    return line


def added_id(result: Any) -> str:
    """The id `mem add` / `mem task add` printed (human mode: the id alone on stdout)."""
    ok(result)
    entry_id = result.stdout.strip()
    assert ENTRY_ID.fullmatch(entry_id), result.stdout
    return entry_id


def entry_block(entry_id: str, date: str, body: str, tags: str = "", **header: str) -> str:
    """An entry as a person would write it by hand."""
    pairs = "".join(f" {key.replace('_', '-')}:{value}" for key, value in header.items())
    heading = f"## {date}" + (f" · {tags}" if tags else "")
    return f"<!-- id:{entry_id}{pairs} -->\n{heading}\n\n{body}\n\n---\n\n"


def write_category_file(
    vault: Path, relative: str, agent: str, category: str, *blocks: str
) -> Path:
    """Write a whole category file by hand (frontmatter + entry blocks)."""
    path = vault / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"---\nagent: {agent}\ncategory: {category}\n---\n\n" + "".join(blocks))
    return path


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under `folder` except machine-local state, for nothing-changed checks."""
    return {
        path.relative_to(folder).as_posix(): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file() and ".mem" not in path.relative_to(folder).parts
    }


# For a child process that commits: it kills itself just before its `kill_at`-th file sync or
# rename (every point where a write can be cut short) and counts them, so a test can kill it
# before each write in turn. The script defines `kill_at` before this and prints `calls[0]`.
KILL_BEFORE_WRITE = """
import os, signal

calls = [0]


def counted(real):
    def call(*args):
        calls[0] += 1
        if calls[0] == kill_at:
            os.kill(os.getpid(), signal.SIGKILL)
        return real(*args)

    return call


os.fsync, os.replace = counted(os.fsync), counted(os.replace)
"""


def read_only_mem(vault, *args):
    """Run `mem --vault VAULT ARGS` with the vault mounted read-only in a mount namespace of
    its own (root writes through read-only permissions, not through a read-only mount)."""
    mount = ["unshare", "-rm", "sh", "-c", 'mount --bind -o ro "$1" "$1" && shift && exec "$@"']
    if shutil.which("unshare") is None:
        pytest.skip("no unshare(1) to mount the vault read-only")
    probe = subprocess.run([*mount, "sh", str(vault), "true"], capture_output=True, check=False)
    if probe.returncode != 0:
        pytest.skip(f"cannot mount the vault read-only here: {probe.stderr.decode().strip()}")
    command = [sys.executable, "-m", "mem", "--vault", str(vault), *args]
    return subprocess.run(
        [*mount, "sh", str(vault), *command], capture_output=True, text=True, check=False
    )


def with_default_sigint(command: list[str]) -> list[str]:
    """`command`, started so that Ctrl-C (SIGINT) reaches it as in a terminal even when the
    tests run as a background job, whose shell starts every command with SIGINT ignored (and
    Python then leaves it ignored)."""
    restore = "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); "
    restore += "os.execv(sys.argv[1], sys.argv[1:])"
    return [sys.executable, "-c", restore, *command]
