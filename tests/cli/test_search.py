"""`mem search`: ranked full-text search with filters, decay, reinforcement and privacy."""

from __future__ import annotations

import shutil
from datetime import UTC, datetime, timedelta

from .helpers import (
    ENTRY_KEYS,
    INDEX_NOTICE,
    added_id,
    data,
    entry_block,
    error_payload,
    messages,
    ok,
    write_category_file,
)


def days_ago(days: float) -> str:
    return f"{datetime.now(UTC) - timedelta(days=days):%Y-%m-%dT%H:%MZ}"


def hit_ids(result) -> list[str]:
    return [hit["id"] for hit in data(result)["hits"]]


def seed(vault):
    write_category_file(
        vault,
        "dev/decisions.md",
        "dev",
        "decisions",
        entry_block("s-dev-dec", days_ago(3), "Cache invalidation goes through redis pubsub."),
        entry_block(
            "s-dev-gone", days_ago(4), "Cache invalidation by polling.", superseded_by="s-dev-dec"
        ),
    )
    write_category_file(
        vault,
        "dev/lessons.md",
        "dev",
        "lessons",
        entry_block(
            "s-dev-warn", days_ago(5), "Cache stampede when redis restarts.", kind="warning"
        ),
    )
    write_category_file(
        vault,
        "ops/facts.md",
        "ops",
        "facts",
        entry_block("s-ops-fact", days_ago(6), "Cache servers run in eu-west.", "#infra"),
    )
    write_category_file(
        vault,
        "qa/lessons.md",
        "qa",
        "lessons",
        entry_block("s-qa-old", days_ago(400), "Cache tests were flaky on CI."),
    )


def test_search_prints_ranked_hits_with_snippets(mem, vault):
    seed(vault)
    result = ok(mem("search", "redis", "--no-decay"))
    lines = result.stdout.splitlines()
    assert len(lines) == 4
    assert lines[0].startswith("s-dev-dec  ") or lines[0].startswith("s-dev-warn  ")
    assert {lines[0].split()[0], lines[2].split()[0]} == {"s-dev-dec", "s-dev-warn"}
    assert "    Cache invalidation goes through redis pubsub." in lines
    assert "    Cache stampede when redis restarts." in lines
    assert all(INDEX_NOTICE.fullmatch(line) for line in result.stderr.splitlines())


def test_search_without_matches_succeeds_quietly(mem, vault):
    seed(vault)
    result = ok(mem("search", "kubernetes"))
    assert result.stdout == ""
    assert messages(result.stderr) == ["no matches"]
    assert data(mem("search", "kubernetes", "--json")) == {
        "schema_version": 1,
        "hits": [],
        "count": 0,
    }


def test_search_hits_carry_entry_fields_score_and_snippet(mem, vault):
    seed(vault)
    hits = data(mem("search", "eu-west", "--json"))["hits"]
    assert len(hits) == 1
    hit = hits[0]
    assert set(hit) == ENTRY_KEYS | {"score", "snippet"}
    assert hit["id"] == "s-ops-fact" and hit["agent"] == "ops" and hit["tags"] == ["infra"]
    assert hit["snippet"] == "Cache servers run in eu-west."
    assert hit["score"] > 0


def test_search_filters_by_agent_category_kind_tag_since_and_exclusion(mem, vault):
    seed(vault)
    everything = {"s-dev-dec", "s-dev-warn", "s-ops-fact", "s-qa-old"}
    assert set(hit_ids(mem("search", "cache", "--json"))) == everything
    assert set(hit_ids(mem("search", "cache", "--agent", "dev", "--json"))) == {
        "s-dev-dec",
        "s-dev-warn",
    }
    assert set(hit_ids(mem("search", "cache", "--category", "lessons", "--json"))) == {
        "s-dev-warn",
        "s-qa-old",
    }
    assert hit_ids(mem("search", "cache", "--kind", "warning", "--json")) == ["s-dev-warn"]
    assert hit_ids(mem("search", "cache", "--tag", "infra", "--json")) == ["s-ops-fact"]
    assert set(hit_ids(mem("search", "cache", "--since", "30d", "--json"))) == everything - {
        "s-qa-old"
    }
    since_time = f"{datetime.now(UTC) - timedelta(days=4.5):%Y-%m-%dT%H:%M}"
    assert set(hit_ids(mem("search", "cache", "--since", since_time, "--json"))) == {"s-dev-dec"}
    since_date = f"{datetime.now(UTC) - timedelta(days=100):%Y-%m-%d}"
    assert "s-qa-old" not in hit_ids(mem("search", "cache", "--since", since_date, "--json"))
    excluded = mem("search", "cache", "--exclude-agent", "dev", "--exclude-agent", "qa", "--json")
    assert hit_ids(excluded) == ["s-ops-fact"]
    assert len(hit_ids(mem("search", "cache", "--limit", "2", "--json"))) == 2


