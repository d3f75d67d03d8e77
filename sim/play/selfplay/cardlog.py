"""The `--log-detail cards` columns of a decision row: the cards behind the decision.

Kept apart from the loop (sim/play/selfplay/loop.py calls these two kernels only when the run asks
for card detail), so that basic logs run the same code as before.  Layout: `sim.core.enums.DC`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.core.enums import (
    DC,
    DC_HAND,
    DC_MELD_THEM,
    DC_MELD_US,
    DC_SUITS,
    FIRST_NATURAL,
    LAST_NATURAL,
    N_CARD_CLASSIC,
    N_KINDS,
    N_SUITED,
    Act,
    Kind,
    Off,
)
from sim.core.legal import seq_move_nb


@njit(cache=True, _nrt=False)
def action_cards_nb(state: np.ndarray, action: int, top: int) -> tuple:
    """(kind, naturals, wilds, target) of an action, before it is applied: see the act_*
    columns in docs/DATA.md.  top: the pile's top kind (-1 empty)."""
    team = state[Off.TEAM_OF_SEAT + state[Off.SEAT]]
    if action == Act.DRAW or action == Act.DECLINE:
        return -1, 0, 0, -1
    if action <= Act.TAKE_ONTO:
        if action == Act.TAKE_PAIR:
            return top, 2, 0, top
        if action == Act.TAKE_ONTO:
            return top, 0, 0, top
        return top, 1, 1, top
    if action < Act.ADD_NAT:
        kind = (action - Act.MELD) // 3
        variant = action - Act.MELD - 3 * kind
        return kind, 3 if variant == 0 else 2, 0 if variant == 0 else 1, kind
    if action < Act.ADD_TWO:
        return action - Act.ADD_NAT, 1, 0, action - Act.ADD_NAT
    if action < Act.ADD_JOKER:
        return Kind.TWO, 0, 1, action - Act.ADD_TWO
    if action < Act.DISCARD:
        return Kind.JOKER, 0, 1, action - Act.ADD_JOKER
    if action < Act.SEQ_NEW:
        kind = action - Act.DISCARD
        wild = 1 if kind == Kind.TWO or kind == Kind.JOKER else 0
        return kind, 1 - wild, wild, -1
    slot, _, low, _, added = seq_move_nb(state, team, action)
    if action < Act.SEQ_ADD:
        return low, 3, 0, 16 + slot
    if action < Act.TAKE_SEQ:
        return added, 1, 0, 16 + slot
    return top, 0, 0, 16 + slot


@njit(cache=True, _nrt=False)
def _meld_sizes_nb(state: np.ndarray, team: int, dc: np.ndarray, r: int) -> None:
    """meld_us_* and meld_them_* of row r from the table (naturals + twos + jokers per rank)."""
    n_teams = state[Off.N_TEAMS]
    u = team * N_KINDS
    for k in range(FIRST_NATURAL, LAST_NATURAL + 1):
        dc[DC_MELD_US + k - FIRST_NATURAL, r] = (
            state[Off.MELD_NAT + u + k]
            + state[Off.MELD_TWO + u + k]
            + state[Off.MELD_JOKER + u + k]
        )
    if n_teams == 2:  # one opposing team: no maximum to take
        o = (1 - team) * N_KINDS
        for k in range(FIRST_NATURAL, LAST_NATURAL + 1):
            dc[DC_MELD_THEM + k - FIRST_NATURAL, r] = (
                state[Off.MELD_NAT + o + k]
                + state[Off.MELD_TWO + o + k]
                + state[Off.MELD_JOKER + o + k]
            )
        return
    for k in range(FIRST_NATURAL, LAST_NATURAL + 1):
        them = 0
        for t in range(n_teams):
            if t != team:
                j = t * N_KINDS + k
                them = max(
                    them,
                    state[Off.MELD_NAT + j] + state[Off.MELD_TWO + j] + state[Off.MELD_JOKER + j],
                )
        dc[DC_MELD_THEM + k - FIRST_NATURAL, r] = them


