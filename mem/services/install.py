"""`mem install` and `mem uninstall`: the hooks that call `mem hook` and the MCP server
`mem mcp`, merged into an agent's own settings files, and taken out again.

Only the agent's own files are written: Claude Code's `.claude/settings.json` and `.mcp.json`,
Codex's `.codex/hooks.json` and `.codex/config.toml`, Gemini CLI's `.gemini/settings.json` (with
`--user`, the ones in the home folder). Every other key keeps its bytes (json_splice edits
only what changes); a second install changes nothing. Each file as it was before is kept (in
`~/.local/state/mem/install/`), so an uninstall of an install nobody edited since gives the
file back byte for byte, and otherwise takes out only the handlers and the server `mem` added.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import json
import re
import shlex
import shutil
import sys
from pathlib import Path
from typing import Any, NamedTuple

from mem.config import check_agent
from mem.errors import FileUnreadable, InvalidInput, InvalidSetting
from mem.extract.sessions import codex_home
from mem.vault import store

OURS = re.compile(r"(?:^|[\s/\"'])mem(?:\"|')?\s.*\bhook (?:claude-code|codex|gemini)\b")
OUR_SERVER = re.compile(r"(?:^|[\s/])mem(?:\.exe)?\s(?:.*\s)?mcp\b")
SERVER_NAME = "mem"
AGENT_VARIABLE = "MEM_AGENT"  # how the MCP server is told its agent (see Wiring)
# The table's header and its non-blank lines up to the next table: the blank lines after it
# are the file's, not the table's.
TOML_TABLE = re.compile(
    r"^\[mcp_servers\.mem\][^\n]*(?:\n|$)(?:(?![ \t]*\[)[^\n]*\S[^\n]*(?:\n|$))*", re.MULTILINE
)


class Hook(NamedTuple):
    event: str
    matcher: str | None
    timeout: int  # in the agent's unit: seconds, or milliseconds for Gemini


# Which events each agent sends to `mem hook`, with a timeout generous for the work and short
# enough that a stuck hook does not hold the agent up.
HOOKS: dict[str, tuple[Hook, ...]] = {
    "claude-code": (
        Hook("SessionStart", "startup|resume|clear|compact", 15),
        Hook("UserPromptSubmit", None, 10),
        Hook("PreToolUse", "Edit|Write|MultiEdit|NotebookEdit|Bash", 5),
        Hook("Stop", None, 60),
        Hook("SubagentStop", None, 60),
        Hook("PreCompact", None, 60),
        Hook("SessionEnd", None, 5),
    ),
    "codex": (
        Hook("SessionStart", "startup|resume|clear|compact", 15),
        Hook("UserPromptSubmit", None, 10),
        Hook("PreToolUse", "^Bash$|^apply_patch$", 5),
        Hook("Stop", None, 60),
        Hook("SubagentStop", None, 60),
        Hook("PreCompact", None, 60),
        Hook("SessionEnd", None, 3),  # Codex clamps it to 3 s
    ),
    "gemini": (
        # Gemini compares a lifecycle event's matcher (SessionStart, PreCompress, SessionEnd)
        # with its source as one exact string, so "startup|resume|clear" matches nothing; no
        # matcher matches every source (gemini-cli packages/core/src/hooks/hookPlanner.ts).
        Hook("SessionStart", None, 15000),
        Hook("BeforeAgent", None, 10000),
        # Gemini reads additionalContext after a tool, not before it.
        Hook("AfterTool", "write_file|replace|run_shell_command", 5000),
        Hook("AfterAgent", None, 60000),
        Hook("PreCompress", None, 60000),
        Hook("SessionEnd", None, 5000),  # Gemini does not wait for it: mem detaches anyway
    ),
}
SETTINGS_FILES = {  # (project file, user file); the user file under the agent's home folder
    "claude-code": (".claude/settings.json", "~/.claude/settings.json"),
    "codex": (".codex/hooks.json", "$CODEX_HOME/hooks.json"),
    "gemini": (".gemini/settings.json", "~/.gemini/settings.json"),
}
MCP_FILES = {  # where each agent reads its MCP servers (Gemini: the same settings file)
    "claude-code": (".mcp.json", "~/.claude.json"),
    "codex": (".codex/config.toml", "$CODEX_HOME/config.toml"),
    "gemini": (".gemini/settings.json", "~/.gemini/settings.json"),
    # Antigravity CLI (agy): the workspace file per Google's migration guide; the HOME-level one
    # where agy 2026 reads it (cua.ai, jcodemunch-mcp 1.108.89), not the guide's older path.
    "antigravity": (".agents/mcp_config.json", "~/.gemini/config/mcp_config.json"),
}
# Every agent gets the MCP server; those in HOOKS and SETTINGS_FILES hooks as well (Antigravity:
# the server only, see AGENT_KINDS in mem/services/hook.py).
INSTALLABLE = tuple(MCP_FILES)
USER_NEXT_STEPS = {
    "claude-code": "start claude in any project with a vault: /hooks lists the hooks, /mcp "
    "the server",
}
NEXT_STEPS = {
    "claude-code": "start claude in the project: /hooks lists the hooks, /mcp the server "
    "(approve the project's .mcp.json when asked)",
    "codex": "open codex in the project, trust the folder and review the new hooks with "
    "/hooks: Codex reads a project's hooks and MCP servers only in a trusted folder, and runs "
    "a hook only once you trust it; `codex exec` asks neither, and without both runs no hook",
    "gemini": "start gemini in a trusted folder (Gemini runs no hooks in an untrusted one)",
    "antigravity": "restart agy in the project and check the server with /mcp (agy gets the "
    "MCP server only: its hooks are not installed)",
}


class Change(NamedTuple):
    """What an install or uninstall does to one settings file."""

    agent: str
    path: Path
    before: bytes | None  # None: the file does not exist
    after: bytes | None  # None: the file is removed (an uninstall of what install created)

    @property
    def changed(self) -> bool:
        return self.before != self.after


class Wiring(NamedTuple):
    """What an install writes: the hook command into one file, the MCP server into another
    (or the same)."""

    hooks_file: Path | None  # None: the agent gets no hooks (Antigravity)
    mcp_file: Path
    hook_command: str
    server: tuple[str, ...]  # the MCP server's command line: `mem mcp`
    # The agent the server acts as, in its environment (MEM_AGENT), not its command line:
    # Claude Code compares a server's command across scopes, without its environment, and
    # warns of "[Conflicting scopes]" when a user-wide and a project install differ.
    server_agent: str | None = None


def wiring(
    agent: str, user: bool, project: Path, environ: dict[str, str], mem_agent: str | None
) -> Wiring:
    check_installable(agent)
    hooks = SETTINGS_FILES.get(agent)
    return Wiring(
        settings_path(hooks, user, project, environ) if hooks else None,
        settings_path(MCP_FILES[agent], user, project, environ),
        hook_command(agent, mem_agent),
        server_command(),
        mem_agent,
    )


def settings_path(
    files: tuple[str, str], user: bool, project: Path, environ: dict[str, str]
) -> Path:
    project_file, user_file = files
    if not user:
        return project / project_file
    if user_file.startswith("$CODEX_HOME/"):
        return codex_home(environ) / user_file.removeprefix("$CODEX_HOME/")
    return Path(environ.get("HOME", "~")).expanduser() / user_file.removeprefix("~/")


def mem_command(*args: str, mem_agent: str | None = None) -> tuple[str, ...]:
    """`mem ARGS [--agent NAME]`: `mem` when it is on PATH, else this Python running mem."""
    base = ("mem",) if shutil.which("mem") else (sys.executable, "-m", "mem")
    return (*base, *args, *(("--agent", mem_agent) if mem_agent else ()))


def hook_command(agent: str, mem_agent: str | None) -> str:
    """The command line the agent's hooks run."""
    return shlex.join(mem_command("hook", agent, mem_agent=mem_agent))


