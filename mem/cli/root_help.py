"""`mem --help` as Typer renders it, kept here so printing it does not import Typer (~40 ms).

Click wraps help to the terminal, but never wider than 78 columns: on any terminal of 80 columns
or more (or none) the text below is exactly what Typer prints; narrower ones go to Typer.
`tests/cli/test_meta.py` fails when it drifts; `python -m mem.cli.root_help` rewrites it.
"""

TEXT = """\
Usage: mem [OPTIONS] COMMAND [ARGS]...

  Memory for AI coding agents, kept as plain markdown in a git-friendly vault.

Options:
  --vault PATH      The vault folder (default: MEM_VAULT, else the nearest
                    .memory/ walking up).
  -a, --agent NAME  The agent (default: MEM_AGENT, else default_agent in
                    mem.toml, else main).
  --version         Print the version and exit.
  -h, --help        Show this message and exit.

Commands:
  init        Create a vault (.memory/ at the git root); safe to run...
  add         Add one entry to the agent's category file.
  commit      Store what is worth keeping from agent output: decisions,...
  backfill    Commit the agent sessions this project already had, so...
  show        Print one entry exactly as it stands in its file.
  list        List entries, newest first, optionally filtered.
  search      Search entries by full-text query, best first, with a...
  recall      Print the agent's memory as one block for its prompt,...
  roster      List the agents with what their latest handoff says and when.
  run         Run an agent command with the agent's memory, and remember...
  install     Give an agent its memory: hooks and the MCP server, in the...
  uninstall   Take out what `mem install` added to an agent's settings,...
  hook        Answer an agent's hook event: JSON on stdin, the agent's...
  mcp         Serve this vault over MCP on stdin/stdout: publish, query,...
  watch       Keep the index current while people edit the vault, until...
  edit        Open an entry in $VISUAL or $EDITOR at its line; reindex...
  forget      Hide an entry from search and recall; its text stays in the...
  export      Export entries read straight from the markdown (--json is...
  compact     Keep the vault small: old, superseded and expired entries...
  migrate     Convert a flat vault: each .memory/<agent>.md into that...
  doctor      Find malformed entries, duplicate ids, misplaced entries...
  stats       Count entries per agent, category, kind and age, with the...
  handoff     Write a session summary for the next session, or show the...
  checkpoint  Save, show or clear the agent's checkpoint of work in...
  task        Add, tick off and list tasks.
"""


def render() -> str:
    """Ask Typer for the help, at the width this file holds."""
    import contextlib
    import io
    import os

    from mem.cli.app import build_app

    os.environ["COLUMNS"] = "80"
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.suppress(SystemExit):
        build_app()(["--help"], prog_name="mem")
    return out.getvalue()


if __name__ == "__main__":
    from pathlib import Path

    text = render()
    assert '"""' not in text and "\\" not in text, "the help no longer fits a plain literal"
    path = Path(__file__)
    source = path.read_text(encoding="utf-8")
    start = source.index('TEXT = """\\\n') + len('TEXT = """\\\n')
    end = source.index('"""\n', start)
    path.write_text(source[:start] + text + source[end:], encoding="utf-8")
