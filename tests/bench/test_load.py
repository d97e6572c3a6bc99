"""The load part of bench/reliability.py counts what a vault really lost, held twice or refused."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from conftest import REPO

sys.path.insert(0, str(REPO / "bench"))

from proofs import load  # bench/ is no package: its scripts put it on sys.path
from proofs.common import fresh_vault, run_mem


def held(rows: list, check: str) -> tuple[str, bool | None]:
    row = next(row for row in rows if row.check.startswith(check))
    return row.measured, row.ok


def finished_watch(tmp_path: Path, status: int, said: str = "") -> tuple:
    out, err = tmp_path / "watch.out", tmp_path / "watch.err"
    out.write_text('{"schema_version": 1, "files": [], "rebuilt": false, "error": null}\n')
    err.write_text(said)
    return (True, status, 0.1, out, err)


def test_the_rows_count_an_entry_lost_one_held_twice_and_a_refused_command(tmp_path):
    project = tmp_path / "project"
    vault = fresh_vault(project)
    (vault / "dev").mkdir(exist_ok=True)
    (vault / load.EDITED).write_text("---\nagent: dev\ncategory: lessons\n---\n\n")
    editor = load.Editor(vault / load.EDITED, seed=7)
    for _ in range(3):
        editor.save_one()
    said = "We decided to use Redis for sessions because it keeps them across restarts (ldXd).\n"
    commands = [
        load.Command(
            "add", ["add", "The ldA marker", "-c", "lessons", "-a", "dev", "--json"], None, "ldA"
        ),
        load.Command("add", ["add", "The ldB marker", "-c", "facts", "-a", "qa", "--json"]),
        load.Command("commit", ["commit", "-a", "dev", "--json"], said, "ldX"),
        load.Command("add", ["add", "The ldC marker", "-c", "nonsense", "--json"]),
    ]
    tally = load.Tally()
    load.work(commands, project, tally, deadline=float("inf"))
    assert len(tally.expected) == 4  # two adds, a commit's decision and its handoff

    doctor = run_mem(["doctor", "--json"], project).stdout
    rows = load.rows(
        vault, tally, editor, wall=1, workers=1, watch=finished_watch(tmp_path, 0), doctor=doctor
    )
    assert held(rows, "mem's entries lost") == ("0 of 4", True)
    assert held(rows, "hand-written entries lost") == ("0 of 3", True)
    assert held(rows, "entries held twice") == ("0", True)
    assert held(rows, "errors") == ("1 of 4 commands", False)  # the unknown category
    assert held(rows, "mem watch")[1] is True
    assert held(rows, "mem doctor") == ("no problem", True)

    # A write of mem's the file lost, a hand-written entry lost and one saved twice.
    lessons = vault / load.EDITED
    text = lessons.read_text()
    entries = dict(load.split_entries(text))
    added = next(item.entry_id for item in tally.expected if item.marker == "ldA")
    first, second, _ = (item.entry_id for item in editor.saved)
    text = text.replace(entries[added], "").replace(entries[first], "")
    lessons.write_text(text + entries[second])
    decisions = vault / "dev" / "decisions.md"
    decisions.write_text(decisions.read_text().replace("(ldXd)", "(gone)"))
    doctor = run_mem(["doctor", "--json"], project).stdout
    watch = finished_watch(tmp_path, 1, "Traceback")
    rows = load.rows(vault, tally, editor, wall=1, workers=1, watch=watch, doctor=doctor)
    assert held(rows, "mem's entries lost") == ("2 of 4", False)
    assert held(rows, "hand-written entries lost") == ("1 of 3", False)
    assert held(rows, "entries held twice") == ("2", False)  # by its id, and by its marker
    assert held(rows, "mem watch")[1] is False
    measured, ok = held(rows, "mem doctor")
    assert "duplicate_id" in measured and ok is False


def test_the_editor_saves_again_on_top_of_a_write_that_came_after_its_read(tmp_path, monkeypatch):
    path = tmp_path / "lessons.md"
    path.write_text("---\nagent: dev\ncategory: lessons\n---\n\n")
    mem_write = "<!-- id:20261128-000000-abcdef kind:lesson -->\n## 2026-11-28T00:00Z\n\nmem's\n\n"
    exchange = load.exchange
    calls = []

    def late_write_then_exchange(first: Path, second: Path) -> None:
        if not calls:  # mem's rename lands between the editor's read and its swap
            path.write_text(path.read_text() + mem_write)
        calls.append(first)
        exchange(first, second)

    monkeypatch.setattr(load, "exchange", late_write_then_exchange)
    editor = load.Editor(path, seed=1)
    editor.save_one()
    text = path.read_text()
    assert editor.resaves == 1 and len(calls) == 2
    assert text.count("mem's") == 1 and text.count(editor.saved[0].marker) == 1
    assert not list(tmp_path.glob(".*.editor"))


@pytest.mark.skipif(sys.platform != "linux", reason="renameat2 is Linux's")
def test_exchange_swaps_two_files(tmp_path):
    first, second = tmp_path / "a", tmp_path / "b"
    first.write_text("a")
    second.write_text("b")
    load.exchange(first, second)
    assert (first.read_text(), second.read_text()) == ("b", "a")


def test_a_stop_whose_decision_reinforced_one_that_says_the_same_is_not_counted_lost(tmp_path):
    vault = tmp_path / "vault"
    (vault / "dev").mkdir(parents=True)
    said = "We decided to use manifest prefetch for the docker migration because it keeps quota."
    twin = "We decided to use manifest prefetch for the docker migration since it keeps quota."
    header = "<!-- id:20260301-100000-aaaaaa kind:decision{} -->\n## 2026-03-01T10:00Z\n\n"
    stop = load.Expected("hook Stop", None, "ld1w0c001s", "decisions", said)
    for reinforced, lost in (("", ["hook Stop: ld1w0c001s"]), (" reinforced:1", [])):
        entry = header.format(reinforced) + twin + "\n\n---\n\n"
        (vault / "dev" / "decisions.md").write_text("---\nagent: dev\n---\n\n" + entry)
        assert load.check(vault, [stop], []).mem_lost == lost
