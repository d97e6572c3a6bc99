"""Add one entry by hand, or supersede an older one with it."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import NamedTuple

from mem.config import Settings, check_agent
from mem.errors import InvalidContent, InvalidInput
from mem.extract.redact import marked_kinds, redact
from mem.model import CATEGORY_OF_KIND, KINDS_BY_CATEGORY, MAX_ENTRY_BYTES, SCOPES, Entry
from mem.services.fact_cap import MAX_FACTS, cap_facts
from mem.services.feedback import QUIET, Feedback
from mem.services.lookup import find_entry
from mem.vault import entries as entry_codec
from mem.vault import layout, operations

TAG_WORD = re.compile(r"[\w-]*[^\W\d_][\w-]*")


def check_size(text: str) -> None:
    """Refuse more text than one entry's worth, as `mem add -` does with stdin."""
    if len(text.encode("utf-8", "replace")) > MAX_ENTRY_BYTES:
        raise InvalidContent(
            f"the text is more than {MAX_ENTRY_BYTES // 1024} KiB; one entry should be short "
            "(keep the point, not the whole document)"
        )


def add(
    settings: Settings,
    text: str,
    category: str,
    kind: str | None = None,
    tags: tuple[str, ...] = (),
    scope: str = "agent",
    supersedes: str | None = None,
    pin: bool = False,
    header: tuple[tuple[str, str], ...] = (),
    now: datetime | None = None,
    feedback: Feedback = QUIET,
    expires: datetime | None = None,
    share_after: datetime | None = None,
) -> Entry:
    """Write a new entry at the top of the agent's category file and return it. A fact past
    the agent's cap sends the least reinforced, oldest one to the archive, as a commit does."""
    vault = settings.require_vault()
    agent = check_agent(settings.agent)
    layout.check_category(category)
    kind = check_kind(category, kind)
    if scope not in SCOPES:
        raise InvalidInput(f"unknown scope {scope!r}; choose one of {', '.join(SCOPES)}")
    body = text.strip()
    if not body:
        raise InvalidInput("nothing to add: the text is empty")
    body = without_secrets([body], feedback)[0]
    for change in entry_codec.body_changes(body):
        feedback.notice(change)
    tags = check_tags(tags)
    older = find_entry(settings, supersedes) if supersedes else None
    if older is not None and scope == "private" and older.scope != "private":
        # The old entry would vanish for everyone while its replacement stays hidden.
        raise InvalidInput(
            f"a private entry cannot supersede {older.scope} entry {older.id}; "
            "add the replacement with --scope agent or shared"
        )
    moment = now or datetime.now(UTC)
    entry_id = entry_codec.new_entry_id(moment)
    pairs: list[tuple[str, str]] = [("kind", kind)]
    if pin:
        pairs.append(("pin", "true"))
    if expires is not None:
        if expires <= moment:
            raise InvalidInput("--expires must be later than now")
        pairs.append(("expires", entry_codec.format_date(expires)))
    if share_after is not None:
        if scope != "private":
            raise InvalidInput("--share-after is for private entries; add --scope private")
        if share_after <= moment:
            raise InvalidInput("--share-after must be later than now")
        pairs.append(("share-after", entry_codec.format_date(share_after)))
    if older is not None:
        pairs.append(("supersedes", older.id))
    if scope == "shared":
        pairs.append(("by", agent))
    pairs.extend(header)
    entry = write_entry(
        vault, layout.file_ref(agent, category, scope), entry_id, moment, tags, body, tuple(pairs)
    )
    if older is not None:
        operations.set_header(vault, older, {"superseded-by": entry.id})
    if category == "facts" and scope == "agent":
        moved = cap_facts(vault, agent)
        if moved:
            feedback.notice(
                f"moved {len(moved)} older fact(s) to {agent}/archive/facts.md: an agent keeps "
                f"at most {MAX_FACTS} live facts"
            )
    return entry


class NewEntry(NamedTuple):
    """One entry for add_many: its text, when it happened, and extra header pairs."""

    text: str
    moment: datetime
    tags: tuple[str, ...] = ()
    header: tuple[tuple[str, str], ...] = ()


