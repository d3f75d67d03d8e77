"""Legality: the single source of truth for which actions are allowed (verify / can pattern).

`why_illegal_nb(arr, hand_off, params, action)` returns 0 when the action is legal and otherwise a
reason code (`Why`, text in WHY_TEXT); `legal_actions_nb` enumerates the legal actions with it and
the applier refuses anything it rejects.  Every function reads the public part of `arr` plus the
acting player's hand at `hand_off`, so it works on a full state (hand_off = HANDS + seat*N_KINDS)
and on a player's observation (hand_off = HANDS) alike.
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
    Act,
    Kind,
    Off,
    Par,
    Phase,
)
from sim.core.layout import code_table

# Why an action is illegal: each code beside its text (WHY_TEXT[code]).
Why, WHY_TEXT = code_table("WhyT", (
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
    ("CANASTA_CLOSED", "a completed canasta takes no wild card (or not this pile) under these rules"),
    ("KEEP_CARDS", "the player must keep at least two cards unless the team may go out"),
    ("OPENING", "the initial meld's minimum could no longer be reached this turn"),
    ("BLACK3", "black threes are melded only when going out, in the allowed number"),
    ("NOT_EXHAUSTED", "declining the pile is allowed only when the stock is exhausted"),
    ("FORCED_TAKE", "the stock is exhausted and the top card fits a team meld: the pile must be taken"),
    ("BAD_KIND", "that card kind cannot be used that way"),
    ("UNKNOWN", "unknown action id"),
    ("GO_OUT", "the team may not go out (not enough canastas, or the initial meld is missing)"),
))


# ----------------------------------------------------------------------------- small readers


# de Bruijn table: the index of the lowest set bit without a loop (numba's cache cannot link
# the LLVM cttz intrinsic)
_DEBRUIJN64 = np.array(
    [0, 1, 48, 2, 57, 49, 28, 3, 61, 58, 50, 42, 38, 29, 17, 4, 62, 55, 59, 36, 53, 51, 43, 22,
     45, 39, 33, 30, 24, 18, 12, 5, 63, 47, 56, 27, 60, 41, 37, 16, 54, 35, 52, 21, 44, 32, 23, 11,
     46, 26, 40, 15, 34, 20, 31, 10, 25, 14, 19, 9, 13, 8, 7, 6],
    dtype=np.int64,
)


@njit(cache=True, _nrt=False, inline="always")
def lowest_bit_nb(mask: int) -> int:
    """Index of the lowest set bit of a non-zero int64 mask."""
    low = np.uint64(mask & -mask)
    return _DEBRUIJN64[(low * np.uint64(0x03F79D71B4CB0A89)) >> np.uint64(58)]


@njit(cache=True, _nrt=False, inline="always")
def team_of_nb(arr: np.ndarray) -> int:
    return arr[Off.TEAM_OF_SEAT + arr[Off.SEAT]]


@njit(cache=True, _nrt=False, inline="always")
def meld_size_nb(arr: np.ndarray, team: int, kind: int) -> int:
    i = team * N_KINDS + kind
    return arr[Off.MELD_NAT + i] + arr[Off.MELD_TWO + i] + arr[Off.MELD_JOKER + i]


@njit(cache=True, _nrt=False)
def canastas_nb(arr: np.ndarray, params: np.ndarray, team: int) -> int:
    """Canastas of the team: open melds of canasta size, closed ones (Samba) and sambas."""
    n = 0
    csize = params[Par.CANASTA_SIZE]
    # views indexed by the kind alone, summed without branches (the loop vectorizes)
    base = team * N_KINDS
    nat = arr[Off.MELD_NAT + base : Off.MELD_NAT + base + N_KINDS]
    two = arr[Off.MELD_TWO + base : Off.MELD_TWO + base + N_KINDS]
    joker = arr[Off.MELD_JOKER + base : Off.MELD_JOKER + base + N_KINDS]
    closed = arr[Off.CLOSED_COUNT + base : Off.CLOSED_COUNT + base + N_KINDS]
    for k in range(FIRST_NATURAL, LAST_NATURAL + 1):
        n += np.int64(nat[k] + two[k] + joker[k] >= csize) + closed[k]
    if params[Par.SEQUENCES] != 0:
        for q in range(MAX_SEQS):
            if arr[Off.SEQ_LEN + team * MAX_SEQS + q] >= csize:
                n += 1
    return n


@njit(cache=True, _nrt=False)
def suit_off_nb(hand_off: int) -> int:
    """Offset of the suited naturals of the hand at `hand_off` (state or observation)."""
    return Off.HAND_SUITS + (hand_off - Off.HANDS) // N_KINDS * N_SUITED


@njit(cache=True, _nrt=False)
def closed_room_nb(params: np.ndarray, size: int, cap: int) -> int:
    """Wild capacity limited so that no wild card joins a completed canasta (Samba)."""
    if params[Par.WILD_ONTO_CANASTA] != 0:
        return cap
    room = params[Par.CANASTA_SIZE] - size
    if room < 0:
        room = 0
    return cap if cap < room else room


@njit(cache=True, _nrt=False)
def pile_frozen_for_nb(arr: np.ndarray, team: int) -> bool:
    return arr[Off.PILE_FREEZE] > 0 or arr[Off.TEAM_OPENED + team] == 0


@njit(cache=True, _nrt=False, inline="always")
def wild_capacity_nb(params: np.ndarray, naturals: int, wilds: int) -> int:
    """How many more wild cards a meld with these counts may take."""
    cap = params[Par.MAX_WILD]
    if params[Par.WILD_LE_NAT] != 0 and naturals < cap:
        cap = naturals
    cap -= wilds
    return cap if cap > 0 else 0


@njit(cache=True, _nrt=False)
def team_min_nb(arr: np.ndarray, team: int) -> int:
    return arr[Off.TEAM_MIN + team]


# ----------------------------------------------------------------------------- opening oracles


@njit(cache=True, _nrt=False)
def _max_meld_points_free_nb(arr, hand, params, team) -> tuple:
    """Most card points the hand can still meld this turn (new melds or additions to the team's
    melds), ignoring the keep-two-cards rule; returns (points, cards melded).

    Exact: every card has positive value, so the optimum melds all naturals of usable ranks and
    places as many wild cards as capacity allows, jokers first; activating a natural pair costs a
    wild card that is placed anyway, so pairs are activated best-first while wild cards last."""
    min_nat = params[Par.MIN_NATURALS]
    points = 0
    cards = 0
    cap = 0
    pair_mask = 0  # ranks held as an activatable pair (or single, if min_nat allows)
    for k in range(FIRST_NATURAL, LAST_NATURAL + 1):
        c = hand[k]
        i = team * N_KINDS + k
        nat = arr[Off.MELD_NAT + i]
        w = arr[Off.MELD_TWO + i] + arr[Off.MELD_JOKER + i]
        if nat + w > 0:
            # an existing meld takes wild cards even when the hand adds no natural to it
            # (naturals first, then wild cards: with closed canastas that order is the safe one)
            points += c * params[Par.CARD_VALUE + k]
            cards += c
            cap += closed_room_nb(params, nat + c + w, wild_capacity_nb(params, nat + c, w))
        elif c == 0:
            continue
        elif arr[Off.CLOSED_COUNT + i] > 0 and c < 3:
            points += c * params[Par.CARD_VALUE + k]  # naturals join a closed canasta
            cards += c
        elif c >= 3 and c >= min_nat:
            points += c * params[Par.CARD_VALUE + k]
            cards += c
            cap += closed_room_nb(params, c, wild_capacity_nb(params, c, 0))
        elif c >= min_nat and wild_capacity_nb(params, c, 0) >= 3 - c:
            pair_mask |= 1 << k
    jokers = hand[Kind.JOKER]
    wilds = jokers + hand[Kind.TWO]
    placed = 0
    while pair_mask != 0:
        # the most valuable activatable rank first
        best_k = -1
        best_v = -1
        for k in range(FIRST_NATURAL, LAST_NATURAL + 1):
            if pair_mask & (1 << k):
                v = hand[k] * params[Par.CARD_VALUE + k]
                if v > best_v:
                    best_v = v
                    best_k = k
        pair_mask &= ~(1 << best_k)
        c = hand[best_k]
        need = 3 - c
        if wilds - placed < need:
            break
        points += best_v
        cards += c
        placed += need
        cap += wild_capacity_nb(params, c, need)
    extra = wilds - placed
    if extra > cap:
        extra = cap
    placed += extra
    pj = placed if placed < jokers else jokers
    points += pj * params[Par.CARD_VALUE + Kind.JOKER] + (placed - pj) * params[Par.CARD_VALUE + Kind.TWO]
    cards += placed
    return points, cards


@njit(cache=True, _nrt=False)
def max_meld_points_nb(arr, hand, params, team, keep) -> int:
    """Most card points meldable this turn while keeping at least `keep` (0..2) cards in hand.
    `hand` (a view) is modified while searching and restored."""
    total = 0
    for k in range(N_KINDS):
        total += hand[k]
    best, cards = _max_meld_points_free_nb(arr, hand, params, team)
    if keep <= 0 or total - cards >= keep:
        return best
    if total < keep:
        return 0
    # keeping cards binds: try every choice of kept cards (at most two), exact and rarely needed
    best = 0
    for a in range(N_KINDS):
        if hand[a] == 0:
            continue
        hand[a] -= 1
        if keep == 1:
            p, _ = _max_meld_points_free_nb(arr, hand, params, team)
            best = max(best, p)
        else:
            for b in range(a, N_KINDS):
                if hand[b] == 0:
                    continue
                hand[b] -= 1
                p, _ = _max_meld_points_free_nb(arr, hand, params, team)
                best = max(best, p)
                hand[b] += 1
        hand[a] += 1
    return best


@njit(cache=True, _nrt=False)
def _meld_after_all_nb(arr, hand, params, team, k) -> tuple:
    """Size and remaining wild capacity of the team's meld of rank k once every natural of the
    hand is in it, and the wild cards it must get to exist: (size, capacity, mandatory, ok)."""
    c = hand[k]
    i = team * N_KINDS + k
    nat = arr[Off.MELD_NAT + i]
    w = arr[Off.MELD_TWO + i] + arr[Off.MELD_JOKER + i]
    mandatory = 0
    if nat + w == 0 and arr[Off.CLOSED_COUNT + i] > 0 and c < 3:
        return 0, 0, 0, True  # these naturals join a closed canasta
    if nat + w == 0:
        if c == 0:
            return 0, 0, 0, True
        if c < params[Par.MIN_NATURALS]:
            return 0, 0, 0, False
        if c < 3:
            mandatory = 3 - c
            if wild_capacity_nb(params, c, 0) < mandatory:
                return 0, 0, 0, False
            w = mandatory
    nat += c
    size = nat + w
    cap = wild_capacity_nb(params, nat, w)
    if params[Par.WILD_ONTO_CANASTA] == 0:
        room = params[Par.CANASTA_SIZE] - size  # wilds may complete it but not go beyond
        if room < 0:
            room = 0
        if cap > room:
            cap = room
    return size, cap, mandatory, True


@njit(cache=True, _nrt=False)
def _can_meld_all_nb(arr, hand, params, team, need_canastas) -> bool:
    """Can every card of `hand` be melded (new melds or additions) so that the team ends with at
    least `need_canastas` canastas?  Black threes go into one black-three meld."""
    csize = params[Par.CANASTA_SIZE]
    b3 = hand[Kind.BLACK3] + arr[Off.MELD_NAT + team * N_KINDS + Kind.BLACK3]
    if hand[Kind.BLACK3] > 0 and (b3 < params[Par.BLACK3_MELD_MIN] or b3 > params[Par.BLACK3_MELD_MAX]):
        return False
    if hand[Kind.RED3] > 0:
        return False
    wilds = hand[Kind.TWO] + hand[Kind.JOKER]
    mandatory = 0
    cap_total = 0
    canastas = 0
    for k in range(FIRST_NATURAL, LAST_NATURAL + 1):
        size, cap, mand, ok = _meld_after_all_nb(arr, hand, params, team, k)
        if not ok:
            return False
        mandatory += mand
        cap_total += cap
        if size >= csize:
            canastas += 1
    if mandatory > wilds:
        return False
    left = wilds - mandatory
    if left > cap_total:
        return False
    # complete the cheapest canastas first with the free wild cards (exchange argument)
    done_mask = 0
    while canastas < need_canastas:
        best_k = -1
        best_d = 1 << 20
        for k in range(FIRST_NATURAL, LAST_NATURAL + 1):
            if done_mask & (1 << k):
                continue
            size, cap, mand, ok = _meld_after_all_nb(arr, hand, params, team, k)
            if size == 0 or size >= csize:
                continue
            d = csize - size
            if d <= cap and d < best_d:
                best_d = d
                best_k = k
        if best_k < 0 or best_d > left:
            return False
        left -= best_d
        canastas += 1
        done_mask |= 1 << best_k
    return True


@njit(cache=True, _nrt=False)
def can_go_out_concealed_nb(arr, hand, params, team) -> bool:
    """Could the acting player still go out this turn by melding the whole hand (with at most
    one final discard), the team ending with enough canastas (at least one this turn)?
    `hand` (a view) is modified while searching and restored."""
    need = params[Par.CANASTAS_TO_GO_OUT]
    if need < 1:
        need = 1
    if _can_meld_all_nb(arr, hand, params, team, need):
        return True
    for d in range(N_KINDS):
        if hand[d] == 0:
            continue
        hand[d] -= 1
        ok = _can_meld_all_nb(arr, hand, params, team, need)
        hand[d] += 1
        if ok:
            return True
    return False


@njit(cache=True, _nrt=False)
def may_go_out_now_nb(arr, params, team) -> bool:
    """Team canastas suffice and, if the initial meld is still pending, a concealed going out
    (when allowed) covers for it."""
    if canastas_nb(arr, params, team) < params[Par.CANASTAS_TO_GO_OUT]:
        return False
    if arr[Off.TEAM_OPENED + team] != 0:
        return True
    # going out in the turn of the initial meld without reaching the minimum: concealed only
    if arr[Off.PENDING_VALUE] >= team_min_nb(arr, team):
        return True
    return concealed_waiver_nb(arr, params) and arr[Off.CANASTAS_THIS_TURN] > 0


@njit(cache=True, _nrt=False)
def concealed_waiver_nb(arr, params) -> bool:
    """A concealed going out this turn would not need the initial-meld minimum."""
    return (
        arr[Off.MELDED_BEFORE] == 0
        and params[Par.CONCEALED_NEEDS_MIN] == 0
        and arr[Off.TOOK_PILE] == 0
    )


@njit(cache=True, _nrt=False)
def finish_possible_nb(arr, hand, params, team) -> bool:
    """With fewer than two cards left (and none aside), can the player still end the turn
    legally?  0 cards: the team may go out now.  1 card: discard it going out, or add it to a
    meld (completing the canasta the team still needs, if it needs one) and go out."""
    n = 0
    last = -1
    for k in range(N_KINDS):
        if hand[k] > 0:
            n += hand[k]
            last = k
    if n > 1:
        return True
    if may_go_out_now_nb(arr, params, team):
        return True
    if n == 0:
        return False
    is_wild = last == Kind.TWO or last == Kind.JOKER
    if not is_wild and (last < FIRST_NATURAL or last > LAST_NATURAL):
        return False
    csize = params[Par.CANASTA_SIZE]
    need = params[Par.CANASTAS_TO_GO_OUT] - canastas_nb(arr, params, team)
    if need > 1:
        return False
    for k in range(FIRST_NATURAL, LAST_NATURAL + 1):
        i = team * N_KINDS + k
        nat = arr[Off.MELD_NAT + i]
        w = arr[Off.MELD_TWO + i] + arr[Off.MELD_JOKER + i]
        if nat + w == 0:
            continue
        if is_wild:
            if wild_capacity_nb(params, nat, w) < 1:
                continue
            if nat + w >= csize and params[Par.WILD_ONTO_CANASTA] == 0:
                continue
        elif last != k:
            continue
        completes = nat + w == csize - 1
        if need == 1 and not completes:
            continue
        if _opening_ok_after_nb(arr, params, team, params[Par.CARD_VALUE + last], completes):
            return True
    return False


@njit(cache=True, _nrt=False)
def _opening_ok_after_nb(arr, params, team, add_points, completes) -> bool:
    if arr[Off.TEAM_OPENED + team] != 0:
        return True
    if arr[Off.PENDING_VALUE] + add_points >= team_min_nb(arr, team):
        return True
    return concealed_waiver_nb(arr, params) and (completes or arr[Off.CANASTAS_THIS_TURN] > 0)


# ----------------------------------------------------------------------------- the check


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
            elif concealed_waiver_nb(arr, params) and can_go_out_concealed_nb(arr, hand, params, team):
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
            return _why_draw_nb(arr)
        if action == Act.DECLINE:
            if arr[Off.STOCK_LEN] > 0:
                return Why.NOT_EXHAUSTED
            if params[Par.EXHAUSTED_FORCED_TAKE] != 0:
                # (the checkers directly, not why_illegal_nb: numba's cache mislinks recursion)
                if _why_take_nb(arr, hand_off, params, Act.TAKE_ONTO, team) == 0:
                    return Why.FORCED_TAKE
                if params[Par.SEQUENCES] != 0:
                    for a in range(Act.TAKE_SEQ, Act.N_ACTIONS):
                        if _why_seq_nb(arr, hand_off, params, a, team) == 0:
                            return Why.FORCED_TAKE
            return Why.OK
        if action == 6 or action == 7:
            return Why.UNKNOWN
        return _why_take_nb(arr, hand_off, params, action, team)
    if action >= Act.TAKE_SEQ:
        if phase != Phase.DRAW:
            return Why.PHASE
        return _why_seq_nb(arr, hand_off, params, action, team)
    if action < Act.MELD:
        return Why.UNKNOWN
    if phase != Phase.MELD:
        return Why.PHASE
    if action >= Act.SEQ_NEW:
        return _why_seq_nb(arr, hand_off, params, action, team)
    if action >= Act.DISCARD:
        return _why_discard_nb(arr, hand_off, params, action - Act.DISCARD, team)
    return _why_meld_nb(arr, hand_off, params, action, team)


@njit(cache=True, _nrt=False, inline="always")
def _why_draw_nb(arr) -> int:
    return Why.OK if arr[Off.STOCK_LEN] > 0 else Why.NO_STOCK


@njit(cache=True, _nrt=False)
def _why_take_nb(arr, hand_off, params, action, team) -> int:
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
    is_canasta = nat + w >= params[Par.CANASTA_SIZE] or (not has_meld and arr[Off.CLOSED_COUNT + i] > 0)
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
    if arr[Off.TEAM_OPENED + team] != 0 and arr[Off.PILE_LEN] - arr[Off.PILE_COUNTS + Kind.RED3] - 1 + arr[Off.HAND_SIZE + arr[Off.SEAT]] - add_nat - add_two - add_joker >= 2:
        return Why.OK  # the common case needs no look-ahead
    # look-ahead: meld the top card in place, check, undo (no allocation)
    hand = arr[hand_off : hand_off + N_KINDS]
    rest = arr[Off.PILE_LEN] - arr[Off.PILE_COUNTS + Kind.RED3] - 1  # pile cards besides the top
    gained = (add_nat + 1) * params[Par.CARD_VALUE + top] + add_two * params[Par.CARD_VALUE + Kind.TWO] + add_joker * params[Par.CARD_VALUE + Kind.JOKER]
    completes = 1 if nat + w < params[Par.CANASTA_SIZE] <= nat + w + add_nat + 1 + add_two + add_joker else 0
    opened = arr[Off.TEAM_OPENED + team] != 0
    pend = 0 if opened else gained
    # the top card is not in the hand: count it in, then meld it with the hand's cards
    suits = _suits_out_nb(arr, suit_off_nb(hand_off), params, top, add_nat)
    arr[hand_off + top] += 1
    _shift_nb(arr, hand_off, team, top, add_nat + 1, add_two, add_joker, pend, completes, 1)
    why = _after_take_ok_nb(arr, hand, hand_off, params, team, opened, gained, rest, top)
    _shift_nb(arr, hand_off, team, top, add_nat + 1, add_two, add_joker, pend, completes, -1)
    arr[hand_off + top] -= 1
    _suits_back_nb(arr, suit_off_nb(hand_off), params, top, add_nat, suits)
    return why


@njit(cache=True, _nrt=False)
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


@njit(cache=True, _nrt=False)
def decode_meld_nb(action):
    """(kind, naturals, twos, jokers, is_add) moved from the hand by a meld/add action."""
    if action < Act.ADD_NAT:
        kind = (action - Act.MELD) // 3
        variant = (action - Act.MELD) % 3
        if variant == 0:
            return kind, 3, 0, 0, False
        if variant == 1:
            return kind, 2, 1, 0, False
        return kind, 2, 0, 1, False
    if action < Act.ADD_TWO:
        return action - Act.ADD_NAT, 1, 0, 0, True
    if action < Act.ADD_JOKER:
        return action - Act.ADD_TWO, 0, 1, 0, True
    return action - Act.ADD_JOKER, 0, 0, 1, True


# returned by _meld_checks_nb when only the look-ahead can decide
LOOKAHEAD = -1


@njit(cache=True, _nrt=False, inline="always")
def _meld_checks_nb(arr, hand_off, params, team, kind, n_nat, n_two, n_joker, is_add) -> int:
    """Every check of a meld or addition that needs no look-ahead: a `Why` code, or LOOKAHEAD.
    `_natural_melds_nb` computes the same checks for all natural kinds at once (keep the two
    in step: tests/test_conformance.py compares them on every step of random play)."""
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
    if arr[hand_off + kind] < n_nat or arr[hand_off + Kind.TWO] < n_two or arr[hand_off + Kind.JOKER] < n_joker:
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
def _meld_lookahead_nb(arr, hand_off, params, team, kind, n_nat, n_two, n_joker, is_add) -> int:
    """Move the cards in place, check what must still hold (the opening reachable, a legal end
    of the turn), move them back (no allocation)."""
    i = team * N_KINDS + kind
    nat = arr[Off.MELD_NAT + i]
    w = arr[Off.MELD_TWO + i] + arr[Off.MELD_JOKER + i]
    used = n_nat + n_two + n_joker
    hand = arr[hand_off : hand_off + N_KINDS]
    gained = n_nat * params[Par.CARD_VALUE + kind] + n_two * params[Par.CARD_VALUE + Kind.TWO] + n_joker * params[Par.CARD_VALUE + Kind.JOKER]
    new_size = nat + w + used
    completes = 1 if kind != Kind.BLACK3 and nat + w < params[Par.CANASTA_SIZE] <= new_size else 0
    pend = gained if arr[Off.TEAM_OPENED + team] == 0 else 0
    if nat + w == 0 and is_add:
        # a natural onto a closed canasta: only the hand changes
        arr[hand_off + kind] -= 1
        arr[Off.PENDING_VALUE] += pend
        suits = _suits_out_nb(arr, suit_off_nb(hand_off), params, kind, 1)
        why = _after_move_ok_nb(arr, hand, params, team, arr[Off.ASIDE_LEN], hand_off)
        _suits_back_nb(arr, suit_off_nb(hand_off), params, kind, 1, suits)
        arr[Off.PENDING_VALUE] -= pend
        arr[hand_off + kind] += 1
        return why
    suits = _suits_out_nb(arr, suit_off_nb(hand_off), params, kind, n_nat)
    _shift_nb(arr, hand_off, team, kind, n_nat, n_two, n_joker, pend, completes, 1)
    if kind == Kind.BLACK3:
        why = _why_black3_after_nb(arr, hand, params, team, new_size)
    else:
        why = _after_move_ok_nb(arr, hand, params, team, arr[Off.ASIDE_LEN], hand_off)
    _shift_nb(arr, hand_off, team, kind, n_nat, n_two, n_joker, pend, completes, -1)
    _suits_back_nb(arr, suit_off_nb(hand_off), params, kind, n_nat, suits)
    return why


@njit(cache=True, _nrt=False)
def _why_meld_nb(arr, hand_off, params, action, team) -> int:
    kind, n_nat, n_two, n_joker, is_add = decode_meld_nb(action)
    why = _meld_checks_nb(arr, hand_off, params, team, kind, n_nat, n_two, n_joker, is_add)
    if why != LOOKAHEAD:
        return why
    return _meld_lookahead_nb(arr, hand_off, params, team, kind, n_nat, n_two, n_joker, is_add)


@njit(cache=True, _nrt=False)
def pick_suit_nb(arr, suit_off, params, kind) -> int:
    """Which suit of a natural rank leaves the hand (discard or group meld): with sequences in
    play the copy with the fewest same-suit neighbours (the least useful for a sequence), else
    the first suit held.  -1 if none is held."""
    best = -1
    best_score = 1 << 20
    for s in range(4):
        if arr[suit_off + s * 11 + kind - FIRST_NATURAL] == 0:
            continue
        if params[Par.SEQUENCES] == 0:
            return s
        score = 0
        for d in (-2, -1, 1, 2):
            k = kind + d
            if FIRST_NATURAL <= k <= LAST_NATURAL and arr[suit_off + s * 11 + k - FIRST_NATURAL] > 0:
                score += 1
        if score < best_score:
            best_score = score
            best = s
    return best


@njit(cache=True, _nrt=False)
def _suits_out_nb(arr, suit_off, params, kind, n) -> int:
    """Remove n naturals of `kind` from the suited counts as the applier would (Samba only);
    returns the suits removed, packed two bits each, for _suits_back_nb."""
    if params[Par.SEQUENCES] == 0 or kind < FIRST_NATURAL or kind > LAST_NATURAL:
        return 0
    packed = 0
    for j in range(n):
        s = pick_suit_nb(arr, suit_off, params, kind)
        arr[suit_off + s * 11 + kind - FIRST_NATURAL] -= 1
        packed |= s << (2 * j)
    return packed


@njit(cache=True, _nrt=False)
def _suits_back_nb(arr, suit_off, params, kind, n, packed) -> None:
    if params[Par.SEQUENCES] == 0 or kind < FIRST_NATURAL or kind > LAST_NATURAL:
        return
    for j in range(n):
        s = (packed >> (2 * j)) & 3
        arr[suit_off + s * 11 + kind - FIRST_NATURAL] += 1


@njit(cache=True, _nrt=False)
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
    return _discard_why_nb(arr, params, team)


@njit(cache=True, _nrt=False, inline="always")
def _discard_why_nb(arr, params, team) -> int:
    """What a discard of a held card must respect, whatever its kind (shared with
    _legal_discards_nb, which asks it once for all kinds)."""
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


# ----------------------------------------------------------------------------- Samba sequences


@njit(cache=True, _nrt=False)
def seq_move_nb(arr, team, action) -> tuple:
    """What a sequence action does: (slot, suit, new low kind, new length, added kind).  For a
    new sequence the slot is the first free one (-1 if none) and the added kind is -1."""
    if action < Act.SEQ_ADD:
        rel = action - Act.SEQ_NEW
        slot = -1
        for q in range(MAX_SEQS):
            if arr[Off.SEQ_LEN + team * MAX_SEQS + q] == 0:
                slot = q
                break
        return slot, rel // 9, FIRST_NATURAL + rel % 9, 3, -1
    rel = action - (Act.SEQ_ADD if action < Act.TAKE_SEQ else Act.TAKE_SEQ)
    slot = rel // 2
    j = team * MAX_SEQS + slot
    suit = arr[Off.SEQ_SUIT + j]
    low = arr[Off.SEQ_LOW + j]
    length = arr[Off.SEQ_LEN + j]
    if rel % 2 == 0:
        return slot, suit, low - 1, length + 1, low - 1
    return slot, suit, low, length + 1, low + length


@njit(cache=True, _nrt=False)
def _seq_set_nb(arr, hand_off, team, slot, suit, low, length, kinds_lo, kinds_hi, from_hand, pending, completes, old_low, old_len, sign) -> None:
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
def _why_seq_nb(arr, hand_off, params, action, team) -> int:
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
    points = 0
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
    _seq_set_nb(arr, hand_off, team, slot, suit, low, length, lo, hi, not take, pend, completes, old_low, old_len, 1)
    hand = arr[hand_off : hand_off + N_KINDS]
    if take:
        why = _after_take_ok_nb(arr, hand, hand_off, params, team, opened, points, rest, new_kind)
    else:
        why = _after_move_ok_nb(arr, hand, params, team, arr[Off.ASIDE_LEN], hand_off)
    _seq_set_nb(arr, hand_off, team, slot, suit, low, length, lo, hi, not take, pend, completes, old_low, old_len, -1)
    return why


@njit(cache=True, _nrt=False)
def _take_suited_nb(arr, so, hand_off, suit, k, w0, w1, w2) -> tuple:
    """Take one card of rank k and `suit` out of the hand in place, counting it in the undo
    words (4 bits per suited slot, 15 slots per word) so that `_put_back_nb` can return it."""
    slot = suit * 11 + k - FIRST_NATURAL
    arr[so + slot] -= 1
    arr[hand_off + k] -= 1
    bit = np.int64(1) << (4 * (slot % 15))
    if slot < 15:
        return w0 + bit, w1, w2
    if slot < 30:
        return w0, w1 + bit, w2
    return w0, w1, w2 + bit


@njit(cache=True, _nrt=False)
def _put_back_nb(arr, so, hand_off, word, first_slot) -> None:
    for j in range(15):
        n = (word >> (4 * j)) & 15
        if n != 0:
            slot = first_slot + j
            arr[so + slot] += n
            arr[hand_off + FIRST_NATURAL + slot % 11] += n


@njit(cache=True, _nrt=False)
def seq_plan_points_nb(arr, hand_off, params, team) -> tuple:
    """A constructive lower bound of the points still meldable this turn when sequences are in
    play: extend the team's sequences with suited cards from the hand, lay every run of three
    or more suited cards, then meld groups from the rest.  Returns (points, cards melded).
    Works on the hand in place and puts every card back: the kernels run without numba's
    reference-counting runtime, so they cannot allocate scratch arrays."""
    csize = params[Par.CANASTA_SIZE]
    so = suit_off_nb(hand_off)
    w0 = np.int64(0)
    w1 = np.int64(0)
    w2 = np.int64(0)
    points = 0
    cards = 0
    free = 0
    for q in range(MAX_SEQS):
        j = team * MAX_SEQS + q
        length = arr[Off.SEQ_LEN + j]
        if length == 0:
            free += 1
            continue
        suit = arr[Off.SEQ_SUIT + j]
        low = arr[Off.SEQ_LOW + j]
        while length < csize and low - 1 >= FIRST_NATURAL and arr[so + suit * 11 + low - 1 - FIRST_NATURAL] > 0:
            low -= 1
            length += 1
            w0, w1, w2 = _take_suited_nb(arr, so, hand_off, suit, low, w0, w1, w2)
            points += params[Par.CARD_VALUE + low]
            cards += 1
        while length < csize and low + length <= LAST_NATURAL and arr[so + suit * 11 + low + length - FIRST_NATURAL] > 0:
            k = low + length
            w0, w1, w2 = _take_suited_nb(arr, so, hand_off, suit, k, w0, w1, w2)
            points += params[Par.CARD_VALUE + k]
            cards += 1
            length += 1
    for suit in range(4):
        found = True
        while found and free > 0:
            found = False
            k = FIRST_NATURAL
            while k <= LAST_NATURAL and free > 0:
                if arr[so + suit * 11 + k - FIRST_NATURAL] == 0:
                    k += 1
                    continue
                r = k
                while r <= LAST_NATURAL and r - k < csize and arr[so + suit * 11 + r - FIRST_NATURAL] > 0:
                    r += 1
                if r - k >= 3:
                    for m in range(k, r):
                        w0, w1, w2 = _take_suited_nb(arr, so, hand_off, suit, m, w0, w1, w2)
                        points += params[Par.CARD_VALUE + m]
                        cards += 1
                    free -= 1
                    found = True
                k = r
    p, c = _max_meld_points_free_nb(arr, arr[hand_off : hand_off + N_KINDS], params, team)
    _put_back_nb(arr, so, hand_off, w0, 0)
    _put_back_nb(arr, so, hand_off, w1, 15)
    _put_back_nb(arr, so, hand_off, w2, 30)
    return points + p, cards + c


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
        if _why_draw_nb(arr) == 0:
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
                if _why_take_nb(arr, hand_off, params, a, team) == 0:
                    out[n] = a
                    n += 1
        if arr[Off.STOCK_LEN] == 0 and why_illegal_nb(arr, hand_off, params, Act.DECLINE) == 0:
            out[n] = Act.DECLINE
            n += 1
        if params[Par.SEQUENCES] != 0 and arr[Off.PILE_LEN] > 0:
            for a in range(Act.TAKE_SEQ, Act.N_ACTIONS):
                if _why_seq_nb(arr, hand_off, params, a, team) == 0:
                    out[n] = a
                    n += 1
        return n
    if phase != Phase.MELD:
        return 0
    opened = arr[Off.TEAM_OPENED + team] != 0
    if not opened and not _any_meld_possible_nb(arr, hand_off, params, team):
        return _legal_discards_nb(arr, hand_off, params, team, out, n)
    # black threes first (list order is by kind): their checks differ, and they are rare
    b3 = arr[hand_off + Kind.BLACK3]
    if b3 > 0:
        i = team * N_KINDS + Kind.BLACK3
        if arr[Off.MELD_NAT + i] > 0 or arr[Off.CLOSED_COUNT + i] > 0:
            if _why_meld_nb(arr, hand_off, params, Act.ADD_NAT + Kind.BLACK3, team) == 0:
                out[n] = Act.ADD_NAT + Kind.BLACK3
                n += 1
        if b3 >= 3 and _why_meld_nb(arr, hand_off, params, Act.MELD + Kind.BLACK3 * 3, team) == 0:
            out[n] = Act.MELD + Kind.BLACK3 * 3
            n += 1
    n = _natural_melds_nb(arr, hand_off, params, team, opened, out, n)
    if params[Par.SEQUENCES] != 0:
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
    return _legal_discards_nb(arr, hand_off, params, team, out, n)


@njit(cache=True, _nrt=False, inline="always")
def _natural_melds_nb(arr, hand_off, params, team, opened, out, n) -> int:
    """The melds and additions of natural kinds for legal_actions_nb, in list order.

    The checks of _meld_checks_nb that need no look-ahead are a few counts compared: they are
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
            ok = _meld_lookahead_nb(arr, hand_off, params, team, k, n_nat, n_two, n_joker, is_add) == 0
        out[n] = a
        n += 1 if ok else 0
    return n


