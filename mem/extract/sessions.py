"""Where each agent keeps its transcripts, and which of them are one project's.

- Claude Code: `~/.claude/projects/<project>/<session>.jsonl` (or under `$CLAUDE_CONFIG_DIR`),
  `<project>` being the folder the session ran in with every character but letters and digits
  made `-`; a session's subagents under `<session>/subagents/`.
- Codex: `$CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl` (and `archived_sessions/`), each
  naming the folder it ran in on its first line (`session_meta`).
- Gemini CLI: `~/.gemini/tmp/<project>/chats/session-*.jsonl` (`~` may be `$GEMINI_CLI_HOME`),
  the folder naming its project in a `.project_root` file (older folders are named by the
  sha256 of the project's path); a session's subagents in `chats/<session>/`.
- Aider: `.aider.chat.history.md` in the project, one file that grows session after session.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import NamedTuple

SOURCES = ("claude-code", "codex", "gemini", "aider")
FORMATS = {
    "claude-code": "claude-jsonl",
    "codex": "codex-jsonl",
    "gemini": "gemini-jsonl",
    "aider": "aider",
}
SLUG_CHARS = re.compile(r"[^A-Za-z0-9]")
SLUG_MAX = 200  # Claude Code cuts longer folder names and adds a hash
FIRST_LINE_BYTES = 64 * 1024  # a session_meta line carries instructions; enough to find cwd


AIDER_START = re.compile(r"# aider chat started at (\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)")


class Transcript(NamedTuple):
    source: str  # claude-code | codex | aider
    path: Path
    moment: datetime  # when it was last written (or started): its entries are dated then
    subagent: bool = False
    # The lines of the file that are this session, [first, stop) (stop None: to the end),
    # where one file holds many sessions (Aider's history); None: the whole file.
    lines: tuple[int, int | None] | None = None

    @property
    def format(self) -> str:
        return FORMATS[self.source]


def transcripts(
    project: Path,
    sources: tuple[str, ...],
    environ: Mapping[str, str],
    since: datetime | None = None,
) -> list[Transcript]:
    """This project's transcripts from the given agents, oldest first, those last written
    before `since` left out."""
    project = project.resolve()
    found: list[Transcript] = []
    for source in sources:
        if source == "claude-code":
            found += claude_code(project, environ)
        elif source == "codex":
            found += codex(project, environ, since)
        elif source == "gemini":
            found += gemini(project, environ)
        elif source == "aider":
            found += aider(project)
    kept = [t for t in found if since is None or t.moment >= since]
    return sorted(kept, key=lambda t: (t.moment, str(t.path)))


def claude_code(project: Path, environ: Mapping[str, str]) -> Iterator[Transcript]:
    slug = SLUG_CHARS.sub("-", str(project))
    for root in claude_roots(environ):
        folders = (
            [root / slug] if len(slug) <= SLUG_MAX else sorted(root.glob(f"{slug[:SLUG_MAX]}*"))
        )
        for folder in folders:
            for path in sorted(folder.glob("*.jsonl")):
                yield transcript("claude-code", path)
            for path in sorted(folder.glob("*/subagents/*.jsonl")):
                yield transcript("claude-code", path, subagent=True)


def claude_roots(environ: Mapping[str, str]) -> list[Path]:
    home = Path(environ.get("HOME") or "~").expanduser()
    roots = [home / ".claude" / "projects", home / ".config" / "claude" / "projects"]
    if environ.get("CLAUDE_CONFIG_DIR"):
        roots.insert(0, Path(environ["CLAUDE_CONFIG_DIR"]).expanduser() / "projects")
    return [root for root in dict.fromkeys(roots) if root.is_dir()]


def codex(
    project: Path, environ: Mapping[str, str], since: datetime | None
) -> Iterator[Transcript]:
    base = codex_home(environ)
    for folder in (base / "sessions", base / "archived_sessions"):
        if not folder.is_dir():
            continue
        for path in sorted(folder.rglob("rollout-*.jsonl")):
            found = transcript("codex", path)
            if since is not None and found.moment < since:
                continue  # not opened at all: a year of rollouts is read in no time
            ran_in = codex_cwd(path)
            if ran_in is not None and is_within(ran_in, project):
                yield found


def codex_home(environ: Mapping[str, str]) -> Path:
    """Where Codex keeps its config, hooks and sessions: `$CODEX_HOME`, else `~/.codex`."""
    home = environ.get("CODEX_HOME") or str(Path(environ.get("HOME") or "~") / ".codex")
    return Path(home).expanduser()


def codex_cwd(path: Path) -> Path | None:
    """The folder a rollout's session ran in, from its first line."""
    try:
        with path.open("rb") as stream:
            first = stream.readline(FIRST_LINE_BYTES)
        line = json.loads(first)
        cwd = line["payload"]["cwd"] if line.get("type") == "session_meta" else None
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
    return Path(cwd) if isinstance(cwd, str) and cwd else None


def gemini(project: Path, environ: Mapping[str, str]) -> Iterator[Transcript]:
    import hashlib

    home = environ.get("GEMINI_CLI_HOME") or environ.get("HOME") or "~"
    base = Path(home).expanduser() / ".gemini" / "tmp"
    legacy = hashlib.sha256(str(project).encode()).hexdigest()
    try:
        folders = sorted(item for item in base.iterdir() if item.is_dir())
    except OSError:
        return
    for folder in folders:
        if folder.name != legacy:
            try:
                root = Path((folder / ".project_root").read_text(encoding="utf-8").strip())
            except (OSError, UnicodeDecodeError):
                continue
            if not root.is_absolute() or not is_within(root, project):
                continue
        chats = folder / "chats"
        for path in sorted(chats.glob("session-*.jsonl")):
            yield transcript("gemini", path)
        for path in sorted(chats.glob("*/*.jsonl")):
            yield transcript("gemini", path, subagent=True)


def aider(project: Path) -> Iterator[Transcript]:
    """Each session of the project's Aider history, dated by its "# aider chat started at"
    line (the local time Aider wrote); a history without one is one session."""
    path = project / ".aider.chat.history.md"
    if not path.is_file():
        return
    starts: list[tuple[int, datetime]] = []
    try:
        with path.open(encoding="utf-8", errors="replace") as history:
            for number, line in enumerate(history):
                found = AIDER_START.match(line)
                if found:
                    try:
                        started = datetime.strptime(found.group(1), "%Y-%m-%d %H:%M:%S")
                    except ValueError:
                        continue
                    starts.append((number, started.astimezone(UTC)))
    except OSError:
        return
    if not starts:
        yield transcript("aider", path)
        return
    stops: list[int | None] = [number for number, _ in starts[1:]]
    stops.append(None)
    for index, ((first, started), stop) in enumerate(zip(starts, stops, strict=True)):
        # Lines before the first start line belong to the first session.
        yield Transcript("aider", path, started, lines=(0 if index == 0 else first, stop))


def transcript(source: str, path: Path, subagent: bool = False) -> Transcript:
    try:
        seconds = os.stat(path).st_mtime
    except OSError:
        seconds = 0.0
    return Transcript(source, path, datetime.fromtimestamp(seconds, UTC), subagent)


def is_within(folder: Path, project: Path) -> bool:
    try:
        resolved = folder.expanduser().resolve()
    except OSError:
        return False
    return resolved == project or project in resolved.parents
