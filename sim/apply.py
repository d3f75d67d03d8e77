"""Applying actions to a full state (the `do` half of verify / can / do).

`apply_action_nb` first asks `why_illegal_nb` (the single source of legality) and refuses an
illegal action by returning its reason code without touching the state.  Automatic events (red
threes laid and replaced, the pile joining the hand, going out, the next turn, the exhausted
stock) happen here so that a state always waits for a real decision or is over.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.enums import FIRST_NATURAL, LAST_NATURAL, N_KINDS, Act, End, Kind, Off, Par, Phase
from sim.legal import Why, team_of_nb, why_illegal_nb


@njit(cache=True)
def team_minimum_nb(params: np.ndarray, cum_score: int) -> int:
    """Initial-meld minimum for a team with this cumulative score."""
    if cum_score < 0:
        return params[Par.MIN_BELOW_ZERO]
    m = params[Par.MIN_BAND_VALUE]
    for b in range(4):
        if cum_score >= params[Par.MIN_BAND_FROM + b]:
            m = params[Par.MIN_BAND_VALUE + b]
    return m


@njit(cache=True)
def end_hand_nb(state: np.ndarray, reason: int) -> None:
    state[Off.END_REASON] = reason
    state[Off.PHASE] = Phase.OVER


@njit(cache=True)
def _give_nb(state, seat, kind, n) -> None:
    state[Off.HANDS + seat * N_KINDS + kind] += n
    state[Off.HAND_SIZE + seat] += n


@njit(cache=True)
def _pop_stock_nb(state) -> int:
    card = state[Off.STOCK + state[Off.STOCK_POS]]
    state[Off.STOCK_POS] += 1
    state[Off.STOCK_LEN] -= 1
    return card


@njit(cache=True)
def draw_one_nb(state: np.ndarray, params: np.ndarray, seat: int) -> bool:
    """Draw one card for `seat`: red threes are laid and replaced.  Returns False when the hand
    ended (a red three was the last stock card) or the stock is empty."""
    team = state[Off.TEAM_OF_SEAT + seat]
    while state[Off.STOCK_LEN] > 0:
        card = _pop_stock_nb(state)
        if card != Kind.RED3:
            _give_nb(state, seat, card, 1)
            return True
        state[Off.TEAM_RED3 + team] += 1
        if state[Off.STOCK_LEN] == 0 and params[Par.RED3_LAST_ENDS] != 0:
            end_hand_nb(state, End.RED3_LAST)
            return False
    return False


@njit(cache=True)
def _push_pile_nb(state, kind) -> None:
    state[Off.PILE + state[Off.PILE_LEN]] = kind
    state[Off.PILE_LEN] += 1
    state[Off.PILE_COUNTS + kind] += 1
    state[Off.PILE_TOP] = kind
    if kind == Kind.TWO or kind == Kind.JOKER or kind == Kind.RED3:
        state[Off.PILE_FREEZE] += 1


@njit(cache=True)
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
        end_hand_nb(state, End.EXHAUSTED)


@njit(cache=True)
def _next_turn_nb(state, params) -> None:
    state[Off.SEAT] = (state[Off.SEAT] + 1) % state[Off.N_SEATS]
    state[Off.TURN] += 1
    begin_turn_nb(state, params)


@njit(cache=True)
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
    deck : int8/int32[:], the deck as kinds, top first (deck[0] is dealt first)
    n_cards : int, cards in the deck (108 or 162)
    dealer : int, active seat of the dealer
    cum_scores : int32[:], shape (MAX_TEAMS,), cumulative scores before this hand
    """
    state[:] = 0
    n_seats = params[Par.N_ACTIVE]
    state[Off.N_SEATS] = n_seats
    state[Off.N_TEAMS] = params[Par.N_TEAMS]
    state[Off.DEALER] = dealer
    state[Off.WENT_OUT_SEAT] = -1
    state[Off.PILE_TOP] = -1
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
    hs = params[Par.HAND_SIZE]
    for _r in range(hs):
        for j in range(n_seats):
            seat = (dealer + 1 + j) % n_seats
            _give_nb(state, seat, _pop_stock_nb(state), 1)
    # the upcard: wild cards and red threes are covered until a natural card other than a red
    # three shows (they stay in the pile and freeze it)
    while state[Off.STOCK_LEN] > 0:
        card = _pop_stock_nb(state)
        _push_pile_nb(state, card)
        if card != Kind.TWO and card != Kind.JOKER and card != Kind.RED3:
            break
    if params[Par.UPCARD_FREEZES] == 0:
        state[Off.PILE_FREEZE] = 0
    # red threes dealt are laid and replaced, seat by seat from the left of the dealer
    for j in range(n_seats):
        seat = (dealer + 1 + j) % n_seats
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
    state[Off.SEAT] = (dealer + 1) % n_seats
    state[Off.TURN] = 0
    begin_turn_nb(state, params)


