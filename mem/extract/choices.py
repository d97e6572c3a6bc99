"""What the person chose when the agent asked them to choose (Claude Code's `AskUserQuestion`:
a question, options with what each means, and the answer). A choice made between named
options, with its reason and what it was chosen over, is a decision the person took; the
session's prose often says only "Going with option 1"."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

# How Claude Code words the answers in the tool's result: "Q"="A" for each question.
ANSWERED = re.compile(r'"(?P<question>[^"\n]{3,})"="(?P<answer>[^"\n]+)"')
ASKING_TOOLS = frozenset({"AskUserQuestion"})
SENTENCE_ENDS = (".", "!", "?", "。", "！", "？")


def answers_in(result: str) -> dict[str, str]:
    """The answers a tool result words, by question."""
    return {m["question"]: m["answer"] for m in ANSWERED.finditer(result)}


def chosen(questions: Any, answers: dict[str, Any]) -> Iterator[str]:
    """Each choice the person made, said as a decision: the question, the option taken and
    the options it was taken over, and what it means ("How should the fix reshape the guard?
    Remove guard entirely (over: Latch first refresh only): Always raise on error."). An
    answer typed instead of an option is the person's own words on the question."""
    for question in questions if isinstance(questions, list) else ():
        if not isinstance(question, dict) or not isinstance(question.get("question"), str):
            continue
        asked = question["question"]
        answer = answers.get(asked, answers.get(asked.strip()))
        if not isinstance(answer, str) or not answer.strip():
            continue  # not answered, or declined
        listed = question.get("options")
        options = [o for o in listed if isinstance(o, dict)] if isinstance(listed, list) else []
        labels = [str(o.get("label") or "").strip() for o in options]
        # One option is the answer; several (a multiple choice) are said joined by ", ".
        said_parts = {part.strip() for part in answer.split(",")}
        taken = [
            label for label in labels if label and (label == answer.strip() or label in said_parts)
        ]
        meant = [
            str(o.get("description") or "").strip()
            for o, label in zip(options, labels, strict=True)
            if label in taken
        ]
        others = [label for label in labels if label and label not in taken]
        said = f"{asked.strip()} {answer.strip()}"
        if taken and others:
            said += f" (over: {'; '.join(others)})"
        if any(meant):
            said += ": " + " ".join(m if m.endswith(SENTENCE_ENDS) else m + "." for m in meant if m)
        yield said
