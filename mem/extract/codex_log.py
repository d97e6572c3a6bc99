"""Read the plain-text log of `codex exec` (its progress on stderr, kept with the final answer):
a banner, then blocks headed `user`, `codex`, `thinking`, `exec`, `apply patch`, `tokens used`."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from mem.extract.formats import COMMIT_LINE, Message, without_recall

HEADERS = {"user": "user", "codex": "assistant", "thinking": "thinking", "exec": "tool"}
BANNER = re.compile(r"^OpenAI Codex v\S+")
SESSION = re.compile(r"^session id:\s*(?P<id>\S+)")
# Lines of the harness, never prose: hook progress, attempt separators, banner fields.
CHATTER = re.compile(
    r"^(?:hook: \S+(?: Completed)?|--- attempt \d+ ---|-{4,}|workdir:|model:|provider:|approval:"
    r"|sandbox:|reasoning (?:effort|summaries):|npm (?:notice|warn)\b)"
)
PATCH_FILE = re.compile(r"^(?:/\S+|[\w.-]+/\S+)$")
TOKENS = re.compile(r"^\d{1,3}(?:,\d{3}){0,4}$|^\d{1,15}$")


def read(lines: Iterable[str]) -> Iterator[Message]:
    """Yield the prompt, the agent's messages (the final answer, printed first, only once), the
    files its patches touched, commits in command output and the tokens used."""
    role = "final"  # before the banner: the final answer `codex exec` printed on stdout
    prose: list[str] = []
    session = ""
    seen: set[str] = set()  # the final answer comes again at the end of the log
    final = ""  # printed first, but the last word: read it last, unless the log repeats it

    def flush() -> Iterator[Message]:
        nonlocal final
        text = "".join(prose).strip()
        prose.clear()
        if role == "final":
            final = text
        elif role in ("assistant", "user") and text and text not in seen:
            seen.add(text)
            yield Message(role, text + "\n", session=session)

    for line in without_recall(lines):
        stripped = line.strip()
        if stripped in HEADERS or stripped in ("apply patch", "tokens used") or BANNER.match(line):
            yield from flush()
            role = HEADERS.get(stripped, stripped if not BANNER.match(line) else "banner")
            continue
        found = SESSION.match(stripped)
        if found:
            session = found["id"]
            continue
        if CHATTER.match(stripped) or (role == "banner"):
            continue
        if role == "tokens used":
            if TOKENS.match(stripped):
                yield Message("assistant", output_tokens=int(stripped.replace(",", "")))
            role = ""
            continue
        if role == "apply patch":
            if PATCH_FILE.match(stripped) and not stripped.startswith(("diff", "index")):
                yield Message("assistant", files=(stripped,), session=session)
                role = ""  # the diff that follows is code
            continue
        if role in ("tool", "", "thinking") or stripped.startswith(("diff --git", "index ")):
            commit = COMMIT_LINE.match(stripped)
            if commit:
                yield Message("assistant", commits=(f"{commit['sha'][:7]} {commit['subject']}",))
            if stripped.startswith("diff --git"):
                yield from flush()
                role = ""
            continue
        prose.append(line)
    yield from flush()
    if final and final not in seen:
        yield Message("assistant", final + "\n", session=session)
