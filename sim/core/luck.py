"""Chance terms of a hand: what the cards gave each team beyond their expectation.

For a luck-adjusted estimate of a strategy's edge (reports/luck.py), every chance event gets a
term = feature of its outcome minus the feature's expectation over the outcomes possible at
that moment (in the spirit of AIVAT, Burch et al. 2018).  Given everything before the event
the term has mean zero, whatever the strategies did before or do after; so any fixed linear
combination of the summed terms can be subtracted from a hand's result without bias.  Terms
that the players' own choices influence after the fact (e.g. red threes held at the end) are
never used: they bias the estimate.

Chance events used:
- each stock card drawn by a seat (also the replacement of a red three): its kind and how it
  fits the drawer's cards at that moment (a rank the drawer's team has melded; a rank the
  drawer holds one or two of; the cards in the team's unfinished meld of the rank; a meld of
  5-6 it brings closer to a canasta; a canasta the drawer could complete with it; a pair the
  team holds between its hands; a wild card while the team has melds of 5-6; a red three while
  the team has laid some), each the drawn card's value of the feature minus the value averaged
  over the cards left in the stock; the same terms again multiplied by whether the team has
  opened, by the share of the pack left in the stock, by the pile's size and by whether another
  team has opened (all known before the draw, so the products keep mean zero);
- the deal: jokers, twos, red threes and black threes dealt to the team's seats, minus
  hand size x seats x the kind's share of the pack.

The stock's kind counts (`Off.STOCK_KINDS`) and the terms (`Off.LUCK`, fixed point) live in the
private part of the state and are kept only while `Off.LUCK_ON` is set, so ordinary play pays
one branch per drawn card.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.core.enums import FIRST_NATURAL, LAST_NATURAL, LUCK_SCALE, N_KINDS, N_LUCK, Kind, Luck, Off
from sim.core.readers import code_kind_nb


@njit(cache=True, _nrt=False, inline="always")
def _floor_div_nb(num: int, den: int) -> np.int64:
    """num // den for den > 0 and |num| < 2**40, through one float division: the integer
    division it replaces (with Python's rounding towards minus infinity and the zero check) was the
    largest cost of a draw's terms.  Exact: a quotient that is not an integer lies at least 1/den
    from the nearest one, far more than the division's rounding error (< |num / den| 2**-53)."""
    return np.int64(np.floor(np.float64(num) / np.float64(den)))


@njit(cache=True, _nrt=False, inline="always")
def _term_nb(hit: int, matching: int, stock_len: int) -> int:
    """LUCK_SCALE x (hit - matching / stock_len), rounded to the nearest integer.

    hit : 1 when the drawn card has the feature, else 0
    matching : cards with the feature left in the stock before the draw (the drawn one included)
    """
    num = 2 * LUCK_SCALE * (hit * stock_len - matching) + stock_len
    return _floor_div_nb(num, 2 * stock_len)


@njit(cache=True, _nrt=False)
def _add_term_nb(state: np.ndarray, base: int, index: int, term: int, ctx: tuple) -> None:
    """Add one block-0 term and its copies times the draw's context (Luck.OPENED_BLOCK ..
    THEIRS_BLOCK); ctx = (opened, stock_len, pack, pile, theirs) from `_context_nb`."""
    opened, stock_len, pack, pile, theirs = ctx
    state[base + index] += term
    if opened:
        state[base + Luck.OPENED_BLOCK + index] += term
    state[base + Luck.EARLY_BLOCK + index] += _floor_div_nb(term * stock_len, pack)
    state[base + Luck.PILE_BLOCK + index] += (term * pile) // 8
    if theirs:
        state[base + Luck.THEIRS_BLOCK + index] += term


@njit(cache=True, _nrt=False)
def _context_nb(state: np.ndarray, team: int) -> tuple:
    """What the blocks multiply a draw's terms by, all known before the draw."""
    theirs = False
    for t in range(state[Off.N_TEAMS]):
        if t != team and state[Off.TEAM_OPENED + t] != 0:
            theirs = True
    stock_len = state[Off.STOCK_LEN]
    pack = stock_len + state[Off.STOCK_POS]  # cards in play this hand (pops count from 0)
    return (
        state[Off.TEAM_OPENED + team] != 0,
        stock_len,
        pack,
        min(state[Off.PILE_LEN], 24),
        theirs,
    )


@njit(cache=True, _nrt=False, inline="always")
def _meld_size_nb(state: np.ndarray, team: int, kind: int) -> int:
    """Cards in the team's open meld of `kind` (naturals and wild cards)."""
    at = team * N_KINDS + kind
    return state[Off.MELD_NAT + at] + state[Off.MELD_TWO + at] + state[Off.MELD_JOKER + at]


@njit(cache=True, _nrt=False)
def luck_draw_nb(state: np.ndarray, seat: int, code: int) -> None:
    """Add the terms of `seat` drawing `code` from the stock; call before the card leaves it.

    Parameters
    ----------
    state : int32[STATE_SIZE]  with Off.STOCK_KINDS counting the stock before this draw
    seat : int  active seat that draws
    code : int  card code drawn (kind | suit << 4)
    """
    stock_len = state[Off.STOCK_LEN]
    if stock_len <= 0:
        return
    kind = code_kind_nb(code)
    team = state[Off.TEAM_OF_SEAT + seat]
    ctx = _context_nb(state, team)
    stock = Off.STOCK_KINDS
    base = Off.LUCK + team * N_LUCK
    # every kind but the last: the kind terms of a draw sum to exactly zero, so the last one
    # would only add the rounding noise of the others (a direction a regression can blow up)
    for k in range(N_KINDS - 1):
        _add_term_nb(
            state, base, Luck.DRAW_KIND + k, _term_nb(kind == k, state[stock + k], stock_len), ctx
        )
    melds = Off.MELD_NAT + team * N_KINDS
    hand = Off.HANDS + seat * N_KINDS
    # per feature: the drawn card's weight (w) and the stock's total weight (m)
    m_melded = m_pairs = m_trips = m_size = m_near = m_done = m_team = 0
    w_melded = w_pairs = w_trips = w_size = w_near = w_done = w_team = 0
    n_near = 0  # the team's unfinished melds of 5-6 cards (a wild card may bring them closer)
    for k in range(FIRST_NATURAL, LAST_NATURAL + 1):
        size = _meld_size_nb(state, team, k)
        held = 0
        for s in range(state[Off.N_SEATS]):
            if state[Off.TEAM_OF_SEAT + s] == team:
                held += state[Off.HANDS + s * N_KINDS + k]
        f_melded = 1 if state[melds + k] > 0 else 0
        f_pairs = 1 if state[hand + k] >= 1 else 0
        f_trips = 1 if state[hand + k] >= 2 else 0
        f_size = size if size < 7 else 0
        f_near = 1 if 5 <= size < 7 else 0
        f_done = 1 if 0 < size < 7 and size + state[hand + k] + 1 >= 7 else 0
        f_team = 1 if held >= 2 else 0
        n_near += f_near
        n = state[stock + k]
        m_melded += n * f_melded
        m_pairs += n * f_pairs
        m_trips += n * f_trips
        m_size += n * f_size
        m_near += n * f_near
        m_done += n * f_done
        m_team += n * f_team
        if k == kind:
            w_melded, w_pairs, w_trips, w_size = f_melded, f_pairs, f_trips, f_size
            w_near, w_done, w_team = f_near, f_done, f_team
    add = _add_term_nb
    add(state, base, Luck.DRAW_MELDED, _term_nb(w_melded, m_melded, stock_len), ctx)
    add(state, base, Luck.DRAW_PAIRS, _term_nb(w_pairs, m_pairs, stock_len), ctx)
    add(state, base, Luck.DRAW_TRIPS, _term_nb(w_trips, m_trips, stock_len), ctx)
    add(state, base, Luck.DRAW_MELD_SIZE, _term_nb(w_size, m_size, stock_len), ctx)
    add(state, base, Luck.DRAW_NEAR, _term_nb(w_near, m_near, stock_len), ctx)
    add(state, base, Luck.DRAW_COMPLETES, _term_nb(w_done, m_done, stock_len), ctx)
    add(state, base, Luck.DRAW_TEAM_PAIR, _term_nb(w_team, m_team, stock_len), ctx)
    wild = 1 if kind == Kind.JOKER or kind == Kind.TWO else 0
    wilds = state[stock + Kind.JOKER] + state[stock + Kind.TWO]
    add(state, base, Luck.DRAW_WILD_NEAR, _term_nb(wild * n_near, wilds * n_near, stock_len), ctx)
    red3s = state[Off.TEAM_RED3 + team]
    add(
        state,
        base,
        Luck.DRAW_RED3_HELD,
        _term_nb(red3s if kind == Kind.RED3 else 0, state[stock + Kind.RED3] * red3s, stock_len),
        ctx,
    )


@njit(cache=True, _nrt=False)
def luck_count_stock_nb(state: np.ndarray, deck: np.ndarray, n_cards: int) -> None:
    """Off.STOCK_KINDS = the kinds of the whole pack, before the deal.

    deck : int32[>= n_cards] card codes of the shuffled pack
    """
    for k in range(N_KINDS):
        state[Off.STOCK_KINDS + k] = 0
    for i in range(n_cards):
        state[Off.STOCK_KINDS + code_kind_nb(deck[i])] += 1


@njit(cache=True, _nrt=False)
def luck_deal_nb(state: np.ndarray, hand_size: int, n_cards: int) -> None:
    """Add the deal's terms: call right after the hands are dealt (before the upcard and the
    replacement of red threes), with Off.STOCK_KINDS counting the stock left after the deal."""
    n_seats = state[Off.N_SEATS]
    for team in range(state[Off.N_TEAMS]):
        n_team_seats = 0
        for s in range(n_seats):
            n_team_seats += state[Off.TEAM_OF_SEAT + s] == team
        dealt = hand_size * n_team_seats
        base = Off.LUCK + team * N_LUCK
        for feature, kind in (
            (Luck.DEAL_JOKERS, Kind.JOKER),
            (Luck.DEAL_TWOS, Kind.TWO),
            (Luck.DEAL_RED3, Kind.RED3),
            (Luck.DEAL_BLACK3, Kind.BLACK3),
        ):
            held = 0
            pack = state[Off.STOCK_KINDS + kind]
            for s in range(n_seats):
                pack += state[Off.HANDS + s * N_KINDS + kind]
                if state[Off.TEAM_OF_SEAT + s] == team:
                    held += state[Off.HANDS + s * N_KINDS + kind]
            # LUCK_SCALE x (held - dealt x pack / n_cards), rounded
            num = 2 * LUCK_SCALE * (held * n_cards - dealt * pack) + n_cards
            state[base + feature] += num // (2 * n_cards)
