"""merges: random pairs of git branches of one vault, merged with the union driver `mem init`
sets, then `mem doctor --fix`: no conflict marker, a valid vault, no entry lost, duplicated or
undone.

Each pair starts from the same committed base vault (entries dated weeks and months back, so
`mem compact` has work: cold entries, warm near-duplicates, old handoffs to roll up). Branch a
and branch b each do a few seeded operations with the real `mem` (add, edit through $EDITOR,
reinforce through `mem commit`, supersede, forget, compact) and `git commit`s; b is merged into
a. The checker reads the category files with its own small parser, not mem's, and compares the
vault after `mem doctor --fix` with what each branch held: every id either branch held is still
there, once, in a file one of the branches had it in; every edit a branch made is in that id's
text; every forget, supersede and reinforcement a branch made still stands.
"""

from __future__ import annotations

import random
import re
import subprocess
import sys
import threading
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

from proofs.common import Row, child_environment, count, fresh_vault, run_mem

PART = "merges"
PAIRS = 200
QUICK_PAIRS = 20
WORKERS = 3  # one repository each: two cores, and git and the file system wait too
AGENT = "dev"
TOPICS = ("decisions", "lessons", "facts", "tasks")  # what the branches add to and edit
OPERATIONS = ("add", "edit", "reinforce", "supersede", "forget", "compact", "commit")
GIT = ["git", "-c", "user.email=bench@example.com", "-c", "user.name=bench"]

HEADER = re.compile(r"<!--\s*id:(?P<id>\S+?)(?P<rest>(?:\s.*?)?)-->\s*$")
PAIR = re.compile(r'(?P<key>[A-Za-z][\w-]*):(?:"(?P<quoted>(?:[^"\\]|\\.)*)"|(?P<plain>\S*))')
TOKEN = re.compile(r"\btok[0-9a-z]+\b")  # names one entry's text: made once, never twice
EDIT_MARK = re.compile(r"\bedit[0-9a-z]+\b")  # names one edit
MARKER = re.compile(r"^(<<<<<<<|>>>>>>>)( |$)", re.MULTILINE)

COMPONENTS = (
    "session cache", "billing worker", "login form", "search page", "upload queue",
    "audit log", "rate limiter", "mail sender", "report builder", "image resizer",
    "feature flags", "payment webhook", "admin panel", "export job", "sitemap",
    "token refresher", "retry loop", "schema migrator", "metrics exporter", "cron runner",
)  # fmt: skip
TECHS = (
    "sqlite", "postgres", "redis", "kafka", "celery", "rabbitmq", "nginx", "caddy",
    "pydantic", "attrs", "httpx", "requests", "pytest", "nose", "alembic", "flyway",
)  # fmt: skip
CAUSES = (
    "a timezone-naive datetime", "a stale lock file", "an unbounded retry",
    "a missing index", "a race on startup", "a wrong default encoding",
    "an expired certificate", "a shadowed environment variable",
)  # fmt: skip

EDITOR_SCRIPT = '''"""An editor for `mem edit`: appends an edit mark to the first body line of one entry."""
import os, sys
path, entry_id, mark = sys.argv[-1], os.environ["MERGES_EDIT_ID"], os.environ["MERGES_EDIT_MARK"]
with open(path, encoding="utf-8", newline="") as file:
    lines = file.read().split("\\n")
for n, line in enumerate(lines):
    if line.startswith(f"<!-- id:{entry_id} ") or line.startswith(f"<!-- id:{entry_id}-->"):
        k = n + 2  # past the heading
        while not lines[k].strip():
            k += 1
        lines[k] = f"{lines[k].rstrip()} Edited: {mark}."
        break
else:
    sys.exit(f"no entry {entry_id} in {path}")
with open(path, "w", encoding="utf-8", newline="") as file:
    file.write("\\n".join(lines))
'''


# --- reading a vault, with a parser of its own ---------------------------------------------


@dataclass(frozen=True)
class Copy:
    """One entry as a category file holds it."""

    id: str
    path: str  # vault-relative: dev/decisions.md, dev/archive/decisions.md
    header: dict[str, str]
    body: str

    @property
    def token(self) -> str | None:
        found = TOKEN.search(self.body)
        return found.group(0) if found and "/handoffs" not in f"/{self.path}" else None

    @property
    def edits(self) -> set[str]:
        return set(EDIT_MARK.findall(self.body))

    @property
    def reinforced(self) -> int:
        value = self.header.get("reinforced", "0")
        return int(value) if value.isdigit() else 0


