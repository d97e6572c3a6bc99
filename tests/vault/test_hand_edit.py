"""People edit the vault behind mem's back; mem notices, rebuilds what breaks, refuses what's unsafe."""

from __future__ import annotations

import json
import os
import shutil
import stat
from pathlib import Path

import pytest

from mem.services.refresh import open_index
from mem.vault import entries as codec
from mem.vault import layout

INDEX = Path(".mem/index")


def mem_add(run_mem, vault: Path, text: str, *flags: str) -> str:
    result = run_mem(
        "--vault", str(vault), "add", text, "-c", "decisions", "--agent", "dev", *flags
    )
    assert result.exit_code == 0, result.stderr
    return result.stdout.strip()


def search(run_mem, vault: Path, words: str):
    return run_mem("--vault", str(vault), "search", words, "--json")


def found_ids(run_mem, vault: Path, words: str) -> list[str]:
    result = search(run_mem, vault, words)
    assert result.exit_code == 0, result.stderr
    return [hit["id"] for hit in json.loads(result.stdout)["hits"]]


def save_like_an_editor(path: Path, text: str) -> None:
    """Write a temp file beside the target, then rename it over the target."""
    temp = path.with_name(f".{path.name}.swp")
    temp.write_text(text, encoding="utf-8")
    os.rename(temp, path)


def index_files(vault: Path) -> dict[str, bytes]:
    folder = vault / INDEX
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir()) if path.is_file()}


def assert_one_line_error(stderr: str, *words: str) -> None:
    assert "Traceback" not in stderr
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    assert lines[0].startswith("mem: ")
    for word in words:
        assert word in lines[0]


# --- edits behind mem's back ----------------------------------------------------------------


def test_editor_save_by_rename_is_found_by_the_next_search(vault, run_mem):
    entry_id = mem_add(run_mem, vault, "Chose bcrypt over argon2 for password hashing")
    assert found_ids(run_mem, vault, "argon2") == [entry_id]
    path = vault / "dev" / "decisions.md"

    # Same length on purpose: only the file's mtime and inode tell the change.
    save_like_an_editor(path, path.read_text(encoding="utf-8").replace("argon2", "scrypt"))

    assert found_ids(run_mem, vault, "scrypt") == [entry_id]
    assert found_ids(run_mem, vault, "argon2") == []


def test_entry_deleted_by_hand_leaves_search_and_entry_written_by_hand_joins_it(vault, run_mem):
    kept = mem_add(run_mem, vault, "Keep the zebra entry")
    dropped = mem_add(run_mem, vault, "Drop the zebra entry")
    assert sorted(found_ids(run_mem, vault, "zebra")) == sorted([kept, dropped])
    path = vault / "dev" / "decisions.md"
    parsed = codec.parse_file(
        path.read_text(encoding="utf-8"), "dev/decisions.md", "dev", "decisions"
    )
    span = parsed.span_of(dropped)
    assert span is not None
    by_hand = "<!-- id:byhand01 -->\n## 2026-01-01T00:00Z · #zebra\n\nA zebra note typed by hand.\n\n---\n"

    save_like_an_editor(path, codec.without_entry(parsed, span) + "\n" + by_hand)

    assert sorted(found_ids(run_mem, vault, "zebra")) == sorted([kept, "byhand01"])


def test_category_file_deleted_by_hand_takes_its_entries_out_of_search(vault, run_mem):
    mem_add(run_mem, vault, "Temporary giraffe decision")
    assert len(found_ids(run_mem, vault, "giraffe")) == 1

    (vault / "dev" / "decisions.md").unlink()

    assert found_ids(run_mem, vault, "giraffe") == []


def test_touched_but_unchanged_file_is_not_reindexed(vault, run_mem):
    entry_id = mem_add(run_mem, vault, "Touch me but do not change me")
    assert found_ids(run_mem, vault, "touch") == [entry_id]
    before = index_files(vault)
    path = vault / "dev" / "decisions.md"
    later = path.stat().st_mtime_ns + 5_000_000_000

    os.utime(path, ns=(later, later))

    assert found_ids(run_mem, vault, "touch") == [entry_id]
    after = index_files(vault)
    before.pop("manifest.json")
    after.pop("manifest.json")
    assert after == before  # no segment written
    manifest = open_index(vault).manifest()
    assert manifest is not None
    assert manifest["dev/decisions.md"].mtime_ns == later  # restamped: no rehash next time


