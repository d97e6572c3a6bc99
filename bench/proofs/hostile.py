"""Hostile input: fuzzed category files and stdin, path escapes, a huge stdin, secrets, private
entries. Every check runs the real `mem` (the parser in-process, everything else as a command).

Random choices come from `seed`: hypothesis draws with `@seed(seed)` and no example database,
the rest from `random.Random(seed)`, so a run can be repeated exactly.
"""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from mem.extract import formats
from proofs.common import Ran, Row, child_environment, count, fresh_vault, mem_command, run_mem

PART = "hostile"
REPO = Path(__file__).resolve().parents[2]
TRACEBACK = "Traceback (most recent call last)"
WORKERS = 2  # the machine's cores
# Every reader `mem commit --format` offers, and its own guess.
FORMATS = ["auto", *formats.FORMATS]
IMPORTERS = ("jsonl", "ostwin", "portos", "claude", "cline", "aiteamx", "bit-office")
HOOK_EVENTS = ("SessionStart", "UserPromptSubmit", "PreToolUse", "Stop", "PreCompact")
JSON_KEYS = [
    "type",
    "role",
    "message",
    "content",
    "text",
    "payload",
    "hook_event_name",
    "transcript_path",
    "session_id",
    "cwd",
    "tool_input",
    "tool_name",
    "prompt",
    "id",
    "agent",
    "category",
    "body",
    "parts",
    "kind",
    "data",
    "items",
    "file_path",
]


# --- what a run of mem must never do ---------------------------------------------------------


def crashed(ran: Ran) -> bool:
    """A traceback, an exit status mem never gives, or a failure that says nothing."""
    if TRACEBACK in ran.stderr or ran.returncode not in (0, 1, 2):
        return True
    return ran.returncode != 0 and not ran.stderr.strip()


def lost_entries(text: str, expected: dict[str, str]) -> list[str]:
    """The ids of `expected` (id -> body) that the category file parser does not give back
    with their body."""
    from mem.vault.entries import parse_file

    found = {
        entry.id: entry.body for entry in parse_file(text, "dev/facts.md", "dev", "facts").entries
    }
    return [entry_id for entry_id, body in expected.items() if found.get(entry_id) != body]


def broken_files(vault: Path) -> list[str]:
    """Category files (outside .mem/ but private ones included) that no longer parse cleanly,
    and temp files a write left."""
    from mem.vault.entries import parse_file

    broken = []
    for path in sorted(vault.rglob("*")):
        relative = path.relative_to(vault).as_posix()
        if path.name.endswith(".tmp") and path.is_file():
            broken.append(f"{relative}: temp file left")
            continue
        if path.suffix != ".md" or not path.is_file() or relative.startswith(".mem/index"):
            continue
        if path.name in ("README.md", "_project.md"):
            continue
        text = path.read_bytes().decode("utf-8", "replace")
        parsed = parse_file(text, relative, "x", path.stem)
        bad = [p for p in parsed.problems if p.code != "duplicate_header"]
        if bad:
            broken.append(f"{relative}:{bad[0].line}: {bad[0].message}")
    return broken


def leaked(folder: Path, needles: Iterable[str]) -> set[str]:
    """The needles found in any file under `folder` (as written, or lowercased as an index
    keeps its terms)."""
    wanted = {needle: {needle.encode(), needle.lower().encode()} for needle in needles}
    found: set[str] = set()
    for path in folder.rglob("*"):
        if not path.is_file() or path.is_symlink():
            continue
        data = path.read_bytes()
        lowered = data.lower()
        for needle, forms in wanted.items():
            if needle not in found and any(f in data or f in lowered for f in forms):
                found.add(needle)
    return found


def parallel(jobs: Sequence[Callable[[], Any]]) -> list[Any]:
    with ThreadPoolExecutor(WORKERS) as pool:
        return list(pool.map(lambda job: job(), jobs))