@njit(cache=True)
def _meld_cards_nb(state, params, seat, team, kind, nat, twos, jokers, from_hand_nat) -> None:
    """Move cards onto the team's meld of `kind`; `from_hand_nat` of the naturals come from the
    hand (the rest is the taken top card).  Tracks points towards the opening and canastas."""
    i = team * N_KINDS + kind
    before = state[Off.MELD_NAT + i] + state[Off.MELD_TWO + i] + state[Off.MELD_JOKER + i]
    state[Off.MELD_NAT + i] += nat
    state[Off.MELD_TWO + i] += twos
    state[Off.MELD_JOKER + i] += jokers
    h = Off.HANDS + seat * N_KINDS
    state[h + kind] -= from_hand_nat
    state[h + Kind.TWO] -= twos
    state[h + Kind.JOKER] -= jokers
    state[Off.HAND_SIZE + seat] -= from_hand_nat + twos + jokers
    state[Off.SEAT_MELDED + seat] = 1
    csize = params[Par.CANASTA_SIZE]
    if kind != Kind.BLACK3 and before < csize <= before + nat + twos + jokers:
        state[Off.CANASTAS_THIS_TURN] += 1
    if state[Off.TEAM_OPENED + team] == 0:
        state[Off.PENDING_VALUE] += (
            nat * params[Par.CARD_VALUE + kind]
            + twos * params[Par.CARD_VALUE + Kind.TWO]
            + jokers * params[Par.CARD_VALUE + Kind.JOKER]
        )
        if state[Off.PENDING_VALUE] >= state[Off.TEAM_MIN + team]:
            state[Off.TEAM_OPENED + team] = 1
            for k in range(N_KINDS):
                c = state[Off.ASIDE_COUNTS + k]
                if c > 0:
                    _give_nb(state, seat, k, c)
                    state[Off.ASIDE_COUNTS + k] = 0
            state[Off.ASIDE_LEN] = 0


@njit(cache=True)
def _went_out_nb(state, seat, with_discard) -> None:
    # a concealed going out below the minimum still put the team's melds down: it has melded
    state[Off.TEAM_OPENED + state[Off.TEAM_OF_SEAT + seat]] = 1
    state[Off.WENT_OUT_SEAT] = seat
    state[Off.WENT_OUT_DISCARD] = 1 if with_discard else 0
    if state[Off.MELDED_BEFORE] == 0 and state[Off.CANASTAS_THIS_TURN] > 0:
        state[Off.CONCEALED] = 1
    end_hand_nb(state, End.WENT_OUT)