# inlined into the loop (numba IR): a call passes ~20 words (the array's fields) and the loop
# then keeps fewer of its values in registers; inlined, a fully logged greedy hand costs about
# 1 us less (benchmarks/bench_log_cost.py)
@njit(cache=True, _nrt=False, inline="always")
def log_cards_nb(
    state: np.ndarray,
    action: int,
    drawn1: int,
    drawn2: int,
    melds_fresh: bool,
    prev_team: int,
    dc: np.ndarray,
    r: int,
) -> None:
    """Card columns of decision row r, before the action is applied.

    Parameters
    ----------
    state : int32[STATE_SIZE]   the full state (the decider is state[Off.SEAT])
    action : int                the action chosen
    drawn1, drawn2 : int        kinds drawn from the stock this turn (-1 none)
    melds_fresh : bool          the melds on the table may differ from row r-1's (the hand's
                                first row, or a meld since): count them; else row r-1's
                                counts are copied (a count costs 5x a copy), swapped between
                                us and them when row r-1 was the other team's (two teams)
    prev_team : int             team of row r-1
    dc : int8[n, capacity]      card columns (layout `DC`); n > N_CARD_CLASSIC: also the suits
    """
    seat = state[Off.SEAT]
    team = state[Off.TEAM_OF_SEAT + seat]
    n_teams = state[Off.N_TEAMS]
    top = state[Off.PILE_TOP] if state[Off.PILE_LEN] > 0 else -1
    dc[DC.PILE_TOP, r] = top
    dc[DC.DRAWN_1, r] = drawn1
    dc[DC.DRAWN_2, r] = drawn2
    # the draws and discards (most rows) here, the rest by action_cards_nb (same values)
    if action == Act.DRAW or action == Act.DECLINE:
        kind, nat, wild, target = -1, 0, 0, -1
    elif Act.DISCARD <= action < Act.SEQ_NEW:
        kind = action - Act.DISCARD
        wild = 1 if kind == Kind.TWO or kind == Kind.JOKER else 0
        nat, target = 1 - wild, -1
    else:
        kind, nat, wild, target = action_cards_nb(state, action, top)
    dc[DC.ACT_KIND, r] = kind
    dc[DC.ACT_NATURALS, r] = nat
    dc[DC.ACT_WILDS, r] = wild
    dc[DC.ACT_TARGET, r] = target
    h = Off.HANDS + seat * N_KINDS
    for k in range(Kind.JOKER + 1):
        dc[DC_HAND + k, r] = state[h + k]
    n_meld = LAST_NATURAL - FIRST_NATURAL + 1
    if melds_fresh or (prev_team != team and n_teams != 2):
        _meld_sizes_nb(state, team, dc, r)
    elif prev_team == team:
        for i in range(2 * n_meld):  # meld_us_* then meld_them_*, adjacent
            dc[DC_MELD_US + i, r] = dc[DC_MELD_US + i, r - 1]
    else:
        for i in range(n_meld):
            dc[DC_MELD_US + i, r] = dc[DC_MELD_THEM + i, r - 1]
            dc[DC_MELD_THEM + i, r] = dc[DC_MELD_US + i, r - 1]
    if n_teams == 2:
        red3_them = state[Off.TEAM_RED3 + 1 - team]
    else:
        red3_them = 0
        for t in range(n_teams):
            if t != team:
                red3_them = max(red3_them, state[Off.TEAM_RED3 + t])
    dc[DC.RED3_US, r] = state[Off.TEAM_RED3 + team]
    dc[DC.RED3_THEM, r] = red3_them
    if dc.shape[0] > N_CARD_CLASSIC:
        s = Off.HAND_SUITS + seat * N_SUITED
        for i in range(N_SUITED):
            dc[DC_SUITS + i, r] = state[s + i]


@njit(cache=True, _nrt=False)
def drawn_kinds_nb(state: np.ndarray, pos0: int) -> tuple:
    """Kinds of the first two cards a draw put into the hand, from the stock cards it took
    (from position pos0 on; red threes, laid at once, skipped); -1 where none."""
    a = -1
    b = -1
    for j in range(pos0, state[Off.STOCK_POS]):
        kind = state[Off.STOCK + j] & 15
        if kind == Kind.RED3:
            continue
        if a < 0:
            a = kind
        elif b < 0:
            b = kind
    return a, b
