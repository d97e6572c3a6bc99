"""Sum a session up for the next one: what, decisions, files, commits, unfinished, next."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from mem.extract.cues import ABBREVIATIONS, Compiled, compiled
from mem.extract.formats import Message
from mem.extract.patterns import (
    CONCLUSION,
    DONE,
    DONE_SHARE,
    ITEM_ENDS,
    LEAF_LEVEL,
    MAX_CHARS,
    SECOND_PERSON,
    SECTION_NUMBER,
    STATEMENT_WORDS,
    Candidate,
    Unit,
    announces_only,
    body_of,
    cap,
    capitalised,
    classify,
    clean,
    content_words,
    covers,
    introduction_stated,
    is_statement,
    looks_like_output,
    meaning,
    prose_units,
    said_words,
    without_interjection,
)
from mem.text import fence_mark

# Where a person's first sentence ends, whatever case the next one starts in (people type
# prompts in lower case: "…has been failing. with the log below").
ASK_END = re.compile(r"(?<=[.!?])" + ABBREVIATIONS + r"\s+(?=\S)")
EMOTICON = re.compile(r"[:;=]-?[)\]]")


def opens_cut(sentence: str) -> bool:
    """Whether a sentence begins past its start: it closes a bracket it never opened."""
    said = EMOTICON.sub("", sentence)  # "hey :) can you…" opens as it should
    return any(said.count(close) > said.count(open_) for open_, close in ("()", "[]"))


SUMMARY_LINE = re.compile(
    # "**Summary:** it works", "Summary: …"; not "**Summary:**" over a list ("**" says nothing)
    r"^[ \t]*\**(?:summary|resumo)\**[ \t]*:[ \t]*(?:\*\*(?=[ \t])[ \t]*)?"
    r"(?P<text>(?!\*+[ \t]*$)\S.*)$",
    re.IGNORECASE | re.MULTILINE,
)
SUMMARY_HEADING = re.compile(
    r"^(?:(?:session|final|executive|overall)\s+summary|summary|resumo|总结|changes\s+made|what\s+(?:i|was)\s+(?:did|done|changed)"
    r"|(?:here's\s+)?(?:a\s+)?summary\s+of\s+(?:what|the\s+changes)"
    r"|here's\s+what\s+(?:i|was)\s+(?:did|done|changed|updated)"
    r"|tl;?\s?dr|quick\s+context(?:\s+recovery)?|key\s+(?:takeaways|points)"
    r"|work\s+(?:completed|done)|completed\s+work)\b"
    # What the work made, by its heading: "Core Components Created", "Features Implemented"
    r"|^(?:\d+[.)]\s+)?(?!files?\b)(?:[\w+-]+\s+){0,3}(?:components?|features?|changes?|fix(?:es)?|modules?"
    r"|services?|endpoints?)\s+(?:created|built|implemented|added|delivered|made)\s*$",
    re.IGNORECASE,
)
SUMMED_ITEMS = 3
# Where a document may hold its own summary: a heading that names one (looked for before the
# summary is read, which costs a pass over the units).
SUMMARY_TITLED = re.compile(
    r"^#{1,6}[ \t]+(?:[\w-]+[ \t]+){0,2}(?:summary|work\s+(?:completed|done)|tl;?\s?dr)\b",
    re.IGNORECASE | re.MULTILINE,
)
ROUTINE_COMMIT = re.compile(
    r"^(?:style|chore|docs?|ci|build|wip)\b(?:\([^)]*\))?!?:", re.IGNORECASE
)
CODE_LIKE = re.compile(r"(?:^|\s)[\w.]+\s*=\s*\S|[;{}]|\)\)$|^\S+\.\w+:\d+")
# A status line is no account of the work: "All 214 tests pass", "Done.", "Committed."
STATUS_ONLY = re.compile(
    r"^(?:all\s+)?(?:\d+\s+)?(?:tests?|checks?|specs?)\b.{0,30}\b(?:pass|passed|green|ok)\b"
    r"|^(?:done|finished|complete|completed|committed|pushed|ok|okay)\b[.!]?$"
    r"|^(?:you're\s+welcome|thanks|thank\s+you|glad|happy\s+to\s+help|you're\s+right)\b"
    r"|\b(?:was|were|is|are)\s+already\b",
    re.IGNORECASE,
)
# Files and commits a report names in prose: "I fixed it in src/cart/totals.py", "Committed as 9f3e1ab".
PROSE_PATH = re.compile(
    r"(?<![\w/.-])`?((?:[\w.-]+/)+[\w.-]+\.[A-Za-z0-9]{1,8}|[\w-]+\.(?:py|ts|tsx|js|jsx|go|rs|rb|java|kt"
    r"|swift|c|h|cpp|cs|php|md|yml|yaml|toml|json|sql|sh|css|html|vue|svelte))`?(?![\w/])"
)
CHANGE_VERB = re.compile(
    r"\b(?:fixed|changed|updated|added|edited|modified|created|wrote|moved|renamed|deleted|removed"
    r"|refactored|touched|corrigi|alterei|criei|adicionei|修改|新增|更新)",
    re.IGNORECASE,
)
PROSE_COMMIT = re.compile(
    r"\b(?:committed|commit)\s+(?:as\s+|in\s+|it\s+as\s+)?`?(?P<sha>[0-9a-f]{7,40})`?\b",
    re.IGNORECASE,
)
# A report's conclusion by its label: "Recommendation: use `checkpoint-pi` as the base".
CONCLUDED = re.compile(
    r"^(?:my\s+|our\s+|final\s+)?(?:recommendation|conclusion|verdict|bottom\s+line|recomenda[cç][aã]o"
    r"|conclus[aã]o|empfehlung|fazit|结论|推荐|結論|推奨)\s*[:：]\s*\S",
    re.IGNORECASE,
)
# A colon that introduces what follows, not one inside a name (`publish:ci`, `https:`).
INTRODUCED = re.compile(r"[:：](?=\s|$)")
FENCE = "```"
OUTCOME_WORDS = 6  # a What says what was done to what: "Fixed — one line in x" says neither
UNFINISHED_KEPT = 2  # words an item cut of its dangling word still says, to stand in a What
MAX_LISTED = 12  # items per list in a handoff; the rest are counted
RECENT_REPORTS = 6  # how many of the last assistant messages may hold the final report


@dataclass
class SessionSummary:
    """Accumulates what a session did while its output streams past."""

    summary_line: str = ""
    reports: list[str] = field(default_factory=list)  # the last turns' reports, newest last
    worked: list[int] = field(default_factory=list)  # files and commits of each report's turn
    last_words: str = ""  # the agent's latest text: the session's report, if nothing follows
    turn_work: int = 0  # files written and commits made since the person last spoke
    first_prompt: str = ""
    decisions: list[str] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    commits: list[str] = field(default_factory=list)
    pull_requests: list[str] = field(default_factory=list)  # the titles of those opened
    # A document read in parts (a long notes file, no person in it): its summary, from the
    # part that holds it, though the What reads the last part.
    document_summary: str = ""
    unfinished: list[str] = field(default_factory=list)
    next_steps: list[str] = field(default_factory=list)
    input_tokens: int = 0
    output_tokens: int = 0
    failed: bool = False

    def drop(self, texts: list[str]) -> None:
        """Forget decisions and tasks taken back (a change undone, a task done later)."""
        gone = set(texts)
        for items in (self.decisions, self.unfinished, self.next_steps):
            items[:] = [item for item in items if item not in gone]

    def drop_commits(self, shas: set[str]) -> None:
        """Forget commits the session took back (`/undo`)."""
        self.commits = [commit for commit in self.commits if commit.split(" ", 1)[0] not in shas]

    def take(self, message: Message, candidates: list[Candidate]) -> None:
        """Fold one message and what was extracted from it into the summary."""
        self.input_tokens += message.input_tokens
        self.output_tokens += message.output_tokens
        self.failed = self.failed or message.failed
        commits = message.commits if message.role != "undo" else ()  # undo: those taken back
        for path in message.files:
            self.add_file(path)
        for commit in commits:
            self.add_commit(commit)
        self.turn_work += len(message.files) + len(commits)
        if message.role == "posted" and message.title:
            self.pull_requests.append(message.title)
        if message.role == "user" and not self.first_prompt and message.text.strip():
            self.first_prompt = message.text
        if message.role == "user" and message.text.strip() and self.last_words:
            # The agent's last words before the person spoke again: its report for the turn.
            self.reports = [*self.reports[-(RECENT_REPORTS - 1) :], self.last_words]
            self.worked = [*self.worked[-(RECENT_REPORTS - 1) :], self.turn_work]
            self.last_words = ""
        if message.role == "user" and message.text.strip():
            self.turn_work = 0
        if (
            message.role == "assistant"
            and not self.first_prompt
            and not self.document_summary
            and self.last_words  # a part before this one: the document is read in parts
            and SUMMARY_TITLED.search(self.last_words)
        ):
            self.document_summary = summed_up(self.last_words)
        if message.role in ("assistant", "result") and message.text.strip():
            found = SUMMARY_LINE.findall(message.text)
            if found:
                self.summary_line = cap(clean(found[-1]))
            self.last_words = message.text
            self.named_in_prose(message.text)
        self.fold(candidates)

    def fold(self, candidates: list[Candidate]) -> None:
        """Keep the decisions and the tasks the session left, for the handoff's lists."""
        for candidate in candidates:
            target = {"decisions": self.decisions}.get(candidate.category)
            if candidate.category == "tasks":
                target = self.next_steps if candidate.is_next_step else self.unfinished
            if target is not None and candidate.text not in target:
                target.append(candidate.text)

    def add_file(self, path: str) -> None:
        """Note a file changed, once: a report naming `setup.go` names the `cli/setup.go` a
        tool call wrote (the longer path stays)."""
        short = shorten(path)
        if any(known == short or known.endswith("/" + short) for known in self.files):
            return
        shorter = [known for known in self.files if short.endswith("/" + known)]
        self.files = [known for known in self.files if known not in shorter]
        self.files.append(short)

    def add_commit(self, commit: str) -> None:
        sha = commit.split(" ", 1)[0]
        # A commit named in prose ("Committed as 9f3e1ab") may come before or after its subject.
        known = [c for c in self.commits if c.split(" ", 1)[0] == sha]
        if not known:
            self.commits.append(commit)
        elif " " in commit and " " not in known[0]:
            self.commits[self.commits.index(known[0])] = commit

    def named_in_prose(self, text: str) -> None:
        """Files and commits a report names in its sentences rather than in tool calls.

        Read line by line outside code blocks, not sentence by sentence: this runs on every
        message, and a path or a commit id never spans lines."""
        if not (CHANGE_VERB.search(text) or "ommit" in text):
            return
        fenced = False
        for line in text.splitlines():
            if fence_mark(line):
                fenced = not fenced
                continue
            if fenced or looks_like_output(line):
                continue
            for match in PROSE_COMMIT.finditer(line):
                self.add_commit(match["sha"][:7])
            if CHANGE_VERB.search(line):
                for match in PROSE_PATH.finditer(line):
                    if "://" not in line[max(0, match.start() - 10) : match.start()]:
                        self.add_file(match.group(1))

    @property
    def is_empty(self) -> bool:
        """Whether the agent said nothing and changed nothing: no handoff to write."""
        return not (self.reports or self.last_words or self.files or self.commits)

    @property
    def what(self) -> str:
        """What the session did: the `SUMMARY:` line, else the titles of the pull requests it
        opened, else its commits' subjects (merges and
        chores aside; a subject too short to say what was done gives way to the report that
        lists the change it names), else a report's own summary (a heading or a line such as
        "Summary of what was done:", "Core Components Created", "Quick Context", and the items
        under it), else the report of the turn that changed most when a later one only
        tweaked, else the last report's account of the work ("I fixed …", with the items of
        the list it introduces), else any commit subjects, else the report's first statement
        that says what was done to what, or, when that report has no account of work nor
        change in it (an answer to a side question), an earlier report's."""
        if self.summary_line:
            return self.summary_line
        if self.pull_requests:
            # A pull request's title says the work of all its commits, for a reviewer.
            return cap("; ".join(list(dict.fromkeys(self.pull_requests))[-3:]))
        # The commits' own subjects say the outcome in the agent's words for the next reader;
        # a report's sentence may name one step of it ("Added two tests…").
        # A subject said twice (a commit amended, or made again) says its change once.
        subjects = list(dict.fromkeys(c.split(" ", 1)[1] for c in self.commits if " " in c))
        outcome = cap("; ".join([s for s in subjects if not ROUTINE_COMMIT.match(s)][-3:]))
        reports = [*self.reports, self.last_words] if self.last_words else self.reports
        worked = [*self.worked, self.turn_work] if self.last_words else self.worked
        cues = compiled()
        if outcome and said_words(outcome) < OUTCOME_WORDS:
            # A subject as short as "Improve Windows test reliability" is a title: the report
            # of the turn that made the change says what it was, if it lists it.
            # (Not the change it said it would make: the subject says that better.)
            main = reports[self.main_turn(worked)] if reports else ""
            told = account(outcome_of(main, cues), announced=False) if main else ""
            if said_words(told) > said_words(outcome) and titles(outcome, told):
                return told
        if outcome:
            return outcome
        for text in reversed(reports):
            summed = summed_up(text)
            if summed:
                return summed
        if self.document_summary:
            return self.document_summary
        # The turn that changed most (files written, commits made) did the session's main work:
        # where a later turn changed less (a last tweak, a question), its report says it.
        most = self.main_turn(worked)
        if 0 <= most < len(reports) - 1 and worked[most] > worked[-1]:
            main = account(outcome_of(reports[most], cues))
            if main:
                return main
        earlier = ""
        final: Outcome | None = None  # what the final report says
        for text in reversed(reports):
            said = outcome_of(text, cues)
            if not any(said):
                continue  # nothing stated: the report is an older message
            if final is None:
                final = said
                if said.told or said.changed or said.carried:
                    break
                continue
            # The final report only remarks (an answer to a side question, a status): the
            # change an earlier report made says what the session did, if one did.
            earlier = account(said)
            if earlier:
                break
        told, changed, fallback, carried, concluded = final or Outcome("", "", "", "", "")
        if changed and fallback and filed_as(fallback, cues) == "lessons":
            fallback = changed  # the report leads with what broke: the fix says what was done
        # A change the report said it would make and then made ("I'll fix the order of…" over
        # its diff) says the work where no account or commit does; a session that changed
        # nothing (a comparison, an audit) is summed up by what its report concludes.
        subjects_said = cap("; ".join(subjects[-3:]))
        return told or subjects_said or carried or earlier or concluded or fallback

    @staticmethod
    def main_turn(worked: list[int]) -> int:
        """The turn that changed most, the later of equals; -1 when there is none."""
        return max(range(len(worked)), key=lambda n: (worked[n], n), default=-1)

    @property
    def asked(self) -> str:
        """What the person asked for, in its first sentence; nothing where the prompt opens
        in the middle of a paste ("ION_ON_CHAIN env var)": an earlier session cut short)."""
        for unit in prose_units(self.first_prompt):
            sentence = body_of(unit)
            if (
                unit.kind not in ("heading", "title")
                and len(sentence) >= 10
                and not CODE_LIKE.search(sentence)
            ):
                end = ASK_END.search(sentence)
                first = sentence[: end.start()] if end and end.start() >= 10 else sentence
                return "" if opens_cut(first) else cap(first)
        return ""

    def render(self) -> str:
        """Write the handoff body, or '' when the session left nothing to hand off: nothing
        said or changed, or a run that failed (it must not hide the last good handoff)."""
        if self.failed or self.is_empty:
            return ""
        what = self.what
        if not (what or self.files or self.commits or self.decisions or self.unfinished):
            return ""
        return render_handoff(
            what=what,
            asked=self.asked,
            decisions=self.decisions,
            files=self.files,
            commits=self.commits,
            unfinished=self.unfinished,
            next_steps=self.next_steps,
            tokens=(self.input_tokens, self.output_tokens),
        )


