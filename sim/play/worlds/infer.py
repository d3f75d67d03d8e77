"""Model-consistent worlds: hidden hands that agree with what their holders did.

`sample_consistent_nb` deals like `sim.play.worlds.deal.sample_world_nb`, but each other seat whose
last turn the viewer saw (`sim.play.worlds.knowledge`: ``SNAP_VALID``, and ``DRAW_VALID`` for the
draw or take that began that turn) gets hidden cards a model strategy agrees with: they are redrawn,
up to ``tries`` times, until the model, holding them plus the seat's known cards,

1. at the snapshot of its last discard decision, with the discarded card, would have made that
   discard, and
2. at the snapshot of the draw-or-take decision of the same turn, holding the hand it had then,
   would have made the same choice: drawn from the stock (declining the pile) or taken the pile
   the same way.  The hand then is the hand now + the cards that left it during the turn - the
   known pile cards the take brought - the cards drawn; which of its cards were drawn the viewer
   cannot know, so they are picked at random among the cards not known to be in the hand at the
   draw (a uniform choice: given the hand, every subset was equally likely drawn).  A turn whose
   take brought hidden pile cards is checked on its discard only.

The last draw is kept when no draw agrees.  Only public information enters (the snapshots and the
per-turn counts are public), so the worlds still depend on the observation and ``know`` alone.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.core.enums import FIRST_NATURAL, LAST_NATURAL, MAX_SEATS, N_KINDS, N_SUITED, Act, Kind, Off
from sim.core.rng import randint_nb
from sim.play.worlds.deal import (
    OK,
    fill_stock_nb,
    known_and_pile_nb,
    sample_nb,
    to_hand_nb,
)
from sim.play.worlds.knowledge import Know
from strategies.registry import decide_nb

__all__ = ["sample_consistent_nb", "model_agrees_nb", "draw_agrees_nb", "one_model_nb"]


@njit(cache=True, _nrt=False)
def _hand_in_nb(mobs, know, base, s, pool, lo, c) -> None:
    """The public part at ``base`` of ``know`` and seat s's hand: its known cards + pool[lo:lo+c]
    (suits of natural codes kept, for Samba models)."""
    for i in range(Off.PUB_SIZE):
        mobs[i] = know[base + i]
    for i in range(Off.PUB_SIZE, Off.HAND_SUITS + N_SUITED):
        mobs[i] = 0
    for k in range(N_KINDS):
        mobs[Off.HANDS + k] = know[Know.KNOWN + s * N_KINDS + k]
    for i in range(c):
        code = pool[lo + i]
        k = code & 15
        mobs[Off.HANDS + k] += 1
        if FIRST_NATURAL <= k <= LAST_NATURAL:
            mobs[Off.HAND_SUITS + (code >> 4) * 11 + k - FIRST_NATURAL] += 1


@njit(cache=True, _nrt=False)
def _add_plain_nb(mobs, k, n) -> None:
    """n cards of kind k whose suits the viewer does not know: counted, suit 0 for naturals."""
    mobs[Off.HANDS + k] += n
    if FIRST_NATURAL <= k <= LAST_NATURAL:
        mobs[Off.HAND_SUITS + k - FIRST_NATURAL] += n


@njit(cache=True, _nrt=False)
def _remove_nb(mobs, k) -> None:
    """One card of kind k leaves the model's hand (a suit it holds, the lowest)."""
    mobs[Off.HANDS + k] -= 1
    if FIRST_NATURAL <= k <= LAST_NATURAL:
        for suit in range(4):
            i = Off.HAND_SUITS + suit * 11 + k - FIRST_NATURAL
            if mobs[i] > 0:
                mobs[i] -= 1
                return


@njit(cache=True, _nrt=False)
def model_agrees_nb(
    out, know, params, s, pool, lo, c, model_id, model_knobs, rng, mobs, buf
) -> bool:
    """Would the model, holding seat s's known cards + pool[lo:lo+c] + its last discard at the
    snapshot of that decision, have made that discard?"""
    _hand_in_nb(mobs, know, Know.SNAP + s * Off.PUB_SIZE, s, pool, lo, c)
    d = out[Off.LAST_DISCARD + s]
    _add_plain_nb(mobs, d, 1)
    return decide_nb(model_id, mobs, params, model_knobs, rng, buf) == Act.DISCARD + d


