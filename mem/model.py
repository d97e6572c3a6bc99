"""What `mem` remembers and reports: immutable records and vocabulary, no I/O.

Records are `NamedTuple`s rather than frozen dataclasses on purpose: `mem recall` runs before
every agent launch, and importing `dataclasses` (which pulls in `inspect`) and building its
classes cost about 30 ms of a ~150 ms start; `tests/cli/test_quick.py` keeps it off that path.
For the same reason there is no `from __future__ import annotations` here: NamedTuple compiles
every string annotation into a ForwardRef, which doubled this module's import time (2 ms more).
"""

import re
from datetime import UTC, datetime
from typing import NamedTuple

CATEGORIES: tuple[str, ...] = ("decisions", "lessons", "facts", "tasks", "projects", "handoffs")

# Which finer kinds live in which category file (DESIGN §1). The first kind is the default.
KINDS_BY_CATEGORY: dict[str, tuple[str, ...]] = {
    "decisions": ("decision", "interface"),
    "lessons": ("lesson", "warning", "observation"),
    "facts": ("fact", "preference", "convention", "pattern", "code"),
    "tasks": ("task",),
    "projects": ("project", "context", "artifact"),
    "handoffs": ("handoff",),
}
CATEGORY_OF_KIND: dict[str, str] = {
    kind: category for category, kinds in KINDS_BY_CATEGORY.items() for kind in kinds
}

# Half-life in days per kind; None means the kind does not decay. Overridable in mem.toml.
DEFAULT_HALF_LIFE_DAYS: dict[str, float] = {
    "convention": 30,
    "interface": 20,
    "decision": 14,
    "lesson": 30,
    "warning": 7,
    "observation": 30,
    "artifact": 7,
    "code": 3,
    "handoff": 7,
    "preference": 90,
    "fact": 90,
    "pattern": 30,
    "project": 90,
    "context": 90,
    "task": 30,
}

# Decay never takes an entry below this share of its text relevance: age breaks ties and tips close
# calls, but an old entry that is the only real match is still found. Overridable in mem.toml.
DEFAULT_DECAY_FLOOR = 0.5

SCOPES: tuple[str, ...] = ("agent", "shared", "private")
MAX_ENTRY_BYTES = 1 << 20  # one entry's worth of text: `mem add -` and MCP's publish take no more
SHARED_FOLDER = "_shared"

AGENT_NAME = re.compile(r"[a-z0-9][a-z0-9._-]{0,63}")
ENTRY_ID = re.compile(r"[A-Za-z0-9_-]+")
MIN_ID_PREFIX = 4
# A made id: the second it was made, then a random tail. People read and type the tail.
MADE_ID = re.compile(r"\d{8}-\d{6}-(?P<tail>[a-z0-9]{4,})")


def short_id(entry_id: str) -> str:
    """The part of an id people read and type, as git shows a short hash: a made id's random
    tail (the date part is shared by every entry of a day), any other id whole."""
    made = MADE_ID.fullmatch(entry_id)
    return made["tail"] if made else entry_id


OPEN_BOX = re.compile(r"^\s*[-*] \[ \]", re.MULTILINE)
DONE_BOX = re.compile(r"^\s*[-*] \[[xX]\]", re.MULTILINE)


class Entry(NamedTuple):
    """One remembered item as it stands in a category file."""

    id: str
    agent: str  # the folder it lives in: an agent name or "_shared"
    category: str
    kind: str
    date: datetime
    tags: tuple[str, ...]
    body: str
    header: tuple[tuple[str, str], ...]  # header keys beyond id, in file order
    scope: str = "agent"
    path: str = ""  # vault-relative, POSIX style
    line: int = 0  # 1-based line of the header comment
    archived: bool = False

    def get(self, key: str, default: str = "") -> str:
        """Return a header value, or `default` when the header lacks the key."""
        for name, value in self.header:
            if name == key:
                return value
        return default

    @property
    def reinforced(self) -> int:
        value = self.get("reinforced", "0")
        return int(value) if value.isascii() and value.isdigit() else 0

    def is_visible_to(self, agent: str | None) -> bool:
        """A private entry is its own agent's; every other entry is everyone's."""
        return self.scope != "private" or self.agent == agent

    @property
    def is_superseded(self) -> bool:
        return bool(self.get("superseded-by"))

    @property
    def expires(self) -> datetime | None:
        """When the entry stops being shown (`expires:` in its header), or None."""
        return self.moment_of("expires")

    def moment_of(self, key: str) -> datetime | None:
        """A date in the header (`expires:`, `share-after:`); None when absent, or when it
        cannot be read (a typo hides or shares nothing)."""
        value = self.get(key)
        if not value:
            return None
        try:
            moment = datetime.fromisoformat(value)  # 3.11 reads a trailing Z
        except ValueError:
            return None
        return moment if moment.tzinfo else moment.replace(tzinfo=UTC)

    def has_expired(self, now: datetime) -> bool:
        expires = self.expires
        return expires is not None and expires <= now

    @property
    def is_pinned(self) -> bool:
        return self.get("pin") not in ("", "false", "no", "0")

    @property
    def is_open_task(self) -> bool:
        return self.category == "tasks" and bool(OPEN_BOX.search(self.body))

    @property
    def title(self) -> str:
        """Return the first non-empty line of the body, for one-line listings."""
        for line in self.body.splitlines():
            stripped = line.strip().lstrip("#").strip()
            if stripped:
                return stripped
        return ""