def render_handoff(
    what: str,
    asked: str = "",
    decisions: Sequence[str] = (),
    files: Sequence[str] = (),
    commits: Sequence[str] = (),
    unfinished: Sequence[str] = (),
    next_steps: Sequence[str] = (),
    tokens: tuple[int, int] = (0, 0),
) -> str:
    """A handoff body: `**What:**`, then a list per non-empty part, then the token count."""
    parts = [f"**What:** {what or '(no summary given)'}"]
    if asked and asked != what:
        parts.append(f"**Asked:** {asked}")
    for title, items in (
        ("Decisions", decisions),
        ("Files changed", files),
        ("Commits", commits),
        ("Unfinished", unfinished),
        ("Next", next_steps),
    ):
        if items:
            listed = [f"- {item}" for item in items[:MAX_LISTED]]
            if len(items) > MAX_LISTED:
                listed.append(f"- … and {len(items) - MAX_LISTED} more")
            parts.append(f"**{title}:**\n" + "\n".join(listed))
    if tokens[0] or tokens[1]:
        parts.append(f"**Tokens:** {tokens[0]:,} in, {tokens[1]:,} out")
    return "\n\n".join(parts)[: MAX_CHARS * 12]


def filed_as(sentence: str, cues: Compiled) -> str:
    """The category a report's sentence is filed in ("decisions" for "The fix: …", "Moved the
    check before the clone"), or "" for one that files nothing."""
    found = classify(sentence, cues) or meaning(sentence, cues, listed=False)
    return found.category if found is not None else ""


