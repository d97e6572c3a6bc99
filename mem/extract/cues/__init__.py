"""Cue words and heading names, one table per language; adding a language is adding a table.

Each table is a module beside this one that defines `CUES`. The extraction rules read the tables
through `compiled()`, which joins every language's alternatives into one pattern per slot, so a
sentence is matched once per slot however many languages there are.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from functools import cache
from types import MappingProxyType
from typing import NamedTuple

# The order in which sentence rules are tried: the first slot that matches files the sentence.
RULE_SLOTS: tuple[tuple[str, str, str], ...] = (
    # (slot, category, kind)
    ("task", "tasks", "task"),
    ("decision", "decisions", "decision"),
    ("rule", "facts", "convention"),  # "Always …", "This project uses …": before lessons' "never"
    ("warning", "lessons", "warning"),
    ("lesson", "lessons", "lesson"),
    ("preference", "facts", "preference"),
    ("convention", "facts", "convention"),
    ("pattern", "facts", "pattern"),
    ("fact", "facts", "fact"),
)
# Labels at the start of a unit ("Fix:", "Root cause:", "Still open:"), tried before the rules.
LEAD_IN_SLOTS: tuple[tuple[str, str, str], ...] = (
    ("task", "tasks", "task"),
    ("decision", "decisions", "decision"),
    ("warning", "lessons", "warning"),
    ("lesson", "lessons", "lesson"),
    ("fact", "facts", "fact"),
)
# Headings (and lines that end in a colon) that file what sits under them.
SECTION_SLOTS: tuple[tuple[str, str, str], ...] = (
    ("task", "tasks", "task"),
    ("lesson", "lessons", "lesson"),
    ("warning", "lessons", "warning"),
    ("decision", "decisions", "decision"),
    ("convention", "facts", "convention"),
    ("fact", "facts", "fact"),
    ("done", "", ""),  # what was done: the handoff's, not memory
    ("skip", "", ""),  # sections that hold nothing to keep (a summary's "All user messages")
)
# What a sentence means when no rule names it, by general signals rather than phrasings: read
# only in a knowledge document (an agent's final report, a plan, a summary), where every
# statement is meant to be kept and the question is only which category it belongs to. The
# first slot that matches files it; a statement that matches none is a fact.
MEANING_SLOTS: tuple[tuple[str, str, str], ...] = (
    # A failure that was there before the session's work ("reproduces on `main` too",
    # "pre-existing", "not caused by this PR"): the next session should not chase it.
    ("known", "lessons", "lesson"),
    ("open", "tasks", "task"),  # left to do: "not yet", "still needs", "uncommitted"
    ("cause", "lessons", "lesson"),  # cause and effect: "because", "so X hit", "due to"
    ("failure", "lessons", "lesson"),  # something wrong: "broke", "missing", "doesn't"
    ("choice", "decisions", "decision"),  # "instead of", "rather than", "reverted", "deferred"
    ("change", "decisions", "decision"),  # a change made: "added", "moved", "now returns"
)


WITHIN_SLOTS = ("task", "lesson", "warning")


class Cues(NamedTuple):
    """One language's cue words, as regular expression sources (matched case-insensitively)."""

    rules: dict[str, tuple[str, ...]]  # slot -> patterns a sentence is searched for
    lead_ins: dict[str, tuple[str, ...]]  # slot -> labels that open a unit
    sections: dict[str, tuple[str, ...]]  # slot -> heading names (whole heading)
    introducers: dict[str, tuple[str, ...]]  # slot -> a sentence ending in ":" naming what follows
    next_steps: tuple[str, ...]  # heading names of next steps (tasks the handoff lists as Next)
    narration: tuple[str, ...]  # the agent telling what it is doing now
    general: tuple[str, ...]  # how things work in general: documentation, not memory
    specific: tuple[str, ...]  # ... unless anchored in this project
    note_about_self: tuple[str, ...]  # "Note: I only ran the unit tests"
    decided_in_passing: tuple[str, ...]  # "I'll use X instead of Y" opens like narration
    user_preference: tuple[str, ...]  # how a person wants things done, said in a prompt
    user_fact: tuple[str, ...]  # what a person states about their project in a prompt
    why_question: tuple[str, ...]  # a person asking what went wrong: the answer is a lesson
    outcome: tuple[str, ...]  # a final report's opening: what the session did
    diagnosis: tuple[str, ...]  # after a failed command, a sentence that says what is wrong
    task_labels: tuple[str, ...] = ()  # "TODO:", "Next steps:": a task is stored without them
    sentence_ends: str = ""  # characters that end a sentence with no space after them
    meaning: Mapping[str, tuple[str, ...]] = MappingProxyType({})  # MEANING_SLOTS' signals
    # A person's own rule in a short prompt: "must", "never", "should not … ever".
    obligation: tuple[str, ...] = ()
    offer: tuple[str, ...] = ()  # the agent offering more: "Want me to…", "Soll ich…"
    # Words to the reader rather than about the project: "If you still see…", "please".
    to_reader: tuple[str, ...] = ()
    hedge: tuple[str, ...] = ()  # a guess is no memory: "might", "it's possible that"
    request: tuple[str, ...] = ()  # work asked for in a person's document: "Add a tab …"
    # How the person wants the work done from now on, said within a request: "…and follow our
    # PR template", "make sure each sentence is on its own line". What follows it is the rule.
    directive: tuple[str, ...] = ()
    # Words a line cannot end on and say something whole: "Added `on_dirty` parameter to:",
    # "Actually, since we committed, I should:" introduce a list, and state nothing alone.
    unfinished: tuple[str, ...] = ()
    # One of several options put forward, by its label: "Option B:", "方案 1：". What it says
    # is a proposal, not what was decided; the choice, once made, is said elsewhere.
    option: tuple[str, ...] = ()
    # A label that gives the reasons for what was said just before it: "- **Rationale:**"
    # under "- **Decision:** …", as decision records and agents' session notes write them.
    reasons: tuple[str, ...] = ()
    # A section that says how the work was checked ("Test plan", "Verification"): in a pull
    # request's description, the state of the work that day, not memory.
    checked: tuple[str, ...] = ()
    # The agent saying the change it is about to make ("I'll fix the order of…", "我来修改…",
    # "…を修正します"): the words to cut, so that what is left says the change. Where the same
    # message goes on to make it (its diff, its "Done!"), that is what the turn did.
    intent: tuple[str, ...] = ()


