"""Splicing a JSON file's text into a new value: the result reads as the new value, and what did
not change keeps its bytes."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from mem.services.json_splice import splice

HAND_MADE = """{
    // no comments in JSON; this line is not here
}"""

SETTINGS = """{
    "permissions": { "allow": ["Bash(ls:*)",   "Read"], "deny": [] },
    "model":"opus",
    "hooks": {
        "Stop": [ {"hooks": [{"type": "command", "command": "notify-send done"}]} ]
    },
    "statusLine": {"type": "command", "command": "~/bin/status"}
}
"""

scalars = st.one_of(st.none(), st.booleans(), st.integers(-1000, 1000), st.text(max_size=5))
values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=4), inner, max_size=4)
    ),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(
    old=st.dictionaries(st.text(max_size=4), values, max_size=5),
    new=values,
    indent=st.sampled_from([None, 2, 4, "\t"]),
)
def test_the_spliced_text_reads_as_the_new_value(old, new, indent):
    text = json.dumps(old, indent=indent)
    assert json.loads(splice(text, new)) == new


@settings(max_examples=200, deadline=None)
@given(old=st.dictionaries(st.text(max_size=4), values, min_size=1, max_size=5), data=st.data())
def test_members_left_alone_keep_their_bytes(old, data):
    text = json.dumps(old, indent=2)
    kept = data.draw(st.sampled_from(sorted(old)))
    new = {key: value for key, value in old.items() if key == kept}
    new["added"] = [1, {"x": None}]
    out = splice(text, new)
    assert json.loads(out) == new
    piece = (
        f"{json.dumps(kept)}: {json.dumps(old[kept], indent=2).replace(chr(10), chr(10) + '  ')}"
    )
    assert piece in out


def test_a_hand_formatted_file_changes_only_where_mem_writes():
    data = json.loads(SETTINGS)
    data["hooks"]["Stop"].append({"hooks": [{"type": "command", "command": "mem hook x"}]})
    data["hooks"]["SessionStart"] = [{"hooks": [{"type": "command", "command": "mem hook x"}]}]
    out = splice(SETTINGS, data)
    assert json.loads(out) == data
    for line in SETTINGS.splitlines()[:3] + SETTINGS.splitlines()[6:]:
        assert line in out  # permissions, model and statusLine exactly as they were
    del data["hooks"]["SessionStart"]
    data["hooks"]["Stop"].pop()
    assert splice(out, data) == SETTINGS
