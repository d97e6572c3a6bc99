"""A choice the person made when the agent asked them to choose between options is a decision
they took: the option, what it was chosen over, and what it means."""

from __future__ import annotations

import json

from mem.extract import formats
from mem.extract.capture import Capture
from mem.extract.choices import answers_in, chosen

QUESTIONS = [
    {
        "question": "How should the fix reshape the cold-start guard?",
        "header": "Fix approach",
        "multiSelect": False,
        "options": [
            {"label": "Remove guard entirely", "description": "Always raise UpdateFailed on error"},
            {"label": "Latch first refresh only", "description": "Return {} once, then raise"},
        ],
    },
    {
        "question": "GA4のタグ構成をどうしますか？",
        "header": "GA構成",
        "options": [
            {"label": "Consent Mode v2 標準に修正", "description": "同意前でも計測する。"},
            {"label": "現状維持", "description": "同意まで送らない。"},
        ],
    },
]


def test_each_answered_question_is_a_choice_with_what_it_was_chosen_over_and_means():
    answers = {
        QUESTIONS[0]["question"]: "Remove guard entirely",
        QUESTIONS[1]["question"]: "Consent Mode v2 標準に修正",
    }
    assert list(chosen(QUESTIONS, answers)) == [
        (
            "How should the fix reshape the cold-start guard? Remove guard entirely "
            "(over: Latch first refresh only): Always raise UpdateFailed on error."
        ),
        "GA4のタグ構成をどうしますか？ Consent Mode v2 標準に修正 (over: 現状維持): 同意前でも計測する。",
    ]


def test_a_typed_answer_is_said_as_typed_and_an_unanswered_question_says_nothing():
    typed = {QUESTIONS[0]["question"]: "Keep the guard but log it"}
    assert list(chosen(QUESTIONS, typed)) == [
        "How should the fix reshape the cold-start guard? Keep the guard but log it"
    ]
    assert list(chosen(QUESTIONS, {})) == []
    assert list(chosen("not a list", typed)) == []
    assert list(chosen([{"question": 3}, "x"], typed)) == []


def test_the_answers_are_read_from_the_words_of_the_tools_result_too():
    result = (
        'Your questions have been answered: "How should the fix reshape the cold-start guard?"='
        '"Remove guard entirely" selected preview:\nraise UpdateFailed. You can now continue.'
    )
    assert answers_in(result) == {
        "How should the fix reshape the cold-start guard?": "Remove guard entirely"
    }


def claude_session(answered: bool, structured: bool) -> list[formats.Message]:
    question = QUESTIONS[0]["question"]
    result = {
        "type": "tool_result",
        "tool_use_id": "q1",
        "content": f'Your questions have been answered: "{question}"="Remove guard entirely".'
        if answered
        else "The user doesn't want to proceed with this tool use.",
        "is_error": not answered,
    }
    answer_line = {"type": "user", "message": {"role": "user", "content": [result]}}
    if structured and answered:
        answer_line["toolUseResult"] = {"answers": {question: "Remove guard entirely"}}
    lines = [
        {"type": "user", "message": {"role": "user", "content": "fix bug 2"}},
        {
            "type": "assistant",
            "message": {
                "role": "assistant",
                "content": [
                    {
                        "type": "tool_use",
                        "id": "q1",
                        "name": "AskUserQuestion",
                        "input": {"questions": QUESTIONS[:1]},
                    }
                ],
            },
        },
        answer_line,
    ]
    text = [json.dumps({"sessionId": "s1", "cwd": "/r", **line}) for line in lines]
    return list(formats.read(formats.detect(text), text))


def test_a_claude_code_session_gives_the_persons_choice_as_a_decision_unless_declined():
    for structured in (True, False):
        messages = claude_session(answered=True, structured=structured)
        capture = Capture()
        found = [c for m in messages for c in capture.mine(m, m.text)] + capture.finish()
        decisions = [c for c in found if c.why.startswith("the person's answer")]
        assert [c.category for c in decisions] == ["decisions"]
        assert decisions[0].text.startswith(
            "How should the fix reshape the cold-start guard? Remove"
        )
    assert not [m for m in claude_session(answered=False, structured=False) if m.role == "chosen"]


def test_options_of_any_shape_and_labels_one_within_another_are_read_as_chosen():
    asked = "Pick one?"
    assert list(chosen([{"question": asked, "options": 5}], {asked: "A"})) == ["Pick one? A"]
    labels = [
        {"label": "No", "description": "Do nothing."},
        {"label": "Not now", "description": "Later."},
    ]
    assert list(chosen([{"question": asked, "options": labels}], {asked: "Not now"})) == [
        "Pick one? Not now (over: No): Later."
    ]
    several = [{"label": "Lint"}, {"label": "Tests"}, {"label": "Docs"}]
    assert list(chosen([{"question": asked, "options": several}], {asked: "Lint, Tests"})) == [
        "Pick one? Lint, Tests (over: Docs)"
    ]
    spaced = [{"question": "  Pick one?  ", "options": labels}]
    assert list(chosen(spaced, {"  Pick one?  ": "No"})) == [
        "Pick one? No (over: Not now): Do nothing."
    ]