class Compiled(NamedTuple):
    rules: tuple[tuple[re.Pattern[str], str, str, str], ...]  # (pattern, slot, category, kind)
    lead_ins: tuple[tuple[re.Pattern[str], str, str, str], ...]
    sections: tuple[tuple[re.Pattern[str], str, str, str], ...]
    # The same names as words of a longer heading: "Root Cause of Failures", "Known Issues (2)".
    sections_within: tuple[tuple[re.Pattern[str], str, str, str], ...]
    introducers: tuple[tuple[re.Pattern[str], str, str, str], ...]
    next_steps: re.Pattern[str]
    narration: re.Pattern[str]
    general: re.Pattern[str]
    specific: re.Pattern[str]
    note_about_self: re.Pattern[str]
    decided_in_passing: re.Pattern[str]
    user_preference: re.Pattern[str]
    user_fact: re.Pattern[str]
    why_question: re.Pattern[str]
    outcome: re.Pattern[str]
    diagnosis: re.Pattern[str]
    task_label: re.Pattern[str]
    sentence_end: re.Pattern[str]
    meaning: tuple[tuple[re.Pattern[str], str, str, str], ...]
    obligation: re.Pattern[str]
    offer: re.Pattern[str]
    to_reader: re.Pattern[str]
    hedge: re.Pattern[str]
    request: re.Pattern[str]
    directive: re.Pattern[str]
    unfinished: re.Pattern[str]  # matches a text that ends on one of those words
    option: re.Pattern[str]  # matches a text that opens with an option's label
    reasons: re.Pattern[str]  # matches a reasons label and its colon; group "label"
    checked: re.Pattern[str]  # a heading of how the work was checked
    intent: re.Pattern[str]  # the words that announce a change about to be made


# Abbreviations a full stop ends without ending the sentence, each a fixed-width lookbehind.
ABBREVIATIONS = "".join(
    rf"(?<!\b{re.escape(word)})"
    for word in (
        "e.g.",
        "E.g.",
        "i.e.",
        "I.e.",
        "vs.",
        "cf.",
        "z.B.",
        "d.h.",
        "u.a.",
        "bzw.",
        "ca.",
    )
)


def tables() -> tuple[Cues, ...]:
    from mem.extract.cues import de, en, ja, pt, zh

    return (en.CUES, pt.CUES, zh.CUES, ja.CUES, de.CUES)


