"""`mem install` / `mem uninstall`: hooks merged into an agent's settings, and taken out."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from tests.cli.helpers import ok

CLAUDE_SETTINGS = (
    '{\n  "permissions": {\n    "allow": [\n      "Bash(ls:*)"\n    ]\n  },\n'
    '  "hooks": {\n    "Stop": [\n      {\n        "hooks": [\n          {\n'
    '            "type": "command",\n            "command": "notify-send done"\n'
    "          }\n        ]\n      }\n    ]\n  },\n"
    '  "model": "opus"\n}\n'
)


@pytest.fixture
def home(tmp_path: Path) -> dict[str, str]:
    folder = tmp_path / "home"
    folder.mkdir()
    return {"HOME": str(folder), "XDG_STATE_HOME": "", "CODEX_HOME": ""}


def test_install_twice_equals_once_and_uninstall_restores_the_file(mem, vault, home):
    settings = vault.parent / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(CLAUDE_SETTINGS)
    ok(mem("install", "claude-code", "--agent", "dev", env=home))
    once = settings.read_bytes()
    ok(mem("install", "claude-code", "--agent", "dev", env=home))
    assert settings.read_bytes() == once
    data = json.loads(once)
    assert data["permissions"] == {"allow": ["Bash(ls:*)"]} and data["model"] == "opus"
    assert data["hooks"]["Stop"][0]["hooks"][0]["command"] == "notify-send done"
    commands = {
        event: [h["command"] for group in groups for h in group["hooks"]]
        for event, groups in data["hooks"].items()
    }
    assert set(commands) == {
        "SessionStart",
        "UserPromptSubmit",
        "PreToolUse",
        "Stop",
        "SubagentStop",
        "PreCompact",
        "SessionEnd",
    }
    assert all(c.endswith("hook claude-code --agent dev") for c in commands["SessionStart"])
    assert data["hooks"]["PreToolUse"][0]["matcher"] == "Edit|Write|MultiEdit|NotebookEdit|Bash"
    ok(mem("uninstall", "claude-code", env=home))
    assert settings.read_text() == CLAUDE_SETTINGS


def test_uninstall_after_an_edit_takes_out_only_mems_hooks(mem, vault, home):
    settings = vault.parent / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(CLAUDE_SETTINGS)
    ok(mem("install", "claude-code", env=home))
    data = json.loads(settings.read_text())
    data["env"] = {"FOO": "1"}  # the user edits the file after the install
    settings.write_text(json.dumps(data, indent=2) + "\n")
    ok(mem("uninstall", "claude-code", env=home))
    after = json.loads(settings.read_text())
    assert after == {**json.loads(CLAUDE_SETTINGS), "env": {"FOO": "1"}}


def test_install_creates_the_file_and_uninstall_removes_it(mem, vault, home):
    settings = vault.parent / ".codex" / "hooks.json"
    ok(mem("install", "codex", env=home))
    data = json.loads(settings.read_text())
    assert set(data) == {"hooks"}  # Codex refuses unknown keys at the root of hooks.json
    assert data["hooks"]["SessionEnd"][0]["hooks"][0]["timeout"] <= 3
    assert data["hooks"]["PreToolUse"][0]["matcher"] == "^Bash$|^apply_patch$"
    ok(mem("uninstall", "codex", env=home))
    assert not settings.exists()


def test_dry_run_shows_the_diff_and_writes_nothing(mem, vault, home):
    result = ok(mem("install", "gemini", "--dry-run", env=home))
    assert "+++ " in result.stdout and '"BeforeAgent"' in result.stdout
    assert '"timeout": 15000' in result.stdout  # Gemini counts milliseconds
    assert not (vault.parent / ".gemini").exists()


def test_user_install_writes_the_home_folders_settings(run_mem, tmp_path, home):
    result = run_mem("install", "claude-code", "--user", env=home, cwd=tmp_path)
    assert result.exit_code == 0, result.stderr
    assert (
        "SessionStart"
        in json.loads((Path(home["HOME"]) / ".claude/settings.json").read_text())["hooks"]
    )


@pytest.mark.parametrize(
    ("content", "message"),
    [("{not json", "is not valid JSON"), ('["a"]', "does not hold a JSON object")],
)
def test_a_broken_settings_file_is_an_error_and_stays_as_it_was(mem, vault, home, content, message):
    settings = vault.parent / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(content)
    result = mem("install", "claude-code", env=home)
    assert result.exit_code == 1 and message in result.stderr
    assert settings.read_text() == content


def test_an_unknown_agent_is_a_one_line_error(mem, home):
    result = mem("install", "vscode", env=home)
    assert result.exit_code == 2 and "unknown agent 'vscode'" in result.stderr


CODEX_CONFIG = (
    '# my codex settings\nmodel = "gpt-5"\n\n[mcp_servers.docs]\ncommand = "docs-mcp"\n\n'
    '[profiles.fast]\nmodel = "gpt-5-mini"\n'
)


def test_install_registers_the_mcp_server_for_each_agent(mem, vault, home):
    project = vault.parent
    for agent in ("claude-code", "codex", "gemini"):
        ok(mem("install", agent, "--agent", "dev", env=home))
    # The agent in the server's environment, not its command line: the same command in
    # every scope (Claude Code warns of "[Conflicting scopes]" when commands differ).
    claude = json.loads((project / ".mcp.json").read_text())["mcpServers"]["mem"]
    assert claude["args"][-1] == "mcp" and claude["env"] == {"MEM_AGENT": "dev"}
    gemini = json.loads((project / ".gemini" / "settings.json").read_text())
    assert gemini["mcpServers"]["mem"]["args"][-1] == "mcp"
    assert gemini["mcpServers"]["mem"]["env"] == {"MEM_AGENT": "dev"}
    assert "hooks" in gemini
    import tomllib

    codex = tomllib.loads((project / ".codex" / "config.toml").read_text())
    assert codex["mcp_servers"]["mem"]["args"][-1] == "mcp"
    assert codex["mcp_servers"]["mem"]["env"] == {"MEM_AGENT": "dev"}


def test_a_user_wide_and_a_project_install_run_the_same_server_command(mem, vault, home):
    ok(mem("install", "claude-code", "--agent", "dev", env=home))
    ok(mem("install", "claude-code", "--user", "--agent", "qa", env=home))
    project = json.loads((vault.parent / ".mcp.json").read_text())["mcpServers"]["mem"]
    user = json.loads((Path(home["HOME"]) / ".claude.json").read_text())["mcpServers"]["mem"]
    assert (project["command"], project["args"]) == (user["command"], user["args"])
    assert (project["env"], user["env"]) == ({"MEM_AGENT": "dev"}, {"MEM_AGENT": "qa"})


def test_the_server_acts_as_the_agent_its_environment_names(run_mem, vault, home):
    ok(run_mem("--vault", str(vault), "install", "claude-code", "--agent", "dev", env=home))
    server = json.loads((vault.parent / ".mcp.json").read_text())["mcpServers"]["mem"]
    calls = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "t", "version": "1"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
         "params": {"name": "publish", "arguments": {"text": "Builds run on Fridays"}}},
    ]  # fmt: skip

    def publish(environment: dict[str, str]) -> str:
        """The server's answer to a publish; stdin stays open until it comes (at the end of
        its input the server stops, answered or not)."""
        with subprocess.Popen(
            [server["command"], *server["args"]],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            cwd=vault.parent,
            env={**os.environ, **home, **environment},
        ) as process:
            assert process.stdin is not None and process.stdout is not None
            process.stdin.write("".join(json.dumps(call) + "\n" for call in calls))
            process.stdin.flush()
            for line in process.stdout:
                if line.strip() and json.loads(line).get("id") == 2:
                    process.stdin.close()
                    return line
        raise AssertionError("the server stopped without answering")

    assert "dev/facts.md" in publish(server["env"])
    assert "Builds run on Fridays" in (vault / "dev" / "facts.md").read_text()
    assert not (vault / "main" / "facts.md").exists()


def test_install_without_an_agent_wires_the_default_and_says_which(mem, vault, home):
    ok(mem("add", "Deploys go out on Tuesdays", "-a", "dev"))
    result = ok(mem("install", "claude-code", env=home))
    assert "hooks and server act as agent main (the vault's default agent" in result.stderr
    assert "note: they act as agent main, which has no entries yet" in result.stderr
    assert "(dev has 1: install again with --agent dev" in result.stderr
    settings = json.loads((vault.parent / ".claude" / "settings.json").read_text())
    assert settings["hooks"]["SessionStart"][0]["hooks"][0]["command"].endswith(
        "hook claude-code --agent main"
    )
    checked = mem("doctor", "--json")  # a warning: no exit status of its own
    report = json.loads(checked.stdout)
    assert [p["code"] for p in report["warnings"]] == ["empty_hook_agent"]
    assert checked.exit_code == (1 if report["problems"] else 0)
    ok(mem("install", "claude-code", "--agent", "dev", env=home))
    assert "empty_hook_agent" not in mem("doctor", "--json").stdout
    user = ok(mem("install", "claude-code", "--user", env=home))
    assert ".mcp.json" not in user.stderr  # it wrote none to approve
    assert "each project's default agent" in user.stderr


def test_codex_config_keeps_every_other_byte_and_comes_back_whole(mem, vault, home):
    config = vault.parent / ".codex" / "config.toml"
    config.parent.mkdir()
    config.write_text(CODEX_CONFIG)
    ok(mem("install", "codex", env=home))
    once = config.read_text()
    assert once.startswith(CODEX_CONFIG) and once.count("[mcp_servers.mem]") == 1
    ok(mem("install", "codex", "--agent", "dev", env=home))  # rewritten in place
    twice = config.read_text()
    assert twice.startswith(CODEX_CONFIG) and twice.endswith('env = { MEM_AGENT = "dev" }\n')
    ok(mem("uninstall", "codex", env=home))
    assert config.read_text() == CODEX_CONFIG


def test_codex_config_edited_after_install_loses_only_mems_table(mem, vault, home):
    config = vault.parent / ".codex" / "config.toml"
    config.parent.mkdir()
    config.write_text(CODEX_CONFIG)
    ok(mem("install", "codex", env=home))
    config.write_text(config.read_text() + '\n[profiles.slow]\nmodel = "o3"\n')
    ok(mem("uninstall", "codex", env=home))
    assert config.read_text() == CODEX_CONFIG + '\n[profiles.slow]\nmodel = "o3"\n'


def test_someone_elses_mcp_server_named_mem_is_left_alone(mem, vault, home):
    servers = vault.parent / ".mcp.json"
    servers.write_text('{"mcpServers": {"mem": {"command": "other-memory-tool"}}}\n')
    result = mem("install", "claude-code", env=home)
    assert result.exit_code == 1 and "not mem mcp" in result.stderr
    assert servers.read_text() == '{"mcpServers": {"mem": {"command": "other-memory-tool"}}}\n'
    assert not (vault.parent / ".claude" / "settings.json").exists()  # nothing half-written


def test_antigravity_gets_the_mcp_server_and_no_hooks(mem, vault, home):
    config = vault.parent / ".agents" / "mcp_config.json"
    ok(mem("install", "antigravity", "--agent", "dev", env=home))
    once = config.read_bytes()
    ok(mem("install", "antigravity", "--agent", "dev", env=home))
    assert config.read_bytes() == once
    data = json.loads(once)
    assert set(data) == {"mcpServers"}
    assert data["mcpServers"]["mem"]["args"][-1] == "mcp"
    assert data["mcpServers"]["mem"]["env"] == {"MEM_AGENT": "dev"}
    assert not (vault.parent / ".agents" / "hooks.json").exists()
    ok(mem("uninstall", "antigravity", env=home))
    assert not (vault.parent / ".agents").exists()
    user = ok(mem("install", "antigravity", "--user", "--dry-run", env=home))
    assert str(Path(home["HOME"]) / ".gemini" / "config" / "mcp_config.json") in user.stdout


GEMINI_SETTINGS = (
    '{\n  "ui": {"theme": "GitHub"},\n  "hooks": {"SessionEnd": [{"hooks": '
    '[{"type": "command", "command": "notify-send bye"}]}]}\n}\n'
)
# The trigger Gemini CLI sends with each lifecycle event (gemini-cli @ 5411f11,
# packages/core/src/hooks/types.ts: SessionStartSource, PreCompressTrigger, SessionEndReason).
GEMINI_TRIGGERS = {
    "SessionStart": ("startup", "resume", "clear"),
    "PreCompress": ("manual", "auto"),
    "SessionEnd": ("exit", "clear", "logout", "prompt_input_exit", "other"),
}


def gemini_runs(group: dict, trigger: str) -> bool:
    """Whether Gemini runs a matcher group for a lifecycle event's trigger: no matcher, "" and
    "*" match all; anything else must equal the trigger (hookPlanner.ts, matchesTrigger)."""
    matcher = (group.get("matcher") or "").strip()
    return matcher in ("", "*") or matcher == trigger


def test_gemini_runs_mems_lifecycle_hooks_for_every_source(mem, vault, home):
    settings = vault.parent / ".gemini" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(GEMINI_SETTINGS)
    ok(mem("install", "gemini", "--agent", "dev", env=home))
    once = settings.read_bytes()
    hooks = json.loads(once)["hooks"]
    for event, triggers in GEMINI_TRIGGERS.items():
        ours = [group for group in hooks[event] if "hook gemini" in group["hooks"][0]["command"]]
        assert len(ours) == 1, event
        for trigger in triggers:
            assert gemini_runs(ours[0], trigger), (event, trigger)
    ok(mem("install", "gemini", "--agent", "dev", env=home))
    assert settings.read_bytes() == once
    ok(mem("uninstall", "gemini", env=home))
    assert settings.read_text() == GEMINI_SETTINGS


def test_reinstalling_gemini_replaces_a_start_hook_gemini_never_ran(mem, vault, home):
    settings = vault.parent / ".gemini" / "settings.json"
    ok(mem("install", "gemini", env=home))
    data = json.loads(settings.read_text())
    data["hooks"]["SessionStart"][0]["matcher"] = "startup|resume|clear"  # as mem wrote it before
    settings.write_text(json.dumps(data, indent=2) + "\n")
    ok(mem("install", "gemini", env=home))
    starts = json.loads(settings.read_text())["hooks"]["SessionStart"]
    assert len(starts) == 1 and all(
        gemini_runs(starts[0], t) for t in GEMINI_TRIGGERS["SessionStart"]
    )
