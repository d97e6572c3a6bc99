"""A rebuild removes what a rebuild killed midway left beside the index."""

from __future__ import annotations

from mem.index.search_index import SearchIndex


def test_a_rebuild_removes_the_folders_a_killed_rebuild_left(tmp_path):
    state = tmp_path / ".mem"
    for name in ("index.new-0badf00d", "index.old-0badf00d"):  # killed mid-build, mid-swap
        (state / name).mkdir(parents=True)
        (state / name / "MAIN_1.seg").write_bytes(b"\0" * 4096)
    index = SearchIndex(state / "index")

    index.rebuild([], 0, {})

    assert sorted(path.name for path in state.iterdir()) == ["index"]
    assert index.is_readable()
