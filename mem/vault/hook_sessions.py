"""What `mem hook` remembers of an agent's session between its events, in `.mem/state/hooks/`:
the entries its start already showed, and whether its first prompt was answered."""

import json
import os
import time
from pathlib import Path
from typing import NamedTuple

from mem.digests import sha1
from mem.vault import store
from mem.vault.layout import STATE_DIR, inside

HOOKS_FOLDER = f"{STATE_DIR}/state/hooks"
KEEP_SECONDS = 7 * 24 * 3600  # a session quiet this long is over; its state goes


class HookSession(NamedTuple):
    shown: frozenset[str] = frozenset()  # entry ids the session start put in context
    prompted: bool = False  # the first prompt had its memory


def session_path(agent: str, session_id: str) -> str:
    # The agent's id may hold anything: the file is named by its digest.
    digest = sha1(session_id.encode("utf-8", "replace"), usedforsecurity=False)
    return f"{HOOKS_FOLDER}/{agent}.{digest.hexdigest()[:20]}.json"


def read(vault: Path, agent: str, session_id: str) -> HookSession:
    raw = store.read_text(vault, session_path(agent, session_id))
    try:
        data = json.loads(raw) if raw else {}
        shown = data.get("shown", [])
        if not isinstance(shown, list):
            shown = []
        return HookSession(frozenset(map(str, shown)), bool(data.get("prompted")))
    except (ValueError, AttributeError):
        return HookSession()  # damaged: as if new; the next write replaces it


def write(vault: Path, agent: str, session_id: str, session: HookSession) -> None:
    with store.locked(vault, HOOKS_FOLDER):  # one lock for all: no lock file per session
        save(vault, agent, session_id, session)


def save(vault: Path, agent: str, session_id: str, session: HookSession) -> None:
    """Write a session's state; the caller holds the hooks lock."""
    payload = {"shown": sorted(session.shown), "prompted": session.prompted}
    store.write_atomic(vault, session_path(agent, session_id), json.dumps(payload) + "\n")


def claim_first_prompt(vault: Path, agent: str, session_id: str) -> HookSession | None:
    """Mark the session's first prompt as answered and return its state; None when it was
    answered before (two prompts racing get one answer)."""
    with store.locked(vault, HOOKS_FOLDER):
        session = read(vault, agent, session_id)
        if session.prompted:
            return None
        save(vault, agent, session_id, session._replace(prompted=True))
    return session


def forget_old(vault: Path, now: float | None = None) -> int:
    """Remove the state of sessions quiet for a week; return how many went."""
    folder = inside(vault, HOOKS_FOLDER)
    cutoff = (time.time() if now is None else now) - KEEP_SECONDS
    removed = 0
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return 0
    for item in entries:
        try:
            if item.name.endswith(".json") and item.stat().st_mtime < cutoff:
                os.unlink(item.path)
                removed += 1
        except OSError:
            continue  # another process removed it first
    return removed