def server_command() -> tuple[str, ...]:
    """The MCP server's command and arguments (the same for every agent and scope)."""
    return mem_command("mcp")


def plan_install(agent: str, wired: Wiring) -> list[Change]:
    """The changes an install makes: one per file it writes."""
    check_installable(agent)
    changes = []
    if wired.hooks_file is not None:
        before = read_settings(wired.hooks_file)
        data = parse(wired.hooks_file, before)
        add_hooks(agent, wired.hooks_file, data, wired.hook_command)
        if wired.mcp_file == wired.hooks_file:
            add_json_server(wired.mcp_file, data, wired.server, wired.server_agent)
            return [Change(agent, wired.hooks_file, before, render(data, before))]
        changes.append(Change(agent, wired.hooks_file, before, render(data, before)))
    before = read_settings(wired.mcp_file)
    after: bytes | None
    if wired.mcp_file.suffix == ".toml":
        after = add_toml_server(wired.mcp_file, before, wired.server, wired.server_agent)
    else:
        servers = parse(wired.mcp_file, before)
        add_json_server(wired.mcp_file, servers, wired.server, wired.server_agent)
        after = render(servers, before)
    return [*changes, Change(agent, wired.mcp_file, before, after)]


def add_hooks(agent: str, path: Path, data: dict[str, Any], command: str) -> None:
    hooks = data.setdefault("hooks", {})
    if not isinstance(hooks, dict):
        raise InvalidSetting(f'{path}: "hooks" is not an object; fix it by hand first')
    for hook in HOOKS[agent]:
        group = our_group(agent, hook, command)
        groups = hooks.setdefault(hook.event, [])
        if not isinstance(groups, list):
            raise InvalidSetting(f"{path}: hooks.{hook.event} is not a list; fix it by hand first")
        mine = [n for n, each in enumerate(groups) if is_ours(each)]
        if mine:
            groups[mine[0]] = group  # in place: a second install leaves the file as it was
            for extra in reversed(mine[1:]):
                del groups[extra]
        else:
            groups.append(group)


