"""The person's own vault: what is true of them in every project ("I prefer pytest", "never
force-push on shared branches").

It is an ordinary vault, kept outside every project (`$MEM_HOME`, else `$XDG_DATA_HOME/mem/vault`,
else `~/.local/share/mem/vault`: install.sh keeps its virtual environment in `mem/venv` beside
it), so nothing in it is committed with a project. Entries go there only
when a person asks (`mem add --scope user`); no commit, hook or promotion ever writes there.
Every entry sits in its `_shared/` folder: it is about the person, for every agent.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from datetime import datetime
from pathlib import Path

from mem.config import CONFIG_FILE, Settings
from mem.errors import InvalidSetting, VaultNotFound
from mem.model import SHARED_FOLDER, Entry
from mem.services.feedback import QUIET, Feedback
from mem.text import WORD

YOU_ITEMS = 4  # entries in recall's "You" section: a few lines, whatever the budget
YOU_CATEGORIES = ("facts", "lessons", "decisions")  # preferences, conventions, habits


def home(environ: Mapping[str, str] | None = None) -> Path:
    environ = os.environ if environ is None else environ
    if environ.get("MEM_HOME"):
        return Path(environ["MEM_HOME"]).expanduser().resolve()
    data = environ.get("XDG_DATA_HOME") or str(Path(environ.get("HOME") or "~") / ".local/share")
    return (Path(data).expanduser() / "mem" / "vault").resolve()


def check_outside(folder: Path, settings: Settings) -> None:
    """Refuse a user vault inside the project: its entries would be committed with it."""
    if settings.vault is None:
        return
    project = settings.vault.parent.resolve()
    if folder == project or project in folder.parents:
        raise InvalidSetting(
            f"the user vault {folder} is inside this project ({project}); point MEM_HOME "
            "outside it, so your own entries never enter the project's git"
        )


def settings_for(
    settings: Settings, create: bool = False, environ: Mapping[str, str] | None = None
) -> Settings:
    """Settings that address the user vault (made from the template first, when `create`)."""
    folder = home(environ)
    check_outside(folder, settings)
    if not (folder / CONFIG_FILE).is_file():
        if not create:
            raise VaultNotFound(
                f"no user vault at {folder} yet; `mem add --scope user TEXT` starts it"
            )
        from mem.services.init import init

        init(settings._replace(vault=None, vault_flag=str(folder)), None, folder.parent)
    return settings._replace(vault=folder, vault_flag=str(folder))


def add_to_user_vault(
    settings: Settings,
    text: str,
    category: str,
    kind: str | None = None,
    tags: tuple[str, ...] = (),
    pin: bool = False,
    now: datetime | None = None,
    expires: datetime | None = None,
    feedback: Feedback = QUIET,
) -> Entry:
    from mem.services.add import add

    user = settings_for(settings, create=True)
    return add(
        user,
        text,
        category,
        kind,
        tags,
        "shared",
        pin=pin,
        now=now,
        expires=expires,
        feedback=feedback,
    )


def about_you(settings: Settings, task: str = "") -> list[Entry]:
    """A few of the person's entries for recall's "You" section: those sharing words with the
    task first, then the pinned and most reinforced, then the newest. Read straight from the
    markdown (a user vault holds dozens of entries, not thousands): no second index to open
    before every agent launch. Nothing when there is no user vault, or it sits in the project."""
    folder = home()
    if not (folder / CONFIG_FILE).is_file():
        return []
    try:
        check_outside(folder, settings)
    except InvalidSetting:
        return []  # `mem add --scope user` says why; a recall goes on without it
    from mem.services.refresh import parse
    from mem.vault import layout

    found: list[Entry] = []
    for ref in layout.category_files(folder):
        if ref.agent != SHARED_FOLDER or ref.archived or ref.category not in YOU_CATEGORIES:
            continue
        try:
            entries = parse(folder, ref)[0]
        except (OSError, UnicodeDecodeError):
            continue
        found += [e for e in entries if not e.is_superseded]
    words = {word.lower() for word in WORD.findall(task) if len(word) > 2}

    def rank(entry: Entry) -> tuple[int, bool, int, datetime]:
        shared = len(words & {w.lower() for w in WORD.findall(entry.body)})
        return (shared, entry.is_pinned, entry.reinforced, entry.date)

    return sorted(found, key=rank, reverse=True)[:YOU_ITEMS]
