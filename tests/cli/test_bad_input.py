"""Bad input: exit 2 for usage, 1 for expected failures, one `mem: ...` line, nothing written."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from .helpers import (
    data,
    entry_block,
    error_payload,
    failed,
    messages,
    no_traceback,
    ok,
    write_category_file,
)

BAD_AGENTS = ["../x", "/etc", "a b", "_shared", "", ".hidden", "Dev"]


def tree(folder: Path) -> dict[str, bytes]:
    """Every file and folder under `folder`, state included."""
    return {
        path.relative_to(folder).as_posix(): path.read_bytes() if path.is_file() else b"/"
        for path in sorted(folder.rglob("*"))
    }


@pytest.mark.parametrize("name", BAD_AGENTS)
def test_a_bad_agent_name_is_refused_before_anything_is_written(mem, vault, tmp_path, name):
    before = tree(vault)
    message = failed(mem("add", "hello", "--agent", name), 2)
    shown = repr(name) if name else "'(empty)'"
    assert message.startswith(f"mem: invalid agent name {shown}; ")
    assert tree(vault) == before
    assert not (tmp_path / "x").exists()


@pytest.mark.parametrize(
    "args",
    [
        ("--agent", "../x", "add", "hello"),
        ("search", "hello", "--agent", "../x"),
        ("search", "hello", "--exclude-agent", "/etc"),
        ("list", "--agent", "a b"),
        ("task", "list", "--agent", ".."),
        ("export", "--agent", "../x"),
        ("stats", "--agent", "_shared"),
    ],
    ids=" ".join,
)
def test_every_way_of_naming_an_agent_checks_it(mem, vault, args):
    before = tree(vault)
    assert "invalid agent name" in failed(mem(*args), 2)
    assert tree(vault) == before


def test_a_bad_mem_agent_variable_is_refused(mem, vault):
    before = tree(vault)
    assert "invalid agent name '../x'" in failed(mem("add", "hi", env={"MEM_AGENT": "../x"}), 2)
    assert "invalid agent name" in failed(mem("search", "hi", env={"MEM_AGENT": "/etc"}), 2)
    assert tree(vault) == before


@pytest.mark.parametrize(
    "args",
    [("add", "hello", "-c", "notes"), ("search", "hello", "-c", "notes"), ("list", "-c", "notes")],
    ids=" ".join,
)
def test_an_unknown_category_is_refused(mem, vault, args):
    before = tree(vault)
    message = failed(mem(*args), 2)
    assert message == (
        "mem: unknown category 'notes'; "
        "choose one of decisions, lessons, facts, tasks, projects, handoffs"
    )
    assert tree(vault) == before


def test_a_kind_of_another_category_is_refused(mem, vault):
    message = failed(mem("add", "hello", "-c", "facts", "-k", "decision"), 2)
    assert message == "mem: kind 'decision' does not fit category facts; it belongs in decisions"
    message = failed(mem("add", "hello", "-c", "tasks", "-k", "gizmo"), 2)
    assert "choose one of task" in message
    assert not (vault / "main").exists()


@pytest.mark.parametrize("text", ["", "   ", "\n\n"])
def test_empty_text_is_refused(mem, vault, text):
    assert failed(mem("add", text), 2) == "mem: nothing to add: the text is empty"
    assert failed(mem("add", "-", input=text), 2) == "mem: nothing to add: the text is empty"
    assert not (vault / "main").exists()


def test_binary_stdin_is_refused_as_content_not_usage(mem, vault):
    png = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00"
    message = error_payload(mem("add", "-", "--json", input=png), 1, "invalid_content")
    assert "binary" in message
    assert not (vault / "main").exists()


@pytest.mark.parametrize(
    "binary",
    [
        b"\x00" * 3000,  # NULs only: read as "the input was empty", with exit 0
        b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00" + bytes(range(256)) * 8,
        b"\x7fELF\x02\x01\x01" + b"\x00" * 57 + b"GNU C Library: a string.\x00\x01\x00\x02" * 9,
    ],
)
def test_binary_stdin_to_commit_is_refused_and_nothing_is_written(mem, vault, binary):
    before = tree(vault)
    message = error_payload(
        mem("commit", "--agent", "dev", "--json", input=binary), 1, "invalid_content"
    )
    assert message == "mem: the input looks binary, not text; give agent output as text"
    assert failed(mem("commit", "--agent", "dev", "--dry-run", input=binary), 1) == message
    assert tree(vault) == before


def test_binary_file_to_commit_is_refused_by_name(mem, vault, tmp_path):
    binary = tmp_path / "shot.png"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00" + bytes(range(256)) * 8)
    before = tree(vault)
    message = failed(mem("commit", "--agent", "dev", "--file", str(binary)), 1)
    assert message == f"mem: {binary} looks binary, not text; give agent output as text"
    assert tree(vault) == before


def test_text_with_a_few_odd_bytes_and_utf16_text_are_still_committed(mem):
    odd = b"We decided to keep Postgres for billing. \x00\xff\x1b[31mred\x1b[0m\n"
    assert data(mem("commit", "--agent", "dev", "--json", "--dry-run", input=odd))["added"]
    utf16 = "We decided to keep Postgres for billing.\n".encode("utf-16")
    assert data(mem("commit", "--agent", "dev", "--json", "--dry-run", input=utf16))["added"]


def test_undecodable_stdin_is_kept_with_replacement_characters(mem):
    entry = data(mem("add", "-", "--json", input=b"caf\xe9 au lait"))["entry"]
    assert entry["body"] == "caf\ufffd au lait"


def test_huge_stdin_is_refused(mem, vault):
    message = failed(mem("add", "-", input=b"a" * (1024 * 1024 + 1)), 1)
    assert "1024 KiB" in message
    assert not (vault / "main").exists()


def test_a_malformed_file_still_yields_its_good_entries(mem, vault):
    write_category_file(
        vault,
        "qa/facts.md",
        "qa",
        "facts",
        "<!-- id:unclosed kind:fact\n## 2026-11-01T10:00Z\n\nlost\n\n---\n\n",
        entry_block("good-one", "2026-11-02T10:00Z", "still here qwerty"),
        "<!-- id:bad/id kind:fact -->\n## 2026-11-03T10:00Z\n\nbad id\n\n---\n\n",
        entry_block("good-two", "2026-11-04T10:00Z", "also here qwerty"),
    )
    hits = data(mem("search", "qwerty", "--json"))["hits"]
    assert {hit["id"] for hit in hits} == {"good-one", "good-two"}
    assert data(mem("show", "good-two", "--json"))["entry"]["line"] == 27
    assert data(mem("list", "--json"))["count"] == 2

    result = mem("doctor")
    assert result.exit_code == 1
    no_traceback(result)
    assert result.stdout.splitlines() == [
        "qa/facts.md:6: malformed_entry: header comment does not close with -->",
        "qa/facts.md:20: malformed_entry: entry id 'bad/id' is not [A-Za-z0-9_-]+",
        # The broken entry's text is found by no search: where it is, is said too.
        (
            "qa/facts.md:9: stray_text: text that belongs to no entry, so no search finds it: 'lost'; "
            "give it an entry header"
        ),
    ]


def test_a_broken_mem_toml_is_a_one_line_error(mem, vault):
    (vault / "mem.toml").write_text("default_agent = = 'x'\n")
    message = failed(mem("list"), 1)
    assert "mem.toml is not valid TOML" in message and "fix or delete it" in message


def two_tasks(vault):
    write_category_file(
        vault,
        "dev/tasks.md",
        "dev",
        "tasks",
        entry_block("abcd-0001", "2026-11-01T10:00Z", "- [ ] first"),
        entry_block("abcd-0002", "2026-11-02T10:00Z", "- [ ] second"),
    )


NAMING_COMMANDS = [("show",), ("edit",), ("forget",), ("task", "done")]


@pytest.mark.parametrize("command", NAMING_COMMANDS, ids=" ".join)
def test_an_ambiguous_prefix_lists_the_candidates(mem, vault, command):
    two_tasks(vault)
    before = (vault / "dev" / "tasks.md").read_bytes()
    message = error_payload(
        mem(*command, "abcd-000", "--json", env={"EDITOR": "false"}), 1, "ambiguous_id"
    )
    assert message == (
        "mem: id abcd-000 matches 2 entries (abcd-0001, abcd-0002); give more characters"
    )
    assert (vault / "dev" / "tasks.md").read_bytes() == before


@pytest.mark.parametrize("command", NAMING_COMMANDS, ids=" ".join)
def test_an_unknown_id_fails(mem, vault, command):
    two_tasks(vault)
    error_payload(mem(*command, "zzzz-9999", "--json"), 1, "entry_not_found")


@pytest.mark.parametrize("command", NAMING_COMMANDS, ids=" ".join)
def test_a_prefix_under_four_characters_is_bad_usage(mem, vault, command):
    two_tasks(vault)
    message = error_payload(mem(*command, "abc", "--json"), 2, "invalid_input")
    assert "at least 4 characters" in message


@pytest.mark.parametrize("command", NAMING_COMMANDS, ids=" ".join)
def test_a_unique_prefix_names_the_entry(mem, vault, command):
    two_tasks(vault)
    result = ok(mem(*command, "abcd-0002", "--json", env={"EDITOR": "true"}))
    assert '"id": "abcd-0002"' in result.stdout


def test_an_id_with_odd_characters_is_bad_usage(mem, vault):
    two_tasks(vault)
    error_payload(mem("show", "../../etc", "--json"), 2, "invalid_input")


@pytest.mark.parametrize(
    "args",
    [("search", "x", "--bogus"), ("search", "x", "--limit", "0"), ("nosuchcommand",), ("add",)],
    ids=" ".join,
)
def test_bad_usage_exits_2_without_a_traceback(mem, args):
    result = mem(*args)
    assert result.exit_code == 2
    no_traceback(result)
    assert result.stdout == ""
    assert "Error:" in result.stderr


BAD_USAGE_WITH_JSON = [
    (("search", "x", "--json", "--limit", "abc"), "Invalid value for '--limit' / '-n': 'abc'"),
    (("list", "--json", "--limit", "0"), "Invalid value for '--limit' / '-n': 0"),
    (("list", "--json", "--bogus"), "No such option: --bogus; see `mem list --help`"),
    (("show", "--json"), "Missing argument 'ID'; see `mem show --help`"),
    (("nosuchcommand", "--json"), "No such command 'nosuchcommand'; see `mem --help`"),
    (("handoff", "--json", "show", "--bogus"), "No such option: --bogus; see `mem handoff"),
]


@pytest.mark.parametrize(
    ("args", "said"), BAD_USAGE_WITH_JSON, ids=[" ".join(args) for args, _ in BAD_USAGE_WITH_JSON]
)
def test_bad_usage_with_json_is_a_json_error_payload(mem, args, said):
    message = error_payload(mem(*args), 2, "usage")
    assert message.startswith(f"mem: {said}")


def test_a_category_file_symlinked_out_of_the_vault_is_never_written(mem, vault, tmp_path):
    outside = tmp_path / "outside.md"
    outside.write_text("not yours\n")
    (vault / "dev").mkdir()
    (vault / "dev" / "handoffs.md").symlink_to(outside)
    message = error_payload(
        mem("add", "hello", "-c", "handoffs", "-a", "dev", "--json"), 1, "unsafe_path"
    )
    assert "outside the vault" in message
    assert outside.read_text() == "not yours\n"


def test_odd_input_gets_a_one_line_error_or_is_read_safely(mem, vault):
    # Each of these once ended in a traceback.
    (vault / "dev").mkdir(exist_ok=True)
    (vault / "dev" / "facts.md").write_text(
        "---\nagent: dev\ncategory: facts\n---\n\n"
        "<!-- id:sup1 reinforced:\u00b2 -->\n## 2026-01-01T00:00Z\n\nsuperscript two\n\n---\n\n"
        "<!-- id:old1 -->\n## 0001-01-01T00:00+01:00\n\ntoo early\n\n---\n\n"
    )
    (vault / "bob").mkdir()
    (vault / "bob" / "lessons.md").mkdir()  # a folder where a file should be
    searched = mem("search", "superscript", "--json")
    assert searched.exit_code == 0, searched.stderr
    assert [hit["reinforced"] for hit in data(searched)["hits"]] == [0]
    for args in (
        ("search", "x", "--since", "9999999999d"),
        ("search", "x", "--since", "0001-01-01T00:00+05:00"),
    ):
        result = mem(*args)
        assert result.exit_code == 2 and "Traceback" not in result.stderr
    result = mem("stats")
    assert result.exit_code == 0 and "Traceback" not in result.stderr


def test_text_that_is_not_utf8_on_the_command_line_is_stored_with_a_replacement(mem, vault):
    result = mem("add", "caf\udce9 au lait", "-a", "dev")
    assert result.exit_code == 0, result.stderr
    assert "caf\ufffd au lait" in (vault / "dev" / "facts.md").read_text()


def test_a_broken_editor_variable_is_one_line(mem, vault):
    entry = mem("add", "edit me please", "-a", "dev").stdout.strip()
    result = mem("edit", entry, env={"EDITOR": 'vim "'})
    assert result.exit_code == 1 and "EDITOR" in result.stderr and "Traceback" not in result.stderr


def test_archive_is_not_an_agent_name(mem):
    result = mem("add", "an archived thought", "-a", "archive")
    assert result.exit_code == 2 and "archive" in result.stderr


@pytest.mark.parametrize(
    ("setting", "key"),
    [
        ('[recall]\nbudget = "big"\n', "recall.budget"),
        ("[recall]\nbudget = -1\n", "recall.budget"),
        ("[ranking]\ndecay_floor = 3\n", "ranking.decay_floor"),
        ('[half_life_days]\ndecision = "two weeks"\n', "half_life_days.decision"),
        ('default_agent = "Not An Agent"\n', "default_agent"),
        ("recall = 5\n", "recall"),
    ],
)
def test_a_bad_value_in_mem_toml_is_an_error_naming_the_file_and_key(mem, vault, setting, key):
    (vault / "mem.toml").write_text(setting)
    for command in (("recall",), ("search", "x"), ("list",)):
        line = error_payload(mem(*command, "--json"), 1, "invalid_setting")
        assert "mem.toml" in line and f"{key} = " in line and "use " in line


@pytest.mark.parametrize(
    ("setting", "said"),
    [
        ("[recall]\nbudgte = 300\n", "unknown setting 'recall.budgte' is ignored"),
        ('defualt_agent = "dev"\n', "unknown setting 'defualt_agent' is ignored"),
        ("[half_life_days]\ndecison = 3\n", "unknown setting 'half_life_days.decison' is ignored"),
        (
            "colour = true\n[ranking]\ndecay_flor = 0.2\n",
            "unknown settings 'colour', 'ranking.decay_flor' are ignored",
        ),
    ],
)
def test_an_unknown_key_in_mem_toml_is_named_once_on_stderr_and_ignored(mem, vault, setting, said):
    (vault / "mem.toml").write_text('default_agent = "main"\n' + setting)
    warning = f"mem: {vault / 'mem.toml'}: {said}; check the spelling"
    for command in (("list", "--json"), ("recall", "--json"), ("search", "x", "--json")):
        result = mem(*command)
        assert data(result)  # it still works, and stdout holds only its answer
        assert messages(result.stderr) == [warning]
    assert ok(mem("add", "hello", "-c", "facts")).stdout.strip()  # main's, not dev's
    assert (vault / "main" / "facts.md").exists()


def test_binary_stdin_with_tee_still_passes_through_whole(vault):
    binary = bytes(range(256)) * 100
    completed = subprocess.run(
        [sys.executable, "-m", "mem", "--vault", str(vault), "commit", "-a", "dev", "--tee"],
        input=binary,
        capture_output=True,
        check=False,
    )
    assert completed.returncode == 1 and completed.stdout == binary
    assert completed.stderr == b"mem: the input looks binary, not text; give agent output as text\n"
