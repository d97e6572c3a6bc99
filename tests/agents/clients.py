"""The real agent clients the tests drive: where install_clients.sh puts each, and how to run
one non-interactive session of it against a stand-in model API."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
INSTALL_SCRIPT = REPO / "tests" / "agents" / "install_clients.sh"
SESSION_SECONDS = 240  # one session takes a few seconds; a loaded 2-core machine gets room
PROMPT = "Write hi into greeting.txt, then tell me what we decided about the session store."


@dataclass(frozen=True)
class Client:
    name: str  # as `mem install` names it
    package: str
    version: str
    executable: str  # relative to the client's install folder
    dialect: str  # which API the stand-in speaks to it

    @property
    def folder(self) -> Path:
        return CACHE / f"{self.name}-{self.version}"

    @property
    def path(self) -> Path:
        return self.folder / self.executable


CLIENTS = {
    "claude-code": Client(
        "claude-code",
        "@anthropic-ai/claude-code",
        "2.1.332",
        "node_modules/.bin/claude",
        "anthropic",
    ),
    "codex": Client("codex", "@openai/codex", "0.171.0", "node_modules/.bin/codex", "openai"),
    "gemini": Client(
        "gemini", "@google/gemini-cli", "0.61.0", "node_modules/.bin/gemini", "gemini"
    ),
}


def cache_folder(environ: dict[str, str]) -> Path:
    """Where install_clients.sh keeps the clients (the same rule as the script's)."""
    if environ.get("MEM_TEST_CLIENTS"):
        return Path(environ["MEM_TEST_CLIENTS"])
    cache = environ.get("XDG_CACHE_HOME") or str(Path(environ.get("HOME", "~")) / ".cache")
    return Path(cache).expanduser() / "mem-test-clients"


# Taken at import, before any test points HOME at a temporary folder: npm needs the user's
# own configuration, and the clients stay in the user's cache between runs.
USER_ENV = dict(os.environ)
CACHE = cache_folder(USER_ENV)


def install_all() -> str:
    """Run install_clients.sh (quick when every client is there); "" when it succeeded, else
    why not, for the tests' skip reason."""
    for tool in ("node", "npm"):
        if shutil.which(tool, path=USER_ENV.get("PATH")) is None:
            return f"{tool} is not on PATH"
    done = subprocess.run(
        ["bash", str(INSTALL_SCRIPT)],
        env={**USER_ENV, "MEM_TEST_CLIENTS": str(CACHE)},
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    said = done.stderr.strip().splitlines()
    return "" if done.returncode == 0 else (said[-1] if said else f"exit {done.returncode}")


@dataclass(frozen=True)
class Place:
    """One test's world: a home folder and a project, both under a temporary folder."""

    root: Path
    home: Path
    project: Path

    @property
    def vault(self) -> Path:
        return self.project / ".memory"

    def env(self, **extra: str) -> dict[str, str]:
        """The environment of every process the test starts: nothing of the real user's."""
        venv_bin = str(Path(sys.executable).parent)
        node_bin = str(Path(shutil.which("node", path=USER_ENV.get("PATH")) or "/bin/x").parent)
        env = {
            "PATH": os.pathsep.join(dict.fromkeys([venv_bin, node_bin, "/usr/bin", "/bin"])),
            "HOME": str(self.home),
            "XDG_CONFIG_HOME": str(self.home / ".config"),
            "XDG_STATE_HOME": str(self.home / ".local" / "state"),
            "XDG_DATA_HOME": str(self.home / ".local" / "share"),
            "XDG_CACHE_HOME": str(self.home / ".cache"),
            "CODEX_HOME": str(self.home / ".codex"),
            "TMPDIR": str(self.root / "tmp"),
            "LANG": "C.UTF-8",
            "TERM": "dumb",
            "NO_COLOR": "1",
            "CI": "1",
        }
        env.update(extra)
        return env


def run(place: Place, *args: str, env: dict[str, str] | None = None, timeout: float = 120):
    """Run a command in the project; fail the test with its output when it fails."""
    done = subprocess.run(
        args,
        cwd=place.project,
        env=env or place.env(),
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    assert done.returncode == 0, (
        f"{args[:3]} exited {done.returncode}:\n{done.stdout}\n{done.stderr}"
    )
    return done


def mem(place: Place, *args: str) -> subprocess.CompletedProcess[str]:
    return run(place, sys.executable, "-m", "mem", *args)


def hooks_still_running(place: Place) -> list[str]:
    """`mem hook` processes working in this place: a SessionEnd commit runs detached, and
    Gemini does not wait for its SessionEnd hook."""
    found = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            words = (proc / "cmdline").read_bytes().split(b"\0")
            cwd = os.readlink(proc / "cwd")
        except OSError:
            continue
        is_hook = b"hook" in words and any(word.endswith(b"mem") for word in words)
        if is_hook and cwd.startswith(str(place.root)):
            found.append(" ".join(word.decode(errors="replace") for word in words))
    return found


def wait_for_hooks(place: Place, seconds: float = 120) -> None:
    """Wait until no `mem hook` works in the place (no timing is asserted: only an end)."""
    deadline = time.monotonic() + seconds
    while (running := hooks_still_running(place)) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not running, f"mem hooks still running after {seconds} s: {running}"


def codex_config(place: Place, base_url: str) -> None:
    """Codex's own user config: the stand-in as its model provider, and the project trusted
    (what Codex's first-run prompt stores), so the project's .codex/ layer is read."""
    folder = place.home / ".codex"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "config.toml").write_text(
        'model = "gpt-5.5"\n'
        'model_provider = "standin"\n\n'
        "[model_providers.standin]\n"
        'name = "stand-in"\n'
        f"base_url = {json.dumps(base_url + '/v1')}\n"
        'env_key = "STANDIN_API_KEY"\n'
        'wire_api = "responses"\n\n'
        f"[projects.{json.dumps(str(place.project))}]\n"
        'trust_level = "trusted"\n\n'
        "[features]\n"
        "plugins = false  # no sync of OpenAI's plugin list from github.com\n\n"
        "[analytics]\n"
        "enabled = false\n"
    )


def gemini_config(place: Place) -> None:
    """Gemini CLI's own user settings: the API key way in (whose base URL the stand-in
    takes), no usage statistics or update checks, and the project a trusted folder (what its
    trust prompt stores): Gemini runs no project hooks in an untrusted folder."""
    folder = place.home / ".gemini"
    folder.mkdir(parents=True, exist_ok=True)
    settings = {
        "security": {"auth": {"selectedType": "gemini-api-key"}},
        "privacy": {"usageStatisticsEnabled": False},
        "general": {"enableAutoUpdate": False, "enableAutoUpdateNotification": False},
    }
    (folder / "settings.json").write_text(json.dumps(settings, indent=2) + "\n")
    trusted = {str(place.project): "TRUST_FOLDER"}
    (folder / "trustedFolders.json").write_text(json.dumps(trusted, indent=2) + "\n")


def session_command(
    client: Client, place: Place, base_url: str, *flags: str, hooks_trusted: bool = True
) -> tuple[list[str], dict[str, str]]:
    """The command line and environment of one non-interactive session, with the client's
    own `flags` added."""
    if client.name == "claude-code":
        return [
            str(client.path),
            *flags,
            "-p",
            PROMPT,
            "--allowedTools",
            "Bash",
            "--debug-file",
            str(place.root / "claude-debug.log"),
        ], place.env(
            ANTHROPIC_BASE_URL=base_url,
            ANTHROPIC_API_KEY="sk-ant-standin",
            CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1",
            DISABLE_AUTOUPDATER="1",
        )
    if client.name == "codex":
        codex_config(place, base_url)
        # Codex runs a hook only once a person has reviewed it (/hooks in the TUI stores its
        # hash); this flag is that review, for this run only.
        trust = ["--dangerously-bypass-hook-trust"] if hooks_trusted else []
        return [
            str(client.path),
            "exec",
            *flags,
            *trust,
            "--dangerously-bypass-approvals-and-sandbox",
            PROMPT,
        ], place.env(STANDIN_API_KEY="standin")
    if client.name == "gemini":
        gemini_config(place)
        return [
            str(client.path),
            *flags,
            "-p",
            PROMPT,
            "--yolo",
            "--model",
            "gemini-2.5-pro",
        ], place.env(
            GEMINI_API_KEY="standin",
            GOOGLE_GEMINI_BASE_URL=base_url,
        )
    raise NotImplementedError(client.name)