def drawn(strategy: Any, examples: int, seed: int) -> list[Any]:
    """`examples` values of a hypothesis strategy, the same ones for the same seed."""
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import seed as seeded

    values: list[Any] = []

    @seeded(seed)
    @settings(
        max_examples=examples,
        database=None,
        deadline=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(strategy)
    def gather(value: Any) -> None:
        values.append(value)

    gather()
    return values


# --- 1a. the category file parser --------------------------------------------------------------


def corrupt(text: str, how: str, rng: random.Random) -> str:
    """`text` (one entry's block) with one kind of damage spliced into it."""
    lines = text.splitlines(keepends=True)
    at = rng.randrange(len(lines))
    if how == "cut header":
        return text.replace("<!-- id:", "<!-- id", 1) if rng.random() < 0.5 else text[1:]
    if how == "unclosed header":
        return text.replace(" -->", " --", 1)
    if how == "stray ---":
        lines.insert(at, "---\n")
    elif how == "unclosed fence":
        lines.insert(max(at, 2), "```python\n")
    elif how == "nul":
        lines.insert(at, "a\x00b\x00\n")
    elif how == "invalid utf-8":
        lines.insert(at, b"caf\xe9 \xff\xfe\n".decode("utf-8", "replace"))
    elif how == "huge line":
        lines.insert(at, "x" * rng.randrange(100_000, 400_000) + "\n")
    elif how == "crlf":
        return text.replace("\n", "\r\n")
    elif how == "truncated":  # cut mid-line; the next entry still starts on a line of its own
        return text[: rng.randrange(len(text))] + "\n"
    elif how == "bad date":
        return re.sub(r"## \d{4}", "## 99999", text, count=1)
    return "".join(lines)


DAMAGE = [
    "cut header",
    "unclosed header",
    "stray ---",
    "unclosed fence",
    "nul",
    "invalid utf-8",
    "huge line",
    "crlf",
    "truncated",
    "bad date",
]


def parser_rows(examples: int, seed: int) -> list[Row]:
    from hypothesis import strategies as st

    from mem.vault.entries import new_file_text, parse_file, render_entry

    raw = drawn(
        st.one_of(
            st.binary(max_size=3000).map(lambda b: b.decode("utf-8", "replace")),
            st.text(max_size=3000),
            st.lists(
                st.sampled_from(["---", "<!-- id:a1b2 -->", "## 2026-01-01", "```", "", "x"])
                | st.text(max_size=40),
                max_size=60,
            ).map("\n".join),
        ),
        examples,
        seed,
    )
    errors: list[str] = []
    for text in raw:
        try:
            parse_file(text, "dev/facts.md", "dev", "facts")
        except Exception as exc:  # noqa: BLE001 - what the bench counts
            errors.append(f"{type(exc).__name__}: {exc}")
    bodies = st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=200)
    files = drawn(
        st.tuples(
            st.lists(bodies, min_size=2, max_size=8),
            st.sampled_from(DAMAGE),
            st.integers(0, 2**31),
        ),
        examples,
        seed + 1,
    )
    lost = 0
    start = datetime(2026, 1, 1, tzinfo=UTC)
    for texts, how, salt in files:
        rng = random.Random(salt)
        blocks, expected = [], {}
        for number, body in enumerate(texts):
            entry_id = f"20260101-000000-{number:06d}"
            block = render_entry(entry_id, start + timedelta(minutes=number), (), body, ())
            blocks.append(block)
            expected[entry_id] = parse_file(block, "x", "dev", "facts").entries[0].body
        hit = rng.randrange(len(blocks))
        blocks[hit] = corrupt(blocks[hit], how, rng)
        text = new_file_text("dev", "facts") + "".join(blocks)
        untouched = {k: v for n, (k, v) in enumerate(expected.items()) if n != hit}
        try:
            lost += len(lost_entries(text, untouched))
        except Exception as exc:  # noqa: BLE001
            errors.append(f"{type(exc).__name__}: {exc}")
    return [
        Row(
            PART,
            "parser: fuzzed files tried (random text, damaged valid files)",
            f"{count(len(raw))} + {count(len(files))}",
        ),
        Row(
            PART,
            "parser: exceptions",
            count(len(errors)) + (f" ({errors[0][:80]})" if errors else ""),
            "0",
            not errors,
        ),
        Row(PART, "parser: good entries lost beside a damaged one", count(lost), "0", lost == 0),
    ]


# --- 1b. every reader of stdin and of input files ---------------------------------------------


def json_values(st: Any) -> Any:
    scalars = st.none() | st.booleans() | st.integers() | st.text(max_size=80)
    keys = st.sampled_from(JSON_KEYS) | st.text(max_size=8)
    return st.recursive(
        scalars,
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(keys, inner, max_size=6),
        max_leaves=25,
    )


def stdin_inputs(st: Any) -> Any:
    """Bytes, text, JSON lines of plausible keys, and real agent output with damage spliced in."""
    sample = (REPO / "examples" / "agent-output.txt").read_text(encoding="utf-8")
    json_line = json_values(st).map(lambda v: json.dumps(v, ensure_ascii=False))
    spliced = st.tuples(st.integers(0, len(sample)), st.binary(max_size=400)).map(
        lambda cut: sample.encode()[: cut[0]] + cut[1] + sample.encode()[cut[0] :]
    )
    return st.one_of(
        st.binary(max_size=4000),
        st.text(max_size=4000).map(str.encode),
        st.lists(json_line, max_size=20).map(lambda ls: "\n".join(ls).encode()),
        spliced,
    )


