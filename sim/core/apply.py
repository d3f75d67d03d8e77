"""Applying actions to a full state (the `do` half of verify / can / do).

`apply_action_nb` first asks `why_illegal_nb` (the single source of legality) and refuses an
illegal action by returning its reason code without touching the state.  Automatic events (red
threes laid and replaced, the pile joining the hand, going out, the next turn, the exhausted
stock) happen here so that a state always waits for a real decision or is over.

Cards in the stock and the pile are codes `kind | suit << 4`; hands hold kind counts plus, for
the natural ranks, counts per suit (Samba sequences need suits).
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
    End,
    Kind,
    Off,
    Par,
    Phase,
)
from sim.core.legal import Why, pick_suit_nb, seq_move_nb, team_of_nb, why_illegal_nb
from sim.core.luck import luck_count_stock_nb, luck_deal_nb, luck_draw_nb
from sim.core.readers import code_kind_nb, code_suit_nb, make_code_nb
from sim.core.suits import first_suit_nb


@njit(cache=True, _nrt=False)
def team_minimum_nb(params: np.ndarray, cum_score: int) -> int:
    """Initial-meld minimum for a team with this cumulative score."""
    if cum_score < 0:
        return params[Par.MIN_BELOW_ZERO]
    m = params[Par.MIN_BAND_VALUE]
    for b in range(4):
        if cum_score >= params[Par.MIN_BAND_FROM + b]:
            m = params[Par.MIN_BAND_VALUE + b]
    return m


@njit(cache=True, _nrt=False)
def end_hand_nb(state: np.ndarray, reason: int) -> None:
    state[Off.END_REASON] = reason
    state[Off.PHASE] = Phase.OVER


@njit(cache=True, _nrt=False, inline="always")
def _give_nb(state, seat, code) -> None:
    """One card (a code) into a hand."""
    kind = code_kind_nb(code)
    state[Off.HANDS + seat * N_KINDS + kind] += 1
    state[Off.HAND_SIZE + seat] += 1
    if FIRST_NATURAL <= kind <= LAST_NATURAL:
        state[
            Off.HAND_SUITS + seat * N_SUITED + code_suit_nb(code) * 11 + kind - FIRST_NATURAL
        ] += 1


@njit(cache=True, _nrt=False, inline="always")
def _remove_nb(state, params, seat, kind, n) -> int:
    """Take n cards of `kind` out of a hand; returns the code of the last one removed."""
    state[Off.HANDS + seat * N_KINDS + kind] -= n
    state[Off.HAND_SIZE + seat] -= n
    code = kind
    if FIRST_NATURAL <= kind <= LAST_NATURAL:
        for _ in range(n):
            if params[Par.SEQUENCES] == 0:
                s = first_suit_nb(
                    state, Off.HAND_SUITS + seat * N_SUITED, kind
                )  # = pick_suit_nb, no call
            else:
                s = pick_suit_nb(state, Off.HAND_SUITS + seat * N_SUITED, params, np.int64(kind))
            state[Off.HAND_SUITS + seat * N_SUITED + s * 11 + kind - FIRST_NATURAL] -= 1
            code = make_code_nb(kind, s)
    return code


@njit(cache=True, _nrt=False)
def _pop_stock_nb(state) -> int:
    code = state[Off.STOCK + state[Off.STOCK_POS]]
    state[Off.STOCK_POS] += 1
    state[Off.STOCK_LEN] -= 1
    if state[Off.LUCK_ON] != 0:
        state[Off.STOCK_KINDS + code_kind_nb(code)] -= 1
    return code


@njit(cache=True, _nrt=False)
def draw_one_nb(state: np.ndarray, params: np.ndarray, seat: int) -> bool:
    """Draw one card for `seat`: red threes are laid and replaced.  Returns False when the hand
    ended (a red three was the last stock card) or the stock is empty."""
    team = state[Off.TEAM_OF_SEAT + seat]
    while state[Off.STOCK_LEN] > 0:
        if state[Off.LUCK_ON] != 0:
            luck_draw_nb(state, seat, state[Off.STOCK + state[Off.STOCK_POS]])
        code = _pop_stock_nb(state)
        if code_kind_nb(code) != Kind.RED3:
            _give_nb(state, seat, code)
            return True
        state[Off.TEAM_RED3 + team] += 1
        if state[Off.STOCK_LEN] == 0 and params[Par.RED3_LAST_ENDS] != 0:
            end_hand_nb(state, End.RED3_LAST)
            return False
    return False


@njit(cache=True, _nrt=False, inline="always")
def _push_pile_nb(state, code) -> None:
    kind = code_kind_nb(code)
    state[Off.PILE + state[Off.PILE_LEN]] = code
    state[Off.PILE_LEN] += 1
    state[Off.PILE_COUNTS + kind] += 1
    state[Off.PILE_TOP] = kind
    state[Off.PILE_TOP_SUIT] = code_suit_nb(code)
    if kind == Kind.TWO or kind == Kind.JOKER or kind == Kind.RED3:
        state[Off.PILE_FREEZE] += 1


@njit(
    cache=True, _nrt=False, inline="always"
)  # a thin caller of the core: compiled alone it re-optimizes the core linked below it
def begin_turn_nb(state: np.ndarray, params: np.ndarray) -> None:
    """Reset the per-turn fields for the seat to act; end the hand if it cannot go on."""
    seat = state[Off.SEAT]
    state[Off.PHASE] = Phase.DRAW
    state[Off.PENDING_VALUE] = 0
    state[Off.TOOK_PILE] = 0
    state[Off.ASIDE_LEN] = 0
    state[Off.CANASTAS_THIS_TURN] = 0
    state[Off.MELDED_BEFORE] = state[Off.SEAT_MELDED + seat]
    if state[Off.TURN] >= params[Par.MAX_TURNS]:
        end_hand_nb(state, End.TURN_LIMIT)
        return
    if state[Off.STOCK_LEN] == 0:
        hand_off = Off.HANDS + seat * N_KINDS
        for a in range(Act.TAKE_PAIR, Act.TAKE_ONTO + 1):
            if why_illegal_nb(state, hand_off, params, a) == 0:
                return
        if params[Par.SEQUENCES] != 0:
            for a in range(Act.TAKE_SEQ, Act.N_ACTIONS):
                if why_illegal_nb(state, hand_off, params, a) == 0:
                    return
        end_hand_nb(state, End.EXHAUSTED)


@njit(
    cache=True, _nrt=False, inline="always"
)  # a thin caller of the core: compiled alone it re-optimizes the core linked below it
def _next_turn_nb(state, params) -> None:
    # (seat + 1) % n_seats without a division (a div each turn cost ~2% of a greedy hand)
    nxt = state[Off.SEAT] + 1
    state[Off.SEAT] = nxt if nxt < state[Off.N_SEATS] else 0
    state[Off.TURN] += 1
    begin_turn_nb(state, params)


@njit(cache=True, _nrt=False)
def init_hand_nb(
    state: np.ndarray,
    params: np.ndarray,
    deck: np.ndarray,
    n_cards: int,
    dealer: int,
    cum_scores: np.ndarray,
) -> None:
    """Set `state` (int32, shape (STATE_SIZE,)) to a freshly dealt hand.

    Parameters
    ----------
    deck : int32[:], the deck as card codes (kind | suit << 4), top first (deck[0] is dealt first)
    n_cards : int, cards in the deck (108 or 162)
    dealer : int, active seat of the dealer
    cum_scores : int32[:], shape (MAX_TEAMS,), cumulative scores before this hand
    """
    luck_on = state[Off.LUCK_ON]  # the caller's requests survive the reset
    for i in range(state.shape[0]):  # a plain loop: numba's slice fill is much slower
        state[i] = 0
    state[Off.LUCK_ON] = luck_on
    n_seats = params[Par.N_ACTIVE]
    state[Off.N_SEATS] = n_seats
    state[Off.N_TEAMS] = params[Par.N_TEAMS]
    state[Off.DEALER] = dealer
    state[Off.WENT_OUT_SEAT] = -1
    state[Off.PILE_TOP] = -1
    state[Off.PILE_TOP_SUIT] = -1
    for s in range(6):
        state[Off.TEAM_OF_SEAT + s] = params[Par.TEAM_OF_SEAT + s]
        state[Off.LAST_DISCARD + s] = -1
    for t in range(params[Par.N_TEAMS]):
        state[Off.CUM_SCORE + t] = cum_scores[t]
        state[Off.TEAM_MIN + t] = team_minimum_nb(params, cum_scores[t])
    for i in range(n_cards):
        state[Off.STOCK + i] = deck[i]
    state[Off.STOCK_POS] = 0
    state[Off.STOCK_LEN] = n_cards
    if luck_on != 0:
        luck_count_stock_nb(state, deck, n_cards)
    hs = params[Par.HAND_SIZE]
    first = dealer + 1 if dealer + 1 < n_seats else 0  # (dealer + 1 + j) % n_seats, no division
    for _r in range(hs):
        seat = first
        for _j in range(n_seats):
            _give_nb(state, seat, _pop_stock_nb(state))
            seat = seat + 1 if seat + 1 < n_seats else 0
    if luck_on != 0:
        luck_deal_nb(state, hs, n_cards)
    # the upcard: wild cards and red threes are covered until a natural card other than a red
    # three shows (they stay in the pile and freeze it)
    while state[Off.STOCK_LEN] > 0:
        code = _pop_stock_nb(state)
        _push_pile_nb(state, code)
        kind = code_kind_nb(code)
        if kind != Kind.TWO and kind != Kind.JOKER and kind != Kind.RED3:
            break
    if params[Par.UPCARD_FREEZES] == 0:
        state[Off.PILE_FREEZE] = 0
    # red threes dealt are laid and replaced, seat by seat from the left of the dealer
    seat = first
    for _j in range(n_seats):
        team = state[Off.TEAM_OF_SEAT + seat]
        i = Off.HANDS + seat * N_KINDS + Kind.RED3
        while state[i] > 0:
            state[i] -= 1
            state[Off.HAND_SIZE + seat] -= 1
            state[Off.TEAM_RED3 + team] += 1
            if not draw_one_nb(state, params, seat):
                if state[Off.PHASE] != Phase.OVER:
                    end_hand_nb(state, End.EXHAUSTED)
                return
        seat = seat + 1 if seat + 1 < n_seats else 0
    state[Off.SEAT] = first
    state[Off.TURN] = 0
    begin_turn_nb(state, params)


@njit(cache=True, _nrt=False)
def _opened_check_nb(state, params, seat, team, points) -> None:
    """Count points towards a pending initial meld; once it is made, the pile cards held aside
    join the hand."""
    if state[Off.TEAM_OPENED + team] != 0:
        return
    state[Off.PENDING_VALUE] += points
    if state[Off.PENDING_VALUE] >= state[Off.TEAM_MIN + team]:
        state[Off.TEAM_OPENED + team] = 1
        for j in range(state[Off.ASIDE_LEN]):
            _give_nb(state, seat, state[Off.PILE + j])
            state[Off.PILE + j] = 0
        state[Off.ASIDE_LEN] = 0


@njit(cache=True, _nrt=False)
def _meld_cards_nb(
    state, params, seat, team, kind, nat, twos, jokers, from_hand_nat, wilds_from_hand
) -> None:
    """Move cards onto the team's meld of `kind`; `from_hand_nat` of the naturals (and the wild
    cards, if `wilds_from_hand`) leave the hand here (a pile take removes them beforehand).  Tracks
    points towards the opening and canastas; with several melds per rank a completed canasta is
    closed to make room for a new meld."""
    i = team * N_KINDS + kind
    before = state[Off.MELD_NAT + i] + state[Off.MELD_TWO + i] + state[Off.MELD_JOKER + i]
    csize = params[Par.CANASTA_SIZE]
    if before == 0 and nat == 1 and twos + jokers == 0 and state[Off.CLOSED_COUNT + i] > 0:
        # a natural added to a closed canasta (no open meld of the rank)
        state[Off.CLOSED_NAT + i] += 1
        before = -1
    else:
        state[Off.MELD_NAT + i] += nat
        state[Off.MELD_TWO + i] += twos
        state[Off.MELD_JOKER + i] += jokers
    if from_hand_nat > 0:
        _remove_nb(state, params, seat, kind, from_hand_nat)
    if twos > 0 and wilds_from_hand:
        _remove_nb(state, params, seat, Kind.TWO, twos)
    if jokers > 0 and wilds_from_hand:
        _remove_nb(state, params, seat, Kind.JOKER, jokers)
    state[Off.SEAT_MELDED + seat] = 1
    after = before + nat + twos + jokers
    if kind != Kind.BLACK3 and before >= 0 and before < csize <= after:
        state[Off.CANASTAS_THIS_TURN] += 1
        if params[Par.MULTI_MELDS] != 0:
            t = state[Off.MELD_TWO + i]
            j = state[Off.MELD_JOKER + i]
            state[Off.CLOSED_COUNT + i] += 1
            state[Off.CLOSED_NAT + i] += state[Off.MELD_NAT + i]
            state[Off.CLOSED_TWO + team] += t
            state[Off.CLOSED_JOKER + team] += j
            if t + j == 0:
                state[Off.CLOSED_NATURAL + team] += 1
            state[Off.MELD_NAT + i] = 0
            state[Off.MELD_TWO + i] = 0
            state[Off.MELD_JOKER + i] = 0
    _opened_check_nb(
        state,
        params,
        seat,
        team,
        nat * params[Par.CARD_VALUE + kind]
        + twos * params[Par.CARD_VALUE + Kind.TWO]
        + jokers * params[Par.CARD_VALUE + Kind.JOKER],
    )


@njit(cache=True, _nrt=False)
def _sequence_nb(state, params, seat, team, action, top_code) -> None:
    """Lay or extend a sequence; with `top_code` >= 0 the new card is the taken top discard."""
    slot, suit, low, length, new_kind = seq_move_nb(state, team, action)
    base = Off.HAND_SUITS + seat * N_SUITED + suit * 11
    points = 0
    if action < Act.SEQ_ADD:
        for k in range(low, low + 3):
            state[base + k - FIRST_NATURAL] -= 1
            state[Off.HANDS + seat * N_KINDS + k] -= 1
            points += params[Par.CARD_VALUE + k]
        state[Off.HAND_SIZE + seat] -= 3
        state[Off.SEQ_SUIT + team * MAX_SEQS + slot] = suit
        state[Off.SEQ_LOW + team * MAX_SEQS + slot] = low
        state[Off.SEQ_LEN + team * MAX_SEQS + slot] = 3
    else:
        if top_code < 0:
            state[base + new_kind - FIRST_NATURAL] -= 1
            state[Off.HANDS + seat * N_KINDS + new_kind] -= 1
            state[Off.HAND_SIZE + seat] -= 1
        state[Off.SEQ_LOW + team * MAX_SEQS + slot] = low
        state[Off.SEQ_LEN + team * MAX_SEQS + slot] = length
        points = params[Par.CARD_VALUE + new_kind]
        if length == params[Par.CANASTA_SIZE]:
            state[Off.CANASTAS_THIS_TURN] += 1
    state[Off.SEAT_MELDED + seat] = 1
    _opened_check_nb(state, params, seat, team, points)


@njit(cache=True, _nrt=False, inline="always")
def _went_out_nb(state, seat, with_discard) -> None:
    # a concealed going out below the minimum still put the team's melds down: it has melded
    state[Off.TEAM_OPENED + state[Off.TEAM_OF_SEAT + seat]] = 1
    state[Off.WENT_OUT_SEAT] = seat
    state[Off.WENT_OUT_DISCARD] = 1 if with_discard else 0
    if state[Off.MELDED_BEFORE] == 0 and state[Off.CANASTAS_THIS_TURN] > 0:
        state[Off.CONCEALED] = 1
    end_hand_nb(state, End.WENT_OUT)


@njit(cache=True, _nrt=False)
def _take_pile_nb(state, params, seat, team) -> int:
    """Empty the pile: red threes are laid, the top card is returned (as a code), the rest goes
    to the hand, or is held aside (compacted at the bottom of PILE) while the team's initial
    meld is pending."""
    n = state[Off.PILE_LEN]
    top = state[Off.PILE + n - 1]
    opened = state[Off.TEAM_OPENED + team] != 0
    aside = 0
    for j in range(n - 1):
        code = state[Off.PILE + j]
        if code_kind_nb(code) == Kind.RED3:
            state[Off.TEAM_RED3 + team] += 1
        elif opened:
            _give_nb(state, seat, code)
        else:
            state[Off.PILE + aside] = code
            aside += 1
    for j in range(aside, n):
        state[Off.PILE + j] = 0
    for k in range(N_KINDS):
        state[Off.PILE_COUNTS + k] = 0
    state[Off.ASIDE_LEN] = aside
    state[Off.PILE_LEN] = 0
    state[Off.PILE_FREEZE] = 0
    state[Off.PILE_TOP] = -1
    state[Off.PILE_TOP_SUIT] = -1
    state[Off.TOOK_PILE] = 1
    state[Off.PILE_TAKES + team] += 1
    state[Off.PHASE] = Phase.MELD
    return top


@njit(
    cache=True, _nrt=False, inline="always"
)  # a thin caller of the core: compiled alone it re-optimizes the core linked below it
def apply_action_nb(state: np.ndarray, params: np.ndarray, action: int) -> int:
    """Apply `action` for the seat to act.  Returns 0, or the `Why` code of an illegal action
    (the state is then unchanged)."""
    why = why_illegal_nb(state, Off.HANDS + state[Off.SEAT] * N_KINDS, params, action)
    if why != Why.OK:
        return why
    do_action_nb(state, params, action)
    return Why.OK


@njit(cache=True, _nrt=False)
def do_action_nb(state: np.ndarray, params: np.ndarray, action: int) -> int:
    """The `do` half: apply an action already found legal for the seat to act, by
    `why_illegal_nb` or as a member of `legal_actions_nb`'s list for this state (the logging
    loop has that list anyway).  Never call it with an unchecked action.  Returns 0."""
    seat = state[Off.SEAT]
    team = team_of_nb(state)
    state[Off.DECISIONS] += 1
    if action == Act.DRAW:
        for _ in range(params[Par.DRAW_COUNT]):
            if not draw_one_nb(state, params, np.int64(seat)):
                break
        if state[Off.PHASE] != Phase.OVER:
            state[Off.PHASE] = Phase.MELD
        return Why.OK
    if action == Act.DECLINE:
        end_hand_nb(state, End.EXHAUSTED)
        return Why.OK
    if Act.DISCARD <= action < Act.SEQ_NEW:
        discarded = action - Act.DISCARD
        code = _remove_nb(state, params, seat, discarded, 1)
        _push_pile_nb(state, code)
        state[Off.LAST_DISCARD + seat] = discarded
        if state[Off.HAND_SIZE + seat] == 0:
            _went_out_nb(state, seat, True)
            return Why.OK
        _next_turn_nb(state, params)
        return Why.OK
    # a pile take, a meld, an addition or a sequence move: the branches only set the
    # arguments, so that _take_pile_nb, _sequence_nb and _meld_cards_nb have one call site
    # each (numba gives every call site stack slots that this function's entry zeroes on
    # every action).  Every _meld_cards_nb argument is an int64 or a non-literal flag: a
    # literal argument (3, 0, True...) would make numba compile it once per value set.
    top = np.int32(-1)
    kind = np.int64(0)
    nat = np.int64(0)
    twos = np.int64(0)
    jokers = np.int64(0)
    from_hand = np.int64(0)
    if action <= Act.TAKE_ONTO:
        kind = np.int64(state[Off.PILE_TOP])
        hand_nat = np.int64(2 if action == Act.TAKE_PAIR else (0 if action == Act.TAKE_ONTO else 1))
        twos = np.int64(1 if action == Act.TAKE_NAT_TWO else 0)
        jokers = np.int64(1 if action == Act.TAKE_NAT_JOKER else 0)
        nat = hand_nat + 1
        # the cards that take the pile come from the hand before the pile joins it (the meld
        # below takes none from the hand)
        if hand_nat > 0:
            _remove_nb(state, params, seat, kind, hand_nat)
        if twos > 0:
            _remove_nb(state, params, seat, Kind.TWO, twos)
        if jokers > 0:
            _remove_nb(state, params, seat, Kind.JOKER, jokers)
    elif Act.MELD <= action < Act.ADD_NAT:
        kind = np.int64((action - Act.MELD) // 3)
        variant = (action - Act.MELD) % 3
        nat = np.int64(3 if variant == 0 else 2)
        twos = np.int64(variant == 1)
        jokers = np.int64(variant == 2)
        from_hand = nat
    elif Act.ADD_NAT <= action < Act.DISCARD:  # an addition: a natural, a two or a joker
        if action < Act.ADD_TWO:
            kind = np.int64(action - Act.ADD_NAT)
        elif action < Act.ADD_JOKER:
            kind = np.int64(action - Act.ADD_TWO)
        else:
            kind = np.int64(action - Act.ADD_JOKER)
        nat = np.int64(action < Act.ADD_TWO)
        twos = np.int64(Act.ADD_TWO <= action < Act.ADD_JOKER)
        jokers = np.int64(action >= Act.ADD_JOKER)
        from_hand = nat
    if action <= Act.TAKE_ONTO or action >= Act.TAKE_SEQ:
        top = _take_pile_nb(state, params, seat, team)
    if action >= Act.SEQ_NEW:  # a new sequence, an extension, or a take onto a sequence
        _sequence_nb(state, params, seat, team, action, top)
    else:
        _meld_cards_nb(
            state, params, seat, team, kind, nat, twos, jokers, from_hand, action > Act.TAKE_ONTO
        )
    if state[Off.HAND_SIZE + seat] == 0 and state[Off.ASIDE_LEN] == 0:
        _went_out_nb(state, seat, False)
    return Why.OK


# ----------------------------------------------------------------------------- scoring

# score, meld points, canasta bonus, red threes, going out, hand penalty, canastas, natural ones
SCORE_ROWS = 8


@njit(cache=True, _nrt=False)
def score_hand_nb(state: np.ndarray, params: np.ndarray, out: np.ndarray) -> None:
    """Score a finished hand into out (int32, shape (SCORE_ROWS, MAX_TEAMS)): rows are total,
    meld points, canasta bonuses (sambas included), red-three points, going-out bonus,
    cards-in-hand penalty, canastas (sambas included), natural canastas."""
    for r in range(out.shape[0]):
        for t in range(out.shape[1]):
            out[r, t] = 0
    csize = params[Par.CANASTA_SIZE]
    for t in range(state[Off.N_TEAMS]):
        melds = 0
        bonus = 0
        ncan = 0
        nnat = 0
        for k in range(N_KINDS):
            i = t * N_KINDS + k
            nat = state[Off.MELD_NAT + i]
            tw = state[Off.MELD_TWO + i]
            jk = state[Off.MELD_JOKER + i]
            melds += (nat + state[Off.CLOSED_NAT + i]) * params[Par.CARD_VALUE + k]
            melds += (
                tw * params[Par.CARD_VALUE + Kind.TWO] + jk * params[Par.CARD_VALUE + Kind.JOKER]
            )
            if FIRST_NATURAL <= k <= LAST_NATURAL and nat + tw + jk >= csize:
                ncan += 1
                if tw + jk == 0:
                    nnat += 1
                    bonus += params[Par.NATURAL_CANASTA]
                else:
                    bonus += params[Par.MIXED_CANASTA]
            closed = state[Off.CLOSED_COUNT + i]
            ncan += closed
        melds += state[Off.CLOSED_TWO + t] * params[Par.CARD_VALUE + Kind.TWO]
        melds += state[Off.CLOSED_JOKER + t] * params[Par.CARD_VALUE + Kind.JOKER]
        closed_total = 0
        for k in range(N_KINDS):
            closed_total += state[Off.CLOSED_COUNT + t * N_KINDS + k]
        cn = state[Off.CLOSED_NATURAL + t]
        nnat += cn
        bonus += cn * params[Par.NATURAL_CANASTA] + (closed_total - cn) * params[Par.MIXED_CANASTA]
        for q in range(MAX_SEQS):
            length = state[Off.SEQ_LEN + t * MAX_SEQS + q]
            if length == 0:
                continue
            low = state[Off.SEQ_LOW + t * MAX_SEQS + q]
            for k in range(low, low + length):
                melds += params[Par.CARD_VALUE + k]
            if length >= csize:
                ncan += 1
                bonus += params[Par.SAMBA_BONUS]
        r3 = state[Off.TEAM_RED3 + t]
        r3_points = 0
        if r3 > 0:
            r3_points = params[Par.RED3_TABLE + min(r3, 6)]
            need = params[Par.RED3_NEED_CANASTAS]
            plus = state[Off.TEAM_OPENED + t] != 0 if need == 0 else ncan >= need
            if not plus:
                r3_points = -r3_points
        penalty = 0
        for s in range(state[Off.N_SEATS]):
            if state[Off.TEAM_OF_SEAT + s] == t:
                for k in range(N_KINDS):
                    penalty += state[Off.HANDS + s * N_KINDS + k] * params[Par.CARD_VALUE + k]
        go = 0
        ws = state[Off.WENT_OUT_SEAT]
        if state[Off.END_REASON] == End.WENT_OUT and ws >= 0 and state[Off.TEAM_OF_SEAT + ws] == t:
            if state[Off.CONCEALED] != 0 and params[Par.CONCEALED_BONUS] > 0:
                go = params[Par.CONCEALED_BONUS]
            elif state[Off.WENT_OUT_DISCARD] != 0:
                go = params[Par.GO_OUT_BONUS]
            else:
                go = params[Par.GO_OUT_NO_DISCARD_BONUS]
        out[1, t] = melds
        out[2, t] = bonus
        out[3, t] = r3_points
        out[4, t] = go
        out[5, t] = penalty
        out[6, t] = ncan
        out[7, t] = nnat
        out[0, t] = melds + bonus + r3_points + go - penalty


@njit(cache=True, _nrt=False)
def card_totals_nb(state: np.ndarray, out: np.ndarray) -> None:
    """Count every card of the hand by kind, wherever it is (hands, melds, closed canastas,
    sequences, red threes laid, pile, aside, stock) into out (int64, shape (N_KINDS,)): the
    accounting invariant."""
    out[:] = 0
    for s in range(state[Off.N_SEATS]):
        for k in range(N_KINDS):
            out[k] += state[Off.HANDS + s * N_KINDS + k]
    for t in range(state[Off.N_TEAMS]):
        out[Kind.RED3] += state[Off.TEAM_RED3 + t]
        out[Kind.TWO] += state[Off.CLOSED_TWO + t]
        out[Kind.JOKER] += state[Off.CLOSED_JOKER + t]
        for k in range(N_KINDS):
            i = t * N_KINDS + k
            out[k] += state[Off.MELD_NAT + i] + state[Off.CLOSED_NAT + i]
            out[Kind.TWO] += state[Off.MELD_TWO + i]
            out[Kind.JOKER] += state[Off.MELD_JOKER + i]
        for q in range(MAX_SEQS):
            length = state[Off.SEQ_LEN + t * MAX_SEQS + q]
            low = state[Off.SEQ_LOW + t * MAX_SEQS + q]
            for k in range(low, low + length):
                out[k] += 1
    for j in range(state[Off.PILE_LEN] + state[Off.ASIDE_LEN]):
        out[code_kind_nb(state[Off.PILE + j])] += 1
    for j in range(state[Off.STOCK_LEN]):
        out[code_kind_nb(state[Off.STOCK + state[Off.STOCK_POS] + j])] += 1
