"""Suit choice: which suit of a natural rank leaves the hand when only the rank is named (a
discard, a group meld).  Suits matter only with Samba sequences; otherwise the first suit held.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.core.enums import (
    FIRST_NATURAL,
    LAST_NATURAL,
    Par,
)


@njit(cache=True, _nrt=False, inline="always")
def first_suit_nb(arr, suit_off, kind) -> int:
    """The first suit of a natural rank held (-1: none): `pick_suit_nb` without sequences in
    play (inlined where a card leaves a hand: no call per card)."""
    for s in range(4):
        if arr[suit_off + s * 11 + kind - FIRST_NATURAL] != 0:
            return s
    return -1


@njit(cache=True, _nrt=False)
def pick_suit_nb(arr, suit_off, params, kind) -> int:
    """Which suit of a natural rank leaves the hand (discard or group meld): with sequences in
    play the copy with the fewest same-suit neighbours (the least useful for a sequence), else
    the first suit held.  -1 if none is held."""
    if params[Par.SEQUENCES] == 0:
        return first_suit_nb(arr, suit_off, kind)
    best = -1
    best_score = 1 << 20
    for s in range(4):
        if arr[suit_off + s * 11 + kind - FIRST_NATURAL] == 0:
            continue
        score = 0
        for d in (-2, -1, 1, 2):
            k = kind + d
            if (
                FIRST_NATURAL <= k <= LAST_NATURAL
                and arr[suit_off + s * 11 + k - FIRST_NATURAL] > 0
            ):
                score += 1
        if score < best_score:
            best_score = score
            best = s
    return best


@njit(cache=True, _nrt=False, inline="always")
def suits_out_nb(arr, suit_off, params, kind, n) -> int:
    """Remove n naturals of `kind` from the suited counts as the applier would (Samba only);
    returns the suits removed, packed two bits each, for suits_back_nb."""
    if params[Par.SEQUENCES] == 0 or kind < FIRST_NATURAL or kind > LAST_NATURAL:
        return 0
    packed = 0
    for j in range(n):
        s = pick_suit_nb(arr, suit_off, params, np.int64(kind))
        arr[suit_off + s * 11 + kind - FIRST_NATURAL] -= 1
        packed |= s << (2 * j)
    return packed


@njit(cache=True, _nrt=False, inline="always")
def suits_back_nb(arr, suit_off, params, kind, n, packed) -> None:
    if params[Par.SEQUENCES] == 0 or kind < FIRST_NATURAL or kind > LAST_NATURAL:
        return
    for j in range(n):
        s = (packed >> (2 * j)) & 3
        arr[suit_off + s * 11 + kind - FIRST_NATURAL] += 1
