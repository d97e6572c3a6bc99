"""Readers for multi-agent team apps whose memory is kept per agent: AITEAM-X's `.memory/`
vault and bit-office's JSON stores. They yield importers.Record and importers.Problem like the others;
the folder an entry came from names its agent."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

from mem.config import is_valid_agent
from mem.services.importers import (
    HASHTAG,
    Problem,
    Record,
    as_list,
    digest,
    kind_and_category,
    modified_at,
    moment_of,
)

# AITEAM-X (@inosx/agent-memory, src/vault.ts) writes each entry as
#   <!-- id:1711234567890 -->
#   ## 2026-03-23T14:32 · #postgresql #database
#
#   The text.
#
#   ---
# newest first, the id a millisecond timestamp and the heading's time UTC to the minute.
AITEAMX_ID = re.compile(r"<!--\s*id:(\d+)\s*-->")
AITEAMX_HEADING = re.compile(r"^## ([\dT:\-]+)(?: · (.*))?$", re.MULTILINE)
AITEAMX_SEPARATOR = re.compile(r"\n---[ \t]*(?:\n|$)")
AITEAMX_NOT_AGENTS = ("conversations",)  # chat histories and checkpoints are not memory
AITEAMX_PROJECT = "_project.md"


def read_aiteamx(path: Path, fallback: datetime) -> Iterator[Record | Problem]:
    """An AITEAM-X memory folder (`.memory/`, or the project holding it): each agent's
    `<agent>/<category>.md` entries into that agent's category (decisions, lessons, tasks,
    projects, handoffs; a custom category by its name, else facts), with their ids, times and
    tags; `_project.md`, which AITEAM-X shows every agent, as one shared project entry.
    Conversations and checkpoints are chat history, not memory, and are left out."""
    root = aiteamx_root(path)
    agents = sorted(
        folder
        for folder in root.iterdir()
        if folder.is_dir()
        and not folder.name.startswith(".")
        and folder.name not in AITEAMX_NOT_AGENTS
    )
    files = [file for folder in agents for file in sorted(folder.glob("*.md")) if file.is_file()]
    project = root / AITEAMX_PROJECT
    if not files and not project.is_file():
        yield Problem(
            0, f"no AITEAM-X vault (<agent>/<category>.md or {AITEAMX_PROJECT}) in {root}"
        )
        return
    if project.is_file():
        text = project.read_text(encoding="utf-8", errors="replace").strip()
        if text:
            moment = modified_at(project)
            yield Record(
                None, "projects", "project", moment, text, f"aiteamx:{digest(text)}", scope="shared"
            )
    for file in files:
        if not is_valid_agent(agent_name(file.parent.name)):
            yield Problem(
                0,
                f"{file.parent.name}/{file.name}: no agent name can be made of "
                f"{file.parent.name!r}; rename the folder",
            )
            continue
        yield from aiteamx_entries(file, fallback)


def aiteamx_root(path: Path) -> Path:
    """The AITEAM-X vault given its folder or the project holding it."""
    return path / ".memory" if (path / ".memory").is_dir() else path


def aiteamx_entries(file: Path, fallback: datetime) -> Iterator[Record | Problem]:
    agent, category_name = agent_name(file.parent.name), file.stem
    kind, category = kind_and_category(category_name)
    text = file.read_text(encoding="utf-8", errors="replace")
    where = f"{file.parent.name}/{file.name}"
    # An entry's text may hold a `---` line of its own: a block without a heading after an entry
    # is the rest of that entry (AITEAM-X's own reader would lose it).
    blocks: list[tuple[int, str]] = []
    start = 0
    for separator in [*AITEAMX_SEPARATOR.finditer(text), None]:
        end = separator.start() if separator else len(text)
        block = text[start:end]
        line = text.count("\n", 0, start) + 1 + len(block) - len(block.lstrip("\n"))
        if block.strip():
            if AITEAMX_HEADING.search(block) or not blocks:
                blocks.append((line, block))
            else:
                previous_line, previous = blocks[-1]
                blocks[-1] = (previous_line, f"{previous}\n---\n{block}")
        start = separator.end() if separator else len(text)
    for line, block in blocks:
        heading = AITEAMX_HEADING.search(block)
        if heading is None:
            yield Problem(line, f"{where}: text without a '## <date>' heading")
            continue
        found_id = AITEAMX_ID.search(block[: heading.start()])
        body = block[heading.end() :].strip()
        if not body:
            yield Problem(line, f"{where}: an entry with no text")
            continue
        tags = tuple(dict.fromkeys(tag.lower() for tag in HASHTAG.findall(heading.group(2) or "")))
        source_id = found_id.group(1) if found_id else digest(heading.group(0), body)
        yield Record(
            agent,
            category,
            kind,
            moment_of(heading.group(1), fallback),
            body,
            f"aiteamx:{file.parent.name}/{category_name}:{source_id}",
            tags,
        )


# bit-office (@bit-office/memory, packages/memory/src/types.ts) keeps, in
# ~/.open-office/data/instances/<gateway>/memory/ (earlier ~/.bit-office/[instances/<gateway>/]memory/):
#   sessions/<agentId>.json    {latest, history: [{timestamp, what, decisions, filesChanged,
#                               unfinished, commits, tokens: {input, output}}]}, newest first
#   agents/<agentId>.json      {agentId, facts: [{id, category, fact, reinforceCount, createdAt,
#                               lastSeen}]}
#   shared.json                {items: [{id, fact, source, confirmedBy, createdAt}]}
#   work-state/<agentId>.json  the task under way {status, taskPrompt, summary, nextSteps,
#                               unfinished, startedAt, ...}, or null once it ended well
#   memory.json                the older store {reviewPatterns, techPreferences, projectHistory}
# and the agents' names in team-state.json beside the memory folder. Times are ISO strings,
# except memory.json's epoch milliseconds.
BIT_OFFICE_PARTS = ("sessions", "agents", "shared.json", "work-state", "memory.json")
BIT_OFFICE_UNDER = ("memory", "data/instances/*/memory", "instances/*/memory")
WORK_LEFT_UNDONE = ("running", "interrupted", "failed")  # cancelled: the person stopped it


def bit_office_roots(path: Path) -> list[Path]:
    """The memory folders under PATH: the folder itself, an instance, or a whole home."""
    if any((path / part).exists() for part in BIT_OFFICE_PARTS):
        return [path]
    found = [root for pattern in BIT_OFFICE_UNDER for root in sorted(path.glob(pattern))]
    return [root for root in found if any((root / part).exists() for part in BIT_OFFICE_PARTS)]


def read_bit_office(path: Path, fallback: datetime) -> Iterator[Record | Problem]:
    """bit-office's memory: each session summary a handoff of its agent (its decisions also
    decision entries), each agent fact a lesson, preference, pattern or convention (reinforced
    as often as bit-office saw it), shared knowledge a shared fact, a task left running or
    failed an open task, and the older memory.json's review patterns, tech preferences and
    finished projects. Agents are named as team-state.json names them."""
    roots = bit_office_roots(path)
    if not roots:
        yield Problem(0, f"no bit-office memory ({', '.join(BIT_OFFICE_PARTS)}) in {path}")
        return
    for root in roots:
        names = agent_names(root.parent / "team-state.json")
        shared_ids: set[str] = set()
        shared = load_json(root / "shared.json")
        if isinstance(shared, Problem):
            yield shared
        elif shared is not None and not isinstance(shared, dict):
            yield Problem(0, "memory/shared.json: not a knowledge store ({items: [...]})")
        elif isinstance(shared, dict):
            for number, item in enumerate(as_list(shared.get("items")), start=1):
                found = shared_fact(item, number, names, fallback)
                if isinstance(found, Record):
                    shared_ids.add(found.src_id)
                yield found
        for file in json_files(root / "agents"):
            yield from agent_facts(file, names, shared_ids, fallback)
        for file in json_files(root / "sessions"):
            yield from sessions(file, names, fallback)
        for file in json_files(root / "work-state"):
            yield from work_state(file, names, fallback)
        yield from legacy_memory(root / "memory.json", fallback)


def json_files(folder: Path) -> list[Path]:
    # `<file>.<pid>.<ms>.tmp` is a write bit-office did not finish: not its memory
    return sorted(folder.glob("*.json")) if folder.is_dir() else []


def load_json(file: Path) -> Any:
    """A file's JSON; None when it is absent, a Problem naming it when it is not JSON."""
    if not file.is_file():
        return None
    try:
        return json.loads(file.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        return Problem(0, f"{file.parent.name}/{file.name}: not JSON ({exc})")


def agent_names(team_state: Path) -> dict[str, str]:
    """agentId -> the agent's name (`agent-2sZAz3` -> `rex`), from team-state.json."""
    data = load_json(team_state)
    names = {}
    for agent in as_list(data.get("agents")) if isinstance(data, dict) else []:
        if isinstance(agent, dict) and agent.get("agentId") and agent.get("name"):
            names[str(agent["agentId"])] = str(agent["name"])
    return names


def agent_of(agent_id: str, names: dict[str, str]) -> str:
    """An agent's name (`agent-2sZAz3` -> `rex`, from team-state.json), as mem spells agents;
    its id when the name makes none."""
    named = agent_name(names.get(agent_id, ""))
    return named if is_valid_agent(named) else agent_name(agent_id)


def agent_name(name: str) -> str:
    """A name as mem spells agents: lower case, other characters runs of '-' (`Dev Team` ->
    `dev-team`). It may still be no valid agent (`archive`, `_x`): callers check."""
    return re.sub(r"[^a-z0-9_-]+", "-", name.lower()).strip("-")


def texts(value: Any) -> list[str]:
    """The strings (and numbers) of a JSON list; nulls and objects are no text."""
    items = (item for item in as_list(value) if isinstance(item, (str, int, float)))
    return [str(item).strip() for item in items if str(item).strip()]


def count(value: Any) -> int:
    """A JSON count, 0 when it is none (a string, a float, null)."""
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def shared_fact(
    item: Any, number: int, names: dict[str, str], fallback: datetime
) -> Record | Problem:
    if not isinstance(item, dict) or not str(item.get("fact") or "").strip():
        return Problem(0, f"shared.json: item {number} has no fact")
    by = [agent_of(str(agent), names) for agent in as_list(item.get("confirmedBy"))]
    return Record(
        agent_of(str(item.get("source") or ""), names) or None,
        "facts",
        "fact",
        moment_of(item.get("createdAt"), fallback),
        str(item["fact"]).strip(),
        f"bit-office:fact:{item.get('id') or digest(str(item['fact']))}",
        header=(("by", ",".join(dict.fromkeys(by))),) if by else (),
        scope="shared",
    )


def agent_facts(
    file: Path, names: dict[str, str], shared_ids: set[str], fallback: datetime
) -> Iterator[Record | Problem]:
    from mem.services.commit import seen_stamp

    data = load_json(file)
    if isinstance(data, Problem) or not isinstance(data, dict):
        yield data if isinstance(data, Problem) else Problem(0, f"agents/{file.name}: no facts")
        return
    agent = agent_of(str(data.get("agentId") or file.stem), names)
    for number, fact in enumerate(as_list(data.get("facts")), start=1):
        if not isinstance(fact, dict) or not str(fact.get("fact") or "").strip():
            yield Problem(0, f"agents/{file.name}: fact {number} has no text")
            continue
        src_id = f"bit-office:fact:{fact.get('id') or digest(str(fact['fact']))}"
        if src_id in shared_ids:  # promoted to shared.json: imported there
            continue
        kind, category = kind_and_category(fact.get("category"))
        header: tuple[tuple[str, str], ...] = ()
        seen_again = count(fact.get("reinforceCount")) - 1
        if seen_again > 0:
            header = (("reinforced", str(seen_again)),)
            if fact.get("lastSeen"):
                seen = moment_of(fact["lastSeen"], fallback)
                header += (("seen", seen_stamp(seen)),)
        yield Record(
            agent,
            category,
            kind,
            moment_of(fact.get("createdAt"), fallback),
            str(fact["fact"]).strip(),
            src_id,
            header=header,
        )


def sessions(file: Path, names: dict[str, str], fallback: datetime) -> Iterator[Record | Problem]:
    from mem.extract.summary import render_handoff

    data = load_json(file)
    if isinstance(data, Problem) or not isinstance(data, dict):
        yield data if isinstance(data, Problem) else Problem(0, f"sessions/{file.name}: no history")
        return
    agent = agent_of(file.stem, names)
    # `latest` is history[0] again
    summaries = [data.get("latest"), *as_list(data.get("history"))]
    done: set[str] = set()
    for number, summary in enumerate(summaries):
        if summary is None and number == 0:
            continue
        if not isinstance(summary, dict) or not str(summary.get("what") or "").strip():
            yield Problem(0, f"sessions/{file.name}: session {number} has no summary")
            continue
        key = f"{file.stem}|{summary.get('timestamp')}|{summary['what']}"
        if key in done:
            continue
        done.add(key)
        moment = moment_of(summary.get("timestamp"), fallback)
        decisions = texts(summary.get("decisions"))
        tokens = summary["tokens"] if isinstance(summary.get("tokens"), dict) else {}
        body = render_handoff(
            str(summary["what"]).strip(),
            decisions=decisions,
            files=texts(summary.get("filesChanged")),
            commits=texts(summary.get("commits")),
            unfinished=texts(summary.get("unfinished")),
            tokens=(count(tokens.get("input")), count(tokens.get("output"))),
        )
        yield Record(
            agent, "handoffs", "handoff", moment, body, f"bit-office:session:{digest(key)}"
        )
        for decision in decisions:
            src_id = f"bit-office:decision:{digest(file.stem, decision)}"
            yield Record(agent, "decisions", "decision", moment, decision, src_id)


def work_state(file: Path, names: dict[str, str], fallback: datetime) -> Iterator[Record | Problem]:
    data = load_json(file)
    if data is None or isinstance(data, Problem):  # null: the task ended well
        if data is not None:
            yield data
        return
    if not isinstance(data, dict):
        yield Problem(0, f"work-state/{file.name}: not a work state")
        return
    if data.get("status") not in WORK_LEFT_UNDONE:
        return
    task = str(data.get("taskPrompt") or data.get("summary") or "").strip()
    if not task:
        yield Problem(0, f"work-state/{file.name}: a task with no prompt or summary")
        return
    lines = [f"- [ ] {' '.join(task.split())} ({data['status']})"]
    summary = str(data.get("summary") or "").strip()
    if summary and summary != task:
        lines.append(f"\n**Done so far:** {summary}")
    for title, key in (("Unfinished", "unfinished"), ("Next", "nextSteps")):
        if listed := texts(data.get(key)):
            lines.append(f"\n**{title}:**\n" + "\n".join(f"- {item}" for item in listed))
    yield Record(
        agent_of(file.stem, names),
        "tasks",
        "task",
        moment_of(data.get("updatedAt") or data.get("startedAt"), fallback),
        "\n".join(lines),
        f"bit-office:work:{digest(file.stem, str(data.get('startedAt')), task)}",
    )


def legacy_memory(file: Path, fallback: datetime) -> Iterator[Record | Problem]:
    """memory.json, bit-office's first store: one per install, for no agent in particular."""
    data = load_json(file)
    if data is None or isinstance(data, Problem):
        if data is not None:
            yield data
        return
    if not isinstance(data, dict):
        yield Problem(0, "memory.json: not a memory store")
        return
    for number, pattern in enumerate(as_list(data.get("reviewPatterns")), start=1):
        if not isinstance(pattern, dict) or not str(pattern.get("pattern") or "").strip():
            yield Problem(0, f"memory.json: review pattern {number} has no text")
            continue
        text = f"Review found: {str(pattern['pattern']).strip()}"
        seen = count(pattern.get("count"))
        header = (("reinforced", str(seen - 1)),) if seen > 1 else ()
        moment = moment_of(pattern.get("lastSeen"), fallback)
        yield Record(
            None,
            "lessons",
            "warning",
            moment,
            text,
            f"bit-office:review:{digest(text)}",
            header=header,
        )
    written = modified_at(file)  # tech preferences have no date of their own
    for preference in texts(data.get("techPreferences")):
        src_id = f"bit-office:tech:{digest(preference)}"
        text = f"Tech preference: {preference}"
        yield Record(None, "facts", "preference", written, text, src_id)
    for number, project in enumerate(as_list(data.get("projectHistory")), start=1):
        if not isinstance(project, dict) or not str(project.get("summary") or "").strip():
            yield Problem(0, f"memory.json: project {number} has no summary")
            continue
        text = str(project["summary"]).strip()
        if str(project.get("tech") or "").strip():
            text += f" ({str(project['tech']).strip()})"
        moment = moment_of(project.get("completedAt"), fallback)
        src_id = f"bit-office:project:{digest(text, str(project.get('completedAt')))}"
        yield Record(None, "projects", "project", moment, text, src_id)
