"""Claude Code transcripts for tests: a prompt, one shell call and what it returned."""

from __future__ import annotations

import json


def bash_session(
    command: str, result: str, error: bool = False, prompt: str = "do it", after: str = ""
) -> list[str]:
    """The JSONL lines of a session whose agent ran `command` once, with its result; `after`
    is what the agent said last."""
    records: list[dict] = [
        {"type": "user", "message": {"role": "user", "content": prompt}},
        {
            "type": "assistant",
            "message": {
                "role": "assistant",
                "content": [
                    {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": command}}
                ],
            },
        },
        {
            "type": "user",
            "message": {
                "role": "user",
                "content": [
                    {
                        "type": "tool_result",
                        "tool_use_id": "t1",
                        "content": result,
                        "is_error": error,
                    }
                ],
            },
        },
    ]
    if after:
        records.append({"type": "assistant", "message": {"role": "assistant", "content": after}})
    return [json.dumps({"sessionId": "s1", "cwd": "/repo", **record}) + "\n" for record in records]
