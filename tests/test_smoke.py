"""The smallest loop works: init, add, search."""

import json


def test_add_then_search_finds_the_entry(run_mem, vault):
    added = run_mem(
        "--vault",
        str(vault),
        "add",
        "Chose bcrypt over argon2 for hashing",
        "--category",
        "decisions",
        "--agent",
        "dev",
    )
    assert added.exit_code == 0, added.stderr
    found = run_mem("--vault", str(vault), "search", "argon2", "--json")
    assert found.exit_code == 0, found.stderr
    hits = json.loads(found.stdout)["hits"]
    assert [hit["id"] for hit in hits] == [added.stdout.strip()]
