"""Card kinds and table sizes: the few numbers every other layout is built from.

A NamedTuple instance or a plain int each, so numba folds them into the kernels as constants.
`sim.core.enums` re-exports everything here.
"""

from __future__ import annotations

from typing import NamedTuple


class KindT(NamedTuple):
    """Card kinds: what the rules can tell apart.  Suits matter only for threes (and for
    Samba sequences, which are not implemented yet), so hands, melds and the pile are
    count arrays over these 15 kinds."""

    TWO: int = 0
    BLACK3: int = 1
    FOUR: int = 2
    FIVE: int = 3
    SIX: int = 4
    SEVEN: int = 5
    EIGHT: int = 6
    NINE: int = 7
    TEN: int = 8
    JACK: int = 9
    QUEEN: int = 10
    KING: int = 11
    ACE: int = 12
    JOKER: int = 13
    RED3: int = 14


Kind = KindT()
N_KINDS = 15
FIRST_NATURAL = 2  # kinds 2..12 are the meldable natural ranks 4..A
LAST_NATURAL = 12
KIND_NAMES = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "JK", "R3")

MAX_SEATS = 6
MAX_TEAMS = 3
MAX_CARDS = 162