def stdin_rows(folder: Path, examples: int, seed: int) -> list[Row]:
    from hypothesis import strategies as st

    repo = folder / "stdin"
    vault = fresh_vault(repo)
    inputs = drawn(stdin_inputs(st), examples, seed + 2)
    payloads = drawn(
        st.tuples(
            st.sampled_from(("claude-code", "codex", "gemini")),
            st.sampled_from(HOOK_EVENTS) | st.text(max_size=10),
            st.dictionaries(st.sampled_from(JSON_KEYS), json_values(st), max_size=5),
            st.booleans(),
        ),
        examples,
        seed + 3,
    )
    rng = random.Random(seed)
    files = folder / "inputs"
    files.mkdir()
    jobs: list[tuple[str, Callable[[], Ran]]] = []

    def mem(words: list[str], data: bytes | None = None) -> Callable[[], Ran]:
        return lambda: run_mem(words, repo, stdin=data, timeout=120)

    for number, data in enumerate(inputs):
        fmt = FORMATS[number % len(FORMATS)]
        jobs.append((f"commit --format {fmt}", mem(["commit", "-a", "dev", "--format", fmt], data)))
        if number % 3 == 0:
            jobs.append(
                ("add -", mem(["add", "-", "-c", rng.choice(CATEGORIES), "-a", "dev"], data))
            )
        if number % 3 == 1:
            importer = IMPORTERS[number % len(IMPORTERS)]
            source = files / f"import-{number}"
            source.mkdir()
            for name in ("ledger.jsonl", "MEMORY.md", "memory.json", "shared.json", "x.md"):
                (source / name).write_bytes(data)
            target = source / "ledger.jsonl" if importer == "jsonl" else source
            jobs.append(
                (f"migrate --from {importer}", mem(["migrate", "--from", importer, str(target)]))
            )
    for number, (_, event, fields, with_file) in enumerate(payloads):
        agent = ("claude-code", "codex", "gemini")[number % 3]
        payload: dict[str, Any] = {"hook_event_name": event, "session_id": f"s{number}", **fields}
        if with_file:  # a transcript of fuzzed bytes, as Stop and PreCompact read one
            path = files / f"transcript-{number}.jsonl"
            path.write_bytes(inputs[number % len(inputs)])
            payload["transcript_path"] = str(path)
        data = json.dumps(payload).encode() if number % 5 else inputs[number % len(inputs)]
        jobs.append((f"hook {agent}", mem(["hook", agent, "--agent", "dev"], data)))
    for number in range(0, len(inputs), 4):
        lines = [
            json.dumps({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {}}).encode()
        ]
        for offset, arguments in enumerate(payloads[number : number + 4]):
            tool = rng.choice(("publish", "query", "search", "get_context", "handoff", "nope"))
            call = {"name": tool, "arguments": arguments[2]}
            if offset % 2:
                call["arguments"] = {
                    "text": inputs[number].decode("utf-8", "replace")[:500],
                    "words": "fuzz",
                    "summary": "fuzzed summary",
                }
            lines.append(
                json.dumps(
                    {"jsonrpc": "2.0", "id": offset + 1, "method": "tools/call", "params": call}
                ).encode()
            )
        lines.append(inputs[number].replace(b"\n", b" "))
        jobs.append(("mcp", mem(["mcp", "--agent", "dev"], b"\n".join(lines) + b"\n")))
    ran = parallel([job for _, job in jobs])
    tried: dict[str, int] = {}
    crashes: list[str] = []
    for (target, _), done in zip(jobs, ran, strict=True):
        family = target.split(" --format")[0].split(" --from")[0]
        tried[family] = tried.get(family, 0) + 1
        if crashed(done):
            said = [line for line in done.stderr.splitlines() if line.strip()]
            crashes.append(f"{target}: {said[-1][:100] if said else done.returncode}")
            print(f"# {target} crashed:\n{done.stderr[-3000:]}", file=sys.stderr)
    hook_log = vault / ".mem" / "hook-errors.log"
    logged = hook_log.read_text(encoding="utf-8", errors="replace") if hook_log.exists() else ""
    unexpected = [
        line
        for line in re.findall(
            r"^\S+ mem hook \S+: (\w+Error|\w+Exception)\b.*$", logged, re.MULTILINE
        )
        if line not in ("JSONDecodeError", "UnicodeDecodeError", "TypeError", "ValueError")
    ]
    broken = broken_files(vault)
    return [
        Row(
            PART,
            "stdin: fuzzed runs per reader",
            ", ".join(f"{name} {n}" for name, n in sorted(tried.items())),
        ),
        Row(
            PART,
            "stdin: tracebacks, or failures that say nothing",
            count(len(crashes)) + (f" ({crashes[0]})" if crashes else ""),
            "0",
            not crashes,
        ),
        Row(
            PART,
            "stdin: hook failures logged with an unexpected exception",
            count(len(unexpected)) + (f" ({unexpected[0]})" if unexpected else ""),
            "0",
            not unexpected,
        ),
        Row(
            PART,
            "stdin: category files left unparseable or half-written",
            count(len(broken)) + (f" ({broken[0]})" if broken else ""),
            "0",
            not broken,
        ),
    ]


CATEGORIES = ("decisions", "lessons", "facts", "tasks", "projects")