State = dict[str, list[Copy]]  # id -> its copies across the vault's category files


def entries_of(text: str, path: str) -> list[Copy]:
    """The entries of one category file: a header line, then lines up to a `---` line."""
    found: list[Copy] = []
    current: tuple[str, str, list[str]] | None = None
    for line in [*text.splitlines(), "---"]:
        header = HEADER.match(line) if line.startswith("<!--") else None
        if header is not None or line.strip() == "---":
            if current is not None:
                entry_id, rest, body = current
                pairs = {
                    m["key"]: m["quoted"] if m["quoted"] is not None else m["plain"]
                    for m in PAIR.finditer(rest)
                }
                found.append(Copy(entry_id, path, pairs, "\n".join(body).strip()))
            current = (header["id"], header["rest"], []) if header is not None else None
        elif current is not None:
            current[2].append(line)
    return found


def category_files(vault: Path) -> list[Path]:
    return sorted(
        path
        for path in vault.rglob("*.md")
        if ".mem" not in path.relative_to(vault).parts
        and path.relative_to(vault).as_posix() not in ("README.md", "_project.md")
    )


def read_state(vault: Path) -> State:
    """Every entry of the vault's category files (archives included), by id."""
    state: State = {}
    for path in category_files(vault):
        relative = path.relative_to(vault).as_posix()
        for copy in entries_of(path.read_text(encoding="utf-8", errors="replace"), relative):
            state.setdefault(copy.id, []).append(copy)
    return state


def markers_in(vault: Path) -> int:
    """Files of the vault holding a conflict marker line."""
    return sum(
        1
        for path in vault.rglob("*")
        if path.is_file()
        and ".mem" not in path.relative_to(vault).parts
        and MARKER.search(path.read_text(encoding="utf-8", errors="replace"))
    )


# --- judging a merge ----------------------------------------------------------------------


@dataclass
class Verdict:
    """What a merge (after `mem doctor --fix`) kept, lost, doubled or undid, with examples."""

    lost: int = 0  # ids either branch held that are gone, or not where either branch had them
    duplicated: int = 0  # ids held twice, and texts one entry held that two entries now hold
    edits_lost: int = 0  # edits a branch made that are not in the text of the entry's id
    texts_lost: int = 0  # entries missing a line of their text as a branch had it
    undone: int = 0  # forgets, supersedes and reinforcements a branch made that no longer stand
    made_twice: int = 0  # texts both branches wrote as a new entry of their own (promotions)
    both_edited: int = 0  # entries both branches edited
    both_kept: int = 0  # ...whose two edits are both in the merged entry
    examples: dict[str, list[str]] = field(default_factory=dict)  # by what went wrong, 2 each

    def add(self, other: Verdict) -> None:
        for name in (
            "lost",
            "duplicated",
            "edits_lost",
            "texts_lost",
            "undone",
            "made_twice",
            "both_edited",
            "both_kept",
        ):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for kind, texts in other.examples.items():
            for text in texts:
                self.note(kind, text)

    def note(self, kind: str, text: str) -> None:
        kept = self.examples.setdefault(kind, [])
        if len(kept) < 2:
            kept.append(text)


def kept_lines(body: str, merged: str) -> bool:
    """Whether every line of a branch's text of an entry (its heading too) is in its merged
    text, as it was or with an edit the editor appended to it."""
    after = merged.splitlines()
    return all(
        line in after or any(other.startswith(f"{line.rstrip()} Edited: ") for other in after)
        for line in body.splitlines()
        if line.strip()
    )


def ids_per_token(state: State) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for copies in state.values():
        for copy in copies:
            if copy.token:
                found.setdefault(copy.token, set()).add(copy.id)
    return found