def either(patterns: list[str]) -> re.Pattern[str]:
    """One pattern that matches where any of `patterns` does.

    Python's regex engine tries every alternative at every position of a sentence. Branches
    anchored at the start are grouped behind one `^`, and branches that start at a word behind
    one `\\b(?=\\w)`, so most positions are passed over after a single test: the same matches,
    about three times faster on real sessions.
    """
    anchored: list[str] = []
    at_words: list[str] = []
    others: list[str] = []
    for pattern in patterns:
        for branch in branches(pattern):
            if branch.startswith("^"):
                anchored.append(branch[1:])
            elif branch.startswith("\\b") and starts_with_letter(branch[2:]):
                at_words.append(branch[2:])
            else:
                others.append(branch)
    parts = []
    if anchored:
        parts.append("^(?:" + "|".join(anchored) + ")")
    if at_words:
        parts.append("\\b(?=\\w)(?:" + "|".join(at_words) + ")")
    parts += others
    return re.compile("|".join(parts) or r"(?!)", re.IGNORECASE)


def starts_with_letter(pattern: str) -> bool:
    """Whether every match of `pattern` starts with a letter, as far as a plain reading tells:
    a letter, or a non-capturing group each of whose branches starts with one. (`'ll` does
    not: `\\b'll` matches at the end of a word, and must keep its own branch.)"""
    if pattern[:1].isalpha():
        return True
    if not pattern.startswith("(?:"):
        return False
    depth = 0
    for index, char in enumerate(pattern):
        if char == "(" and pattern[index - 1 : index] != "\\":
            depth += 1
        elif char == ")" and pattern[index - 1 : index] != "\\":
            depth -= 1
            if depth == 0:
                inner = pattern[3:index]
                return all(branch[:1].isalpha() for branch in branches(inner))
    return False


def branches(pattern: str) -> list[str]:
    """Split a pattern at its top-level `|` (not inside a group or a character class)."""
    found: list[str] = []
    depth = start = 0
    escaped = in_class = False
    for index, char in enumerate(pattern):
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif in_class:
            in_class = char != "]"
        elif char == "[":
            in_class = True
        elif char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
        elif char == "|" and depth == 0:
            found.append(pattern[start:index])
            start = index + 1
    found.append(pattern[start:])
    return found


def heading(names: list[str]) -> re.Pattern[str]:
    """A heading (or a short `Title:` line) that is one of `names`, give or take a number, a
    marker such as `✅` or `[OK]`, emphasis and a trailing colon or parenthesis."""
    return re.compile(
        r"^(?:#+\s*)?(?:\d+[.)]\s*)?\**\s*(?:"
        + "|".join(names)
        + r")(?:\s*\([^)]*\))?\s*\**\s*[:：]?"
        r"\s*\**$",
        re.IGNORECASE,
    )


def within(names: list[str]) -> re.Pattern[str]:
    """One of `names` as whole words anywhere in a heading."""
    return re.compile(r"(?<!\w)(?:" + "|".join(names) + r")(?!\w)", re.IGNORECASE)


@cache
def lowered() -> Compiled:
    """`compiled()`, with the patterns `classify` tries on every sentence compiled for text
    already lowercased and without IGNORECASE: the same matches, a third faster, since the
    engine passes over an alternative whose first letter differs only when it compares letters
    as they are. (The other patterns ignore case: on lowercased text they match as before.)"""
    cues = compiled()

    def low(pattern: re.Pattern[str]) -> re.Pattern[str]:
        return re.compile(lower_source(pattern.pattern), pattern.flags & ~re.IGNORECASE)

    return cues._replace(
        note_about_self=low(cues.note_about_self),
        lead_ins=tuple((low(p), slot, cat, kind) for p, slot, cat, kind in cues.lead_ins),
        narration=low(cues.narration),
        decided_in_passing=low(cues.decided_in_passing),
        general=low(cues.general),
        specific=low(cues.specific),
        hedge=low(cues.hedge),
        rules=tuple((low(p), slot, cat, kind) for p, slot, cat, kind in cues.rules),
        meaning=tuple((low(p), slot, cat, kind) for p, slot, cat, kind in cues.meaning),
    )


