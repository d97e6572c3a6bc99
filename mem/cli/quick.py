"""`mem recall`, `mem search` and `mem hook` without Typer: the commands agents run most.

Importing Typer and building its app costs about 40 ms, a third of a search. This path reads the
plain forms of these two commands' options (`--name VALUE`, `-n VALUE`, flags, the root `--vault`
and `--agent` before the command) and answers exactly as the Typer commands do: they call the
same bodies, in `mem/cli/answers.py`. Anything else (help, `--opt=value`, `--`, a typo, a
number that is not one) returns None, and the Typer app handles it, so usage errors and help stay
in one place. `tests/cli/test_quick.py` runs both parsers on the same requests.
"""

from typing import TYPE_CHECKING, NamedTuple

from mem.cli.answers import SEARCH_LIMIT, recall_answer, search_answer
from mem.cli.failure import report_failure
from mem.errors import ExitCode, MemError

if TYPE_CHECKING:
    from collections.abc import Iterator

    from mem.config import Settings


class Grammar(NamedTuple):
    """The options of one command that the quick path reads, by the name it files them under."""

    values: dict[str, str]  # options taking one value
    flags: dict[str, str]  # options taking none
    repeated: dict[str, str]  # options taking one value, any number of times
    numbers: dict[str, int]  # names whose value is a whole number, and the least Typer takes
    positional: str = ""  # the name of the one argument the command requires, if any
    dashed: frozenset[str] = frozenset()  # names whose value may start with "-"


ROOT = Grammar(
    values={"--vault": "vault", "--agent": "agent", "-a": "agent"},
    flags={},
    repeated={},
    numbers={},
)
COMMANDS = {
    "recall": Grammar(
        values={
            "--task": "task",
            "--budget": "budget",
            "--format": "format",
            "--agent": "agent",
            "-a": "agent",
            "--vault": "vault",
        },
        flags={"--json": "json"},
        repeated={},
        dashed=frozenset({"task"}),
        numbers={"budget": 0},
    ),
    "search": Grammar(
        values={
            "--agent": "agent",
            "-a": "agent",
            "--category": "category",
            "-c": "category",
            "--kind": "kind",
            "-k": "kind",
            "--tag": "tag",
            "-t": "tag",
            "--since": "since",
            "--limit": "limit",
            "-n": "limit",
            "--vault": "vault",
        },
        flags={"--all": "all", "--no-decay": "no_decay", "--json": "json", "--user": "user"},
        repeated={"--exclude-agent": "exclude_agent"},
        positional="query",
        numbers={"limit": 1},
    ),
    "hook": Grammar(
        values={"--agent": "agent", "-a": "agent", "--vault": "vault"},
        flags={},
        repeated={},
        positional="kind",
        numbers={},
    ),
}


class Request(NamedTuple):
    command: str
    root: dict[str, str]
    given: dict[str, str]
    flags: frozenset[str]
    repeated: dict[str, list[str]]


def parse(argv: list[str]) -> Request | None:
    """Split `[root options] COMMAND [options]`, or return None for anything not plain."""
    words = iter(argv)
    root = read_root(words)
    if root is None:
        return None
    command, root_values = root
    grammar = COMMANDS[command]
    given: dict[str, str] = {}
    flags: set[str] = set()
    repeated: dict[str, list[str]] = {name: [] for name in grammar.repeated.values()}
    for word in words:
        if word in grammar.flags and grammar.flags[word] not in flags:
            flags.add(grammar.flags[word])
        elif word in grammar.values and grammar.values[word] not in given:
            value = value_of(words, grammar, grammar.values[word])
            if value is None:
                return None
            given[grammar.values[word]] = value
        elif word in grammar.repeated:
            value = value_of(words, grammar, grammar.repeated[word])
            if value is None:
                return None
            repeated[grammar.repeated[word]].append(value)
        elif grammar.positional and not word.startswith("-") and grammar.positional not in given:
            given[grammar.positional] = word
        else:
            return None
    if grammar.positional and grammar.positional not in given:
        return None  # Typer says what is missing
    for name, least in grammar.numbers.items():
        value = given.get(name, str(least))
        if not (value.isascii() and value.isdigit()) or int(value) < least:
            return None  # Typer says what is wrong with it
    return Request(command, root_values, given, frozenset(flags), repeated)


def read_root(words: "Iterator[str]") -> tuple[str, dict[str, str]] | None:
    """Read the root options up to the command's name."""
    values: dict[str, str] = {}
    for word in words:
        if word in COMMANDS:
            return word, values
        if word not in ROOT.values or ROOT.values[word] in values:
            return None
        value = value_of(words, ROOT, ROOT.values[word])
        if value is None:
            return None
        values[ROOT.values[word]] = value
    return None


def value_of(words: "Iterator[str]", grammar: Grammar, name: str) -> str | None:
    value = next(words, None)
    if value is None or (value.startswith("-") and name not in grammar.dashed):
        return None
    return value


def run(argv: list[str]) -> int | None:
    """Answer a plain `mem recall` or `mem search`; None when Typer should read the arguments."""
    request = parse(argv)
    if request is None:
        return None
    if request.command == "hook":  # fail-open: it reports its own failures, and exits 0
        import sys

        from mem.cli.hook import run_hook

        given, root = request.given, request.root
        agent, vault = given.get("agent", root.get("agent")), given.get("vault", root.get("vault"))
        return run_hook(given["kind"], agent, vault, sys.stdin.buffer, sys.stdout)
    as_json = "json" in request.flags
    try:
        from pathlib import Path

        from mem.cli.feedback import warn_unknown_settings
        from mem.config import load_settings

        root, given = request.root, request.given
        # A search's --agent is a filter: the agent it searches as is the root option's.
        own = given if request.command == "recall" else {}

        def settings() -> "Settings":
            found = load_settings(
                vault_flag=given.get("vault", root.get("vault")),
                agent_flag=own.get("agent", root.get("agent")),
                cwd=Path.cwd(),
            )
            warn_unknown_settings(found)
            return found

        if request.command == "recall":
            budget = int(given["budget"]) if "budget" in given else None
            recall_answer(
                settings, given.get("task", ""), budget, given.get("format", "md"), as_json
            )
        else:
            from mem.services.search import Query

            query = Query(
                text=given["query"],
                agent=given.get("agent"),
                category=given.get("category"),
                kind=given.get("kind"),
                tag=given.get("tag"),
                exclude_agents=tuple(request.repeated["exclude_agent"]),
                include_superseded="all" in request.flags,
                limit=int(given.get("limit", SEARCH_LIMIT)),
                decay="no_decay" not in request.flags,
            )
            search_answer(settings, query, given.get("since"), as_json, "user" in request.flags)
    except MemError as exc:
        report_failure(str(exc), exc.code, as_json)
        return int(exc.exit_code)
    except KeyboardInterrupt:
        report_failure("interrupted", "interrupted", as_json)
        return int(ExitCode.INTERRUPTED)
    return 0