# --- 2. path escapes ---------------------------------------------------------------------------


def snapshot(folder: Path, skip: Path) -> dict[str, tuple[int, int]]:
    """Every file under `folder` but those under `skip`: path -> (size, mtime)."""
    seen = {}
    for path in folder.rglob("*"):
        if skip in path.parents or path == skip or not path.is_file():
            continue
        stat = path.lstat()
        seen[str(path)] = (stat.st_size, stat.st_mtime_ns)
    return seen


def mcp_lines(*calls: dict[str, Any]) -> bytes:
    """initialize, then one tools/call per `calls` ({"name", "arguments"}), as JSON lines."""
    hello = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "b"}}
    sent = [{"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": hello}]
    sent.append({"jsonrpc": "2.0", "method": "notifications/initialized"})
    for number, params in enumerate(calls, 1):
        sent.append({"jsonrpc": "2.0", "id": number, "method": "tools/call", "params": params})
    return "".join(json.dumps(message) + "\n" for message in sent).encode()


def mcp_texts(ran: Ran) -> list[tuple[bool, str]]:
    """(is_error, text) of each tools/call answer."""
    answers = []
    for line in ran.stdout.splitlines():
        reply = json.loads(line)
        result = reply.get("result", {})
        if "content" in result:
            answers.append((bool(result.get("isError")), result["content"][0]["text"]))
    return answers


def escape_rows(folder: Path) -> list[Row]:
    repo = folder / "escape"
    vault = fresh_vault(repo)
    outside = folder / "outside"
    (outside / "dir").mkdir(parents=True)
    (outside / "facts.md").write_text("---\nagent: dev\ncategory: facts\n---\n\n", "utf-8")
    deep = "../" * 8 + str(outside).lstrip("/")
    run_mem(["add", "a first fact", "-c", "facts", "-a", "dev"], repo)
    jsonl = folder / "escape.jsonl"
    records = [
        {"id": "../../x1", "agent": "dev", "category": "facts", "body": "escape one"},
        {"id": "e2", "agent": deep, "category": "facts", "body": "escape two"},
        {"id": "e3", "agent": "dev", "category": "../../../outside/facts", "body": "escape 3"},
        {"id": "e4", "agent": "/tmp", "category": "facts", "body": "escape four"},
    ]
    jsonl.write_text("".join(json.dumps(r) + "\n" for r in records), "utf-8")
    (vault / "evil").symlink_to(outside / "dir", target_is_directory=True)
    (vault / "dev" / "lessons.md").symlink_to(outside / "facts.md")
    add = ["add", "an escaping fact", "-c", "facts"]
    # (what, words, stdin, env, may exit 0 when it wrote nothing outside)
    cases: list[tuple[str, list[str], bytes | None, dict[str, str], bool]] = [
        ("agent ../..", [*add, "-a", deep], None, {}, False),
        ("agent absolute", [*add, "-a", str(outside)], None, {}, False),
        ("agent ..", [*add, "-a", ".."], None, {}, False),
        ("agent .mem", [*add, "-a", ".mem"], None, {}, False),
        ("MEM_AGENT ../..", add, None, {"MEM_AGENT": deep}, False),
        ("category ../..", ["add", "x fact", "-c", deep, "-a", "dev"], None, {}, False),
        (
            "category absolute",
            ["add", "x", "-c", str(outside / "facts"), "-a", "dev"],
            None,
            {},
            False,
        ),
        ("id ../.. (show)", ["show", deep], None, {}, False),
        ("id ../.. (forget)", ["forget", deep], None, {}, False),
        ("id ../.. (task done)", ["task", "done", deep, "-a", "dev"], None, {}, False),
        (
            "handoff --to ../..",
            ["handoff", "--what", "x", "--to", deep, "-a", "dev"],
            None,
            {},
            False,
        ),
        ("checkpoint as ../..", ["checkpoint", "--what", "x", "-a", deep], None, {}, False),
        ("commit as ../..", ["commit", "-a", deep], b"We chose X over Y because Z.\n", {}, False),
        ("symlinked agent folder", [*add, "-a", "evil"], None, {}, False),
        (
            "symlinked category file",
            ["add", "a lesson", "-c", "lessons", "-a", "dev"],
            None,
            {},
            False,
        ),
        (
            "import with ../ ids, agents, categories",
            ["migrate", "--from", "jsonl", str(jsonl)],
            None,
            {},
            True,
        ),
        (
            "mcp publish as ../.. and into ../..",
            ["mcp", "--agent", "dev"],
            mcp_lines(
                {"name": "publish", "arguments": {"text": "mcp escape", "agent": deep}},
                {"name": "publish", "arguments": {"text": "mcp escape", "category": deep}},
                {"name": "handoff", "arguments": {"summary": "s", "to": deep}},
            ),
            {},
            True,
        ),
    ]
    refused, failures = 0, []
    for what, words, data, env, may_pass in cases:
        before = snapshot(folder, vault)
        ran = run_mem(words, repo, stdin=data, env=env, timeout=60)
        wrote = snapshot(folder, vault) != before
        strange = [p for p in vault.rglob("*") if ".." in p.name or p.name.startswith("/")]
        answered = True
        if words[0] == "mcp":
            answered = all(error for error, _ in mcp_texts(ran)) and len(mcp_texts(ran)) == 3
        ok = (
            not wrote
            and not strange
            and not crashed(ran)
            and (ran.returncode != 0 or may_pass)
            and answered
        )
        refused += ok
        if not ok:
            failures.append(
                f"{what}: rc {ran.returncode}, wrote outside {wrote}, {ran.stderr[-120:]!r}"
            )
    for failure in failures:
        print(f"# escape not refused: {failure}", file=sys.stderr)
    return [
        Row(
            PART,
            "escapes refused (agents, categories, ids, symlinks, import, MCP)",
            f"{refused} of {len(cases)}" + (f" ({failures[0][:90]})" if failures else ""),
            "all",
            refused == len(cases),
        ),
    ]


