"""Fixed-deck scenarios on the real engine: deal, draw, scoring, going out, red threes.

Every scenario uses a stacked deck (tests/deckbuilder.py), asserts exact cards, legality with
the exact reason and exact scores, and replays the actions through the independent referee
(`referee_agrees`).  Classic rules, four players, dealer 0 unless said otherwise: seat 1 (team 1)
moves first, then seats 2 (team 0), 3 (team 1), 0 (team 0).
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from deckbuilder import (
    burn,
    new_game,
    play,
    referee_agrees,
    stacked_deck,
    stock_after_deal,
)

from sim.core.enums import End, Off
from sim.core.legal import WHY_TEXT, Why
from sim.core.rules import RuleSet
from sim.play.game import GameState, IllegalActionError

CLASSIC = RuleSet.preset("classic")
GERMAN = RuleSet.preset("german")
FILL = "4 5 6 7 8 9 10 J Q K A"  # no pair; 100 points


VALUE = {
    "JK": 50,
    "2": 20,
    "A": 20,
    "K": 10,
    "Q": 10,
    "J": 10,
    "10": 10,
    "9": 10,
    "8": 10,
    "7": 5,
    "6": 5,
    "5": 5,
    "4": 5,
    "3": 5,
}  # docs/RULES.md section 1


def points(cards: list[str]) -> int:
    return sum(VALUE[c] for c in cards)


def why(code: int) -> str:
    return WHY_TEXT[code]


def refused(gs, action: str, code: int) -> None:
    """The action is illegal for exactly this reason, and apply() refuses it unchanged."""
    assert gs.why_illegal(action) == why(code)
    before = gs.state.copy()
    with pytest.raises(IllegalActionError, match=re.escape(why(code))):
        gs.apply(action)
    assert np.array_equal(before, gs.state)


def end_code(gs) -> int:
    return int(gs.state[Off.END_REASON])


# ============================================================================ deck builder


def test_deckbuilder_deals_exactly_the_requested_hands():
    text = stacked_deck(
        hands={1: "KS KH KD 6S 6H 6D 4C 5C 8C 9C JC"}, upcard="7H", stock_top=["JK", "2C"], dealer=0
    )
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


@pytest.mark.parametrize(
    "players,size,active", [(2, 15, 2), (3, 13, 3), (4, 11, 4), (5, 11, 4), (6, 13, 6)]
)
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
    gs = new_game(
        hands={1: "3D A A A K K K Q Q Q J", 0: "3H 3D 4 5 6 7 8 9 10 J Q"},
        upcard="7H",
        stock_top=["3H", "9S", "QS", "KS", "5S"],
    )
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
    burn(gs, until_stock=4)  # everybody draws and discards; the stock is now 3D 3D 3H 3H
    assert gs.seat == 0 and gs.hand(0) == FILL.split()[::-1]
    play(gs, "draw")
    assert gs.is_over and end_code(gs) == End.RED3_LAST
    assert gs.stock_size == 0
    assert gs.red_threes(0) == 4 and gs.red_threes(1) == 0
    assert gs.hand(0) == FILL.split()[::-1]  # nothing drawn besides the red threes
    bd = referee_agrees(gs)
    assert bd["red3_points"] == [-800, 0]
    assert bd["go_out_bonus"] == [0, 0]
    assert bd["meld_points"] == [0, 0]
    assert bd["hand_penalty"] == [200, 200]
    assert bd["score"] == [-1000, -200]


def test_red_three_last_card_with_rule_off_does_not_end_the_hand_there():
    gs = new_game(CLASSIC.replace(red_three_last_ends=False))
    burn(gs, until_stock=4)
    play(gs, "draw")
    assert not gs.is_over and gs.red_threes(0) == 4 and gs.stock_size == 0


# ============================================================================ scoring


def full_hand_game():
    """Seat 1 opens (Q Q Q + JK = 80), seat 2 opens team 0 (A A A), seat 3 completes a mixed
    canasta of queens (Q Q Q JK + Q Q 2), seat 1 goes out with a natural canasta of kings and
    a final discard.  Red threes: seat 3 (team 1) and seat 0 (team 0) one each, replaced by J
    and A."""
    return new_game(
        hands={
            1: "Q Q Q JK K K K K K K 9",
            2: "A A A 4 5 6 7 8 9 10 J",
            3: "3D Q Q 2 4 5 6 7 8 9 10",
            0: "3H 4 5 6 7 8 9 10 J Q K",
        },
        upcard="7H",
        stock_top=["J", "A", "5", "Q", "A", "9", "K"],
    )


def test_full_hand_scoring_going_out():
    gs = full_hand_game()
    assert gs.red_threes(0) == gs.red_threes(1) == 1
    assert gs.hand(3) == ["2", "Q", "Q", "J", "10", "9", "8", "7", "6", "5", "4"]
    play(gs, "draw", "meld Q Q Q")
    assert not gs.team_opened(1)
    refused(gs, "discard 5", Why.OPENING)  # 30 < 50 laid: no discard
    play(gs, "add JK to Qs")
    assert gs.team_opened(1)
    play(gs, "discard 5")
    assert gs.hand(1) == ["K"] * 6 + ["9"]
    play(gs, "draw", "meld A A A", "discard Q")  # seat 2
    assert gs.team_opened(0)
    play(gs, "draw", "add Q to Qs", "add Q to Qs", "add 2 to Qs", "discard A")  # seat 3
    assert gs.melds(1) == {"Q": (5, 1, 1)}
    play(gs, "draw", "discard 9")  # seat 0
    play(gs, "draw", "meld K K K")  # seat 1 draws the seventh king
    for _ in range(4):
        play(gs, "add K to Ks")
    assert gs.hand(1) == ["9"] and not gs.is_over
    play(gs, "discard 9")  # the last card: out with a discard
    assert gs.is_over and end_code(gs) == End.WENT_OUT
    assert not gs.state[Off.CONCEALED]
    bd = referee_agrees(gs)
    # team 1: melds Q 5*10+20+50=120, K 70 -> 190; natural 500 + mixed 300; red three +100;
    # going out 100; seat 3 holds 4 5 6 7 8 9 10 J = 4*5 + 4*10 = 60
    assert bd["meld_points"] == [60, 190]
    assert bd["canasta_bonus"] == [0, 800]
    assert bd["canastas"] == [0, 2] and bd["natural_canastas"] == [0, 1]
    assert bd["red3_points"] == [100, 100]
    assert bd["go_out_bonus"] == [0, 100]
    # team 0: seat 2 holds 4..J (60), seat 0 holds 4..K + A (100): both partners count
    assert bd["hand_penalty"] == [160, 60]
    assert bd["score"] == [0, 1130]


def test_card_values_in_meld_points():
    # meld points = card values: JK 50, 2 20, A 20, K..8 10, 7..4 5, black three 5
    gs = new_game(hands={1: "A A JK 2 8 8 7 7 4 4 4"}, stock_top=["9"])
    play(gs, "draw", "meld A A JK")
    assert int(gs.state[Off.PENDING_VALUE]) == 90 and gs.team_opened(1)
    play(gs, "meld 8 8 2", "meld 4 4 4", "discard 7")
    assert gs.score_breakdown()["meld_points"] == [0, 90 + 40 + 15]


# ============================================================================ going out


def test_going_out_needs_a_canasta_keep_two_cards():
    gs = new_game(hands={1: "K K K Q Q Q J J J J J"}, stock_top=["9"])
    play(gs, "draw", "meld K K K", "meld Q Q Q", "meld J J J", "add J to Js")
    assert gs.hand(1) == ["J", "9"]
    refused(gs, "add J to Js", Why.KEEP_CARDS)
    assert "add J to Js" not in gs.legal_texts()
    referee_agrees(gs)


def test_going_out_with_a_final_discard_after_opening_earlier():
    gs = new_game(hands={1: "K K K K K K 6 6 6 6 9"}, stock_top=["5", "4", "5", "7", "K"])
    play(gs, "draw", "meld K K K", "meld 6 6 6", "add 6 to 6s", "discard 5")  # 50: opened
    burn(gs, until_stock=gs.stock_size - 3)  # seats 2, 3, 0
    play(gs, "draw")  # the seventh king
    for _ in range(3):
        play(gs, "add K to Ks")
    assert gs.hand(1) == ["K", "9"]
    play(gs, "add K to Ks")  # canasta completed: now a single card may be kept
    assert gs.hand(1) == ["9"]
    play(gs, "discard 9")
    assert gs.is_over and end_code(gs) == End.WENT_OUT and not gs.state[Off.CONCEALED]
    bd = referee_agrees(gs)
    assert bd["go_out_bonus"] == [0, 100]
    assert bd["meld_points"] == [0, 70 + 20]
    assert bd["canasta_bonus"] == [0, 500]
    # eight kings in two packs: seat 0's padding got the last one, seats 2 and 3 a pair instead
    assert gs.hand(0) == ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4"]  # 100
    assert gs.hand(2) == ["A", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "4"]  # 95
    assert gs.hand(3) == ["A", "Q", "J", "10", "9", "8", "8", "7", "6", "5", "4"]  # 100
    assert bd["hand_penalty"] == [100 + 95, 100]
    assert bd["score"] == [-195, 90 + 500 + 100 - 100]


@pytest.mark.parametrize("rules,bonus", [(CLASSIC, 100), (GERMAN, 200)])
def test_going_out_without_a_discard_bonus(rules, bonus):
    # turn 1: K K K + 6 6 6 + 6 = 50 opens; turn 5: the eighth king, five kings added: out
    gs = new_game(rules, hands={1: "K K K K K K 6 6 6 6 9"}, stock_top=["K", "4", "5", "7", "K"])
    play(gs, "draw", "meld K K K", "meld 6 6 6", "add 6 to 6s", "discard 9")
    burn(gs, until_stock=gs.stock_size - 3)
    play(gs, "draw")
    assert gs.hand(1) == ["K"] * 5
    for _ in range(5):
        play(gs, "add K to Ks")
    assert gs.is_over and end_code(gs) == End.WENT_OUT and not gs.state[Off.CONCEALED]
    bd = referee_agrees(gs)
    assert bd["go_out_bonus"] == [0, bonus]
    assert bd["meld_points"] == [0, 80 + 20] and bd["canasta_bonus"] == [0, 500]


def test_going_out_with_a_discard_german_bonus_100():
    gs = new_game(GERMAN, hands={1: "K K K K K K 6 6 6 6 9"}, stock_top=["5", "4", "5", "7", "K"])
    play(gs, "draw", "meld K K K", "meld 6 6 6", "add 6 to 6s", "discard 5")
    burn(gs, until_stock=gs.stock_size - 3)
    play(gs, "draw", "add K to Ks", "add K to Ks", "add K to Ks", "add K to Ks", "discard 9")
    bd = referee_agrees(gs)
    assert bd["go_out_bonus"] == [0, 100]


CONCEALED_HAND = {1: "K K K K K K 6 6 6 6 9"}


@pytest.mark.parametrize(
    "rules,cum,bonus", [(CLASSIC, 0, 200), (CLASSIC, 3000, 200), (GERMAN, 0, 1000)]
)
def test_concealed_going_out_needs_no_minimum(rules, cum, bonus):
    # 7 kings + 4 sixes = 90 points: below the 120 minimum at 3,000, still a concealed going out
    gs = new_game(rules, cum=[0, cum], hands=CONCEALED_HAND, stock_top=["K"])
    assert int(gs.state[Off.TEAM_MIN + 1]) == (120 if cum == 3000 else 50)
    play(gs, "draw", "meld K K K", "add K to Ks", "add K to Ks", "add K to Ks")
    if cum == 3000:
        refused(gs, "discard 9", Why.OPENING)  # 60 laid < 120 and not going out
    play(gs, "add K to Ks", "meld 6 6 6", "add 6 to 6s")
    assert gs.hand(1) == ["9"]
    play(gs, "discard 9")
    assert gs.is_over and gs.state[Off.CONCEALED] == 1
    bd = referee_agrees(gs)
    assert bd["go_out_bonus"] == [0, bonus]
    assert bd["hand_penalty"][1] == points(gs.hand(3)) == 95  # seat 3: A Q J 10 9 8 7 6 5 4 4
    assert bd["score"][1] == 90 + 500 + bonus - 95


def test_concealed_going_out_after_taking_the_pile_needs_the_minimum():
    # the upcard king is taken with a pair: allowed at minimum 50 (90 points), not at 120
    deck = dict(hands=CONCEALED_HAND, upcard="KH")
    gs = new_game(cum=[0, 3000], **deck)
    refused(gs, "take K K", Why.OPENING)
    gs = new_game(cum=[0, 0], **deck)
    play(gs, "take K K")
    assert gs.melds(1) == {"K": (3, 0, 0)} and gs.pile() == []
    play(
        gs,
        "add K to Ks",
        "add K to Ks",
        "add K to Ks",
        "add K to Ks",
        "meld 6 6 6",
        "add 6 to 6s",
        "discard 9",
    )
    assert gs.is_over and gs.state[Off.CONCEALED] == 1
    bd = referee_agrees(gs)
    assert bd["go_out_bonus"] == [0, 200]


def test_black_threes_melded_only_when_going_out():
    gs = new_game(hands={1: "K K K K K K 3C 3S 3C 9 8"}, stock_top=["K", "4", "5", "7", "3S"])
    play(gs, "draw", "meld K K K", "add K to Ks", "add K to Ks", "add K to Ks", "add K to Ks")
    assert gs.hand(1) == ["9", "8", "3", "3", "3"]
    refused(gs, "meld 3 3 3", Why.BLACK3)  # two other cards would stay
    play(gs, "discard 8")
    burn(gs, until_stock=gs.stock_size - 3)
    play(gs, "draw")  # the fourth black three
    assert gs.hand(1) == ["9", "3", "3", "3", "3"]
    assert "meld 3 3 3" in gs.legal_texts()
    play(gs, "meld 3 3 3")
    # a discard now would leave a card in hand with black threes melded: only the fourth three
    assert gs.legal_texts() == ["add 3 to 3s"]
    play(gs, "add 3 to 3s", "discard 9")
    assert gs.is_over and end_code(gs) == End.WENT_OUT
    bd = referee_agrees(gs)
    assert bd["meld_points"] == [0, 70 + 4 * 5]
    assert bd["canastas"] == [0, 1]  # a black-three meld is never a canasta
    assert bd["go_out_bonus"] == [0, 100]


def test_black_three_meld_takes_no_wild_card():
    gs = new_game(hands={1: "K K K K K K K 3C 3S 2 2"}, stock_top=["3C"])
    play(gs, "draw", "meld K K K", "add K to Ks", "add K to Ks", "add K to Ks", "add K to Ks")
    assert gs.hand(1) == ["2", "2", "3", "3", "3"]
    refused(gs, "meld 3 3 3", Why.BLACK3)  # the two twos would stay
    play(gs, "add 2 to Ks")
    refused(gs, "meld 3 3 2", Why.BLACK3)
    play(gs, "meld 3 3 3")
    refused(gs, "add 2 to 3s", Why.BLACK3)
    assert gs.legal_texts() == ["discard 2"]  # melding on after the black threes is over
    play(gs, "discard 2")
    bd = referee_agrees(gs)
    assert bd["meld_points"] == [0, 70 + 20 + 15] and bd["canasta_bonus"] == [0, 300]
    assert bd["go_out_bonus"] == [0, 200]  # concealed


# ============================================================================ red threes


def test_red_threes_german_count_plus_only_with_a_canasta():
    # the full hand above under German billing: team 0 opened but has no canasta -> -100
    gs = new_game(
        GERMAN,
        hands={
            1: "Q Q Q JK K K K K K K 9",
            2: "A A A 4 5 6 7 8 9 10 J",
            3: "3D Q Q 2 4 5 6 7 8 9 10",
            0: "3H 4 5 6 7 8 9 10 J Q K",
        },
        upcard="7H",
        stock_top=["J", "A", "5", "Q", "A", "9", "K"],
    )
    play(
        gs,
        "draw",
        "meld Q Q Q",
        "add JK to Qs",
        "discard 5",
        "draw",
        "meld A A A",
        "discard Q",
        "draw",
        "add Q to Qs",
        "add Q to Qs",
        "add 2 to Qs",
        "discard A",
        "draw",
        "discard 9",
        "draw",
        "meld K K K",
        "add K to Ks",
        "add K to Ks",
        "add K to Ks",
        "add K to Ks",
        "discard 9",
    )
    bd = referee_agrees(gs)
    assert bd["red3_points"] == [-100, 100]
    assert bd["score"] == [60 - 100 - 160, 1130]


def test_red_threes_minus_for_a_team_that_did_not_open():
    gs = new_game(
        hands={1: "K K K K K K 6 6 6 6 9", 2: "3D 3H 4 5 6 7 8 9 10 J Q"}, stock_top=["A", "K", "K"]
    )
    assert gs.red_threes(0) == 2
    play(
        gs,
        "draw",
        "meld K K K",
        "add K to Ks",
        "add K to Ks",
        "add K to Ks",
        "add K to Ks",
        "meld 6 6 6",
        "add 6 to 6s",
        "discard 9",
    )
    bd = referee_agrees(gs)
    assert bd["red3_points"] == [-200, 0]
    assert bd["meld_points"][0] == 0


def test_black_three_meld_forces_going_out_this_turn():
    gs = new_game(hands={1: "K K K K K K 3C 3S 3C 9 8"}, stock_top=["K", "4", "5", "7", "3S"])
    play(
        gs,
        "draw",
        "meld K K K",
        "add K to Ks",
        "add K to Ks",
        "add K to Ks",
        "add K to Ks",
        "discard 8",
    )
    burn(gs, until_stock=gs.stock_size - 3)
    play(gs, "draw", "meld 3 3 3")
    assert gs.hand(1) == ["9", "3"]
    # only "add 3 to 3s" (then discard 9) goes out; a discard now leaves a card in hand
    assert gs.why_illegal("discard 9") is not None
    assert gs.why_illegal("discard 3") is not None
    play(gs, "add 3 to 3s", "discard 9")
    assert gs.is_over and gs.end_reason == "went out"
    referee_agrees(gs)


# ============================================================================ six players


SIX = RuleSet.preset("classic", players=6)


def test_six_players_three_packs_two_canastas_to_go_out():
    rules = SIX
    assert rules.decks == 3 and rules.canastas_to_go_out == 2
    deal = dict(hands={0: "K K K K K K K Q Q Q Q Q Q"}, stock_top=["9", "Q"])
    gs = new_game(rules, dealer=5, **deal)
    assert len(gs.deck) == 162 and int(np.sum(gs.deck == 13)) == 6  # six jokers
    assert gs.seat == 0 and gs.stock_size == 162 - 78 - 1
    play(gs, "draw", "meld K K K", "add K to Ks", "add K to Ks", "add K to Ks", "add K to Ks")
    play(gs, "meld Q Q Q", "add Q to Qs", "add Q to Qs")
    assert gs.hand(0) == ["Q", "9"]
    refused(gs, "add Q to Qs", Why.KEEP_CARDS)  # one canasta is not enough with six players
    referee_agrees(gs)
    # four players: the same line goes out with one canasta
    gs4 = new_game(hands={1: "K K K K K K K Q Q Q Q"}, stock_top=["9"])
    play(
        gs4,
        "draw",
        "meld K K K",
        "add K to Ks",
        "add K to Ks",
        "add K to Ks",
        "add K to Ks",
        "meld Q Q Q",
        "add Q to Qs",
        "discard 9",
    )
    assert gs4.is_over
    referee_agrees(gs4)


@pytest.mark.parametrize("team1_red3,red3_points", [(0, [1200, 0]), (1, [1000, -100])])
def test_six_players_red_three_table(team1_red3, red3_points):
    # seats 2 and 4 (team 0 with seat 0) hold red threes; seat 0 goes out concealed with two
    # canastas (7 kings, 7 queens)
    r3_team0 = 6 - team1_red3
    hands = {
        0: "K K K K K K K Q Q Q Q Q Q",
        2: " ".join(["R3"] * 3),
        4: " ".join(["R3"] * (r3_team0 - 3)),
    }
    if team1_red3:
        hands[1] = "R3"
    gs = new_game(SIX, dealer=5, hands=hands, stock_top=["5"] * 6 + ["Q"])
    assert gs.red_threes(0) == r3_team0 and gs.red_threes(1) == team1_red3
    play(
        gs,
        "draw",
        "meld K K K",
        "add K to Ks",
        "add K to Ks",
        "add K to Ks",
        "add K to Ks",
        "meld Q Q Q",
        "add Q to Qs",
        "add Q to Qs",
        "add Q to Qs",
        "add Q to Qs",
    )
    assert gs.is_over and gs.state[Off.CONCEALED] == 1
    bd = referee_agrees(gs)
    assert bd["red3_points"] == red3_points
    assert bd["canasta_bonus"] == [1000, 0] and bd["go_out_bonus"] == [200, 0]
    assert bd["score"][0] == 140 + 1000 + red3_points[0] + 200 - points(gs.hand(2) + gs.hand(4))
