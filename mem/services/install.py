"""`mem install` and `mem uninstall`: the hooks that call `mem hook`, merged into an agent's
own settings file, and taken out again.

Only the agent's settings file is written: Claude Code's `.claude/settings.json`, Codex's
`.codex/hooks.json`, Gemini CLI's `.gemini/settings.json` (with `--user`, the ones in the home
folder). Every other key stays as it was; a second install changes nothing. The file as it was
before is kept (in `~/.local/state/mem/install/`), so an uninstall of an install nobody edited
since gives the file back byte for byte, and otherwise takes out only the handlers `mem` added.
"""

from __future__ import annotations

import base64
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
from mem.vault import store

INSTALLABLE = ("claude-code", "codex", "gemini")
OURS = re.compile(r"(?:^|[\s/\"'])mem(?:\"|')?\s.*\bhook (?:claude-code|codex|gemini)\b")


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
        Hook("SessionStart", "startup|resume|clear", 15000),
        Hook("BeforeAgent", None, 10000),
        # Gemini reads additionalContext after a tool, not before it.
        Hook("AfterTool", "write_file|replace|run_shell_command", 5000),
    ),
}
SETTINGS_FILES = {  # (project file, user file); the user file under the agent's home folder
    "claude-code": (".claude/settings.json", "~/.claude/settings.json"),
    "codex": (".codex/hooks.json", "$CODEX_HOME/hooks.json"),
    "gemini": (".gemini/settings.json", "~/.gemini/settings.json"),
}
NEXT_STEPS = {
    "claude-code": "start claude in the project; /hooks lists what was added",
    "codex": "open codex and review the new hooks with /hooks: Codex runs a hook only once "
    "you trust it",
    "gemini": "start gemini in a trusted folder (Gemini runs no hooks in an untrusted one)",
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


def settings_path(agent: str, user: bool, project: Path, environ: dict[str, str]) -> Path:
    project_file, user_file = SETTINGS_FILES[agent]
    if not user:
        return project / project_file
    if user_file.startswith("$CODEX_HOME/"):
        home = environ.get("CODEX_HOME") or str(Path(environ.get("HOME", "~")) / ".codex")
        return Path(home).expanduser() / user_file.removeprefix("$CODEX_HOME/")
    return Path(environ.get("HOME", "~")).expanduser() / user_file.removeprefix("~/")


def hook_command(agent: str, mem_agent: str | None) -> str:
    """The command the agent runs: `mem` when it is on PATH, else this Python running mem."""
    found = shutil.which("mem")
    base = "mem" if found else f"{shlex.quote(sys.executable)} -m mem"
    named = f" --agent {shlex.quote(mem_agent)}" if mem_agent else ""
    return f"{base} hook {agent}{named}"


def plan_install(agent: str, path: Path, command: str) -> Change:
    check_installable(agent)
    before = read_settings(path)
    data = parse(path, before)
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
    return Change(agent, path, before, render(data, before))


def plan_uninstall(agent: str, path: Path, state: Path) -> Change:
    """Take out what install added: the file as it was when nobody edited it since, else
    only mem's handlers (and what is left empty by their going)."""
    check_installable(agent)
    before = read_settings(path)
    if before is None:
        return Change(agent, path, None, None)
    saved = read_backup(state, path)
    if saved is not None and saved["after"] == digest(before):
        original = saved["before"]
        return Change(agent, path, before, None if original is None else original)
    data = parse(path, before)
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


def apply(change: Change, state: Path, installing: bool) -> None:
    """Write the change, keeping the file as it was before an install for the uninstall."""
    if not change.changed:
        return
    if change.after is None:
        change.path.unlink(missing_ok=True)
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
    """JSON in the file's own indentation, key order kept, with a final newline as before."""
    if not data and like is None:
        return None
    text = (like or b"").decode("utf-8", "replace")
    match = re.search(r"^([ \t]+)\S", text, re.MULTILINE)
    indent: int | str = 2 if match is None else match.group(1)
    if isinstance(indent, str) and set(indent) == {" "}:
        indent = len(indent)
    rendered = json.dumps(data, indent=indent, ensure_ascii=False)
    if like is None or like.endswith(b"\n"):
        rendered += "\n"
    return rendered.encode("utf-8")


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
