"""Finding the vault: --vault, then MEM_VAULT, then the nearest .memory/ walking up."""

from __future__ import annotations

from .helpers import added_id, data, error_payload, failed, ok


def make_vault(run_mem, folder):
    folder.mkdir(parents=True)
    ok(run_mem("init", cwd=folder))
    return folder / ".memory"


def test_nearest_vault_walking_up_is_used(run_mem, tmp_path):
    outer = make_vault(run_mem, tmp_path / "outer")
    inner = make_vault(run_mem, tmp_path / "outer" / "inner")
    deep = tmp_path / "outer" / "inner" / "a" / "b"
    deep.mkdir(parents=True)
    ok(run_mem("add", "nearest wins", "--agent", "dev", cwd=deep))
    assert (inner / "dev" / "facts.md").is_file()
    assert not (outer / "dev").exists()
    # from inside the vault folder itself, too
    ok(run_mem("add", "inside the vault", "--agent", "dev", cwd=inner / "dev"))
    assert "inside the vault" in (inner / "dev" / "facts.md").read_text()


def test_mem_vault_beats_walking_up_and_the_flag_beats_mem_vault(run_mem, tmp_path):
    here = make_vault(run_mem, tmp_path / "here")
    env_vault = make_vault(run_mem, tmp_path / "env")
    flag_vault = make_vault(run_mem, tmp_path / "flag")

    ok(
        run_mem(
            "add",
            "goes to MEM_VAULT",
            "-a",
            "dev",
            cwd=here.parent,
            env={"MEM_VAULT": str(env_vault)},
        )
    )
    assert "goes to MEM_VAULT" in (env_vault / "dev" / "facts.md").read_text()
    assert not (here / "dev").exists()

    # the flag may name the vault folder or the folder holding .memory/
    ok(
        run_mem(
            "--vault",
            str(flag_vault.parent),
            "add",
            "goes to --vault",
            "-a",
            "dev",
            cwd=here.parent,
            env={"MEM_VAULT": str(env_vault)},
        )
    )
    assert "goes to --vault" in (flag_vault / "dev" / "facts.md").read_text()
    assert "goes to --vault" not in (env_vault / "dev" / "facts.md").read_text()

    # a command's own --vault works after the command name too
    entry_id = added_id(run_mem("add", "command flag", "-a", "dev", "--vault", str(flag_vault)))
    assert entry_id in (flag_vault / "dev" / "facts.md").read_text()


def test_no_vault_found_says_to_run_mem_init(run_mem, tmp_path):
    nowhere = tmp_path / "empty"
    nowhere.mkdir()
    for args in (("search", "anything"), ("list",), ("stats",), ("add", "x")):
        result = run_mem(*args, cwd=nowhere)
        message = failed(result, 1)
        assert message == "mem: no vault here or above; run `mem init` to create one"
        assert result.stdout == ""
    assert list(nowhere.iterdir()) == []  # nothing was created


def test_a_vault_flag_that_leads_nowhere_names_the_path(run_mem, tmp_path):
    missing = tmp_path / "nope"
    message = error_payload(
        run_mem("--vault", str(missing), "list", "--json"), 1, "vault_not_found"
    )
    assert str(missing) in message and "mem init" in message
    message = failed(run_mem("list", env={"MEM_VAULT": str(missing)}), 1)
    assert str(missing) in message
    assert not missing.exists()


def test_a_folder_without_mem_toml_is_not_a_vault(run_mem, tmp_path):
    (tmp_path / "project" / ".memory").mkdir(parents=True)  # no mem.toml
    result = run_mem("stats", "--json", cwd=tmp_path / "project")
    error_payload(result, 1, "vault_not_found")


def test_agent_comes_from_flag_then_mem_agent_then_mem_toml(run_mem, tmp_path):
    vault = make_vault(run_mem, tmp_path / "p")
    toml = vault / "mem.toml"
    toml.write_text(toml.read_text().replace('default_agent = "main"', 'default_agent = "cfg"'))
    cwd = vault.parent
    assert data(run_mem("add", "a", "--json", cwd=cwd))["entry"]["agent"] == "cfg"
    env = {"MEM_AGENT": "envy"}
    assert data(run_mem("add", "b", "--json", cwd=cwd, env=env))["entry"]["agent"] == "envy"
    flagged = run_mem("--agent", "rooty", "add", "c", "--json", cwd=cwd, env=env)
    assert data(flagged)["entry"]["agent"] == "rooty"
    flagged = run_mem("add", "d", "--agent", "cmd", "--json", cwd=cwd, env=env)
    assert data(flagged)["entry"]["agent"] == "cmd"
    agents = sorted(p.name for p in vault.iterdir() if p.is_dir() and p.name != ".mem")
    assert agents == ["cfg", "cmd", "envy", "rooty"]
