"""The packed rank value: what goes in comes out, and packed values order by date."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from mem.index.rank_key import KIND_MASK, REINFORCED_MAX, RankKey

keys = st.builds(
    RankKey,
    seconds=st.integers(min_value=-(2**40), max_value=2**40),
    reinforced=st.integers(min_value=0, max_value=REINFORCED_MAX),
    kind=st.integers(min_value=0, max_value=KIND_MASK),
    steady=st.booleans(),
)


@given(keys)
def test_a_packed_key_unpacks_to_what_went_in(key):
    assert RankKey.unpack(key.pack()) == key


@given(keys, keys)
def test_packed_keys_order_by_date_first(first, second):
    if first.seconds < second.seconds:
        assert first.pack() < second.pack()


def test_reinforcement_past_the_field_is_capped_not_spilled_into_the_date():
    key = RankKey(1_700_000_000, REINFORCED_MAX + 50, 3, False)
    assert RankKey.unpack(key.pack()) == key._replace(reinforced=REINFORCED_MAX)
