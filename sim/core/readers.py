"""Small readers of a state or an observation: card codes, a team's melds and canastas, the
suited part of a hand, wild-card room, action decoders.

Every function reads the public part of `arr` (a full state or an observation, layout
`sim.core.enums.Off`); the tiny ones are `inline="always"`, so naming them costs nothing in the
kernels.  Card codes in the stock and the pile are `kind | suit << 4` (jokers: kind only).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.core.enums import (
    FIRST_NATURAL,
    LAST_NATURAL,
    MAX_SEQS,
    N_KINDS,
    N_SUITED,
    Act,
    Off,
    Par,
)


def code_kind(code: int) -> int:
    """Kind of a card code (`kind | suit << 4`)."""
    return code & 15


def code_suit(code: int) -> int:
    """Suit (0..3 = C D H S) of a card code; jokers have suit 0."""
    return code >> 4


def make_code(kind: int, suit: int) -> int:
    """The card code of a kind in a suit."""
    return kind | (suit << 4)


# the same, compiled for the kernels (inlined: no cost over the bare bit operations)
code_kind_nb = njit(cache=True, _nrt=False, inline="always")(code_kind)
code_suit_nb = njit(cache=True, _nrt=False, inline="always")(code_suit)
make_code_nb = njit(cache=True, _nrt=False, inline="always")(make_code)


@njit(cache=True, _nrt=False, inline="always")
def meld_nat_nb(arr: np.ndarray, team: int, kind: int) -> int:
    """Naturals in the team's open meld of `kind`."""
    return arr[Off.MELD_NAT + team * N_KINDS + kind]


@njit(cache=True, _nrt=False, inline="always")
def meld_wild_nb(arr: np.ndarray, team: int, kind: int) -> int:
    """Wild cards (twos and jokers) in the team's open meld of `kind`."""
    i = team * N_KINDS + kind
    return arr[Off.MELD_TWO + i] + arr[Off.MELD_JOKER + i]


# de Bruijn table: the index of the lowest set bit without a loop (numba's cache cannot link
# the LLVM cttz intrinsic)
_DEBRUIJN64 = np.array(
    [
        0,
        1,
        48,
        2,
        57,
        49,
        28,
        3,
        61,
        58,
        50,
        42,
        38,
        29,
        17,
        4,
        62,
        55,
        59,
        36,
        53,
        51,
        43,
        22,
        45,
        39,
        33,
        30,
        24,
        18,
        12,
        5,
        63,
        47,
        56,
        27,
        60,
        41,
        37,
        16,
        54,
        35,
        52,
        21,
        44,
        32,
        23,
        11,
        46,
        26,
        40,
        15,
        34,
        20,
        31,
        10,
        25,
        14,
        19,
        9,
        13,
        8,
        7,
        6,
    ],
    dtype=np.int64,
)


@njit(cache=True, _nrt=False, inline="always")
def lowest_bit_nb(mask: int) -> int:
    """Index of the lowest set bit of a non-zero int64 mask."""
    low = np.uint64(mask & -mask)
    return _DEBRUIJN64[(low * np.uint64(0x03F79D71B4CB0A89)) >> np.uint64(58)]


@njit(cache=True, _nrt=False, inline="always")
def team_of_nb(arr: np.ndarray) -> int:
    """Team of the seat to act (in an observation: the observing player's team)."""
    return arr[Off.TEAM_OF_SEAT + arr[Off.SEAT]]


@njit(cache=True, _nrt=False, inline="always")
def meld_size_nb(arr: np.ndarray, team: int, kind: int) -> int:
    """Cards in the team's open meld of `kind` (0: no meld)."""
    i = team * N_KINDS + kind
    return arr[Off.MELD_NAT + i] + arr[Off.MELD_TWO + i] + arr[Off.MELD_JOKER + i]


