"""Why an action is illegal: `why_illegal_nb(arr, hand_off, params, action)` returns 0 when the
action is legal and otherwise a reason code (`Why`, text in WHY_TEXT).  It is the single source
of truth for legality (verify / can pattern): `sim.core.legal.legal_actions_nb` enumerates the
legal actions with its per-kind checkers and the applier refuses anything it rejects.

Every function reads the public part of `arr` plus the acting player's hand at `hand_off`, so it
works on a full state (hand_off = HANDS + seat*N_KINDS) and on a player's observation
(hand_off = HANDS) alike.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

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
from sim.core.layout import code_table
from sim.core.opening import (
    can_go_out_concealed_nb,
    concealed_waiver_nb,
    finish_possible_nb,
    max_meld_points_nb,
    may_go_out_now_nb,
    seq_plan_points_nb,
)
from sim.core.readers import (
    canastas_nb,
    decode_meld_nb,
    pile_frozen_for_nb,
    seq_move_nb,
    suit_off_nb,
    team_min_nb,
    team_of_nb,
    wild_capacity_nb,
)
from sim.core.suits import (
    suits_back_nb,
    suits_out_nb,
)

if TYPE_CHECKING:  # the layouts' field names (stubs written by tests/layout_stubs.py)
    from sim.core._layouts import WhyT

# Why an action is illegal: each code beside its text (WHY_TEXT[code]).
Why: WhyT
Why, WHY_TEXT = code_table(
    "WhyT",
    (
        ("OK", "legal"),
        ("PHASE", "not allowed in this phase of the turn"),
        ("NO_STOCK", "the stock is empty"),
        ("PILE_EMPTY", "the discard pile is empty"),
        ("TOP_BLOCKED", "the top discard is a wild card or black three and cannot be taken"),
        ("FROZEN", "the pile is frozen for this team: only a natural pair from the hand takes it"),
        ("NO_CARDS", "the hand does not hold those cards"),
        ("RULE_OFF", "the rule set does not allow it"),
        ("NO_MELD", "the team has no meld of that rank"),
        ("MELD_EXISTS", "the team already has a meld of that rank"),
        ("WILD_LIMIT", "too many wild cards for that meld"),
        (
            "CANASTA_CLOSED",
            "a completed canasta takes no wild card (or not this pile) under these rules",
        ),
        ("KEEP_CARDS", "the player must keep at least two cards unless the team may go out"),
        ("OPENING", "the initial meld's minimum could no longer be reached this turn"),
        ("BLACK3", "black threes are melded only when going out, in the allowed number"),
        ("NOT_EXHAUSTED", "declining the pile is allowed only when the stock is exhausted"),
        (
            "FORCED_TAKE",
            "the stock is exhausted and the top card fits a team meld: the pile must be taken",
        ),
        ("BAD_KIND", "that card kind cannot be used that way"),
        ("UNKNOWN", "unknown action id"),
        ("GO_OUT", "the team may not go out (not enough canastas, or the initial meld is missing)"),
    ),
)


# returned by meld_checks_nb when only the look-ahead can decide
LOOKAHEAD = -1


@njit(cache=True, _nrt=False)
def _after_move_ok_nb(arr, hand, params, team, aside, hand_off) -> int:
    """Checks shared by every meld, add and take once the cards have moved (in scratch copies):
    the opening stays reachable and the hand-size rule holds.  `arr` is already updated."""
    n = 0
    for k in range(N_KINDS):
        n += hand[k]
    if arr[Off.TEAM_OPENED + team] == 0:
        pending = arr[Off.PENDING_VALUE]
        need = team_min_nb(arr, team)
        ok = False
        if pending >= need:
            ok = True
        else:
            keep = 2 - aside
            if keep < 0 or canastas_nb(arr, params, team) >= params[Par.CANASTAS_TO_GO_OUT]:
                keep = 0  # the team may go out: melding everything is allowed
            if pending + max_meld_points_nb(arr, hand, params, team, keep) >= need:
                ok = True
            elif params[Par.SEQUENCES] != 0:
                p, c = seq_plan_points_nb(arr, hand_off, params, team)
                total = 0
                for k in range(N_KINDS):
                    total += hand[k]
                if pending + p >= need and total - c >= keep:
                    ok = True
            elif concealed_waiver_nb(arr, params) and can_go_out_concealed_nb(
                arr, hand, params, team
            ):
                ok = True
        if not ok:
            return Why.OPENING
        if pending >= need:
            n += aside  # the pile cards held aside join the hand now
            aside = 0
    if n + aside < 2 and not finish_possible_nb(arr, hand, params, team):
        return Why.KEEP_CARDS
    return Why.OK


@njit(cache=True, _nrt=False)
def why_illegal_nb(arr: np.ndarray, hand_off: int, params: np.ndarray, action: int) -> int:
    """0 if `action` is legal for the player to act, else a `Why` code.

    Parameters
    ----------
    arr : int32[:]  state (or observation) array, layout `Off`
    hand_off : int  offset of the acting player's hand (15 kind counts) in `arr`
    params : int32[:]  rule parameters, layout `Par`
    action : int  flat action id (`Act`)
    """
    phase = arr[Off.PHASE]
    team = team_of_nb(arr)
    if action < 0 or action >= Act.N_ACTIONS:
        return Why.UNKNOWN
    if action <= Act.DECLINE:
        if phase != Phase.DRAW:
            return Why.PHASE
        if action == Act.DRAW:
            return why_draw_nb(arr)
        if action == Act.DECLINE:
            if arr[Off.STOCK_LEN] > 0:
                return Why.NOT_EXHAUSTED
            if params[Par.EXHAUSTED_FORCED_TAKE] != 0:
                # (the checkers directly, not why_illegal_nb: numba's cache mislinks recursion)
                if why_take_nb(arr, hand_off, params, Act.TAKE_ONTO, team) == 0:
                    return Why.FORCED_TAKE
                if params[Par.SEQUENCES] != 0:
                    for a in range(Act.TAKE_SEQ, Act.N_ACTIONS):
                        if why_seq_nb(arr, hand_off, params, a, team) == 0:
                            return Why.FORCED_TAKE
            return Why.OK
        if action == 6 or action == 7:
            return Why.UNKNOWN
        return why_take_nb(arr, hand_off, params, action, team)
    if action >= Act.TAKE_SEQ:
        if phase != Phase.DRAW:
            return Why.PHASE
        return why_seq_nb(arr, hand_off, params, action, team)
    if action < Act.MELD:
        return Why.UNKNOWN
    if phase != Phase.MELD:
        return Why.PHASE
    if action >= Act.SEQ_NEW:
        return why_seq_nb(arr, hand_off, params, action, team)
    if action >= Act.DISCARD:
        return _why_discard_nb(arr, hand_off, params, action - Act.DISCARD, team)
    return why_meld_nb(arr, hand_off, params, action, team)


@njit(cache=True, _nrt=False, inline="always")
def why_draw_nb(arr) -> int:
    return Why.OK if arr[Off.STOCK_LEN] > 0 else Why.NO_STOCK


@njit(cache=True, _nrt=False)
def why_take_nb(arr, hand_off, params, action, team) -> int:
    plen = arr[Off.PILE_LEN]
    if plen == 0:
        return Why.PILE_EMPTY
    top = arr[Off.PILE_TOP]
    if top < FIRST_NATURAL or top > LAST_NATURAL:
        return Why.TOP_BLOCKED
    frozen = pile_frozen_for_nb(arr, team)
    i = team * N_KINDS + top
    nat = arr[Off.MELD_NAT + i]
    w = arr[Off.MELD_TWO + i] + arr[Off.MELD_JOKER + i]
    has_meld = nat + w > 0
    # a completed canasta of the rank: the open meld itself, or (Samba) only closed ones
    is_canasta = nat + w >= params[Par.CANASTA_SIZE] or (
        not has_meld and arr[Off.CLOSED_COUNT + i] > 0
    )
    if is_canasta and action == Act.TAKE_PAIR and params[Par.MULTI_MELDS] != 0 and not has_meld:
        is_canasta = False  # Samba: the pair starts a new meld of the rank
    if is_canasta:
        oc = params[Par.TAKE_ONTO_CANASTA]
        if oc == 0 or (oc == 2 and action != Act.TAKE_PAIR):
            return Why.CANASTA_CLOSED
    add_nat = 0
    add_two = 0
    add_joker = 0
    if action == Act.TAKE_PAIR:
        if arr[hand_off + top] < 2:
            return Why.NO_CARDS
        add_nat = 2
    else:
        if frozen:
            return Why.FROZEN
        if action == Act.TAKE_ONTO:
            if params[Par.TAKE_ONTO_MELD] == 0:
                return Why.RULE_OFF
            if not has_meld:
                return Why.NO_MELD
        else:
            if params[Par.TAKE_NAT_WILD] == 0:
                return Why.RULE_OFF
            if arr[hand_off + top] < 1:
                return Why.NO_CARDS
            wk = Kind.TWO if action == Act.TAKE_NAT_TWO else Kind.JOKER
            if arr[hand_off + wk] < 1:
                return Why.NO_CARDS
            if wild_capacity_nb(params, nat + 2, w) < 1:
                return Why.WILD_LIMIT
            if is_canasta and params[Par.WILD_ONTO_CANASTA] == 0:
                return Why.CANASTA_CLOSED
            add_nat = 1
            if wk == Kind.TWO:
                add_two = 1
            else:
                add_joker = 1
    if (
        arr[Off.TEAM_OPENED + team] != 0
        and arr[Off.PILE_LEN]
        - arr[Off.PILE_COUNTS + Kind.RED3]
        - 1
        + arr[Off.HAND_SIZE + arr[Off.SEAT]]
        - add_nat
        - add_two
        - add_joker
        >= 2
    ):
        return Why.OK  # the common case needs no look-ahead
    # look-ahead: meld the top card in place, check, undo (no allocation)
    hand = arr[hand_off : hand_off + N_KINDS]
    rest = arr[Off.PILE_LEN] - arr[Off.PILE_COUNTS + Kind.RED3] - 1  # pile cards besides the top
    gained = (
        (add_nat + 1) * params[Par.CARD_VALUE + top]
        + add_two * params[Par.CARD_VALUE + Kind.TWO]
        + add_joker * params[Par.CARD_VALUE + Kind.JOKER]
    )
    completes = (
        1
        if nat + w < params[Par.CANASTA_SIZE] <= nat + w + add_nat + 1 + add_two + add_joker
        else 0
    )
    opened = arr[Off.TEAM_OPENED + team] != 0
    pend = 0 if opened else gained
    # the top card is not in the hand: count it in, then meld it with the hand's cards
    suits = suits_out_nb(arr, suit_off_nb(hand_off), params, top, add_nat)
    arr[hand_off + top] += 1
    _shift_nb(arr, hand_off, team, top, add_nat + 1, add_two, add_joker, pend, completes, 1)
    # int64 arguments throughout (np.int64(...)): one compiled signature per function, see
    # docs/ENGINE.md
    why = _after_take_ok_nb(arr, hand, hand_off, params, team, opened, gained, rest, np.int64(top))
    _shift_nb(arr, hand_off, team, top, add_nat + 1, add_two, add_joker, pend, completes, -1)
    arr[hand_off + top] -= 1
    suits_back_nb(arr, suit_off_nb(hand_off), params, top, add_nat, suits)
    return why


@njit(
    cache=True, _nrt=False, inline="always"
)  # a thin caller of the core: compiled alone it re-optimizes the core linked below it
def _after_take_ok_nb(arr, hand, hand_off, params, team, opened, points, rest, top) -> int:
    """The look-ahead of a pile take once the top card is melded (in place): a team that has
    not opened must still reach its minimum from the hand (the rest of the pile waits aside);
    an opened team gets the pile into the hand at once and must be able to end the turn."""
    took = arr[Off.TOOK_PILE]
    arr[Off.TOOK_PILE] = 1
    if not opened:
        why = _after_move_ok_nb(arr, hand, params, team, rest, hand_off)
    else:
        # opened team: the pile cards join the hand at once (fewer than two cards in all here)
        for k in range(N_KINDS):
            if k != Kind.RED3:
                arr[hand_off + k] += arr[Off.PILE_COUNTS + k]
        arr[hand_off + top] -= 1
        why = Why.OK if finish_possible_nb(arr, hand, params, team) else Why.KEEP_CARDS
        arr[hand_off + top] += 1
        for k in range(N_KINDS):
            if k != Kind.RED3:
                arr[hand_off + k] -= arr[Off.PILE_COUNTS + k]
    arr[Off.TOOK_PILE] = took
    return why


@njit(cache=True, _nrt=False, inline="always")
def meld_checks_nb(arr, hand_off, params, team, kind, n_nat, n_two, n_joker, is_add) -> int:
    """Every check of a meld or addition that needs no look-ahead: a `Why` code, or LOOKAHEAD.
    `sim.core.legal.natural_melds_nb` computes the same checks for all natural kinds at once
    (keep the two in step: tests/test_conformance.py compares them on every step of random
    play)."""
    if kind != Kind.BLACK3 and (kind < FIRST_NATURAL or kind > LAST_NATURAL):
        return Why.BAD_KIND
    if kind != Kind.BLACK3 and arr[Off.MELD_NAT + team * N_KINDS + Kind.BLACK3] > 0:
        return Why.BLACK3  # after the black threes only more black threes or the last discard
    if kind == Kind.BLACK3 and n_two + n_joker > 0:
        return Why.BLACK3
    i = team * N_KINDS + kind
    nat = arr[Off.MELD_NAT + i]
    w = arr[Off.MELD_TWO + i] + arr[Off.MELD_JOKER + i]
    if is_add:
        if nat + w == 0:
            if arr[Off.CLOSED_COUNT + i] == 0:
                return Why.NO_MELD
            if n_two + n_joker > 0:
                return Why.CANASTA_CLOSED  # a closed canasta takes naturals only
            nat = params[Par.CANASTA_SIZE]  # counts as a completed canasta below
    else:
        if nat + w > 0:
            return Why.MELD_EXISTS  # one open meld per rank (Samba: a new one once it closes)
        if n_nat < params[Par.MIN_NATURALS]:
            return Why.RULE_OFF
    if (
        arr[hand_off + kind] < n_nat
        or arr[hand_off + Kind.TWO] < n_two
        or arr[hand_off + Kind.JOKER] < n_joker
    ):
        return Why.NO_CARDS
    wild = n_two + n_joker
    if wild > 0:
        if wild_capacity_nb(params, nat + n_nat, w) < wild:
            return Why.WILD_LIMIT
        if is_add and nat + w >= params[Par.CANASTA_SIZE] and params[Par.WILD_ONTO_CANASTA] == 0:
            return Why.CANASTA_CLOSED
    if kind != Kind.BLACK3 and arr[Off.TEAM_OPENED + team] != 0:
        # the common case needs no look-ahead: the hand keeps two cards
        if arr[Off.ASIDE_LEN] + arr[Off.HAND_SIZE + arr[Off.SEAT]] - n_nat - wild >= 2:
            return Why.OK
    return LOOKAHEAD


@njit(cache=True, _nrt=False)
def meld_lookahead_nb(arr, hand_off, params, team, kind, n_nat, n_two, n_joker, is_add) -> int:
    """Move the cards in place, check what must still hold (the opening reachable, a legal end
    of the turn), move them back (no allocation)."""
    i = team * N_KINDS + kind
    nat = arr[Off.MELD_NAT + i]
    w = arr[Off.MELD_TWO + i] + arr[Off.MELD_JOKER + i]
    used = n_nat + n_two + n_joker
    hand = arr[hand_off : hand_off + N_KINDS]
    gained = (
        n_nat * params[Par.CARD_VALUE + kind]
        + n_two * params[Par.CARD_VALUE + Kind.TWO]
        + n_joker * params[Par.CARD_VALUE + Kind.JOKER]
    )
    new_size = nat + w + used
    completes = 1 if kind != Kind.BLACK3 and nat + w < params[Par.CANASTA_SIZE] <= new_size else 0
    pend = gained if arr[Off.TEAM_OPENED + team] == 0 else 0
    if nat + w == 0 and is_add:
        # a natural onto a closed canasta: only the hand changes
        arr[hand_off + kind] -= 1
        arr[Off.PENDING_VALUE] += pend
        suits = suits_out_nb(arr, suit_off_nb(hand_off), params, kind, 1)
        why = _after_move_ok_nb(arr, hand, params, team, np.int64(arr[Off.ASIDE_LEN]), hand_off)
        suits_back_nb(arr, suit_off_nb(hand_off), params, kind, 1, suits)
        arr[Off.PENDING_VALUE] -= pend
        arr[hand_off + kind] += 1
        return why
    suits = suits_out_nb(arr, suit_off_nb(hand_off), params, kind, n_nat)
    _shift_nb(arr, hand_off, team, kind, n_nat, n_two, n_joker, pend, completes, 1)
    if kind == Kind.BLACK3:
        why = _why_black3_after_nb(arr, hand, params, team, new_size)
    else:
        why = _after_move_ok_nb(arr, hand, params, team, np.int64(arr[Off.ASIDE_LEN]), hand_off)
    _shift_nb(arr, hand_off, team, kind, n_nat, n_two, n_joker, pend, completes, -1)
    suits_back_nb(arr, suit_off_nb(hand_off), params, kind, n_nat, suits)
    return why


@njit(cache=True, _nrt=False)
def why_meld_nb(arr, hand_off, params, action, team) -> int:
    kind, n_nat, n_two, n_joker, is_add = decode_meld_nb(action)
    why = meld_checks_nb(arr, hand_off, params, team, kind, n_nat, n_two, n_joker, is_add)
    if why != LOOKAHEAD:
        return why
    return meld_lookahead_nb(arr, hand_off, params, team, kind, n_nat, n_two, n_joker, is_add)


@njit(cache=True, _nrt=False, inline="always")
def _shift_nb(arr, hand_off, team, kind, n_nat, n_two, n_joker, pending, completes, sign) -> None:
    """Move cards from the hand to the team's meld of `kind` (sign=1) or back (sign=-1)."""
    i = team * N_KINDS + kind
    arr[hand_off + kind] -= sign * n_nat
    arr[hand_off + Kind.TWO] -= sign * n_two
    arr[hand_off + Kind.JOKER] -= sign * n_joker
    arr[Off.MELD_NAT + i] += sign * n_nat
    arr[Off.MELD_TWO + i] += sign * n_two
    arr[Off.MELD_JOKER + i] += sign * n_joker
    arr[Off.PENDING_VALUE] += sign * pending
    arr[Off.CANASTAS_THIS_TURN] += sign * completes


