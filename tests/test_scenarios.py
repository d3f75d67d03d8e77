"""Fixed-deck scenarios on the real engine: deal, draw, scoring, going out, red threes.

Every scenario uses a stacked deck (tests/deckbuilder.py), asserts exact cards, legality with
the exact reason and exact scores, and replays the actions through the independent referee
(`referee_agrees`).  Classic rules, four players, dealer 0 unless said otherwise: seat 1 (team 1)
moves first, then seats 2 (team 0), 3 (team 1), 0 (team 0).
"""

from __future__ import annotations

import numpy as np
import pytest
from deckbuilder import (
    assert_cards_conserved,
    burn,
    new_game,
    play,
    referee_agrees,
    stacked_deck,
    stock_after_deal,
)

from sim.enums import End, Off
from sim.game import GameState, IllegalActionError
from sim.legal import WHY_TEXT, Why
from sim.rules import RuleSet

CLASSIC = RuleSet.preset("classic")
GERMAN = RuleSet.preset("german")
FILL = "4 5 6 7 8 9 10 J Q K A"  # no pair; 100 points


def why(code: int) -> str:
    return WHY_TEXT[code]


def refused(gs, action: str, code: int) -> None:
    """The action is illegal for exactly this reason, and apply() refuses it unchanged."""
    assert gs.why_illegal(action) == why(code)
    before = gs.state.copy()
    with pytest.raises(IllegalActionError, match=why(code).split(":")[0][:40]):
        gs.apply(action)
    assert np.array_equal(before, gs.state)


def end_code(gs) -> int:
    return int(gs.state[Off.END_REASON])


# ============================================================================ deck builder


def test_deckbuilder_deals_exactly_the_requested_hands():
    text = stacked_deck(hands={1: "KS KH KD 6S 6H 6D 4C 5C 8C 9C JC"}, upcard="7H",
                        stock_top=["JK", "2C"], dealer=0)
    toks = text.split()
    assert len(toks) == 108
    assert toks[0:44:4] == "KS KH KD 6S 6H 6D 4C 5C 8C 9C JC".split()  # seat 1 first
    assert toks[44:47] == ["7H", "JK", "2C"]
    assert sorted(toks[-4:]) == ["3D", "3D", "3H", "3H"]  # red threes at the very end
    gs = GameState.new_hand(CLASSIC, deck=text, dealer=0)
    assert gs.hand(1) == ["K", "K", "K", "J", "9", "8", "6", "6", "6", "5", "4"]
    for s in (0, 2, 3):
        assert gs.hand(s) == ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4"]


# ============================================================================ deal


@pytest.mark.parametrize("players,size,active", [(2, 15, 2), (3, 13, 3), (4, 11, 4), (5, 11, 4), (6, 13, 6)])
def test_deal_hand_sizes(players, size, active):
    rules = RuleSet.preset("classic", players=players)
    gs = new_game(rules)
    assert gs.n_seats == active
    assert [len(gs.hand(s)) for s in range(active)] == [size] * active
    assert gs.stock_size == stock_after_deal(players) == rules.decks * 54 - active * size - 1
    assert len(gs.deck) == (162 if players == 6 else 108)
    assert gs.pile() == ["4"] and not gs.pile_frozen
    assert gs.seat == 1  # left of dealer 0


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_first_player_is_left_of_dealer_and_deal_starts_there(dealer):
    first = (dealer + 1) % 4
    gs = new_game(dealer=dealer, hands={first: "A A A K K K Q Q Q J J"})
    assert gs.seat == first
    assert gs.hand(first) == ["A", "A", "A", "K", "K", "K", "Q", "Q", "Q", "J", "J"]


def test_upcard_wild_and_red_three_are_covered_and_freeze_the_pile():
    gs = new_game(upcard=["JK", "3H", "2C", "7H"], stock_top=["9S"])
    assert gs.pile() == ["JK", "R3", "2", "7"]
    assert gs.pile_top == 5 and gs.pile_frozen  # kind 5 = seven
    assert int(gs.state[Off.PILE_FREEZE]) == 3
    assert gs.stock_size == 108 - 44 - 4
    assert gs.red_threes(0) == gs.red_threes(1) == 0  # an upcard red three belongs to nobody yet
    play(gs, "draw")
    assert "9" in gs.hand(1)
    referee_agrees(gs)
    # upcard_freezes off: the same deal, the pile starts unfrozen
    gs2 = new_game(CLASSIC.replace(upcard_freezes=False), upcard=["JK", "3H", "2C", "7H"])
    assert gs2.pile() == ["JK", "R3", "2", "7"] and not gs2.pile_frozen


def test_dealt_red_threes_are_laid_and_replaced_also_by_a_red_three():
    # seat 1 (team 1) holds a red three; its replacement is a red three, replaced by 9S;
    # seat 0 (team 0) holds two red threes, replaced by QS and KS (replacements after the upcard)
    gs = new_game(hands={1: "3D A A A K K K Q Q Q J", 0: "3H 3D 4 5 6 7 8 9 10 J Q"},
                  upcard="7H", stock_top=["3H", "9S", "QS", "KS", "5S"])
    assert gs.red_threes(1) == 2 and gs.red_threes(0) == 2
    assert gs.hand(1) == ["A", "A", "A", "K", "K", "K", "Q", "Q", "Q", "J", "9"]
    assert gs.hand(0) == ["K", "Q", "Q", "J", "10", "9", "8", "7", "6", "5", "4"]
    assert gs.stock_size == 108 - 44 - 1 - 4
    assert gs.pile() == ["7"]
    assert "5" in play(gs, "draw").hand(1)
    referee_agrees(gs)


# ============================================================================ draw, red threes


def test_red_three_drawn_is_laid_and_replaced():
    gs = new_game(stock_top=["3D", "9S"])
    n = gs.stock_size
    play(gs, "draw")
    assert gs.red_threes(1) == 1
    assert gs.hand(1).count("9") == 2 and len(gs.hand(1)) == 12
    assert gs.stock_size == n - 2
    referee_agrees(gs)


def test_red_three_as_last_stock_card_ends_the_hand_all_four_800_minus():
    # the rest of the stock ends with the four red threes: one draw lays all four, the last of
    # them is the last stock card -> the hand ends at once; nobody opened -> -800, no bonus
    gs = new_game()
    burn(gs, until_stock=5)  # ... J, JK? the filler order ends: twos, jokers, red threes
    seat, team = gs.seat, gs.team
    play(gs, "draw")
    assert gs.stock_size == 4
    play(gs, "discard " + gs.hand(seat)[0])
    # next player draws: red three, red three, red three, red three = the last card
    drawer = gs.seat
    play(gs, "draw")
    assert gs.is_over and end_code(gs) == End.RED3_LAST
    assert gs.stock_size == 0
    t = gs.team
    assert gs.red_threes(t) == 4
    bd = referee_agrees(gs)
    assert bd["red3_points"][t] == -800
    assert bd["go_out_bonus"] == [0, 0]
    assert (seat, team, drawer) is not None


# ============================================================================ scoring
