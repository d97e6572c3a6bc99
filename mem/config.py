"""Settings and where they come from: flags, MEM_* variables, the vault's mem.toml, defaults."""

import contextlib
import os
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any, NamedTuple, NoReturn

from mem.errors import FileUnreadable, InvalidAgent, InvalidSetting, VaultNotFound
from mem.model import AGENT_NAME, CATEGORY_OF_KIND, DEFAULT_DECAY_FLOOR, DEFAULT_HALF_LIFE_DAYS

VAULT_DIR = ".memory"
CONFIG_FILE = "mem.toml"
CONFIG_CACHE = ".mem/config.json"  # what mem.toml holds, as JSON (see read_config)
DEFAULT_AGENT = "main"
DEFAULT_RECALL_BUDGET_TOKENS = 2000
# The keys mem.toml may hold, by table ("" is the top level); half_life_days takes the kinds.
KNOWN_SETTINGS = {
    "": ("default_agent", "recall", "ranking", "half_life_days"),
    "recall": ("budget",),
    "ranking": ("decay_floor",),
}


class Settings(NamedTuple):
    """Everything a service needs to know about where it runs."""

    vault: Path | None  # None when no vault was found; services that need one raise VaultNotFound
    agent: str = DEFAULT_AGENT
    agent_is_explicit: bool = False  # given by --agent or MEM_AGENT rather than defaulted
    recall_budget: int = DEFAULT_RECALL_BUDGET_TOKENS
    half_life_days: Mapping[str, float] = MappingProxyType(DEFAULT_HALF_LIFE_DAYS)
    decay_floor: float = DEFAULT_DECAY_FLOOR
    editor: str = "vi"
    vault_flag: str | None = None  # what the user asked for, for error messages
    unknown_settings: tuple[str, ...] = ()  # keys of mem.toml that mean nothing (`recall.budgte`)

    def require_vault(self) -> Path:
        """Return the vault folder, or explain that there is none."""
        if self.vault is None:
            if self.vault_flag:
                raise VaultNotFound(f"no vault at {self.vault_flag}; run `mem init` to create one")
            raise VaultNotFound("no vault here or above; run `mem init` to create one")
        return self.vault


def load_settings(
    vault_flag: str | None = None,
    agent_flag: str | None = None,
    environ: Mapping[str, str] | None = None,
    cwd: Path | None = None,
) -> Settings:
    """Resolve settings: flag > MEM_* variable > mem.toml > default."""
    environ = os.environ if environ is None else environ
    cwd = Path.cwd() if cwd is None else cwd
    given_agent = agent_flag if agent_flag is not None else environ.get("MEM_AGENT")
    if given_agent is not None and (agent_flag is not None or given_agent):
        check_agent(given_agent)  # before any file is read
    wanted = vault_flag or environ.get("MEM_VAULT") or None
    vault = vault_at(cwd / wanted) if wanted else find_vault(cwd)
    table = read_config(vault) if vault else {}

    agent = given_agent or ""
    agent_is_explicit = bool(agent)
    if not agent:
        default = table.get("default_agent", DEFAULT_AGENT)
        if not isinstance(default, str) or not is_valid_agent(default):
            bad_setting(vault, "default_agent", default, "an agent name such as main or dev")
        agent = default

    # A value mem.toml gets wrong is an error naming it: a silent default surprises later.
    recall = section(vault, table, "recall")
    budget = recall.get("budget", DEFAULT_RECALL_BUDGET_TOKENS)
    if not isinstance(budget, int) or isinstance(budget, bool) or budget <= 0:
        bad_setting(vault, "recall.budget", budget, "a whole number of tokens above 0, e.g. 2000")
    half_lives = dict(DEFAULT_HALF_LIFE_DAYS)
    for kind, days in section(vault, table, "half_life_days").items():
        if not isinstance(days, int | float) or isinstance(days, bool) or days <= 0:
            bad_setting(vault, f"half_life_days.{kind}", days, "a number of days above 0")
        half_lives[str(kind)] = float(days)
    floor = section(vault, table, "ranking").get("decay_floor", DEFAULT_DECAY_FLOOR)
    if not isinstance(floor, int | float) or isinstance(floor, bool) or not 0 <= floor <= 1:
        bad_setting(vault, "ranking.decay_floor", floor, "a number from 0 to 1, e.g. 0.5")
    return Settings(
        vault=vault,
        decay_floor=float(floor),
        agent=agent,
        agent_is_explicit=agent_is_explicit,
        recall_budget=budget,
        half_life_days=half_lives,
        editor=environ.get("VISUAL") or environ.get("EDITOR") or "vi",
        vault_flag=wanted,
        unknown_settings=unknown_keys(table),
    )


def unknown_keys(table: dict[str, Any]) -> tuple[str, ...]:
    """The keys of mem.toml that no setting reads, dotted (`recall.budgte`): a typo that would
    otherwise be ignored without a word."""
    found = [key for key in table if key not in KNOWN_SETTINGS[""]]
    for name, keys in KNOWN_SETTINGS.items():
        value = table.get(name) if name else None
        if isinstance(value, dict):
            found += [f"{name}.{key}" for key in value if key not in keys]
    kinds = table.get("half_life_days")
    if isinstance(kinds, dict):
        found += [f"half_life_days.{kind}" for kind in kinds if kind not in CATEGORY_OF_KIND]
    return tuple(found)


def section(vault: Path | None, table: dict[str, Any], name: str) -> dict[str, Any]:
    """A table of mem.toml, `{}` when absent."""
    value = table.get(name, {})
    if not isinstance(value, dict):
        bad_setting(vault, name, value, f"a table: [{name}] with its keys below it")
    return value


