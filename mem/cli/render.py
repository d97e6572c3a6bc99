"""Results → text for people or JSON for machines (Rich is imported only where it draws)."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from mem.model import (
    MAX_COMMIT_CANDIDATES,
    MINE_LIMIT,
    Checkpoint,
    CommitReport,
    DoctorReport,
    Entry,
    InitReport,
    RecallBlock,
    RosterLine,
    SearchHit,
    Stats,
    TaskReport,
    Why,
    short_id,
)

if TYPE_CHECKING:
    from rich.console import Console

    from mem.services.edit import EditReport
    from mem.services.run import RunReport

SCHEMA_VERSION = 1


def write_json(payload: Mapping[str, Any]) -> None:
    sys.stdout.write(
        json.dumps({"schema_version": SCHEMA_VERSION, **payload}, ensure_ascii=False) + "\n"
    )


def say(message: str) -> None:
    """A message for people, on stderr."""
    sys.stderr.write(f"{message}\n")


def out(line: str) -> None:
    """A line of a command's result, on stdout."""
    sys.stdout.write(f"{line}\n")


def is_terminal() -> bool:
    return sys.stdout.isatty()


def console(stderr: bool = False) -> Console:
    """A Rich console; with NO_COLOR set, no styling at all: Rich's own reading of it drops
    colour but keeps bold and dim, which no-colour users do not want either."""
    from rich.console import Console

    if os.environ.get("NO_COLOR"):
        return Console(stderr=stderr, highlight=False, soft_wrap=not stderr, color_system=None)
    return Console(stderr=stderr, highlight=False, soft_wrap=not stderr)


def entry_payload(entry: Entry) -> dict[str, Any]:
    return {
        "id": entry.id,
        "agent": entry.agent,
        "category": entry.category,
        "kind": entry.kind,
        "date": entry.date.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "tags": list(entry.tags),
        "scope": entry.scope,
        "path": entry.path,
        "line": entry.line,
        "reinforced": entry.reinforced,
        "superseded_by": entry.get("superseded-by") or None,
        "archived": entry.archived,
        "header": dict(entry.header),
        "body": entry.body,
    }


def entry_line(entry: Entry) -> str:
    place = f"{entry.agent}/{entry.category}" + (" (archive)" if entry.archived else "")
    tags = " ".join(f"#{tag}" for tag in entry.tags)
    flags = " [superseded]" if entry.is_superseded else ""
    shown = short_id(entry.id)
    return f"{shown}  {entry.date:%Y-%m-%d}  {place}  {entry.kind}{flags}  {tags}".rstrip()


# --- commands ------------------------------------------------------------------------------


def initialized(report: InitReport, as_json: bool) -> None:
    if as_json:
        write_json(
            {
                "vault": report.vault,
                "created": list(report.created),
                "already_existed": report.already_existed,
            }
        )
        return
    if report.already_existed and not report.created:
        say(f"vault already set up at {report.vault}; nothing changed")
    else:
        say(f"vault ready at {report.vault} ({len(report.created)} files created)")
        if report.outside_git:
            folder = os.path.dirname(report.vault)
            say(
                f"{folder} is not in a git repository, so the vault is in that folder "
                "(inside one, it goes at the repository's root)"
            )
    sys.stdout.write(report.vault + "\n")


def added(entry: Entry, as_json: bool) -> None:
    if as_json:
        write_json({"entry": entry_payload(entry)})
        return
    say(f"added {entry.kind} to {entry.path}")
    sys.stdout.write(entry.id + "\n")


def entry_shown(entry: Entry, raw: str, as_json: bool) -> None:
    if as_json:
        write_json({"entry": entry_payload(entry)})
        return
    say(f"{entry.path}:{entry.line}")
    sys.stdout.write(raw if raw.endswith("\n") else raw + "\n")


def entries_listed(entries: list[Entry], as_json: bool) -> None:
    if as_json:
        write_json({"entries": [entry_payload(entry) for entry in entries], "count": len(entries)})
        return
    if not entries:
        say("no entries")
        return
    lines = []
    for entry in entries:
        lines.append(entry_line(entry))
        lines.append(f"    {entry.title[:120]}")
    sys.stdout.write("\n".join(lines) + "\n")


