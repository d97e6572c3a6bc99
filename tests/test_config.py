"""mem.toml is read once and kept as JSON beside the index while the file stays the same."""

from __future__ import annotations

import json
import os

import pytest

from mem.config import CONFIG_CACHE, read_config
from mem.errors import InvalidSetting


@pytest.fixture
def vault(tmp_path):
    (tmp_path / ".mem").mkdir()
    (tmp_path / "mem.toml").write_text('default_agent = "dev"\n[recall]\nbudget = 1500\n')
    return tmp_path


def test_an_unchanged_file_is_read_from_what_was_kept(vault):
    assert read_config(vault) == {"default_agent": "dev", "recall": {"budget": 1500}}
    cache = vault / CONFIG_CACHE
    kept = json.loads(cache.read_text())
    kept["config"]["recall"]["budget"] = 7  # what a read of the kept copy would give
    cache.write_text(json.dumps(kept))
    assert read_config(vault)["recall"]["budget"] == 7


def test_a_temp_file_a_killed_writer_left_is_removed_by_the_next_write(vault):
    left = vault / ".mem" / ".config.json.4242.tmp"  # killed between its write and its rename
    left.write_text("{")
    read_config(vault)
    assert not left.exists()
    assert json.loads((vault / CONFIG_CACHE).read_text())["config"]["default_agent"] == "dev"
    assert sorted(path.name for path in (vault / ".mem").iterdir()) == ["config.json"]


def test_a_changed_file_is_read_again(vault):
    read_config(vault)
    toml = vault / "mem.toml"
    toml.write_text('default_agent = "dev"\n[recall]\nbudget = 900\n')
    assert read_config(vault)["recall"]["budget"] == 900
    toml.write_text("budget = [\n")  # broken: said so, whatever was kept before
    with pytest.raises(InvalidSetting, match="not valid TOML"):
        read_config(vault)
    toml.unlink()
    assert read_config(vault) == {}


def test_what_json_cannot_hold_or_a_vault_it_cannot_write_keeps_nothing(vault, tmp_path):
    (vault / "mem.toml").write_text("since = 2026-11-01\n")
    first = read_config(vault)
    assert str(first["since"]) == "2026-11-01" and not (vault / CONFIG_CACHE).exists()
    assert read_config(vault) == first
    (vault / "mem.toml").write_text("budget = 3\n")
    os.rename(vault / ".mem", vault / "elsewhere")  # no folder beside the index yet
    assert read_config(vault) == {"budget": 3}
    assert sorted(path.name for path in vault.iterdir()) == ["elsewhere", "mem.toml"]
