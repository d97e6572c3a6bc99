"""search() scores from the postings itself: it must agree with Whoosh's own BM25F search."""

from __future__ import annotations

import random

import pytest

from mem.index.search_index import BM25_B, BM25_K1, Filters, Ranking, SearchIndex, bm25f
from mem.model import DEFAULT_HALF_LIFE_DAYS

from .helpers import SCORING_NOW as NOW
from .helpers import random_lessons


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> SearchIndex:
    """An index of several segments, with deleted documents in the older ones."""
    rng = random.Random(7)
    index = SearchIndex(tmp_path_factory.mktemp("scoring") / "index")
    first = random_lessons(rng, "dev/lessons.md", "dev", 400)
    index.rebuild(first, len(first), {})
    for round_ in range(3):
        path = f"qa{round_}/lessons.md"
        index.update({path: random_lessons(rng, path, f"qa{round_}", 150)}, {})
        kept = [pair for pair in first if rng.random() > 0.2]  # the rest are deleted
        index.update({"dev/lessons.md": kept}, {})
        first = kept
    return index


def whoosh_scores(index: SearchIndex, clauses: list[tuple[str, str]]) -> dict[int, float]:
    from whoosh.query import Or, Term
    from whoosh.scoring import BM25F

    with index.open().searcher(weighting=BM25F(B=BM25_B, K1=BM25_K1)) as searcher:
        results = searcher.search(Or([Term(field, text) for field, text in clauses]), limit=None)
        return dict(results.items())


def test_the_fixture_has_several_segments_and_deletions(index: SearchIndex):
    reader = index.reader()
    assert len(reader.leaf_readers()) > 1
    assert reader.doc_count() < reader.doc_count_all()


@pytest.mark.parametrize(
    "clauses",
    [
        [("content", "login")],
        [("content", "flaki"), ("content", "test")],
        [("content", "postgr"), ("content", "migrat"), ("content", "timeout")],
        [
            ("content", "docker"),
            ("tag_words", "docker"),
            ("content", "cach"),
            ("tag_words", "cach"),
        ],
        [("content", "nowher"), ("content", "bcrypt")],
        [("content", "nowher")],
    ],
)
def test_bm25f_scores_what_whoosh_scores(index: SearchIndex, clauses):
    ours = bm25f(index.reader(), clauses)
    theirs = whoosh_scores(index, clauses)
    assert ours.keys() == theirs.keys()
    for docnum, score in theirs.items():
        assert ours[docnum] == pytest.approx(score, rel=1e-12)


def test_search_ranks_by_those_scores_and_hides_what_it_must(index: SearchIndex):
    ranking = Ranking(now=NOW, half_life_days=DEFAULT_HALF_LIFE_DAYS, decay=False)
    found = index.search("flaky test", Filters(viewer="dev"), ranking, None)
    scores = [hit.score for hit in found]
    assert scores == sorted(scores, reverse=True) and len(found) > 50
    assert all(hit.entry.scope != "private" or hit.entry.agent == "dev" for hit in found)
    theirs = whoosh_scores(index, [("content", "flaki"), ("content", "test")])
    assert len(found) < len(theirs)  # the other agents' private entries are hidden
    for entry, score, matched, strength, coverage in found:
        words = {*entry.body.split(), *entry.tags}
        assert {"flaky", "test"} & words
        assert score > 0 and matched and 0 < strength <= 2 and 0 < coverage <= 1
        assert ("flaki" in matched or "#flaki" in matched) == ("flaky" in words)


@pytest.mark.parametrize("limit", [1, 10, 100])
@pytest.mark.parametrize("query", ["flaky test", "login redirect in May 2026", "postgres"])
def test_a_search_that_ranks_only_what_may_make_the_limit_finds_what_ranking_all_finds(
    index: SearchIndex, monkeypatch, query, limit
):
    """Past PRUNE_FROM matches a search ranks only the documents whose score could still reach
    the best `limit` (see _best): the same hits, in the same order, as ranking every one."""
    from mem.index import search_index

    ranking = Ranking(now=NOW, half_life_days=DEFAULT_HALF_LIFE_DAYS)
    filters = Filters(viewer="dev", exclude_agents=("qa1",))
    monkeypatch.setattr(search_index, "PRUNE_FROM", 10)
    monkeypatch.setattr(search_index, "PRUNE_PER_HIT", 1)
    ranked: list[int] = []  # how many documents each ranking was given
    rank = SearchIndex._rank
    monkeypatch.setattr(
        SearchIndex,
        "_rank",
        lambda self, r, scored, *a: ranked.append(len(scored)) or rank(self, r, scored, *a),
    )
    pruned = index.search(query, filters, ranking, limit)
    monkeypatch.setattr(SearchIndex, "_rank", rank)
    monkeypatch.setattr(search_index, "PRUNE_FROM", 10**9)
    whole = index.search(query, filters, ranking, limit)
    assert len(whole) == limit
    matched = len(index.search(query, filters, ranking, None))
    if limit == 1 and "May" not in query:  # it pruned: the last ranking had fewer than all
        # (a period doubles what any score may become: at this size nothing can be left out)
        assert ranked and ranked[-1] < matched
    assert [(hit.entry.id, hit.score) for hit in pruned] == [
        (hit.entry.id, hit.score) for hit in whole
    ]


def test_the_manifest_bounds_reinforcement_as_entries_are_indexed(tmp_path):
    rng = random.Random(5)
    index = SearchIndex(tmp_path / "index")
    first = random_lessons(rng, "dev/lessons.md", "dev", 30)
    index.rebuild(first, len(first), {})
    assert index.most_reinforced() == max(entry.reinforced for entry, _ in first) <= 5
    more = [
        (entry._replace(header=(("kind", "lesson"), ("reinforced", "40"))), fingerprint)
        for entry, fingerprint in random_lessons(rng, "qa/lessons.md", "qa", 3)
    ]
    seen_at_commit: list[int] = []
    writer_of = index._writer

    def watched():  # the bound the manifest holds when the new documents become readable
        writer = writer_of()
        commit = writer.commit
        writer.commit = lambda *a, **k: (
            seen_at_commit.append(index.most_reinforced()),
            commit(*a, **k),
        )
        return writer

    index._writer = watched
    index.update({"qa/lessons.md": more}, {})
    assert seen_at_commit == [40]
    assert index.most_reinforced() == 40
    index.update({"qa/lessons.md": []}, {})
    assert index.most_reinforced() == 40  # a bound: removing entries leaves it