def search_hits(hits: list[SearchHit], as_json: bool) -> None:
    if as_json:
        write_json(
            {
                "hits": [
                    {
                        **entry_payload(hit.entry),
                        "score": round(hit.score, 6),
                        "snippet": hit.snippet,
                    }
                    for hit in hits
                ],
                "count": len(hits),
            }
        )
        return
    if not hits:
        say("no matches")
        return
    if not is_terminal():
        out = []
        for hit in hits:
            out.append(f"{entry_line(hit.entry)}  ({hit.score:.3g})")
            out.append(f"    {hit.snippet}")
        sys.stdout.write("\n".join(out) + "\n")
        return
    from rich.text import Text

    terminal = console()
    for hit in hits:
        head = Text(entry_line(hit.entry), style="bold")
        head.append(f"  ({hit.score:.3g})", style="dim")
        terminal.print(head)
        snippet = Text("    " + hit.snippet)
        for start, end in hit.highlights:
            snippet.stylize("bold yellow", start + 4, end + 4)
        terminal.print(snippet)


def forgotten(entry: Entry, as_json: bool) -> None:
    if as_json:
        write_json({"entry": entry_payload(entry)})
        return
    say(f"forgot {entry.id} in {entry.path} (kept in the file, hidden from search and recall)")


def task_done(report: TaskReport, as_json: bool) -> None:
    if as_json:
        write_json({"entry": entry_payload(report.entry), "ticked": report.changed})
        return
    state = "still open" if report.entry.is_open_task else "done"
    say(f"ticked {report.changed} item(s) of {report.entry.id}; the task is {state}")


def edited(report: EditReport, as_json: bool) -> None:
    after = report.after
    if as_json:
        write_json(
            {
                "changed": report.changed,
                "entry": entry_payload(after) if after else None,
                "problems": [problem_payload(p) for p in report.problems],
            }
        )
        return
    if not report.changed:
        say(f"{report.before.id}: no change")
    elif after is None:
        say(f"{report.before.id} is gone from {report.before.path} (removed or no longer parses)")
    else:
        say(f"{after.id} updated and reindexed")
    for problem in report.problems:
        say(f"warning: {problem.path}:{problem.line}: {problem.message}")


def exported(entries: Iterable[Entry], output_format: str) -> None:
    if output_format == "json":
        items = [entry_payload(entry) for entry in entries]
        write_json({"entries": items, "count": len(items)})
        return
    for entry in entries:
        sys.stdout.write(json.dumps(entry_payload(entry), ensure_ascii=False) + "\n")


def problem_payload(problem: Any) -> dict[str, Any]:
    return {
        "code": problem.code,
        "path": problem.path,
        "line": problem.line,
        "message": problem.message,
        "fixed": problem.fixed,
    }


def doctor_report(report: DoctorReport, as_json: bool) -> None:
    remaining = [p for p in report.problems if not p.fixed]
    if as_json:
        write_json(
            {
                "problems": [problem_payload(p) for p in report.problems],
                "warnings": [problem_payload(p) for p in report.warnings],
                "files_checked": report.files_checked,
                "entries_checked": report.entries_checked,
                "healthy": not remaining,
            }
        )
        return
    for problem in report.problems:
        where = f"{problem.path}:{problem.line}" if problem.line else problem.path
        mark = "fixed" if problem.fixed else problem.code
        sys.stdout.write(f"{where}: {mark}: {problem.message}\n")
    for warning in report.warnings:
        sys.stdout.write(f"{warning.path}: warning: {warning.message}\n")
    verdict = "healthy" if not remaining else f"{len(remaining)} problem(s)"
    say(
        f"checked {report.entries_checked} entries in {report.files_checked} files: {verdict}"
        + ("" if not remaining else "; `mem doctor --fix` repairs what is safe to repair")
    )


def stats_report(stats: Stats, as_json: bool) -> None:
    if as_json:
        write_json(
            {
                "entries": stats.entries,
                "superseded": stats.superseded,
                "private": stats.private,
                "by_agent": stats.by_agent,
                "by_category": stats.by_category,
                "by_kind": stats.by_kind,
                "by_age": stats.by_age,
                "files": stats.files,
                "vault_bytes": stats.vault_bytes,
                "index_bytes": stats.index_bytes,
            }
        )
        return
    from rich.table import Table
    from rich.text import Text

    terminal = console()
    for title, counts in (
        ("agent", stats.by_agent),
        ("category", stats.by_category),
        ("kind", stats.by_kind),
        ("age", stats.by_age),
    ):
        table = Table(title=f"by {title}", title_justify="left", show_edge=False)
        table.add_column(title)
        table.add_column("entries", justify="right")
        table.add_column("")
        top = max(counts.values(), default=0) or 1
        for name, count in counts.items():
            table.add_row(Text(name), str(count), "█" * round(24 * count / top))
        terminal.print(table)
        terminal.print()
    private = f", {stats.private} private: only this agent sees them" if stats.private else ""
    terminal.print(
        f"{stats.entries} entries ({stats.superseded} superseded{private}) in {stats.files} "
        f"files; vault {stats.vault_bytes / 1024:.0f} KiB, "
        f"index {stats.index_bytes / 1024:.0f} KiB"
    )


