"""The checks of bench/proofs/faults.py see an entry lost, doubled or half-written."""

from __future__ import annotations

import sys

from conftest import REPO

sys.path.insert(0, str(REPO / "bench"))

from proofs import faults
from proofs.common import fresh_vault


def entry_block(text: str, entry_id: str) -> str:
    start = text.index(f"<!-- id:{entry_id}")
    return text[start : text.index("\n---\n", start) + 5]


def test_the_checks_count_an_entry_lost_doubled_or_left_mid_move(tmp_path):
    project = tmp_path / "project"
    vault = fresh_vault(project)
    faults.old_entries(project, 40, seed=3)
    before = faults.snapshot(vault, set())
    assert not before.unparseable and sum(before.ids.values()) == 40
    assert not faults.lost(set(before.ids), before) and not faults.doubled(before)

    hot = vault / "dev" / "decisions.md"
    text = hot.read_text()
    gone, moved, *_ = faults.snapshot(vault, set()).places  # any two entries' ids
    gone_path, moved_path = before.places[gone][0], before.places[moved][0]
    gone_file = vault / gone_path
    gone_file.write_text(
        gone_file.read_text().replace(entry_block(gone_file.read_text(), gone), "")
    )
    moved_file = vault / moved_path
    archive = vault / faults.archived_name(moved_path)
    archive.parent.mkdir(exist_ok=True)
    archive.write_text(entry_block(moved_file.read_text(), moved))  # an archive, mid-move
    after = faults.snapshot(vault, set(before.ids))
    assert faults.lost(set(before.ids), after) == {gone}
    assert faults.doubled(after) == {moved}
    assert faults.doubled(after, moving=True) == set()  # the next compaction finishes it
    (vault / "ops").mkdir(exist_ok=True)
    (vault / "ops" / "lessons.md").write_text(entry_block(moved_file.read_text(), moved))
    assert faults.doubled(faults.snapshot(vault, set()), moving=True) == {moved}

    hot.write_text(text[: len(text) - 40])  # cut short: an unclosed entry, and one lost
    cut = faults.snapshot(vault, set())
    assert "dev/decisions.md" in cut.unparseable


def test_a_file_cut_short_or_a_temp_file_doctor_misses_is_half_written(tmp_path):
    project = tmp_path / "project"
    vault = fresh_vault(project)
    faults.old_entries(project, 20, seed=4)
    before = faults.files_of(vault)
    assert faults.half_written(vault, before) == []

    hot = next(path for path in sorted(vault.glob("*/*.md")))
    text = hot.read_text()
    hot.write_text(text[: text.rindex("\n---\n")])  # the last entry's closing line is gone
    (vault / ".mem").mkdir(exist_ok=True)
    (vault / ".mem" / "stray.tmp").write_text("x")  # not where a write of mem's leaves one
    bad = faults.half_written(vault, before)
    assert hot.relative_to(vault).as_posix() in bad
    assert ".mem/stray.tmp" in bad

    hot.write_text("")  # every entry gone
    assert any("lost" in problem for problem in faults.half_written(vault, before))


def test_the_rows_fail_when_one_kill_lost_an_entry_or_was_not_recovered():
    made = [faults.Scenario("commit", ["commit"], "x")]
    fine = faults.Outcome("commit", killed=True, recovered=True)
    rows = faults.kill_rows(made, [fine, fine], 2)
    assert all(row.ok is not False for row in rows)
    held = {row.check: row.ok for row in rows}
    assert held["next command (the same again, then search) recovered without being told"]

    broken = faults.Outcome("commit", killed=True, lost=1, recovered=False)
    rows = {row.check: row for row in faults.kill_rows(made, [fine, broken], 2)}
    assert rows["entries lost after a kill or its rerun"].ok is False
    assert rows["entries lost after a kill or its rerun"].measured == "1"
    recovered = rows["next command (the same again, then search) recovered without being told"]
    assert recovered.ok is False and recovered.measured == "1 of 2"

    missed = faults.Outcome("commit", killed=False)  # a kill that never landed proves nothing
    rows = {row.check: row for row in faults.kill_rows(made, [fine, missed], 2)}
    assert (
        rows["next command (the same again, then search) recovered without being told"].ok is False
    )