@njit(cache=True, _nrt=False)
def canastas_nb(arr: np.ndarray, params: np.ndarray, team: int) -> int:
    """Canastas of the team: open melds of canasta size, closed ones (Samba) and sambas."""
    n = 0
    csize = params[Par.CANASTA_SIZE]
    # views indexed by the kind alone, summed without branches (the loop vectorizes)
    base = team * N_KINDS
    nat = arr[Off.MELD_NAT + base : Off.MELD_NAT + base + N_KINDS]
    two = arr[Off.MELD_TWO + base : Off.MELD_TWO + base + N_KINDS]
    joker = arr[Off.MELD_JOKER + base : Off.MELD_JOKER + base + N_KINDS]
    closed = arr[Off.CLOSED_COUNT + base : Off.CLOSED_COUNT + base + N_KINDS]
    for k in range(FIRST_NATURAL, LAST_NATURAL + 1):
        n += np.int64(nat[k] + two[k] + joker[k] >= csize) + closed[k]
    if params[Par.SEQUENCES] != 0:
        for q in range(MAX_SEQS):
            if arr[Off.SEQ_LEN + team * MAX_SEQS + q] >= csize:
                n += 1
    return n


@njit(cache=True, _nrt=False)
def suit_off_nb(hand_off: int) -> int:
    """Offset of the suited naturals of the hand at `hand_off` (state or observation)."""
    return Off.HAND_SUITS + (hand_off - Off.HANDS) // N_KINDS * N_SUITED


@njit(cache=True, _nrt=False, inline="always")
def closed_room_nb(params: np.ndarray, size: int, cap: int) -> int:
    """Wild capacity limited so that no wild card joins a completed canasta (Samba)."""
    if params[Par.WILD_ONTO_CANASTA] != 0:
        return cap
    room = params[Par.CANASTA_SIZE] - size
    if room < 0:
        room = 0
    return cap if cap < room else room


@njit(cache=True, _nrt=False)
def pile_frozen_for_nb(arr: np.ndarray, team: int) -> bool:
    return arr[Off.PILE_FREEZE] > 0 or arr[Off.TEAM_OPENED + team] == 0


@njit(cache=True, _nrt=False, inline="always")
def wild_capacity_nb(params: np.ndarray, naturals: int, wilds: int) -> int:
    """How many more wild cards a meld with these counts may take."""
    cap = params[Par.MAX_WILD]
    if params[Par.WILD_LE_NAT] != 0 and naturals < cap:
        cap = naturals
    cap -= wilds
    return cap if cap > 0 else 0


@njit(cache=True, _nrt=False)
def team_min_nb(arr: np.ndarray, team: int) -> int:
    return arr[Off.TEAM_MIN + team]


@njit(cache=True, _nrt=False)
def decode_meld_nb(action):
    """(kind, naturals, twos, jokers, is_add) moved from the hand by a meld/add action."""
    if action < Act.ADD_NAT:
        kind = (action - Act.MELD) // 3
        variant = (action - Act.MELD) % 3
        if variant == 0:
            return kind, 3, 0, 0, False
        if variant == 1:
            return kind, 2, 1, 0, False
        return kind, 2, 0, 1, False
    if action < Act.ADD_TWO:
        return action - Act.ADD_NAT, 1, 0, 0, True
    if action < Act.ADD_JOKER:
        return action - Act.ADD_TWO, 0, 1, 0, True
    return action - Act.ADD_JOKER, 0, 0, 1, True


@njit(cache=True, _nrt=False)
def seq_move_nb(arr, team, action) -> tuple:
    """What a sequence action does: (slot, suit, new low kind, new length, added kind).  For a
    new sequence the slot is the first free one (-1 if none) and the added kind is -1."""
    if action < Act.SEQ_ADD:
        rel = action - Act.SEQ_NEW
        slot = -1
        for q in range(MAX_SEQS):
            if arr[Off.SEQ_LEN + team * MAX_SEQS + q] == 0:
                slot = q
                break
        return slot, rel // 9, FIRST_NATURAL + rel % 9, 3, -1
    rel = action - (Act.SEQ_ADD if action < Act.TAKE_SEQ else Act.TAKE_SEQ)
    slot = rel // 2
    j = team * MAX_SEQS + slot
    suit = arr[Off.SEQ_SUIT + j]
    low = arr[Off.SEQ_LOW + j]
    length = arr[Off.SEQ_LEN + j]
    if rel % 2 == 0:
        return slot, suit, low - 1, length + 1, low - 1
    return slot, suit, low, length + 1, low + length
