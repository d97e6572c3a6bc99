"""bench/proofs/hostile.py's checks say so when mem loses an entry, leaks a secret or crashes."""

from __future__ import annotations

import sys
from datetime import UTC, datetime

import pytest

from mem.vault import entries

from conftest import REPO

sys.path.insert(0, str(REPO / "bench"))

from proofs import hostile  # bench/ is put on the path just above
from proofs.common import Ran


def category_file(*bodies: str) -> tuple[str, dict[str, str]]:
    when = datetime(2026, 1, 1, tzinfo=UTC)
    blocks = {f"20260101-000000-{n:06d}": b for n, b in enumerate(bodies)}
    text = entries.new_file_text("dev", "facts") + "".join(
        entries.render_entry(entry_id, when, (), body, ()) for entry_id, body in blocks.items()
    )
    return text, blocks


def test_an_entry_really_missing_from_a_file_is_reported_lost():
    text, expected = category_file("first fact", "second fact", "third fact")
    assert hostile.lost_entries(text, expected) == []
    damaged = text.replace("<!-- id:20260101-000000-000001 -->", "<!- id:20260101-000000-000001")
    assert hostile.lost_entries(damaged, expected) == ["20260101-000000-000001"]
    changed = text.replace("third fact", "third fakt")
    assert hostile.lost_entries(changed, expected) == ["20260101-000000-000002"]


def test_the_parser_row_fails_when_the_parser_drops_a_good_entry(monkeypatch):
    rows = {row.check: row for row in hostile.parser_rows(30, seed=1)}
    assert all(row.ok is not False for row in rows.values())
    real = entries.parse_file

    def drops_the_second(text, *args, **kwargs):  # of a file of several entries
        parsed = real(text, *args, **kwargs)
        if len(parsed.spans) < 2:
            return parsed
        return parsed._replace(spans=(parsed.spans[0], *parsed.spans[2:]))

    monkeypatch.setattr(entries, "parse_file", drops_the_second)
    rows = {row.check: row for row in hostile.parser_rows(30, seed=1)}
    lost = rows["parser: good entries lost beside a damaged one"]
    assert lost.ok is False and int(lost.measured) > 0


def test_a_secret_in_the_index_is_found_even_lowercased(tmp_path):
    index = tmp_path / ".memory" / ".mem" / "index"
    index.mkdir(parents=True)
    (index / "MAIN_x.seg").write_bytes(b"\x00\x01ghp_abcdefghijklmnopqrstuvwxyz0123\x02")
    (tmp_path / ".memory" / "facts.md").write_text("nothing here", "utf-8")
    found = hostile.leaked(tmp_path, ["ghp_ABCDEFGHIJKLMNOPQRSTUVWXYZ0123", "sk-never-written"])
    assert found == {"ghp_ABCDEFGHIJKLMNOPQRSTUVWXYZ0123"}


def test_a_half_written_file_and_a_left_temp_file_are_broken(tmp_path):
    text, _ = category_file("first fact", "second fact")
    (tmp_path / "dev").mkdir()
    (tmp_path / "dev" / "facts.md").write_text(text, "utf-8")
    assert hostile.broken_files(tmp_path) == []
    (tmp_path / "dev" / "facts.md").write_text(text[: text.rindex("---")], "utf-8")
    (tmp_path / "dev" / ".facts.md.x1.tmp").write_text(text, "utf-8")
    assert len(hostile.broken_files(tmp_path)) == 2


@pytest.mark.parametrize(
    ("returncode", "stderr", "crash"),
    [
        (0, "", False),
        (1, "mem: no vault here or above; run `mem init`\n", False),
        (1, "Traceback (most recent call last):\n  File x\nKeyError: 'a'\n", True),
        (0, "Traceback (most recent call last):\nValueError\n", True),
        (1, "", True),
        (-9, "", True),
    ],
)
def test_a_traceback_or_a_silent_failure_is_a_crash(returncode, stderr, crash):
    assert hostile.crashed(Ran(returncode, "", stderr, 0.1)) is crash
