"""Which agent a project's installed hooks act as, and whether that agent has any memory.

A recall for an agent with no entries is empty, and says nothing of why: the README's demo
writes as `dev` while hooks installed without `--agent` act as the default agent. `mem install`
and `mem doctor` use this to say so.
"""

from __future__ import annotations

import json
import re
import shlex
from collections import Counter
from pathlib import Path

from mem.config import Settings
from mem.model import SHARED_FOLDER
from mem.services.install import OURS, SETTINGS_FILES
from mem.services.refresh import parse
from mem.vault import layout

HANDOFFS = "handoffs"  # a handoff is no memory a recall draws on by itself


def entries_per_agent(settings: Settings) -> Counter[str]:
    """Live entries (not superseded, not archived) of each agent folder, handoffs aside."""
    vault = settings.require_vault()
    counts: Counter[str] = Counter()
    for ref in layout.category_files(vault):
        if ref.archived or ref.agent == SHARED_FOLDER or ref.category == HANDOFFS:
            continue
        counts[ref.agent] += sum(not e.is_superseded for e in parse(vault, ref)[0])
    return counts


def hook_agents(project: Path, default_agent: str) -> dict[str, str]:
    """The agent each of the project's hook settings files acts as ({file: agent}): the
    `--agent` of its `mem hook` command, else the vault's default agent."""
    found: dict[str, str] = {}
    for project_file, _ in SETTINGS_FILES.values():
        path = project / project_file
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        for command in commands_in(data):
            if OURS.search(command):
                found[project_file] = agent_of(command) or default_agent
                break
    return found


def commands_in(value: object) -> list[str]:
    """Every "command" string anywhere in a settings file's JSON."""
    if isinstance(value, dict):
        own = [value["command"]] if isinstance(value.get("command"), str) else []
        return own + [c for item in value.values() for c in commands_in(item)]
    if isinstance(value, list):
        return [c for item in value for c in commands_in(item)]
    return []


def agent_of(command: str) -> str | None:
    try:
        words = shlex.split(command)
    except ValueError:
        words = command.split()
    for index, word in enumerate(words[:-1]):
        if word in ("--agent", "-a"):
            return words[index + 1]
    found = re.search(r"--agent=(\S+)", command)
    return found.group(1) if found else None


def empty_agent_note(counts: Counter[str], agent: str) -> str:
    """A word when `agent` has no entries while others have some; "" otherwise."""
    others = {name: count for name, count in counts.items() if name != agent and count}
    if counts.get(agent) or not others:
        return ""
    name, count = max(others.items(), key=lambda item: (item[1], item[0]))
    return (
        f"agent {agent}, which has no entries yet, so its recall starts empty "
        f"({name} has {count}: install again with --agent {name} to recall those)"
    )
