"""Fixed-deck scenarios: the initial meld, taking the pile, melds, the exhausted stock.

Classic rules, four players, dealer 0: seat 1 (team 1) moves first, then seats 2 (team 0),
3 (team 1), 0 (team 0).  See tests/test_scenarios.py for the helpers' conventions.
"""

from __future__ import annotations

import pytest
from deckbuilder import burn, new_game, play, referee_agrees
from test_scenarios import CLASSIC, GERMAN, refused, why

from sim.core.enums import Act, End, Off
from sim.core.legal import Why

# ============================================================================ initial meld


def test_seed000_kings_and_sixes_45_cannot_open():
    gs = new_game(hands={1: "KS KH KD 6S 6H 6D 4C 5C 8C 9C JC"}, stock_top=["7"])
    play(gs, "draw")
    refused(gs, "meld K K K", Why.OPENING)  # it could never reach 50 this turn
    refused(gs, "meld 6 6 6", Why.OPENING)
    assert all(t.startswith("discard") for t in gs.legal_texts())
    referee_agrees(gs)


def test_minimum_is_summed_over_the_turns_melds():
    gs = new_game(hands={1: "K K K 6 6 6 9 9 9 4 5"}, stock_top=["7"])
    play(gs, "draw", "meld K K K", "meld 6 6 6")
    assert not gs.team_opened(1) and int(gs.state[Off.PENDING_VALUE]) == 45
    refused(gs, "discard 4", Why.OPENING)
    play(gs, "meld 9 9 9")  # 75: opened by three melds, none of them 50 alone
    assert gs.team_opened(1)
    play(gs, "discard 4")
    referee_agrees(gs)


@pytest.mark.parametrize(
    "cum,minimum", [(-5, 15), (0, 50), (1495, 50), (1500, 90), (2995, 90), (3000, 120)]
)
def test_minimum_by_cumulative_score(cum, minimum):
    gs = new_game(cum=[0, cum])
    assert int(gs.state[Off.TEAM_MIN + 1]) == minimum and int(gs.state[Off.TEAM_MIN]) == 50


def test_minimum_15_below_zero():
    gs = new_game(cum=[0, -5], hands={1: "4 4 4"}, stock_top=["9"])
    play(gs, "draw", "meld 4 4 4")
    assert gs.team_opened(1)
    play(gs, "discard 9")
    referee_agrees(gs)


def test_minimum_90_and_120():
    deal = dict(hands={1: "A A A K K K 4 5 6 7 8"}, stock_top=["9"])
    gs = new_game(cum=[0, 1500], **deal)
    play(gs, "draw", "meld A A A")
    refused(gs, "discard 9", Why.OPENING)
    play(gs, "meld K K K")
    assert gs.team_opened(1)
    referee_agrees(gs)
    gs = new_game(cum=[0, 3000], **deal)
    play(gs, "draw")
    refused(gs, "meld A A A", Why.OPENING)  # 60 + 30 < 120


def test_wild_cards_count_toward_the_minimum():
    gs = new_game(hands={1: "6 6 JK"}, stock_top=["9"])
    play(gs, "draw", "meld 6 6 JK")
    assert gs.team_opened(1)


# ============================================================================ taking the pile


def test_wild_card_on_top_blocks_the_pile():
    gs = new_game(hands={1: "JK", 2: "9 9 K K K Q Q Q"}, stock_top=["5", "9"])
    play(gs, "draw", "discard JK")
    assert gs.pile_frozen
    for a in (Act.TAKE_PAIR, Act.TAKE_NAT_TWO, Act.TAKE_NAT_JOKER, Act.TAKE_ONTO):
        assert gs.why_illegal(a) == why(Why.TOP_BLOCKED)
    assert gs.legal_texts() == ["draw"]
    referee_agrees(gs)


def test_black_three_blocks_only_the_next_player():
    gs = new_game(hands={1: "3C", 2: "9 9 K K K", 3: "9 9 K K K Q Q Q"}, stock_top=["5", "9", "6"])
    play(gs, "draw", "discard 3")  # seat 1
    assert gs.why_illegal(Act.TAKE_PAIR) == why(Why.TOP_BLOCKED)  # seat 2 holds 9 9 but is blocked
    play(gs, "draw", "discard 9")  # seat 2 covers the black three
    assert "take 9 9" in gs.legal_texts()  # seat 3
    play(gs, "take 9 9")
    assert gs.melds(1) == {"9": (3, 0, 0)}
    assert gs.pile() == [] and int(gs.state[Off.ASIDE_LEN]) == 2  # 4 and the black three aside
    assert "3" not in gs.hand(3)
    refused(gs, "discard 7", Why.OPENING)
    play(gs, "meld K K K")  # 60: opened, the pile cards join the hand
    assert gs.hand(3) == ["Q", "Q", "Q", "10", "8", "7", "4", "3"]
    referee_agrees(gs)