OPENING_BOLD = re.compile(r"^\*\*([^*\n]+)\*\*")


def labels_a_problem(sentence: str) -> bool:
    """Whether a sentence opens with a label that files what broke ("Root cause:", "Issue:")."""
    return any(
        slot in ("lesson", "warning") and pattern.search(sentence)
        for pattern, slot, _, _ in compiled().lead_ins
    )


def summed_up(text: str) -> str:
    """The items a report lists under its own summary, joined: "Updated X; Created Y"."""
    items: list[str] = []
    # The indent of the summary's items once the first is read; before: -1 no summary yet, -2
    # the summary found, -3 its opening sentence said what was wrong (its items say the work).
    under = -1
    level = 0  # the summary's heading level: a deeper heading under it names a piece of work
    parts: list[str] = []  # those headings ("### 2. Buffer Pooling Implementation")
    for unit in prose_units(text):
        if unit.kind == "heading" and level and unit.indent < LEAF_LEVEL:
            if unit.indent <= level:
                break  # the summary's section ends
            title = SECTION_NUMBER.sub("", body_of(unit).strip("#: ")).strip()
            if SUMMARY_HEADING.match(title):
                level, parts = unit.indent, []  # "Work Completed" within "Session Summary"
            elif title and not compiled().checked.match(title):
                parts.append(title)
            continue
        # An item's opening bold goes as a pair ("**Updated `plan.md`** with:"), not one end.
        bare = OPENING_BOLD.sub(r"\1", body_of(unit).strip("#: ")).strip("*: ")
        if not items and under == -1:
            if SUMMARY_HEADING.match(bare) and (
                unit.kind in ("heading", "title") or unit.text.rstrip().endswith(":")
            ):
                under = -2  # the next list items are the summary's
                level = unit.indent if unit.kind == "heading" else 0
            continue
        if unit.kind != "bullet":
            # "## Session Summary" over "This session implemented X and completed Y.": the
            # summary's own first sentence says the work, before any list.
            opening = under == -2 and not parts and not items and unit.kind == "sentence"
            # "**Root cause:** …" opening a summary says what was wrong, not what was done:
            # the summary's items may say it (not the sentences after the cause).
            if opening and labels_a_problem(bare):
                under = -3
            elif opening and said_words(bare) >= STATEMENT_WORDS:
                return cap(body_of(unit))  # (`body_of` cleans it)
            if items and not parts:
                break
            continue
        if under in (-2, -3):
            under = unit.indent
        if unit.text.rstrip().endswith((":", "：")):
            # "Updated `plan.md` with:" (its own items follow): what it did, without the word
            # its items were to finish.
            bare = compiled().unfinished.sub("", bare).rstrip(" ,;")
        if unit.indent == under and len(bare.split()) >= UNFINISHED_KEPT:
            items.append(bare.rstrip(ITEM_ENDS))
        if len(items) == SUMMED_ITEMS and not parts:
            break
    return cap("; ".join(parts[:SUMMED_ITEMS] if parts else items))


