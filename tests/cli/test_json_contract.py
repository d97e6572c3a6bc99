"""The --json contract: exact key sets of every payload, errors included (schema_version 1)."""

from __future__ import annotations

import json

import pytest

from .helpers import ENTRY_KEYS, STATS_KEYS, data, entry_block, error_payload, write_category_file

HIT_KEYS = ENTRY_KEYS | {"score", "snippet"}
PROBLEM_KEYS = {"code", "path", "line", "message", "fixed"}
ENTRY_TYPES = {
    "id": str,
    "agent": str,
    "category": str,
    "kind": str,
    "date": str,
    "tags": list,
    "scope": str,
    "path": str,
    "line": int,
    "reinforced": int,
    "archived": bool,
    "header": dict,
    "body": str,
}


def check_entry(entry: dict) -> None:
    assert set(entry) == ENTRY_KEYS
    for key, kind in ENTRY_TYPES.items():
        assert isinstance(entry[key], kind), (key, entry[key])
    assert entry["superseded_by"] is None or isinstance(entry["superseded_by"], str)


def test_every_json_payload_has_exactly_its_keys(run_mem, tmp_path):
    mem = run_mem  # every run from tmp_path, where `mem init` makes the vault
    init = data(mem("init", "--json"))
    assert set(init) == {"schema_version", "vault", "created", "already_existed"}

    added = data(mem("add", "Chose bcrypt #auth", "-c", "decisions", "-a", "dev", "--json"))
    assert set(added) == {"schema_version", "entry"}
    check_entry(added["entry"])
    entry_id = added["entry"]["id"]

    shown = data(mem("show", entry_id, "--json"))
    assert set(shown) == {"schema_version", "entry"}
    check_entry(shown["entry"])

    listed = data(mem("list", "--json"))
    assert set(listed) == {"schema_version", "entries", "count"}
    assert listed["count"] == 1
    check_entry(listed["entries"][0])

    found = data(mem("search", "bcrypt", "--json"))
    assert set(found) == {"schema_version", "hits", "count"}
    assert found["count"] == 1 and set(found["hits"][0]) == HIT_KEYS
    assert isinstance(found["hits"][0]["score"], float)
    assert isinstance(found["hits"][0]["snippet"], str)

    edited = data(mem("edit", entry_id, "--json", env={"EDITOR": "true"}))
    assert set(edited) == {"schema_version", "changed", "entry", "problems"}
    check_entry(edited["entry"])

    task = data(mem("task", "add", "write the docs", "--json"))
    assert set(task) == {"schema_version", "entry"}
    check_entry(task["entry"])
    done = data(mem("task", "done", task["entry"]["id"], "--json"))
    assert set(done) == {"schema_version", "entry", "ticked"}
    check_entry(done["entry"])
    tasks = data(mem("task", "list", "--json"))
    assert set(tasks) == {"schema_version", "entries", "count"}

    forgotten = data(mem("forget", entry_id, "--json"))
    assert set(forgotten) == {"schema_version", "entry"}
    check_entry(forgotten["entry"])

    exported = data(mem("export", "--format", "json"))
    assert set(exported) == {"schema_version", "entries", "count"}
    for entry in exported["entries"]:
        check_entry(entry)

    stats = data(mem("stats", "--json"))
    assert set(stats) == STATS_KEYS

    handoff = data(mem("handoff", "--what", "wrote the docs", "-a", "dev", "--json", input=""))
    assert set(handoff) == {"schema_version", "entry", "redactions"}
    check_entry(handoff["entry"])
    latest = data(mem("handoff", "show", "-a", "dev", "--json"))
    assert set(latest) == {"schema_version", "entry"}
    check_entry(latest["entry"])
    saved = data(mem("checkpoint", "--what", "halfway", "-a", "dev", "--json"))
    assert set(saved) == {"schema_version", "checkpoint"}
    assert set(saved["checkpoint"]) == {
        "agent",
        "saved",
        "status",
        "task",
        "what",
        "next",
        "command",
        "output_tail",
    }
    assert set(data(mem("checkpoint", "clear", "-a", "dev", "--json"))) == {
        "schema_version",
        "cleared",
    }
    roster = data(mem("roster", "--json"))
    assert set(roster) == {"schema_version", "agents"}
    assert set(roster["agents"][0]) == {"agent", "when", "what"}

    vault = tmp_path / ".memory"
    write_category_file(
        vault, "dev/lessons.md", "dev", "lessons", entry_block("odd", "someday", "no date")
    )
    doctor = mem("doctor", "--json")
    assert doctor.exit_code == 1
    report = json.loads(doctor.stdout)
    assert set(report) == {
        "schema_version",
        "problems",
        "warnings",
        "files_checked",
        "entries_checked",
        "healthy",
    }
    assert report["schema_version"] == 1 and report["healthy"] is False
    assert all(set(problem) == PROBLEM_KEYS for problem in report["problems"])


