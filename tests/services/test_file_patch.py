"""A file reindexed by the chunks that changed ends as a rebuild from nothing would leave it."""

from __future__ import annotations

import random
import shutil
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from mem.index import notes_file
from mem.services import file_patch, refresh
from mem.vault import entries as codec

START = datetime(2026, 11, 1, 9, 0, tzinfo=UTC)
KINDS = ("lesson", "warning", "observation")


def block(rng: random.Random, number: int) -> str:
    # A few minutes only, so neighbours often share theirs: their text is indexed beside.
    moment = START + timedelta(minutes=rng.randrange(4))
    kind = rng.choice(KINDS)
    body = f"Lesson {number}: {rng.choice(['retry', 'cache', 'deploy', 'schema'])} " * 2
    return codec.render_entry(
        f"20261101-0900{number:02d}-{number:06d}", moment, (), body, (("kind", kind),)
    )


def edit(rng: random.Random, text: str, step: int) -> str:
    """One change a person might save: an entry added, removed, moved, rewritten, its header
    changed, a malformed one, or the title above the entries."""
    parsed = codec.parse_file(text, "dev/lessons.md", "dev", "lessons")
    spans = list(parsed.spans)
    if not spans:
        return text + block(rng, 100 + step)
    span = rng.choice(spans)
    chunk = text[span.start : span.end]
    how = rng.choice(["add", "add", "remove", "move", "body", "header", "title"])
    if step == 20:
        how = "broken"  # from here on, the file is read whole (where its problem is reported)
    if how == "add":
        at = rng.choice(spans).start
        return text[:at] + block(rng, 100 + step) + text[at:]
    if how == "remove":
        return text[: span.start] + text[span.end :]
    if how == "move":
        rest = text[: span.start] + text[span.end :]
        at = rest.find("<!-- id:", rng.randrange(len(rest)))
        at = len(rest) if at < 0 else at
        return rest[:at] + chunk + rest[at:]
    if how == "body":
        return text[: span.end - 5] + f" edited {step}" + text[span.end - 5 :]
    if how == "header":
        line_end = text.index("\n", span.start)
        kind = rng.choice(KINDS)
        return text[: span.start] + f"<!-- id:{span.entry.id} kind:{kind} -->" + text[line_end:]
    if how == "broken":
        return (
            text[: span.start]
            + f"<!-- id:broken{step} -->\nno heading\n\n---\n\n"
            + text[span.start :]
        )
    return text.replace("---\n\n", f"---\n\n# Lessons {step}\n\n", 1)


def documents(vault: Path) -> list[tuple[str, str, str, int]]:
    index = refresh.fresh_index(vault)
    reader = index.open().reader()
    return sorted(
        (fields["path"], fields["id"], fields.get("digest", ""), fields.get("line", 0))
        for _, fields in reader.iter_docs()
    )


def notes(vault: Path) -> list[str]:
    return notes_file.read_lines(vault / refresh.INDEX_DIR) or []


@pytest.mark.parametrize("seed", range(6))
def test_reindexing_by_chunks_leaves_what_a_rebuild_would(tmp_path, monkeypatch, seed):
    rng = random.Random(seed)
    vault = tmp_path / "vault"
    (vault / "dev").mkdir(parents=True)
    path = vault / "dev" / "lessons.md"
    path.write_text(
        codec.new_file_text("dev", "lessons") + "".join(block(rng, n) for n in range(12))
    )
    for agent in ("ci", "qa"):  # notes of other files, before and after this one's
        (vault / agent).mkdir()
        other = "".join(block(rng, n) for n in range(3))
        (vault / agent / "lessons.md").write_text(codec.new_file_text(agent, "lessons") + other)
    refresh.fresh_index(vault)
    patched = []
    real = file_patch.patch_for

    def counted(*args):
        found = real(*args)
        patched.append(found is not None)
        return found

    monkeypatch.setattr(file_patch, "patch_for", counted)
    for step in range(25):
        path.write_text(edit(rng, path.read_text(), step))
        after = documents(vault)
        copy = tmp_path / f"copy{step}"
        shutil.copytree(vault, copy)
        shutil.rmtree(copy / refresh.INDEX_DIR)
        # Lines are left as they were indexed (a search reads them again from the file).
        assert [doc[:3] for doc in after] == [doc[:3] for doc in documents(copy)]
        assert notes(vault) == notes(copy)
    assert sum(patched) >= 10  # most steps went by chunks, not the file whole


def test_a_table_is_trusted_only_for_the_bytes_it_was_made_from(tmp_path):
    from mem.index import chunk_table

    row = chunk_table.Row("0123456789abcdef", "id1", "f1")
    table = chunk_table.Table("a" * 64, "p", (row, row._replace(entry_id="id2")))
    chunk_table.write(tmp_path, "dev/lessons.md", table)
    assert chunk_table.read(tmp_path, "dev/lessons.md", "a" * 64) == table
    assert chunk_table.read(tmp_path, "dev/lessons.md", "b" * 64) is None
    assert chunk_table.read(tmp_path, "dev/facts.md", "a" * 64) is None
    target = chunk_table.table_path(tmp_path, "dev/lessons.md")
    text = target.read_text()
    target.write_text(text.replace("0123456789abcdef id1", "01234 id1"))  # a damaged row
    assert chunk_table.read(tmp_path, "dev/lessons.md", "a" * 64) is None
    target.write_text(text.rsplit("\n", 2)[0] + "\n")  # a row short
    assert chunk_table.read(tmp_path, "dev/lessons.md", "a" * 64) is None
    chunk_table.write(tmp_path, "dev/lessons.md", None)
    assert not target.exists()


@pytest.mark.parametrize("stop_at", ["_save_notes", "_write_manifest"])
def test_an_update_stopped_before_its_manifest_leaves_a_table_the_next_one_does_not_trust(
    tmp_path, monkeypatch, stop_at
):
    from mem.index.search_index import SearchIndex

    rng = random.Random(7)
    vault = tmp_path / "vault"
    (vault / "dev").mkdir(parents=True)
    path = vault / "dev" / "lessons.md"
    path.write_text(
        codec.new_file_text("dev", "lessons") + "".join(block(rng, n) for n in range(8))
    )
    refresh.fresh_index(vault)
    path.write_text(edit(rng, path.read_text(), 1))
    refresh.fresh_index(vault)  # the table now stands for the file as it is

    def killed(*args, **kwargs):
        raise KeyboardInterrupt  # the process stops here: documents committed, no manifest

    real = getattr(SearchIndex, stop_at)
    monkeypatch.setattr(SearchIndex, stop_at, killed)
    text = path.read_text()
    at = text.index("<!-- id:")
    path.write_text(text[:at] + block(rng, 50) + text[at:])
    with pytest.raises(KeyboardInterrupt):
        refresh.fresh_index(vault)
    monkeypatch.setattr(SearchIndex, stop_at, real)
    after = documents(vault)
    copy = tmp_path / "copy"
    shutil.copytree(vault, copy)
    shutil.rmtree(copy / refresh.INDEX_DIR)
    assert [doc[:3] for doc in after] == [doc[:3] for doc in documents(copy)]
    assert notes(vault) == notes(copy)
