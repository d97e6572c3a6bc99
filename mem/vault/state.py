"""Machine-local session state in `.mem/state/`: one checkpoint per agent, written atomically."""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime
from pathlib import Path

from mem.errors import FileUnwritable
from mem.model import Checkpoint
from mem.vault import store
from mem.vault.layout import STATE_DIR, inside

STATE_FOLDER = f"{STATE_DIR}/state"
FIELDS = ("task", "what", "next", "command", "output_tail", "owner")


def checkpoint_path(agent: str) -> str:
    return f"{STATE_FOLDER}/{agent}/checkpoint.json"


def read_checkpoint(vault: Path, agent: str) -> Checkpoint | None:
    """Return the agent's checkpoint, or None when there is none or it is unreadable."""
    raw = store.read_text(vault, checkpoint_path(agent))
    if not raw:
        return None
    try:
        data = json.loads(raw)
        saved = datetime.fromisoformat(data["saved"])
        checkpoint = Checkpoint(
            agent=agent,
            saved=saved.astimezone(UTC) if saved.tzinfo else saved.replace(tzinfo=UTC),
            status=str(data.get("status") or "active"),
            **{name: str(data.get(name) or "") for name in FIELDS},
        )
    except (ValueError, KeyError, TypeError, AttributeError, RecursionError):
        return None  # a damaged checkpoint is as good as none; the next save replaces it
    if checkpoint.status == "active" and checkpoint.owner and not is_alive(checkpoint.owner):
        # The `mem run` that kept it current was killed (SIGKILL leaves no last word).
        return checkpoint._replace(status="interrupted")
    return checkpoint


def owner_of_this_process() -> str:
    return f"{os.uname().nodename}:{os.getpid()}"


def is_alive(owner: str) -> bool:
    """Whether the process named "host:pid" still runs; a process on another host may."""
    host, _, pid = owner.rpartition(":")
    if host != os.uname().nodename or not pid.isdigit():
        return True
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True  # someone else's process has that pid
    return True


def write_checkpoint(vault: Path, checkpoint: Checkpoint) -> None:
    payload = {
        "schema_version": 1,
        "agent": checkpoint.agent,
        "saved": checkpoint.saved.astimezone(UTC).isoformat(),
        "status": checkpoint.status,
        **{name: getattr(checkpoint, name) for name in FIELDS},
    }
    relative = checkpoint_path(checkpoint.agent)
    with store.locked(vault, relative):
        store.write_atomic(
            vault, relative, json.dumps(payload, ensure_ascii=False, indent=1) + "\n"
        )


def clear_checkpoint(vault: Path, agent: str) -> bool:
    """Remove the agent's checkpoint; tell whether there was one."""
    relative = checkpoint_path(agent)
    with store.locked(vault, relative):
        try:
            inside(vault, relative).unlink()
        except FileNotFoundError:
            return False
        except OSError as exc:
            raise FileUnwritable(f"cannot remove {relative} ({exc.strerror})") from exc
    return True