def committed(
    report: CommitReport, as_json: bool, to_stderr: bool = False, explain: bool = False
) -> None:
    """Report what `mem commit` stored; on stderr when stdout carries the teed input. With
    `explain`, each added entry says where it was found and what made it memory."""
    why = dict(report.why)
    counts: dict[str, dict[str, int]] = {}
    for name, entries in (
        ("added", report.added),
        ("reinforced", report.reinforced),
        ("promoted", report.promoted),
    ):
        for entry in entries:
            row = counts.setdefault(entry.category, {"added": 0, "reinforced": 0, "promoted": 0})
            row[name] += 1
    out = sys.stderr if to_stderr else sys.stdout
    if as_json:
        payload = {
            "schema_version": SCHEMA_VERSION,
            "dry_run": report.dry_run,
            "format": report.format,
            "messages": report.messages,
            "empty_input": report.empty_input,
            "added": [
                {**entry_payload(entry), "why": why.get(entry.id, "")}
                if explain
                else entry_payload(entry)
                for entry in report.added
            ],
            "reinforced": [entry_payload(entry) for entry in report.reinforced],
            "promoted": [entry_payload(entry) for entry in report.promoted],
            "archived": [entry_payload(entry) for entry in report.archived],
            "handoff": entry_payload(report.handoff) if report.handoff else None,
            "redactions": report.redactions,
            "already_committed": report.already_committed,
            "left_out": report.left_out,
            "unmined": report.unmined,
            "unmined_chars": report.unmined_chars,
            "by_category": counts,
        }
        out.write(json.dumps(payload, ensure_ascii=False) + "\n")
        return
    if report.empty_input:
        if report.messages:
            # An Aider history of `/add` commands and banners: read, but nobody said anything.
            say(
                f"nothing to store: {report.messages} message(s) read as {report.format}, "
                "none with words in it"
            )
        else:
            say("nothing to store: the input was empty")
        return
    if report.already_committed == report.messages:
        say(f"nothing new: all {report.messages} messages were already committed")
        return
    verb = "would add" if report.dry_run else "added"
    headline = (
        f"{verb} {len(report.added)}, reinforced {len(report.reinforced)}, promoted "
        f"{len(report.promoted)}, archived {len(report.archived)}; {report.redactions} "
        f"secret(s) redacted ({report.format}, {report.messages} messages)"
    )
    lines = [headline]
    for mark, entries in (("+", report.added), ("~", report.reinforced), ("^", report.promoted)):
        for entry in entries:
            lines.append(f"{mark} {entry.category:<10} {entry.title[:100]}")
            if explain and mark == "+" and why.get(entry.id):
                lines.append(f"  {'':<10} why: {why[entry.id]}")
    if report.handoff is not None and report.dry_run:  # its id would be made when written
        lines.append(f"would write a handoff: {report.handoff.title[:100]}")
    elif report.handoff is not None:
        lines.append(f"handoff {report.handoff.id}: {report.handoff.title[:100]}")
    if report.left_out:
        lines.append(
            f"left out {report.left_out} more: one commit stores at most {MAX_COMMIT_CANDIDATES} "
            "(split the input, or commit it again later)"
        )
    if report.unmined:
        lines.append(unmined_line(report))
    out.write("\n".join(lines) + "\n")


def unmined_line(report: CommitReport) -> str:
    return (
        f"read {report.unmined} more message(s) ({megabytes(report.unmined_chars)}) without "
        f"mining them: one commit mines at most {megabytes(MINE_LIMIT)} of a stream (commit "
        "the same input again to mine the next part)"
    )


def megabytes(chars: int) -> str:
    return f"{chars / 1e6:,.1f} MB" if chars % 1_000_000 else f"{chars // 1_000_000:,} MB"


RECALL_FORMATS = ("md", "json", "claude-hook")


def check_recall_format(fmt: str) -> str:
    if fmt not in RECALL_FORMATS:
        from mem.errors import InvalidInput

        raise InvalidInput(f"unknown format {fmt!r}; choose one of {', '.join(RECALL_FORMATS)}")
    return fmt


def why_payload(why: Why | None) -> dict[str, object] | None:
    """Why recall chose an item: `task` (with its score, matched words and their strength,
    see RELEVANT_AT in services/recall.py) or `standing` context; None for project text."""
    if why is None:
        return None
    return {
        "reason": why.reason,
        "score": why.score,
        "matched": list(why.matched),
        "strength": why.strength,
    }


