"""Meta: help for every command, every command in the README, lazy imports, version, colour."""

from __future__ import annotations

import json
import os
import pty
import re
import subprocess
import sys

import pytest

from mem import __version__
from mem.cli.app import COMMANDS

from .helpers import ANSI, ok

README = os.path.join(os.path.dirname(__file__), "..", "..", "README.md")
COMMAND_LINES = [(name,) for name, _, _ in COMMANDS if name != "task"] + [
    ("task",),
    ("task", "add"),
    ("task", "done"),
    ("task", "list"),
]
# SGR parameters that set a colour (foreground, background, 256/true colour), not bold or dim.
COLOUR = re.compile(r"\x1b\[(?:[0-9;]*;)?(?:3[0-9]|4[0-9]|9[0-7]|10[0-7])(?:;[0-9;]*)?m")


@pytest.mark.parametrize("command", COMMAND_LINES, ids=" ".join)
def test_every_command_has_help_text(run_mem, command):
    result = ok(run_mem(*command, "--help"))
    lines = result.stdout.splitlines()
    assert lines[0].startswith(f"Usage: mem {' '.join(command)} ")
    description = result.stdout.split("\n\n", 1)[1].split("Options:", 1)[0]
    assert len(description.strip()) > 10, result.stdout
    assert result.stderr == ""


def test_the_top_level_help_lists_every_command_with_a_summary(run_mem):
    out = ok(run_mem("--help")).stdout
    listed = dict(
        re.findall(r"^  ([a-z]+) +(\S.*)$", out.split("Commands:", 1)[1], flags=re.MULTILINE)
    )
    assert set(listed) == {name for name, _, _ in COMMANDS}


TYPER_HELP = "import sys; sys.argv = ['mem', '--help']; from mem.cli.app import main; main()"


def typer_help(width: str) -> str:
    env = dict(os.environ, COLUMNS=width)
    return subprocess.run(
        [sys.executable, "-c", TYPER_HELP],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=True,
    ).stdout


@pytest.mark.parametrize("width", ["80", "200"])
def test_the_kept_top_level_help_is_what_typer_prints(run_mem, width):
    # `mem --help` prints mem/cli/root_help.py without importing Typer; when a command's summary
    # or a root option changes, `python -m mem.cli.root_help` brings it up to date.
    typer = typer_help(width)
    for flag in ("--help", "-h"):
        kept = ok(run_mem(flag, env={"COLUMNS": width}))
        assert kept.stdout == typer, "run `python -m mem.cli.root_help` to update it"
        assert kept.stderr == ""


def test_a_narrow_terminal_gets_the_help_typer_wraps_for_it(run_mem):
    narrow = ok(run_mem("--help", env={"COLUMNS": "60"})).stdout
    assert narrow == typer_help("60") and narrow != ok(run_mem("--help")).stdout


@pytest.mark.parametrize("command", COMMAND_LINES, ids=" ".join)
def test_every_command_is_in_the_readme(command):
    with open(README, encoding="utf-8") as handle:
        readme = handle.read()
    words = r"\s+".join(map(re.escape, ("mem", *command)))
    assert re.search(rf"{words}\b", readme), f"README.md does not mention `mem {' '.join(command)}`"