def pile_with_aces_under_a_seven(seat0: str):
    gs = new_game(hands={0: seat0}, stock_top=["5", "5", "5"], upcard="4H")
    play(gs, "draw", "discard A", "draw", "discard A", "draw", "discard 7")
    assert gs.pile() == ["4", "A", "A", "7"] and gs.seat == 0
    return gs


def test_frozen_for_unopened_team_pile_cards_do_not_count():
    # 7 7 7 + 2 = 35 from the hand; the two aces in the pile would make A A A (60) but do not count
    gs = pile_with_aces_under_a_seven("7 7 A Q K 2 4 5 6 8 9")
    assert not gs.pile_frozen  # no wild card in it, but the team has not opened
    refused(gs, "take 7 7", Why.OPENING)
    refused(gs, "take 7 2", Why.FROZEN)
    assert gs.legal_texts() == ["draw"]
    referee_agrees(gs)
    # with K K K the hand reaches 15 + 30 + 20 = 65
    gs = pile_with_aces_under_a_seven("7 7 A K K K 2 4 5 6 8")
    play(gs, "take 7 7", "meld K K K", "add 2 to Ks")
    assert gs.team_opened(0)
    assert sorted(gs.hand(0)) == sorted("A A A 4 4 5 6 8".split())
    referee_agrees(gs)


def opened_seat1(discard: str):
    """Seat 1 opens with K K K Q Q Q 8 8 8 and discards `discard`; seat 0 later discards an 8."""
    gs = new_game(
        hands={1: "K K K Q Q Q 8 8 8 JK 2", 0: "8 4 5 6 7 9 10 J Q A A"},
        stock_top=["9", "5", "6", "7", "4"],
    )
    play(gs, "draw", "meld K K K", "meld Q Q Q", "meld 8 8 8", f"discard {discard}")
    play(gs, "draw", "discard 5", "draw", "discard 6", "draw", "discard 8")
    assert gs.seat == 1 and gs.pile_top == 6  # an eight
    return gs


def test_frozen_for_everyone_after_a_wild_discard():
    gs = opened_seat1("2")
    assert gs.pile_frozen and gs.team_opened(1)
    refused(gs, "take onto 8s", Why.FROZEN)
    assert gs.legal_texts() == ["draw"]
    referee_agrees(gs)


def test_unfrozen_take_onto_a_team_meld_rest_to_hand():
    gs = opened_seat1("9")
    assert not gs.pile_frozen
    assert gs.legal_texts() == ["draw", "take onto 8s"]
    before = gs.hand(1)
    play(gs, "take onto 8s")
    assert gs.melds(1)["8"] == (4, 0, 0)
    assert sorted(gs.hand(1)) == sorted(before + ["4", "9", "5", "6"])  # upcard + discards
    assert gs.pile() == [] and not gs.pile_frozen
    referee_agrees(gs)


def nat_wild_game(rules):
    gs = new_game(
        rules,
        hands={1: "K K K Q Q Q 7 2 JK 9 5", 0: "7 4 5 6 8 9 10 J Q A A"},
        stock_top=["6", "5", "6", "8", "4"],
    )
    play(gs, "draw", "meld K K K", "meld Q Q Q", "discard 9")
    play(gs, "draw", "discard 5", "draw", "discard 6", "draw", "discard 7")
    return gs


def test_take_with_natural_plus_wild_classic():
    gs = nat_wild_game(CLASSIC)
    assert gs.legal_texts() == ["draw", "take 7 2", "take 7 JK"]
    play(gs, "take 7 2")
    assert gs.melds(1)["7"] == (2, 1, 0)
    referee_agrees(gs)
    gs = nat_wild_game(CLASSIC.replace(pile_take_natural_plus_wild=False))
    refused(gs, "take 7 JK", Why.RULE_OFF)


@pytest.mark.parametrize("rules,ok", [(CLASSIC, True), (GERMAN, False)])
def test_take_onto_a_completed_canasta(rules, ok):
    gs = new_game(
        rules,
        hands={1: "K K K K K K K Q Q Q 9", 0: "K 4 5 6 7 8 9 10 J Q A"},
        stock_top=["5", "5", "6", "7", "4"],
    )
    play(gs, "draw", "meld K K K", *["add K to Ks"] * 4, "meld Q Q Q", "discard 9")
    play(gs, "draw", "discard 5", "draw", "discard 6", "draw", "discard K")
    if ok:
        play(gs, "take onto Ks")
        assert gs.melds(1)["K"] == (8, 0, 0)
    else:
        refused(gs, "take onto Ks", Why.CANASTA_CLOSED)
    referee_agrees(gs)


def test_red_three_in_a_taken_pile_is_laid_without_replacement():
    gs = new_game(hands={1: "7 7 K K K Q Q Q"}, upcard=["3D", "7H"])
    assert gs.pile() == ["R3", "7"] and gs.pile_frozen
    stock = gs.stock_size
    play(gs, "take 7 7", "meld K K K")
    assert gs.red_threes(1) == 1 and gs.stock_size == stock
    assert gs.melds(1) == {"K": (3, 0, 0), "7": (3, 0, 0)}
    assert len(gs.hand(1)) == 11 - 2 - 3
    referee_agrees(gs)


