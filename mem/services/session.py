"""Session state: handoffs between sessions and agents, checkpoints of work in progress, roster."""

import re
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import NamedTuple

from mem.config import Settings, check_agent
from mem.errors import InvalidInput
from mem.index.search_index import Filters, SearchIndex
from mem.model import Checkpoint, Entry, RosterLine
from mem.services.feedback import QUIET, Feedback
from mem.services.lookup import with_lines
from mem.services.refresh import fresh_index
from mem.text import cut_words
from mem.vault import layout, state

LABELLED = re.compile(r"^\*\*([A-Za-z ]+):\*\*", re.MULTILINE)  # a handoff part: **Next:**

CHECKPOINT_LIFETIME = timedelta(days=7)
ROSTER_SCAN = 16  # the newest handoffs looked at at once; quieter agents are asked one by one
ROSTER_CHARS = 110  # about 30 tokens a line with the agent's name and age


class HandoffParts(NamedTuple):
    """What a person or a wrapper says about a session, one list per part."""

    what: str = ""
    decisions: Sequence[str] = ()
    files: Sequence[str] = ()
    commits: Sequence[str] = ()
    unfinished: Sequence[str] = ()
    next_steps: Sequence[str] = ()

    def is_empty(self) -> bool:
        return not any(
            (
                self.what.strip(),
                self.decisions,
                self.files,
                self.commits,
                self.unfinished,
                self.next_steps,
            )
        )


def write_handoff(
    settings: Settings,
    parts: HandoffParts,
    text: str = "",
    to: str | None = None,
    now: datetime | None = None,
    feedback: Feedback = QUIET,
) -> tuple[Entry, int]:
    """Write a session summary into the handoffs of this agent (or of `to`); clear the
    checkpoint it supersedes. Returns the entry and how many secrets were redacted."""
    from mem.extract.redact import redact  # only writers pay for the extraction rules
    from mem.extract.summary import render_handoff
    from mem.services.add import check_size, write_entry
    from mem.vault import entries as entry_codec

    vault = settings.require_vault()
    agent = check_agent(settings.agent)
    target = check_agent(to) if to else agent
    if text.strip() and not parts.is_empty():
        raise InvalidInput("give the handoff either as flags or on stdin, not both")
    check_size(text)
    body = text.strip() or (
        ""
        if parts.is_empty()
        else render_handoff(
            parts.what.strip(),
            decisions=parts.decisions,
            files=parts.files,
            commits=parts.commits,
            unfinished=parts.unfinished,
            next_steps=parts.next_steps,
        )
    )
    if not body:
        raise InvalidInput("nothing to hand off; give --what (and more) or text on stdin")
    body, redactions = redact(body)
    moment = now or datetime.now(UTC)
    header: list[tuple[str, str]] = [("kind", "handoff"), ("source", "handoff")]
    known = layout.agents(vault)
    if target != agent:
        header.append(("from", agent))
    entry = write_entry(
        vault,
        layout.file_ref(target, "handoffs"),
        entry_codec.new_entry_id(moment),
        moment,
        (),
        body,
        tuple(header),
    )
    if target != agent and target not in known:  # a new teammate, or a typo: say so now
        feedback.notice(
            f"{target} is a new agent: created {target}/"
            + (f" (agents so far: {', '.join(known)})" if known else "")
        )
    state.clear_checkpoint(vault, agent)  # the handoff says where things stand now
    return entry, redactions


def latest_handoff(
    settings: Settings, agent: str | None = None, feedback: Feedback = QUIET
) -> Entry | None:
    """Return the newest live handoff addressed to the agent, or None."""
    vault = settings.require_vault()
    who = check_agent(agent or settings.agent)
    found = newest(fresh_index(vault, feedback), who, "handoffs", settings.agent, vault)
    return with_lines(vault, [found])[0] if found else None


def newest(
    index: SearchIndex, agent: str, category: str, viewer: str, vault: Path | None = None
) -> Entry | None:
    """The newest live entry of one agent's category file.

    Dates keep minutes: within one, the entry higher in the file is the newer (mem inserts at
    the top), so ties are settled by reading the file, when `vault` is given.
    """
    found = index.top(
        Filters(agent=agent, category=category, viewer=viewer, include_archived=False), 8
    )
    tied = [entry for entry in found if entry.date == found[0].date]
    if vault is not None and len(tied) > 1:
        tied = sorted(with_lines(vault, tied), key=lambda entry: (entry.path, entry.line))
    return tied[0] if tied else None