@njit(cache=True, _nrt=False)
def _why_black3_after_nb(arr, hand, params, team, new_size) -> int:
    """Black threes only as the last melds of a going out: afterwards at most one other card is
    left (the final discard) and the black-three meld can end within its allowed size."""
    others = -hand[Kind.BLACK3]
    for k in range(N_KINDS):
        others += hand[k]
    if others > 1 or new_size > params[Par.BLACK3_MELD_MAX]:
        return Why.BLACK3
    full = new_size + hand[Kind.BLACK3]
    fits = params[Par.BLACK3_MELD_MIN] <= full <= params[Par.BLACK3_MELD_MAX]
    if others == 0 and hand[Kind.BLACK3] > 0:
        fits = fits or params[Par.BLACK3_MELD_MIN] <= full - 1 <= params[Par.BLACK3_MELD_MAX]
    if not fits:
        return Why.BLACK3
    if not may_go_out_now_nb(arr, params, team):
        return Why.GO_OUT
    return Why.OK


@njit(cache=True, _nrt=False)
def _why_discard_nb(arr, hand_off, params, kind, team) -> int:
    if kind == Kind.RED3:
        return Why.BAD_KIND
    if arr[hand_off + kind] < 1:
        return Why.NO_CARDS
    return discard_why_nb(arr, params, team)