def add_json_server(
    path: Path, data: dict[str, Any], server: tuple[str, ...], agent: str | None = None
) -> None:
    servers = data.setdefault("mcpServers", {})
    if not isinstance(servers, dict):
        raise InvalidSetting(f'{path}: "mcpServers" is not an object; fix it by hand first')
    existing = servers.get(SERVER_NAME)
    if existing is not None and not is_our_server(existing):
        raise InvalidSetting(
            f'{path} already has an MCP server named "{SERVER_NAME}" that is not mem mcp; '
            "rename it, then install"
        )
    entry: dict[str, Any] = {"command": server[0], "args": list(server[1:])}
    if agent:
        entry["env"] = {AGENT_VARIABLE: agent}
    servers[SERVER_NAME] = entry


def add_toml_server(
    path: Path, raw: bytes | None, server: tuple[str, ...], agent: str | None = None
) -> bytes:
    """Codex's config.toml with mem's `[mcp_servers.mem]` table: appended, or rewritten in
    place; every other byte as it was (Python has no TOML writer, and needs none for this)."""
    text = toml_text(path, raw)
    block = (
        f"[mcp_servers.{SERVER_NAME}]\n"
        f"command = {json.dumps(server[0])}\n"
        f"args = {json.dumps(list(server[1:]))}\n"
    )
    if agent:
        block += f"env = {{ {AGENT_VARIABLE} = {json.dumps(agent)} }}\n"
    if toml_server(path, text) is None:
        if not text:
            return block.encode("utf-8")
        gap = "\n" if text.endswith("\n") else "\n\n"
        return f"{text}{gap}{block}".encode()
    found = our_toml_block(path, text)
    return (text[: found.start()] + block + text[found.end() :]).encode("utf-8")


def toml_text(path: Path, raw: bytes | None) -> str:
    import tomllib

    try:
        text = (raw or b"").decode("utf-8")
        tomllib.loads(text)
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise InvalidSetting(f"{path} is not valid TOML ({exc}); fix it, then install") from exc
    return text


def toml_server(path: Path, text: str) -> Any:
    import tomllib

    servers = tomllib.loads(text).get("mcp_servers")
    return servers.get(SERVER_NAME) if isinstance(servers, dict) else None


def our_toml_block(path: Path, text: str) -> re.Match[str]:
    """mem's own `[mcp_servers.mem]` table, as text; an error when the name is someone
    else's or written in a form this cannot edit without touching other bytes."""
    if not is_our_server(toml_server(path, text)):
        raise InvalidSetting(
            f'{path} already has an MCP server named "{SERVER_NAME}" that is not mem mcp; '
            "rename it, then install"
        )
    found = TOML_TABLE.search(text)
    if found is None:
        raise InvalidSetting(
            f"{path} sets mcp_servers.{SERVER_NAME} outside a [mcp_servers.{SERVER_NAME}] "
            "table; take it out by hand"
        )
    return found


def is_our_server(entry: Any) -> bool:
    if not isinstance(entry, dict) or not isinstance(entry.get("command"), str):
        return False
    args = entry.get("args") or []
    words = [entry["command"], *(a for a in args if isinstance(a, str))]
    return bool(OUR_SERVER.search(" ".join(words)))


def plan_uninstall(agent: str, wired: Wiring, state: Path) -> list[Change]:
    """Take out what install added: each file as it was when nobody edited it since, else
    only mem's handlers and server (and what is left empty by their going)."""
    check_installable(agent)
    paths = dict.fromkeys(path for path in (wired.hooks_file, wired.mcp_file) if path is not None)
    return [uninstall_file(agent, path, state) for path in paths]


def uninstall_file(agent: str, path: Path, state: Path) -> Change:
    before = read_settings(path)
    if before is None:
        return Change(agent, path, None, None)
    saved = read_backup(state, path)
    if saved is not None and saved["after"] == digest(before):
        original = saved["before"]
        return Change(agent, path, before, None if original is None else original)
    if path.suffix == ".toml":
        return Change(agent, path, before, without_toml_server(path, before))
    data = parse(path, before)
    servers = data.get("mcpServers")
    if isinstance(servers, dict) and is_our_server(servers.get(SERVER_NAME)):
        del servers[SERVER_NAME]
        if not servers:
            del data["mcpServers"]
    hooks = data.get("hooks")
    if isinstance(hooks, dict):
        for event in list(hooks):
            groups = hooks[event]
            if isinstance(groups, list):
                kept = [each for each in groups if not is_ours(each)]
                if kept != groups:
                    if kept:
                        hooks[event] = kept
                    else:
                        del hooks[event]
        if not hooks:
            del data["hooks"]
    return Change(agent, path, before, render(data, before))


