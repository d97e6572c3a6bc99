"""Sum a session up for the next one: what, decisions, files, commits, unfinished, next."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from mem.extract.formats import Message
from mem.extract.patterns import MAX_CHARS, Candidate, cap, clean, prose_units

SUMMARY_LINE = re.compile(
    r"^\s*\**(?:summary|resumo)\**\s*:\s*(?P<text>.+)$", re.IGNORECASE | re.MULTILINE
)
MAX_LISTED = 12  # items per list in a handoff; the rest are counted


@dataclass
class SessionSummary:
    """Accumulates what a session did while its output streams past."""

    summary_line: str = ""
    last_text: str = ""
    first_prompt: str = ""
    decisions: list[str] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    commits: list[str] = field(default_factory=list)
    unfinished: list[str] = field(default_factory=list)
    next_steps: list[str] = field(default_factory=list)
    input_tokens: int = 0
    output_tokens: int = 0

    def drop_commits(self, shas: set[str]) -> None:
        """Forget commits the session took back (`/undo`)."""
        self.commits = [commit for commit in self.commits if commit.split(" ", 1)[0] not in shas]

    def take(self, message: Message, candidates: list[Candidate]) -> None:
        """Fold one message and what was extracted from it into the summary."""
        self.input_tokens += message.input_tokens
        self.output_tokens += message.output_tokens
        for path in message.files:
            short = shorten(path)
            if short not in self.files:
                self.files.append(short)
        for commit in message.commits if message.role != "undo" else ():
            if commit not in self.commits:
                self.commits.append(commit)
        if message.role == "user" and not self.first_prompt and message.text.strip():
            self.first_prompt = message.text
        if message.role in ("assistant", "result") and message.text.strip():
            found = SUMMARY_LINE.findall(message.text)
            if found:
                self.summary_line = cap(clean(found[-1]))
            self.last_text = message.text
        for candidate in candidates:
            target = {"decisions": self.decisions}.get(candidate.category)
            if candidate.category == "tasks":
                target = self.next_steps if candidate.is_next_step else self.unfinished
            if target is not None and candidate.text not in target:
                target.append(candidate.text)

    @property
    def what(self) -> str:
        """The `SUMMARY:` line, else the first sentence of the agent's final message, else what
        the person asked for."""
        if self.summary_line:
            return self.summary_line
        for text, lead in ((self.last_text, ""), (self.first_prompt, "Asked: ")):
            for unit in prose_units(text):
                if unit.kind in ("heading", "title"):
                    continue
                sentence = clean(unit.text.lstrip("-*+ "))
                if len(sentence) >= 15:
                    return lead + cap(sentence)
        return ""

    def render(self) -> str:
        """Write the handoff body, or '' when the session left nothing to hand off."""
        if not (self.what or self.files or self.commits or self.decisions or self.unfinished):
            return ""
        return render_handoff(
            what=self.what,
            decisions=self.decisions,
            files=self.files,
            commits=self.commits,
            unfinished=self.unfinished,
            next_steps=self.next_steps,
            tokens=(self.input_tokens, self.output_tokens),
        )


def render_handoff(
    what: str,
    decisions: Sequence[str] = (),
    files: Sequence[str] = (),
    commits: Sequence[str] = (),
    unfinished: Sequence[str] = (),
    next_steps: Sequence[str] = (),
    tokens: tuple[int, int] = (0, 0),
) -> str:
    """A handoff body: `**What:**`, then a list per non-empty part, then the token count."""
    parts = [f"**What:** {what or '(no summary given)'}"]
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


def shorten(path: str) -> str:
    """Keep the last three segments of a path: enough to find the file, short in a prompt."""
    parts = [part for part in re.split(r"[\\/]", path) if part]
    return "/".join(parts[-3:])