class SearchHit(NamedTuple):
    """One ranked search result."""

    entry: Entry
    score: float
    snippet: str
    highlights: tuple[tuple[int, int], ...] = ()  # (start, end) of matched words in the snippet


class Problem(NamedTuple):
    """Something `mem doctor` found wrong, and whether it was repaired."""

    code: str  # malformed_entry, duplicate_id, wrong_file, frontmatter, stale_index, ...
    path: str
    line: int
    message: str
    fixed: bool = False


class DoctorReport(NamedTuple):
    problems: tuple[Problem, ...]
    files_checked: int
    entries_checked: int
    # Worth a look, not wrong: no exit status, nothing for --fix (hooks that act as an agent
    # with no entries while others have some).
    warnings: tuple[Problem, ...] = ()


class InitReport(NamedTuple):
    vault: str
    created: tuple[str, ...]  # vault-relative paths made by this run
    already_existed: bool
    outside_git: bool = False  # placed in the folder given, as no git repository holds it


class TaskReport(NamedTuple):
    entry: Entry
    changed: int  # boxes ticked


class Stats(NamedTuple):
    """Counts that describe a vault."""

    entries: int
    superseded: int
    by_agent: dict[str, int]
    by_category: dict[str, int]
    by_kind: dict[str, int]
    by_age: dict[str, int]
    files: int = 0
    vault_bytes: int = 0
    index_bytes: int = 0
    private: int = 0  # of `entries`, those of the asking agent's private scope


MAX_COMMIT_CANDIDATES = 500  # a runaway log must not become a runaway memory
# The most message text (characters) one commit of a stream mines: the rules take ~0.2 ms a
# sentence, so a gigabyte of log would take most of an hour. What comes after is read and
# counted, neither mined nor recorded in the ledger, and the report says so: committing the
# same input again mines the next part (what was mined is in the ledger, and skipped).
MINE_LIMIT = 16_000_000


class CommitReport(NamedTuple):
    """What `mem commit` stored (or, in a dry run, would store)."""

    format: str
    messages: int
    added: tuple[Entry, ...]
    reinforced: tuple[Entry, ...]
    promoted: tuple[Entry, ...]  # the shared entries made or reinforced by promotion
    archived: tuple[Entry, ...]  # facts moved out by the per-agent cap
    handoff: Entry | None
    redactions: int
    dry_run: bool
    empty_input: bool
    already_committed: int = 0  # messages the ledger says were committed before
    left_out: int = 0  # candidates past the most one commit stores
    why: tuple[tuple[str, str], ...] = ()  # (entry id, what made it memory) of each added
    unmined: int = 0  # messages read past the most one commit of a stream mines
    unmined_chars: int = 0


class Checkpoint(NamedTuple):
    """Work in progress, saved so a crashed or interrupted session can be picked up."""

    agent: str
    saved: datetime
    status: str  # active | interrupted
    task: str = ""
    what: str = ""
    next: str = ""
    command: str = ""
    output_tail: str = ""  # the last lines a `mem run` command printed, secrets redacted
    owner: str = ""  # "host:pid" of the `mem run` that keeps it current, while it runs


class Why(NamedTuple):
    """Why recall chose an entry: it matches the task (with the search score, the words it
    matched and their weight, see RELEVANT_AT), or it is standing context (the last session,
    the most reinforced facts, the newest open tasks)."""

    reason: str  # task | standing
    score: float | None = None
    matched: tuple[str, ...] = ()
    strength: float | None = None


class RecallItem(NamedTuple):
    """One line of a recall block: an entry, whole or cut down to its best sentences."""

    text: str  # as it appears in the block, one markdown line or paragraph
    tokens: int
    entry: Entry | None = None  # None for the project file and the checkpoint
    excerpt: bool = False  # only the sentences around the match, or cut at a sentence end
    why: Why | None = None


class RecallSection(NamedTuple):
    key: str  # project, recovering, last_session, team, decisions, lessons, ...
    title: str
    items: tuple[RecallItem, ...]


class Omission(NamedTuple):
    """Something recall left out or cut to stay within the budget."""

    section: str
    entry_id: str  # "" for the project file and the checkpoint
    tokens: int  # what the whole thing would have cost
    how: str  # dropped | trimmed


class RecallBlock(NamedTuple):
    agent: str
    task: str
    relevance: str  # task | last_handoff | none: what the relevant sections were ranked against
    budget: int
    tokens: int
    sections: tuple[RecallSection, ...]
    omitted: tuple[Omission, ...]
    text: str  # the whole block, fenced by <mem-recall …> … </mem-recall>


class RosterLine(NamedTuple):
    agent: str
    when: datetime | None
    what: str