GIGABYTE = {False: 1_000_000_000, True: 20_000_000}  # the log streamed into one commit

# --- 3. a huge stdin ---------------------------------------------------------------------------


def log_blocks(seed: int, blank: str = "\n") -> Iterator[str]:
    """Blocks of what a huge stdin realistically is, endlessly: a build log with an agent's
    lines in it, a blank line now and then (`blank=""`: none at all)."""
    rng = random.Random(seed)
    shapes = (
        "[2026-11-28T12:{m:02d}:{s:02d}Z] INFO  worker-{w}: processed batch {b} in {t} ms",
        "  PASS  tests/unit/test_module_{b}.py::test_case_{w} ({t} ms)",
        "gcc -O2 -Wall -c src/file_{b}.c -o build/file_{b}.o",
        "npm WARN deprecated package-{b}@1.{w}.0: this version is no longer supported",
        "Compiling crate_{w} v0.{b}.0 (/home/ci/build/crate_{w})",
        "I retried job {b} because runner {w} timed out after {t} ms.",
    )
    while True:
        lines = [
            rng.choice(shapes).format(
                m=rng.randrange(60),
                s=rng.randrange(60),
                w=rng.randrange(16),
                b=rng.randrange(10_000),
                t=rng.randrange(1000),
            )
            for _ in range(rng.randrange(5, 40))
        ]
        yield "\n".join(lines) + "\n" + blank


def build_log(path: Path, size: int, seed: int, blank: str = "\n") -> None:
    """`size` bytes of log_blocks in a file."""
    written = 0
    with path.open("w", encoding="utf-8") as out:
        for block in log_blocks(seed, blank):
            if written >= size:
                break
            out.write(block)
            written += len(block)