def test_search_hides_superseded_entries_unless_all(mem, vault):
    seed(vault)
    assert hit_ids(mem("search", "polling", "--json")) == []
    shown = data(mem("search", "polling", "--all", "--json"))["hits"]
    assert [(hit["id"], hit["superseded_by"]) for hit in shown] == [("s-dev-gone", "s-dev-dec")]


def test_no_decay_ranks_an_old_entry_level_with_a_new_one(mem, vault):
    text = "Prefer small pull requests so reviews stay quick."
    write_category_file(
        vault,
        "dev/decisions.md",
        "dev",
        "decisions",
        entry_block("zzzz-new-twin", days_ago(0), text),
        entry_block("0000-old-twin", days_ago(400), text),
    )
    decayed = data(mem("search", "pull requests review", "--json"))["hits"]
    assert [hit["id"] for hit in decayed] == ["zzzz-new-twin", "0000-old-twin"]
    # 400 days is many half-lives: only the floor's share of the relevance is left
    assert decayed[0]["score"] * 0.49 < decayed[1]["score"] < decayed[0]["score"] * 0.51

    flat = data(mem("search", "pull requests review", "--no-decay", "--json"))["hits"]
    # equal text relevance: equal scores, and the tie goes to the id
    assert flat[0]["score"] == flat[1]["score"]
    assert [hit["id"] for hit in flat] == ["0000-old-twin", "zzzz-new-twin"]


def test_a_reinforced_entry_outranks_an_identical_one(mem, vault):
    text = "Always run migrations before seeding the database."
    date = days_ago(2)
    write_category_file(
        vault,
        "dev/facts.md",
        "dev",
        "facts",
        entry_block("aaaa-plain", date, text),
        entry_block("zzzz-seen-again", date, text, reinforced="5"),
    )
    hits = data(mem("search", "migrations seeding", "--json"))["hits"]
    assert [hit["id"] for hit in hits] == ["zzzz-seen-again", "aaaa-plain"]
    assert hits[0]["reinforced"] == 5 and hits[1]["reinforced"] == 0
    assert hits[0]["score"] > hits[1]["score"]


def test_private_entries_are_found_only_by_their_own_agent(mem):
    private = added_id(
        mem("add", "The staging password rotates on Fridays", "--scope", "private", "-a", "dev")
    )
    public = added_id(mem("add", "Staging deploys run on Fridays", "-a", "ops"))
    query = ("search", "fridays", "--json")

    assert hit_ids(mem(*query)) == [public]  # the default agent, main
    assert hit_ids(mem(*query, env={"MEM_AGENT": "qa"})) == [public]
    assert hit_ids(mem("--agent", "qa", *query)) == [public]
    assert set(hit_ids(mem(*query, env={"MEM_AGENT": "dev"}))) == {private, public}
    assert set(hit_ids(mem("--agent", "dev", *query))) == {private, public}
    hit = next(h for h in data(mem("-a", "dev", *query))["hits"] if h["id"] == private)
    assert hit["scope"] == "private" and hit["agent"] == "dev"
    # The command's --agent is a filter, not an identity: it shows nobody else's private entries.
    assert hit_ids(mem(*query, "--agent", "dev", env={"MEM_AGENT": "qa"})) == []


def test_search_notices_files_edited_behind_its_back(mem, vault):
    seed(vault)
    assert hit_ids(mem("search", "eu-west", "--json")) == ["s-ops-fact"]
    path = vault / "ops" / "facts.md"
    path.write_text(path.read_text().replace("eu-west", "ap-south"))
    assert hit_ids(mem("search", "eu-west", "--json")) == []
    assert hit_ids(mem("search", "ap-south", "--json")) == ["s-ops-fact"]


def test_search_rebuilds_a_missing_or_corrupt_index_with_a_notice(mem, vault):
    seed(vault)
    ok(mem("search", "cache"))
    index = vault / ".mem" / "index"
    for name in [p.name for p in index.iterdir() if p.suffix == ".seg"]:
        (index / name).write_bytes(b"garbage")
    corrupt = mem("search", "eu-west", "--json")
    assert hit_ids(corrupt) == ["s-ops-fact"]
    assert "the index was missing or unreadable; rebuilding it" in corrupt.stderr

    shutil.rmtree(index)
    assert hit_ids(mem("search", "eu-west", "--json")) == ["s-ops-fact"]


def test_search_refuses_an_empty_query_and_a_bad_since(mem, vault):
    seed(vault)
    error_payload(mem("search", "  ", "--json"), 2, "invalid_input")
    message = error_payload(
        mem("search", "cache", "--since", "yesterday", "--json"), 2, "invalid_input"
    )
    assert "'yesterday'" in message


def test_hits_report_the_line_of_their_own_header_not_a_longer_ids(mem, vault):
    (vault / "dev").mkdir(exist_ok=True)
    (vault / "dev" / "facts.md").write_text(
        "---\nagent: dev\ncategory: facts\n---\n\n"
        "<!-- id:17736798718 -->\n## 2026-01-02T00:00Z\n\nlonger id about turnips\n\n---\n\n"
        "<!-- id:1773 -->\n## 2026-01-01T00:00Z\n\nshort id about turnips\n\n---\n\n"
    )
    hits = {hit["id"]: hit["line"] for hit in data(mem("search", "turnips", "--json"))["hits"]}
    assert hits == {"17736798718": 6, "1773": 13}