def recall_block(block: RecallBlock, fmt: str) -> None:
    """The block as markdown for a prompt (plain, never wrapped), JSON, or a Claude Code hook."""
    if block.omitted:
        say("mem: " + omissions(block))
    if fmt == "json":
        write_json(
            {
                "agent": block.agent,
                "task": block.task,
                "relevance": block.relevance,
                "budget": block.budget,
                "tokens": block.tokens,
                "sections": [
                    {
                        "key": section.key,
                        "title": section.title,
                        "tokens": sum(item.tokens for item in section.items),
                        "items": [
                            {
                                "id": item.entry.id if item.entry else None,
                                "agent": item.entry.agent if item.entry else None,
                                "category": item.entry.category if item.entry else None,
                                "kind": item.entry.kind if item.entry else None,
                                "date": item.entry.date.strftime("%Y-%m-%dT%H:%M:%SZ")
                                if item.entry
                                else None,
                                "text": item.text,
                                "tokens": item.tokens,
                                "excerpt": item.excerpt,
                                "why": why_payload(item.why),
                            }
                            for item in section.items
                        ],
                    }
                    for section in block.sections
                ],
                "omitted": [
                    {
                        "section": omission.section,
                        "id": omission.entry_id or None,
                        "tokens": omission.tokens,
                        "how": omission.how,
                    }
                    for omission in block.omitted
                ],
                "block": block.text,
            }
        )
        return
    if fmt == "claude-hook":
        # Claude Code's SessionStart hook output: the block becomes context before the first prompt.
        payload = {
            "hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": block.text}
        }
        sys.stdout.write(json.dumps(payload, ensure_ascii=False) + "\n")
        return
    sys.stdout.write(block.text)


def omissions(block: RecallBlock) -> str:
    """One line: what the budget left out or cut, by section."""
    parts = []
    for how in ("dropped", "trimmed"):
        counts: dict[str, int] = {}
        for omission in block.omitted:
            if omission.how == how:
                counts[omission.section] = counts.get(omission.section, 0) + 1
        if counts:
            listed = ", ".join(f"{section} {count}" for section, count in counts.items())
            parts.append(f"{how} {sum(counts.values())} ({listed})")
    return f"recall over its {block.budget}-token budget: " + "; ".join(parts)


def handoff_written(entry: Entry, redactions: int, as_json: bool) -> None:
    if as_json:
        write_json({"entry": entry_payload(entry), "redactions": redactions})
        return
    note = f"; {redactions} secret(s) redacted" if redactions else ""
    say(f"handoff written to {entry.path}{note}")
    sys.stdout.write(entry.id + "\n")


def handoff_shown(entry: Entry | None, as_json: bool) -> None:
    if as_json:
        write_json({"entry": entry_payload(entry) if entry else None})
        return
    if entry is None:
        say("no handoff yet")
        return
    sender = entry.get("from")
    say(
        f"{entry.path}:{entry.line} ({entry.date:%Y-%m-%dT%H:%MZ}{', from ' + sender if sender else ''})"
    )
    sys.stdout.write(entry.body.rstrip("\n") + "\n")


def checkpoint_payload(checkpoint: Checkpoint) -> dict[str, Any]:
    return {
        "agent": checkpoint.agent,
        "saved": checkpoint.saved.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "status": checkpoint.status,
        "task": checkpoint.task,
        "what": checkpoint.what,
        "next": checkpoint.next,
        "command": checkpoint.command,
        "output_tail": checkpoint.output_tail,
    }


def checkpoint_shown(checkpoint: Checkpoint | None, as_json: bool, saved: bool = False) -> None:
    if as_json:
        write_json({"checkpoint": checkpoint_payload(checkpoint) if checkpoint else None})
        return
    if checkpoint is None:
        say("no live checkpoint")
        return
    if saved:
        say(f"checkpoint saved for {checkpoint.agent}")
        return
    sys.stdout.write(f"{checkpoint.status}, saved {checkpoint.saved:%Y-%m-%dT%H:%MZ}\n")
    for label, value in (
        ("task", checkpoint.task),
        ("command", checkpoint.command),
        ("what", checkpoint.what),
        ("next", checkpoint.next),
    ):
        if value:
            sys.stdout.write(f"{label}: {value}\n")
    if checkpoint.output_tail:
        sys.stdout.write("last output:\n" + checkpoint.output_tail.rstrip("\n") + "\n")