@njit(cache=True)
def apply_action_nb(state: np.ndarray, params: np.ndarray, action: int) -> int:
    """Apply `action` for the seat to act.  Returns 0, or the `Why` code of an illegal action
    (the state is then unchanged)."""
    seat = state[Off.SEAT]
    hand_off = Off.HANDS + seat * N_KINDS
    why = why_illegal_nb(state, hand_off, params, action)
    if why != Why.OK:
        return why
    team = team_of_nb(state)
    state[Off.DECISIONS] += 1
    if action == Act.DRAW:
        for _ in range(params[Par.DRAW_COUNT]):
            if not draw_one_nb(state, params, seat):
                break
        if state[Off.PHASE] != Phase.OVER:
            state[Off.PHASE] = Phase.MELD
        return Why.OK
    if action == Act.DECLINE:
        end_hand_nb(state, End.EXHAUSTED)
        return Why.OK
    if action <= Act.TAKE_ONTO:
        top = state[Off.PILE_TOP]
        hand_nat = 2 if action == Act.TAKE_PAIR else (0 if action == Act.TAKE_ONTO else 1)
        twos = 1 if action == Act.TAKE_NAT_TWO else 0
        jokers = 1 if action == Act.TAKE_NAT_JOKER else 0
        # the rest of the pile (all but the top): red threes laid, the others to hand or aside
        state[Off.PILE_COUNTS + top] -= 1
        opened = state[Off.TEAM_OPENED + team] != 0
        for k in range(N_KINDS):
            c = state[Off.PILE_COUNTS + k]
            if c == 0:
                continue
            state[Off.PILE_COUNTS + k] = 0
            if k == Kind.RED3:
                state[Off.TEAM_RED3 + team] += c
            elif opened:
                _give_nb(state, seat, k, c)
            else:
                state[Off.ASIDE_COUNTS + k] += c
                state[Off.ASIDE_LEN] += c
        state[Off.PILE_LEN] = 0
        state[Off.PILE_FREEZE] = 0
        state[Off.PILE_TOP] = -1
        state[Off.TOOK_PILE] = 1
        state[Off.PILE_TAKES + team] += 1
        state[Off.PHASE] = Phase.MELD
        _meld_cards_nb(state, params, seat, team, top, hand_nat + 1, twos, jokers, hand_nat)
        if state[Off.HAND_SIZE + seat] == 0 and state[Off.ASIDE_LEN] == 0:
            _went_out_nb(state, seat, False)
        return Why.OK
    if action >= Act.DISCARD:
        kind = action - Act.DISCARD
        state[hand_off + kind] -= 1
        state[Off.HAND_SIZE + seat] -= 1
        _push_pile_nb(state, kind)
        state[Off.LAST_DISCARD + seat] = kind
        if state[Off.HAND_SIZE + seat] == 0:
            _went_out_nb(state, seat, True)
            return Why.OK
        _next_turn_nb(state, params)
        return Why.OK
    if action < Act.ADD_NAT:
        kind = (action - Act.MELD) // 3
        variant = (action - Act.MELD) % 3
        if variant == 0:
            _meld_cards_nb(state, params, seat, team, kind, 3, 0, 0, 3)
        elif variant == 1:
            _meld_cards_nb(state, params, seat, team, kind, 2, 1, 0, 2)
        else:
            _meld_cards_nb(state, params, seat, team, kind, 2, 0, 1, 2)
    elif action < Act.ADD_TWO:
        kind = action - Act.ADD_NAT
        _meld_cards_nb(state, params, seat, team, kind, 1, 0, 0, 1)
    elif action < Act.ADD_JOKER:
        _meld_cards_nb(state, params, seat, team, action - Act.ADD_TWO, 0, 1, 0, 0)
    else:
        _meld_cards_nb(state, params, seat, team, action - Act.ADD_JOKER, 0, 0, 1, 0)
    if state[Off.HAND_SIZE + seat] == 0 and state[Off.ASIDE_LEN] == 0:
        _went_out_nb(state, seat, False)
    return Why.OK


# ----------------------------------------------------------------------------- scoring

SCORE_ROWS = 8  # score, meld points, canasta bonus, red threes, going out, hand penalty, canastas, natural canastas


@njit(cache=True)
def score_hand_nb(state: np.ndarray, params: np.ndarray, out: np.ndarray) -> None:
    """Score a finished hand into out (int32, shape (SCORE_ROWS, MAX_TEAMS)): rows are total,
    meld points, canasta bonuses, red-three points, going-out bonus, cards-in-hand penalty,
    canastas, natural canastas."""
    out[:, :] = 0
    val = params[Par.CARD_VALUE : Par.CARD_VALUE + N_KINDS]
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
            melds += nat * val[k] + tw * val[Kind.TWO] + jk * val[Kind.JOKER]
            if FIRST_NATURAL <= k <= LAST_NATURAL and nat + tw + jk >= csize:
                ncan += 1
                if tw + jk == 0:
                    nnat += 1
                    bonus += params[Par.NATURAL_CANASTA]
                else:
                    bonus += params[Par.MIXED_CANASTA]
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
                    penalty += state[Off.HANDS + s * N_KINDS + k] * val[k]
        # cards still held aside (a failed opening cannot end a hand, but be exact)
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


@njit(cache=True)
def card_totals_nb(state: np.ndarray, out: np.ndarray) -> None:
    """Count every card of the hand by kind, wherever it is (hands, melds, red threes laid, pile,
    aside, stock) into out (int64, shape (N_KINDS,)): the accounting invariant."""
    out[:] = 0
    for s in range(state[Off.N_SEATS]):
        for k in range(N_KINDS):
            out[k] += state[Off.HANDS + s * N_KINDS + k]
    for t in range(state[Off.N_TEAMS]):
        out[Kind.RED3] += state[Off.TEAM_RED3 + t]
        for k in range(N_KINDS):
            i = t * N_KINDS + k
            out[k] += state[Off.MELD_NAT + i]
            out[Kind.TWO] += state[Off.MELD_TWO + i]
            out[Kind.JOKER] += state[Off.MELD_JOKER + i]
    for j in range(state[Off.PILE_LEN]):
        out[state[Off.PILE + j]] += 1
    for k in range(N_KINDS):
        out[k] += state[Off.ASIDE_COUNTS + k]
    for j in range(state[Off.STOCK_LEN]):
        out[state[Off.STOCK + state[Off.STOCK_POS] + j]] += 1