@njit(cache=True, _nrt=False, inline="always")
def discard_why_nb(arr, params, team) -> int:
    """What a discard of a held card must respect, whatever its kind (shared with
    sim.core.legal.legal_discards_nb, which asks it once for all kinds)."""
    if arr[Off.HAND_SIZE + arr[Off.SEAT]] + arr[Off.ASIDE_LEN] > 1:
        if arr[Off.MELD_NAT + team * N_KINDS + Kind.BLACK3] > 0:
            return Why.BLACK3  # black threes were melded: this turn must end by going out
        pending = arr[Off.PENDING_VALUE]
        if arr[Off.TEAM_OPENED + team] == 0 and 0 < pending < team_min_nb(arr, team):
            return Why.OPENING
        return Why.OK
    # the last card: going out with a discard
    if not may_go_out_now_nb(arr, params, team):
        return Why.GO_OUT
    return Why.OK


@njit(cache=True, _nrt=False)
def _seq_set_nb(
    arr,
    hand_off,
    team,
    slot,
    suit,
    low,
    length,
    kinds_lo,
    kinds_hi,
    from_hand,
    pending,
    completes,
    old_low,
    old_len,
    sign,
) -> None:
    """Move the suited cards kinds_lo..kinds_hi of `suit` from the hand into sequence `slot`
    (sign=1), or back (sign=-1, restoring old_low / old_len)."""
    so = suit_off_nb(hand_off)
    if from_hand:
        for k in range(kinds_lo, kinds_hi + 1):
            arr[so + suit * 11 + k - FIRST_NATURAL] -= sign
            arr[hand_off + k] -= sign
            arr[Off.HAND_SIZE + arr[Off.SEAT]] -= sign
    j = team * MAX_SEQS + slot
    if sign > 0:
        arr[Off.SEQ_SUIT + j] = suit
        arr[Off.SEQ_LOW + j] = low
        arr[Off.SEQ_LEN + j] = length
    else:
        arr[Off.SEQ_LOW + j] = old_low
        arr[Off.SEQ_LEN + j] = old_len
        if old_len == 0:
            arr[Off.SEQ_SUIT + j] = 0
    arr[Off.PENDING_VALUE] += sign * pending
    arr[Off.CANASTAS_THIS_TURN] += sign * completes