def without_toml_server(path: Path, raw: bytes) -> bytes | None:
    text = toml_text(path, raw)
    if toml_server(path, text) is None:
        return raw
    found = our_toml_block(path, text)
    start = found.start()
    if text[:start].endswith("\n\n"):
        start -= 1  # the blank line install put before the table
    rest = text[:start] + text[found.end() :]
    return rest.encode("utf-8") if rest.strip() else None


def apply(change: Change, state: Path, installing: bool) -> None:
    """Write the change, keeping the file as it was before an install for the uninstall."""
    if not change.changed:
        return
    if change.after is None:
        change.path.unlink(missing_ok=True)
        if change.path.parent.name.startswith("."):  # .claude/, .codex/: left empty, it goes
            with contextlib.suppress(OSError):
                change.path.parent.rmdir()
    else:
        store.replace_file(change.path, change.after)
    if installing:
        earlier = read_backup(state, change.path)
        # A re-install over an older install keeps the first "before": the user's own file.
        first = earlier["before"] if earlier is not None else change.before
        write_backup(state, change.path, first, change.after)
    else:
        backup_path(state, change.path).unlink(missing_ok=True)


def check_installable(agent: str) -> None:
    if agent not in INSTALLABLE:
        raise InvalidInput(f"unknown agent {agent!r}; choose one of {', '.join(INSTALLABLE)}")


def check_mem_agent(name: str | None) -> str | None:
    return check_agent(name) if name else None


def our_group(agent: str, hook: Hook, command: str) -> dict[str, Any]:
    handler: dict[str, Any] = {"type": "command", "command": command, "timeout": hook.timeout}
    if agent == "gemini":
        handler["name"] = "mem"
    group: dict[str, Any] = {}
    if hook.matcher is not None:
        group["matcher"] = hook.matcher
    group["hooks"] = [handler]
    return group


def is_ours(group: Any) -> bool:
    """A matcher group whose every handler runs `mem hook`."""
    if not isinstance(group, dict) or not isinstance(group.get("hooks"), list):
        return False
    handlers = group["hooks"]
    return bool(handlers) and all(
        isinstance(h, dict) and isinstance(h.get("command"), str) and OURS.search(h["command"])
        for h in handlers
    )


def read_settings(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise FileUnreadable(f"cannot read {path} ({exc.strerror})") from exc


def parse(path: Path, raw: bytes | None) -> dict[str, Any]:
    if raw is None or not raw.strip():
        return {}
    try:
        data = json.loads(raw.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise InvalidSetting(f"{path} is not valid JSON ({exc}); fix it, then install") from exc
    if not isinstance(data, dict):
        raise InvalidSetting(f"{path} does not hold a JSON object; fix it, then install")
    return data


def render(data: dict[str, Any], like: bytes | None) -> bytes | None:
    """The new file: the old text with only what changed spliced in (every other key keeps its
    bytes), or, for a new file, JSON in two-space indentation with a final newline."""
    from mem.services.json_splice import splice

    if like is None or not like.strip():
        return None if not data and like is None else (json.dumps(data, indent=2) + "\n").encode()
    text = like.decode("utf-8-sig")
    bom = "\ufeff" if like.startswith(b"\xef\xbb\xbf") else ""
    return (bom + splice(text, data)).encode("utf-8")


def digest(raw: bytes) -> str:
    return hashlib.sha256(raw).hexdigest()


def state_folder(environ: dict[str, str]) -> Path:
    base = environ.get("XDG_STATE_HOME") or str(Path(environ.get("HOME", "~")) / ".local/state")
    return Path(base).expanduser() / "mem" / "install"


def backup_path(state: Path, path: Path) -> Path:
    key = hashlib.sha1(str(path.resolve()).encode(), usedforsecurity=False).hexdigest()[:20]
    return state / f"{key}.json"


def read_backup(state: Path, path: Path) -> dict[str, Any] | None:
    try:
        data = json.loads(backup_path(state, path).read_text(encoding="utf-8"))
        before = data["before"]
        return {
            "before": None if before is None else base64.b64decode(before),
            "after": str(data["after"]),
        }
    except (OSError, ValueError, KeyError, TypeError):
        return None


def write_backup(state: Path, path: Path, before: bytes | None, after: bytes | None) -> None:
    payload = {
        "path": str(path.resolve()),
        "before": None if before is None else base64.b64encode(before).decode("ascii"),
        "after": digest(after or b""),
    }
    store.replace_file(backup_path(state, path), json.dumps(payload).encode("utf-8"))
