"""Experiment kernel for a value-model AIVAT probe (issue 13): play duplicate deals like the
engine and record, at every stock draw, the full state just before the card is seen.

Not product code: benchmarks/aivat_probe.py fits a value model on these records and measures
how much of the paired variance its chance terms remove.

Each chance event is one card taken from the stock by a DRAW action (red-three replacements
included; the dealt red threes' replacements inside the deal are left out: the deal is the same
in both seatings of a duplicate deal).  The record is the state before that card, from the
drawer's team's side ("us"), reconstructed from the state before the DRAW action and the cards
drawn before it in the same action; the drawn card's kind is stored separately, so the probe
can build the state after any kind the stock could have given.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.core.apply import SCORE_ROWS, init_hand_nb, score_hand_nb
from sim.core.enums import (
    MAX_SEATS,
    MAX_TEAMS,
    N_ACTIONS,
    N_KINDS,
    N_LUCK,
    Act,
    Kind,
    Off,
    Par,
    Phase,
)
from sim.core.readers import code_kind_nb
from sim.core.rng import STREAM_DECK, STREAM_PLAYERS, seed_rng_nb, shuffle_nb
from sim.play.selfplay.loop import deck_composition_nb, fill_deck_nb
from sim.play.selfplay.status import Slot
from sim.play.selfplay.step import apply_step_nb, decide_step_nb

# raw record columns: ten per-kind blocks of N_KINDS, then scalars
(
    B_HAND,
    B_PARTNER,
    B_LEFT,
    B_RIGHT,
    B_NAT_US,
    B_WILD_US,
    B_NAT_THEM,
    B_WILD_THEM,
    B_PILE,
    B_STOCK,
) = range(10)
S0 = 10 * N_KINDS
(
    S_STOCK_LEN,
    S_PILE_LEN,
    S_FREEZE,
    S_PILE_TOP,
    S_RED3_US,
    S_RED3_THEM,
    S_OPEN_US,
    S_OPEN_THEM,
    S_TURN,
    S_MIN_US,
    S_MIN_THEM,
    S_TAKES_US,
    S_TAKES_THEM,
    S_KIND,
    S_INDEX,
    S_IS_A,
    N_SCALARS,
) = range(17)
N_RAW = S0 + N_SCALARS


@njit(cache=True)
def _record_nb(st, seat, code, index, is_a, raw, r):
    """Write raw[r] from state st (before the card `code` is seen)."""
    team = st[Off.TEAM_OF_SEAT + seat]
    other = 1 - team
    n = st[Off.N_SEATS]
    for b in range(4):
        s = (seat + (0, 2, 1, n - 1)[b]) % n  # the drawer, partner, left and right
        for k in range(N_KINDS):
            raw[r, b * N_KINDS + k] = st[Off.HANDS + s * N_KINDS + k]
    for k in range(N_KINDS):
        raw[r, B_NAT_US * N_KINDS + k] = st[Off.MELD_NAT + team * N_KINDS + k]
        raw[r, B_WILD_US * N_KINDS + k] = (
            st[Off.MELD_TWO + team * N_KINDS + k] + st[Off.MELD_JOKER + team * N_KINDS + k]
        )
        raw[r, B_NAT_THEM * N_KINDS + k] = st[Off.MELD_NAT + other * N_KINDS + k]
        raw[r, B_WILD_THEM * N_KINDS + k] = (
            st[Off.MELD_TWO + other * N_KINDS + k] + st[Off.MELD_JOKER + other * N_KINDS + k]
        )
        raw[r, B_PILE * N_KINDS + k] = st[Off.PILE_COUNTS + k]
        raw[r, B_STOCK * N_KINDS + k] = st[Off.STOCK_KINDS + k]
    raw[r, S0 + S_STOCK_LEN] = st[Off.STOCK_LEN]
    raw[r, S0 + S_PILE_LEN] = st[Off.PILE_LEN]
    raw[r, S0 + S_FREEZE] = 1 if st[Off.PILE_FREEZE] > 0 else 0
    raw[r, S0 + S_PILE_TOP] = st[Off.PILE_TOP]
    raw[r, S0 + S_RED3_US] = st[Off.TEAM_RED3 + team]
    raw[r, S0 + S_RED3_THEM] = st[Off.TEAM_RED3 + other]
    raw[r, S0 + S_OPEN_US] = st[Off.TEAM_OPENED + team]
    raw[r, S0 + S_OPEN_THEM] = st[Off.TEAM_OPENED + other]
    raw[r, S0 + S_TURN] = min(st[Off.TURN], 30000)
    raw[r, S0 + S_MIN_US] = st[Off.TEAM_MIN + team]
    raw[r, S0 + S_MIN_THEM] = st[Off.TEAM_MIN + other]
    raw[r, S0 + S_TAKES_US] = st[Off.PILE_TAKES + team]
    raw[r, S0 + S_TAKES_THEM] = st[Off.PILE_TAKES + other]
    raw[r, S0 + S_KIND] = code_kind_nb(code)
    raw[r, S0 + S_INDEX] = index
    raw[r, S0 + S_IS_A] = is_a


@njit(cache=True)
def play_record_nb(
    params,
    strat_ids,
    knobs,
    a_team,
    seed,
    start,
    count,
    raw,
    ev_hand,
    ev_team,
    scores,
    breakdown,
    luck,
    restock=0,
):
    """Play hands keyed (seed, start + u, 0) for u < count, recording every stock draw.

    strat_ids : int64[MAX_SEATS] strategy per active seat; knobs : float64[MAX_SEATS, K]
    a_team : int  the team strategy A plays (the drawer's `is_a` column)
    restock : int  0: the engine's deck; else the cards below the first upcard are shuffled
              again with this key (same deal and upcard, another stock)
    raw : int16[cap, N_RAW]; ev_hand, ev_team : int32[cap]  per event: hand u, drawer's team
    scores : int32[count, MAX_TEAMS]; breakdown : int32[count, SCORE_ROWS, MAX_TEAMS]
    luck : int32[count, MAX_TEAMS * N_LUCK]  the engine's linear chance terms
    Returns the number of events (-1 when raw is full)."""
    state = np.zeros(Off.STATE_SIZE, np.int32)
    state[Off.LUCK_ON] = 1
    pre = np.zeros(Off.STATE_SIZE, np.int32)
    obs = np.zeros(Off.STATE_SIZE, np.int32)
    buf = np.zeros(N_ACTIONS, np.int32)
    status = np.zeros(Slot.SIZE, np.int64)
    rng = np.zeros((MAX_SEATS, 2), np.uint64)
    deck_rng = np.zeros(2, np.uint64)
    composition = np.zeros(N_KINDS, np.int64)
    deck = np.zeros(200, np.int32)
    score = np.zeros((SCORE_ROWS, MAX_TEAMS), np.int32)
    cum = np.zeros(MAX_TEAMS, np.int32)
    n_ev = 0
    for u in range(count):
        game = start + u
        n_cards = deck_composition_nb(params, composition)
        fill_deck_nb(composition, deck)
        seed_rng_nb(deck_rng, seed, game, 0, STREAM_DECK)
        shuffle_nb(deck_rng, deck, n_cards)
        if restock > 0:
            first = params[Par.HAND_SIZE] * params[Par.N_ACTIVE] + 1
            seed_rng_nb(deck_rng, seed, game, restock, STREAM_DECK + 77)
            shuffle_nb(deck_rng, deck[first:], n_cards - first)
        init_hand_nb(state, params, deck, n_cards, game % params[Par.N_ACTIVE], cum)
        for s in range(state[Off.N_SEATS]):
            seed_rng_nb(rng[s], seed, game, 0, STREAM_PLAYERS + 1 + s)
        while state[Off.PHASE] != Phase.OVER:
            seat = state[Off.SEAT]
            action = decide_step_nb(state, params, strat_ids, knobs, rng, obs, buf, 0, False)
            if action == Act.DRAW:
                for i in range(Off.STATE_SIZE):
                    pre[i] = state[i]
            if apply_step_nb(state, params, action, True, strat_ids[seat], status) != 0:
                return -2
            if action == Act.DRAW:
                pos0 = pre[Off.STOCK_POS]
                team = pre[Off.TEAM_OF_SEAT + seat]
                for j in range(state[Off.STOCK_POS] - pos0):
                    if n_ev >= raw.shape[0]:
                        return -1
                    code = pre[Off.STOCK + pos0 + j]
                    _record_nb(pre, seat, code, j, 1 if team == a_team else 0, raw, n_ev)
                    ev_hand[n_ev] = u
                    ev_team[n_ev] = team
                    n_ev += 1
                    k = code_kind_nb(code)  # the state before the next card of this action
                    pre[Off.STOCK_KINDS + k] -= 1
                    pre[Off.STOCK_LEN] -= 1
                    pre[Off.STOCK_POS] += 1
                    if k == Kind.RED3:
                        pre[Off.TEAM_RED3 + team] += 1
                    else:
                        pre[Off.HANDS + seat * N_KINDS + k] += 1
                        pre[Off.HAND_SIZE + seat] += 1
        score_hand_nb(state, params, score)
        for t in range(MAX_TEAMS):
            scores[u, t] = score[0, t]
            for r in range(SCORE_ROWS):
                breakdown[u, r, t] = score[r, t]
        for i in range(MAX_TEAMS * N_LUCK):
            luck[u, i] = state[Off.LUCK + i]
    return n_ev


def play_records(
    rules, a: str, b: str, seed: int, start: int, count: int, seating: int, restock: int = 0
) -> dict:
    """Seating 0: A's team is team 0; seating 1: team 1.  Returns the arrays of play_record_nb."""
    from reports.compare import seat_strategies
    from sim.play.engine import _rotation_tables, strategy_tables_search

    teams = (a, b) if seating == 0 else (b, a)
    params_rot, seat_tables = _rotation_tables(rules)
    ids, knobs, _ = strategy_tables_search(rules, seat_strategies(rules, teams))
    params = params_rot[0]
    strat = np.array(
        [ids[seat_tables[0, s]] if seat_tables[0, s] >= 0 else 0 for s in range(MAX_SEATS)],
        np.int64,
    )
    kn = np.stack(
        [knobs[seat_tables[0, s]] if seat_tables[0, s] >= 0 else knobs[0] for s in range(MAX_SEATS)]
    )
    cap = count * 60 + 1000
    while True:
        raw = np.zeros((cap, N_RAW), np.int16)
        ev_hand = np.zeros(cap, np.int32)
        ev_team = np.zeros(cap, np.int32)
        scores = np.zeros((count, MAX_TEAMS), np.int32)
        bd = np.zeros((count, SCORE_ROWS, MAX_TEAMS), np.int32)
        luck = np.zeros((count, MAX_TEAMS * N_LUCK), np.int32)
        n = play_record_nb(
            params,
            strat,
            kn,
            seating,
            seed,
            start,
            count,
            raw,
            ev_hand,
            ev_team,
            scores,
            bd,
            luck,
            restock,
        )
        if n == -1:
            cap *= 2
            continue
        if n < 0:
            raise RuntimeError("illegal action")
        return {
            "raw": raw[:n],
            "hand": ev_hand[:n],
            "team": ev_team[:n],
            "scores": scores,
            "breakdown": bd,
            "luck": luck,
        }
