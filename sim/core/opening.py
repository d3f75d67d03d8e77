"""The opening search: the most points a hand can meld (the initial-meld minimum), whether the
whole hand can be melded (concealed going out, finishing a turn), including Samba sequences.

These are the oracles `sim.core.why` consults before it allows a meld that must keep the
minimum reachable or leave a way to go out.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.core.enums import (
    FIRST_NATURAL,
    LAST_NATURAL,
    MAX_SEQS,
    N_KINDS,
    Kind,
    Off,
    Par,
)
from sim.core.readers import (
    canastas_nb,
    closed_room_nb,
    suit_off_nb,
    team_min_nb,
    wild_capacity_nb,
)


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
    points += (
        pj * params[Par.CARD_VALUE + Kind.JOKER] + (placed - pj) * params[Par.CARD_VALUE + Kind.TWO]
    )
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
    if hand[Kind.BLACK3] > 0 and (
        b3 < params[Par.BLACK3_MELD_MIN] or b3 > params[Par.BLACK3_MELD_MAX]
    ):
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
    # exact shortcut: every canasta _can_meld_all_nb counts is a rank whose meld, with all the
    # hand's naturals of the rank and every wild card, reaches canasta size; without such a
    # rank no choice of the final discard can succeed
    wilds = hand[Kind.TWO] + hand[Kind.JOKER]
    csize = params[Par.CANASTA_SIZE]
    reach = False
    for k in range(FIRST_NATURAL, LAST_NATURAL + 1):
        i = team * N_KINDS + k
        if (
            arr[Off.MELD_NAT + i]
            + arr[Off.MELD_TWO + i]
            + arr[Off.MELD_JOKER + i]
            + hand[k]
            + wilds
            >= csize
        ):
            reach = True
    if not reach:
        return False
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


@njit(cache=True, _nrt=False, inline="always")
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


@njit(cache=True, _nrt=False, inline="always")
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
        while (
            length < csize
            and low - 1 >= FIRST_NATURAL
            and arr[so + suit * 11 + low - 1 - FIRST_NATURAL] > 0
        ):
            low -= 1
            length += 1
            w0, w1, w2 = _take_suited_nb(arr, so, hand_off, suit, low, w0, w1, w2)
            points += params[Par.CARD_VALUE + low]
            cards += 1
        while (
            length < csize
            and low + length <= LAST_NATURAL
            and arr[so + suit * 11 + low + length - FIRST_NATURAL] > 0
        ):
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
                while (
                    r <= LAST_NATURAL
                    and r - k < csize
                    and arr[so + suit * 11 + r - FIRST_NATURAL] > 0
                ):
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
