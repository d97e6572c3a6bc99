"""`mem edit`: open the entry in $EDITOR at its line, then reindex what was saved."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from .helpers import ENTRY_KEYS, added_id, data, error_payload, messages, ok

REPLACE = """\
import pathlib, sys
path = pathlib.Path(sys.argv[-1])
path.write_text(path.read_text().replace({old!r}, {new!r}))
"""
RECORD = """\
import json, pathlib, sys
pathlib.Path({log!r}).write_text(json.dumps(sys.argv[1:]))
"""


def editor(tmp_path: Path, name: str, code: str) -> str:
    """Write a small editor script; return the $EDITOR command that runs it."""
    script = tmp_path / f"{name}.py"
    script.write_text(code)
    return f"{sys.executable} {script}"


def test_edit_reindexes_the_changed_entry(mem, tmp_path):
    entry_id = added_id(mem("add", "Deploys go out on Tuesdays", "-c", "decisions", "-a", "dev"))
    ok(mem("search", "tuesdays"))  # the index now knows the old text
    env = {"EDITOR": editor(tmp_path, "ed", REPLACE.format(old="Tuesdays", new="Thursdays"))}

    report = data(mem("edit", entry_id[:-1], "--json", env=env))
    assert set(report) == {"schema_version", "changed", "entry", "problems"}
    assert report["changed"] is True
    assert set(report["entry"]) == ENTRY_KEYS
    assert report["entry"]["id"] == entry_id
    assert report["entry"]["body"] == "Deploys go out on Thursdays"
    assert report["problems"] == []

    found = data(mem("search", "thursdays", "--json"))["hits"]
    assert [hit["id"] for hit in found] == [entry_id]
    assert data(mem("search", "tuesdays", "--json"))["hits"] == []


def test_edit_says_so_on_stderr_and_prints_no_data(mem, tmp_path):
    entry_id = added_id(mem("add", "Logs are kept for 30 days", "-a", "dev"))
    env = {"EDITOR": editor(tmp_path, "ed", REPLACE.format(old="30 days", new="90 days"))}
    result = ok(mem("edit", entry_id, env=env))
    assert result.stdout == ""
    assert messages(result.stderr) == [f"{entry_id} updated and reindexed"]

    unchanged = ok(mem("edit", entry_id, env={"EDITOR": "true"}))
    assert messages(unchanged.stderr) == [f"{entry_id}: no change"]
    assert data(mem("edit", entry_id, "--json", env={"EDITOR": "true"}))["changed"] is False


def test_edit_reports_an_entry_the_person_removed(mem, vault, tmp_path):
    entry_id = added_id(mem("add", "Short-lived note", "-a", "dev"))
    text = (vault / "dev" / "facts.md").read_text()
    block = text[text.index("<!-- id:") :]
    env = {"EDITOR": editor(tmp_path, "ed", REPLACE.format(old=block, new=""))}
    report = data(mem("edit", entry_id, "--json", env=env))
    assert report["changed"] is True and report["entry"] is None
    assert data(mem("search", "short-lived", "--json"))["hits"] == []


def test_edit_opens_line_aware_editors_at_the_entrys_line(mem, vault, tmp_path):
    older_id = added_id(mem("add", "older entry", "-a", "dev"))
    ok(mem("add", "newer entry", "-a", "dev"))
    older = data(mem("show", older_id, "--json"))["entry"]
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    nano = bin_dir / "nano"
    log = tmp_path / "argv.json"
    nano.write_text(f"#!{sys.executable}\n" + RECORD.format(log=str(log)))
    nano.chmod(0o755)

    ok(mem("edit", older["id"], env={"EDITOR": str(nano)}))
    assert json.loads(log.read_text()) == [f"+{older['line']}", str(vault / "dev" / "facts.md")]
    assert older["line"] > 6  # below the newer entry, not the top of the file


def test_editor_failing_is_an_error_and_leaves_the_file(mem, vault):
    entry_id = added_id(mem("add", "Keep me as I am", "-a", "dev"))
    before = (vault / "dev" / "facts.md").read_bytes()
    message = error_payload(
        mem("edit", entry_id, "--json", env={"EDITOR": "sh -c 'exit 3'"}), 1, "editor_failed"
    )
    assert "status 3" in message
    assert (vault / "dev" / "facts.md").read_bytes() == before


def test_an_editor_that_cannot_start_is_an_error(mem, tmp_path):
    entry_id = added_id(mem("add", "Some entry", "-a", "dev"))
    missing = str(tmp_path / "no-such-editor")
    message = error_payload(
        mem("edit", entry_id, "--json", env={"EDITOR": missing}), 1, "editor_failed"
    )
    assert "no-such-editor" in message and "$EDITOR" in message


def test_visual_wins_over_editor(mem, tmp_path):
    entry_id = added_id(mem("add", "Colour is spelt with a u", "-a", "dev"))
    env = {
        "VISUAL": editor(tmp_path, "visual", REPLACE.format(old="Colour", new="Color")),
        "EDITOR": "false",
    }
    assert data(mem("edit", entry_id, "--json", env=env))["entry"]["body"].startswith("Color ")
