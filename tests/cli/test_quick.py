"""A plain `mem recall` or `mem search` skips the Typer app, and answers exactly as Typer does."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from tests.cli.helpers import ok

SLOW_MODULES = {
    *("typer", "dataclasses", "inspect", "whoosh.searching", "whoosh.query"),
    *("whoosh.index", "whoosh.fields", "whoosh.codec.whoosh3", "whoosh.reading"),
}


@pytest.mark.parametrize(
    ("args", "edited"),
    [
        (["recall", "--task", "redis", "--json"], False),
        (["search", "redis", "--json"], False),
        (["search", "redis", "--json"], True),
    ],
)
def test_a_plain_recall_or_search_loads_none_of_the_slow_modules(vault, mem, args, edited):
    # Typer's app costs ~40 ms to import and build, dataclasses (with inspect) ~30 ms, Whoosh's
    # searcher with its query modules ~15 ms, and Whoosh's index, fields and codec (which only
    # writers need: segment_reader.py reads the index) ~30 ms: none may creep back onto these
    # paths once the index is up to date. Nor may a NamedTuple of mem's with string
    # annotations (`from __future__ import annotations`): typing compiles each into a
    # ForwardRef, and the process's first compile() costs ~1.3 ms, the rest ~15 µs a field.
    ok(mem("add", "Cache invalidation uses redis pubsub", "-c", "decisions", "-a", "dev"))
    ok(mem("search", "redis"))
    if edited:  # the search picks the change up: the update path, then the search
        decisions = vault / "dev" / "decisions.md"
        decisions.write_text(decisions.read_text() + "\nHand-written line.\n")
    code = (
        "import atexit, sys, typing\n"
        "refs = []\n"
        "made = typing.ForwardRef.__init__\n"
        "def counted(self, arg, *rest, **named):\n"
        "    frame = sys._getframe(1)\n"
        "    while frame.f_code.co_filename == typing.__file__:\n"
        "        frame = frame.f_back\n"
        "    if frame.f_globals.get('__name__', '').startswith('mem'):\n"
        "        refs.append(frame.f_globals['__name__'] + ': ' + arg)\n"
        "    made(self, arg, *rest, **named)\n"
        "typing.ForwardRef.__init__ = counted\n"
        "from mem.cli.main import main\n"
        f"sys.argv = ['mem', '--vault', {str(vault)!r}, *{args!r}]\n"
        # mem ends a quick command without the interpreter's teardown, after running what
        # was registered to run at exit: so is this report.
        f"slow = {SLOW_MODULES!r}\n"
        "report = lambda: sys.stderr.write(\n"
        "    f'loaded: {sorted(slow & set(sys.modules))} forward refs: {refs}'\n"
        ")\n"
        "atexit.register(report)\n"
        "main()\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode == 0, result.stderr
    assert "redis pubsub" in result.stdout
    if edited:  # writing the index needs Whoosh's writer
        assert result.stderr.endswith("forward refs: []"), result.stderr
    else:
        assert result.stderr.endswith("loaded: [] forward refs: []"), result.stderr


CASES = [
    ["recall", "--task", "redis cache"],
    ["recall", "--task", "redis cache", "--json"],
    ["recall", "--task", "redis cache", "--format", "claude-hook"],
    ["recall", "--task", "redis cache", "--budget", "60", "--json"],
    ["recall", "--agent", "qa", "--task", "redis cache"],
    ["recall", "--task", "redis cache", "--format", "yaml"],
    ["recall", "--task", "redis cache", "--budget", "10", "--json"],
    ["recall", "--task", "redis cache", "--budget", "0"],
    ["recall", "--task", "redis cache", "--agent", "Bad Name"],
    ["recall", "--task", "-leading dash"],
    ["search", "redis"],
    ["search", "redis cache", "--json"],
    ["search", "--limit", "1", "redis"],
    ["search", "redis", "-a", "qa", "-c", "lessons", "--json"],
    ["search", "redis", "--kind", "decision", "--tag", "cache", "--since", "7d"],
    ["search", "redis", "--exclude-agent", "qa", "--exclude-agent", "dev", "--json"],
    ["search", "redis", "--all", "--no-decay", "-n", "3"],
    ["search", "redis", "--category", "nope"],
    ["search", "redis", "--since", "someday", "--json"],
    ["search", "redis", "--agent", "Bad Name"],
    ["search", "   ", "--json"],
    ["--agent", "qa", "search", "redis"],
    ["-a", "dev", "recall", "--task", "redis"],
]


@pytest.mark.parametrize("args", CASES, ids=" ".join)
def test_the_quick_path_answers_as_the_typer_command_does(run_mem, vault, args):
    run_mem("--vault", str(vault), "add", "Redis is the session cache.", "-c", "decisions")
    run_mem(
        "--vault",
        str(vault),
        "add",
        "Flush redis after a schema change.",
        "-c",
        "lessons",
        "-a",
        "qa",
    )
    run_mem("--vault", str(vault), "search", "redis")  # builds the index: no notice below
    quick = run_mem("--vault", str(vault), *args)
    slow = run_mem(f"--vault={vault}", *args)  # a form the quick path leaves to Typer
    assert quick.exit_code == slow.exit_code, (quick.stderr, slow.stderr)
    assert steady(quick.stdout) == steady(slow.stdout)
    assert quick.stderr == slow.stderr


def steady(output: str) -> str:
    """The output without search scores: they decay with the clock between the two runs."""
    output = re.sub(r'"score": [-+.e0-9]+', '"score": …', output)
    return re.sub(r"  \([-+.e0-9]+\)$", "  (…)", output, flags=re.MULTILINE)


def test_the_quick_path_answered_those_requests_itself():
    from mem.cli.quick import parse

    for args in CASES:
        assert parse(["--vault", "v", *args]) is not None, args
    assert parse(["--vault=v", *CASES[0]]) is None


def test_the_root_options_before_recall_are_honoured(run_mem, vault, tmp_path):
    run_mem(
        "--vault", str(vault), "add", "Chose Postgres for billing.", "-c", "decisions", "-a", "dev"
    )
    quick = run_mem(
        "--vault", str(vault), "--agent", "dev", "recall", "--task", "billing", cwd=tmp_path
    )
    slow = run_mem(
        "--vault", str(vault), "--agent", "dev", "recall", "--task=billing", cwd=tmp_path
    )
    assert quick.exit_code == slow.exit_code == 0
    assert quick.stdout == slow.stdout and "Chose Postgres for billing." in quick.stdout


def test_arguments_the_quick_path_does_not_know_go_to_typer(mem, vault):
    assert mem("recall", "--help").stdout.startswith("Usage: mem recall")
    result = mem("recall", "--budget", "lots")
    assert result.exit_code == 2 and "Invalid value" in result.stderr
    result = mem("recall", "--nope")
    assert result.exit_code == 2 and "No such option" in result.stderr
    result = mem("recall", "--budget", "²")  # a digit to str.isdigit, not to int()
    assert result.exit_code == 2 and "Invalid value" in result.stderr
    assert mem("search", "--help").stdout.startswith("Usage: mem search")
    for args, says in (
        ([], "Missing argument"),
        (["redis", "--limit", "0"], "Invalid value"),
        (["redis", "-n", "³"], "Invalid value"),
        (["redis", "cache"], "unexpected extra argument"),
        (["redis", "--exclude-agent"], "requires an argument"),
        (["redis", "--", "--json"], "unexpected extra argument"),
    ):
        result = mem("search", *args)
        assert result.exit_code == 2 and says in result.stderr, (args, result.stderr)


@pytest.mark.parametrize(
    "args",
    [
        ["--help"],
        ["recall", "--task", "redis"],
        ["search", "redis"],
        ["list"],
        ["roster"],
        ["task", "list"],
        ["stats"],
        ["show", "ID"],
    ],
    ids=" ".join,
)
def test_a_reader_that_leaves_early_gets_no_traceback(vault, mem, args):
    # `mem search … | head -1`: the quick paths stop as quietly as Click stops the others.
    entry_id = ok(mem("add", "Cache invalidation uses redis pubsub", "-c", "decisions")).stdout
    ok(mem("task", "add", "Wire the redis retry", "-a", "main"))
    args = [entry_id.strip() if arg == "ID" else arg for arg in args]
    with subprocess.Popen(
        [sys.executable, "-m", "mem", *args],  # the vault from MEM_VAULT: `mem --help` stays bare
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "MEM_VAULT": str(vault)},
    ) as process:
        assert process.stdout is not None and process.stderr is not None
        process.stdout.close()  # before mem can write: every write it makes meets a closed pipe
        stderr = process.stderr.read().decode()
        code = process.wait(timeout=60)
    assert code == 1, stderr
    assert "Traceback" not in stderr


@pytest.mark.parametrize("name", ["recall", "search"])
def test_the_fast_grammar_knows_exactly_the_options_typer_declares(name):
    """The quick parser's options are Typer's own, name for name: an option added to the
    command and forgotten here (or the other way) fails this test, not a user."""
    import typer.main

    from mem.cli.app import build_app
    from mem.cli.quick import COMMANDS

    command = typer.main.get_command(build_app(only=name)).commands[name]  # type: ignore[attr-defined]
    declared: dict[str, str] = {}  # option -> how it is read: value, flag or repeated
    arguments = []
    least: dict[str, int] = {}  # option -> the least whole number Typer takes
    for param in command.params:
        if param.param_type_name == "argument":
            arguments.append(param.name)
        if param.param_type_name != "option":
            continue
        shape = "flag" if param.is_flag else "repeated" if param.multiple else "value"
        for opt in (*param.opts, *param.secondary_opts):
            if opt not in ("-h", "--help"):
                declared[opt] = shape
                if type(param.type).__name__ == "IntRange":
                    least[opt] = param.type.min
    grammar = COMMANDS[name]
    known = {
        **dict.fromkeys(grammar.values, "value"),
        **dict.fromkeys(grammar.repeated, "repeated"),
        **dict.fromkeys(grammar.flags, "flag"),
    }
    assert known == declared
    assert ([grammar.positional] if grammar.positional else []) == arguments
    # A number Typer bounds is bounded the same here (the quick path hands others to Typer).
    for opt, minimum in least.items():
        assert grammar.numbers[grammar.values[opt]] == minimum, opt


def test_a_quick_command_ends_with_its_code_output_and_exit_functions(tmp_path):
    # leave() skips the interpreter's teardown, not what was registered to run at exit (a
    # read-only vault's temporary index copy is removed so), nor output, even output written
    # by an exit function into a buffered stream (no PYTHONUNBUFFERED, as in a plain shell).
    ran = tmp_path / "ran"
    code = (
        "import atexit, sys\n"
        "from mem.cli.main import leave\n"
        f"atexit.register(lambda: open({str(ran)!r}, 'w').write('yes'))\n"
        "atexit.register(lambda: (sys.stdout.write(' at exit'), sys.stderr.write(' too')))\n"
        "sys.stdout.write('answer')\n"
        "sys.stderr.write('notice')\n"
        "leave(3)\n"
    )
    environment = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env=environment,
    )
    assert (done.returncode, done.stdout, done.stderr) == (3, "answer at exit", "notice too")
    assert ran.read_text() == "yes"


@pytest.mark.parametrize("closed", [">&-", "2>&-", ">&- 2>&-"])
@pytest.mark.parametrize(
    "args", [["search", "redis"], ["recall", "--task", "redis"], ["list"], ["--help"]]
)
def test_a_closed_stdout_or_stderr_costs_no_traceback_and_no_failure(vault, mem, args, closed):
    # Python leaves None for a stream closed before it started; every print would trip on it.
    ok(mem("add", "Cache invalidation uses redis pubsub", "-c", "decisions", "-a", "dev"))
    words = " ".join(["'" + word + "'" for word in [sys.executable, "-m", "mem", *args]])
    command = f"cd '{vault.parent}' && {words} {closed}"
    done = subprocess.run(
        ["bash", "-c", command], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr


def test_only_a_quick_command_collects_cycles_less_often(vault, mem):
    # Raised for the quick paths (they keep their objects to the end); a form only Typer reads
    # runs as every other command, with Python's own thresholds.
    ok(mem("add", "Cache invalidation uses redis pubsub", "-c", "decisions", "-a", "dev"))
    code = (
        "import contextlib, gc, io, sys\n"
        "from mem.cli.main import GC_THRESHOLD, quick\n"
        "usual = gc.get_threshold()\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    answered = quick(['--vault', sys.argv[1], 'search', 'redis'])\n"
        "assert answered == 0 and gc.get_threshold()[0] == GC_THRESHOLD, gc.get_threshold()\n"
        "gc.set_threshold(*usual)\n"
        "assert quick(['search', '--help']) is None, 'the quick path read --help'\n"
        "assert gc.get_threshold() == usual, gc.get_threshold()\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code, str(vault)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
