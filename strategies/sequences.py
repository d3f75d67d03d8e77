"""Samba sequence play shared by the built-in strategies: extend the team's sequences first
(each card towards a 1,500-point samba), then lay new ones; in the draw phase, take the pile
onto a sequence when the top card extends one.  Every candidate is checked with the engine's
`why_illegal_nb`; nothing happens when the rules have no sequences."""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.core.enums import FIRST_NATURAL, LAST_NATURAL, MAX_SEQS, Act, Off, Par
from sim.core.legal import suit_off_nb, why_illegal_nb
from sim.core.readers import team_of_nb


@njit(
    cache=True, _nrt=False, inline="always"
)  # a thin caller of the core: compiled alone it re-optimizes the core linked below it
def sequence_move_nb(obs: np.ndarray, params: np.ndarray) -> int:
    """A legal sequence extension or new sequence, or -1.  Order: slots 0.., below then above;
    then new runs by suit C D H S, the highest run first."""
    if params[Par.SEQUENCES] == 0:
        return -1
    H = Off.HANDS
    team = team_of_nb(obs)
    so = suit_off_nb(H)
    for q in range(MAX_SEQS):
        j = team * MAX_SEQS + q
        length = obs[Off.SEQ_LEN + j]
        if length == 0 or length >= params[Par.CANASTA_SIZE]:
            continue
        suit = obs[Off.SEQ_SUIT + j]
        low = obs[Off.SEQ_LOW + j]
        if low - 1 >= FIRST_NATURAL and obs[so + suit * 11 + low - 1 - FIRST_NATURAL] > 0:
            if why_illegal_nb(obs, H, params, Act.SEQ_ADD + q * 2) == 0:
                return Act.SEQ_ADD + q * 2
        if low + length <= LAST_NATURAL and obs[so + suit * 11 + low + length - FIRST_NATURAL] > 0:
            if why_illegal_nb(obs, H, params, Act.SEQ_ADD + q * 2 + 1) == 0:
                return Act.SEQ_ADD + q * 2 + 1
    for suit in range(4):
        for low in range(LAST_NATURAL - 2, FIRST_NATURAL - 1, -1):
            b = so + suit * 11 + low - FIRST_NATURAL
            if obs[b] > 0 and obs[b + 1] > 0 and obs[b + 2] > 0:
                a = Act.SEQ_NEW + suit * 9 + low - FIRST_NATURAL
                if why_illegal_nb(obs, H, params, a) == 0:
                    return a
    return -1


@njit(
    cache=True, _nrt=False, inline="always"
)  # a thin caller of the core: compiled alone it re-optimizes the core linked below it
def sequence_take_nb(obs: np.ndarray, params: np.ndarray) -> int:
    """A legal take of the pile onto a team sequence, or -1."""
    if params[Par.SEQUENCES] == 0 or obs[Off.PILE_LEN] == 0:
        return -1
    for a in range(Act.TAKE_SEQ, Act.N_ACTIONS):
        if why_illegal_nb(obs, Off.HANDS, params, a) == 0:
            return a
    return -1
