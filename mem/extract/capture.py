"""Walk a session's messages in order and decide what to mine from each, with the context of
the ones before it: the question a reply answers, the command that just failed, the pending
tasks a compaction summary listed and whether work followed it."""

from __future__ import annotations

import re
from collections.abc import Iterator

from mem.extract import patterns
from mem.extract.checks import is_toolchain_default, kind_of
from mem.extract.formats import Message
from mem.extract.patterns import Candidate
from mem.model import MAX_COMMIT_CANDIDATES

MIN_REPLY = 200  # shorter assistant text before the reply (a thought, a tool note) is not it
SHORT_ANSWER = 1500  # a longer reply to "what went wrong?" is a report: its rules decide
# A compaction summary's (or the person's) tasks stand only if the session stopped there: the
# work that follows them is that list being done, and only the final report says what is left.
WORK_AFTER_SUMMARY = 2
HELD_CLAIMS = 100  # the latest claims and tasks a later message may take back
HELD_COMMITS = 100  # the latest commits whose candidates an undo may take back
COMMIT_WHY = "a commit subject the agent wrote"
CHECKS_WHY = "the commands the session ran to test, lint or build, and that succeeded"
MAX_CHECKS = 4  # more is a session's every narrow run, not how the project is checked
DECIDED = ("decision cue", "label")  # the whys of a decision a rule's words state
# What prose on the way keeps by meaning alone: causes, choices, failures known to be older.
PROSE_SIGNALS = frozenset({"cause", "choice", "known"})
THINKING_SIGNALS = frozenset({"choice", "known"})
# Commits that decide nothing: merges, work in progress, and what only formats or lints
# ("style: Format code with linter", "Run prettier"): no behaviour changed.
ROUTINE_SUBJECT = re.compile(
    r"^(?:merge\b|wip\b|fixup!|squash!|revert\b|style(?:\([^)]*\))?!?:"
    # the whole subject: "Format code", "Reformatted all files with black", "Fix lint"
    r"|(?:(?:chore|ci|build)(?:\([^)]*\))?:\s*)?(?:(?:re)?format(?:ted|ting)?\s+(?:the\s+)?"
    r"(?:code(?:base)?|files?|sources?|everything|all(?:\s+files)?)(?:\s+with\s+\S+)?"
    r"|(?:fix(?:ed)?\s+)?lint(?:ing)?(?:\s+(?:errors|issues|warnings|fixes))?"
    r"|run\s+(?:the\s+)?(?:formatter|linter|prettier|black|ruff\s+format|gofmt|cargo\s+fmt))\s*$)",
    re.IGNORECASE,
)