def shorten(path: str) -> str:
    """Keep the last three segments of a path: enough to find the file, short in a prompt."""
    parts = [part for part in re.split(r"[\\/]", path) if part]
    return "/".join(parts[-3:])


class Outcome(NamedTuple):
    """What a report says of the work, by how it says it (`outcome_of`)."""

    told: str  # its account of the work, by an outcome cue: "I fixed…"
    changed: str  # its first change made: a statement filed as a decision
    fallback: str  # its first statement that is no status or task
    carried: str  # the first change it said it would make and went on to make (`carried_out`)
    concluded: str  # what it concludes: the first statement under "Recommendation" or such


def account(said: Outcome, announced: bool = True) -> str:
    """A report's account of the work (`outcome_of`), else (`announced`) the change it said it
    would make and made, else its change, unless it is a step it tells the reader to take ("Set
    your workspace to…")."""
    told, changed, _, carried, _ = said
    found = told or (carried if announced else "") or changed
    return "" if SECOND_PERSON.search(found) else found


def outcome_of(text: str, cues: Compiled) -> Outcome:
    """What a report says of the work (see `Outcome`)."""
    told = changed = fallback = carried = concluded = ""
    concluding = ""  # the heading over what a report concludes ("**Recommendation**")
    units = list(prose_units(text))
    for index, unit in enumerate(units):
        sentence = without_interjection(body_of(unit))
        if unit.kind in ("heading", "title"):
            heading = sentence.strip("#*:： ")
            concluding = heading if CONCLUSION.match(heading) else ""
        items = listed_after(units, index) if sentence.endswith((":", "：")) else []
        if not carried and unit.kind != "heading":
            # (a short line that ends in a colon reads as a title: "我来修改 `x.ts`：" over its diff)
            carried = carried_out(sentence, text, unit.text, cues)
        # A line alone that introduces a list reads as a title ("Improved the tests:"); with
        # its items it says what was done, as a sentence would.
        if unit.kind == "heading" or (unit.kind == "title" and not items) or len(sentence) < 15:
            continue
        if unit.in_table:
            continue  # a table's cells compare or list; they tell no outcome
        if items:
            # "Fixed in `setup.go` - now both functions:" says what was done in its list.
            sentence = with_items(sentence, items)
        elif sentence.endswith((":", "：")) and len(sentence.split()) >= STATEMENT_WORDS:
            sentence = introduction_stated(sentence, cues)  # "Added two tests to x:"
            if not sentence:
                continue
        if not is_statement(sentence, cues):
            continue
        if not concluded and (concluding or CONCLUDED.match(sentence)):
            # under its heading, the heading's word says what the sentence is
            concluded = cap(f"{concluding}: {sentence}" if concluding else sentence)
        # An outcome says what was done to what: "Fixed — one line in x" says neither.
        if said_words(sentence) < OUTCOME_WORDS:
            continue
        if not told and cues.outcome.search(sentence):
            told = cap(sentence)
        if not changed and filed_as(sentence, cues) == "decisions":
            changed = cap(sentence)
        if not fallback and not (
            STATUS_ONLY.search(sentence)
            or (classify(sentence, cues) or Candidate("", "", "")).category == "tasks"
        ):
            fallback = cap(sentence)
    return Outcome(told, changed, fallback, carried, concluded)


