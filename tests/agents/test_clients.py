"""Each real agent client, wired by `mem install`, runs two sessions against a scripted
stand-in for its model API: what reached the model, what the vault kept, what uninstall left.

Per client, one project: a fact and a lesson seeded with `mem add`, user settings already in
the client's files, `mem install CLIENT --agent dev`, two non-interactive sessions (each: one
shell call that writes greeting.txt, then a final answer holding a decision), `mem uninstall`.
The tests read what that left; the sessions run once per client. Two more Codex runs, at the
end, are an ephemeral session and one whose hooks nobody trusted.
"""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass, field

import pytest

from tests.agents.clients import (
    CLIENTS,
    SESSION_SECONDS,
    Client,
    Place,
    mem,
    run,
    session_command,
    wait_for_hooks,
)
from tests.agents.standin import Script, StandIn, serving

pytestmark = pytest.mark.slow  # a few seconds a session: real clients, real hooks

FACT = "The staging database is called kestrel-7."
LESSON = "greeting.txt is read by the release script; keep it to one line."
FIRST = Script(
    "echo hi > greeting.txt",
    "We decided to use Redis over Memcached because restarts keep sessions.",
)
SECOND = Script(
    "echo hi > greeting.txt",
    "We decided to keep the logs in JSON lines because grep reads them.",
)
LABEL = "Reference data from mem"
NOTE = "mem notes that name `greeting.txt`"
ENTRY = re.compile(
    r"^<!-- id:(\S+)([^\n]*)-->\n## [^\n]*\n\n(.*?)\n\n---$", re.MULTILINE | re.DOTALL
)
# Settings a user had before the install, which uninstall must give back byte for byte; the
# other files install writes did not exist, and must not exist after.
USER_SETTINGS = {
    "claude-code": {
        ".claude/settings.json": '{\n  "permissions": {\n    "allow": ["Bash(ls:*)"]\n  },\n'
        '  "env": {"MY_SETTING": "1"}\n}\n',
        ".mcp.json": None,
    },
    "codex": {
        ".codex/config.toml": '# my project settings\nmodel_reasoning_effort = "low"\n',
        ".codex/hooks.json": None,
    },
    "gemini": {
        ".gemini/settings.json": '{\n  "ui": {\n    "hideBanner": true\n  }\n}\n',
    },
}


@dataclass
class Sessions:
    """What two sessions of one client did."""

    client: Client
    place: Place
    standins: list[StandIn] = field(default_factory=list)
    after_first: dict[str, str] = field(default_factory=dict)  # category file -> text
    after_second: dict[str, str] = field(default_factory=dict)
    installed: dict[str, bytes | None] = field(default_factory=dict)
    uninstalled: dict[str, bytes | None] = field(default_factory=dict)


@pytest.fixture(scope="module", params=list(CLIENTS))
def sessions(request, installed: str, tmp_path_factory) -> Sessions:
    client = CLIENTS[request.param]
    place = installed_place(client, installed, tmp_path_factory)
    done = Sessions(client, place)
    done.installed = settings_files(done)
    for script, kept in ((FIRST, done.after_first), (SECOND, done.after_second)):
        done.standins.append(session(client, place, script))
        kept.update(vault_files(place))
    mem(place, "uninstall", client.name)
    done.uninstalled = settings_files(done)
    return done


def installed_place(client: Client, installed: str, tmp_path_factory) -> Place:
    """A project with a vault, a fact and a lesson in it, the user's own settings in the
    client's files, and `mem install CLIENT --agent dev` run."""
    if installed.startswith(("node", "npm")) or not client.path.exists():
        why = installed or "tests/agents/install_clients.sh did not install it"
        pytest.skip(f"{client.package}@{client.version} is not in {client.folder}: {why}")
    root = tmp_path_factory.mktemp(client.name)
    place = Place(root, root / "home", root / "project")
    for folder in (place.home, place.project, root / "tmp"):
        folder.mkdir()
    run(place, "git", "init", "-q")
    mem(place, "init")
    mem(place, "add", FACT, "-c", "facts", "-a", "dev")
    mem(place, "add", LESSON, "-c", "lessons", "-a", "dev")
    for name, text in USER_SETTINGS[client.name].items():
        if text is not None:
            (place.project / name).parent.mkdir(parents=True, exist_ok=True)
            (place.project / name).write_text(text)
    mem(place, "install", client.name, "--agent", "dev")
    return place


def session(
    client: Client, place: Place, script: Script, *flags: str, hooks_trusted: bool = True
) -> StandIn:
    """One session against a new stand-in; returns what the stand-in received."""
    with serving(client.dialect, script) as standin:
        command, env = session_command(
            client, place, standin.url, *flags, hooks_trusted=hooks_trusted
        )
        done = subprocess.run(
            command,
            cwd=place.project,
            env=env,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=SESSION_SECONDS,
            check=False,
        )
        log = place.root / f"session-{len(list(place.root.glob('session-*')))}.log"
        log.write_text(f"$ {command}\n{done.stdout}\n--- stderr\n{done.stderr}")
        said = f"see {log}; its stderr ends:\n{done.stderr[-3000:]}"
        assert done.returncode == 0, f"{client.name} exited {done.returncode}; {said}"
        assert script.final in done.stdout, f"{client.name} did not finish; {said}"
        wait_for_hooks(place)
    return standin