def judge(a: State, b: State, after: State) -> Verdict:
    """Compare the merged vault with what branches a and b held."""
    verdict = Verdict()
    for entry_id in sorted(a.keys() | b.keys()):
        held = a.get(entry_id, []) + b.get(entry_id, [])
        places = {copy.path for copy in held}
        copies = after.get(entry_id, [])
        if not copies:
            verdict.lost += 1
            verdict.note("lost", f"lost {entry_id} ({', '.join(sorted(places))})")
            continue
        if len(copies) > 1:
            verdict.duplicated += 1
            verdict.note("duplicated", f"{entry_id} twice: {', '.join(c.path for c in copies)}")
        merged = copies[0]
        if merged.path not in places:
            verdict.lost += 1
            verdict.note("lost", f"{entry_id} in {merged.path}, where no branch had it")
        made = [copy.edits for copy in held]
        missing = set().union(*made) - merged.edits
        if missing:
            verdict.edits_lost += len(missing)
            verdict.note("edits_lost", f"edit {', '.join(sorted(missing))} of {entry_id} lost")
        if any(not kept_lines(copy.body, merged.body) for copy in held):
            verdict.texts_lost += 1
            verdict.note(
                "texts_lost",
                f"{entry_id}'s text as a branch had it is not its text after the merge",
            )
        sides = [set().union(*(c.edits for c in side.get(entry_id, []))) for side in (a, b)]
        if sides[0] - sides[1] and sides[1] - sides[0]:
            verdict.both_edited += 1
            verdict.both_kept += not missing
        if any(c.header.get("superseded-by") for c in held) and not merged.header.get(
            "superseded-by"
        ):
            verdict.undone += 1
            verdict.note("undone", f"{entry_id} superseded on a branch, not after the merge")
        if merged.reinforced < max(c.reinforced for c in held):
            verdict.undone += 1
            verdict.note(
                "undone", f"{entry_id} reinforced {merged.reinforced} times, a branch said more"
            )
    # A text in more entries than on either branch: under an id no branch had, a copy the
    # merge or its fix made; under ids each branch made (both promoted one fact to _shared/),
    # two writes git kept, as it keeps any two additions.
    held_ids = a.keys() | b.keys()
    per_branch = [ids_per_token(a), ids_per_token(b)]
    for token, ids in ids_per_token(after).items():
        most = max(len(side.get(token, ())) for side in per_branch)
        if len(ids) <= most or not most:
            continue
        if ids - held_ids:
            verdict.duplicated += 1
            verdict.note(
                "duplicated", f"the text {token} is in {len(ids)} entries, one under a new id"
            )
        else:
            verdict.made_twice += 1
    return verdict


# --- the base vault -----------------------------------------------------------------------


def text_for(category: str, rng: random.Random, token: str) -> str:
    """A body of the kind an agent writes in this category; `mem commit` takes a decision's
    text as a decision, so a commit of it again reinforces the entry."""
    component = rng.choice(COMPONENTS)
    tech, other = rng.sample(TECHS, 2)
    if category == "decisions":
        return (
            f"I decided to use {tech} over {other} for the {component}, because {token} needs it."
        )
    if category == "lessons":
        return f"The {component} broke because of {rng.choice(CAUSES)}; {token} shows how."
    if category == "facts":
        return f"The {component} runs on {tech} in this repo, configured under {token}."
    return f"- [ ] move the {component} to {tech} ({token})"


def block(entry_id: str, moment: datetime, kind: str, body: str, extra: str = "") -> str:
    header = f"<!-- id:{entry_id} kind:{kind}{extra} -->"
    return f"{header}\n## {moment:%Y-%m-%dT%H:%MZ}\n\n{body}\n\n---\n\n"


