"""Model-consistent worlds on the draw or take of a seat's last turn (sim/play/worlds/infer.py),
its bookkeeping (sim/play/worlds/knowledge.py) and its typed form
(sim/play/positions/last_turn.py)."""

from __future__ import annotations

import numpy as np
import pytest

from sim.core.enums import MAX_CARDS, N_ACTIONS, N_KINDS, Act, Kind, Off
from sim.core.rules import RuleSet
from sim.play.game import GameState
from sim.play.positions.text import PositionError, format_position, parse_position
from sim.play.pyplay import play_hand_py
from sim.play.rollouts.from_position import prepare
from sim.play.worlds.infer import draw_agrees_nb
from sim.play.worlds.sampler import Know, sample_worlds_nb
from strategies.registry import parse_spec

RULES = RuleSet.preset("classic", 4)


def _row(know, off, s, width=N_KINDS):
    return know[off + s * width : off + (s + 1) * width]


def test_the_turn_counts_rebuild_the_hand_at_the_draw():
    """For every other seat whose last turn the viewer saw: its real hand at the draw or take =
    its real hand now + TURN_OUT - TURN_IN - the cards it drew (a sub-multiset, the right number),
    and the known cards then were in it; DSNAP is the public part at that decision."""
    checked = 0
    for seed in range(2):
        full = play_hand_py(RULES, ["expert"] * 4, seed)
        gs = GameState.new_hand(RULES, seed)
        at_draw: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        for a in full.actions:
            if gs.phase == "draw":
                at_draw[gs.seat] = (gs.hand_counts(), gs.state[: Off.PUB_SIZE].copy())
            gs.apply(a)
            if gs.is_over or gs.phase != "draw":
                continue
            know = gs.knowledge(gs.seat)
            for s in range(4):
                if s == gs.seat or not (know[Know.SNAP_VALID + s] and know[Know.DRAW_VALID + s]):
                    continue
                hand, pub = at_draw[s]
                rebuilt = (
                    gs.hand_counts(s) + _row(know, Know.TURN_OUT, s) - _row(know, Know.TURN_IN, s)
                )
                drawn = rebuilt - hand
                assert (drawn >= 0).all()
                assert (
                    drawn.sum() == (RULES.draw_count if know[Know.DRAW_ACT + s] == Act.DRAW else 0)
                    or drawn.sum() == 0
                )
                assert (hand >= _row(know, Know.KNOWN_AT_DRAW, s)).all()
                dsnap = _row(know, Know.DSNAP, s, Off.PUB_SIZE)
                assert (dsnap == pub).all()
                checked += 1
    assert checked > 40


def test_inferred_worlds_agree_with_the_draws_more_often_than_uniform_ones():
    """Re-asking the model on each sampled hand (a fresh random choice of the drawn cards): the
    inferred worlds fail the draw check far less often than uniform worlds (most declines are
    forced, so uniform hands pass too), the real hands pass it mostly (the players were the
    model)."""
    sid, knobs = parse_spec("expert", RULES.label)
    rng = np.zeros(2, np.uint64)
    mobs = np.zeros(Off.STATE_SIZE, np.int32)
    buf = np.zeros(N_ACTIONS, np.int32)
    rate = {"real": [], "uniform": [], "inferred": []}
    full = play_hand_py(RULES, ["expert"] * 4, 5)
    gs = GameState.new_hand(RULES, 5)
    for i, a in enumerate(full.actions):
        if gs.phase == "draw" and i > 12 and i % 3 == 0:
            obs, know, v = gs.observation(), gs.knowledge(), gs.seat
            seats = [
                s
                for s in range(4)
                if s != v and know[Know.SNAP_VALID + s] and know[Know.DRAW_VALID + s]
            ]
            for name, mid in (("uniform", -1), ("inferred", sid)):
                out = np.zeros((8, Off.STATE_SIZE), np.int32)
                assert (
                    sample_worlds_nb(
                        obs, know, gs.params, i, 0, out, mid, knobs, 200, np.zeros(2, np.int64)
                    )
                    == 0
                )
                for w in list(out) + ([gs.state] if name == "uniform" else []):
                    key = "real" if w is gs.state else name
                    for s in seats:
                        hidden = _row(w, Off.HANDS, s) - _row(know, Know.KNOWN, s)
                        pool = np.array(
                            [k for k in range(N_KINDS) for _ in range(int(hidden[k]))]
                            + [0] * MAX_CARDS,
                            np.int32,
                        )
                        rate[key].append(
                            draw_agrees_nb(
                                know,
                                gs.params,
                                s,
                                pool,
                                0,
                                int(hidden.sum()),
                                sid,
                                knobs,
                                rng,
                                mobs,
                                buf,
                            )
                        )
        gs.apply(a)
    got = {k: float(np.mean(v)) for k, v in rate.items()}
    assert len(rate["real"]) > 10, got
    assert 1 - got["inferred"] < 0.6 * (1 - got["uniform"]), got
    assert got["real"] > 0.85, got


