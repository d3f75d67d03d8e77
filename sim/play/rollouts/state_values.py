"""Values of true states: rollouts that know every card's place except the stock's order.

The hand accounting of `canasta review` (reports/accounting.py) needs, at every point of a played
hand, the equity of each team given everything that has happened: every hand, the melds, the
pile, and the stock as a uniformly random order of the cards in it (which is exactly what the
stock is, given the rest: the deck was shuffled uniformly).  Between two such points only a draw
from the stock (a chance event) or a seat's decision changes the equity, so the equity after a
hand's last event is its result, and the changes add up to the result exactly.

`state_values` estimates that equity of a state by rollouts: rollout i puts the stock's cards in
the order of a shuffle keyed (seed, i, 0, STREAM_STOCK), plays ``first`` (an action id, or -1 for
none), and plays the hand out with every seat deciding with its strategy from its own
observation (`sim.play.selfplay.step.play_out_hidden_nb`), seat s's stream keyed (seed, i, 0,
STREAM_PLAYERS + 1 + s).  `deal_values` does the same for the deal: the first ``fixed`` cards of
a deck stay, the rest are shuffled, the hand is dealt (`init_hand_nb`: hands, upcard, red-three
replacements) and played out; ``fixed`` = 0 gives the mean over random deals, the hands' cards
the value of the deal, the hands' and the upcard's the value after the upcard is turned.

Rollout i of any call with the same seed uses the same streams, so the values of two states (or
of two actions at one state) are paired by rollout index: an interval on a sum of such values is a
t interval over rollout indices of the per-rollout sums (reports/accounting.py).

The loops run in Python over compiled kernels the rest of the lab compiles anyway (the shuffle,
the action, the play-out, the scoring): a kernel of its own would compile the whole rules core
and every strategy once more (tens of seconds on a cold cache) to save a few microseconds per
rollout.
"""

from __future__ import annotations

import numpy as np

from sim.core.apply import SCORE_ROWS, apply_action_nb, init_hand_nb, score_hand_nb
from sim.core.enums import MAX_SEATS, MAX_TEAMS, N_ACTIONS, Off
from sim.core.rng import STREAM_PLAYERS, seed_rng_nb, shuffle_nb
from sim.play.selfplay.status import Illegal, Slot
from sim.play.selfplay.step import play_out_hidden_nb

__all__ = ["STREAM_STOCK", "state_values", "deal_values"]

STREAM_STOCK = 24  # the stock's order in rollout i of a true state: key (seed, i, 0, STREAM_STOCK)


class _Scratch:
    def __init__(self) -> None:
        self.sobs = np.zeros(Off.STATE_SIZE, np.int32)
        self.buf = np.zeros(N_ACTIONS, np.int32)
        self.wrng = np.zeros(2, np.uint64)
        self.rng = np.zeros((MAX_SEATS, 2), np.uint64)
        self.score = np.zeros((SCORE_ROWS, MAX_TEAMS), np.int32)
        self.status = np.zeros(Slot.SIZE, np.int64)


def _play_scored(st, params, ids, knobs, sc: _Scratch, seed: int, i: int, row) -> None:
    for s in range(int(st[Off.N_SEATS])):
        seed_rng_nb(sc.rng[s], seed, i, 0, STREAM_PLAYERS + 1 + s)
    play_out_hidden_nb(
        st, params, ids, knobs, sc.rng, sc.sobs, sc.buf, 0, sc.status, None, None, None
    )
    if sc.status[Slot.CODE] != 0:
        raise RuntimeError(
            f"the strategy of seat {int(sc.status[Illegal.SEAT])} chose an illegal action "
            f"{int(sc.status[Illegal.ACTION])} in rollout {i} of a true state"
        )
    score_hand_nb(st, params, sc.score)
    row[:] = sc.score[0]


def state_values(state, params, ids, knobs, first: int, seed: int, n: int) -> np.ndarray:
    """Rollouts 0 .. n-1 of the true state ``state`` (int32[STATE_SIZE]: every hand, the pile,
    the stock), ``first`` played first (after the shuffle) unless -1; the seats' strategies
    ``ids`` int64[MAX_SEATS], ``knobs`` float64[MAX_SEATS, MAX_KNOBS].  Returns the teams' hand
    scores, int32[n, MAX_TEAMS] (score_hand_nb row 0)."""
    out = np.zeros((n, MAX_TEAMS), np.int32)
    sc = _Scratch()
    pos, m = int(state[Off.STOCK_POS]), int(state[Off.STOCK_LEN])
    stock = state[Off.STOCK + pos : Off.STOCK + pos + m]
    for i in range(n):
        st = state.copy()
        pool = stock.copy()
        seed_rng_nb(sc.wrng, seed, i, 0, STREAM_STOCK)
        shuffle_nb(sc.wrng, pool, m)
        st[Off.STOCK + pos : Off.STOCK + pos + m] = pool  # per-seat queues stay in place
        if first >= 0:
            why = int(apply_action_nb(st, params, first))
            if why != 0:
                raise RuntimeError(f"action {first} is illegal in the true state (why {why})")
        _play_scored(st, params, ids, knobs, sc, seed, i, out[i])
    return out


def deal_values(deck, fixed: int, params, dealer: int, cum, ids, knobs, seed: int, n: int):
    """Rollouts 0 .. n-1 of a deal: deck[:fixed] (card codes, top first) stay, the rest is
    shuffled (stream (seed, i, 0, STREAM_STOCK)), the hand is dealt with ``dealer`` and the
    cumulative scores ``cum`` (int32[MAX_TEAMS]) and played out.  Returns int32[n, MAX_TEAMS]
    as `state_values`."""
    out = np.zeros((n, MAX_TEAMS), np.int32)
    sc = _Scratch()
    deck = np.asarray(deck, np.int32)
    rest = deck[fixed:]
    for i in range(n):
        d = deck.copy()
        pool = rest.copy()
        seed_rng_nb(sc.wrng, seed, i, 0, STREAM_STOCK)
        shuffle_nb(sc.wrng, pool, len(pool))
        d[fixed:] = pool
        st = np.zeros(Off.STATE_SIZE, np.int32)
        init_hand_nb(st, params, d, len(d), dealer, cum)
        _play_scored(st, params, ids, knobs, sc, seed, i, out[i])
    return out