def base_files(rng: random.Random, now: datetime) -> dict[str, str]:
    """The base vault's category files: 26 entries a topic, mostly older than a month (compact
    archives past the 20 newest), a near-duplicate pair per topic 10-20 days old (compact merges
    them), and eight handoffs of past weeks (compact rolls them up)."""
    kinds = {"decisions": "decision", "lessons": "lesson", "facts": "fact", "tasks": "task"}
    files = {}
    serial = 0
    for category in TOPICS:
        made: list[tuple[datetime, str]] = []
        for n in range(26):
            serial += 1
            warm = n < 2
            days = rng.uniform(10, 20) if warm else rng.uniform(31, 150)
            moment = (now - timedelta(days=days)).replace(second=0, microsecond=0)
            entry_id = f"{moment:%Y%m%d-%H%M%S}-b{serial:05d}"
            if warm:  # the same words, but for its own token: compact merges the two
                body = text_for(category, random.Random(f"{category}-twin"), f"tok0b{serial}")
            else:
                body = text_for(category, rng, f"tok0b{serial}")
            extra = f" reinforced:{rng.randint(1, 4)}" if rng.random() < 0.2 else ""
            made.append((moment, block(entry_id, moment, kinds[category], body, extra)))
        made.sort(reverse=True)
        files[f"{AGENT}/{category}.md"] = "".join(text for _, text in made)
    handoffs = []
    for n in range(8):
        serial += 1
        moment = (now - timedelta(days=8 + 4 * n)).replace(second=0, microsecond=0)
        what = f"**What:** moved the {rng.choice(COMPONENTS)} to {rng.choice(TECHS)}."
        entry_id = f"{moment:%Y%m%d-%H%M%S}-b{serial:05d}"
        handoffs.append(block(entry_id, moment, "handoff", what))
    files[f"{AGENT}/handoffs.md"] = "".join(handoffs)
    return {
        path: f"---\nagent: {AGENT}\ncategory: {Path(path).stem}\n---\n\n{text}"
        for path, text in files.items()
    }


def git(repo: Path, *words: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*GIT, "-C", str(repo), *words],
        capture_output=True,
        text=True,
        check=check,
        env=child_environment(),
    )


def make_repository(folder: Path, files: dict[str, str]) -> Path:
    """A git repository with `mem init` run and the base vault committed, tagged `base`."""
    vault = fresh_vault(folder)
    for path, text in files.items():
        (vault / path).parent.mkdir(parents=True, exist_ok=True)
        (vault / path).write_text(text, encoding="utf-8")
    git(folder, "add", "-A")
    git(folder, "commit", "-q", "-m", "base vault")
    git(folder, "tag", "base")
    return vault


# --- one pair of branches -----------------------------------------------------------------


@dataclass
class Tally:
    """What the branches did and what mem said, over all pairs."""

    operations: Counter[str] = field(default_factory=Counter)
    failed: Counter[str] = field(default_factory=Counter)  # exit status not 0
    refusals: list[str] = field(default_factory=list)  # what mem said, a few
    crashes: list[str] = field(default_factory=list)  # a traceback's last line
    markers: int = 0  # merges that left a conflict marker
    refused: int = 0  # merges git would not finish
    valid: int = 0  # merges `mem doctor` passes after `mem doctor --fix`
    invalid: list[str] = field(default_factory=list)  # what doctor still said
    fixed: Counter[str] = field(default_factory=Counter)  # problems `mem doctor --fix` repaired
    verdict: Verdict = field(default_factory=Verdict)
    lock: threading.Lock = field(default_factory=threading.Lock)


