"""`mem task add|done|list`: checkbox tasks in tasks.md."""

from __future__ import annotations

import re

from .helpers import added_id, data, error_payload, messages, ok


def test_task_add_list_and_done_round_trip(mem, vault):
    result = mem("task", "add", "migrate the session store\nremove the old tables", "-a", "dev")
    task_id = added_id(result)
    assert messages(result.stderr) == ["added task to dev/tasks.md"]
    text = (vault / "dev" / "tasks.md").read_text()
    assert "- [ ] migrate the session store\n- [ ] remove the old tables\n" in text

    listed = ok(mem("task", "list"))
    # People read the random tail of an id, as git shows a short hash; the whole id still works.
    assert listed.stdout.splitlines()[0].startswith(f"{task_id.rpartition('-')[2]}  ")
    assert "    - [ ] migrate the session store" in listed.stdout

    partial = data(mem("task", "done", task_id[:-1], "old tables", "--json"))
    assert partial["ticked"] == 1
    assert (
        partial["entry"]["body"] == "- [ ] migrate the session store\n- [x] remove the old tables"
    )
    assert [e["id"] for e in data(mem("task", "list", "--json"))["entries"]] == [task_id]

    finished = ok(mem("task", "done", task_id))
    assert finished.stdout == ""
    assert messages(finished.stderr) == [f"ticked 1 item(s) of {task_id}; the task is done"]
    assert data(mem("task", "list", "--json")) == {"schema_version": 1, "entries": [], "count": 0}
    assert data(mem("list", "--open-tasks", "--json"))["entries"] == []
    text = (vault / "dev" / "tasks.md").read_text()
    assert "- [x] migrate the session store\n- [x] remove the old tables\n" in text
    assert re.search(rf"<!-- id:{task_id} kind:task done:\d{{4}}-\d\d-\d\dT\d\d:\d\dZ -->", text)


def test_task_add_reads_stdin_and_keeps_given_checkboxes(mem):
    entry = data(
        mem(
            "task",
            "add",
            "-",
            "--tags",
            "release",
            "-a",
            "qa",
            "--json",
            input="- [ ] tag v1.0\n- [x] write the changelog\n",
        )
    )["entry"]
    assert entry["category"] == "tasks" and entry["kind"] == "task"
    assert entry["body"] == "- [ ] tag v1.0\n- [x] write the changelog"
    assert entry["tags"] == ["release"]


def test_task_list_filters_by_agent(mem):
    dev_task = added_id(mem("task", "add", "dev thing", "-a", "dev"))
    qa_task = added_id(mem("task", "add", "qa thing", "-a", "qa"))
    assert [e["id"] for e in data(mem("task", "list", "-a", "qa", "--json"))["entries"]] == [
        qa_task
    ]
    everyone = {e["id"] for e in data(mem("task", "list", "--json"))["entries"]}
    assert everyone == {dev_task, qa_task}


def test_task_done_with_text_that_matches_nothing_changes_nothing(mem, vault):
    task_id = added_id(mem("task", "add", "write docs", "-a", "dev"))
    before = (vault / "dev" / "tasks.md").read_bytes()
    message = error_payload(mem("task", "done", task_id, "deploy", "--json"), 1, "no_matching_item")
    assert "'deploy'" in message
    assert (vault / "dev" / "tasks.md").read_bytes() == before


def test_task_done_refuses_an_entry_that_is_not_a_task(mem, vault):
    entry_id = added_id(mem("add", "a plain fact", "-a", "dev"))
    before = (vault / "dev" / "facts.md").read_bytes()
    message = error_payload(mem("task", "done", entry_id, "--json"), 1, "not_a_task")
    assert "not a task" in message
    assert (vault / "dev" / "facts.md").read_bytes() == before


def test_task_add_refuses_empty_text(mem, vault):
    error_payload(mem("task", "add", " \n ", "--json"), 2, "invalid_input")
    assert not (vault / "main").exists()
