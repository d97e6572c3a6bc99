"""A full disk: writes say so in one line; a search still finds every entry."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest

# In a mount namespace of its own: a 1 MB tmpfs at $1, the project $2 copied onto it, the rest
# of the tmpfs filled, then the command, run in the copy.
ON_A_FULL_DISK = (
    'mount -t tmpfs -o size=1m tmpfs "$1" && cp -a "$2" "$1/project" && '
    '{ dd if=/dev/zero of="$1/filler" bs=4096 2>/dev/null; true; } && '
    'cd "$1/project" && shift 2 && exec "$@"'
)


def on_a_full_disk(tmp_path, project, *args):
    if shutil.which("unshare") is None:
        pytest.skip("no unshare(1) to mount a small tmpfs")
    mount_point = tmp_path / "small-disk"
    mount_point.mkdir()
    command = ["unshare", "-rm", "sh", "-c", ON_A_FULL_DISK, "sh", str(mount_point), str(project)]
    probe = subprocess.run([*command, "true"], capture_output=True, text=True, check=False)
    if probe.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {probe.stderr.strip()}")
    return subprocess.run(
        [*command, sys.executable, "-m", "mem", *args], capture_output=True, text=True, check=False
    )


def test_a_search_on_a_full_disk_brings_a_copy_of_the_index_up_to_date_elsewhere(
    tmp_path, vault, run_mem
):
    for number in range(3):
        run_mem("add", f"indexed fixture note {number}", "-c", "decisions", cwd=vault.parent)
    assert run_mem("search", "fixture", cwd=vault.parent).exit_code == 0  # the index, made
    run_mem("add", "a later fixture note", "-c", "lessons", cwd=vault.parent)  # not indexed yet

    searched = on_a_full_disk(tmp_path, vault.parent, "search", "fixture", "--json")

    assert searched.returncode == 0, searched.stderr
    assert len(json.loads(searched.stdout)["hits"]) == 4
    assert "the disk is full, so the index is brought up to date in a temporary copy" in (
        searched.stderr
    )
    assert "Traceback" not in searched.stderr


def test_an_add_on_a_full_disk_is_a_one_line_error(tmp_path, vault, run_mem):
    added = on_a_full_disk(tmp_path, vault.parent, "add", "no room", "-c", "decisions")

    assert added.returncode == 1
    assert added.stderr.strip().splitlines() == [
        "mem: cannot write main/decisions.md (No space left on device)"
    ]
