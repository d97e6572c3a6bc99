"""A scripted stand-in for a model API on 127.0.0.1, for driving a real agent client.

It speaks just enough of three APIs for one session of one tool call: the Anthropic Messages
API (Claude Code), the OpenAI Responses API (Codex) and the Gemini API (Gemini CLI), streamed
as server-sent events where the client asks for it. Every request body is recorded. The reply
depends only on the request, so a client's side calls (a title, a check) get plain text:

- the model called a tool earlier in the conversation: the script's final text;
- the client offers its shell tool: a call of it, running the script's command;
- anything else: "OK."
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass(frozen=True)
class Script:
    command: str  # the shell command the model asks for, once
    final: str  # the model's last words, after the command ran


@dataclass
class Request:
    path: str
    body: dict[str, Any]
    text: str  # the body as received, for searching


@dataclass
class StandIn:
    """The server and what it received; `url` is its base URL."""

    dialect: str  # anthropic | openai | gemini
    script: Script
    requests: list[Request] = field(default_factory=list)
    url: str = ""


# Codex's shell tools over the versions, and the arguments each takes.
SHELL_TOOLS = {
    "exec_command": lambda command: {"cmd": command},
    "shell_command": lambda command: {"command": command},
    "shell": lambda command: {"command": ["bash", "-lc", command]},
}


def message_item(text: str) -> dict[str, Any]:
    return {
        "type": "message",
        "id": "msg_standin",
        "role": "assistant",
        "status": "completed",
        "content": [{"type": "output_text", "text": text, "annotations": []}],
    }


class Handler(BaseHTTPRequestHandler):
    standin: StandIn  # set on the subclass each server gets
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        pass  # the test reports what it needs

    def do_GET(self) -> None:
        self.send_json({"data": [], "models": []})  # model lists: none to offer

    def do_HEAD(self) -> None:
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_POST(self) -> None:
        raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        text = raw.decode("utf-8", "replace")
        try:
            body = json.loads(text)
        except ValueError:
            body = {}
        standin = self.standin
        standin.requests.append(Request(self.path, body, text))
        if standin.dialect == "anthropic":
            self.anthropic(body)
        elif standin.dialect == "openai":
            self.openai(body)
        else:
            self.gemini(body)

    # Anthropic Messages API (POST /v1/messages)

    def anthropic(self, body: dict[str, Any]) -> None:
        if "count_tokens" in self.path:
            self.send_json({"input_tokens": 10})
            return
        blocks = [
            block
            for message in body.get("messages") or []
            if isinstance(message.get("content"), list)
            for block in message["content"]
        ]
        tools = {tool.get("name") for tool in body.get("tools") or []}
        script = self.standin.script
        if any(block.get("type") == "tool_use" for block in blocks):
            block = {"type": "text", "text": script.final}
        elif "Bash" in tools:
            command = {"command": script.command, "description": "Run the command"}
            block = {"type": "tool_use", "id": "toolu_standin_1", "name": "Bash", "input": command}
        else:
            block = {"type": "text", "text": "OK."}
        stop = "tool_use" if block["type"] == "tool_use" else "end_turn"
        usage = {"input_tokens": 10, "output_tokens": 5}
        message = {
            "id": "msg_standin",
            "type": "message",
            "role": "assistant",
            "model": body.get("model", "claude"),
            "content": [block],
            "stop_reason": stop,
            "stop_sequence": None,
            "usage": usage,
        }
        if not body.get("stream"):
            self.send_json(message)
            return
        start = {**message, "content": [], "stop_reason": None}
        if block["type"] == "text":
            opened, delta = (
                {"type": "text", "text": ""},
                {"type": "text_delta", "text": block["text"]},
            )
        else:
            opened = {**block, "input": {}}
            delta = {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}
        self.send_events(
            (
                ("message_start", {"type": "message_start", "message": start}),
                (
                    "content_block_start",
                    {"type": "content_block_start", "index": 0, "content_block": opened},
                ),
                (
                    "content_block_delta",
                    {"type": "content_block_delta", "index": 0, "delta": delta},
                ),
                ("content_block_stop", {"type": "content_block_stop", "index": 0}),
                (
                    "message_delta",
                    {"type": "message_delta", "delta": {"stop_reason": stop}, "usage": usage},
                ),
                ("message_stop", {"type": "message_stop"}),
            )
        )

    # OpenAI Responses API (POST /v1/responses)

    def openai(self, body: dict[str, Any]) -> None:
        items = [item for item in body.get("input") or [] if isinstance(item, dict)]
        tools = {tool.get("name") for tool in body.get("tools") or [] if isinstance(tool, dict)}
        script = self.standin.script
        shell = next((name for name in SHELL_TOOLS if name in tools), None)
        if any(item.get("type") == "function_call" for item in items):
            item = message_item(script.final)
        elif shell is not None:
            item = {
                "type": "function_call",
                "id": "fc_standin_1",
                "call_id": "call_standin_1",
                "name": shell,
                "arguments": json.dumps(SHELL_TOOLS[shell](script.command)),
                "status": "completed",
            }
        else:
            item = message_item("OK.")
        response = {"id": "resp_standin", "object": "response", "status": "in_progress"}
        usage = {
            "input_tokens": 10,
            "input_tokens_details": {"cached_tokens": 0},
            "output_tokens": 5,
            "output_tokens_details": {"reasoning_tokens": 0},
            "total_tokens": 15,
        }
        done = {**response, "status": "completed", "output": [item], "usage": usage}
        self.send_events(
            (
                ("response.created", {"type": "response.created", "response": response}),
                (
                    "response.output_item.added",
                    {"type": "response.output_item.added", "output_index": 0, "item": item},
                ),
                (
                    "response.output_item.done",
                    {"type": "response.output_item.done", "output_index": 0, "item": item},
                ),
                ("response.completed", {"type": "response.completed", "response": done}),
            )
        )

    # Gemini API (POST /v1beta/models/M:streamGenerateContent)

    def gemini(self, body: dict[str, Any]) -> None:
        if ":countTokens" in self.path:
            self.send_json({"totalTokens": 10})
            return
        parts = [
            part
            for content in body.get("contents") or []
            for part in content.get("parts") or []
            if isinstance(part, dict)
        ]
        tools = {
            declaration.get("name")
            for tool in body.get("tools") or []
            for declaration in tool.get("functionDeclarations") or []
        }
        script = self.standin.script
        if any("functionCall" in part for part in parts):
            part: dict[str, Any] = {"text": script.final}
        elif "run_shell_command" in tools:
            call = {"command": script.command, "description": "Run the command"}
            part = {"functionCall": {"name": "run_shell_command", "args": call}}
        else:
            part = {"text": "OK."}
        reply = {
            "candidates": [
                {"content": {"role": "model", "parts": [part]}, "finishReason": "STOP", "index": 0}
            ],
            "usageMetadata": {
                "promptTokenCount": 10,
                "candidatesTokenCount": 5,
                "totalTokenCount": 15,
            },
            "modelVersion": "gemini-standin",
        }
        if "streamGenerateContent" in self.path:
            self.send_events(((None, reply),))
        else:
            self.send_json(reply)

    # Writing replies

    def send_json(self, payload: Any) -> None:
        data = json.dumps(payload).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def send_events(self, events: Iterable[tuple[str | None, Any]]) -> None:
        """Server-sent events, each `event: NAME` (when named) and `data: JSON`."""
        chunks = []
        for name, payload in events:
            head = f"event: {name}\n" if name else ""
            chunks.append(f"{head}data: {json.dumps(payload)}\n\n")
        data = "".join(chunks).encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


@contextmanager
def serving(dialect: str, script: Script) -> Iterator[StandIn]:
    """A stand-in on a free port of 127.0.0.1 while the block runs."""
    standin = StandIn(dialect, script)
    handler = type("BoundHandler", (Handler,), {"standin": standin})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    standin.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield standin
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