# ============================================================================ melds


@pytest.mark.parametrize(
    "action,cards,pts", [("meld 7 7 2", (2, 1, 0), 30), ("meld 7 7 JK", (2, 0, 1), 60)]
)
def test_player_chooses_two_or_joker(action, cards, pts):
    gs = new_game(cum=[0, -5], hands={1: "7 7 2 JK"}, stock_top=["9"])
    play(gs, "draw")
    assert {"meld 7 7 2", "meld 7 7 JK"} <= set(gs.legal_texts())
    play(gs, action, "discard 9")
    assert gs.melds(1) == {"7": cards}
    assert gs.score_breakdown()["meld_points"] == [0, pts]
    referee_agrees(gs)


def test_wild_card_limits():
    gs = new_game(cum=[0, -5], hands={1: "7 7 7 7 7 2 2 2 JK K K"}, stock_top=["9"])
    play(gs, "draw", "meld 7 7 2", "add 2 to 7s")  # 2 naturals, 2 wild cards
    refused(gs, "add 2 to 7s", Why.WILD_LIMIT)  # wild cards never more than naturals
    play(gs, "add 7 to 7s", "add 2 to 7s", "add 7 to 7s", "add 7 to 7s")  # 5 + 3
    refused(gs, "add JK to 7s", Why.WILD_LIMIT)  # at most three
    assert gs.melds(1) == {"7": (5, 3, 0)}
    referee_agrees(gs)


def test_impossible_melds():
    gs = new_game(cum=[0, -5], hands={1: "2 2 2 JK JK JK 3C 3S 3C K K"}, stock_top=["K"])
    play(gs, "draw")
    for text in ("meld 2 2 2", "meld JK JK JK"):
        refused(gs, text, Why.BAD_KIND)
    refused(gs, "meld 3 3 3", Why.BLACK3)
    play(gs, "meld K K K")
    refused(gs, "meld K K JK", Why.MELD_EXISTS)
    referee_agrees(gs)


def test_add_to_partners_meld_never_to_opponents():
    gs = new_game(hands={1: "K K K Q Q Q", 2: "K", 3: "K"}, stock_top=["9", "5", "6"])
    play(gs, "draw", "meld K K K", "meld Q Q Q", "discard 9")
    play(gs, "draw")  # seat 2, team 0
    refused(gs, "add K to Ks", Why.NO_MELD)
    play(gs, "discard 5", "draw", "add K to Ks")  # seat 3 adds to partner seat 1's kings
    assert gs.melds(1)["K"] == (4, 0, 0)
    referee_agrees(gs)


# ============================================================================ exhausted stock


def exhausted_game(last: str):
    """Team 1 (seat 1) opens with K K K Q Q Q, team 0 (seat 2) with A A A J J J; every wild card
    and black three is in a hand, the red threes in seat 0's (replaced).  The stock is burnt to
    its last card `last`, which seat 3 draws and discards; then seat 0 must act."""
    gs = new_game(
        hands={
            1: "K K K Q Q Q 4 5 6 7 9",
            2: "JK 3C 3S 3C 3S A A A J J J",
            3: "2 2 2 2 2 2 2 2 JK JK JK",
            0: "3D 3H 3D 3H 8 8 4 5 6 7 9",
        },
        stock_top=["5", "6", "7", "4", "9", "9"],
        stock_bottom=[last],
    )
    assert gs.red_threes(0) == 4
    play(gs, "draw", "meld K K K", "meld Q Q Q", "discard 9")
    play(gs, "draw", "meld A A A", "meld J J J", "discard 9")
    burn(gs, until_stock=1)
    assert gs.seat == 3
    play(gs, "draw", f"discard {last}")
    assert gs.stock_size == 0 and not gs.pile_frozen
    return gs


def test_exhausted_stock_forced_take_onto_team_meld():
    gs = exhausted_game("J")
    assert gs.seat == 0 and not gs.is_over
    refused(gs, "decline", Why.FORCED_TAKE)
    refused(gs, "draw", Why.NO_STOCK)
    assert "take onto Js" in gs.legal_texts()
    referee_agrees(gs)


def test_exhausted_stock_may_decline_then_hand_ends():
    gs = exhausted_game("8")
    assert set(gs.legal_texts()) == {"take 8 8", "decline"}
    play(gs, "decline")
    assert gs.is_over and int(gs.state[Off.END_REASON]) == End.EXHAUSTED
    bd = referee_agrees(gs)
    assert bd["go_out_bonus"] == [0, 0]
    assert bd["red3_points"] == [800, 0]  # all four, team 0 opened
    assert bd["meld_points"] == [90, 60]


def test_exhausted_stock_nobody_can_take_hand_ends():
    gs = exhausted_game("10")
    assert gs.is_over and int(gs.state[Off.END_REASON]) == End.EXHAUSTED
    bd = referee_agrees(gs)
    assert bd["go_out_bonus"] == [0, 0]