def checkpoint_cleared(was_there: bool, as_json: bool) -> None:
    if as_json:
        write_json({"cleared": was_there})
        return
    say("checkpoint cleared" if was_there else "no checkpoint to clear")


def roster_lines(lines: list[RosterLine], now: Any, as_json: bool) -> None:
    if as_json:
        write_json(
            {
                "agents": [
                    {
                        "agent": line.agent,
                        "when": line.when.strftime("%Y-%m-%dT%H:%M:%SZ") if line.when else None,
                        "what": line.what,
                    }
                    for line in lines
                ]
            }
        )
        return
    if not lines:
        say("no agents yet")
        return
    width = max(len(line.agent) for line in lines)
    for line in lines:
        when = line.when.strftime("%Y-%m-%d %H:%MZ") if line.when else "no handoff yet"
        text = f"{line.agent:<{width}}  {when:<17}  {line.what}".rstrip()
        sys.stdout.write(text + "\n")


def ran(report: RunReport) -> None:
    """What `mem run` remembered, on stderr: the command's own output owns stdout."""
    parts = []
    if report.commit is not None and not report.commit.empty_input:
        parts.append(f"kept {len(report.commit.added)}, reinforced {len(report.commit.reinforced)}")
        if report.commit.unmined:  # its output is gone once mined: nothing to commit again
            parts.append(
                f"{megabytes(report.commit.unmined_chars)} of the output past the first "
                f"{megabytes(MINE_LIMIT)} read without mining it"
            )
    if report.interrupted:
        parts.append(f"interrupted (exit {report.exit_code}); checkpoint kept for the next recall")
    elif report.handoff is not None:
        parts.append(f"handoff {report.handoff.id}")
    say("mem run: " + "; ".join(parts or ["nothing to remember"]))


def migrated(done: Sequence[Any]) -> None:
    """What `mem migrate` made of each flat file, as a table; sections it left alone after."""
    from rich.table import Table

    table = Table(title="migrated flat files (each kept as <file>.bak)", title_justify="left")
    for column in ("flat file", "agent", "entries", "already there"):
        table.add_column(column)
    for item in done:
        counts = ", ".join(f"{category} {n}" for category, n in item.added.items())
        table.add_row(item.flat_file, item.agent, counts or "nothing new", str(item.skipped))
    console().print(table)
    for item in done:
        if item.unknown_sections:
            say(
                f"{item.flat_file}: sections mem does not know, left in {item.flat_file}.bak: "
                + ", ".join(item.unknown_sections)
            )


def imported(source: str, added: dict[str, int], skipped: int) -> None:
    """What an import wrote, file by file, as a table; then the totals."""
    if added:
        from rich.table import Table

        table = Table(title=f"imported from {source}", title_justify="left")
        table.add_column("file")
        table.add_column("entries", justify="right")
        for where, count in added.items():
            table.add_row(where, str(count))
        console().print(table)
    total = sum(added.values())
    sys.stdout.write(f"{total} imported from {source}, {skipped} already there\n")


def compacted(report: Any) -> None:
    """What compact moved, file by file, as a table; then how much stays in view."""
    archived = [step for step in report.steps if step.action == "archive"]
    removed = [step for step in report.steps if step.action != "archive"]
    verb = "would move" if report.dry_run else "moved"
    if not report.steps:
        sys.stdout.write(f"nothing to compact: {report.kept} entries in {report.files} files\n")
        return
    if archived:
        from rich.table import Table

        table = Table(title=f"{verb} to the archive", title_justify="left")
        for column in ("file", "reason", "entries"):
            table.add_column(column, justify="right" if column == "entries" else "left")
        for step in archived:
            table.add_row(step.path, step.reason, str(len(step.ids)))
        console().print(table)
    for step in removed:
        if step.action == "roll-up":
            rolled = "would roll" if report.dry_run else "rolled"
            sys.stdout.write(
                f"{rolled} {len(step.ids) - 1} handoff(s) of {step.reason} into {step.ids[0]}"
                f" ({step.path})\n"
            )
            continue
        if step.action == "merge":
            merged = "would merge" if report.dry_run else "merged"
            sys.stdout.write(
                f"{merged} {len(step.ids) - 1} near-duplicate(s) into {step.ids[0]} ({step.path})\n"
            )
            continue
        what = "checkpoint" if step.action == "remove-checkpoint" else "migration backup"
        done = "would remove" if report.dry_run else "removed"
        sys.stdout.write(f"{done} {what} {step.path}{f' ({step.reason})' if step.reason else ''}\n")
    total = sum(len(step.ids) for step in archived)
    sys.stdout.write(f"{total} entries {verb}; {report.kept} stay in {report.files} files\n")