class Capture:
    """The mining state of one session."""

    def __init__(self) -> None:
        self.asked_why = False  # the person's last prompt asked what went wrong
        self.undone: set[str] = set()  # commits taken back (aider's `/undo`)
        self.since_commit: list[Candidate] = []  # mined since the last commit
        self.by_commit: dict[str, list[Candidate]] = {}  # what led to each commit
        self.retracted: list[Candidate] = []  # what led to a commit that was taken back
        # Tasks a compaction summary or the person listed, until the end: each stands only if
        # little work followed it (`pending_at`: the work done when it was listed).
        self.pending: list[Candidate] = []
        self.pending_at: list[int] = []
        self.work = 0  # the agent's messages so far that said or changed something
        self.open_tasks: list[Candidate] = []  # tasks the agent left, until it does them
        self.claims: list[Candidate] = []  # what was found so far, until taken back
        # The last assistant text (maybe a report) and the messages without text after it.
        self.held: list[tuple[Message, str]] = []
        self.checks: list[str] = []  # the commands that checked the work, in order, once each

    def follow(self, message: Message) -> None:
        """Keep the context of a message committed before, without mining it again."""
        self.note_checks(message)
        if message.role == "undo":
            self.undone.update(message.commits)
        elif message.role == "user" and message.text.strip():
            self.asked_why = patterns.is_why_question(message.text)
        elif message.role == "assistant" and len(message.text) >= MIN_REPLY:
            self.asked_why = False

    def mine(self, message: Message, text: str) -> list[Candidate]:
        """The candidates of the messages read so far that can be judged now (the text already
        redacted). The agent's last words before the person speaks again are its report for
        the request, so an assistant message waits for the next message to know if it was."""
        self.note_checks(message)
        found: list[Candidate] = []
        if message.role == "assistant" and text.strip():
            found += self.release(report=False)
            self.held = [(message, text)]
            return found
        if self.held and message.role == "assistant":
            self.held.append((message, text))  # its edits and commits: judged after it, in order
            return found
        if message.role in ("user", "result", "undo") and (text.strip() or message.role != "user"):
            found += self.release(report=message.role != "result" or not text.strip())
        return found + self.judged(message, text)

    def release(self, report: bool) -> list[Candidate]:
        """Mine the held assistant message, as a report or as prose on the way to one, then
        the edits and commits that came after it."""
        held, self.held = self.held, []
        found: list[Candidate] = []
        for number, (message, text) in enumerate(held):
            found += self.judged(message, text, report and number == 0)
        return found

    def judged(self, message: Message, text: str, report: bool = False) -> list[Candidate]:
        taken_back: list[Candidate] = []
        if message.role == "assistant" and text.strip() and (self.open_tasks or self.claims):
            marks = patterns.marked(text)
            if marks:
                self.close_tasks_done(marks)
                taken_back = self.take_back_corrected(marks)
        found = self.mined(message, text, report)
        self.open_tasks = [*self.open_tasks, *(c for c in found if c.category == "tasks")]
        self.claims = [*self.claims, *(c for c in found if c.category != "tasks")]
        # Only the latest are held against what follows: a session is corrected soon after.
        self.open_tasks, self.claims = self.open_tasks[-HELD_CLAIMS:], self.claims[-HELD_CLAIMS:]
        found = taken_back + found
        if message.role == "user":
            self.since_commit = []  # a new request: what follows leads to the next commit
        if found and message.role == "assistant":
            # What the agent says of a commit it names goes with that commit, if taken back.
            for sha in [sha for sha in self.by_commit if sha in text]:
                self.by_commit[sha] = [*self.by_commit[sha], *found]
        # A log with no request and no commit would hold every candidate: only the latest can
        # still be taken back with the commit they lead to.
        self.since_commit = [*self.since_commit, *found][-MAX_COMMIT_CANDIDATES:]
        if message.role == "undo":
            # A change taken back (`/undo`): what the agent said of it is no memory either.
            self.undone.update(message.commits)
            for sha in message.commits:
                self.retracted += self.by_commit.pop(sha, [])
        elif message.commits:
            for sha in (commit.split(" ", 1)[0] for commit in message.commits):
                self.by_commit[sha] = self.since_commit
                while len(self.by_commit) > HELD_COMMITS:  # an undo takes back a recent one
                    del self.by_commit[next(iter(self.by_commit))]
            self.since_commit = []
        return found

    def mined(self, message: Message, text: str, report: bool = False) -> list[Candidate]:
        """The candidates of one message, each saying where it was found and why."""
        found = self.found_in(message, text, report)
        origin = origin_of(message, text, report)
        return [
            c if c.why == COMMIT_WHY else c._replace(why=f"{origin}: {c.why}" if c.why else origin)
            for c in found
            if not patterns.says_nothing(c.text)  # a line of a form, to fill or answered "none"
        ]

    def found_in(self, message: Message, text: str, report: bool = False) -> list[Candidate]:
        if message.role == "assistant":
            self.work += bool(text.strip() or message.files or message.commits)
        if message.role == "assistant" and message.commits:
            return [*self.committed(message), *self.found_in(message._replace(commits=()), text)]
        if not text.strip():
            return []
        if message.role == "user":
            self.asked_why = patterns.is_why_question(text)
            # What the person asks for or lists (in a prompt, an earlier session's summary, an
            # issue) is work the session that follows often does: its tasks wait for the end.
            found = list(patterns.from_person(text))
            self.wait([c for c in found if c.category == "tasks"])
            return [c for c in found if c.category != "tasks"]
        if message.role == "summary":
            return list(self.from_summary(text))
        if message.role == "chosen":
            return [Candidate("decisions", "decision", patterns.cap(text), why="")]
        if message.role in ("commit", "posted"):
            # What a commit's message says under its subject, what a pull request or an issue
            # the agent opened says: notes it wrote for a reader, read as a report is. The
            # boxes a pull request's form leaves unticked are the options it did not choose
            # ("- [ ] Breaking change"); what is left open, such a text says in words.
            # How a pull request was tested is its state that day, not memory.
            text = patterns.without_checked(text) if message.role == "posted" else text
            noted = patterns.extract(text, report=True)
            return [c for c in noted if not c.why.startswith(patterns.UNTICKED)]
        if message.role == "thinking":
            # The way to an answer: what it plans is said again in the answer, if it holds.
            # A cause its rules name ("the stale `bin/so` is picked up because its folder is
            # on PATH") and a choice it says it makes ("I'll use SSH signing, simpler in CI
            # than GPG") are often said nowhere else. A bare "so" or "because" is not enough
            # here: thinking reasons on the way ("…, so it's safe to proceed").
            thought = patterns.extract(text, signals=THINKING_SIGNALS)
            return [c for c in thought if thought_kept(c)]
        default = None
        if self.asked_why and len(text) <= SHORT_ANSWER:
            default = ("lessons", "lesson")  # the answer to "what went wrong?" explains a cause
        if len(text) >= MIN_REPLY:
            self.asked_why = False  # the reply came; thinking before it does not count
        # On the way to a report, the agent's prose keeps what its rules name and the causes
        # it finds ("X, so Y hit <error>"): a diagnosis is said once, before the fix.
        signals = PROSE_SIGNALS if message.role == "assistant" else frozenset()
        found = list(patterns.extract(text, default, report=report, signals=signals))
        if message.role == "assistant":
            found += patterns.cited_rules(text)
        if message.after_failure and not found:
            found = patterns.diagnosis(text)
        return found

    @staticmethod
    def committed(message: Message) -> Iterator[Candidate]:
        """A commit's subject is a decision the agent wrote down itself: the change it made,
        in a line meant for the next reader. Merges and work in progress say nothing."""
        for commit in message.commits:
            subject = commit.partition(" ")[2]
            if len(subject) >= patterns.MIN_CHARS and not ROUTINE_SUBJECT.match(subject):
                yield Candidate("decisions", "decision", patterns.cap(subject), why=COMMIT_WHY)

    def from_summary(self, text: str) -> Iterator[Candidate]:
        """A compaction summary, mined section by section; its pending tasks wait for the end,
        since the session that follows often does them."""
        found = list(patterns.extract(text, report=True))
        self.wait([c for c in found if c.category == "tasks"])
        yield from (c for c in found if c.category != "tasks")

    def wait(self, tasks: list[Candidate]) -> None:
        self.pending += tasks
        self.pending_at += [self.work] * len(tasks)

    def take_back_corrected(self, marks: list[tuple[str, frozenset[str]]]) -> list[Candidate]:
        """Claims a later message takes back: one it says is wrong is dropped; a decision it
        says was reverted or did not work becomes a lesson of what not to do."""
        lessons: list[Candidate] = []
        if all(how == "done" for how, _ in marks):
            return lessons  # nothing in the message takes anything back
        for claim in list(self.claims):
            words = patterns.content_words(claim.text)
            how = next(
                (
                    how
                    for how, said in marks
                    if how != "done" and patterns.covers(words, said, patterns.CORRECTED_SHARE)
                ),
                "",
            )
            if not how:
                continue
            self.claims.remove(claim)
            self.retracted.append(claim)
            if how == "revert" and claim.category == "decisions":
                lessons.append(
                    claim._replace(
                        category="lessons",
                        kind="lesson",
                        text=patterns.cap(f"Tried, then taken back: {claim.text}"),
                        why=f"{claim.why}; a later message says it was reverted or did not work",
                    )
                )
        return lessons

    def close_tasks_done(self, marks: list[tuple[str, frozenset[str]]]) -> None:
        """A task the agent left and a later message reports done ("Rebuilt the index" after
        "Next: rebuild the index") is no longer open: it is taken back."""
        said = [words for how, words in marks if how == "done"]
        if not said:
            return
        done = [
            task
            for task in self.open_tasks
            if any(
                patterns.covers(patterns.content_words(task.text), words, patterns.DONE_SHARE)
                for words in said
            )
        ]
        if done:
            self.retracted += done
            self.open_tasks = [task for task in self.open_tasks if task not in done]

    def note_checks(self, message: Message) -> None:
        self.checks += [check for check in message.checks if check not in self.checks]

    def finish(self) -> list[Candidate]:
        """What only the whole session tells: its last report, the pending tasks it left, the
        commands it checked its work with."""
        found = self.release(report=True)
        return (
            found
            + [
                task
                for task, at in zip(self.pending, self.pending_at, strict=True)
                if self.work - at < WORK_AFTER_SUMMARY
            ]
            + self.checked()
        )

    def checked(self) -> list[Candidate]:
        """The commands the session ran to test, lint or build, each a fact of how the next
        session checks its work ("Tests: `mise run test`"): the most general few, in the
        order they were run. Each is said the same way whenever it is run, so a transcript
        committed again as it grows keeps each once, and another session's run reinforces it."""
        # A project's own scripts say how it is checked; beside them, the toolchain's default
        # commands (`go build ./...`) say what any project of its language would run.
        checks = [check for check in self.checks if not is_toolchain_default(check)]
        checks = checks or self.checks
        shortest = sorted(checks, key=len)[:MAX_CHECKS]
        return [
            Candidate("facts", "fact", f"{kind_of(check)}: `{check}`", why=CHECKS_WHY)
            for check in checks
            if check in shortest
        ]


def thought_kept(candidate: Candidate) -> bool:
    """Whether what the agent's thinking says is memory: a lesson that names its cause, or a
    decision a rule's words state with its reason ("I'll use X since it's simpler than Y");
    not a bare plan ("I'll use a throwaway key"), nor one filed by its heading or by a change
    it mentions in passing."""
    if candidate.category == "lessons":
        return patterns.names_cause(candidate.text) or candidate.why.startswith("known signal")
    return (
        candidate.category == "decisions"
        and candidate.why.startswith(DECIDED)
        and patterns.gives_reason(candidate.text)
    )


def origin_of(message: Message, text: str, report: bool) -> str:
    """Who wrote what a candidate was found in, in words for `mem commit --explain`."""
    if message.role == "user":
        return "a document the person gave" if patterns.is_document(text) else "the person's words"
    if message.role == "summary":
        return "a compaction summary"
    if message.role == "commit":
        return "a commit message the agent wrote"
    if message.role == "chosen":
        return "the person's answer to the agent's question: a choice between options"
    if message.role == "posted":
        return "what the agent posted (a pull request, an issue, a comment)"
    if message.role == "result" or report:
        return "the agent's report"
    if message.role == "thinking":
        return "the agent's thinking"
    return "the agent's prose"