def test_importing_the_app_loads_no_heavy_library():
    code = (
        "import json, sys, mem.cli.app\n"
        "print(json.dumps(sorted({m.split('.')[0] for m in sys.modules} & "
        "{'whoosh', 'watchdog', 'rich'})))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert json.loads(result.stdout) == []


def test_the_code_above_would_notice_a_heavy_import():
    code = "import json, sys, mem.cli.render, rich.console; print('rich' in sys.modules)"
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert result.stdout.strip() == "True"


def test_version_prints_the_package_version(run_mem):
    result = ok(run_mem("--version"))
    assert result.stdout == f"mem {__version__}\n"
    assert re.fullmatch(r"\d+\.\d+\.\d+\S*", __version__)


def seeded(mem):
    ok(mem("add", "Cache invalidation uses redis pubsub", "-c", "decisions", "-a", "dev"))
    ok(mem("task", "add", "rotate the redis password", "-a", "dev"))


def test_piped_output_has_no_escape_codes(mem):
    seeded(mem)
    env = {"NO_COLOR": "1", "TERM": "xterm-256color"}
    for args in (("search", "redis"), ("list",), ("stats",), ("doctor",), ("task", "list")):
        result = mem(*args, env=env)
        assert result.exit_code in (0, 1), result.stderr
        assert not ANSI.search(result.stdout), (args, result.stdout)
        assert not ANSI.search(result.stderr), (args, result.stderr)


def on_a_terminal(vault, args, no_color: bool) -> str:
    """Run mem with stdout on a pseudo-terminal; return what it printed there."""
    env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "200"}
    env.pop("NO_COLOR", None)
    env.pop("FORCE_COLOR", None)
    if no_color:
        env["NO_COLOR"] = "1"
    leader, follower = pty.openpty()
    try:
        completed = subprocess.run(
            [sys.executable, "-m", "mem", "--vault", str(vault), *args],
            stdin=subprocess.DEVNULL,
            stdout=follower,
            stderr=subprocess.PIPE,
            env=env,
            timeout=60,
            check=False,
        )
    finally:
        os.close(follower)
    assert completed.returncode == 0, completed.stderr
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # EIO: the terminal's other end is closed and drained
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(leader)
    return b"".join(chunks).decode("utf-8", "replace")


def test_no_color_removes_colour_on_a_terminal(mem, vault):
    seeded(mem)
    coloured = on_a_terminal(vault, ("search", "redis"), no_color=False)
    assert COLOUR.search(coloured), "the highlight should be coloured without NO_COLOR"
    plain = on_a_terminal(vault, ("search", "redis"), no_color=True)
    assert "redis" in plain
    assert not COLOUR.search(plain), repr(plain)


def test_ci_runs_the_suite_as_an_ordinary_shell_would():
    """This machine sets PYTHONUNBUFFERED; a new user's shell does not, and it once hid a bug."""
    with open(os.path.join(os.path.dirname(README), ".ci", "run"), encoding="utf-8") as handle:
        ci = handle.read()
    assert "unset PYTHONUNBUFFERED PYTHONDONTWRITEBYTECODE" in ci


def test_help_before_a_command_name_is_the_full_root_help(run_mem):
    result = run_mem("--help", "list")
    assert result.exit_code == 0
    assert "search" in result.stdout and "commit" in result.stdout and "list" in result.stdout


def test_a_required_argument_reads_as_a_name_not_a_set_of_choices(run_mem):
    usage = run_mem("show", "--help").stdout.splitlines()[0]
    assert usage == "Usage: mem show [OPTIONS] ID"


def test_no_color_means_no_bold_or_dim_either(mem, vault):
    ok(mem("add", "Sessions live in Redis.", "-c", "facts", "-a", "dev"))
    script = (
        "import os, pty, sys\n"
        "pid, fd = pty.fork()\n"
        "if pid == 0:\n"
        "    os.execvp(sys.executable, [sys.executable, '-m', 'mem', 'stats'])\n"
        "out = b''\n"
        "while True:\n"
        "    try:\n"
        "        chunk = os.read(fd, 4096)\n"
        "    except OSError:\n"
        "        break\n"
        "    if not chunk:\n"
        "        break\n"
        "    out += chunk\n"
        "sys.stdout.write(out.decode(errors='replace'))\n"
    )
    env = {**os.environ, "NO_COLOR": "1", "MEM_VAULT": str(vault)}
    shown = subprocess.run(
        [sys.executable, "-c", script],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    ).stdout
    assert "\x1b[" not in shown and "facts" in shown


def test_every_failure_has_a_kind_of_its_own():
    """No bare MemError: each failure has a subclass, so --json consumers get a stable code."""
    root = os.path.join(os.path.dirname(README), "mem")
    bare = []
    for folder, _, names in os.walk(root):
        for name in names:
            if name.endswith(".py"):
                with open(os.path.join(folder, name), encoding="utf-8") as handle:
                    text = handle.read()
                if re.search(r"(?:raise|return) MemError\(", text):
                    bare.append(name)
    assert bare == []
