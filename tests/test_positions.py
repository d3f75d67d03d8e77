"""Positions at every decision point (sim/play/positions/text.py): written by GameState.position and
`canasta play --position-at`, read back with the same legal actions; impossible ones refused."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from sim.cli.main import main
from sim.core.enums import Kind, Off
from sim.core.rules import RuleSet
from sim.play.game import GameState
from sim.play.positions.cards import PositionError
from sim.play.positions.text import format_position, load_position, parse_position
from sim.play.pyplay import play_hand_py

DOCS = Path(__file__).resolve().parent.parent / "docs" / "position-example.txt"


def _norm(text: str) -> str:
    lines = []
    for line in text.splitlines():
        if line.startswith("pile_cards:"):
            cards = line.split(":", 1)[1].split()
            line = "pile_cards: " + " ".join(sorted(cards[:-1]) + cards[-1:])
        lines.append(line)
    return "\n".join(lines)


@pytest.mark.parametrize(
    "preset,players,seed",
    [
        ("classic", 2, 0),
        ("classic", 3, 1),
        ("classic", 4, 2),
        ("classic", 6, 3),
        ("classic", 5, 2),
        ("samba", 4, 1),
    ],
)
def test_written_positions_read_back_with_the_same_legal_actions(preset, players, seed):
    rules = (
        RuleSet.preset(preset, players, None, go_out_bonus=150)
        if players == 4
        else RuleSet.preset(preset, players)
    )
    hand = 1 if players == 5 else 0  # five players: seat 3 sits out
    full = play_hand_py(rules, ["expert"] * players, seed, hand=hand)
    gs = GameState.new_hand(rules, seed, hand=hand)
    phases = set()
    checked = 0
    for i, a in enumerate(full.actions):
        if i % 2 == 0:
            text = format_position(gs.position())
            pos = parse_position(text)
            back = GameState.from_position(pos, seed=i)
            assert back.legal_actions() == gs.legal_actions(), text
            o1, o2 = gs.observation(), back.observation()
            differ = [
                j for j in np.flatnonzero(o1 != o2) if j not in (Off.DECISIONS, Off.PILE_TOP_SUIT)
            ]
            assert not differ, (text, differ)
            # a fixed point, up to the order of the pile below its top (the worlds keep the
            # cards and the top; the order plays no role without sequences)
            assert _norm(format_position(back.position())) == _norm(text)
            phases.add(pos.phase)
            checked += 1
        gs.apply(a)
    assert phases == {"draw", "meld"} and checked > 15


def test_position_of_another_seat_hides_the_hand_of_the_seat_to_act():
    rules = RuleSet.preset("classic", 4)
    gs = GameState.new_hand(rules, 5)
    pos = gs.position(2)
    assert pos.me == 2 and pos.to_move == gs.seat != 2
    assert (pos.hand == gs.hand_counts(2)).all()
    assert "known" not in format_position(pos)


def test_play_position_at_writes_an_analysable_position(tmp_path, capsys):
    assert (
        main(
            [
                "play",
                "--players",
                "4",
                "--strategies",
                "expert",
                "--seed",
                "7",
                "--position-at",
                "5:2",
            ]
        )
        == 0
    )
    text = capsys.readouterr().out
    pos = parse_position(text)
    assert pos.turn == 4 and pos.phase == "meld" and pos.me == pos.to_move
    f = tmp_path / "p.txt"
    f.write_text(text)
    assert main(["analyze", str(f), "--rollouts", "40", "--json"]) == 0
    assert '"actions"' in capsys.readouterr().out
    assert main(["play", "--players", "4", "--seed", "7", "--position-at", "3", "--seat", "2"]) == 0
    assert parse_position(capsys.readouterr().out).me == 2


@pytest.mark.parametrize(
    "extra,needle",
    [
        (["--position-at", "900"], "turns"),
        (["--position-at", "0:1"], "count 1 .."),
        (["--position-at", "1", "--seat", "5"], "not an active seat"),
        (["--position-at", "1", "--seat", "9"], "out of range"),
        (["--seat", "1"], "--position-at"),
    ],
)
def test_play_position_at_bad_input(capsys, extra, needle):
    assert main(["play", "--players", "4", "--seed", "7", *extra]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and needle in err[0]


def test_documented_example_parses():
    pos = load_position(DOCS)
    assert pos.players == 4 and pos.known and pos.last_discard is not None
    assert GameState.from_position(pos).legal_actions()


BASE = DOCS.read_text()
IMPOSSIBLE = {
    "known too many": (
        BASE.replace("known 1: 10 10", "known 1: 10 10 10 10 10 10 10 10 10"),
        "known 1",
    ),
    "aside without taking": (BASE.replace("phase: draw", "phase: meld\naside: 4 4"), "took_pile"),
    "meld keys in draw phase": (BASE + "pending: 50\n", "phase: meld"),
    "melds not opened": (BASE.replace("opened: us them", "opened: us"), "opened"),
    "pile too short": (BASE.replace("pile: 12", "pile: 1"), "pile_cards"),
    "hand sizes": (
        BASE.replace("hand_sizes: 10 8 11 9", "hand_sizes: 10 8 11 99"),
        "cards do not add up",
    ),
    "bad set": (BASE.replace("rules: classic", "rules: classic\nset: nosuch=1"), "nosuch"),
    "kings": (BASE.replace("hand: 7 7 K K JK 2 5 9 9 A", "hand: 7 7 K K K K JK 9 9 A"), "K:"),
}


@pytest.mark.parametrize("name", sorted(IMPOSSIBLE))
def test_impossible_positions_are_refused(tmp_path, capsys, name):
    text, needle = IMPOSSIBLE[name]
    f = tmp_path / "p.txt"
    f.write_text(text)
    assert main(["analyze", str(f), "--rollouts", "10"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and needle in err[0], err


def test_typed_positions_rebuild_the_previous_seats_discard_snapshot():
    """From a written position (last discards + pile cards), the snapshot of the previous seat's
    discard decision (for --infer) matches the one a GameState recorded, in the fields a typed
    position can know: the pile then, the seat to act, its hand size, the melds."""
    from sim.play.rollouts.from_position import prepare
    from sim.play.worlds.sampler import Know

    rules = RuleSet.preset("classic", 4)
    fields = [Off.PILE_LEN, Off.PILE_TOP, Off.PILE_FREEZE, Off.SEAT, Off.PHASE, Off.TURN]
    fields += list(range(Off.PILE_COUNTS, Off.PILE_COUNTS + 15)) + list(
        range(Off.HAND_SIZE, Off.HAND_SIZE + 4)
    )
    fields += list(range(Off.MELD_NAT, Off.MELD_JOKER + 45))
    compared = 0
    for seed in range(2):
        full = play_hand_py(rules, ["expert"] * 4, seed)
        gs = GameState.new_hand(rules, seed)
        for i, a in enumerate(full.actions):
            if gs.phase == "draw" and i > 8:
                me, prev = gs.seat, (gs.seat - 1) % 4
                typed = prepare(parse_position(format_position(gs.position())))
                true = gs.knowledge(me)
                if true[Know.SNAP_VALID + prev]:
                    assert typed.know[Know.SNAP_VALID + prev]
                    t = typed.know[Know.SNAP + prev * Off.PUB_SIZE :][: Off.PUB_SIZE]
                    r = true[Know.SNAP + prev * Off.PUB_SIZE :][: Off.PUB_SIZE]
                    assert (t[fields] == r[fields]).all()
                    compared += 1
            gs.apply(a)
    assert compared > 20


def test_analyze_infer_on_a_written_position(tmp_path, capsys):
    assert (
        main(
            [
                "play",
                "--players",
                "4",
                "--strategies",
                "expert",
                "--seed",
                "7",
                "--position-at",
                "9",
            ]
        )
        == 0
    )
    f = tmp_path / "p.txt"
    f.write_text(capsys.readouterr().out)
    assert main(["analyze", str(f), "--rollouts", "30", "--infer", "expert", "--json"]) == 0
    import json

    obj = json.loads(capsys.readouterr().out)
    assert obj["actions"] and obj["uniform_actions"]
    assert obj["actions"][0]["mean"] != obj["uniform_actions"][0]["mean"]  # other worlds


SAMBA = """rules: samba
players: 4
hand: KH KS 7H 8H 4C 2 JK 3
melds us: K K K K K K K | K K K 2
sequences us: 4H 5H 6H | 9S 10S JS QS
melds them: Q Q Q
pile_cards: 9 9C
hand_sizes: 8 15 15 15
stock: 86
"""


def test_a_typed_samba_position_has_closed_canastas_sequences_and_suits():
    from sim.play.rollouts.from_position import prepare
    from sim.play.worlds.sampler import sample_worlds_nb

    pos = parse_position(SAMBA)
    assert pos.sequences[0] == [(2, 2, 3), (3, 7, 4)] and pos.pile_top_suit == 0
    setup = prepare(pos)
    obs = setup.obs
    k = 11  # kings
    assert (
        obs[Off.CLOSED_COUNT + k] == 1
        and obs[Off.CLOSED_NAT + k] == 7
        and obs[Off.CLOSED_NATURAL] == 1
    )
    assert obs[Off.MELD_NAT + k] == 3 and obs[Off.MELD_TWO + k] == 1
    assert (
        list(obs[Off.SEQ_LEN : Off.SEQ_LEN + 3]) == [3, 4, 0]
        and obs[Off.HAND_SUITS + 2 * 11 + k - 2] == 1
    )
    gs = GameState.from_position(pos)
    assert gs.sequences(gs.team) == {0: (2, 2, 3), 1: (3, 7, 4)} and "draw" in gs.legal_texts()
    assert format_position(parse_position(format_position(pos))) == format_position(pos)
    out = np.zeros((4, Off.STATE_SIZE), np.int32)
    assert (
        sample_worlds_nb(
            setup.obs,
            setup.know,
            setup.params,
            1,
            0,
            out,
            -1,
            np.zeros(24),
            0,
            np.zeros(2, np.int64),
        )
        == 0
    )


@pytest.mark.parametrize(
    "old,new,needle",
    [
        ("hand: KH KS", "hand: K KS", "needs a suit"),
        ("9S 10S JS QS", "9S 10S QS KS", "follow each other"),
        ("9S 10S JS QS", "9S 10H JS", "one suit"),
        ("pile_cards: 9 9C", "pile_cards: 9 9", "give its suit"),
        ("rules: samba", "rules: classic", "sequences need"),
        ("| K K K 2", "| K K K 2 | K K 2", "two open melds"),
    ],
)
def test_bad_samba_positions_are_one_line_errors(old, new, needle):
    from sim.play.positions.text import PositionError

    with pytest.raises(PositionError, match=needle) as e:
        parse_position(SAMBA.replace(old, new))
    assert "\n" not in str(e.value)


@pytest.mark.parametrize(
    "argv",
    [
        ["--rules", "samba", "--players", "4", "--seed", "1", "--position-at", "6:2"],
        ["--players", "5", "--seed", "1", "--hand", "2", "--position-at", "6"],
    ],
)
def test_play_position_at_and_analyze_samba_and_five_players(tmp_path, capsys, argv):
    assert main(["play", "--strategies", "expert", *argv]) == 0
    text = capsys.readouterr().out
    pos = parse_position(text)
    assert len(pos.hand_sizes) == 4 and (pos.sequences is not None) == ("samba" in argv)
    f = tmp_path / "p.txt"
    f.write_text(text)
    assert main(["analyze", str(f), "--rollouts", "12", "--infer", "expert", "--json"]) == 0
    import json

    obj = json.loads(capsys.readouterr().out)
    assert obj["actions"] and all(a["rollouts"] == 12 for a in obj["actions"])


def test_play_position_at_a_seat_sitting_out_is_one_line(capsys):
    # five players, hand 2: seat 4 sits out
    assert (
        main(
            [
                "play",
                "--players",
                "5",
                "--seed",
                "1",
                "--hand",
                "2",
                "--position-at",
                "3",
                "--seat",
                "4",
            ]
        )
        == 2
    )
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--seat 4" in err[0]


def test_black_three_melds_are_read_only_for_the_player_going_out():
    """A player going out may meld black threes (3 or 4, nothing else) in its meld phase: such a
    position reads back; a black-three meld of the other team, in the draw phase, with a wild
    card, or any red three meld is refused with its reason."""
    base = Path("docs/position-example.txt").read_text()
    meld = base.replace("phase: draw ", "phase: meld ").replace(
        "melds us: 7 7 7 2 |", "melds us: 3 3 3 | 7 7 7 2 |"
    )
    meld = meld.replace("stock: 43", "stock: 40")
    pos = parse_position(meld)
    assert [m.kind for m in pos.melds[0]][0] == Kind.BLACK3
    assert parse_position(format_position(pos)).melds == pos.melds
    cases = {
        base.replace("melds us: 7 7 7 2 |", "melds us: 3 3 3 | 7 7 7 2 |").replace(
            "stock: 43", "stock: 40"
        ): "only the team to move",
        meld.replace("melds us: 3 3 3 |", "melds us: 3 3 2 |"): "nothing else",
        meld.replace("melds us: 3 3 3 |", "melds us: 3D 3H 3D |"): "red threes are never",
        meld.replace("melds them: Q Q Q", "melds them: Q Q Q | 3 3 3").replace(
            "melds us: 3 3 3 | ", "melds us: "
        ): "only the team to move",
    }
    for text, why in cases.items():
        with pytest.raises(PositionError, match=why):
            parse_position(text)