def add_many(
    settings: Settings,
    items: Sequence[NewEntry],
    category: str,
    kind: str | None = None,
    feedback: Feedback = QUIET,
) -> list[Entry]:
    """Write many entries into the agent's category file in one locked write (an import).

    Each is checked as `add` checks one; they go in newest first, above what the file holds.
    """
    vault = settings.require_vault()
    agent = check_agent(settings.agent)
    layout.check_category(category)
    kind = check_kind(category, kind)
    ref = layout.file_ref(agent, category)
    rendered: list[tuple[datetime, str, str]] = []
    bodies = without_secrets([item.text.strip() for item in items], feedback)
    for item, body in zip(items, bodies, strict=True):
        if not body:
            raise InvalidInput("nothing to add: an entry's text is empty")
        entry_id = entry_codec.new_entry_id(item.moment)
        while any(entry_id == made for _, made, _ in rendered):  # same second, same 31 bits
            entry_id = entry_codec.new_entry_id(item.moment)
        header = (("kind", kind), *item.header)
        block = entry_codec.render_entry(entry_id, item.moment, check_tags(item.tags), body, header)
        rendered.append((item.moment, entry_id, block))
    rendered.sort(key=lambda row: row[0], reverse=True)
    new_ids = {entry_id for _, entry_id, _ in rendered}

    return operations.insert(vault, ref, "".join(block for _, _, block in rendered), new_ids)


def without_secrets(texts: list[str], feedback: Feedback) -> list[str]:
    """The texts with every secret replaced by a marker naming its kind (`[REDACTED:github-
    token]`), as capture does: a vault is committed and shared, and a hand-written entry is no
    safer a place for a key than an agent's. One notice says how many went and of which kinds,
    never what they were."""
    clean: list[str] = []
    kinds: Counter[str] = Counter()
    for text in texts:
        redacted, count = redact(text)
        if count:  # (markers the text held already were no secret of this write)
            kinds += marked_kinds(redacted) - marked_kinds(text)
        clean.append(redacted)
    said = ", ".join(f"{count} {kind}" if count > 1 else kind for kind, count in kinds.items())
    if said:
        feedback.notice(
            f"a secret was replaced by [REDACTED:<kind>] before writing ({said}); "
            "keep secrets out of the vault, which is committed"
        )
    return clean


def check_kind(category: str, kind: str | None) -> str:
    """Return the kind to record, refusing one that belongs to another category file."""
    allowed = KINDS_BY_CATEGORY[category]
    if kind is None:
        return allowed[0]
    if kind not in allowed:
        home = CATEGORY_OF_KIND.get(kind)
        hint = f"it belongs in {home}" if home else f"choose one of {', '.join(allowed)}"
        raise InvalidInput(f"kind {kind!r} does not fit category {category}; {hint}")
    return kind


def check_tags(tags: tuple[str, ...]) -> tuple[str, ...]:
    """Normalise tags (`#Auth` → `auth`), refusing ones a heading could not hold."""
    clean: list[str] = []
    for raw in tags:
        for part in raw.split(","):
            tag = part.strip().lstrip("#").lower()
            if not tag:
                continue
            if not TAG_WORD.fullmatch(tag):
                raise InvalidInput(f"invalid tag {part.strip()!r}; a tag is one word with a letter")
            if tag not in clean:
                clean.append(tag)
    return tuple(clean)


def write_entry(
    vault: Path,
    ref: layout.FileRef,
    entry_id: str,
    moment: datetime,
    tags: tuple[str, ...],
    body: str,
    header: tuple[tuple[str, str], ...],
) -> Entry:
    """Insert a rendered entry into a category file (creating it) and return it as parsed."""
    block = entry_codec.render_entry(entry_id, moment, tags, body, header)
    return operations.insert(vault, ref, block, {entry_id})[0]


def parse_expires(text: str, now: datetime | None = None, option: str = "--expires") -> datetime:
    """Read `--expires` (or `--share-after`): a time from now (12h, 30d, 2w, 3mo, 1y) or a
    date (2026-12-31)."""
    from mem.services.search import read_moment

    forms = "a date (2026-12-31) or a time from now (12h, 30d, 2w, 3mo, 1y)"
    return read_moment(text, now, +1, option, forms)
