"""`mem recall`: the context block, its sections, its budget and what it leaves out."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta

import pytest

from .helpers import (
    added_id,
    data,
    entry_block,
    error_payload,
    failed,
    messages,
    ok,
    snapshot,
    write_category_file,
)

FENCE = re.compile(
    r'<mem-recall agent="(?P<agent>[^"]+)" tokens="(?P<tokens>\d+)" budget="(?P<budget>\d+)">'
)


def headings(block: str) -> list[str]:
    return [line[3:] for line in block.splitlines() if line.startswith("## ")]


def days_ago(days: float) -> str:
    return f"{datetime.now(UTC) - timedelta(days=days):%Y-%m-%dT%H:%MZ}"


def test_a_new_vault_recalls_an_empty_block(mem):
    result = ok(mem("recall", "--agent", "dev"))
    assert result.stdout == (
        '<mem-recall agent="dev" tokens="21" budget="2000">\n# Memory for dev\n</mem-recall>\n'
    )
    assert messages(result.stderr) == []


def test_sections_come_in_design_order_and_empty_ones_are_left_out(mem, vault):
    (vault / "_project.md").write_text("# Shop\n\nA Django shop. Payments go through Stripe.\n")
    mem("add", "Chose Stripe over Adyen for payments: better docs.", "-c", "decisions", "-a", "dev")
    mem("add", "Stripe webhooks retry for three days.", "-c", "lessons", "-a", "dev")
    mem("add", "The team prefers small payment PRs.", "-c", "facts", "-a", "dev")
    mem("add", "Payments run in eu-west.", "-c", "facts", "--scope", "shared", "-a", "ops")
    mem("add", "Stripe payment retries use an idempotency key.", "-c", "decisions", "-a", "ops")
    mem("task", "add", "refund flow for payments", "-a", "dev")
    mem("handoff", "--what", "Wired the payment webhooks", "-a", "ops", input="")
    block = ok(mem("recall", "--agent", "dev", "--task", "payments stripe")).stdout
    assert headings(block) == [
        "Project",
        "Team",
        "Relevant decisions",
        "Relevant lessons",
        "Knowledge",
        "Shared knowledge",
        "From other agents",
        "Open tasks",
    ]
    assert FENCE.match(block).group("agent") == "dev"
    assert "A Django shop. Payments go through Stripe." in block
    assert "- ops (" in block and "Wired the payment webhooks" in block
    assert "- [ ] refund flow for payments" in block
    assert block.endswith("</mem-recall>\n")


def test_the_block_stays_within_every_budget_and_says_what_it_left_out(mem, vault):
    for n in range(30):
        mem("add", f"Decision {n} about the cache layer and its eviction rules.", "-c", "decisions")
    for budget in (50, 80, 200, 400, 2000):
        result = ok(mem("recall", "--task", "cache eviction", "--budget", str(budget)))
        fence = FENCE.match(result.stdout)
        assert int(fence.group("budget")) == budget
        assert int(fence.group("tokens")) <= budget
        assert -(-len(result.stdout) // 4) <= budget
    payload = data(mem("recall", "--task", "cache eviction", "--budget", "60", "--json"))
    assert payload["tokens"] <= 60 and payload["block"].count("- (") >= 1
    dropped = [o for o in payload["omitted"] if o["how"] == "dropped"]
    assert dropped and all(o["section"] == "decisions" and o["id"] for o in dropped)
    stderr = messages(ok(mem("recall", "--task", "cache eviction", "--budget", "60")).stderr)
    (line,) = stderr
    assert line.startswith(
        f"mem: recall over its 60-token budget: dropped {len(dropped)} (decisions {len(dropped)})"
    )


def test_project_is_trimmed_at_a_sentence_end_never_dropped(mem, vault):
    sentences = [f"Sentence number {n} describes the project in some detail." for n in range(40)]
    (vault / "_project.md").write_text(" ".join(sentences) + "\n")
    payload = data(mem("recall", "--budget", "100", "--json"))
    (section,) = payload["sections"]
    assert section["key"] == "project" and section["items"][0]["excerpt"] is True
    text = section["items"][0]["text"]
    assert text.endswith("detail.") and text in " ".join(sentences)
    assert payload["omitted"] == [
        {
            "section": "project",
            "id": None,
            "tokens": payload["omitted"][0]["tokens"],
            "how": "trimmed",
        }
    ]


def test_left_over_budget_is_filled_with_the_next_most_relevant_entries(mem, vault):
    for n in range(12):
        mem("add", f"Kafka consumer note {n}: offsets commit after the insert.", "-c", "lessons")
    payload = data(mem("recall", "--task", "kafka offsets", "--json"))
    keys = [section["key"] for section in payload["sections"]]
    assert keys == ["lessons", "more"]
    assert len(payload["sections"][0]["items"]) == 3
    assert len(payload["sections"][1]["items"]) == 9
    assert payload["omitted"] == []


def test_an_entry_too_big_for_what_is_left_gives_its_best_sentences(mem, vault):
    filler = " ".join(f"Unrelated remark {n} about lunch." for n in range(60))
    long_body = filler + " The flaky checkout test came from a shared Redis database. " + filler
    mem("add", long_body, "-c", "lessons")
    payload = data(mem("recall", "--task", "flaky checkout redis", "--budget", "120", "--json"))
    (item,) = payload["sections"][0]["items"]
    assert item["excerpt"] is True
    assert "The flaky checkout test came from a shared Redis database." in item["text"]
    assert payload["tokens"] <= 120
    assert payload["omitted"][0]["how"] == "trimmed"


def test_without_a_task_relevance_falls_back_to_the_last_handoff(mem, vault):
    mem("add", "Grafana dashboards live in ops/dashboards.", "-c", "decisions")
    mem("add", "Use Terraform workspaces per region.", "-c", "decisions")
    mem("handoff", "--what", "Moved the Grafana dashboards", input="")
    payload = data(mem("recall", "--json"))
    assert payload["relevance"] == "last_handoff"
    keys = [section["key"] for section in payload["sections"]]
    assert keys[0] == "last_session"
    decisions = next(s for s in payload["sections"] if s["key"] == "decisions")
    assert "Grafana" in decisions["items"][0]["text"]
    assert data(mem("recall", "--json", "--task", "terraform"))["relevance"] == "task"


def test_a_live_checkpoint_replaces_the_last_session_until_a_handoff(mem, vault):
    mem("handoff", "--what", "Old session summary", input="")
    ok(mem("checkpoint", "--what", "halfway through the migration", "--next", "run the tests"))
    block = ok(mem("recall")).stdout
    assert "## Recovering" in block and "## Last session" not in block
    assert "Doing: halfway through the migration" in block and "Next: run the tests" in block
    mem("handoff", "--what", "Migration finished", input="")
    block = ok(mem("recall")).stdout
    assert "## Recovering" not in block and "Migration finished" in block


@pytest.mark.parametrize("days", [-8, 8])
def test_a_checkpoint_more_than_seven_days_away_is_ignored(mem, vault, days):
    ok(mem("checkpoint", "--what", "stale work"))
    path = vault / ".mem" / "state" / "main" / "checkpoint.json"
    state = json.loads(path.read_text())
    state["saved"] = (datetime.now(UTC) + timedelta(days=days)).isoformat()
    path.write_text(json.dumps(state))
    assert "## Recovering" not in ok(mem("recall")).stdout
    assert data(mem("checkpoint", "show", "--json"))["checkpoint"] is None


def test_a_checkpoint_a_little_in_the_future_still_counts(mem, vault):
    ok(mem("checkpoint", "--what", "work from a machine whose clock runs fast"))
    path = vault / ".mem" / "state" / "main" / "checkpoint.json"
    state = json.loads(path.read_text())
    state["saved"] = (datetime.now(UTC) + timedelta(hours=2)).isoformat()
    path.write_text(json.dumps(state))
    assert "## Recovering" in ok(mem("recall")).stdout


def test_private_entries_are_recalled_only_for_their_own_agent(mem, vault):
    mem(
        "add",
        "My private note on the payments API key rotation.",
        "-c",
        "facts",
        "--scope",
        "private",
        "-a",
        "dev",
    )
    mem("add", "Payments API keys rotate monthly.", "-c", "decisions", "-a", "dev")
    assert "private note" in ok(mem("recall", "-a", "dev", "--task", "payments api")).stdout
    other = ok(mem("recall", "-a", "qa", "--task", "payments api")).stdout
    assert "private note" not in other and "rotate monthly" in other


def test_recall_never_writes_a_category_file(mem, vault):
    mem("add", "Chose Postgres.", "-c", "decisions")
    mem("handoff", "--what", "Set up the database", input="")
    before = snapshot(vault)
    ok(mem("recall", "--task", "postgres"))
    ok(mem("recall"))
    assert snapshot(vault) == before


def test_superseded_and_archived_entries_are_not_recalled(mem, vault):
    write_category_file(
        vault,
        "main/decisions.md",
        "main",
        "decisions",
        entry_block("r-new", days_ago(1), "Queue jobs go through SQS."),
        entry_block("r-old", days_ago(2), "Queue jobs go through RabbitMQ.", superseded_by="r-new"),
    )
    write_category_file(
        vault,
        "main/archive/decisions.md",
        "main",
        "decisions",
        entry_block("r-arch", days_ago(90), "Queue jobs went through cron."),
    )
    block = ok(mem("recall", "--task", "queue jobs")).stdout
    assert "SQS" in block and "RabbitMQ" not in block and "cron" not in block


def test_markdown_is_written_plainly_and_the_hook_format_is_claude_codes(mem, vault):
    long_line = "Deploys go through the blue-green pipeline " + "and then some more words " * 20
    mem("add", long_line.strip() + ".", "-c", "decisions")
    block = ok(mem("recall", "--task", "deploys", env={"COLUMNS": "40"})).stdout
    assert "\x1b[" not in block
    assert any(line.startswith("- (") and len(line) > 200 for line in block.splitlines())
    hook = json.loads(ok(mem("recall", "--task", "deploys", "--format", "claude-hook")).stdout)
    assert list(hook) == ["hookSpecificOutput"]
    assert hook["hookSpecificOutput"]["hookEventName"] == "SessionStart"
    assert hook["hookSpecificOutput"]["additionalContext"] == block


def test_recall_json_has_the_documented_keys(mem, vault):
    mem("add", "Chose Postgres for the ledger.", "-c", "decisions")
    payload = data(mem("recall", "--task", "ledger", "--json"))
    assert set(payload) == {
        "schema_version",
        "agent",
        "task",
        "relevance",
        "budget",
        "tokens",
        "sections",
        "omitted",
        "block",
    }
    (section,) = payload["sections"]
    assert set(section) == {"key", "title", "tokens", "items"}
    assert set(section["items"][0]) == {
        "id",
        "agent",
        "category",
        "kind",
        "date",
        "text",
        "tokens",
        "excerpt",
        "why",
    }
    why = section["items"][0]["why"]
    assert why["reason"] == "task" and why["matched"] == ["ledger"]
    assert why["score"] > 0 and why["strength"] > 0


def test_bad_recall_arguments_are_one_line_errors(mem):
    error_payload(mem("recall", "--budget", "10", "--json"), 2, "invalid_input")
    assert "--budget" in failed(mem("recall", "--budget", "10"), 2)
    assert "format" in failed(mem("recall", "--format", "yaml"), 2)
    assert "agent" in failed(mem("recall", "--agent", "../x"), 2)


def test_recall_without_a_vault_says_to_run_init(run_mem, tmp_path):
    assert "mem init" in failed(run_mem("recall", cwd=tmp_path), 1)


def test_recall_block_ids_point_at_real_entries(mem, vault):
    first = added_id(mem("add", "The ledger uses double entry.", "-c", "facts"))
    payload = data(mem("recall", "--json"))
    knowledge = next(s for s in payload["sections"] if s["key"] == "knowledge")
    assert knowledge["items"][0]["id"] == first


def test_excerpts_never_push_the_block_over_its_budget(mem, vault):
    body = (
        "gamma. zebra x x beta zebra yy beta x beta gamma beta alpha yy gamma gamma. yy gamma "
        "zebra yy beta gamma beta x zebra gamma x x x x. alpha yy zebra alpha alpha yy. zebra x "
        "zebra gamma alpha beta alpha gamma zebra beta."
    )
    mem("add", body, "-c", "lessons", "-a", "dev")
    for budget in range(50, 90):
        payload = data(
            mem("recall", "-a", "dev", "--task", "zebra", "--budget", str(budget), "--json")
        )
        assert payload["tokens"] <= budget and -(-len(payload["block"]) // 4) <= budget


def test_a_project_without_sentence_ends_is_cut_at_a_word_not_dropped(mem, vault):
    (vault / "_project.md").write_text("# Project\n\n" + "word " * 300)
    payload = data(mem("recall", "--budget", "200", "--json"))
    assert [s["key"] for s in payload["sections"]] == ["project"]
    assert payload["sections"][0]["items"][0]["text"].endswith("word…")
    assert [o["how"] for o in payload["omitted"]] == ["trimmed"]


def test_a_long_project_leaves_room_for_recovering(mem, vault):
    (vault / "_project.md").write_text("The project. " * 600)
    ok(mem("checkpoint", "--what", "halfway through the invoices migration"))
    block = ok(mem("recall", "--budget", "300")).stdout
    assert "## Project" in block and "## Recovering" in block
    assert "halfway through the invoices migration" in block


def test_a_trimmed_recovering_keeps_the_newest_output_inside_a_closed_fence(mem, vault):
    path = vault / ".mem" / "state" / "main" / "checkpoint.json"
    path.parent.mkdir(parents=True)
    tail = "\n".join(f"output line {n} ```" for n in range(40))
    path.write_text(
        json.dumps(
            {
                "saved": datetime.now(UTC).isoformat(),
                "status": "interrupted",
                "what": "migrating",
                "output_tail": tail,
            }
        )
    )
    block = ok(mem("recall", "--budget", "150")).stdout
    assert "output line 39" in block and "output line 0 " not in block
    lines = block.splitlines()
    opening = next(line for line in lines if line.startswith("````"))
    assert lines.count(opening) == 2 and lines[-1] == "</mem-recall>"


# A small team vault: what a payments team wrote down, on many subjects.
TEAM_NOTES = {
    "decisions": [
        "Chose Stripe over Adyen for card payments: better docs and test mode.",
        "Refunds go through a queue so a Stripe outage never blocks checkout.",
        "Invoices are rendered as PDF with WeasyPrint, not a headless browser.",
        "The ledger uses Postgres with serializable transactions.",
        "Feature flags live in LaunchDarkly, never in environment variables.",
        "Emails are sent through Postmark with one template per locale.",
    ],
    "lessons": [
        "Stripe webhooks arrive out of order: always fetch the event before acting on it.",
        "The nightly export timed out because the invoices query had no index on customer_id.",
        "A flaky checkout test came from a shared Redis database between workers.",
        "Currency amounts must be integers in minor units; floats lost cents in refunds.",
    ],
    "facts": [
        "The staging environment runs in eu-west-1 with a copy of last week's data.",
        "Payments code lives in src/payments; the ledger in src/ledger.",
        "Run the test suite with make test; it starts Postgres and Redis in Docker.",
        "The on-call rotation changes every Monday at 10:00 UTC.",
        "Customer support uses Zendesk; tickets link to the customer_id.",
    ],
}


def seed_team(vault) -> None:
    for category, bodies in TEAM_NOTES.items():
        blocks = [
            entry_block(f"20260301-10{n:02d}00-t{category[:2]}{n}", days_ago(20 - n), body)
            for n, body in enumerate(bodies)
        ]
        kind = {"decisions": "decision", "lessons": "lesson", "facts": "fact"}[category]
        blocks = [block.replace(" -->", f" kind:{kind} -->", 1) for block in blocks]
        write_category_file(vault, f"main/{category}.md", "main", category, *blocks)


TASK_DRIVEN = {"decisions", "lessons", "others", "more"}


def test_a_task_nothing_in_the_vault_bears_on_gets_no_task_driven_entries(mem, vault):
    seed_team(vault)
    unrelated = "Fix the dark mode toggle in the admin sidebar so its icon follows the theme."
    payload = data(mem("recall", "--task", unrelated, "--json"))
    assert not TASK_DRIVEN & {section["key"] for section in payload["sections"]}
    related = data(mem("recall", "--task", "Stripe webhook events are processed twice", "--json"))
    lessons = next(s for s in related["sections"] if s["key"] == "lessons")
    assert "webhooks arrive out of order" in lessons["items"][0]["text"]
    assert lessons["items"][0]["why"]["reason"] == "task"


def test_what_the_task_needs_is_packed_before_the_standing_context(mem, vault):
    seed_team(vault)
    next_steps = ["Add the refund e2e test", "Ask ops about the Redis memory limit"]
    handoff = ["handoff", "--what", "Moved refunds onto the queue", "--decision"]
    handoff += ["Refund jobs retry three times", "--changed", "src/payments/refunds.py"]
    mem(*handoff, *[arg for step in next_steps for arg in ("--next", step)], input="")
    task = "the nightly invoices export times out again"
    payload = data(mem("recall", "--task", task, "--budget", "110", "--json"))
    keys = [section["key"] for section in payload["sections"]]
    assert "lessons" in keys  # before: the full last session and Knowledge left it no room
    last = next(s for s in payload["sections"] if s["key"] == "last_session")
    # Under a tight budget the last session keeps its What, Unfinished and Next.
    assert "Moved refunds onto the queue" in last["items"][0]["text"]
    assert "Add the refund e2e test" in last["items"][0]["text"]
    assert "Refund jobs retry three times" not in last["items"][0]["text"]
    roomy = data(mem("recall", "--task", task, "--budget", "2000", "--json"))
    last = next(s for s in roomy["sections"] if s["key"] == "last_session")
    assert "Refund jobs retry three times" in last["items"][0]["text"]


def test_each_entry_and_each_open_task_appears_once(mem, vault):
    seed_team(vault)
    fact = "Deploys to production need two approvals in the release channel."
    mem("add", fact, "-c", "facts")
    mem("add", fact, "-c", "facts", "--scope", "shared")
    mem("task", "add", "Add the refund e2e test")
    mem(
        "handoff",
        "--what",
        "Moved refunds onto the queue",
        "--next",
        "Add the refund e2e test",
        input="",
    )
    block = ok(
        mem("recall", "--task", "deploys to production approvals", "--budget", "3000")
    ).stdout
    assert block.count("two approvals in the release channel") == 1
    assert block.count("Add the refund e2e test") == 1


def test_a_relevant_task_entry_reaches_the_block_early(mem, vault):
    seed_team(vault)
    mem(
        "add", "Follow-up: move the invoices export off the nightly cron to a queue.", "-c", "tasks"
    )
    payload = data(
        mem("recall", "--task", "invoices export is slow at night", "--budget", "300", "--json")
    )
    keys = [section["key"] for section in payload["sections"]]
    tasks = next(s for s in payload["sections"] if s["key"] == "open_tasks")
    assert "invoices export off the nightly cron" in tasks["items"][0]["text"]
    assert "knowledge" not in keys or keys.index("open_tasks") > keys.index("knowledge")


def test_an_open_task_the_cut_last_session_no_longer_shows_stays_under_open_tasks(mem, vault):
    mem("task", "add", "Add test")
    filler = " ".join(f"word{n}" for n in range(60))
    args = ["--what", "Moved refunds onto the queue", "--unfinished", filler, "--next", "Add test"]
    mem("handoff", *args, input="")
    payload = data(mem("recall", "--budget", "50", "--json"))
    assert "Add test" in payload["block"]
    trimmed = [o for o in payload["omitted"] if o["section"] == "last_session"]
    assert len(trimmed) == 1  # one omission for the cut handoff, not one per attempt


def test_a_task_of_several_items_the_last_session_lists_is_shown_once(mem, vault):
    mem("task", "add", "Write stripe docs\nShip release")
    mem(
        "handoff",
        "--what",
        "Refunds moved",
        "--next",
        "Write stripe docs",
        "--next",
        "Ship release",
        input="",
    )
    block = ok(mem("recall", "--budget", "2000")).stdout
    assert block.count("Ship release") == 1 and block.count("Write stripe docs") == 1


def test_a_word_matched_as_text_and_as_tag_counts_once(mem, vault):
    seed_team(vault)
    tagged = added_id(
        mem(
            "add",
            "Use a caching layer for the reports page.",
            "-c",
            "decisions",
            "--tags",
            "caching",
        )
    )
    payload = data(mem("recall", "--task", "caching", "--json"))
    decisions = next(s for s in payload["sections"] if s["key"] == "decisions")
    (item,) = [item for item in decisions["items"] if item["id"] == tagged]
    assert sorted(item["why"]["matched"]) == ["#cach", "cach"]
    assert 0 < item["why"]["strength"] <= 1.0  # one word, found in one entry: at most 1


def test_another_agents_entry_needs_a_stronger_match_to_be_relevant(mem, vault):
    seed_team(vault)
    note = "Payouts to Wise are batched hourly and reconciled against the bank feed."
    theirs = added_id(mem("add", note, "-c", "decisions", "-a", "ops"))
    # Two words only that note holds, among many it does not: enough for ops's own note...
    task = "the Wise payouts page renders blank since the sidebar navigation redesign landed"
    payload = data(mem("recall", "--agent", "ops", "--task", task, "--json"))
    decisions = next(s for s in payload["sections"] if s["key"] == "decisions")
    assert [item["id"] for item in decisions["items"]] == [theirs]
    assert 1.8 <= decisions["items"][0]["why"]["strength"] < 2.7
    # ... not for another agent's task.
    payload = data(mem("recall", "--agent", "main", "--task", task, "--json"))
    assert theirs not in {item["id"] for s in payload["sections"] for item in s["items"]}
    # Another agent's note that the task plainly bears on is shown.
    strong = "reconcile the hourly Wise payouts against the bank feed"
    payload = data(mem("recall", "--agent", "main", "--task", strong, "--json"))
    others = next(s for s in payload["sections"] if s["key"] == "others")
    assert [item["id"] for item in others["items"]] == [theirs]


def test_another_agents_weak_match_stays_out_of_a_block_that_is_on_topic(mem, vault):
    seed_team(vault)
    weak = "The staging webhook relay drops headers over 8 KB."
    theirs = added_id(mem("add", weak, "-c", "lessons", "-a", "ops"))
    # The task is on topic for main (its Stripe webhook lesson), and shares "webhook" with the
    # ops note: main's own weak matches may fill the block, another agent's may not.
    task = "Stripe webhook events are processed twice"
    payload = data(mem("recall", "--task", task, "--budget", "3000", "--json"))
    shown = {item["id"] for s in payload["sections"] for item in s["items"]}
    assert "lessons" in {s["key"] for s in payload["sections"]}
    assert theirs not in shown
    # The same note in main's own vault is a match worth filling with.
    mine = added_id(mem("add", weak, "-c", "lessons"))
    payload = data(mem("recall", "--task", task, "--budget", "3000", "--json"))
    assert mine in {item["id"] for s in payload["sections"] for item in s["items"]}


def test_knowledge_keeps_the_fact_that_says_most_about_the_vault_when_the_cap_cuts(mem, vault):
    for n in range(4):
        mem("add", f"Deploy {n} to staging failed until the migrations ran first.", "-c", "lessons")
    central = "Every deploy runs the staging migrations before the app starts."
    mem("add", central, "-c", "facts")
    asides = [
        "Visitor badges are teal.",
        "The office plant wants water on Fridays.",
        "Parking permits renew every March.",
        "Lunch orders close at eleven.",
        "Printer toner sits in cupboard B.",
        "Wifi guests use the yellow network.",
        "Holiday requests go through Maria.",
        "Bike racks are behind reception.",
        "Coffee beans come from Lisbon.",
        "Fire drills happen quarterly.",
    ]
    for aside in asides:  # newer, and enough to fill the section's 10 without it
        mem("add", aside, "-c", "facts")
    payload = data(mem("recall", "--budget", "3000", "--json"))
    knowledge = next(s for s in payload["sections"] if s["key"] == "knowledge")
    texts = [item["text"] for item in knowledge["items"]]
    assert len(texts) == 10 and central in texts[0]
