"""The checker of bench/proofs/merges.py says so when a merge lost, doubled or undid anything."""

from __future__ import annotations

import importlib
from pathlib import Path
from types import ModuleType

import pytest

from conftest import REPO

FRONT = "---\nagent: dev\ncategory: decisions\n---\n\n"


@pytest.fixture
def merges(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    monkeypatch.syspath_prepend(str(REPO / "bench"))
    return importlib.import_module("proofs.merges")


def entry(entry_id: str, body: str, header: str = "") -> str:
    return (
        f"<!-- id:{entry_id} kind:decision{header} -->\n## 2026-11-01T10:00Z\n\n{body}\n\n---\n\n"
    )


def vault(folder: Path, **files: str) -> Path:
    for name, text in files.items():
        path = folder / (name.replace("__", "/").removesuffix("_md") + ".md")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(FRONT + text, encoding="utf-8")
    return folder


X = entry("20261101-100000-x00001", "Use redis, tok0b1.")
X_EDITED = entry("20261101-100000-x00001", "Use redis, tok0b1. Edited: edit1a1.")
Y = entry("20261101-100000-y00002", "Use sqlite, tok0b2.")
Y_FORGOTTEN = entry("20261101-100000-y00002", "Use sqlite, tok0b2.", " superseded-by:forgotten")
Z = entry("20261101-100000-z00003", "Use kafka, tok0b3.", " reinforced:2")
W = entry("20261128-100000-w00004", "Use caddy, tok1b1.")
W_AGAIN = entry("20261128-100000-w00005", "Use caddy, tok1b1.")


def test_a_merge_that_kept_everything_holds_every_goal(merges, tmp_path):
    a = merges.read_state(vault(tmp_path / "a", dev__decisions_md=X_EDITED + Y_FORGOTTEN + Z))
    b = merges.read_state(vault(tmp_path / "b", dev__decisions_md=W + X + Y + Z))
    # Z compacted to the archive by one branch is where a branch had it: not lost.
    b_compacted = merges.read_state(
        vault(tmp_path / "c", dev__decisions_md=W + X + Y, dev__archive__decisions_md=Z)
    )
    hot = vault(tmp_path / "hot", dev__decisions_md=W + X_EDITED + Y_FORGOTTEN + Z)
    archived = vault(
        tmp_path / "archived",
        dev__decisions_md=W + X_EDITED + Y_FORGOTTEN,
        dev__archive__decisions_md=Z,
    )
    for branch, after in ((b, hot), (b_compacted, archived), (b_compacted, hot)):
        verdict = merges.judge(a, branch, merges.read_state(after))
        assert (verdict.lost, verdict.duplicated, verdict.edits_lost, verdict.undone) == (0,) * 4
    tally = merges.Tally(valid=1, verdict=verdict)
    assert all(row.ok is not False for row in merges.rows(tally, 1))


def test_an_entry_lost_an_edit_lost_a_text_doubled_and_a_forget_undone_are_each_counted(
    merges, tmp_path
):
    a = merges.read_state(vault(tmp_path / "a", dev__decisions_md=X_EDITED + Y_FORGOTTEN + Z))
    b = merges.read_state(vault(tmp_path / "b", dev__decisions_md=W + X + Y + Z))
    # Z gone, X without a's edit, Y no longer forgotten, W's text under a second id.
    after = merges.read_state(vault(tmp_path / "after", dev__decisions_md=W_AGAIN + W + X + Y))
    verdict = merges.judge(a, b, after)
    assert (verdict.lost, verdict.duplicated, verdict.edits_lost, verdict.undone) == (1, 1, 1, 1)
    # Z where no branch had it is lost too; a reinforcement dropped is undone; an id twice.
    moved = vault(
        tmp_path / "moved",
        dev__decisions_md=W + X_EDITED + Y_FORGOTTEN + X_EDITED,
        dev__lessons_md=Z.replace(" reinforced:2", ""),
    )
    verdict = merges.judge(a, b, merges.read_state(moved))
    assert (verdict.lost, verdict.duplicated, verdict.undone) == (1, 1, 1)
    failed = {row.check for row in merges.rows(merges.Tally(verdict=verdict), 1) if row.ok is False}
    assert any(check.startswith("entries lost") for check in failed)
    assert any(check.startswith("entries duplicated") for check in failed)
    # One text under an id each branch made (a promotion on each) is two writes, not a copy.
    twice = vault(tmp_path / "twice", dev__decisions_md=W_AGAIN + W + X_EDITED + Y_FORGOTTEN + Z)
    a_too = merges.read_state(vault(tmp_path / "a2", dev__decisions_md=W_AGAIN + X_EDITED + Y + Z))
    verdict = merges.judge(a_too, b, merges.read_state(twice))
    assert (verdict.duplicated, verdict.made_twice) == (0, 1)
    assert any(check.startswith("vaults valid") for check in failed)  # valid 0 of 1


def test_an_entry_whose_text_a_merge_swapped_for_another_is_counted(merges, tmp_path):
    a = merges.read_state(vault(tmp_path / "a", dev__decisions_md=X_EDITED + Y))
    b = merges.read_state(vault(tmp_path / "b", dev__decisions_md=X + Y))
    spliced = X_EDITED + Y.replace("Use sqlite, tok0b2.", "Use kafka instead.")
    verdict = merges.judge(
        a, b, merges.read_state(vault(tmp_path / "s", dev__decisions_md=spliced))
    )
    assert (verdict.lost, verdict.edits_lost, verdict.texts_lost) == (0, 0, 1)
    rows = merges.rows(merges.Tally(valid=1, verdict=verdict), 1)
    assert [row.check for row in rows if row.ok is False] == [
        "entry texts lost (a line of an entry on a branch missing from it after)"
    ]


def test_a_header_split_from_its_body_is_read_as_a_second_copy(merges, tmp_path):
    split = X.split("\n", 1)[0] + "\n" + W + X
    state = merges.read_state(vault(tmp_path / "v", dev__decisions_md=split))
    assert len(state["20261101-100000-x00001"]) == 2


def test_conflict_markers_are_found_in_any_file_of_the_vault(merges, tmp_path):
    clean = vault(tmp_path / "clean", dev__decisions_md=X + Y)
    assert merges.markers_in(clean) == 0
    marked = vault(
        tmp_path / "marked",
        dev__decisions_md=X + "<<<<<<< HEAD\n" + Y + "=======\n" + Z + ">>>>>>> b\n",
    )
    assert merges.markers_in(marked) == 1
    assert (
        next(r for r in merges.rows(merges.Tally(markers=1), 1) if "marker" in r.check).ok is False
    )
