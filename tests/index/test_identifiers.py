"""Identifiers split into their words for the index, as Whoosh's IntraWordFilter would, without
its cost: the analyzer is unpickled by every process that opens the index."""

from __future__ import annotations

import pickle

from mem.index.analysis import content_analyzer


def terms(text: str) -> list[str]:
    return [token.text for token in content_analyzer()(text)]


def test_identifiers_give_their_words_and_the_whole():
    assert terms("React.lazy") == ["react", "lazi", "reactlazi"]
    assert terms("createRouter") == ["creat", "router", "createrout"]
    assert terms("DATE_MED gone_in") == ["date", "med", "datem", "go", "gonein"]
    assert terms("src/pip/_internal/utils") == ["src", "pip", "intern", "util"]
    assert terms("ICommand café") == ["icommand", "café"]  # no split inside a capital run
    assert terms("running tests") == ["run", "test"]


def test_digits_stay_with_their_word_so_ids_and_versions_match_only_themselves():
    assert terms("w3n49 SD500") == ["w3n49", "sd500"]
    assert terms("python3.11") == ["python3", "python311"]
    assert terms("1.5") == ["1.5"]


def test_the_stored_analyzer_holds_no_filter_that_compiles_unicode_tables():
    # Whoosh's IntraWordFilter recompiles patterns of every Unicode letter when unpickled:
    # about 7 ms of every `mem search` and `mem recall` (measured with bench/perf.py).
    restored = pickle.loads(pickle.dumps(content_analyzer()))
    assert "IntraWordFilter" not in repr(restored)
    assert "IdentifierFilter" in repr(restored)


def test_irregular_forms_are_indexed_as_the_word_they_are_a_form_of():
    assert terms("we went with Postgres") == terms("we go with Postgres")
    assert terms("the build broke; it was rebuilt") == terms("the build breaks; it was rebuilds")
    assert terms("children wrote") == terms("child writes")
    # Forms that are words of their own keep their sense: "left" is a side, "found" a start.
    assert terms("left found") == ["left", "found"]
