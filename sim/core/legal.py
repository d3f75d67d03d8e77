"""Legality: the legal action list, and the one place to import legality from.

`legal_actions_nb` enumerates the legal actions with the checkers of `sim.core.why` (the single
source of truth: `why_illegal_nb` returns 0 or a reason code `Why`, text in WHY_TEXT).  The
checks live in modules of one job each -- `sim.core.readers` (small readers), `sim.core.opening`
(the opening search), `sim.core.suits` (suit choice), `sim.core.why` (the checks) -- and are
re-exported here for the strategies, the applier and the loops, with the predicates strategies
ask of one candidate (`take_ok_nb`, `meld_ok_nb`, `discard_ok_nb`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.core.enums import (
    FIRST_NATURAL,
    LAST_NATURAL,
    MAX_SEQS,
    N_KINDS,
    Act,
    Kind,
    Off,
    Par,
    Phase,
)

# Re-exported (`X as X`): legality is imported from here.
from sim.core.opening import can_go_out_concealed_nb as can_go_out_concealed_nb
from sim.core.opening import (
    concealed_waiver_nb,
)
from sim.core.opening import max_meld_points_nb as max_meld_points_nb
from sim.core.readers import canastas_nb as canastas_nb
from sim.core.readers import decode_meld_nb as decode_meld_nb
from sim.core.readers import (
    lowest_bit_nb,
    team_min_nb,
)
from sim.core.readers import meld_size_nb as meld_size_nb
from sim.core.readers import seq_move_nb as seq_move_nb
from sim.core.readers import suit_off_nb as suit_off_nb
from sim.core.readers import team_of_nb as team_of_nb
from sim.core.readers import wild_capacity_nb as wild_capacity_nb
from sim.core.suits import pick_suit_nb as pick_suit_nb
from sim.core.why import WHY_TEXT as WHY_TEXT
from sim.core.why import Why as Why
from sim.core.why import discard_why_nb as discard_why_nb
from sim.core.why import (
    meld_lookahead_nb,
    why_draw_nb,
    why_seq_nb,
)
from sim.core.why import why_illegal_nb as why_illegal_nb
from sim.core.why import why_meld_nb as why_meld_nb
from sim.core.why import why_take_nb as why_take_nb

# ----------------------------------------------------------------------------- predicates
# Is one action legal?  `why_illegal_nb(obs, HANDS, params, a) == 0` for one family of
# actions, without the dispatch over families: what strategies ask of their candidates.


@njit(cache=True, _nrt=False, inline="always")
def take_ok_nb(obs: np.ndarray, params: np.ndarray, team: int, a: int) -> bool:
    """`why_illegal_nb(obs, HANDS, params, a) == 0` for a pile take a (Act.TAKE_PAIR <= a <=
    Act.TAKE_ONTO) in the draw phase (the caller's precondition): the same check, why_take_nb,
    without the dispatch.  Inlined: a strategy calls it once per candidate (one call site each, not
    two:
    every call site of a decision function costs it stack slots that its entry zeroes)."""
    return why_take_nb(obs, Off.HANDS, params, a, team) == 0


@njit(cache=True, _nrt=False, inline="always")
def discard_ok_nb(obs: np.ndarray, params: np.ndarray, team: int, kind: int) -> bool:
    """`why_illegal_nb(obs, HANDS, params, Act.DISCARD + kind) == 0`, without its dispatch for
    a held kind (not a red three) in the meld phase: then only `discard_why_nb` can refuse it."""
    if obs[Off.PHASE] != Phase.MELD or kind < 0 or kind >= Kind.RED3 or obs[Off.HANDS + kind] < 1:
        return why_illegal_nb(obs, Off.HANDS, params, Act.DISCARD + kind) == 0
    return discard_why_nb(obs, params, team) == 0


@njit(cache=True, _nrt=False, inline="always")
def meld_ok_nb(obs: np.ndarray, params: np.ndarray, team: int, a: int) -> bool:
    """`why_illegal_nb(obs, HANDS, params, a) == 0` for a meld or an addition a (Act.MELD <=
    a < Act.DISCARD) in the meld phase (the caller's precondition): the same checks,
    why_meld_nb, without the dispatch (see take_ok_nb)."""
    return why_meld_nb(obs, Off.HANDS, params, a, team) == 0


@njit(cache=True, _nrt=False)
def legal_actions_nb(arr: np.ndarray, hand_off: int, params: np.ndarray, out: np.ndarray) -> int:
    """Write the legal action ids into out[:n] and return n (draw-phase actions; or melds and
    additions by kind, then discards by kind).

    Parameters
    ----------
    arr : int32[:]  state or observation
    hand_off : int  offset of the acting player's hand
    params : int32[:]  rule parameters
    out : int16 or int32[:], shape (N_ACTIONS,)  output buffer
    """
    # the per-kind checkers of why_illegal_nb are called directly (the same checks, without
    # its dispatch per candidate)
    n = 0
    phase = arr[Off.PHASE]
    team = team_of_nb(arr)
    if phase == Phase.DRAW:
        return _legal_draw_nb(arr, hand_off, params, team, out)
    if phase != Phase.MELD:
        return 0
    opened = arr[Off.TEAM_OPENED + team] != 0
    if not opened and not _any_meld_possible_nb(arr, hand_off, params, team):
        return legal_discards_nb(arr, hand_off, params, team, out, n)
    # black threes first (list order is by kind): their checks differ, and they are rare
    b3 = arr[hand_off + Kind.BLACK3]
    if b3 > 0:
        i = team * N_KINDS + Kind.BLACK3
        if arr[Off.MELD_NAT + i] > 0 or arr[Off.CLOSED_COUNT + i] > 0:
            if why_meld_nb(arr, hand_off, params, Act.ADD_NAT + Kind.BLACK3, team) == 0:
                out[n] = Act.ADD_NAT + Kind.BLACK3
                n += 1
        if b3 >= 3 and why_meld_nb(arr, hand_off, params, Act.MELD + Kind.BLACK3 * 3, team) == 0:
            out[n] = Act.MELD + Kind.BLACK3 * 3
            n += 1
    n = natural_melds_nb(arr, hand_off, params, team, opened, out, n)
    if params[Par.SEQUENCES] != 0:
        n = _legal_sequences_nb(arr, hand_off, params, team, out, n)
    return legal_discards_nb(arr, hand_off, params, team, out, n)


@njit(cache=True, _nrt=False, inline="always")
def _legal_draw_nb(arr, hand_off, params, team, out) -> int:
    """The draw-phase part of legal_actions_nb: draw, the takes, decline, sequence takes."""
    n = 0
    if why_draw_nb(arr) == 0:
        out[n] = Act.DRAW
        n += 1
    top = arr[Off.PILE_TOP]
    if arr[Off.PILE_LEN] > 0 and FIRST_NATURAL <= top <= LAST_NATURAL:
        # takes are possible only with a natural on top (else PILE_EMPTY / TOP_BLOCKED),
        # and only with the cards they need (else NO_CARDS / NO_MELD)
        c = arr[hand_off + top]
        melded = meld_size_nb(arr, team, top) > 0
        for a in range(Act.TAKE_PAIR, Act.TAKE_ONTO + 1):
            if a == Act.TAKE_PAIR and c < 2:
                continue
            if a == Act.TAKE_NAT_TWO and (c < 1 or arr[hand_off + Kind.TWO] < 1):
                continue
            if a == Act.TAKE_NAT_JOKER and (c < 1 or arr[hand_off + Kind.JOKER] < 1):
                continue
            if a == Act.TAKE_ONTO and not melded:
                continue
            if why_take_nb(arr, hand_off, params, a, team) == 0:
                out[n] = a
                n += 1
    if arr[Off.STOCK_LEN] == 0 and why_illegal_nb(arr, hand_off, params, Act.DECLINE) == 0:
        out[n] = Act.DECLINE
        n += 1
    if params[Par.SEQUENCES] != 0 and arr[Off.PILE_LEN] > 0:
        for a in range(Act.TAKE_SEQ, Act.N_ACTIONS):
            if why_seq_nb(arr, hand_off, params, a, team) == 0:
                out[n] = a
                n += 1
    return n


@njit(cache=True, _nrt=False, inline="always")
def _legal_sequences_nb(arr, hand_off, params, team, out, n) -> int:
    """The Samba part of legal_actions_nb: new sequences, then extensions of the team's."""
    so = suit_off_nb(hand_off)
    for suit in range(4):
        for low in range(FIRST_NATURAL, LAST_NATURAL - 1):
            b = so + suit * 11 + low - FIRST_NATURAL
            if arr[b] > 0 and arr[b + 1] > 0 and arr[b + 2] > 0:
                a = Act.SEQ_NEW + suit * 9 + low - FIRST_NATURAL
                if why_illegal_nb(arr, hand_off, params, a) == 0:
                    out[n] = a
                    n += 1
    for q in range(MAX_SEQS):
        if arr[Off.SEQ_LEN + team * MAX_SEQS + q] > 0:
            for end in range(2):
                a = Act.SEQ_ADD + q * 2 + end
                if why_illegal_nb(arr, hand_off, params, a) == 0:
                    out[n] = a
                    n += 1
    return n


@njit(cache=True, _nrt=False, inline="always")
def natural_melds_nb(arr, hand_off, params, team, opened, out, n) -> int:
    """The melds and additions of natural kinds for legal_actions_nb, in list order.

    The checks of meld_checks_nb that need no look-ahead are a few counts compared: they are
    computed for all kinds at once, without branches (the per-kind branches of a direct loop
    mispredict a lot), as four bits per kind, the candidates in list order (a natural added;
    a two or a three-natural meld; a joker or a meld with a two; a meld with a joker).  The
    look-ahead runs only for the candidates that still need it: all of them before the team
    has opened, else only those that would leave fewer than two cards."""
    base = team * N_KINDS
    # views indexed by the kind alone: the compiler then sees non-negative indices and loads
    # contiguously (with offsets added inside the loop it emitted slow vector gathers)
    hand = arr[hand_off : hand_off + N_KINDS]
    meld_nat = arr[Off.MELD_NAT + base : Off.MELD_NAT + base + N_KINDS]
    meld_two = arr[Off.MELD_TWO + base : Off.MELD_TWO + base + N_KINDS]
    meld_joker = arr[Off.MELD_JOKER + base : Off.MELD_JOKER + base + N_KINDS]
    closed_count = arr[Off.CLOSED_COUNT + base : Off.CLOSED_COUNT + base + N_KINDS]
    cs = params[Par.CANASTA_SIZE]
    max_wild = params[Par.MAX_WILD]
    le_nat = np.int64(params[Par.WILD_LE_NAT] != 0)
    wild_onto_full = np.int64(params[Par.WILD_ONTO_CANASTA] != 0)
    min_nat = params[Par.MIN_NATURALS]
    # a new meld of two naturals and a wild card: do MIN_NATURALS and the wild capacity allow it?
    meld_wild = np.int64(min_nat <= 2 and wild_capacity_nb(params, 2, 0) >= 1)
    meld_three = np.int64(min_nat <= 3)
    has_two = np.int64(hand[Kind.TWO] > 0)
    has_joker = np.int64(hand[Kind.JOKER] > 0)
    # after black threes only more black threes (or the last discard)
    no_b3 = np.int64(meld_nat[Kind.BLACK3] == 0)
    bits = np.int64(0)
    with_meld = np.int64(0)
    for k in range(FIRST_NATURAL, LAST_NATURAL + 1):
        c = hand[k]
        nat = meld_nat[k]
        w = meld_two[k] + meld_joker[k]
        melded = np.int64(nat + w > 0)
        held = np.int64(c > 0)
        pair = np.int64(c >= 2)
        trip = np.int64(c >= 3)
        closed = np.int64(closed_count[k] > 0)
        # wild_capacity_nb(params, nat, w) >= 1, and no wild card onto a full canasta
        cap = max_wild - le_nat * np.int64(nat < max_wild) * (max_wild - nat) - w
        add_wild = np.int64(cap >= 1) & (wild_onto_full | np.int64(nat + w < cs))
        b0 = held & (melded | closed)
        b1 = (melded & has_two & add_wild) | ((1 - melded) & trip & meld_three)
        b2 = (melded & has_joker & add_wild) | ((1 - melded) & pair & has_two & meld_wild)
        b3 = (1 - melded) & pair & has_joker & meld_wild
        bits |= ((b0 | (b1 << 1) | (b2 << 2) | (b3 << 3)) * no_b3) << (4 * k)
        with_meld |= melded << k
    # cards the player keeps after a candidate: the look-ahead is needed below two
    cards = arr[Off.ASIDE_LEN] + arr[Off.HAND_SIZE + arr[Off.SEAT]]
    while bits != 0:
        b = lowest_bit_nb(bits)
        bits &= bits - 1
        k = b >> 2
        v = b & 3
        melded = (with_meld >> k) & 1 == 1
        if v == 0:
            a = Act.ADD_NAT + k
        elif melded:
            a = Act.ADD_NAT + v * (Act.ADD_TWO - Act.ADD_NAT) + k  # ADD_TWO, ADD_JOKER
        else:
            a = Act.MELD + k * 3 + v - 1
        # an addition moves one card, a new meld three
        if opened and cards - (1 if v == 0 or melded else 3) >= 2:
            ok = True
        else:
            _, n_nat, n_two, n_joker, is_add = decode_meld_nb(a)
            ok = (
                meld_lookahead_nb(arr, hand_off, params, team, k, n_nat, n_two, n_joker, is_add)
                == 0
            )
        out[n] = a
        n += 1 if ok else 0
    return n


@njit(cache=True, _nrt=False)
def _any_meld_possible_nb(arr, hand_off, params, team) -> bool:
    """False only when no meld action can be legal: a team that has not opened, has laid
    nothing this turn, and whose whole hand cannot reach the minimum nor go out concealed
    (exact gate: every meld's own look-ahead would fail the same way).  Sequences are left to
    the per-action checks."""
    if (
        arr[Off.TEAM_OPENED + team] != 0
        or arr[Off.PENDING_VALUE] != 0
        or params[Par.SEQUENCES] != 0
    ):
        return True
    hand = arr[hand_off : hand_off + N_KINDS]
    if max_meld_points_nb(arr, hand, params, team, np.int64(0)) >= team_min_nb(arr, team):
        return True
    return concealed_waiver_nb(arr, params) and can_go_out_concealed_nb(arr, hand, params, team)


@njit(cache=True, _nrt=False, inline="always")
def legal_discards_nb(arr, hand_off, params, team, out, n) -> int:
    # a discard's legality depends on the kind only through holding it: ask once (inlined, no
    # call).  Red threes (the last kind) are never held.  The list is written without branches
    # (a slot is written for every kind, kept only when held): held kinds are unpredictable.
    if arr[Off.HAND_SIZE + arr[Off.SEAT]] == 0 or discard_why_nb(arr, params, team) != 0:
        return n
    hand = arr[hand_off : hand_off + N_KINDS]
    for k in range(Kind.RED3):
        out[n] = Act.DISCARD + k
        n += 1 if hand[k] > 0 else 0
    return n
