"""Uniform worlds: the unseen cards dealt at random over the places a seat cannot see.

The primitives of `sim.play.worlds.sampler` (see its docstring for what is sampled and how): the
unseen cards (`unseen_nb`), the known part of a world (`known_part_nb`), the hidden pile, the hands
and the stock (`sample_world_nb`).  Model-consistent worlds build on these
(`sim.play.worlds.infer`).
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
    Kind,
    Off,
    Par,
)
from sim.core.rng import randint_nb
from sim.play.selfplay.loop import deck_composition_nb
from sim.play.worlds.knowledge import Know

__all__ = [
    "OK",
    "COUNTS",
    "PILE",
    "ERROR_TEXT",
    "WILD_TRIES",
    "STREAM_WORLD",
    "unseen_nb",
    "sample_world_nb",
    "known_part_nb",
    "known_and_pile_nb",
    "hidden_pile_nb",
    "pile_mode_nb",
    "place_pile_nb",
    "sample_nb",
    "fill_stock_nb",
    "to_hand_nb",
]

OK = 0
COUNTS = 1
PILE = 2
ERROR_TEXT = {
    COUNTS: "the cards do not add up: more cards of a kind known than the packs hold, or the "
    "unseen "
    "cards do not fill the hidden places",
    PILE: "the hidden pile cards cannot be dealt (not frozen: natural cards only; frozen: a wild "
    "card)",
}
WILD_TRIES = 256
STREAM_WORLD = 16  # random stream of world j: key (seed, j, 0, STREAM_WORLD)
_PLAIN = 0  # hidden pile modes
_ANY = 1
_NEED_WILD = 2


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
            out[k] -= obs[Off.CLOSED_NAT + i]  # Samba: closed canastas and sequences
        out[Kind.TWO] -= obs[Off.CLOSED_TWO + t]
        out[Kind.JOKER] -= obs[Off.CLOSED_JOKER + t]
        for q in range(MAX_SEQS):
            j = t * MAX_SEQS + q
            for k in range(obs[Off.SEQ_LOW + j], obs[Off.SEQ_LOW + j] + obs[Off.SEQ_LEN + j]):
                out[k] -= 1
    for k in range(N_KINDS):
        if out[k] < 0:
            return COUNTS
    return OK


@njit(cache=True, _nrt=False)
def _suits_left_nb(obs, params, left) -> bool:
    """Samba: copies of each suited natural (left[suit * 11 + rank]) whose place the viewer does
    not know: the packs less its hand, the sequences and the pile's top card.  False if some
    suited natural is over-counted."""
    for i in range(N_SUITED):
        left[i] = params[Par.DECKS] - obs[Off.HAND_SUITS + i]
    for t in range(obs[Off.N_TEAMS]):
        for q in range(MAX_SEQS):
            j = t * MAX_SEQS + q
            for k in range(obs[Off.SEQ_LOW + j], obs[Off.SEQ_LOW + j] + obs[Off.SEQ_LEN + j]):
                left[obs[Off.SEQ_SUIT + j] * 11 + k - FIRST_NATURAL] -= 1
    top, ts = obs[Off.PILE_TOP], obs[Off.PILE_TOP_SUIT]
    if obs[Off.PILE_LEN] > 0 and FIRST_NATURAL <= top <= LAST_NATURAL and ts >= 0:
        left[ts * 11 + top - FIRST_NATURAL] -= 1
    for i in range(N_SUITED):
        if left[i] < 0:
            return False
    return True


@njit(cache=True, _nrt=False)
def _code_nb(
    kind: int, suit_next: np.ndarray, left: np.ndarray, rng: np.ndarray, samba: bool
) -> int:
    """A card code for ``kind``: natural ranks take the suits in rotation, or under Samba rules
    a uniformly random one of the copies left (``left``, `_suits_left_nb`; drawn without
    replacement, so the suits of all the cards placed are a uniform draw of those copies)."""
    if samba and FIRST_NATURAL <= kind <= LAST_NATURAL:
        r = kind - FIRST_NATURAL
        total = left[r] + left[11 + r] + left[22 + r] + left[33 + r]
        x = randint_nb(rng, total) if total > 0 else 0
        for s in range(4):
            if x < left[s * 11 + r]:
                left[s * 11 + r] -= 1
                return kind | (s << 4)
            x -= left[s * 11 + r]
        return kind
    if FIRST_NATURAL <= kind <= LAST_NATURAL:
        s = suit_next[kind] % 4
        suit_next[kind] += 1
        return kind | (s << 4)
    return kind


@njit(cache=True, _nrt=False)
def to_hand_nb(out, seat, code) -> None:
    k = code & 15
    out[Off.HANDS + seat * N_KINDS + k] += 1
    if FIRST_NATURAL <= k <= LAST_NATURAL:
        out[Off.HAND_SUITS + seat * N_SUITED + (code >> 4) * 11 + k - FIRST_NATURAL] += 1


@njit(cache=True, _nrt=False)
def sample_nb(rng, arr, lo, hi, k) -> None:
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
def hidden_pile_nb(rng, pool, n_plain, nr, p, mode) -> int:
    """Choose the p hidden pile cards into pool[0:p] (see the module docstring)."""
    if p == 0:
        return OK
    if mode == _PLAIN:
        if p > n_plain:
            return PILE
        sample_nb(rng, pool, 0, n_plain, p)
        return OK
    if p > nr:
        return PILE
    if mode == _ANY:
        sample_nb(rng, pool, 0, nr, p)
        return OK
    if nr == n_plain:
        return PILE
    for _t in range(WILD_TRIES):
        sample_nb(rng, pool, 0, nr, p)
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
    sample_nb(rng, pool, 1, nr, p - 1)
    return OK


@njit(cache=True, _nrt=False)
def known_part_nb(obs, know, params, out, pool, unseen, suit_next, rng) -> int:
    """Everything but the random part: public fields, the known cards in place; the pool of
    unseen non-red-three codes (plain first, then wild) in pool[0:nr].  Returns nr, or -code."""
    samba = params[Par.SEQUENCES] != 0
    code = unseen_nb(obs, know, params, unseen)
    if code != OK:
        return -code
    for i in range(out.shape[0]):
        out[i] = 0
    for i in range(Off.PUB_SIZE):
        out[i] = obs[i]
    for k in range(N_KINDS):
        suit_next[k] = 0
    # Samba: the suits left to draw live in the stock area, which is written last
    left = out[Off.STOCK : Off.STOCK + N_SUITED]
    if samba and not _suits_left_nb(obs, params, left):
        return -COUNTS
    viewer = know[Know.VIEWER]
    n = obs[Off.N_SEATS]
    for k in range(N_KINDS):
        if samba and FIRST_NATURAL <= k <= LAST_NATURAL:
            for suit in range(4):
                for _ in range(obs[Off.HAND_SUITS + suit * 11 + k - FIRST_NATURAL]):
                    to_hand_nb(out, viewer, k | (suit << 4))
        else:
            for _ in range(obs[Off.HANDS + k]):
                to_hand_nb(out, viewer, _code_nb(k, suit_next, left, rng, samba))
        for s in range(n):
            if s != viewer:
                for _ in range(know[Know.KNOWN + s * N_KINDS + k]):
                    to_hand_nb(out, s, _code_nb(k, suit_next, left, rng, samba))
    # the viewer's aside cards sit at the bottom of PILE (the pile itself is empty then)
    m = 0
    for k in range(N_KINDS):
        for _ in range(know[Know.ASIDE + k]):
            out[Off.PILE + m] = _code_nb(k, suit_next, left, rng, samba)
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
                out[Off.PILE + j] = _code_nb(k, suit_next, left, rng, samba)
                j += 1
        ts = obs[Off.PILE_TOP_SUIT]
        out[Off.PILE + plen - 1] = (
            top | (ts << 4) if FIRST_NATURAL <= top <= LAST_NATURAL and ts >= 0 else top
        )
        if hidden > 0:  # the true count: known freezing cards (+ hidden ones, added when dealt)
            out[Off.PILE_FREEZE] = (
                obs[Off.PILE_COUNTS + Kind.TWO]
                + obs[Off.PILE_COUNTS + Kind.JOKER]
                + obs[Off.PILE_COUNTS + Kind.RED3]
            )
    nr = 0
    for k in range(N_KINDS):
        if k != Kind.TWO and k != Kind.JOKER and k != Kind.RED3:
            for _ in range(unseen[k]):
                pool[nr] = _code_nb(k, suit_next, left, rng, samba)
                nr += 1
    for k in (Kind.TWO, Kind.JOKER):
        for _ in range(unseen[k]):
            pool[nr] = k
            nr += 1
    for i in range(N_SUITED):
        left[i] = 0
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
def pile_mode_nb(obs) -> int:
    if obs[Off.PILE_FREEZE] == 0:
        return _PLAIN
    if (
        obs[Off.PILE_COUNTS + Kind.TWO]
        + obs[Off.PILE_COUNTS + Kind.JOKER]
        + obs[Off.PILE_COUNTS + Kind.RED3]
        > 0
    ):
        return _ANY
    return _NEED_WILD


@njit(cache=True, _nrt=False)
def place_pile_nb(out, pool, p) -> None:
    for i in range(p):
        c = pool[i]
        k = c & 15
        out[Off.PILE + i] = c
        out[Off.PILE_COUNTS + k] += 1
        if k == Kind.TWO or k == Kind.JOKER or k == Kind.RED3:
            out[Off.PILE_FREEZE] += 1


@njit(cache=True, _nrt=False)
def known_and_pile_nb(obs, know, params, out, pool, unseen, suit_next, rng) -> int:
    """The part of a world every sampler shares: the viewer's known cards placed
    (`known_part_nb`), then the hidden pile cards drawn and placed at pool[:PILE_HIDDEN].
    Returns the number of unseen cards in ``pool`` (>= 0), or minus an error code."""
    nr = known_part_nb(obs, know, params, out, pool, unseen, suit_next, rng)
    if nr < 0:
        return nr
    n_plain = nr - unseen[Kind.TWO] - unseen[Kind.JOKER]
    p = know[Know.PILE_HIDDEN]
    code = hidden_pile_nb(rng, pool, n_plain, nr, p, pile_mode_nb(obs))
    if code != OK:
        return -code
    place_pile_nb(out, pool, p)
    return nr


@njit(cache=True, _nrt=False)
def fill_stock_nb(rng, out, pool, idx, nr, n_r3) -> None:
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
def sample_world_nb(
    obs: np.ndarray,
    know: np.ndarray,
    params: np.ndarray,
    rng: np.ndarray,
    out: np.ndarray,
    pool: np.ndarray,
    unseen: np.ndarray,
    suit_next: np.ndarray,
) -> int:
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
    nr = known_and_pile_nb(obs, know, params, out, pool, unseen, suit_next, rng)
    if nr < 0:
        return -nr
    p = know[Know.PILE_HIDDEN]
    sample_nb(rng, pool, p, nr, nr - p)
    idx = p
    viewer = know[Know.VIEWER]
    for s in range(obs[Off.N_SEATS]):
        if s == viewer:
            continue
        c = obs[Off.HAND_SIZE + s]
        for k in range(N_KINDS):
            c -= know[Know.KNOWN + s * N_KINDS + k]
        for _ in range(c):
            to_hand_nb(out, s, pool[idx])
            idx += 1
    fill_stock_nb(rng, out, pool, idx, nr, unseen[Kind.RED3])
    return OK
