"""What ranking needs of an entry, packed into one integer: the index keeps it in a column, so
scoring a match costs one read. Layout, from the low bit: steady (1 bit: an open task or a
pinned entry, which never decays), kind code (5 bits), times reinforced (14 bits), then the
entry's date in signed seconds (shifts keep the sign, so dates before 1970 order too)."""

from typing import NamedTuple

STEADY_BITS, KIND_BITS, REINFORCED_BITS = 1, 5, 14
KIND_SHIFT = STEADY_BITS
REINFORCED_SHIFT = KIND_SHIFT + KIND_BITS
SECONDS_SHIFT = REINFORCED_SHIFT + REINFORCED_BITS
KIND_MASK = (1 << KIND_BITS) - 1
REINFORCED_MAX = (1 << REINFORCED_BITS) - 1
UNKNOWN_KIND = KIND_MASK


class RankKey(NamedTuple):
    """The parts of a packed rank value."""

    seconds: int  # the entry's date, seconds since 1970 (negative before)
    reinforced: int  # capped at REINFORCED_MAX
    kind: int  # a code in KIND_CODES, or UNKNOWN_KIND
    steady: bool

    def pack(self) -> int:
        reinforced = min(max(self.reinforced, 0), REINFORCED_MAX)
        return (
            (self.seconds << SECONDS_SHIFT)
            | (reinforced << REINFORCED_SHIFT)
            | ((self.kind & KIND_MASK) << KIND_SHIFT)
            | int(self.steady)
        )

    @classmethod
    def unpack(cls, value: int) -> "RankKey":
        return cls(
            value >> SECONDS_SHIFT,
            (value >> REINFORCED_SHIFT) & REINFORCED_MAX,
            (value >> KIND_SHIFT) & KIND_MASK,
            bool(value & 1),
        )