def save_checkpoint(
    settings: Settings,
    task: str = "",
    what: str = "",
    next_step: str = "",
    command: str = "",
    output_tail: str = "",
    status: str = "active",
    now: datetime | None = None,
    owner: str = "",
) -> Checkpoint:
    """Save (replace) the agent's checkpoint; secrets in any of its text are redacted. An
    `owner` ("host:pid") marks it as kept current by a running process."""
    from mem.extract.redact import redact

    vault = settings.require_vault()
    agent = check_agent(settings.agent)
    if not any(part.strip() for part in (task, what, next_step, command, output_tail)):
        raise InvalidInput("nothing to checkpoint; give --what, --task or --next")
    checkpoint = Checkpoint(
        agent=agent,
        saved=now or datetime.now(UTC),
        status=status,
        task=redact(task.strip())[0],
        what=redact(what.strip())[0],
        next=redact(next_step.strip())[0],
        command=redact(command)[0],
        output_tail=redact(output_tail)[0],
        owner=owner,
    )
    state.write_checkpoint(vault, checkpoint)
    return checkpoint


def live_checkpoint(vault: Path, agent: str, now: datetime | None = None) -> Checkpoint | None:
    """Return the agent's checkpoint when it is younger than seven days.

    One dated more than that into the future (a clock set wrong, a hand edit) is no fresher:
    it would otherwise stand in for every handoff for good.
    """
    checkpoint = state.read_checkpoint(vault, agent)
    if checkpoint is None:
        return None
    if abs((now or datetime.now(UTC)) - checkpoint.saved) > CHECKPOINT_LIFETIME:
        return None
    return checkpoint


def show_checkpoint(settings: Settings, now: datetime | None = None) -> Checkpoint | None:
    return live_checkpoint(settings.require_vault(), check_agent(settings.agent), now)


def clear_checkpoint(settings: Settings) -> bool:
    return state.clear_checkpoint(settings.require_vault(), check_agent(settings.agent))


def roster(
    settings: Settings, index: SearchIndex | None = None, feedback: Feedback = QUIET
) -> list[RosterLine]:
    """One line per agent: what its latest handoff says it did, and when."""
    vault = settings.require_vault()
    index = index or fresh_index(vault, feedback)
    agents = layout.agents(vault)
    latest: dict[str, Entry] = {}
    # What an agent did is in the handoffs it wrote: its own, and those it sent (`from:` it).
    visible = Filters(category="handoffs", viewer=settings.agent, include_archived=False)
    for entry in index.top(visible, ROSTER_SCAN):
        latest.setdefault(entry.get("from") or entry.agent, entry)
    for agent in agents:
        if agent not in latest:
            # Its newest, however many others handed to it since or however long ago it sent it.
            found = index.top(visible._replace(written_by=agent), 1)
            if found:
                latest[agent] = found[0]
    lines = []
    for agent in sorted(set(agents) | set(latest)):  # a sender may have no folder of its own
        last = latest.get(agent)
        if last is None:
            lines.append(RosterLine(agent, None, ""))
            continue
        what = " ".join(handoff_what(last.body).split())
        lines.append(RosterLine(agent, last.date, cut_words(what, ROSTER_CHARS)))
    return lines


def handoff_parts(body: str) -> list[tuple[str, str]]:
    """A handoff's labelled parts, in order, as (label, text): `**Files changed:**` and the
    list under it give ("Files changed", "\n- app.py\n"). Empty when it has no labels."""
    parts = LABELLED.split(body)  # [before, label, text, label, text, ...]
    return list(zip(parts[1::2], parts[2::2], strict=True))


def handoff_what(body: str) -> str:
    """The **What:** of a handoff, else its first line."""
    for line in body.splitlines():
        stripped = line.strip()
        if stripped.lower().startswith("**what:**"):
            return stripped[len("**what:**") :].strip()
    return next((line.strip() for line in body.splitlines() if line.strip()), "")
