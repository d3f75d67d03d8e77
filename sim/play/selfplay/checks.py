"""The invariant checks of ``--check`` runs: after every action, and of every hand's score.

Each returns a `Check` code (`Check.FINE` = 0; text in `sim.play.selfplay.status.CHECK_TEXT`);
`flag_invariant_nb` writes a broken one into the status array's `Broken` slots.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.core.apply import card_totals_nb
from sim.core.enums import (
    FIRST_NATURAL,
    LAST_NATURAL,
    MAX_SEQS,
    N_KINDS,
    N_SUITED,
    End,
    Kind,
    Off,
    Par,
    Phase,
)
from sim.core.legal import legal_actions_nb
from sim.core.readers import code_kind_nb
from sim.play.selfplay.status import Broken, Check, Status

__all__ = ["check_state_nb", "check_score_nb", "flag_invariant_nb"]


@njit(cache=True, _nrt=False, inline="always")
def flag_invariant_nb(status: np.ndarray, code: int, game: int, hand: int, turn: int) -> None:
    """A broken invariant (CHECK_TEXT[code] in sim.play.selfplay.status) at game, hand, turn."""
    status[Broken.CODE] = Status.INVARIANT
    status[Broken.CHECK] = code
    status[Broken.GAME] = game
    status[Broken.HAND] = hand
    status[Broken.TURN] = turn


@njit(cache=True, _nrt=False)
def check_state_nb(
    state: np.ndarray,
    params: np.ndarray,
    composition: np.ndarray,
    totals: np.ndarray,
    buf: np.ndarray,
) -> int:
    """Invariants after every action: a Check code (Check.FINE = 0; text in
    sim.play.selfplay.status)."""
    if state[Off.PHASE] != Phase.OVER:
        if legal_actions_nb(state, Off.HANDS + state[Off.SEAT] * N_KINDS, params, buf) == 0:
            return Check.DEAD_END
    card_totals_nb(state, totals)
    for k in range(N_KINDS):
        if totals[k] != composition[k]:
            return Check.CARDS
    pile_freeze = 0
    for k in range(N_KINDS):
        c = 0
        for j in range(state[Off.PILE_LEN]):
            if code_kind_nb(state[Off.PILE + j]) == k:
                c += 1
        if c != state[Off.PILE_COUNTS + k]:
            return Check.PILE_COUNTS
        if k == Kind.TWO or k == Kind.JOKER or k == Kind.RED3:
            pile_freeze += c
    if params[Par.UPCARD_FREEZES] != 0 and pile_freeze != state[Off.PILE_FREEZE]:
        return Check.PILE_FREEZE
    if (
        state[Off.PILE_LEN] > 0
        and code_kind_nb(state[Off.PILE + state[Off.PILE_LEN] - 1]) != state[Off.PILE_TOP]
    ):
        return Check.PILE_FREEZE
    for s in range(state[Off.N_SEATS]):
        n = 0
        for k in range(N_KINDS):
            c = state[Off.HANDS + s * N_KINDS + k]
            if c < 0:
                return Check.HAND_SIZE
            n += c
        if n != state[Off.HAND_SIZE + s]:
            return Check.HAND_SIZE
        if state[Off.HANDS + s * N_KINDS + Kind.RED3] != 0:
            return Check.HAND_SIZE
        if n == 0 and not (
            state[Off.PHASE] == Phase.OVER
            and state[Off.END_REASON] == End.WENT_OUT
            and state[Off.WENT_OUT_SEAT] == s
        ):
            if not (state[Off.ASIDE_LEN] > 0 and state[Off.SEAT] == s):
                return Check.EMPTY_HAND
    for s in range(state[Off.N_SEATS]):
        for k in range(FIRST_NATURAL, LAST_NATURAL + 1):
            c = 0
            for suit in range(4):
                v = state[Off.HAND_SUITS + s * N_SUITED + suit * 11 + k - FIRST_NATURAL]
                if v < 0:
                    return Check.SUITS
                c += v
            if c != state[Off.HANDS + s * N_KINDS + k]:
                return Check.SUITS
    for t in range(state[Off.N_TEAMS]):
        for q in range(MAX_SEQS):
            length = state[Off.SEQ_LEN + t * MAX_SEQS + q]
            if length == 0:
                continue
            low = state[Off.SEQ_LOW + t * MAX_SEQS + q]
            if params[Par.SEQUENCES] == 0 or length < 3 or length > params[Par.CANASTA_SIZE]:
                return Check.SEQUENCE
            if low < FIRST_NATURAL or low + length - 1 > LAST_NATURAL:
                return Check.SEQUENCE
        for k in range(N_KINDS):
            i = t * N_KINDS + k
            if state[Off.CLOSED_COUNT + i] > 0 and params[Par.MULTI_MELDS] == 0:
                return Check.MELD
            if state[Off.CLOSED_NAT + i] < state[Off.CLOSED_COUNT + i] * params[Par.MIN_NATURALS]:
                return Check.MELD
            nat = state[Off.MELD_NAT + i]
            w = state[Off.MELD_TWO + i] + state[Off.MELD_JOKER + i]
            if nat + w == 0:
                continue
            if k == Kind.BLACK3:
                if w != 0 or nat < params[Par.BLACK3_MELD_MIN] or nat > params[Par.BLACK3_MELD_MAX]:
                    return Check.MELD
                continue
            if k == Kind.TWO or k == Kind.JOKER or k == Kind.RED3:
                return Check.MELD
            if nat < params[Par.MIN_NATURALS] or nat + w < 3 or w > params[Par.MAX_WILD]:
                return Check.MELD
            if params[Par.WILD_LE_NAT] != 0 and w > nat:
                return Check.MELD
            if params[Par.MULTI_MELDS] != 0 and nat + w >= params[Par.CANASTA_SIZE]:
                return Check.MELD  # a completed canasta is closed at once
            if state[Off.TEAM_OPENED + t] == 0 and not (
                state[Off.TEAM_OF_SEAT + state[Off.SEAT]] == t and state[Off.PENDING_VALUE] > 0
            ):
                if not (state[Off.PHASE] == Phase.OVER and state[Off.END_REASON] == End.WENT_OUT):
                    return Check.NOT_OPENED
    return Check.FINE


@njit(cache=True, _nrt=False)
def check_score_nb(
    state: np.ndarray, params: np.ndarray, score: np.ndarray, composition: np.ndarray
) -> int:
    """Cross-check the score by a different route: the points on the table must equal the value
    of the whole deck minus what is in hands, pile, stock and aside; the parts must add up."""
    val = params[Par.CARD_VALUE : Par.CARD_VALUE + N_KINDS]
    total = 0
    for k in range(N_KINDS):
        if k != Kind.RED3:
            total += composition[k] * val[k]
    for s in range(state[Off.N_SEATS]):
        for k in range(N_KINDS):
            total -= state[Off.HANDS + s * N_KINDS + k] * val[k]
    for j in range(state[Off.PILE_LEN] + state[Off.ASIDE_LEN]):
        kk = code_kind_nb(state[Off.PILE + j])
        if kk != Kind.RED3:
            total -= val[kk]
    for j in range(state[Off.STOCK_LEN]):
        kk = code_kind_nb(state[Off.STOCK + state[Off.STOCK_POS] + j])
        if kk != Kind.RED3:
            total -= val[kk]
    melded = 0
    for t in range(state[Off.N_TEAMS]):
        melded += score[1, t]
        if score[0, t] != score[1, t] + score[2, t] + score[3, t] + score[4, t] - score[5, t]:
            return Check.SCORE_PARTS
    if melded != total:
        return Check.MELDED_POINTS
    return Check.FINE