JSON_COMMANDS = [
    ("add", "some text"),
    ("show", "abcd1234"),
    ("list",),
    ("search", "anything"),
    ("edit", "abcd1234"),
    ("forget", "abcd1234"),
    ("task", "add", "a task"),
    ("task", "done", "abcd1234"),
    ("task", "list"),
    ("doctor",),
    ("stats",),
    ("recall",),
    ("handoff", "--what", "done"),
    ("handoff", "show"),
    ("checkpoint", "--what", "halfway"),
    ("checkpoint", "show"),
    ("checkpoint", "clear"),
    ("roster",),
]


@pytest.mark.parametrize("args", JSON_COMMANDS, ids=lambda args: " ".join(args[:2]))
def test_missing_vault_is_a_json_error_payload(run_mem, tmp_path, args):
    result = run_mem(*args, "--json", cwd=tmp_path)
    message = error_payload(result, 1, "vault_not_found")
    assert "mem init" in message


@pytest.mark.parametrize(
    ("args", "exit_code", "code"),
    [
        (("add", "x", "--agent", "../x"), 2, "invalid_agent"),
        (("add", "x", "--category", "nope"), 2, "invalid_category"),
        (("add", "x", "--category", "facts", "--kind", "decision"), 2, "invalid_input"),
        (("add", ""), 2, "invalid_input"),
        (("show", "nosuchid"), 1, "entry_not_found"),
        (("show", "abc"), 2, "invalid_input"),
        (("search", "x", "--category", "nope"), 2, "invalid_category"),
        (("list", "--agent", "_x"), 2, "invalid_agent"),
        (("forget", "nosuchid"), 1, "entry_not_found"),
        (("task", "done", "nosuchid"), 1, "entry_not_found"),
    ],
    ids=lambda value: " ".join(value) if isinstance(value, tuple) else str(value),
)
def test_expected_failures_are_json_error_payloads(mem, args, exit_code, code):
    error_payload(mem(*args, "--json"), exit_code, code)


def test_init_failure_is_a_json_error_payload(run_mem):
    message = error_payload(run_mem("init", "missing-folder", "--json"), 1, "not_a_folder")
    assert "missing-folder" in message


@pytest.mark.parametrize(
    "args",
    [["handoff", "--json", "show"], ["checkpoint", "--json", "show"]],
    ids=" ".join,
)
def test_json_given_to_a_group_gives_a_json_error_from_its_subcommand(run_mem, tmp_path, args):
    result = run_mem("--vault", str(tmp_path / "none"), *args)
    assert result.exit_code == 1
    assert json.loads(result.stdout)["error"]["code"] == "vault_not_found"


def test_every_command_takes_its_context_first_so_errors_know_the_output_mode():
    """Results and errors read --json from the parsed context (json_output): a command that
    did not take it could only guess from its own flags, and miss a group's --json."""
    import inspect

    import typer

    from mem.cli.app import build_app

    def commands(app: typer.Typer):
        for info in app.registered_commands:
            yield info.callback
        for group in app.registered_groups:
            assert group.typer_instance is not None
            if group.typer_instance.registered_callback is not None:
                yield group.typer_instance.registered_callback.callback
            yield from commands(group.typer_instance)

    found = [callback for callback in commands(build_app()) if callback is not None]
    assert len(found) > 20
    for callback in found:
        first = next(iter(inspect.signature(callback).parameters.values()))
        assert first.annotation in (typer.Context, "typer.Context"), callback.__qualname__
