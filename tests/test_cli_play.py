"""`canasta play`, stacked-deck files, action text and their one-line errors."""

from __future__ import annotations

import pytest

from sim.cli.main import main
from sim.core.actions import ActionTextError, action_text, parse_action
from sim.core.cards import DeckError, card_token, full_deck_ids, parse_deck_text
from sim.core.enums import N_ACTIONS, Act, Kind
from sim.core.rules import RuleSet
from sim.play.game import GameState, IllegalActionError


def _deck_text(ids):
    return " ".join(card_token(c) for c in ids)


def test_play_prints_a_history_with_scores_and_a_referee_verdict(capsys):
    assert main(["play", "--rules", "classic", "--players", "4", "--seed", "7"]) == 0
    out = capsys.readouterr().out
    for needle in (
        "deal:",
        "upcard:",
        "turn 1:",
        "hand over:",
        "hand score",
        "referee: every action legal; score confirmed",
    ):
        assert needle in out


def test_play_with_strategies_per_team_and_six_players(capsys):
    argv = [
        "play",
        "--players",
        "6",
        "--team-layout",
        "3x2",
        "--seed",
        "3",
        "--strategies",
        "greedy,random,expert",
    ]
    assert main(argv) == 0
    assert "score confirmed" in capsys.readouterr().out


def test_play_from_a_stacked_deck_file_is_the_deck_order(tmp_path, capsys):
    ids = full_deck_ids(2)
    path = tmp_path / "deck.txt"
    path.write_text(_deck_text(ids))
    assert main(["play", "--deck", str(path), "--dealer", "0", "--strategies", "greedy"]) == 0
    gs = GameState.new_hand(RuleSet.preset("classic"), deck_file=str(path), dealer=0)
    # one card at a time from the seat left of the dealer: seat 1 gets the 1st, 5th, 9th ... card
    assert gs.hand_counts(1)[Kind.TWO] == 1  # 2C is the first card of the file
    assert "score confirmed" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("AS KS ZZ", "bad card token 'ZZ'"),
        ("1H", "bad card token '1H'"),
    ],
)
def test_malformed_deck_tokens_are_named(text, needle):
    with pytest.raises(DeckError, match=needle):
        parse_deck_text(text, 2)


def test_incomplete_and_overfull_decks_name_the_card():
    ids = full_deck_ids(2)
    with pytest.raises(DeckError, match=r"missing AS|needs 108: missing"):
        parse_deck_text(_deck_text(ids[:-1] if ids[-1] != 52 else [c for c in ids if c != 12]), 2)
    with pytest.raises(DeckError, match="appears 3 times; 2 packs hold 2"):
        parse_deck_text(_deck_text(ids + [0]), 2)


@pytest.mark.parametrize(
    "argv",
    [
        ["play", "--deck", "/nonexistent/deck.txt"],
        ["play", "--rules", "nosuch"],
        ["play", "--strategies", "nosuch"],
        ["play", "--players", "9"],
        ["play", "--seed", "-1"],
        ["play", "--cum", "10"],
    ],
)
def test_bad_play_input_is_one_line_and_exit_2(argv, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("canasta play: error:") and "\n" not in err
    assert "Traceback" not in err


def test_bad_deck_file_through_the_cli(tmp_path, capsys):
    path = tmp_path / "deck.txt"
    path.write_text("AS KS QQ")
    assert main(["play", "--deck", str(path)]) == 2
    assert "bad card token 'QQ'" in capsys.readouterr().err


def test_every_action_text_parses_back():
    for a in range(N_ACTIONS):
        text = action_text(a)
        if text.startswith("<unknown") or text.startswith("take ") or text.startswith("extend"):
            continue
        if Act.MELD <= a < Act.DISCARD and (
            (a - Act.MELD) // 3 if a < Act.ADD_NAT else (a - Act.ADD_NAT) % 15
        ) in (Kind.TWO, Kind.JOKER, Kind.RED3):
            continue  # melds "of" wild cards or red threes: ids that are never legal
        assert parse_action(text) == a, text
    assert parse_action("take 7 7", top=Kind.SEVEN) == Act.TAKE_PAIR
    assert parse_action("take 7 JK", top=Kind.SEVEN) == Act.TAKE_NAT_JOKER
    assert parse_action("take onto 7s", top=Kind.SEVEN) == Act.TAKE_ONTO


@pytest.mark.parametrize(
    "text", ["", "meld", "meld 7 7", "meld 2 2 2 2", "fly away", "discard 11", "take 8 8"]
)
def test_malformed_action_text_is_refused(text):
    with pytest.raises(ActionTextError):
        parse_action(text, top=Kind.SEVEN)


def test_illegal_action_text_says_why():
    gs = GameState.new_hand(RuleSet.preset("classic"), seed=1)
    with pytest.raises(IllegalActionError, match="not allowed in this phase"):
        gs.apply("discard " + gs.hand()[0])


@pytest.mark.parametrize("strategies", [["random"] * 4, ["expert", "greedy", "expert", "greedy"]])
def test_a_hand_without_knowledge_plays_the_same_and_refuses_positions(strategies):
    from sim.core.errors import CanastaError
    from sim.play.pyplay import play_hand_py

    rules = RuleSet.preset("classic")
    kept = play_hand_py(rules, strategies, seed=11, gs=GameState.new_hand(rules, 11))
    bare = play_hand_py(
        rules, strategies, seed=11, gs=GameState.new_hand(rules, 11, track_knowledge=False)
    )
    assert bare.actions == kept.actions and (bare.state == kept.state).all()
    assert bare.score_breakdown() == kept.score_breakdown() and bare.know is None
    for ask in (bare.position, bare.knowledge):
        with pytest.raises(CanastaError, match="track_knowledge"):
            ask()
