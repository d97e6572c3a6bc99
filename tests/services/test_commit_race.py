"""A commit overtaken by a person's save: what the save put in still counts for dedupe."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from mem.extract.patterns import Candidate
from mem.services.commit import store_candidates
from mem.vault import entries as codec
from mem.vault import layout, store

MOMENT = datetime(2026, 3, 1, 10, 0, tzinfo=UTC)
SAID = "Always run the database migrations before the integration tests start"


def save_before_mems_exchange(monkeypatch, path: Path, added: str) -> None:
    """An editor saves `added` at the end of the file right before mem's first exchange."""
    real = store.exchange
    saves: list[int] = []

    def exchange_after_a_save(first: Path, second: Path) -> bool:
        if not saves:
            saves.append(1)
            temp = path.with_name(path.name + ".editor-tmp")
            temp.write_text(path.read_text() + added)
            temp.replace(path)
        return real(first, second)

    monkeypatch.setattr(store, "exchange", exchange_after_a_save)


def lessons(tmp_path: Path) -> tuple[layout.FileRef, Path]:
    ref = layout.file_ref("dev", "lessons")
    path = tmp_path / ref.path
    path.parent.mkdir(parents=True)
    first = codec.render_entry("20260301-090000-aaaaaa", MOMENT, (), "An older lesson", ())
    path.write_text(codec.new_file_text("dev", "lessons") + first)
    return ref, path


def test_a_save_that_puts_in_the_same_lesson_is_reinforced_not_doubled(tmp_path, monkeypatch):
    ref, path = lessons(tmp_path)
    by_hand = codec.render_entry("20260301-095900-handed", MOMENT, (), SAID + ".", ())
    save_before_mems_exchange(monkeypatch, path, by_hand)
    result = store_candidates(tmp_path, ref, [Candidate("lessons", "lesson", SAID)], MOMENT, False)
    entries = codec.parse_ref(path.read_text(), ref).entries
    assert [entry.id for entry in entries] == ["20260301-090000-aaaaaa", "20260301-095900-handed"]
    assert not result.added and [entry.id for entry in result.reinforced] == [
        "20260301-095900-handed"
    ]


def test_a_save_of_something_else_is_kept_and_the_commit_carried_over_it(tmp_path, monkeypatch):
    ref, path = lessons(tmp_path)
    by_hand = codec.render_entry("20260301-095900-handed", MOMENT, (), "Another lesson", ())
    save_before_mems_exchange(monkeypatch, path, by_hand)
    result = store_candidates(tmp_path, ref, [Candidate("lessons", "lesson", SAID)], MOMENT, False)
    bodies = [entry.body for entry in codec.parse_ref(path.read_text(), ref).entries]
    assert bodies == [SAID, "An older lesson", "Another lesson"]
    assert [entry.body for entry in result.added] == [SAID]