def carried_out(sentence: str, text: str, line: str, cues: Compiled) -> str:
    """The change a sentence (of `line`, in the report `text`) says the agent is about to make
    ("I'll fix the order of operations in `x.ts`:"), where the edit follows it at once (a chat
    export shows it as a code block) or the sentence goes on to say it is done ("我来修改…：
    完成！"): "Fix the order of operations in `x.ts`". Not where the message then offers it
    ("Want me to apply this?"): a proposal."""
    intent = cues.intent.search(sentence)
    if intent is None:
        return ""
    at = text.find(line)  # (only for an intent: a long report's every line is no search)
    after = text[at + len(line) :] if at >= 0 else ""
    said = sentence[: intent.start()] + sentence[intent.end() :]
    colon = INTRODUCED.search(said)
    change, made = (said[: colon.start()], said[colon.end() :]) if colon else (said, "")
    edited = after.lstrip().startswith(FENCE)
    offered = any(cues.offer.search(later.strip()) for later in after.splitlines())
    if not (edited or DONE.search(made)) or offered:
        return ""
    return cap(capitalised(change.strip())) if said_words(change) >= OUTCOME_WORDS else ""


def listed_after(units: list[Unit], index: int) -> list[str]:
    """The items of the list that `units[index]` introduces, at the list's own level (their
    sub-items detail them): a line's list is the block right after it, an item's list the
    items nested under it, up to its next sibling. A table is no such list."""
    intro = units[index]
    items: list[str] = []
    level = -1
    for unit in units[index + 1 :]:
        if unit.in_table:
            break
        if intro.kind == "bullet":
            if unit.block != intro.block or (unit.kind == "bullet" and unit.indent <= intro.indent):
                break
        elif unit.block != intro.block + 1:
            break
        if unit.kind != "bullet":
            if not unit.in_bullet:
                break
            continue
        if level == -1:
            level = unit.indent
        if unit.indent < level:
            break
        if unit.indent == level:
            items.append(body_of(unit).rstrip(ITEM_ENDS))
    return items


def with_items(introduction: str, items: list[str]) -> str:
    """A line that introduces a list with as many of its items as fit in one entry: "Fixed
    in `setup.go` - now both functions: load settings first; update only the given fields"."""
    stated = introduction.rstrip(":： ")
    if announces_only(stated):
        # "I've made the following changes:" says only that a list follows: its items say
        # what was done
        return cap("; ".join(items_within(items, MAX_CHARS)))
    return cap(f"{stated}: {'; '.join(items_within(items, MAX_CHARS - len(stated) - 2))}")


def items_within(items: list[str], most: int) -> list[str]:
    """As many of a list's items as fit in `most` characters, joined with "; " (one at least)."""
    kept: list[str] = []
    for item in items:
        if kept and len("; ".join([*kept, item])) > most:
            break
        kept.append(item)
    return kept


def titles(subject: str, account: str) -> bool:
    """Whether an account tells the change a subject names: it says most of the subject's
    words ("Improve Windows test reliability" in "Improved the Windows test reliability: …")."""
    return covers(content_words(subject), content_words(account), DONE_SHARE)
