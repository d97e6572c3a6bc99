"""Recall: the context block an agent starts with, ranked, then packed into a token budget.

Sections follow DESIGN §5. Each takes whole entries in score order while they fit; an entry that
does not fit whole gives its best sentences around the match instead. Over budget, sections are
dropped in DESIGN's order (other agents first, last session last); Project and Recovering are cut
at a sentence end, never dropped. Budget left after the sections goes to the next most relevant
entries of any category. Recall reads; it never writes a category file.
"""

import re
from collections.abc import Callable, Iterable, Sequence
from datetime import UTC, datetime
from functools import partial
from typing import NamedTuple

from mem.config import Settings, check_agent
from mem.errors import InvalidInput
from mem.index.analysis import stem
from mem.index.search_index import Filters, Hit, SearchIndex
from mem.model import (
    OPEN_BOX,
    SHARED_FOLDER,
    Checkpoint,
    Entry,
    Omission,
    RecallBlock,
    RecallItem,
    RecallSection,
    Why,
)
from mem.services import session
from mem.services.feedback import QUIET, Feedback
from mem.services.refresh import fresh_index
from mem.services.search import ranking_for
from mem.text import WORD, cut_at_sentence, cut_words
from mem.vault import store

PROJECT_FILE = "_project.md"
# (key, title) in the order the block shows them.
TITLES: tuple[tuple[str, str], ...] = (
    ("project", "Project"),
    ("you", "You"),
    ("recovering", "Recovering"),
    ("last_session", "Last session"),
    ("team", "Team"),
    ("decisions", "Relevant decisions"),
    ("lessons", "Relevant lessons"),
    ("knowledge", "Knowledge"),
    ("shared", "Shared knowledge"),
    ("others", "From other agents"),
    ("open_tasks", "Open tasks"),
    ("more", "Also relevant"),
)
LIMITS = {"decisions": 5, "lessons": 3, "knowledge": 10, "shared": 5, "others": 3}
OTHER_AGENT_KINDS = ("decision", "interface", "warning")
SEARCH_DEPTH = 100  # ranked candidates considered for the relevant sections and the fill
# How strongly an entry must match the task to be shown as relevant (see Hit): the weight of the
# words it shares with the task, in words found in one entry alone, or the share of the task's
# weight it matches (a short task in a small vault, where every word is common). One shared
# common word ("plugin", "test") is far below both. Calibrated on coding-recall-dev, whose
# negative controls (tasks nothing in the vault bears on) should get nothing.
RELEVANT_AT = 1.8
RELEVANT_SHARE = 0.3
# A task that clearly has memory behind it (some match is relevant) gets the close runners-up
# (scoring at least half as well as the best) in the relevant sections, which often say the
# rest, and any other match in the fill; a task with none gets nothing task-driven at all.
RELEVANT_NEAR = 0.5
# Another agent's entry is about that agent's work: to be relevant to this one's task it must
# match half as strongly again. (A team vault where each agent is a project of its own: another
# project's note on "pull requests" is not about this project's pull-request templates.)
OTHERS_BAR = 1.5
HANDOFF_CORE = ("what", "unfinished", "next")  # what a tight budget keeps of the last session
# A session start ranks against the last handoff: its 16 rarest words. Every word of a long
# handoff (common ones too) cost ~0.6 s at 10,000 entries; the rare ones carry the ranking.
HANDOFF_QUERY_WORDS = 16
STANDING = Why("standing")  # context shown whatever the task
FILL_CHARS = 120  # the fill shows each entry's sentences around the match, about this long
OPEN_TASKS_SCAN = 50  # the newest open tasks considered; more would never fit a budget anyway
MIN_EXCERPT_TOKENS = 12  # a shorter excerpt says too little to be worth its line
MIN_BUDGET = 50
SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")
COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
MARKER = re.compile(r"^\s*(?:[-*+]\s+|\d+[.)]\s+)?(?:\[[ xX]\]\s*)?")