@njit(cache=True, _nrt=False)
def draw_agrees_nb(know, params, s, pool, lo, c, model_id, model_knobs, rng, mobs, buf) -> bool:
    """Would the model, holding seat s's hand at its last draw-or-take decision (rebuilt from its
    known cards + pool[lo:lo+c], see the module docstring), have made the same choice?  True when
    the decision cannot be rebuilt (hidden pile cards taken, or counts that do not add up)."""
    if know[Know.DRAW_VALID + s] == 0 or know[Know.TURN_UNK + s] != 0:
        return True
    base = Know.DSNAP + s * Off.PUB_SIZE
    _hand_in_nb(mobs, know, base, s, pool, lo, c)
    total = 0
    for k in range(N_KINDS):
        i = s * N_KINDS + k
        _add_plain_nb(mobs, k, know[Know.TURN_OUT + i])
        n = mobs[Off.HANDS + k]
        for _ in range(know[Know.TURN_IN + i]):
            if n <= 0:
                return True
            _remove_nb(mobs, k)
            n -= 1
        total += n
    drawn = total - know[base + Off.HAND_SIZE + s]
    free = 0
    for k in range(N_KINDS):
        f = mobs[Off.HANDS + k] - know[Know.KNOWN_AT_DRAW + s * N_KINDS + k]
        if f < 0:
            return False  # a card known to be held then is missing: not this world
        free += f
    if drawn < 0 or drawn > free:
        return True
    for j in range(drawn):  # the drawn cards: a uniform choice among the free ones
        r = randint_nb(rng, free - j)
        for k in range(N_KINDS):
            f = mobs[Off.HANDS + k] - know[Know.KNOWN_AT_DRAW + s * N_KINDS + k]
            if r < f:
                _remove_nb(mobs, k)
                break
            r -= f
    return decide_nb(model_id, mobs, params, model_knobs, rng, buf) == know[Know.DRAW_ACT + s]


@njit(cache=True)
def one_model_nb(model_id: int, model_knobs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """`sample_consistent_nb`'s per-seat model arrays with the one model ``model_id`` (< 0 read
    as 0: callers pass it only when they sample model-consistent worlds) at every seat."""
    ids = np.full(MAX_SEATS, max(model_id, 0), np.int64)
    knobs = np.empty((MAX_SEATS, model_knobs.shape[0]), np.float64)
    for s in range(MAX_SEATS):
        knobs[s, :] = model_knobs
    return ids, knobs


@njit(cache=True, _nrt=False)
def sample_consistent_nb(
    obs: np.ndarray,
    know: np.ndarray,
    params: np.ndarray,
    rng: np.ndarray,
    out: np.ndarray,
    pool: np.ndarray,
    unseen: np.ndarray,
    suit_next: np.ndarray,
    model_ids: np.ndarray,
    model_knobs: np.ndarray,
    tries: int,
    mobs: np.ndarray,
    buf: np.ndarray,
    stats: np.ndarray,
) -> int:
    """Like `sample_world_nb`, but each other seat with a known last discard (``SNAP_VALID``)
    gets hidden cards its model strategy ``model_ids[s]`` (int64[MAX_SEATS]; knobs
    ``model_knobs[s]``, float64[MAX_SEATS, n_knobs]) agrees with, on
    that discard and on the draw or take of the same turn (module docstring): redrawn up to
    ``tries`` times from the cards not yet dealt (the last draw is kept if none agrees).
    Scratch: mobs int32[STATE_SIZE], buf int32[N_ACTIONS].  stats int64[2] gets += (seats
    constrained, seats for which no draw agreed).  Returns OK or an error code."""
    nr = known_and_pile_nb(obs, know, params, out, pool, unseen, suit_next, rng)
    if nr < 0:
        return -nr
    p = know[Know.PILE_HIDDEN]
    idx = p
    viewer = know[Know.VIEWER]
    for s in range(obs[Off.N_SEATS]):
        if s == viewer:
            continue
        c = obs[Off.HAND_SIZE + s]
        for k in range(N_KINDS):
            c -= know[Know.KNOWN + s * N_KINDS + k]
        sample_nb(rng, pool, idx, nr, c)
        if know[Know.SNAP_VALID + s] != 0 and out[Off.LAST_DISCARD + s] >= 0:
            stats[0] += 1
            ok = False
            for _t in range(tries):
                if model_agrees_nb(
                    out, know, params, s, pool, idx, c, model_ids[s], model_knobs[s], rng, mobs, buf
                ) and draw_agrees_nb(
                    know, params, s, pool, idx, c, model_ids[s], model_knobs[s], rng, mobs, buf
                ):
                    ok = True
                    break
                sample_nb(rng, pool, idx, nr, c)
            if not ok:
                stats[1] += 1
        for i in range(c):
            to_hand_nb(out, s, pool[idx + i])
        idx += c
    sample_nb(rng, pool, idx, nr, nr - idx)
    fill_stock_nb(rng, out, pool, idx, nr, unseen[Kind.RED3])
    return OK