def bad_setting(vault: Path | None, key: str, value: object, accepted: str) -> NoReturn:
    where = vault / CONFIG_FILE if vault else Path(CONFIG_FILE)
    raise InvalidSetting(f"{where}: {key} = {value!r} is not valid; use {accepted}")


def vault_at(path: Path) -> Path | None:
    """Return the vault at `path` (the vault folder itself, or a folder holding `.memory/`)."""
    if (path / CONFIG_FILE).is_file():
        return path.resolve()
    if (path / VAULT_DIR / CONFIG_FILE).is_file():
        return (path / VAULT_DIR).resolve()
    return None


def find_vault(start: Path) -> Path | None:
    """Find the vault for `start`: the main checkout's when inside a linked git worktree (so
    all worktrees of a project share one memory, even when `.memory/` is committed and so
    checked out in each), else the nearest one walking up."""
    start = start.resolve()
    nearest: Path | None = None
    repository_seen = False
    for folder in (start, *start.parents):
        if nearest is None:
            if folder.name == VAULT_DIR and (folder / CONFIG_FILE).is_file():
                nearest = folder
            elif (folder / VAULT_DIR / CONFIG_FILE).is_file():
                nearest = folder / VAULT_DIR
        if not repository_seen:
            dot_git = folder / ".git"
            if dot_git.is_file():  # a linked worktree: `.git` is a `gitdir:` file
                main = main_checkout_of(dot_git)
                if main is not None and (main / VAULT_DIR / CONFIG_FILE).is_file():
                    return main / VAULT_DIR
            repository_seen = dot_git.exists()
        if nearest is not None and repository_seen:
            break
    return nearest


def main_checkout_of(dot_git_file: Path) -> Path | None:
    """Return the main checkout of a worktree whose `.git` is a `gitdir:` file."""
    try:
        text = dot_git_file.read_text(encoding="utf-8").strip()
    except OSError:
        return None
    if not text.startswith("gitdir:"):
        return None
    gitdir = (dot_git_file.parent / text.removeprefix("gitdir:").strip()).resolve()
    common = gitdir
    commondir_file = gitdir / "commondir"
    if commondir_file.is_file():
        try:
            common = (gitdir / commondir_file.read_text(encoding="utf-8").strip()).resolve()
        except OSError:
            return None
    return common.parent if common.name == ".git" else None


def read_config(vault: Path) -> dict[str, Any]:
    """Read the vault's mem.toml, or explain what is wrong with it.

    What it holds is kept beside the index as JSON, with the file's size, times and inode: while
    they stay the same, that is read instead, without importing tomllib (~3 ms of every
    command, which agents run before every session and every tool call)."""
    path = vault / CONFIG_FILE
    try:
        info = path.stat()
    except FileNotFoundError:
        return {}
    except OSError as exc:
        raise FileUnreadable(f"cannot read {path} ({exc.strerror}); check its permissions") from exc
    stamp = [info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino]
    cache = vault / CONFIG_CACHE
    known = cached_config(cache, stamp)
    if known is not None:
        return known
    import tomllib  # only commands that found a vault pay for the parser

    try:
        with path.open("rb") as handle:
            table = tomllib.load(handle)
    except FileNotFoundError:
        return {}
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise InvalidSetting(f"{path} is not valid TOML ({exc}); fix or delete it") from exc
    except OSError as exc:
        raise FileUnreadable(f"cannot read {path} ({exc.strerror}); check its permissions") from exc
    save_cached_config(cache, stamp, table)
    return table


def cached_config(cache: Path, stamp: list[int]) -> dict[str, Any] | None:
    """What mem.toml held when it had this stamp, or None."""
    import json

    try:
        saved = json.loads(cache.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(saved, dict) or saved.get("stamp") != stamp:
        return None
    table = saved.get("config")
    return table if isinstance(table, dict) else None


def save_cached_config(cache: Path, stamp: list[int], table: dict[str, Any]) -> None:
    """Keep what mem.toml holds for the next command, atomically; a vault that cannot be
    written to (read-only, full), or a value JSON cannot hold (a TOML date), keeps none."""
    import json

    saved = {"stamp": stamp, "config": table}
    try:
        text = json.dumps(saved)
    except (TypeError, ValueError):
        return  # a value JSON cannot hold: parse the TOML each time instead
    if json.loads(text) != saved:
        return  # nor one it reads back otherwise
    temp = cache.with_name(f".{cache.name}.{os.getpid()}.tmp")
    # A writer killed between its write and its rename left its temp file, which nothing else
    # in `.mem/` would remove: take it away. One of a writer still at work goes too, and that
    # writer keeps no copy this time (its rename fails): a cache only.
    for left in cache.parent.glob(f".{cache.name}.*.tmp"):
        with contextlib.suppress(OSError):
            left.unlink()
    try:
        temp.write_text(text, encoding="utf-8")
        os.replace(temp, cache)
    except OSError:
        with contextlib.suppress(OSError):
            temp.unlink(missing_ok=True)


RESERVED_AGENT_NAMES = frozenset({"archive"})  # a folder name with a meaning of its own


def is_valid_agent(name: str) -> bool:
    """Tell whether `name` may name an agent folder (reserved `_`/`.` names are not)."""
    return AGENT_NAME.fullmatch(name) is not None and name not in RESERVED_AGENT_NAMES


def check_agent(name: str) -> str:
    """Return a valid agent name, or refuse it before anything is read or written."""
    if not is_valid_agent(name):
        shown = name if name else "(empty)"
        raise InvalidAgent(
            f"invalid agent name {shown!r}; use lowercase letters, digits, '.', '_' or '-', "
            "starting with a letter or digit (not 'archive')"
        )
    return name