def test_inflected_words_find_their_stem_both_ways(mem, vault):
    # Whoosh's Porter leaves "running" as "runn"; mem's analyzer undoubles it, as Porter says.
    first = added_id(
        mem("add", "The migration keeps running twice on deploy.", "--category", "lessons")
    )
    second = added_id(mem("add", "We stopped the cron job on Fridays.", "--category", "decisions"))
    assert hit_ids(mem("search", "run", "--json")) == [first]
    assert hit_ids(mem("search", "stop", "--json")) == [second]
    assert hit_ids(mem("search", "stopping runs", "--json", "--no-decay")) != []


def test_tags_are_found_by_their_words_in_any_form(mem, vault):
    flaky = added_id(
        mem("add", "Quarantine the checkout suite.", "-c", "lessons", "--tags", "flaky-tests")
    )
    deps = added_id(
        mem("add", "Moment.js is out; use Luxon.", "-c", "decisions", "--tags", "dependencies")
    )
    assert hit_ids(mem("search", "why is it flaky?", "--json")) == [flaky]
    assert hit_ids(mem("search", "drop that dependency.", "--json")) == [deps]
    # --tag still names a tag exactly as written.
    assert hit_ids(mem("search", "checkout", "--tag", "flaky-tests", "--json")) == [flaky]
    assert hit_ids(mem("search", "checkout", "--tag", "flaky", "--json")) == []


def test_a_tag_weighs_what_its_word_weighs_in_the_vault(mem, vault):
    # "cache" is in many entries' text and one entry's tags: as a tag it is no rarer.
    for n in range(6):
        mem("add", f"The cache of service {n} is warmed at boot.", "-c", "facts")
    tagged = added_id(
        mem("add", "Warm nothing at boot for the admin app.", "-c", "facts", "--tags", "cache")
    )
    rare = added_id(mem("add", "Zstandard beats gzip for the admin app.", "-c", "facts"))
    block = data(mem("recall", "--task", "cache zstandard", "--json"))
    why = {
        item["id"]: item["why"] for s in block["sections"] for item in s["items"] if item.get("why")
    }
    assert "#cach" in why[tagged]["matched"] and "zstandard" in why[rare]["matched"]
    assert why[tagged]["strength"] < why[rare]["strength"] / 2


def test_identifiers_are_found_by_their_words_and_whole(mem, vault):
    lazy = added_id(
        mem(
            "add",
            "Only modules loaded with React.lazy may use a default export.",
            "-c",
            "decisions",
        )
    )
    gone = added_id(
        mem("add", "Call deprecated(reason=..., gone_in=...) for removals.", "-c", "facts")
    )
    router = added_id(
        mem("add", "The createRouter helper wires the catalog routes.", "-c", "facts")
    )
    path = added_id(
        mem("add", "Vendored code lives in src/pip/_vendor, never edited.", "-c", "facts")
    )
    assert hit_ids(mem("search", "lazy", "--json")) == [lazy]
    assert hit_ids(mem("search", "React.lazy", "--json"))[0] == lazy
    assert hit_ids(mem("search", "gone", "--json")) == [gone]
    assert hit_ids(mem("search", "router", "--json")) == [router]
    assert hit_ids(mem("search", "create_router", "--json"))[0] == router
    assert hit_ids(mem("search", "vendor", "--json")) == [path]


def test_search_finds_an_entry_by_a_word_the_vault_holds_with_the_query(mem, vault):
    # "upload" and "multipart" are held together by two entries: a search for uploads also
    # finds, lower, the entry that only says multipart. Related words rank; they are not matches
    # that make an entry relevant to recall.
    blocks = [
        entry_block("r-1", days_ago(1), "Uploads go through multipart above 8 MB."),
        entry_block("r-2", days_ago(1), "Large uploads need multipart or they stall."),
        entry_block("r-3", days_ago(1), "The multipart threshold is set in storage.toml."),
    ]
    blocks += [entry_block(f"f-{n}", days_ago(2), f"Topic{n} notes{n}.") for n in range(60)]
    write_category_file(vault, "dev/lessons.md", "dev", "lessons", *blocks)
    ids = hit_ids(ok(mem("search", "uploads time out", "--json")))
    assert set(ids[:2]) == {"r-1", "r-2"} and ids[2] == "r-3"
    block = data(mem("recall", "--agent", "dev", "--task", "uploads time out", "--json"))
    shown = {item["id"]: item["why"] for s in block["sections"] for item in s["items"]}
    assert shown["r-1"]["reason"] == "task" and "upload" in shown["r-1"]["matched"]
    # r-3 is found by a related word, and lifted by its neighbours (written the same minute).
    assert "r-3" not in shown or set(shown["r-3"]["matched"]) <= {"~multipart", "+upload"}
    assert "r-3" not in shown or shown["r-3"]["reason"] == "standing"