def test_typed_last_turns_rebuild_the_draw_snapshots():
    """A position written from a hand (its last_turn lines) gives, for the previous seat, the draw
    snapshot and turn counts the GameState recorded; two seats back, the natural melds and hand
    sizes (which meld a wild card laid during a turn joined, a typed turn does not say)."""
    fields1 = [
        Off.PILE_LEN,
        Off.PILE_TOP,
        Off.SEAT,
        Off.PHASE,
        *range(Off.PILE_COUNTS, Off.PILE_COUNTS + 15),
        *range(Off.HAND_SIZE, Off.HAND_SIZE + 4),
        *range(Off.MELD_NAT, Off.MELD_NAT + 45),
    ]
    fields2 = [
        Off.SEAT,
        *range(Off.HAND_SIZE, Off.HAND_SIZE + 4),
        *range(Off.MELD_NAT, Off.MELD_NAT + 45),
    ]
    compared = {1: 0, 2: 0}
    for seed in range(2):
        full = play_hand_py(RULES, ["expert"] * 4, seed)
        gs = GameState.new_hand(RULES, seed)
        for i, a in enumerate(full.actions):
            if gs.phase == "draw" and i > 8:
                true = gs.knowledge()
                typed = prepare(parse_position(format_position(gs.position()))).know
                for d, fields in ((1, fields1), (2, fields2)):
                    s = (gs.seat - d) % 4
                    if (
                        not (true[Know.SNAP_VALID + s] and true[Know.DRAW_VALID + s])
                        or true[Know.TURN_UNK + s]
                    ):
                        continue
                    if not typed[Know.SNAP_VALID + s]:
                        continue  # the pile no longer shows its discard (taken since)
                    assert (
                        typed[Know.DRAW_VALID + s]
                        and typed[Know.DRAW_ACT + s] == true[Know.DRAW_ACT + s]
                    )
                    t, r = (
                        _row(typed, Know.DSNAP, s, Off.PUB_SIZE),
                        _row(true, Know.DSNAP, s, Off.PUB_SIZE),
                    )
                    assert (t[fields] == r[fields]).all(), (
                        seed,
                        i,
                        d,
                        [f for f in fields if t[f] != r[f]],
                    )
                    for off in (Know.TURN_OUT, Know.TURN_IN):
                        assert (_row(typed, off, s) == _row(true, off, s)).all()
                    compared[d] += 1
            gs.apply(a)
    assert compared[1] > 15 and compared[2] > 10, compared


BASE = """players: 4
hand: 7 7 K K JK 2 5 9 9 A
melds us: 7 7 7 2
melds them: Q Q Q
pile_cards: 4 9
hand_sizes: 10 8 11 9
stock: 61
"""


@pytest.mark.parametrize(
    "line,needle",
    [
        ("last_turn 3: grab | discard 9", "starts with"),
        ("last_turn 3: draw", "discard"),
        ("last_turn 3: draw | melded R3 | discard 9", "red three"),
        ("last_turn 0: draw | discard 9", "not me"),
        ("last_turn 5: draw | discard 9", "another seat"),
        ("last_turn 3: draw | eaten 9 | discard 9", "took CARDS"),
        ("last_discard: - - - 8\nlast_turn 3: draw | discard 9", "last_discard"),
    ],
)
def test_bad_last_turns_are_one_line_errors(line, needle):
    with pytest.raises(PositionError, match=needle) as e:
        parse_position(BASE + line + "\n")
    assert "\n" not in str(e.value)


def test_a_typed_last_turn_round_trips_and_constrains():
    text = BASE + "last_turn 3: take pair | took 5 K K | melded 4 4 4 | discard 9\n"
    # the 4s it melded are on its team's side of the table (melds stay there)
    text = text.replace("hand_sizes: 10 8 11 9", "hand_sizes: 10 8 11 6").replace(
        "melds them: Q Q Q", "melds them: Q Q Q | 4 4 4"
    )
    pos = parse_position(text)
    assert pos.last_discard == [-1, -1, -1, Kind.NINE]
    # written as canasta play names the take (the old name without the card is read too)
    assert "last_turn 3: take K K | took 5 K K | melded 4 4 4 | discard 9" in format_position(pos)
    again = parse_position(format_position(pos)).last_turns[3]
    assert (again.action, again.top, again.took) == (
        Act.TAKE_PAIR,
        Kind.KING,
        pos.last_turns[3].took,
    )
    know = prepare(pos).know
    assert know[Know.DRAW_VALID + 3] and know[Know.DRAW_ACT + 3] == Act.TAKE_PAIR
    assert list(_row(know, Know.TURN_IN, 3)) == [
        int(k in (Kind.FIVE, Kind.KING)) for k in range(N_KINDS)
    ]  # below the top