def lower_source(pattern: str) -> str:
    """A pattern's source with its letters in lower case, escapes (`\\S`, `\\B`) and group
    names kept as written: on lowercased text it matches where the source matched, ignoring
    case, on the text as written."""
    out: list[str] = []
    index = 0
    while index < len(pattern):
        char = pattern[index]
        if char == "\\":
            out.append(pattern[index : index + 2])
            index += 2
        elif pattern.startswith("(?P<", index):
            end = pattern.index(">", index) + 1
            out.append(pattern[index:end])
            index = end
        else:
            out.append(char.lower())
            index += 1
    return "".join(out)


@cache
def compiled() -> Compiled:
    """Every language's cues joined into one pattern per slot."""
    languages = tables()

    def slots(
        field: str,
        order: tuple[tuple[str, str, str], ...],
        build: Callable[[list[str]], re.Pattern[str]] = either,
    ) -> tuple[tuple[re.Pattern[str], str, str, str], ...]:
        joined = []
        for slot, category, kind in order:
            patterns = [p for cues in languages for p in getattr(cues, field).get(slot, ())]
            if patterns:
                joined.append((build(patterns), slot, category, kind))
        return tuple(joined)

    def alternatives(field: str) -> list[str]:
        return [p for cues in languages for p in getattr(cues, field)]

    def one(field: str) -> re.Pattern[str]:
        return either(alternatives(field))

    ends = "".join(cues.sentence_ends for cues in languages)
    # A full stop ends a sentence before a capital ("e.g. `uv`" goes on); a question or an
    # exclamation mark ends one whatever follows, since people type prompts in lower case.
    # A number that counts items ("Next step: 1. Rebuild") ends no sentence.
    # Nor does an abbreviation's ("(e.g. Pi `deploy`)", "z.B. Redis", "vs. Postgres"), nor a
    # mark that stands alone as a symbol before a word in lower case ("The ! means negation").
    sentence_end = (
        r"(?<=[.!?])(?<!:\s\d\.)(?<!:\s\d\d\.)"
        + ABBREVIATIONS
        + r"\s+(?=[\"'(\[`*]?[A-ZÀ-Ý0-9])|(?<=[!?])(?<!\s[!?])\s+(?=[a-zà-ý])"
    )
    if ends:
        # "…してください。と表示される": a full stop before the quoting particle ends a quote,
        # not the sentence.
        sentence_end += rf"|(?<=[{re.escape(ends)}])\s*(?=\S)(?!と)"
    return Compiled(
        rules=slots("rules", RULE_SLOTS),
        lead_ins=slots("lead_ins", LEAD_IN_SLOTS),
        sections=slots("sections", SECTION_SLOTS, heading),
        # Within a longer heading only the names that decide alone: what is left, what broke,
        # what to beware of ("Nome da solução", "README fix" file nothing).
        sections_within=slots(
            "sections", tuple(s for s in SECTION_SLOTS if s[0] in WITHIN_SLOTS), within
        ),
        introducers=slots("introducers", SECTION_SLOTS),
        next_steps=heading([p for cues in languages for p in cues.next_steps]),
        narration=one("narration"),
        general=one("general"),
        specific=one("specific"),
        note_about_self=one("note_about_self"),
        decided_in_passing=one("decided_in_passing"),
        user_preference=one("user_preference"),
        user_fact=one("user_fact"),
        why_question=one("why_question"),
        outcome=one("outcome"),
        diagnosis=one("diagnosis"),
        task_label=re.compile(
            r"^(?:" + "|".join(alternatives("task_labels")) + r")\s*[:\-：]\s*",
            re.IGNORECASE,
        ),
        sentence_end=re.compile(sentence_end),
        meaning=slots("meaning", MEANING_SLOTS),
        obligation=one("obligation"),
        offer=one("offer"),
        to_reader=one("to_reader"),
        hedge=one("hedge"),
        request=one("request"),
        directive=one("directive"),
        unfinished=re.compile(
            r"(?<!\w)(?:" + "|".join(alternatives("unfinished")) + r")\W*$",
            re.IGNORECASE,
        ),
        option=re.compile(
            r"^(?:" + "|".join(alternatives("option")) + r")\s*(?:[:：.)—–-]|$)",
            re.IGNORECASE,
        ),
        reasons=re.compile(
            r"^(?P<label>" + "|".join(alternatives("reasons")) + r")\s*[:：]\s*",
            re.IGNORECASE,
        ),
        checked=heading(alternatives("checked")),
        intent=one("intent"),
    )