class Branch:
    """Runs one branch's operations in a repository, as a person or an agent would."""

    def __init__(self, repo: Path, rng: random.Random, name: str, env: dict[str, str]) -> None:
        self.repo, self.vault, self.rng, self.env = repo, repo / ".memory", rng, env
        self.name = name  # of the pair and side: 12a, in the tokens it writes
        self.serial = 0
        self.focus: set[str] = set()  # ids both branches of the pair pick more often
        self.done: Counter[str] = Counter()
        self.failed: Counter[str] = Counter()
        self.crashes: list[str] = []
        self.refusals: list[str] = []

    def mem(self, operation: str, *words: str, stdin: str | None = None, **env: str) -> bool:
        ran = run_mem(words, self.repo, stdin=stdin, env={**self.env, **env}, timeout=120)
        self.done[operation] += 1
        if "Traceback" in ran.stderr:
            self.crashes.append(f"mem {' '.join(words)}: {ran.stderr.strip().splitlines()[-1]}")
        if ran.returncode != 0:
            self.failed[operation] += 1
            self.refusals.append(f"mem {' '.join(words[:2])}: {ran.stderr.strip()[-160:]}")
        return ran.returncode == 0

    def live(self, topics: tuple[str, ...] = TOPICS) -> list[Copy]:
        """Entries of the hot files of these topics that nothing superseded; half the time
        only those of the pair's focus, when one is live, so both branches change one entry."""
        found = [
            copy
            for copies in read_state(self.vault).values()
            for copy in copies
            if copy.path in {f"{AGENT}/{topic}.md" for topic in topics}
            and not copy.header.get("superseded-by")
        ]
        focused = [copy for copy in found if copy.id in self.focus]
        return focused if focused and self.rng.random() < 0.5 else found

    def token(self) -> str:
        self.serial += 1
        return f"tok{self.name}{self.serial}"

    def run(self, operation: str) -> None:
        rng = self.rng
        if operation == "add":
            category = rng.choice(TOPICS)
            text = text_for(category, rng, self.token())  # on stdin: a task starts with "-"
            self.mem("add", "add", "-", "-c", category, stdin=text)
        elif operation == "edit":
            target = rng.choice(self.live())
            self.serial += 1
            self.mem(
                "edit",
                "edit",
                target.id,
                EDITOR=self.env["MERGES_EDITOR"],
                VISUAL="",
                MERGES_EDIT_ID=target.id,
                MERGES_EDIT_MARK=f"edit{self.name}{self.serial}",
            )
        elif operation == "reinforce":
            target = rng.choice(self.live(("decisions",)))
            text = target.body.split("\n", 2)[-1].strip()  # the heading left out
            note = f"Session {self.name} {self.token()} went on.\n\n{text}\n"
            self.mem("reinforce", "commit", stdin=note)
        elif operation == "supersede":
            target = rng.choice(self.live())
            category = target.path.split("/")[-1].removesuffix(".md")
            text = text_for(category, rng, self.token())
            words = ("add", "-", "-c", category, "--supersedes", target.id)
            self.mem("supersede", *words, stdin=text)
        elif operation == "forget":
            self.mem("forget", "forget", rng.choice(self.live()).id, "--reason", "merge bench")
        elif operation == "compact":
            self.mem("compact", "compact")
        else:
            self.done["commit"] += 1
            git(self.repo, "add", "-A", ".memory")
            git(self.repo, "commit", "-q", "--allow-empty", "-m", f"{self.name}: some memory")


def run_pair(
    repo: Path, index: int, seed: int, env: dict[str, str], newest: list[str], tally: Tally
) -> None:
    """Branch a and b from base, a few operations on each (on one of the `newest` entries of
    the base more often than on others), merge b into a, `mem doctor --fix`, judge."""
    rng = random.Random(f"{seed}-{index}")
    states: list[State] = []
    branches = []
    focus = set(rng.sample(newest, 2))
    for side in ("a", "b"):
        git(repo, "checkout", "-q", "-f", "-B", side, "base")
        git(repo, "clean", "-q", "-f", "-d", ".memory")
        branch = Branch(repo, rng, f"{index}{side}", env)
        branch.focus = focus
        for operation in rng.choices(OPERATIONS, k=rng.randint(1, 3)):
            branch.run(operation)
        branch.run("commit")
        states.append(read_state(repo / ".memory"))
        branches.append(branch)
    git(repo, "checkout", "-q", "-f", "a")
    merged = git(repo, "merge", "-q", "--no-edit", "b", check=False)
    markers = markers_in(repo / ".memory")
    if merged.returncode != 0:  # keep what git left, as a person who gives up would
        git(repo, "add", "-A")
        git(repo, "commit", "-q", "-m", "merge b (conflicts kept)")
    fix = run_mem(["doctor", "--fix", "--json"], repo, env=env, timeout=120)
    check = run_mem(["doctor"], repo, env=env, timeout=120)
    verdict = judge(states[0], states[1], read_state(repo / ".memory"))
    verdict.examples = {
        kind: [f"pair {index}: {text}" for text in texts]
        for kind, texts in verdict.examples.items()
    }
    with tally.lock:
        for branch in branches:
            tally.operations.update(branch.done)
            tally.failed.update(branch.failed)
            tally.crashes += branch.crashes
            tally.refusals += branch.refusals[: max(0, 2 - len(tally.refusals))]
        for ran in (fix, check):
            if "Traceback" in ran.stderr:
                tally.crashes.append(f"mem doctor: {ran.stderr.strip().splitlines()[-1]}")
        tally.markers += markers > 0
        tally.refused += merged.returncode != 0
        if check.returncode == 0:
            tally.valid += 1
        elif len(tally.invalid) < 3:
            tally.invalid.append(f"pair {index}: {check.stdout.strip()[-300:]}")
        tally.fixed.update(re.findall(r'"code": "(\w+)"', fix.stdout))
        tally.verdict.add(verdict)