def test_mem_add_supersedes_keeps_hand_written_text_byte_for_byte(vault, run_mem):
    path = vault / "dev" / "decisions.md"
    path.parent.mkdir()
    original = (
        "---\nagent: dev\ncategory: decisions\n---\n\n# Our decisions   (hand-kept)\n\n"
        "<!-- id:old00001 kind:decision -->\n## 2026-01-02T00:00Z · #db\n\nUse Postgres.\n\n"
        "---\n\nA note between entries, with  odd spacing.\n\n"
        "<!-- id:old00002 -->\n## 2026-01-01\n\nUse SQLite.\n\n---\n\nTrailing note\n"
    )
    path.write_text(original, encoding="utf-8")

    new_id = mem_add(run_mem, vault, "Use Postgres 16", "--supersedes", "old00002")

    text = path.read_text(encoding="utf-8")
    parsed = codec.parse_file(text, "dev/decisions.md", "dev", "decisions")
    assert parsed.problems == ()
    assert [entry.id for entry in parsed.entries] == [new_id, "old00001", "old00002"]
    new_span = parsed.span_of(new_id)
    assert new_span is not None
    undone = codec.without_entry(parsed, new_span).replace(
        "<!-- id:old00002 superseded-by:" + new_id + " -->\n", "<!-- id:old00002 -->\n"
    )
    assert undone == original


# --- the index breaks -----------------------------------------------------------------------


def test_deleted_index_is_rebuilt_with_a_notice(vault, run_mem):
    entry_id = mem_add(run_mem, vault, "Index me again after deletion")
    assert found_ids(run_mem, vault, "deletion") == [entry_id]

    shutil.rmtree(vault / INDEX)
    result = search(run_mem, vault, "deletion")

    assert result.exit_code == 0, result.stderr
    assert [hit["id"] for hit in json.loads(result.stdout)["hits"]] == [entry_id]
    assert result.stderr.startswith("mem: ") and "index" in result.stderr
    assert (vault / INDEX / "manifest.json").is_file()


def overwrite_all(folder: Path) -> None:
    for path in folder.rglob("*"):
        if path.is_file():
            path.write_bytes(b"\x00garbage\xff" * 7)


def overwrite_segments(folder: Path) -> None:
    for path in folder.rglob("*"):
        if path.is_file() and path.name != "manifest.json":
            path.write_bytes(b"not whoosh at all")


def remove_segments(folder: Path) -> None:
    for path in folder.glob("*.seg"):
        path.unlink()


def truncate_toc(folder: Path) -> None:
    for path in folder.glob("*.toc"):
        path.write_bytes(path.read_bytes()[:10])


@pytest.mark.parametrize(
    "damage", [overwrite_all, overwrite_segments, remove_segments, truncate_toc]
)
def test_damaged_index_is_rebuilt_with_a_notice_and_search_works(vault, run_mem, damage):
    entry_id = mem_add(run_mem, vault, "Survive a broken index please")
    other = mem_add(run_mem, vault, "Another entry about something else")
    assert found_ids(run_mem, vault, "broken") == [entry_id]

    damage(vault / INDEX)
    result = search(run_mem, vault, "broken")

    assert result.exit_code == 0, result.stderr
    assert "Traceback" not in result.stderr
    assert [hit["id"] for hit in json.loads(result.stdout)["hits"]] == [entry_id]
    assert result.stderr.startswith("mem: ") and "index" in result.stderr
    assert found_ids(run_mem, vault, "something") == [other]  # and it stays healthy


# --- unsafe places --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("link", "flags"),
    [("dev", ()), ("_shared", ("--scope", "shared"))],
)
def test_folder_symlinked_out_of_the_vault_is_refused(vault, run_mem, tmp_path, link, flags):
    outside = tmp_path / "outside"
    outside.mkdir()
    (vault / link).symlink_to(outside, target_is_directory=True)

    result = run_mem(
        "--vault", str(vault), "add", "secret plans", "-c", "decisions", "--agent", "dev", *flags
    )

    assert result.exit_code == 1
    assert_one_line_error(result.stderr, "outside the vault")
    assert list(outside.iterdir()) == []


def test_category_file_symlinked_out_of_the_vault_is_never_written(vault, run_mem, tmp_path):
    target = tmp_path / "elsewhere.md"
    target.write_text("not mem's to touch\n", encoding="utf-8")
    (vault / "dev").mkdir()
    (vault / "dev" / "decisions.md").symlink_to(target)

    added = run_mem(
        "--vault", str(vault), "add", "secret plans", "-c", "decisions", "--agent", "dev"
    )
    searched = search(run_mem, vault, "secret")

    assert added.exit_code == 1
    assert_one_line_error(added.stderr, "dev/decisions.md", "outside the vault")
    # Reading skips the link rather than failing every search; doctor names it.
    assert searched.exit_code == 0 and json.loads(searched.stdout)["hits"] == []
    doctor = run_mem("--vault", str(vault), "doctor", "--json")
    assert doctor.exit_code == 1
    assert [p["code"] for p in json.loads(doctor.stdout)["problems"]] == ["unsafe_path"]
    assert target.read_text(encoding="utf-8") == "not mem's to touch\n"
    assert {path.name for path in tmp_path.iterdir()} - {"project", "home"} == {"elsewhere.md"}


