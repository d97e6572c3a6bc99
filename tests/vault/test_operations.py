"""The guarded edits every service writes with: each changes only the entries it names."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest

from mem.errors import EntryNotFound, FileUnwritable
from mem.vault import entries as codec
from mem.vault import layout, operations, store

MOMENT = datetime(2026, 3, 1, 10, 0, tzinfo=UTC)


def rendered(entry_id: str, body: str, kind: str = "task") -> str:
    return codec.render_entry(entry_id, MOMENT, (), body, (("kind", kind),))


def test_insert_creates_the_file_and_puts_new_entries_on_top(tmp_path: Path):
    ref = layout.file_ref("dev", "tasks")
    first = operations.insert(
        tmp_path, ref, rendered("20260301-100000-aaaa", "- [ ] a"), {"20260301-100000-aaaa"}
    )
    assert [entry.body for entry in first] == ["- [ ] a"]
    blocks = rendered("20260301-100000-bbbb", "- [ ] b") + rendered(
        "20260301-100000-cccc", "- [ ] c"
    )
    both = operations.insert(
        tmp_path, ref, blocks, {"20260301-100000-bbbb", "20260301-100000-cccc"}
    )
    assert [entry.body for entry in both] == ["- [ ] b", "- [ ] c"]
    parsed = codec.parse_ref(store.read_text(tmp_path, ref.path), ref)
    assert [entry.body for entry in parsed.entries] == ["- [ ] b", "- [ ] c", "- [ ] a"]


def test_tick_ticks_matching_boxes_and_marks_the_task_done_when_none_is_left(tmp_path: Path):
    ref = layout.file_ref("dev", "tasks")
    [task] = operations.insert(
        tmp_path,
        ref,
        rendered("20260301-100000-aaaa", "- [ ] write it\n- [ ] test it"),
        {"20260301-100000-aaaa"},
    )
    task, ticked = operations.tick(tmp_path, task, "test", MOMENT)
    assert ticked == 1 and task.body == "- [ ] write it\n- [x] test it" and not task.get("done")
    task, ticked = operations.tick(tmp_path, task, "", MOMENT)
    assert ticked == 1 and task.get("done") == "2026-03-01T10:00Z"


def test_a_removed_entry_is_gone_and_setting_its_header_says_so(tmp_path: Path):
    ref = layout.file_ref("dev", "tasks")
    [task] = operations.insert(
        tmp_path, ref, rendered("20260301-100000-aaaa", "- [ ] a"), {"20260301-100000-aaaa"}
    )
    text = store.read_text(tmp_path, ref.path)
    span = codec.parse_ref(text, ref).spans[0]
    block = text[span.start : span.end]
    assert operations.replace_block(tmp_path, ref.path, task.id, block, lambda _: "")
    assert not operations.replace_block(tmp_path, ref.path, task.id, block, lambda _: "")
    with pytest.raises(EntryNotFound):
        operations.set_header(tmp_path, task, {"done": "x"})


def one_task(tmp_path: Path) -> tuple[layout.FileRef, Path]:
    """dev/tasks.md holding one open task, `a`."""
    ref = layout.file_ref("dev", "tasks")
    operations.insert(
        tmp_path, ref, rendered("20260301-100000-aaaa", "- [ ] a"), {"20260301-100000-aaaa"}
    )
    return ref, tmp_path / ref.path


def editor_save(path: Path, added: str) -> None:
    """Save the file as an editor does: read it, add a hand-written entry, write a temp file,
    rename it over the original (no lock of mem's taken)."""
    temp = path.with_name(path.name + ".editor-tmp")
    temp.write_text(path.read_text() + added)
    temp.replace(path)


HAND = rendered("20260301-100000-hand", "- [ ] written in an editor")


def three_tasks(tmp_path: Path) -> tuple[layout.FileRef, Path]:
    """dev/tasks.md holding open tasks c, b and a, top down."""
    ref = layout.file_ref("dev", "tasks")
    for name in "abc":
        entry_id = f"20260301-100000-{name * 4}"
        operations.insert(tmp_path, ref, rendered(entry_id, f"- [ ] {name}"), {entry_id})
    return ref, tmp_path / ref.path


def before_each_exchange(monkeypatch: pytest.MonkeyPatch, before: Callable[[int], None]) -> None:
    """Run `before(n)` right ahead of mem's n-th exchange of a file into place (n from 1): an
    editor's save in the last instant, or a failure of the exchange itself."""
    real = store.exchange
    calls = 0

    def exchange(first: Path, second: Path) -> bool:
        nonlocal calls
        calls += 1
        before(calls)
        return real(first, second)

    monkeypatch.setattr(store, "exchange", exchange)


def test_a_save_made_while_mem_writes_is_kept_and_mems_change_made_again_on_it(tmp_path):
    ref, path = one_task(tmp_path)
    calls = []

    def change(old: str) -> str:
        calls.append(old)
        if len(calls) == 1:
            editor_save(path, HAND)  # between mem's read and its rename
        return old.replace("- [ ] a", "- [x] a")

    store.update(tmp_path, ref.path, change)
    text = path.read_text()
    assert "written in an editor" in text and "- [x] a" in text  # both edits
    assert len(calls) == 2 and "written in an editor" in calls[1]


def test_a_save_to_other_entries_is_kept_without_working_the_change_out_again(tmp_path):
    # An editor saving a large file every few hundred milliseconds outpaces a change worked
    # out again from the start each time: one that touched other entries is carried over.
    ref, path = three_tasks(tmp_path)
    calls = []

    def change(old: str) -> str:
        calls.append(old)
        editor_save(path, HAND)  # at the end of the file, below entries a and b
        return old.replace("- [ ] c", "- [x] c")

    old, new = store.update(tmp_path, ref.path, change, carry=lambda put_in: True)
    text = path.read_text()
    assert len(calls) == 1 and text == new and "written in an editor" in old
    assert [entry.body for entry in codec.parse_ref(text, ref).entries] == [
        "- [x] c",
        "- [ ] b",
        "- [ ] a",
        "- [ ] written in an editor",
    ]


def test_a_change_is_worked_out_again_on_a_save_its_caller_will_not_carry_it_over(tmp_path):
    # `carry` sees what the save put in; refusing it (or giving none) means a redo on it.
    ref, path = three_tasks(tmp_path)
    for carry in (None, lambda put_in: "written in an editor" not in put_in):
        calls = []

        def change(old: str, calls: list[str] = calls) -> str:
            calls.append(old)
            if len(calls) == 1:
                editor_save(path, HAND)
            return old.replace("- [ ] c", "- [x] c")

        store.update(tmp_path, ref.path, change, carry=carry)
        assert len(calls) == 2 and "written in an editor" in calls[1]
        path.write_text(path.read_text().replace("- [x] c", "- [ ] c"))


def test_a_file_saved_at_every_try_is_left_as_the_editor_saved_it(tmp_path, monkeypatch):
    monkeypatch.setattr(store, "UPDATE_SECONDS", 0.0)  # give up after the tries alone
    ref, path = one_task(tmp_path)

    def change(old: str) -> str:
        editor_save(path, "\nmore by hand\n")
        return old.replace("- [ ] a", "- [x] a")

    with pytest.raises(Exception, match="changed 20 times in .* while mem was writing"):
        store.update(tmp_path, ref.path, change)
    text = path.read_text()
    assert "- [x] a" not in text and text.count("more by hand") == store.UPDATE_TRIES


def test_a_move_to_the_archive_keeps_an_entry_saved_by_hand_meanwhile(tmp_path):
    from mem.vault.archive import move_to_archive

    ref = layout.file_ref("dev", "tasks")
    operations.insert(
        tmp_path,
        ref,
        rendered("20260301-100000-aaaa", "- [x] old") + rendered("20260301-100000-bbbb", "- [ ] b"),
        {"20260301-100000-aaaa", "20260301-100000-bbbb"},
    )
    path = tmp_path / ref.path

    def choose(entries):
        editor_save(path, HAND)  # after mem read the file, before it writes it back
        return ["20260301-100000-aaaa"]

    move_to_archive(tmp_path, ref, choose)
    text = path.read_text()
    assert "written in an editor" in text and "- [ ] b" in text and "- [x] old" not in text
    assert "- [x] old" in (tmp_path / "dev" / "archive" / "tasks.md").read_text()


def test_a_save_in_the_instant_before_mems_rename_is_kept(tmp_path, monkeypatch):
    # The editor saves after every check mem could make, right before its rename: the
    # exchange hands the save back, mem undoes it and makes its change again on their text.
    ref, path = one_task(tmp_path)
    before_each_exchange(monkeypatch, lambda n: editor_save(path, HAND) if n == 1 else None)
    store.update(tmp_path, ref.path, lambda old: old.replace("- [ ] a", "- [x] a"))
    text = path.read_text()
    assert "written in an editor" in text and "- [x] a" in text
    assert not list(path.parent.glob(".*.tmp"))


def test_two_saves_around_mems_exchange_are_both_kept(tmp_path, monkeypatch):
    # A second save lands between the exchange and its undo: the file keeps the first save,
    # the second is kept beside it and named; mem's change is not written.
    ref, path = one_task(tmp_path)

    def saves(n: int) -> None:
        if n <= 2:
            editor_save(path, rendered(f"20260301-10000{n}-hand", f"save {n}"))

    before_each_exchange(monkeypatch, saves)
    with pytest.raises(FileUnwritable, match="saved twice"):
        store.update(tmp_path, ref.path, lambda old: old.replace("- [ ] a", "- [x] a"))
    kept = list(path.parent.glob("tasks.md.kept-*"))
    assert "save 1" in path.read_text() and "- [x] a" not in path.read_text()
    assert len(kept) == 1 and "save 2" in kept[0].read_text()


def test_without_an_exchange_a_save_before_the_last_check_is_kept(tmp_path, monkeypatch):
    monkeypatch.setattr(store, "exchange_works", False)
    ref, path = one_task(tmp_path)
    calls = []

    def change(old: str) -> str:
        calls.append(old)
        if len(calls) == 1:
            editor_save(path, HAND)
        return old.replace("- [ ] a", "- [x] a")

    store.update(tmp_path, ref.path, change)
    text = path.read_text()
    assert "written in an editor" in text and "- [x] a" in text and len(calls) == 2


def test_a_save_an_exchange_displaced_and_could_not_put_back_is_kept_beside(tmp_path, monkeypatch):
    # The exchange back fails: the person's save, which the first exchange took out of the
    # file, must not go with mem's temp file.
    ref, path = one_task(tmp_path)

    def save_then_fail(n: int) -> None:
        if n > 1:
            raise OSError(5, "Input/output error")
        editor_save(path, HAND)

    before_each_exchange(monkeypatch, save_then_fail)
    with pytest.raises(FileUnwritable, match="could not put that save back"):
        store.update(tmp_path, ref.path, lambda old: old.replace("- [ ] a", "- [x] a"))
    (kept,) = path.parent.glob("tasks.md.kept-*")
    assert "written in an editor" in kept.read_text()