# --- the part -----------------------------------------------------------------------------


def run(workdir: Path, *, quick: bool, seed: int) -> list[Row]:
    pairs = QUICK_PAIRS if quick else PAIRS
    editor = workdir / "editor.py"
    editor.write_text(EDITOR_SCRIPT, encoding="utf-8")
    (workdir / "home").mkdir()
    env = {
        "MEM_AGENT": AGENT,
        "HOME": str(workdir / "home"),
        "MERGES_EDITOR": f"{sys.executable} {editor}",
    }
    files = base_files(random.Random(seed), datetime.now(UTC))
    repos = [workdir / f"repo{n}" for n in range(WORKERS)]
    for repo in repos:
        make_repository(repo, files)
    topics = [entries_of(text, path) for path, text in files.items() if "handoffs" not in path]
    newest = sorted((copy.id for copies in topics for copy in copies), reverse=True)[:12]
    tally = Tally()
    queue = iter(range(pairs))
    queue_lock = threading.Lock()

    def worker(repo: Path) -> None:
        while True:
            with queue_lock:
                index = next(queue, None)
            if index is None:
                return
            run_pair(repo, index, seed, env, newest, tally)

    with ThreadPoolExecutor(WORKERS) as pool:
        for done in pool.map(worker, repos):
            del done
    return rows(tally, pairs)


def rows(tally: Tally, pairs: int) -> list[Row]:
    verdict = tally.verdict
    out = [
        Row(PART, "merges that left a conflict marker (<<<<<<< or >>>>>>>)",
            f"{tally.markers} of {pairs}", f"0 of {pairs}", tally.markers == 0),
        Row(PART, "merges git refused to finish", f"{tally.refused} of {pairs}"),
        Row(PART, "vaults valid after `mem doctor --fix` (`mem doctor` exits 0)",
            f"{tally.valid} of {pairs}", f"{pairs} of {pairs}", tally.valid == pairs),
        Row(PART, "entries lost (an id a branch held: gone, or where no branch had it)",
            count(verdict.lost), "0", verdict.lost == 0),
        Row(PART, "entries duplicated (an id twice, or an entry's text again under a new id)",
            count(verdict.duplicated), "0", verdict.duplicated == 0),
        Row(PART, "edits lost (a branch's edit missing from its entry)",
            count(verdict.edits_lost), "0", verdict.edits_lost == 0),
        Row(PART, "entry texts lost (a line of an entry on a branch missing from it after)",
            count(verdict.texts_lost), "0", verdict.texts_lost == 0),
        Row(PART, "forgets, supersedes and reinforcements undone",
            count(verdict.undone), "0", verdict.undone == 0),
        Row(PART, "mem runs that crashed with a traceback",
            count(len(tally.crashes)), "0", not tally.crashes),
        Row(PART, "texts both branches made an entry of (a fact promoted on each): kept twice",
            count(verdict.made_twice)),
        Row(PART, "entries both branches edited: both edits kept in the one entry",
            f"{verdict.both_kept} of {verdict.both_edited}"),
        Row(PART, "operations on the branches",
            ", ".join(f"{name} {count(tally.operations[name])}" for name in OPERATIONS)),
        Row(PART, "what `mem doctor --fix` repaired",
            ", ".join(f"{code} {n}" for code, n in tally.fixed.most_common()) or "nothing"),
    ]  # fmt: skip
    if tally.failed:
        out.append(
            Row(
                PART,
                "operations mem refused (exit status not 0)",
                ", ".join(f"{name} {n}" for name, n in tally.failed.most_common()),
            )
        )
    examples = [text for texts in verdict.examples.values() for text in texts]
    for example in [*examples, *tally.crashes[:3], *tally.invalid, *tally.refusals]:
        out.append(Row(PART, "example", example.replace("|", "\\|").replace("\n", " ")))
    return out