def streamed_run(words: list[str], cwd: Path, size: int, seed: int) -> tuple[Ran, int]:
    """Run mem with `size` bytes of log_blocks written into its stdin as it reads (nothing on
    disk); the run and its peak RSS in KB."""
    started = time.perf_counter()
    process = subprocess.Popen(
        ["/usr/bin/time", "-f", "PEAK_RSS_KB %M", *mem_command(), *words],
        cwd=cwd,
        env=child_environment(),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    # stdout and stderr are small: read them on threads, so neither pipe fills and blocks mem.
    outputs: dict[str, bytes] = {}
    readers = [
        threading.Thread(target=lambda name=name, pipe=pipe: outputs.update({name: pipe.read()}))
        for name, pipe in (("out", process.stdout), ("err", process.stderr))
    ]
    for reader in readers:
        reader.start()
    assert process.stdin is not None
    written = 0
    try:
        for block in log_blocks(seed):
            if written >= size:
                break
            data = block.encode("utf-8")
            process.stdin.write(data)
            written += len(data)
        process.stdin.close()
    except BrokenPipeError:
        pass  # mem stopped reading: its exit status says why
    code = process.wait(timeout=1800)
    for reader in readers:
        reader.join()
    stderr = outputs.get("err", b"").decode("utf-8", "replace")
    found = re.search(r"PEAK_RSS_KB (\d+)", stderr)
    ran = Ran(
        code,
        outputs.get("out", b"").decode("utf-8", "replace"),
        stderr.replace(found.group(0), "") if found else stderr,
        time.perf_counter() - started,
    )
    return ran, int(found.group(1)) if found else 0


def peak_run(words: list[str], cwd: Path, stdin: Path) -> tuple[Ran, int]:
    """Run mem with a file as its stdin (streamed by the OS); the run and its peak RSS in KB."""
    started = time.perf_counter()
    with stdin.open("rb") as source:
        done = subprocess.run(
            ["/usr/bin/time", "-f", "PEAK_RSS_KB %M", *mem_command(), *words],
            cwd=cwd,
            env=child_environment(),
            stdin=source,
            capture_output=True,
            check=False,
            timeout=900,
        )
    stderr = done.stderr.decode("utf-8", "replace")
    found = re.search(r"PEAK_RSS_KB (\d+)", stderr)
    ran = Ran(
        done.returncode,
        done.stdout.decode("utf-8", "replace"),
        stderr.replace(found.group(0), "") if found else stderr,
        time.perf_counter() - started,
    )
    return ran, int(found.group(1)) if found else 0


def huge_stdin_rows(folder: Path, sizes: Sequence[int], seed: int) -> list[Row]:
    if not Path("/usr/bin/time").exists():
        return [Row(PART, "huge stdin", "not run: no /usr/bin/time")]
    repo = folder / "huge"
    fresh_vault(repo)
    rows: list[Row] = []
    peaks: list[int] = []
    for size in sizes:
        path = folder / f"log-{size}.txt"
        build_log(path, size, seed)
        ran, peak = peak_run(["commit", "-a", "dev"], repo, path)
        path.unlink()
        peaks.append(peak)
        rows.append(
            Row(
                PART,
                f"commit of {size / 1e6:g} MB of build log on stdin",
                f"{ran.seconds:.1f} s ({size / ran.seconds / 1e6:.2f} MB/s), peak RSS "
                f"{peak / 1024:.0f} MB, exit {ran.returncode}",
            )
        )
        if crashed(ran) or ran.returncode:
            rows.append(
                Row(PART, f"commit of {size / 1e6:g} MB", ran.stderr[-100:], "exit 0", False)
            )
    rows.append(
        Row(
            PART,
            f"peak RSS at {sizes[-1] / 1e6:g} MB within 1.5x of {sizes[0] / 1e6:g} MB",
            f"{peaks[-1] / max(peaks[0], 1):.2f}x",
            "≤ 1.5x",
            peaks[-1] <= 1.5 * peaks[0],
        )
    )
    return rows


def gigabyte_rows(folder: Path, size: int, seed: int) -> list[Row]:
    """`size` bytes of log (1 GB in a full run) streamed into one `mem commit`: it mines the
    first MINE_LIMIT of it, reads the rest, and its memory stays as for half a megabyte (the
    same stream, cut there, into another fresh vault)."""
    peaks = []
    for name, length in (("half-megabyte", 500_000), ("gigabyte", size)):
        repo = folder / name
        fresh_vault(repo)
        ran, peak = streamed_run(["commit", "-a", "dev"], repo, length, seed)
        peaks.append(peak)
    first_peak = peaks[0]
    amount = f"{size / 1e9:g} GB" if size >= 1e9 else f"{size / 1e6:g} MB"
    said = ran.stdout.strip().splitlines()[-1:] or [""]
    rows = [
        Row(
            PART,
            f"commit of {amount} of build log streamed on stdin",
            f"{ran.seconds:.0f} s ({size / ran.seconds / 1e6:.1f} MB/s), peak RSS "
            f"{peak / 1024:.0f} MB, exit {ran.returncode}; it said: {said[0][:110]}",
        ),
        Row(
            PART,
            f"peak RSS at {amount} within 1.5x of 0.5 MB",
            f"{peak / max(first_peak, 1):.2f}x",
            "≤ 1.5x",
            peak <= 1.5 * first_peak and ran.returncode == 0 and not crashed(ran),
        ),
    ]
    return rows


def unbroken_log_rows(folder: Path, sizes: Sequence[int], seed: int) -> list[Row]:
    """The same log with no blank line at all, as many build logs are: plain text is cut into
    messages at blank lines, so here the whole input is one message."""
    repo = folder / "unbroken"
    fresh_vault(repo)
    peaks = []
    for size in sizes:
        path = folder / f"unbroken-{size}.txt"
        build_log(path, size, seed, blank="")
        ran, peak = peak_run(["commit", "-a", "dev"], repo, path)
        path.unlink()
        peaks.append(peak)
    slope = (peaks[-1] - peaks[0]) / 1024 / ((sizes[-1] - sizes[0]) / 1e6)
    return [
        Row(
            PART,
            "commit of a build log with no blank line: peak RSS at "
            + ", ".join(f"{size / 1e6:g} MB" for size in sizes),
            ", ".join(f"{peak / 1024:.0f} MB" for peak in peaks)
            + f" ({slope:.1f} MB per MB of input; last run {ran.seconds:.0f} s, exit "
            f"{ran.returncode})",
        )
    ]


# --- 4. secrets --------------------------------------------------------------------------------


def fake_secrets() -> list[Any]:
    sys.path.insert(0, str(REPO / "tests"))
    from extract.fake_secrets import FAKE_SECRETS

    return list(FAKE_SECRETS)


def needles_of(secret: str) -> list[str]:
    """What of a secret must never be found: itself, and each long line of a multi-line one."""
    lines = [line.strip() for line in secret.splitlines() if len(line.strip()) >= 16]
    return [secret, *lines] if len(lines) > 1 else [secret]


def claude_transcript(texts: Sequence[str]) -> str:
    lines = []
    for number, text in enumerate(texts):
        lines.append(
            {
                "type": "user",
                "sessionId": "s-secrets",
                "uuid": f"u{number}",
                "message": {"role": "user", "content": f"Remember this setup: {text}"},
            }
        )
        lines.append(
            {
                "type": "assistant",
                "sessionId": "s-secrets",
                "uuid": f"a{number}",
                "message": {
                    "role": "assistant",
                    "content": [
                        {"type": "text", "text": f"Noted. The fix was to use this: {text}"}
                    ],
                },
            }
        )
    return "".join(json.dumps(line) + "\n" for line in lines)


def secret_rows(folder: Path, quick: bool, seed: int) -> list[Row]:
    secrets = fake_secrets()
    rng = random.Random(seed)
    chosen = rng.sample(secrets, 16) if quick else secrets
    by_hand = rng.sample(chosen, 8 if quick else 24)  # mem add and mem search: one run each
    repo = folder / "secrets"
    vault = fresh_vault(repo)
    jobs: list[Callable[[], Ran]] = [
        (
            lambda s=s, n=n: run_mem(
                [
                    "add",
                    "-",
                    "-c",
                    CATEGORIES[n % 5],
                    "-a",
                    "dev",
                    "--scope",
                    ("agent", "shared", "private")[n % 3],
                ],
                repo,
                stdin=s.text.encode(),
            )
        )
        for n, s in enumerate(by_hand)
    ]
    report = "\n\n".join(
        f"## Decision {n}\nWe chose to keep it because: {s.text}" for n, s in enumerate(chosen)
    )
    jobs.append(lambda: run_mem(["commit", "-a", "dev"], repo, stdin=report))
    transcript = folder / "secrets.jsonl"
    transcript.write_text(claude_transcript([s.text for s in chosen]), "utf-8")
    hook = {
        "hook_event_name": "Stop",
        "session_id": "s-secrets",
        "cwd": str(repo),
        "transcript_path": str(transcript),
    }
    jobs.append(
        lambda: run_mem(["hook", "claude-code", "--agent", "ops"], repo, stdin=json.dumps(hook))
    )
    calls = [
        {
            "name": "publish",
            "arguments": {
                "text": s.text,
                "category": CATEGORIES[n % 5],
                "scope": ("agent", "private")[n % 2],
            },
        }
        for n, s in enumerate(chosen)
    ]
    calls.append({"name": "handoff", "arguments": {"summary": chosen[0].text}})
    jobs.append(lambda: run_mem(["mcp", "--agent", "qa"], repo, stdin=mcp_lines(*calls)))
    ran = parallel(jobs)
    words = [
        {"name": "search", "arguments": {"words": s.secret.splitlines()[0][:200], "limit": 50}}
        for s in chosen
    ]
    answers = mcp_texts(run_mem(["mcp", "--agent", "dev"], repo, stdin=mcp_lines(*words)))
    failed = [r for r in ran if r.returncode != 0 or crashed(r)]
    needles = {needle: s.name for s in chosen for needle in needles_of(s.secret)}
    in_files = {needles[n] for n in leaked(vault, needles)}
    searches = [
        (
            lambda s=s: (
                s.name,
                run_mem(
                    ["search", s.secret.splitlines()[0][:200], "--all", "--limit", "50"],
                    repo,
                    env={"MEM_AGENT": "dev"},
                ),
            )
        )
        for s in by_hand
    ]
    found = {
        name
        for name, done in parallel(searches)
        if any(n in done.stdout for n in needles_of(secrets_by_name(chosen)[name]))
    }
    found |= {
        s.name
        for s, (_, said) in zip(chosen, answers, strict=False)
        if any(n in said for n in needles_of(s.secret))
    }
    markers = sum(p.read_text("utf-8", "replace").count("[REDACTED") for p in vault.rglob("*.md"))
    reached = in_files | found
    return [
        Row(
            PART,
            "secrets fed through add, commit, hook Stop and MCP publish",
            f"{len(chosen)} (add: {len(by_hand)}); {count(markers)} [REDACTED] marks in the "
            f"vault; {len(failed)} runs failed",
        ),
        Row(
            PART,
            "secrets that reached a vault file, the index, mem search or MCP search",
            count(len(reached)) + (f" ({min(reached)})" if reached else ""),
            "0",
            not reached and not failed,
        ),
    ]


def secrets_by_name(chosen: Sequence[Any]) -> dict[str, str]:
    return {s.name: s.secret for s in chosen}


# --- 5. private entries ------------------------------------------------------------------------


def private_rows(folder: Path, seed: int) -> list[Row]:
    repo = folder / "private"
    vault = fresh_vault(repo)
    rng = random.Random(seed)
    marks = [f"zq{rng.randrange(10**8):08d}x" for _ in range(4)]
    said = (
        "The staging database restarts on Mondays, ticket {}.",
        "Chose the blue deploy slot over green for {} because of disk quotas.",
        "Release builds need the signing key mounted at /keys first (see {}).",
        "Never rerun migration {} by hand; the scheduler owns it.",
    )
    texts = [template.format(m) for template, m in zip(said, marks, strict=True)]
    for number, text in enumerate(texts[:2]):
        run_mem(["add", text, "-c", CATEGORIES[number], "-a", "dev", "--scope", "private"], repo)
    calls = [
        {"name": "publish", "arguments": {"text": t, "category": "facts", "scope": "private"}}
        for t in texts[2:]
    ]
    run_mem(["mcp", "--agent", "dev"], repo, stdin=mcp_lines(*calls))
    run_mem(["add", "A public fact about the staging database.", "-c", "facts", "-a", "dev"], repo)
    run_mem(["add", "Ops owns the staging database.", "-c", "facts", "-a", "ops"], repo)
    run_mem(["compact"], repo)
    query = "staging database Mondays ticket " + " ".join(marks)
    other = {"MEM_AGENT": "ops"}
    channels: dict[str, Ran] = {}
    git = ["git", "-C", str(repo)]
    dry = subprocess.run(
        [*git, "add", "-A", "--dry-run"], capture_output=True, text=True, check=False
    )
    staged = [line.split("'", 2)[1] for line in dry.stdout.splitlines() if "'" in line]
    seen_by_git = "".join(
        (repo / name).read_text("utf-8", "replace") for name in staged if (repo / name).is_file()
    )
    runs = {
        "mem export": (["export"], {"MEM_AGENT": "dev"}),
        "mem export --include-private as ops": (["export", "--include-private"], other),
        "mem recall as ops": (["recall", "--agent", "ops", "--task", query], other),
        "mem search as ops": (["search", query, "--all", "--limit", "50"], other),
        "mem list as ops": (["list", "--all", "--limit", "500"], other),
        "mem roster as ops": (["roster"], other),
    }
    for name, (words, env) in runs.items():
        channels[name] = run_mem(words, repo, env=env)
    asked = mcp_lines(
        {"name": "query", "arguments": {"limit": 100}},
        {"name": "query", "arguments": {"of_agent": "dev", "limit": 100}},
        {"name": "search", "arguments": {"words": query, "limit": 50}},
        {"name": "get_context", "arguments": {"task": query}},
    )
    as_ops = run_mem(["mcp"], repo, stdin=asked, env=other)
    said = {name: ran.stdout + ran.stderr for name, ran in channels.items()}
    said["git add -A (files it would commit)"] = seen_by_git
    said["mem mcp query/search/get_context as ops"] = "\n".join(t for _, t in mcp_texts(as_ops))
    leaks = [(channel, m) for channel, text in said.items() for m in marks if m in text]
    ignored = [
        path
        for path in vault.rglob("*.md")
        if any(m in path.read_text("utf-8", "replace") for m in marks)
    ]
    unignored = [
        path
        for path in ignored
        if subprocess.run([*git, "check-ignore", "-q", str(path)], check=False).returncode != 0
    ]
    owner = run_mem(["search", query, "--limit", "50"], repo, env={"MEM_AGENT": "dev"})
    found_by_owner = sum(m in owner.stdout for m in marks)
    return [
        Row(
            PART,
            "private entries: the owner finds them (the leak check can see them)",
            f"{found_by_owner} of {len(marks)}",
            "all",
            found_by_owner == len(marks),
        ),
        Row(
            PART,
            f"private entries leaked ({len(said)} ways: git, export, recall, search, list, "
            "roster, MCP as another agent)",
            count(len(leaks) + len(unignored)) + (f" ({leaks[0][0]})" if leaks else ""),
            "0",
            not leaks and not unignored and bool(ignored),
        ),
    ]


def run(workdir: Path, *, quick: bool, seed: int) -> list[Row]:
    """Fuzz the parser and every reader of input, try path escapes, stream a huge stdin, feed
    secrets and private entries through every way in and look for them everywhere out."""
    examples = 12 if quick else 36
    sizes = (100_000, 400_000) if quick else (500_000, 2_000_000, 6_000_000)
    rows = parser_rows(100 if quick else 400, seed)
    rows += stdin_rows(workdir, examples, seed)
    rows += escape_rows(workdir)
    rows += huge_stdin_rows(workdir, sizes, seed)
    if Path("/usr/bin/time").exists():
        rows += gigabyte_rows(workdir, GIGABYTE[quick], seed)
    if not quick:
        rows += unbroken_log_rows(workdir, (250_000, 1_000_000), seed)
    rows += secret_rows(workdir, quick, seed)
    rows += private_rows(workdir, seed)
    return rows
