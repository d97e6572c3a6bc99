"""`mem hook AGENT`: read a hook's JSON on stdin, answer in the agent's own format, never fail.

An agent runs this at every session start, prompt, tool call and turn end, so it skips Typer
(see mem/cli/main.py) and it is fail-open: whatever goes wrong is logged in
`.mem/hook-errors.log` (or on stderr without a vault), and the hook still exits 0 with output
the agent accepts (nothing for Claude Code and Codex, `{}` for Gemini, whose stdout must be
JSON), so `mem` never breaks or blocks a session.

SessionEnd gets little time (1.5 s for all of Claude Code's SessionEnd hooks, none at all from
Gemini), so its commit runs in a detached copy of this command, which outlives the agent.
"""

from __future__ import annotations

import json
import os
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

INLINE = "MEM_HOOK_INLINE"  # set in the detached copy: do the work here, do not detach again
ERROR_LOG = ".mem/hook-errors.log"
ERROR_LOG_BYTES = 256 * 1024  # beyond this the log starts again (the old one kept as .1)
JSON_ONLY = ("gemini",)  # agents that read stdout as JSON and nothing else


def run_hook(
    kind: str,
    agent: str | None,
    vault: str | None,
    stdin: IO[bytes],
    stdout: IO[str],
) -> int:
    """Answer one hook call; always 0."""
    from mem.services.hook import AGENT_KINDS, HookAnswer, answer, read_event

    # The vault, once known: failures are logged in it. Found from here first, so that input
    # too broken to name the session's folder is logged as well.
    where = locate_quietly(vault, Path.cwd())
    reply = HookAnswer("")
    try:
        if kind not in AGENT_KINDS:
            raise ValueError(f"unknown agent {kind!r}; use one of {', '.join(AGENT_KINDS)}")
        payload = json.loads(stdin.read() or b"{}")
        if not isinstance(payload, dict):
            raise TypeError("the hook input is not a JSON object")
        event = read_event(kind, payload)
        if not event.action:
            reply = HookAnswer(event.name)
        else:
            folder = Path(event.cwd) if event.cwd and Path(event.cwd).is_dir() else Path.cwd()
            where = locate(vault, folder)
            if where is None:
                # A project without a vault (hooks installed for the user reach every
                # project): nothing to remember or recall, and nothing wrong.
                write_reply(kind, event.name, "", stdout)
                return 0
            settings = load(agent, where, folder)
            if event.action == "end" and not os.environ.get(INLINE):
                detach(kind, settings, payload)
                reply = HookAnswer(event.name)
            else:
                reply = answer(settings, event)
                if reply.note:
                    log_note(where, kind, reply.note)
    except Exception as exc:  # noqa: BLE001  # fail-open: the session matters more than memory
        log_failure(where, kind, exc)
    write_reply(kind, reply.event, reply.context, stdout)
    return 0


def locate_quietly(vault: str | None, folder: Path) -> Path | None:
    """`locate`, or None where even that fails (a MEM_VAULT that is no vault)."""
    try:
        return locate(vault, folder)
    except Exception:  # noqa: BLE001  # the hook goes on; the real failure is logged later
        return None


def locate(vault: str | None, folder: Path) -> Path | None:
    """The vault as settings would find it, from the session's folder (hooks may run
    elsewhere): --vault, MEM_VAULT, the nearest .memory/; without reading its mem.toml, which
    may be what fails."""
    from mem.config import find_vault, vault_at

    wanted = vault or os.environ.get("MEM_VAULT")
    return vault_at(folder / wanted) if wanted else find_vault(folder)


def load(agent: str | None, vault: Path, folder: Path) -> Any:
    """Settings for the vault `locate` found (the agent: --agent, MEM_AGENT, the vault's
    default agent)."""
    from mem.config import load_settings

    return load_settings(vault_flag=str(vault), agent_flag=agent, cwd=folder)


def detach(kind: str, settings: Any, payload: dict[str, Any]) -> None:
    """Run this hook again in a new session of its own, with the same input, and return."""
    import subprocess  # only here: ~10 ms that no other event needs

    args = [sys.executable, "-m", "mem", "--vault", str(settings.vault)]
    args += ["--agent", settings.agent, "hook", kind]
    child = subprocess.Popen(
        args,
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, INLINE: "1"},
        start_new_session=True,  # not killed with the agent's hook process group
    )
    assert child.stdin is not None
    child.stdin.write(json.dumps(payload).encode("utf-8"))
    child.stdin.close()


def write_reply(kind: str, event: str, context: str, stdout: IO[str]) -> None:
    if context and event:
        payload = {"hookSpecificOutput": {"hookEventName": event, "additionalContext": context}}
        stdout.write(json.dumps(payload, ensure_ascii=False) + "\n")
    elif kind in JSON_ONLY:
        stdout.write("{}\n")
    stdout.flush()


def log_failure(vault: Path | None, kind: str, exc: BaseException) -> None:
    """One record per failure in the vault's hook log, else on stderr, which Claude Code and
    Codex keep in their debug logs; Gemini shows a quiet hook's stderr to the user, so it
    gets nothing."""
    import traceback

    trace = "".join(traceback.format_exception(exc, limit=-4)).rstrip()
    said = f"{type(exc).__name__}: {exc}"
    if not write_log(vault, f"mem hook {kind}: {said}\n{trace}") and kind not in JSON_ONLY:
        sys.stderr.write(f"mem: hook failed: {said}\n")


def log_note(vault: Path | None, kind: str, note: str) -> None:
    """A hook that did nothing, and why, in the vault's hook log (one line, no trace)."""
    write_log(vault, f"mem hook {kind}: {note}")


def write_log(vault: Path | None, text: str) -> bool:
    """Append a dated record to the vault's hook log; False when there is no log to write."""
    if vault is None:
        return False
    when = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    try:
        path = vault / ERROR_LOG
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.exists() and path.stat().st_size > ERROR_LOG_BYTES:
            os.replace(path, path.with_name(path.name + ".1"))
        with path.open("a", encoding="utf-8") as log:
            log.write(f"{when} {text}\n\n")
        return True
    except OSError:
        return False  # a read-only vault: stderr instead