@njit(cache=True, _nrt=False)
def _any_meld_possible_nb(arr, hand_off, params, team) -> bool:
    """False only when no meld action can be legal: a team that has not opened, has laid
    nothing this turn, and whose whole hand cannot reach the minimum nor go out concealed
    (exact gate: every meld's own look-ahead would fail the same way).  Sequences are left to
    the per-action checks."""
    if arr[Off.TEAM_OPENED + team] != 0 or arr[Off.PENDING_VALUE] != 0 or params[Par.SEQUENCES] != 0:
        return True
    hand = arr[hand_off : hand_off + N_KINDS]
    if max_meld_points_nb(arr, hand, params, team, 0) >= team_min_nb(arr, team):
        return True
    return concealed_waiver_nb(arr, params) and can_go_out_concealed_nb(arr, hand, params, team)


@njit(cache=True, _nrt=False, inline="always")
def _legal_discards_nb(arr, hand_off, params, team, out, n) -> int:
    # a discard's legality depends on the kind only through holding it: ask once (inlined, no
    # call).  Red threes (the last kind) are never held.  The list is written without branches
    # (a slot is written for every kind, kept only when held): held kinds are unpredictable.
    if arr[Off.HAND_SIZE + arr[Off.SEAT]] == 0 or _discard_why_nb(arr, params, team) != 0:
        return n
    hand = arr[hand_off : hand_off + N_KINDS]
    for k in range(Kind.RED3):
        out[n] = Act.DISCARD + k
        n += 1 if hand[k] > 0 else 0
    return n