def make_read_only(folder: Path) -> None:
    for root, dirs, files in os.walk(folder):
        for name in files:
            os.chmod(os.path.join(root, name), stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH)
        for name in dirs:
            os.chmod(os.path.join(root, name), 0o555)
    os.chmod(folder, 0o555)


def make_writable(folder: Path) -> None:
    os.chmod(folder, 0o755)
    for root, dirs, files in os.walk(folder):
        for name in dirs:
            os.chmod(os.path.join(root, name), 0o755)
        for name in files:
            os.chmod(os.path.join(root, name), 0o644)


def permissions_stop_writes(folder: Path) -> bool:
    """Tell whether this process is stopped by a read-only folder (root usually is not)."""
    probe = folder / "read-only-probe"
    probe.mkdir()
    os.chmod(probe, 0o555)
    try:
        (probe / "file").write_text("x", encoding="utf-8")
    except PermissionError:
        return True
    finally:
        os.chmod(probe, 0o755)
        shutil.rmtree(probe)
    return False


def test_read_only_vault_gives_a_one_line_error_and_changes_nothing(vault, run_mem, tmp_path):
    if not permissions_stop_writes(tmp_path):
        pytest.skip("this process (root?) writes through read-only permissions")
    mem_add(run_mem, vault, "Written before the vault became read-only")
    path = vault / "dev" / "decisions.md"
    before = path.read_bytes()
    make_read_only(vault)
    try:
        result = run_mem(
            "--vault", str(vault), "add", "cannot land", "-c", "decisions", "--agent", "dev"
        )
        searched = search(run_mem, vault, "written")  # the index must be built, which writes
        listing = sorted(str(p.relative_to(vault)) for p in vault.rglob("*"))
    finally:
        make_writable(vault)

    assert result.exit_code == 1
    assert_one_line_error(result.stderr, "read-only")
    assert path.read_bytes() == before
    assert searched.exit_code in (0, 1)
    if searched.exit_code:
        assert_one_line_error(searched.stderr, "read-only")
    assert not [name for name in listing if name.endswith(".tmp")]


def test_category_files_found_are_only_real_category_files(vault, run_mem):
    mem_add(run_mem, vault, "A real entry")
    (vault / "dev" / "notes.md").write_text("not a category\n", encoding="utf-8")
    (vault / "dev" / ".decisions.md.123-abcd.tmp").write_text("leftover\n", encoding="utf-8")

    paths = [ref.path for ref in layout.category_files(vault)]

    assert paths == ["dev/decisions.md"]


def test_search_after_every_entry_was_deleted_by_hand_finds_nothing(vault, run_mem):
    mem_add(run_mem, vault, "The only entry, soon gone")
    assert len(found_ids(run_mem, vault, "gone")) == 1
    path = vault / "dev" / "decisions.md"

    save_like_an_editor(path, codec.new_file_text("dev", "decisions"))

    assert found_ids(run_mem, vault, "gone") == []


def test_index_rebuilt_from_a_vault_without_entries_searches_to_nothing(vault, run_mem):
    assert found_ids(run_mem, vault, "anything") == []  # a new vault: an index with no segments

    mem_add(run_mem, vault, "Briefly here")
    (vault / "dev" / "decisions.md").unlink()
    shutil.rmtree(vault / INDEX)

    assert found_ids(run_mem, vault, "briefly") == []


def test_a_file_that_is_not_utf8_is_never_rewritten_and_doctor_names_it(vault, run_mem):
    mem_add(run_mem, vault, "First entry in the file")
    path = vault / "dev" / "decisions.md"
    path.write_bytes(path.read_bytes() + "Caf\u00e9 in Latin-1\n".encode("latin-1"))
    before = path.read_bytes()

    added = run_mem("--vault", str(vault), "add", "Second entry", "-c", "decisions", "-a", "dev")

    assert added.exit_code == 1
    assert_one_line_error(added.stderr, "not UTF-8")
    assert path.read_bytes() == before
    doctor = run_mem("--vault", str(vault), "doctor", "--json")
    assert [p["code"] for p in json.loads(doctor.stdout)["problems"]] == ["encoding"]


def test_an_edit_that_keeps_size_and_mtime_is_still_noticed(vault, run_mem):
    # Tools such as `cp -p` and `rsync -t` restore the mtime; the ctime still moves.
    mem_add(run_mem, vault, "The cache lives in redis")
    assert found_ids(run_mem, vault, "redis")
    path = vault / "dev" / "decisions.md"
    info = path.stat()
    path.write_text(path.read_text().replace("redis", "mysql"))
    os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns))
    assert path.stat().st_size == info.st_size and path.stat().st_mtime_ns == info.st_mtime_ns

    assert found_ids(run_mem, vault, "redis") == []
    assert len(found_ids(run_mem, vault, "mysql")) == 1