def settings_files(sessions: Sessions) -> dict[str, bytes | None]:
    found = {}
    for name in USER_SETTINGS[sessions.client.name]:
        path = sessions.place.project / name
        found[name] = path.read_bytes() if path.exists() else None
    return found


def vault_files(place: Place) -> dict[str, str]:
    return {path.stem: path.read_text() for path in sorted((place.vault / "dev").glob("*.md"))}


def entries(text: str) -> list[tuple[str, str, str]]:
    """(id, the rest of its header, body) of each entry in a category file."""
    return [(m[1], m[2], m[3]) for m in ENTRY.finditer(text)]


def model_requests(standin: StandIn) -> list[str]:
    """The bodies of the requests that offered the shell tool: the session's own turns,
    not a client's side calls (titles, checks)."""
    shell = ('"Bash"', '"exec_command"', '"run_shell_command"')
    return [r.text for r in standin.requests if any(name in r.text for name in shell)]


def test_session_start_recall_reaches_the_model(sessions):
    first = model_requests(sessions.standins[0])
    assert first, "no request offered the shell tool"
    assert FACT in first[0] and LABEL in first[0]


def test_the_lesson_naming_the_file_reaches_the_model_at_the_tool_call(sessions):
    first = model_requests(sessions.standins[0])
    assert NOTE not in first[0]  # the note comes with the call, not before it
    assert any(NOTE in body for body in first[1:]), "the lesson on greeting.txt never came"


# How each client names the tools of the MCP server "mem" to the model.
MCP_PREFIX = {"claude-code": "mcp__mem__", "gemini": "mcp_mem_"}
MCP_TOOLS = ("get_context", "handoff", "publish", "query", "search")


def test_the_mcp_servers_tools_are_offered_to_the_model(sessions):
    if sessions.client.name not in MCP_PREFIX:
        pytest.skip("Codex 0.171 lists a server's tools only through its tool_search tool")
    first = model_requests(sessions.standins[0])[0]
    for tool in MCP_TOOLS:
        assert MCP_PREFIX[sessions.client.name] + tool in first, tool


def test_the_sessions_decision_is_stored_with_a_handoff(sessions):
    decisions = [body for _, _, body in entries(sessions.after_first.get("decisions", ""))]
    assert FIRST.final in decisions
    handoffs = entries(sessions.after_first.get("handoffs", ""))
    assert len(handoffs) == 1 and FIRST.final in handoffs[0][2]


def test_recall_is_never_stored_back(sessions):
    after = sessions.after_second
    for category, text in (("facts", FACT), ("lessons", LESSON)):
        found = entries(after[category])
        assert [body for _, _, body in found] == [text], f"{category}: {found}"
        assert "reinforced" not in found[0][1]
    decisions = entries(after["decisions"])
    assert sorted(body for _, _, body in decisions) == sorted([FIRST.final, SECOND.final])
    assert not any("reinforced" in header for _, header, _ in decisions)
    handoffs = entries(after["handoffs"])
    assert len(handoffs) == 2
    newest = handoffs[0][2]
    assert SECOND.final in newest and FIRST.final not in newest  # not the recalled handoff
    for category, text in after.items():
        assert LABEL not in text and "mem-recall" not in text, category
        assert text.count("kestrel-7") == (category == "facts"), category


def test_uninstall_gives_every_settings_file_back(sessions):
    assert any(sessions.installed[name] != before(sessions, name) for name in sessions.installed)
    for name, content in sessions.uninstalled.items():
        assert content == before(sessions, name), name


def before(sessions: Sessions, name: str) -> bytes | None:
    text = USER_SETTINGS[sessions.client.name][name]
    return None if text is None else text.encode()


def test_codex_exec_ephemeral_keeps_the_turns_decision(installed, tmp_path_factory):
    """`codex exec --ephemeral` writes no rollout (its Stop hook gets a null transcript_path):
    the last message, which Stop carries, is what is kept."""
    client = CLIENTS["codex"]
    place = installed_place(client, installed, tmp_path_factory)
    session(client, place, FIRST, "--ephemeral")
    assert not list((place.home / ".codex").rglob("rollout-*.jsonl"))
    stored = vault_files(place)
    assert FIRST.final in [body for _, _, body in entries(stored["decisions"])]
    assert FIRST.final in entries(stored["handoffs"])[0][2]


def test_codex_exec_runs_no_hook_nobody_trusted(installed, tmp_path_factory):
    """What a Codex user sees before reviewing the hooks with /hooks: `codex exec` runs none
    of them, silently, so no recall reaches the model and nothing is stored."""
    client = CLIENTS["codex"]
    place = installed_place(client, installed, tmp_path_factory)
    standin = session(client, place, FIRST, hooks_trusted=False)
    assert not any(FACT in body for body in model_requests(standin))
    assert "decisions" not in vault_files(place)