def tokens(text: str) -> int:
    """Estimated tokens: characters / 4, rounded up (DESIGN §5)."""
    return -(-len(text) // 4)


class Candidate(NamedTuple):
    """Something a section would like to show, before packing decides how much of it fits."""

    text: str
    entry: Entry | None = None
    cut: Callable[[int], str] | None = None  # a shorter version within N characters, or ""
    excerpt: bool = False  # already cut down to the sentences around the match
    keep: bool = False  # Project and Recovering: cut as far as needed, never dropped
    why: Why | None = None


class Packer:
    """Spends the budget: whole candidates while they fit, excerpts where they do not."""

    def __init__(self, room: int) -> None:
        self.room = room  # tokens left
        self.omitted: list[Omission] = []

    def section(
        self,
        key: str,
        title: str,
        wanted: Sequence[Candidate],
        report: bool = True,
        reserve: int = 0,
        started: bool = False,
    ) -> list[RecallItem]:
        """Take what fits of one section (its heading paid already when `started`), leaving
        `reserve` tokens for what must come after."""
        heading = tokens(f"## {title}\n")
        items: list[RecallItem] = []
        for candidate in wanted:
            opened = started or bool(items)
            whole = tokens(candidate.text + "\n")
            spare = self.room - reserve - (0 if opened else heading)
            entry_id = candidate.entry.id if candidate.entry else ""
            if whole <= spare:
                items.append(
                    RecallItem(
                        candidate.text, whole, candidate.entry, candidate.excerpt, candidate.why
                    )
                )
                self.room -= whole + (0 if opened else heading)
                continue
            shorter = candidate.cut(spare * 4 - 1) if candidate.cut and spare > 0 else ""
            least = 1 if candidate.keep else min(MIN_EXCERPT_TOKENS, whole)
            if shorter and least <= tokens(shorter + "\n") <= spare:
                cost = tokens(shorter + "\n")
                items.append(RecallItem(shorter, cost, candidate.entry, True, candidate.why))
                self.room -= cost + (0 if opened else heading)
                if report:
                    self.omitted.append(Omission(key, entry_id, whole, "trimmed"))
            elif report:
                self.omitted.append(Omission(key, entry_id, whole, "dropped"))
        return items

    def upgrade(self, key: str, items: list[RecallItem], fuller: Candidate) -> None:
        """Put `fuller` in place of the section's first item when the room allows, else say
        the section was trimmed."""
        if not items:
            return
        whole = tokens(fuller.text + "\n")
        if whole - items[0].tokens <= self.room:
            self.room -= whole - items[0].tokens
            items[0] = RecallItem(fuller.text, whole, fuller.entry, fuller.excerpt, fuller.why)
        elif fuller.text != items[0].text:
            entry_id = fuller.entry.id if fuller.entry else ""
            said = any(o.section == key and o.entry_id == entry_id for o in self.omitted)
            if not said:  # cut already when its shorter form was packed: one omission, not two
                self.omitted.append(Omission(key, entry_id, whole, "trimmed"))


def recall(
    settings: Settings,
    task: str = "",
    budget: int | None = None,
    now: datetime | None = None,
    feedback: Feedback = QUIET,
    standing: bool = True,
    shown: frozenset[str] = frozenset(),
) -> RecallBlock:
    """Build the agent's context block within `budget` tokens. Without `standing`, only what
    the task makes relevant (a prompt's memory, after the session's start had the rest), and
    none of the entries in `shown`."""
    vault = settings.require_vault()
    agent = check_agent(settings.agent)
    budget = settings.recall_budget if budget is None else budget
    if budget < MIN_BUDGET:
        raise InvalidInput(f"--budget must be at least {MIN_BUDGET} tokens")
    moment = now or datetime.now(UTC)
    index = fresh_index(vault, feedback)
    visible = Filters(viewer=agent, include_archived=False, expired_by=moment)

    checkpoint = session.live_checkpoint(vault, agent, moment)
    last = session.newest(index, agent, "handoffs", agent, vault)
    task = task.strip()
    relevance, against = (task, "task") if task else ("", "none")
    if not task and last is not None:
        relevance, against = last.body, "last_handoff"
    terms = query_stems(relevance)
    # Without a task the last handoff is the query: its rarest words, not its every word.
    rarest = HANDOFF_QUERY_WORDS if against == "last_handoff" else None
    ranking = ranking_for(settings, moment)
    hits = index.search(relevance, visible, ranking, SEARCH_DEPTH, rarest) if terms else []
    why = {hit.entry.id: hit for hit in hits}
    # Only what matches the task strongly enough is shown as relevant: the budget is a ceiling.
    on_topic = any(is_relevant(hit, agent) for hit in hits)
    near = hits[0].score * RELEVANT_NEAR if on_topic else float("inf")
    own = (agent, SHARED_FOLDER)
    # Another agent's entry is shown on its own merit only (OTHERS_BAR), never as a close
    # runner-up or in the fill, where one word it shares with the task would do.
    showable = [hit for hit in hits if hit.entry.agent in own or is_relevant(hit, agent)]
    ranked = [hit.entry for hit in showable if is_relevant(hit, agent) or hit.score >= near]
    matching = [hit.entry for hit in hits]  # standing sections put any match first
    chosen: set[str] = set(shown)
    said: set[str] = set()  # bodies shown already: a fact promoted to _shared is one fact

    def pick(entries: Iterable[Entry], limit: int | None) -> list[Entry]:
        taken: list[Entry] = []
        for entry in entries:
            if entry.id in chosen:
                continue
            if limit is not None and len(taken) >= limit:
                break
            body = entry.body.strip()
            if body in said:
                continue
            chosen.add(entry.id)
            said.add(body)
            taken.append(entry)
        return taken

    relevant_ids = {entry.id for entry in ranked}

    def because(entry: Entry) -> Why:
        return reason(why.get(entry.id), entry.id in relevant_ids)

    def candidate(entry: Entry, show_agent: bool = False, room: int | None = None) -> Candidate:
        return entry_candidate(entry, terms, show_agent, room, because(entry))

    if not standing:
        return pack(
            agent, task, against, budget, task_phases(ranked, pick, candidate, because, agent)
        )
    plan: list[Phase] = []
    project = project_text(store.read_text(vault, PROJECT_FILE))
    if project:
        plan.append(Phase("project", [Candidate(project, cut=partial(trim, project), keep=True)]))
    plan.append(Phase("you", you_candidates(settings, task)))
    if checkpoint is not None:
        text = checkpoint_text(checkpoint)
        recovering = Candidate(text, cut=partial(checkpoint_text, checkpoint), keep=True)
        plan.append(Phase("recovering", [recovering]))
    full_handoff: Candidate | None = None
    if checkpoint is None and last is not None:
        chosen.add(last.id)
        previous, core = handoff_text(last), handoff_text(last, HANDOFF_CORE)
        full_handoff = Candidate(previous, last, cut=partial(trim, previous), why=STANDING)
        core_item = Candidate(core, last, cut=partial(trim, core), why=STANDING)
        plan.append(Phase("last_session", [core_item]))

    # What the task needs, best first.
    if not terms:  # nothing to rank against: the newest
        ranked = [
            e for c in ("decisions", "lessons") for e in newest(index, visible, c, own, LIMITS[c])
        ]
    plan += task_phases(ranked, pick, candidate, because, agent, others=False)

    # Then the standing context, task-matching entries first.
    if full_handoff is not None:
        plan.append(Phase("last_session", [full_handoff], replace=True))
    for key, folder in (("knowledge", agent), ("shared", SHARED_FOLDER)):
        facts = [e for e in matching if e.category == "facts" and e.agent == folder]
        if len([e for e in facts if e.id not in chosen]) < LIMITS[key]:
            facts += index.standing_facts(  # then the most reinforced, the most central first
                visible._replace(agent=folder, category="facts"),
                LIMITS[key] + len(facts),
            )
        plan.append(Phase(key, [candidate(e) for e in pick(facts, LIMITS[key])]))
        if key == "knowledge":
            plan.append(Phase("team", team_candidates(settings, index, agent, moment)))
    open_tasks = index.top(
        visible._replace(agent=agent, open_tasks_only=True),
        OPEN_TASKS_SCAN,
    )
    order = {entry.id: n for n, entry in enumerate(matching)}
    open_tasks.sort(key=lambda e: order.get(e.id, len(order)))  # matching first, then newest
    plan.append(
        Phase("open_tasks", [task_candidate(e, because(e)) for e in pick(open_tasks, None)])
    )
    plan.append(others_phase(ranked, pick, candidate, agent))
    fill = [hit.entry for hit in showable if on_topic and hit.entry.category != "handoffs"]
    plan.append(
        Phase(
            "more",
            [candidate(e, e.agent not in own, FILL_CHARS) for e in pick(fill, None)],
            report=False,
        )
    )
    return pack(agent, task, against, budget, plan)


def task_phases(
    ranked: list[Entry],
    pick: Callable[[Iterable[Entry], int | None], list[Entry]],
    candidate: Callable[..., Candidate],
    because: Callable[[Entry], Why],
    agent: str,
    others: bool = True,
) -> "list[Phase]":
    """The sections the task decides, best first: relevant decisions, lessons, open tasks and,
    with `others`, what other agents said that bears on it."""
    own = (agent, SHARED_FOLDER)
    phases = []
    for key in ("decisions", "lessons"):
        found = [e for e in ranked if e.category == key and e.agent in own]
        phases.append(Phase(key, [candidate(e) for e in pick(found, LIMITS[key])]))
    tasks_wanted = [
        e for e in ranked if e.category == "tasks" and e.agent == agent and not e.get("done")
    ]
    tasks = [task_candidate(e, because(e)) for e in pick(tasks_wanted, None)]
    phases.append(Phase("open_tasks", tasks))
    if others:
        phases.append(others_phase(ranked, pick, candidate, agent))
    return phases


def others_phase(
    ranked: list[Entry],
    pick: Callable[[Iterable[Entry], int | None], list[Entry]],
    candidate: Callable[..., Candidate],
    agent: str,
) -> "Phase":
    own = (agent, SHARED_FOLDER)
    found = [e for e in ranked if e.agent not in own and e.kind in OTHER_AGENT_KINDS]
    return Phase("others", [candidate(e, show_agent=True) for e in pick(found, LIMITS["others"])])


class Phase(NamedTuple):
    """Candidates for one section, in the order the budget goes to them. A section may get a
    phase early (what matches the task) and another later (standing context); `replace` puts
    a fuller version in place of what the section holds, when the room allows."""

    key: str
    wanted: list[Candidate]
    replace: bool = False
    report: bool = True


def team_candidates(
    settings: Settings, index: SearchIndex, agent: str, moment: datetime
) -> list[Candidate]:
    return [
        Candidate(text, cut=partial(cut_words, text), why=STANDING)
        for text in (
            f"- {line.agent} ({age(line.when, moment)}): {line.what}"
            for line in session.roster(settings, index)
            if line.agent != agent and line.when is not None
        )
    ]


def you_candidates(settings: Settings, task: str) -> list[Candidate]:
    """The person's own preferences and conventions, from their user vault (see user_vault)."""
    from mem.services.user_vault import about_you

    lines = (f"- {' '.join(entry.body.split())}" for entry in about_you(settings, task))
    return [Candidate(line, cut=partial(cut_words, line), why=STANDING) for line in lines]


def is_relevant(hit: Hit, agent: str) -> bool:
    """Whether `hit` matches the task strongly enough to be shown as relevant to `agent`."""
    bar = 1.0 if hit.entry.agent in (agent, SHARED_FOLDER) else OTHERS_BAR
    return hit.strength >= RELEVANT_AT * bar or hit.coverage >= RELEVANT_SHARE * bar


def reason(hit: Hit | None, relevant: bool) -> Why:
    """`task` for an entry shown because it is relevant; `standing` for context shown whatever
    the task, with its score and matched words when it matched the task weakly."""
    if hit is None:
        return STANDING
    kind = "task" if relevant else "standing"
    return Why(kind, round(hit.score, 3), hit.matched, round(hit.strength, 3))


def task_candidate(entry: Entry, why: Why) -> Candidate:
    return Candidate(open_items(entry), entry, why=why)


def pack(agent: str, task: str, against: str, budget: int, plan: list[Phase]) -> RecallBlock:
    opening = f'<mem-recall agent="{agent}" tokens="{budget}" budget="{budget}">'
    title = f"# Memory for {agent}"
    closing = "</mem-recall>"
    overhead = tokens(f"{opening}\n{title}\n{closing}\n")
    if overhead > budget:
        raise InvalidInput(
            f"--budget {budget} is too small: an empty block takes {overhead} tokens"
        )
    packer = Packer(budget - overhead)
    made: dict[str, list[RecallItem]] = {}
    titles = dict(TITLES)
    recovering = next((phase for phase in plan if phase.key == "recovering"), None)
    for phase in plan:
        if not phase.wanted:
            continue
        if phase.replace:
            packer.upgrade(phase.key, made.get(phase.key, []), phase.wanted[0])
            continue
        wanted = phase.wanted
        if phase.key == "open_tasks" and made.get("last_session"):
            # An open task whose every item the last session shows, as packed, is said once.
            listed = {plain(line) for line in made["last_session"][0].text.splitlines()}
            wanted = [
                c for c in wanted if not {plain(line) for line in c.text.splitlines()} <= listed
            ]
        # Project and Recovering both stay: the project leaves room for part of the other.
        reserve = 0
        if phase.key == "project" and recovering is not None:
            needed = tokens("## Recovering\n" + recovering.wanted[0].text + "\n")
            reserve = min(needed, packer.room // 2)
        items = packer.section(
            phase.key,
            titles[phase.key],
            wanted,
            report=phase.report,
            reserve=reserve,
            started=bool(made.get(phase.key)),
        )
        if items:
            made.setdefault(phase.key, []).extend(items)
    sections = tuple(
        RecallSection(key, title, tuple(made[key])) for key, title in TITLES if made.get(key)
    )
    body = [title]
    for section in sections:
        body.append(f"## {section.title}")
        body.extend(item.text for item in section.items)
    inner = "\n".join(body)
    used = budget
    for _ in range(3):  # the count is part of the text it counts; it settles at once
        text = (
            f'<mem-recall agent="{agent}" tokens="{used}" budget="{budget}">\n{inner}\n{closing}\n'
        )
        if tokens(text) == used:
            break
        used = tokens(text)
    return RecallBlock(
        agent=agent,
        task=task,
        relevance=against,
        budget=budget,
        tokens=tokens(text),
        sections=sections,
        omitted=tuple(packer.omitted),
        text=text,
    )


def newest(
    index: SearchIndex, visible: Filters, category: str, agents: Sequence[str], limit: int
) -> list[Entry]:
    found: list[Entry] = []
    for who in agents:
        found += index.top(
            visible._replace(agent=who, category=category),
            limit,
        )
    found.sort(key=lambda e: (e.date, e.id), reverse=True)
    return found


def query_stems(text: str) -> frozenset[str]:
    return frozenset(stem(word) for word in WORD.findall(text.lower()) if len(word) > 2)


def entry_candidate(
    entry: Entry,
    terms: frozenset[str],
    show_agent: bool = False,
    room: int | None = None,
    why: Why | None = None,
) -> Candidate:
    """An entry as one line; with `room`, only its sentences around the match when it is longer."""
    lead = f"- ({entry.date:%Y-%m-%d}{', ' + entry.agent if show_agent else ''}) "
    body = " ".join(entry.body.split())
    short = best_sentences(body, terms, room) if room and len(body) > room else ""
    return Candidate(
        lead + (short or body),
        entry,
        cut=lambda chars: lead + best_sentences(body, terms, chars - len(lead)),
        excerpt=bool(short),
        why=why,
    )


def best_sentences(body: str, terms: frozenset[str], room: int) -> str:
    """The sentences of `body` around its best match with the query, within `room` characters."""
    if room <= 0:
        return ""
    sentences = [part.strip() for part in SENTENCE.split(body) if part.strip()]
    if not sentences:
        return ""

    def score(sentence: str) -> int:
        return len(terms & {stem(word) for word in WORD.findall(sentence.lower())})

    best = max(range(len(sentences)), key=lambda n: (score(sentences[n]), -n))
    marks = 4  # "… " before and " …" after, when the excerpt does not reach the ends
    if len(sentences[best]) + marks > room:
        return cut_words(sentences[best], room)
    first = last = best
    length = len(sentences[best])
    while True:  # widen, the next sentence first, while the excerpt still fits
        grown = False
        for n in (last + 1, first - 1):
            if 0 <= n < len(sentences) and length + 1 + len(sentences[n]) + marks <= room:
                length += len(sentences[n]) + 1
                first, last = min(first, n), max(last, n)
                grown = True
        if not grown:
            break
    text = " ".join(sentences[first : last + 1])
    return ("… " if first > 0 else "") + text + (" …" if last < len(sentences) - 1 else "")


def trim(text: str, room: int) -> str:
    """Cut at a sentence end, else at a word: Project and Recovering shrink, never vanish."""
    at_sentence = cut_at_block(text, room)
    if len(at_sentence) * 2 >= min(room, len(text)):
        return at_sentence
    return cut_words(text, room) or at_sentence  # a sentence end too early would waste the room


def cut_at_block(text: str, room: int) -> str:
    """Cut `text` to `room` characters at a sentence or line end, leaving no heading whose
    list was cut off; '' when none fits."""
    cut = cut_at_sentence(text, room, lines=True)
    if cut == text:
        return text
    kept = cut.rstrip().splitlines()
    while kept and (not kept[-1].strip() or kept[-1].rstrip("*_ ").endswith(":")):
        kept.pop()  # a heading whose list was cut off
    return "\n".join(kept)


def project_text(raw: str) -> str:
    """The project file without its frontmatter and HTML comments (the template's hints)."""
    text = raw
    if text.startswith("---"):
        end = text.find("\n---", 3)
        text = text[end + 4 :] if end != -1 else text
    text = COMMENT.sub("", text)
    lines = [line.rstrip() for line in text.strip().splitlines()]
    meaningful = [line for line in lines if line.strip() and not line.lstrip().startswith("#")]
    return "\n".join(lines).strip() if meaningful else ""


def checkpoint_text(checkpoint: Checkpoint, room: int | None = None) -> str:
    """The checkpoint as the Recovering section shows it; with `room`, cut to fit it: the
    oldest output lines go first, then the output, then the rest is cut at a sentence end."""
    state = "interrupted" if checkpoint.status == "interrupted" else "in progress"
    lines = [f"Checkpoint ({state}, saved {checkpoint.saved:%Y-%m-%dT%H:%MZ})."]
    for label, value in (
        ("Task", checkpoint.task),
        ("Command", f"`{checkpoint.command}`" if checkpoint.command else ""),
        ("Doing", checkpoint.what),
        ("Next", checkpoint.next),
    ):
        if value:
            lines.append(f"{label}: {' '.join(value.split())}")
    head = "\n".join(lines)
    output = checkpoint.output_tail.strip("\n").splitlines()
    while True:
        fence = "`" * max(3, longest_backtick_run(output) + 1)
        text = head + (
            f"\nLast output:\n{fence}\n" + "\n".join(output) + f"\n{fence}" if output else ""
        )
        if room is None or len(text) <= room:
            return text
        if not output:
            return trim(head, room)
        output = output[1:]  # the newest lines matter most to whoever picks the work up


def longest_backtick_run(lines: Sequence[str]) -> int:
    runs = [len(run) for line in lines for run in re.findall(r"`+", line)]
    return max(runs, default=0)


def handoff_text(entry: Entry, only: Sequence[str] = ()) -> str:
    """The handoff as Last session shows it; with `only`, just its parts of those labels
    (`**What:**`, `**Next:**`...), when it has labelled parts at all."""
    sender = entry.get("from")
    lead = f"({entry.date:%Y-%m-%d}{', from ' + sender if sender else ''})"
    body = entry.body.strip()
    parts = session.handoff_parts(body) if only else []
    if parts:
        kept = [f"**{label}:**{text.rstrip()}" for label, text in parts if label.lower() in only]
        body = "\n\n".join(kept) if kept else body
    return f"{lead} {body}"


def plain(line: str) -> str:
    """A line as compared for repeats: lower case, without its list or box marker."""
    return " ".join(MARKER.sub("", line.lower()).split())


def open_items(entry: Entry) -> str:
    return (
        "\n".join(line.strip() for line in entry.body.splitlines() if OPEN_BOX.match(line))
        or entry.title
    )


def age(when: datetime | None, now: datetime) -> str:
    if when is None:
        return "never"
    seconds = max(0.0, (now - when).total_seconds())
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
        if seconds >= size:
            return f"{int(seconds // size)}{unit} ago"
    return "just now"
