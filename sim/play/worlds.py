"""Worlds a seat cannot tell apart: deal the cards it has not seen over the places it cannot see.

A search player, a rollout from a position and `canasta analyze` all need the same thing: from
what ONE seat knows, full engine states ("worlds") that agree with everything it knows and are
otherwise random.  This module is that sampler, plus the bookkeeping of what a seat knows beyond
its observation.

What a seat knows
-----------------
1. Its observation ``obs`` (int32[STATE_SIZE], built by `observe_nb`): the public part of the
   state and its own hand at ``Off.HANDS`` — exactly what strategies get (`build_obs_nb`), except
   that pile cards nobody has seen (``hidden`` of them at the bottom of the pile: only positions
   typed by a person have any) are left out of ``PILE_COUNTS`` and ``PILE_FREEZE`` (which is then
   the number of KNOWN freezing cards, at least 1 when the pile is frozen).
2. A knowledge array ``know`` (int32[Know.SIZE], layout `Know`; `new_know` / `know_init_nb` at the
   deal), kept up to date by `know_update_nb` before each action is applied and `know_after_nb`
   after it, from public information only (`sim.play.game.GameState` does this for every seat):

   - ``PILE_HIDDEN``: cards at the bottom of the pile whose kinds nobody knows (0 in a real game);
   - ``KNOWN[s, kind]``: cards every player knows to be in seat s's hand: the pile cards it took
     (the known ones), less those it has melded or discarded since (per kind, never below 0);
   - ``ASIDE[kind]``: the viewer's own pile cards held aside while its initial meld is pending
     (the observation does not list them);
   - ``SNAP_VALID[s]`` / ``SNAP[s, :PUB_SIZE]``: the public part (as masked for the viewer) at
     seat s's last discard decision, while s has not acted since: what a model strategy holding
     s's hand would have seen when it chose that discard (``LAST_DISCARD[s]`` in the observation).

Worlds
------
`sample_world_nb` writes one world into ``out`` (int32[STATE_SIZE]): the observation's public
fields, the viewer's hand, every other seat's known cards, the known pile cards (top card last)
and the viewer's aside cards, and then the unseen cards — the packs minus everything above, minus
melds and laid red threes — dealt uniformly at random over the hidden places:

- every unseen red three goes to the stock (a red three is laid as soon as it is drawn or dealt,
  so it is never in a hand, and the hidden part of a typed pile is assumed to hold none);
- the hidden pile cards: natural cards and black threes when the pile is not frozen; any
  non-red-three card when a known card freezes it; when it is frozen by hidden cards only, at
  least one wild card among them (rejection sampling, 256 tries, then one unseen wild card is
  forced into the bottom slot: not uniform, and only reachable when wild cards are very scarce);
- every other seat gets ``HAND_SIZE[s] - sum(KNOWN[s])`` cards, the stock the rest, in a uniformly
  random order (red threes included).

Inputs are the observation and ``know`` alone: two true states that agree on them give
bit-identical worlds for the same random stream.  Natural cards get suits in a fixed rotation
(suits matter only for Samba sequences, which this sampler refuses: `SAMBA`).  Private fields the
observation does not carry are reset (``PILE_TAKES`` = 0).

`sample_worlds_nb` fills a batch: world j of a call with ``start`` uses the stream keyed
(seed, start + j, 0, STREAM_WORLD), so world i depends only on (seed, i) and the inputs.

`sample_consistent_nb` also asks a model strategy: for each other seat whose last discard it
knows, that seat's hidden cards are redrawn (up to ``tries`` times) until the model, holding them
plus the discarded card at the snapshot of that decision, would have made the same discard.  It
does not yet condition on earlier draws, takes or declines.

Error codes (returned, never raised, by the kernels): `OK` 0, `COUNTS` (the observation and the
knowledge account for more cards of a kind than the packs hold, or the unseen cards do not fill
the hidden places), `PILE` (the hidden pile cannot be filled under its constraints), `SAMBA`.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from sim.core.enums import (
    FIRST_NATURAL,
    LAST_NATURAL,
    MAX_CARDS,
    MAX_SEATS,
    N_ACTIONS,
    N_KINDS,
    N_SUITED,
    Act,
    Kind,
    Off,
    Par,
)
from sim.core.rng import randint_nb, seed_rng_nb
from sim.play.loop import build_obs_nb, deck_composition_nb
from strategies.registry import decide_nb

__all__ = [
    "Know",
    "OK",
    "COUNTS",
    "PILE",
    "SAMBA",
    "ERROR_TEXT",
    "WILD_TRIES",
    "know_init_nb",
    "know_update_nb",
    "mask_pile_nb",
    "observe_nb",
    "unseen_nb",
    "sample_world_nb",
    "sample_consistent_nb",
    "sample_worlds_nb",
    "know_after_nb",
    "new_know",
    "STREAM_WORLD",
]


class KnowT(NamedTuple):
    """Offsets into the int32 knowledge array (see the module docstring)."""

    VIEWER: int = 0
    PILE_HIDDEN: int = 1
    ASIDE: int = 2  # [N_KINDS]
    KNOWN: int = 17  # [MAX_SEATS, N_KINDS]
    SNAP_VALID: int = 107  # [MAX_SEATS]
    SNAP: int = 113  # [MAX_SEATS, PUB_SIZE]
    SIZE: int = 113 + MAX_SEATS * Off.PUB_SIZE


Know = KnowT()

OK = 0
COUNTS = 1
PILE = 2
SAMBA = 3
ERROR_TEXT = {
    COUNTS: "the cards do not add up: more cards of a kind known than the packs hold, or the unseen "
            "cards do not fill the hidden places",
    PILE: "the hidden pile cards cannot be dealt (not frozen: natural cards only; frozen: a wild card)",
    SAMBA: "worlds cannot be sampled under Samba rules (sequences need suits the observation lacks)",
}
WILD_TRIES = 256
STREAM_WORLD = 16  # random stream of world j: key (seed, j, 0, STREAM_WORLD)
_PLAIN = 0  # hidden pile modes
_ANY = 1
_NEED_WILD = 2


# ----------------------------------------------------------------------------- knowledge


@njit(cache=True, _nrt=False)
def know_init_nb(know: np.ndarray, viewer: int, pile_hidden: int) -> None:
    """Reset ``know`` (int32[Know.SIZE]) for ``viewer`` at a point where nothing is known beyond
    the observation (a fresh deal: ``pile_hidden`` = 0)."""
    for i in range(know.shape[0]):
        know[i] = 0
    know[Know.VIEWER] = viewer
    know[Know.PILE_HIDDEN] = pile_hidden


@njit(cache=True, _nrt=False)
def _forget_nb(know, seat, kind, n) -> None:
    i = Know.KNOWN + seat * N_KINDS + kind
    know[i] = know[i] - n if know[i] > n else 0


@njit(cache=True, _nrt=False)
def know_update_nb(know: np.ndarray, state: np.ndarray, params: np.ndarray, action: int) -> None:
    """Record what the viewer learns from ``action``, BEFORE it is applied to ``state`` (the full
    int32[STATE_SIZE] state; only public fields are read, plus the pile's cards when the viewer
    itself takes them, which it then sees).  Call it for every action, whoever acts."""
    seat = state[Off.SEAT]
    viewer = know[Know.VIEWER]
    hidden = know[Know.PILE_HIDDEN]
    if seat != viewer:
        know[Know.SNAP_VALID + seat] = 0
    if action == Act.DRAW or action == Act.DECLINE:
        return
    if action <= Act.TAKE_ONTO or action >= Act.TAKE_SEQ:
        top = state[Off.PILE_TOP]
        if action == Act.TAKE_PAIR:
            _forget_nb(know, seat, top, 2)
        elif action == Act.TAKE_NAT_TWO:
            _forget_nb(know, seat, top, 1)
            _forget_nb(know, seat, Kind.TWO, 1)
        elif action == Act.TAKE_NAT_JOKER:
            _forget_nb(know, seat, top, 1)
            _forget_nb(know, seat, Kind.JOKER, 1)
        opened = state[Off.TEAM_OPENED + state[Off.TEAM_OF_SEAT + seat]] != 0
        n = state[Off.PILE_LEN]
        for j in range(n - 1):  # the cards below the top join the hand (or wait aside)
            k = state[Off.PILE + j] & 15
            if k == Kind.RED3:
                continue
            if seat == viewer:
                if not opened:
                    know[Know.ASIDE + k] += 1
            elif j >= hidden:
                know[Know.KNOWN + seat * N_KINDS + k] += 1
        know[Know.PILE_HIDDEN] = 0
        return
    if action >= Act.SEQ_NEW:
        return  # sequences (Samba) are not tracked
    if action >= Act.DISCARD:
        k = action - Act.DISCARD
        if seat != viewer:
            _forget_nb(know, seat, k, 1)
            base = Know.SNAP + seat * Off.PUB_SIZE
            for i in range(Off.PUB_SIZE):
                know[base + i] = state[i]
            mask_pile_nb(state, hidden, know[base : base + Off.PUB_SIZE])
            know[Know.SNAP_VALID + seat] = 1
        return
    if seat == viewer:
        return
    if action < Act.ADD_NAT:
        k = (action - Act.MELD) // 3
        variant = (action - Act.MELD) % 3
        if variant == 0:
            _forget_nb(know, seat, k, 3)
        else:
            _forget_nb(know, seat, k, 2)
            _forget_nb(know, seat, Kind.TWO if variant == 1 else Kind.JOKER, 1)
    elif action < Act.ADD_TWO:
        _forget_nb(know, seat, action - Act.ADD_NAT, 1)
    elif action < Act.ADD_JOKER:
        _forget_nb(know, seat, Kind.TWO, 1)
    else:
        _forget_nb(know, seat, Kind.JOKER, 1)


@njit(cache=True, _nrt=False)
def know_after_nb(know: np.ndarray, state: np.ndarray) -> None:
    """After an action is applied: the viewer's aside cards joined its hand once no card is
    aside any more (its initial meld was reached).  Call after every applied action."""
    if state[Off.ASIDE_LEN] == 0:
        for k in range(N_KINDS):
            know[Know.ASIDE + k] = 0


@njit(cache=True, _nrt=False)
def mask_pile_nb(state: np.ndarray, hidden: int, obs: np.ndarray) -> None:
    """Remove the ``hidden`` bottom pile cards of ``state`` from ``obs``'s PILE_COUNTS and
    PILE_FREEZE (which becomes the known freezing cards, at least 1 if the pile is frozen)."""
    if hidden <= 0:
        return
    frozen = state[Off.PILE_FREEZE] > 0
    known_freeze = 0
    for j in range(hidden):
        obs[Off.PILE_COUNTS + (state[Off.PILE + j] & 15)] -= 1
    known_freeze = obs[Off.PILE_COUNTS + Kind.TWO] + obs[Off.PILE_COUNTS + Kind.JOKER] + obs[Off.PILE_COUNTS + Kind.RED3]
    if not frozen:
        obs[Off.PILE_FREEZE] = 0
    else:
        obs[Off.PILE_FREEZE] = known_freeze if known_freeze > 0 else 1


@njit(cache=True, _nrt=False)
def observe_nb(state: np.ndarray, seat: int, hidden: int, obs: np.ndarray, samba: bool) -> None:
    """``seat``'s observation of ``state`` with the ``hidden`` bottom pile cards left out
    (`build_obs_nb`, then `mask_pile_nb`)."""
    build_obs_nb(state, seat, obs, samba)
    mask_pile_nb(state, hidden, obs)


# ----------------------------------------------------------------------------- sampling


@njit(cache=True, _nrt=False)
def unseen_nb(obs: np.ndarray, know: np.ndarray, params: np.ndarray, out: np.ndarray) -> int:
    """Cards of each kind the viewer has not seen (int64[N_KINDS] into ``out``): the packs minus
    its hand and aside cards, melds, laid red threes, the known pile cards and the cards known in
    other hands.  Returns OK or COUNTS (some kind over-counted)."""
    deck_composition_nb(params, out)
    viewer = know[Know.VIEWER]
    for k in range(N_KINDS):
        out[k] -= obs[Off.HANDS + k] + know[Know.ASIDE + k] + obs[Off.PILE_COUNTS + k]
        for s in range(obs[Off.N_SEATS]):
            if s != viewer:
                out[k] -= know[Know.KNOWN + s * N_KINDS + k]
    for t in range(obs[Off.N_TEAMS]):
        out[Kind.RED3] -= obs[Off.TEAM_RED3 + t]
        for k in range(N_KINDS):
            i = t * N_KINDS + k
            out[k] -= obs[Off.MELD_NAT + i]
            out[Kind.TWO] -= obs[Off.MELD_TWO + i]
            out[Kind.JOKER] -= obs[Off.MELD_JOKER + i]
    for k in range(N_KINDS):
        if out[k] < 0:
            return COUNTS
    return OK


@njit(cache=True, _nrt=False)
def _code_nb(kind: int, suit_next: np.ndarray) -> int:
    """A card code for ``kind``: natural ranks take the suits in rotation."""
    if FIRST_NATURAL <= kind <= LAST_NATURAL:
        s = suit_next[kind] % 4
        suit_next[kind] += 1
        return kind | (s << 4)
    return kind


@njit(cache=True, _nrt=False)
def _to_hand_nb(out, seat, code) -> None:
    k = code & 15
    out[Off.HANDS + seat * N_KINDS + k] += 1
    if FIRST_NATURAL <= k <= LAST_NATURAL:
        out[Off.HAND_SUITS + seat * N_SUITED + (code >> 4) * 11 + k - FIRST_NATURAL] += 1


@njit(cache=True, _nrt=False)
def _sample_nb(rng, arr, lo, hi, k) -> None:
    """A uniform random ordered sample of k entries of arr[lo:hi] into arr[lo:lo+k]."""
    for i in range(k):
        j = lo + i + randint_nb(rng, hi - lo - i)
        tmp = arr[lo + i]
        arr[lo + i] = arr[j]
        arr[j] = tmp


@njit(cache=True, _nrt=False)
def _is_wild_nb(code) -> bool:
    k = code & 15
    return k == Kind.TWO or k == Kind.JOKER


@njit(cache=True, _nrt=False)
def _hidden_pile_nb(rng, pool, n_plain, nr, p, mode) -> int:
    """Choose the p hidden pile cards into pool[0:p] (see the module docstring)."""
    if p == 0:
        return OK
    if mode == _PLAIN:
        if p > n_plain:
            return PILE
        _sample_nb(rng, pool, 0, n_plain, p)
        return OK
    if p > nr:
        return PILE
    if mode == _ANY:
        _sample_nb(rng, pool, 0, nr, p)
        return OK
    if nr == n_plain:
        return PILE
    for _t in range(WILD_TRIES):
        _sample_nb(rng, pool, 0, nr, p)
        for i in range(p):
            if _is_wild_nb(pool[i]):
                return OK
    pick = randint_nb(rng, nr - n_plain)
    for i in range(nr):
        if _is_wild_nb(pool[i]):
            if pick == 0:
                tmp = pool[0]
                pool[0] = pool[i]
                pool[i] = tmp
                break
            pick -= 1
    _sample_nb(rng, pool, 1, nr, p - 1)
    return OK


@njit(cache=True, _nrt=False)
def _known_part_nb(obs, know, params, out, pool, unseen, suit_next) -> int:
    """Everything but the random part: public fields, the known cards in place; the pool of
    unseen non-red-three codes (plain first, then wild) in pool[0:nr].  Returns nr, or -code."""
    if params[Par.SEQUENCES] != 0 or params[Par.MULTI_MELDS] != 0:
        return -SAMBA
    code = unseen_nb(obs, know, params, unseen)
    if code != OK:
        return -code
    for i in range(out.shape[0]):
        out[i] = 0
    for i in range(Off.PUB_SIZE):
        out[i] = obs[i]
    for k in range(N_KINDS):
        suit_next[k] = 0
    viewer = know[Know.VIEWER]
    n = obs[Off.N_SEATS]
    for k in range(N_KINDS):
        for _ in range(obs[Off.HANDS + k]):
            _to_hand_nb(out, viewer, _code_nb(k, suit_next))
        for s in range(n):
            if s != viewer:
                for _ in range(know[Know.KNOWN + s * N_KINDS + k]):
                    _to_hand_nb(out, s, _code_nb(k, suit_next))
    # the viewer's aside cards sit at the bottom of PILE (the pile itself is empty then)
    m = 0
    for k in range(N_KINDS):
        for _ in range(know[Know.ASIDE + k]):
            out[Off.PILE + m] = _code_nb(k, suit_next)
            m += 1
    if m != obs[Off.ASIDE_LEN]:
        return -COUNTS
    # known pile cards above the hidden ones, the top card last
    hidden = know[Know.PILE_HIDDEN]
    n_known = 0
    for k in range(N_KINDS):
        n_known += obs[Off.PILE_COUNTS + k]
    plen = obs[Off.PILE_LEN]
    if n_known + hidden != plen or (plen > 0 and n_known == 0):
        return -COUNTS
    if plen > 0:
        top = obs[Off.PILE_TOP]
        j = hidden
        for k in range(N_KINDS):
            c = obs[Off.PILE_COUNTS + k] - (1 if k == top else 0)
            for _ in range(c):
                out[Off.PILE + j] = _code_nb(k, suit_next)
                j += 1
        ts = obs[Off.PILE_TOP_SUIT]
        out[Off.PILE + plen - 1] = top | (ts << 4) if FIRST_NATURAL <= top <= LAST_NATURAL and ts >= 0 else top
        if hidden > 0:  # the true count: known freezing cards (+ hidden ones, added when dealt)
            out[Off.PILE_FREEZE] = obs[Off.PILE_COUNTS + Kind.TWO] + obs[Off.PILE_COUNTS + Kind.JOKER] + obs[Off.PILE_COUNTS + Kind.RED3]
    nr = 0
    for k in range(N_KINDS):
        if k != Kind.TWO and k != Kind.JOKER and k != Kind.RED3:
            for _ in range(unseen[k]):
                pool[nr] = _code_nb(k, suit_next)
                nr += 1
    for k in (Kind.TWO, Kind.JOKER):
        for _ in range(unseen[k]):
            pool[nr] = k
            nr += 1
    # the hidden places must take exactly the unseen cards
    places = hidden + obs[Off.STOCK_LEN]
    for s in range(n):
        if s != viewer:
            places += obs[Off.HAND_SIZE + s]
            for k in range(N_KINDS):
                places -= know[Know.KNOWN + s * N_KINDS + k]
    if places != nr + unseen[Kind.RED3] or unseen[Kind.RED3] > obs[Off.STOCK_LEN]:
        return -COUNTS
    return nr


@njit(cache=True, _nrt=False)
def _pile_mode_nb(obs) -> int:
    if obs[Off.PILE_FREEZE] == 0:
        return _PLAIN
    if obs[Off.PILE_COUNTS + Kind.TWO] + obs[Off.PILE_COUNTS + Kind.JOKER] + obs[Off.PILE_COUNTS + Kind.RED3] > 0:
        return _ANY
    return _NEED_WILD


@njit(cache=True, _nrt=False)
def _place_pile_nb(out, pool, p) -> None:
    for i in range(p):
        c = pool[i]
        k = c & 15
        out[Off.PILE + i] = c
        out[Off.PILE_COUNTS + k] += 1
        if k == Kind.TWO or k == Kind.JOKER or k == Kind.RED3:
            out[Off.PILE_FREEZE] += 1


@njit(cache=True, _nrt=False)
def _fill_stock_nb(rng, out, pool, idx, nr, n_r3) -> None:
    """pool[idx:nr] (already in uniform random order) and the red threes make the stock, in a
    uniformly random order."""
    m = 0
    while idx < nr:
        out[Off.STOCK + m] = pool[idx]
        idx += 1
        m += 1
    for _ in range(n_r3):
        out[Off.STOCK + m] = Kind.RED3
        m += 1
    if n_r3 > 0:
        for i in range(m - 1, 0, -1):
            j = randint_nb(rng, i + 1)
            tmp = out[Off.STOCK + i]
            out[Off.STOCK + i] = out[Off.STOCK + j]
            out[Off.STOCK + j] = tmp
    out[Off.STOCK_POS] = 0


@njit(cache=True, _nrt=False)
def sample_world_nb(obs: np.ndarray, know: np.ndarray, params: np.ndarray, rng: np.ndarray,
                    out: np.ndarray, pool: np.ndarray, unseen: np.ndarray, suit_next: np.ndarray) -> int:
    """One uniformly random world consistent with ``obs`` and ``know`` into ``out``.

    Parameters
    ----------
    obs : int32[STATE_SIZE]   the viewer's observation (`observe_nb`; own hand at Off.HANDS)
    know : int32[Know.SIZE]   the viewer's knowledge (`know_update_nb`)
    params : int32[N_PARAMS]  rule parameters
    rng : uint64[2]           random stream (advanced)
    out : int32[STATE_SIZE]   the world (written; every field set)
    pool : int32[>= MAX_CARDS], unseen : int64[N_KINDS], suit_next : int64[N_KINDS]  scratch
    Returns OK or an error code (`ERROR_TEXT`); ``out`` is then undefined.
    """
    nr = _known_part_nb(obs, know, params, out, pool, unseen, suit_next)
    if nr < 0:
        return -nr
    n_plain = nr - unseen[Kind.TWO] - unseen[Kind.JOKER]
    p = know[Know.PILE_HIDDEN]
    code = _hidden_pile_nb(rng, pool, n_plain, nr, p, _pile_mode_nb(obs))
    if code != OK:
        return code
    _place_pile_nb(out, pool, p)
    _sample_nb(rng, pool, p, nr, nr - p)
    idx = p
    viewer = know[Know.VIEWER]
    for s in range(obs[Off.N_SEATS]):
        if s == viewer:
            continue
        c = obs[Off.HAND_SIZE + s]
        for k in range(N_KINDS):
            c -= know[Know.KNOWN + s * N_KINDS + k]
        for _ in range(c):
            _to_hand_nb(out, s, pool[idx])
            idx += 1
    _fill_stock_nb(rng, out, pool, idx, nr, unseen[Kind.RED3])
    return OK


@njit(cache=True, _nrt=False)
def _model_agrees_nb(out, know, params, s, pool, lo, c, model_id, model_knobs, rng, mobs, buf) -> bool:
    """Would the model, holding seat s's known cards + pool[lo:lo+c] + its last discard at the
    snapshot of that decision, have made that discard?"""
    base = Know.SNAP + s * Off.PUB_SIZE
    for i in range(Off.PUB_SIZE):
        mobs[i] = know[base + i]
    for i in range(Off.PUB_SIZE, Off.HAND_SUITS + N_SUITED):
        mobs[i] = 0
    d = out[Off.LAST_DISCARD + s]
    for k in range(N_KINDS):
        mobs[Off.HANDS + k] = know[Know.KNOWN + s * N_KINDS + k]
    mobs[Off.HANDS + d] += 1
    for i in range(c):
        mobs[Off.HANDS + (pool[lo + i] & 15)] += 1
    return decide_nb(model_id, mobs, params, model_knobs, rng, buf) == Act.DISCARD + d


@njit(cache=True, _nrt=False)
def sample_consistent_nb(obs: np.ndarray, know: np.ndarray, params: np.ndarray, rng: np.ndarray,
                         out: np.ndarray, pool: np.ndarray, unseen: np.ndarray, suit_next: np.ndarray,
                         model_id: int, model_knobs: np.ndarray, tries: int, mobs: np.ndarray,
                         buf: np.ndarray, stats: np.ndarray) -> int:
    """Like `sample_world_nb`, but each other seat with a known last discard (``SNAP_VALID``)
    gets hidden cards the model strategy ``model_id`` (knobs float64[MAX_KNOBS]) agrees with:
    redrawn up to ``tries`` times from the cards not yet dealt (the last draw is kept if none
    agrees).  Scratch: mobs int32[STATE_SIZE], buf int32[N_ACTIONS].  stats int64[2] gets
    += (seats constrained, seats for which no draw agreed).  Returns OK or an error code."""
    nr = _known_part_nb(obs, know, params, out, pool, unseen, suit_next)
    if nr < 0:
        return -nr
    n_plain = nr - unseen[Kind.TWO] - unseen[Kind.JOKER]
    p = know[Know.PILE_HIDDEN]
    code = _hidden_pile_nb(rng, pool, n_plain, nr, p, _pile_mode_nb(obs))
    if code != OK:
        return code
    _place_pile_nb(out, pool, p)
    idx = p
    viewer = know[Know.VIEWER]
    for s in range(obs[Off.N_SEATS]):
        if s == viewer:
            continue
        c = obs[Off.HAND_SIZE + s]
        for k in range(N_KINDS):
            c -= know[Know.KNOWN + s * N_KINDS + k]
        _sample_nb(rng, pool, idx, nr, c)
        if know[Know.SNAP_VALID + s] != 0 and out[Off.LAST_DISCARD + s] >= 0:
            stats[0] += 1
            ok = False
            for _t in range(tries):
                if _model_agrees_nb(out, know, params, s, pool, idx, c, model_id, model_knobs, rng, mobs, buf):
                    ok = True
                    break
                _sample_nb(rng, pool, idx, nr, c)
            if not ok:
                stats[1] += 1
        for i in range(c):
            _to_hand_nb(out, s, pool[idx + i])
        idx += c
    _sample_nb(rng, pool, idx, nr, nr - idx)
    _fill_stock_nb(rng, out, pool, idx, nr, unseen[Kind.RED3])
    return OK


@njit(cache=True)
def sample_worlds_nb(obs: np.ndarray, know: np.ndarray, params: np.ndarray, seed: int, start: int,
                     out: np.ndarray, model_id: int, model_knobs: np.ndarray, tries: int,
                     stats: np.ndarray) -> int:
    """Worlds start .. start+n-1 into out[0:n] (int32[n, STATE_SIZE]); world i uses the stream
    keyed (seed, i, 0, STREAM_WORLD), so it depends only on (seed, i) and the inputs.
    ``model_id`` < 0: uniform worlds (`sample_world_nb`), else model-consistent ones
    (`sample_consistent_nb` with ``tries``; stats int64[2] as there).  Returns OK or an error code."""
    rng = np.zeros(2, np.uint64)
    pool = np.zeros(MAX_CARDS, np.int32)
    unseen = np.zeros(N_KINDS, np.int64)
    suit_next = np.zeros(N_KINDS, np.int64)
    mobs = np.zeros(Off.STATE_SIZE, np.int32)
    buf = np.zeros(N_ACTIONS, np.int32)
    for j in range(out.shape[0]):
        seed_rng_nb(rng, seed, start + j, 0, STREAM_WORLD)
        if model_id < 0:
            code = sample_world_nb(obs, know, params, rng, out[j], pool, unseen, suit_next)
        else:
            code = sample_consistent_nb(obs, know, params, rng, out[j], pool, unseen, suit_next,
                                        model_id, model_knobs, tries, mobs, buf, stats)
        if code != OK:
            return code
    return OK


def new_know(viewer: int, pile_hidden: int = 0) -> np.ndarray:
    """A fresh knowledge array (int32[Know.SIZE]) for ``viewer``."""
    know = np.zeros(Know.SIZE, np.int32)
    know_init_nb(know, int(viewer), int(pile_hidden))
    return know