@njit(cache=True, _nrt=False)
def why_seq_nb(arr, hand_off, params, action, team) -> int:
    if params[Par.SEQUENCES] == 0:
        return Why.RULE_OFF
    if arr[Off.MELD_NAT + team * N_KINDS + Kind.BLACK3] > 0:
        return Why.BLACK3
    slot, suit, low, length, new_kind = seq_move_nb(arr, team, action)
    csize = params[Par.CANASTA_SIZE]
    so = suit_off_nb(hand_off)
    take = action >= Act.TAKE_SEQ
    j = team * MAX_SEQS + slot
    if action < Act.SEQ_ADD:
        if slot < 0:
            return Why.RULE_OFF  # no free sequence slot
        if low + 2 > LAST_NATURAL:
            return Why.BAD_KIND
        for k in range(low, low + 3):
            if arr[so + suit * 11 + k - FIRST_NATURAL] < 1:
                return Why.NO_CARDS
        lo = low
        hi = low + 2
        old_low = 0
        old_len = 0
    else:
        old_low = arr[Off.SEQ_LOW + j]
        old_len = arr[Off.SEQ_LEN + j]
        if old_len == 0:
            return Why.NO_MELD
        if old_len >= csize:
            return Why.CANASTA_CLOSED  # a samba grows no further
        if new_kind < FIRST_NATURAL or new_kind > LAST_NATURAL:
            return Why.BAD_KIND
        lo = new_kind
        hi = new_kind
        if take:
            if arr[Off.PILE_LEN] == 0:
                return Why.PILE_EMPTY
            if arr[Off.PILE_TOP] != new_kind or arr[Off.PILE_TOP_SUIT] != suit:
                return Why.BAD_KIND  # the top card does not extend that sequence
            if pile_frozen_for_nb(arr, team):
                return Why.FROZEN
        elif arr[so + suit * 11 + new_kind - FIRST_NATURAL] < 1:
            return Why.NO_CARDS
    points = np.int64(0)  # not 0: a literal would compile _after_take_ok_nb once more
    for k in range(lo, hi + 1):
        points += params[Par.CARD_VALUE + k]
    completes = 1 if length == csize else 0
    opened = arr[Off.TEAM_OPENED + team] != 0
    used = 0 if take else hi - lo + 1
    rest = arr[Off.PILE_LEN] - arr[Off.PILE_COUNTS + Kind.RED3] - 1 if take else 0
    if opened:
        left = arr[Off.HAND_SIZE + arr[Off.SEAT]] + arr[Off.ASIDE_LEN] - used + rest
        if left >= 2:
            return Why.OK
    pend = 0 if opened else points
    _seq_set_nb(
        arr,
        hand_off,
        team,
        slot,
        suit,
        low,
        length,
        lo,
        hi,
        not take,
        pend,
        completes,
        old_low,
        old_len,
        np.int64(1),
    )
    hand = arr[hand_off : hand_off + N_KINDS]
    if take:
        why = _after_take_ok_nb(arr, hand, hand_off, params, team, opened, points, rest, new_kind)
    else:
        why = _after_move_ok_nb(arr, hand, params, team, np.int64(arr[Off.ASIDE_LEN]), hand_off)
    _seq_set_nb(
        arr,
        hand_off,
        team,
        slot,
        suit,
        low,
        length,
        lo,
        hi,
        not take,
        pend,
        completes,
        old_low,
        old_len,
        np.int64(-1),
    )
    return why
