"""A compaction of a large vault rebuilds the index in a fresh interpreter (reindex.py): the
same index, what the child says passed on, and its failures raised in the parent."""

from __future__ import annotations

import errno
from datetime import UTC, datetime

import pytest

from mem.errors import IndexRebuildFailed, MemError, VaultReadOnly
from mem.services import reindex
from mem.services.feedback import Feedback
from mem.services.refresh import fresh_index, rebuild_index
from mem.vault import entries as codec


def vault_of(tmp_path, count: int):
    vault = tmp_path / "vault"
    (vault / "dev").mkdir(parents=True)
    moment = datetime(2026, 11, 1, 9, 0, tzinfo=UTC)
    blocks = [
        codec.render_entry(f"e{n:04d}", moment, (), f"Retry upload {n}.", (("kind", "lesson"),))
        for n in range(count)
    ]
    text = codec.new_file_text("dev", "lessons") + "".join(blocks)
    (vault / "dev" / "lessons.md").write_text(text, encoding="utf-8")
    return vault


def test_a_rebuild_apart_builds_the_index_a_rebuild_here_builds(tmp_path, monkeypatch):
    vault = vault_of(tmp_path, 60)
    monkeypatch.setattr(reindex, "APART_FROM", 10)
    said: list[str] = []
    assert reindex.rebuild_apart(vault, Feedback(notice=said.append)) == 60
    assert said == ["building the index (60 entries)"]
    apart = sorted(e.id for e in fresh_index(vault).ids_with_prefix("e"))
    assert rebuild_index(vault) == 60
    assert sorted(e.id for e in fresh_index(vault).ids_with_prefix("e")) == apart


def test_what_the_child_says_is_passed_on_and_its_failures_raised():
    seen: list[tuple[int, int]] = []
    feedback = Feedback(progress=lambda made, total: seen.append((made, total)))
    assert reindex.relay(["progress 5/10\n", "progress 10/10\n", "done 10\n"], feedback) == 10
    assert seen == [(5, 10), (10, 10)]
    with pytest.raises(VaultReadOnly, match="^cannot write: the vault is read-only$"):
        reindex.relay(
            [f"failed {VaultReadOnly.code} cannot write: the vault is read-only\n"], feedback
        )
    with pytest.raises(IndexRebuildFailed, match="^something new$"):
        reindex.relay(["failed no_such_code something new\n"], feedback)
    with pytest.raises(OSError) as raised:
        reindex.relay(["oserror 28 No space left on device\n"], feedback)
    assert raised.value.errno == errno.ENOSPC
    with pytest.raises(MemError, match="Killed"):
        reindex.relay(["notice building the index\n", "Killed\n"], feedback)


def test_the_child_reports_its_failure_in_one_line(monkeypatch, capsys):
    def full(vault, feedback):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr("mem.services.refresh.rebuild_index", full)
    assert reindex.main(["somewhere"]) == 1
    assert capsys.readouterr().err == "oserror 28 No space left on device\n"

    def read_only(vault, feedback):
        raise VaultReadOnly("cannot write .mem/index: the vault is read-only")

    monkeypatch.setattr("mem.services.refresh.rebuild_index", read_only)
    assert reindex.main(["somewhere"]) == 1
    said = capsys.readouterr().err
    assert said == "failed vault_read_only cannot write .mem/index: the vault is read-only\n"
    with pytest.raises(VaultReadOnly):
        reindex.relay([said], Feedback())


def test_an_index_mem_reads_but_whoosh_cannot_open_is_rebuilt_when_written(tmp_path):
    # mem's reader never reads the schema Whoosh pickled in the table of contents; a schema
    # of classes this mem no longer has reads fine for a search, and fails Whoosh's writer.
    vault = vault_of(tmp_path, 5)
    index = fresh_index(vault)
    toc = max(index.folder.glob("_MAIN_*.toc"))
    data = toc.read_bytes()
    assert b"mem.index.text_field" in data
    toc.write_bytes(data.replace(b"mem.index.text_field", b"mem.index.text_fielX"))
    assert fresh_index(vault).is_readable()  # nothing changed: read as it is
    lessons = vault / "dev" / "lessons.md"
    lessons.write_text(
        lessons.read_text(encoding="utf-8")
        + codec.render_entry("e9999", datetime(2026, 11, 2, tzinfo=UTC), (), "Zebra.", ()),
        encoding="utf-8",
    )
    index = fresh_index(vault)
    assert [e.id for e in index.ids_with_prefix("e9999")] == ["e9999"]
    assert index.opens_for_writing()
