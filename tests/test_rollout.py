"""Rollouts from a position (sim/play/rollouts/from_position.py, reports/position.py, `canasta odds
--position`)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from reports.position import parse_position, rollout
from sim.cli.main import main
from sim.core.enums import N_ACTIONS, N_KINDS, End, Kind, Off, Phase
from sim.core.rules import RuleSet
from sim.play.rollouts.from_position import position_to_state, prepare, run_rollouts
from sim.play.selfplay.checks import check_state_nb
from sim.play.selfplay.loop import deck_composition_nb

# Team "us" (seat 0) has a natural canasta of kings and may go out; seat 0 holds 5 5, the pile
# is empty (no take is possible) and every red three is laid.  With `greedy` (which goes out as
# soon as it can) seat 0 goes out this turn exactly when it draws a 5 (meld 5 5 5) or a wild
# card (meld 5 5 + wild): 6 fives + 8 twos + 4 jokers among the 92 unseen cards, and the stock's
# top card is a uniformly random unseen card.  Any other card leaves at least one card after the
# discard.
EXACT = """
players: 2
hand: 5 5
melds us: K K K K K K K
melds them: Q Q Q
red3 us: 2
red3 them: 2
pile: 0
hand_sizes: 2 11
stock: 81
"""
EXACT_P = (6 + 8 + 4) / 92

FOUR = """
players: 4
me: 0
to_move: 0
hand: 7 7 K K JK 2 5 9 9 A
melds us: 7 7 7 2 | K K K K K JK 2
melds them: Q Q Q
red3 us: 1
pile: 12
pile_top: 9
frozen: no
hand_sizes: 10 8 11 9
stock: 43
scores: 1250 980
turn: 17
"""


def _variants():
    frozen = FOUR.replace("frozen: no", "frozen: yes")
    wild_top = FOUR.replace("pile_top: 9", "pile_top: 2").replace(
        "hand: 7 7 K K JK 2 5 9 9 A", "hand: 7 7 K K JK 9 5 9 9 A"
    )
    listed = FOUR.replace(
        "pile: 12\npile_top: 9\nfrozen: no", "pile_cards: 4 4 6 8 8 10 J J Q 5 6 9"
    )
    other_moves = FOUR.replace("to_move: 0", "to_move: 1")
    three = """
players: 3
hand: 4 4 6 8 9 10 J Q A A 3
melds them: 6 6 6
melds them2: 8 8 JK
pile: 5
pile_top: 7
frozen: yes
hand_sizes: 11 9 10
stock: 67
scores: -20 1600 3100
"""
    six = """
players: 6
hand: 4 4 6 8 9 10 J Q A A 3 5 5
melds us: 6 6 6 6 6 6 2
pile: 20
pile_top: 9
hand_sizes: 13 12 10 13 9 11
stock: 65
red3 them: 2
"""
    return {
        "four": FOUR,
        "frozen": frozen,
        "wild_top": wild_top,
        "listed": listed,
        "other_moves": other_moves,
        "three": three,
        "six": six,
    }


VARIANTS = _variants()


def _check(state, params):
    comp = np.zeros(N_KINDS, np.int64)
    deck_composition_nb(params, comp)
    return check_state_nb(
        state, params, comp, np.zeros(N_KINDS, np.int64), np.zeros(N_ACTIONS, np.int32)
    )


# ----------------------------------------------------------------------------- exact answer


def test_exact_going_out_probability():
    pos = parse_position(EXACT)
    res = rollout(pos, None, "greedy", rollouts=4000, seed=3, within=(1,))
    n = res.rollouts
    p_hat = float(res.within.query("team == 'us' and k == 1")["p"].iloc[0])
    se = math.sqrt(EXACT_P * (1 - EXACT_P) / n)
    assert abs(p_hat - EXACT_P) < 3 * se, (p_hat, EXACT_P, se)
    # the opponents cannot go out before seat 0 has played its turn
    assert float(res.within.query("team == 'them' and k == 1")["p"].iloc[0]) == 0.0
    # going out on turn 1 happens exactly by melding 5 5 5 / 5 5 + wild, i.e. without a discard
    rec = res.records
    first = (rec["went_out_team"] == 0) & (rec["turns"] == 1)
    assert (rec["end_reason"][first] == End.WENT_OUT).all()


def test_result_tables_are_consistent():
    res = rollout(parse_position(FOUR), None, "expert", rollouts=300, seed=1, within=(1, 3, 1000))
    t = res.teams
    assert list(t["team"]) == ["us", "them"]
    others = res.endings.query("ended != 'went out'")["share"].sum()
    assert t["p_out"].sum() + others == pytest.approx(1.0)
    assert ((t["p_low"] <= t["p_out"]) & (t["p_out"] <= t["p_high"])).all()
    assert ((t["score_low"] <= t["score"]) & (t["score"] <= t["score_high"])).all()
    w = res.within.set_index(["team", "k"])["p"]
    assert w["us", 1] <= w["us", 3] <= w["us", 1000] == pytest.approx(t["p_out"].iloc[0])
    assert "P(team goes out within k turns)" in res.to_text()
    d = res.diffs.iloc[0]
    assert d["difference"] == "us - them" and d["score_low"] < d["score"] < d["score_high"]
    assert d["score"] == pytest.approx(t["score"].iloc[0] - t["score"].iloc[1])
    e = res.endings
    assert ((e["share_low"] <= e["share"]) & (e["share"] <= e["share_high"])).all()


# ----------------------------------------------------------------------------- completions


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_completions_are_consistent(name):
    pos = parse_position(VARIANTS[name])
    setup = prepare(pos)
    params = setup.params
    me = pos.me
    pile_kinds = []
    for seed in range(150):
        st = position_to_state(pos, None, seed)
        assert _check(st, params) == 0
        assert st[Off.PHASE] == Phase.DRAW and st[Off.SEAT] == pos.to_move
        assert st[Off.TURN] == (pos.turn or 0)
        for s, size in enumerate(pos.hand_sizes):
            h = st[Off.HANDS + s * N_KINDS : Off.HANDS + (s + 1) * N_KINDS]
            assert h.sum() == size == st[Off.HAND_SIZE + s]
            assert h[Kind.RED3] == 0
        assert (st[Off.HANDS + me * N_KINDS : Off.HANDS + (me + 1) * N_KINDS] == pos.hand).all()
        assert st[Off.STOCK_LEN] == pos.stock and st[Off.PILE_LEN] == pos.pile_size
        pile = st[Off.PILE : Off.PILE + pos.pile_size] & 15
        if pos.pile_size:
            assert pile[-1] == pos.pile_top == st[Off.PILE_TOP]
        freezers = int(np.isin(pile, (Kind.TWO, Kind.JOKER, Kind.RED3)).sum())
        assert freezers == st[Off.PILE_FREEZE]
        assert (freezers > 0) == pos.frozen
        if pos.pile_cards:
            # the same cards, the same top (the order below the top plays no role in the rules
            # without sequences, and the observation does not record it)
            assert sorted(pile) == sorted(pos.pile_cards) and pile[-1] == pos.pile_cards[-1]
        pile_kinds.append(pile[:-1].copy())
        for pt, ms in enumerate(pos.melds):
            t = setup.engine_team[pt]
            assert st[Off.TEAM_OPENED + t] == (1 if ms else 0)
            assert st[Off.CUM_SCORE + t] == pos.scores[pt]
            assert st[Off.TEAM_MIN + t] == RuleSet.preset("classic", pos.players).minimum_for(
                pos.scores[pt]
            )
    if pos.pile_size > 1 and not pos.pile_cards:
        # the hidden pile cards really are random
        assert len({tuple(p) for p in pile_kinds}) > 100


def test_frozen_pile_wild_is_not_always_first():
    """Rejection sampling: a frozen pile's hidden wild card can be anywhere below the top."""
    pos = parse_position(VARIANTS["frozen"])
    where = set()
    for seed in range(200):
        st = position_to_state(pos, None, seed)
        pile = st[Off.PILE : Off.PILE + pos.pile_size - 1] & 15
        where.update(np.flatnonzero(np.isin(pile, (Kind.TWO, Kind.JOKER))).tolist())
    assert len(where) > 5


def test_hidden_pile_card_is_uniform_over_plain_unseen():
    # pile of 2, not frozen: the card below the top is uniform over the unseen natural cards and
    # black threes (a wild card would freeze the pile, a red three is never in it)
    text = EXACT.replace("pile: 0", "pile: 2\npile_top: 9").replace("stock: 81", "stock: 79")
    pos = parse_position(text)
    rng = np.zeros(2, np.uint64)
    from sim.core.rng import seed_rng_nb

    seed_rng_nb(rng, 5, 0, 0, 0)
    counts = np.zeros(N_KINDS, np.int64)
    n = 6000
    for _ in range(n):
        st = position_to_state(pos, None, rng)
        counts[st[Off.PILE] & 15] += 1
    assert counts[Kind.TWO] == counts[Kind.JOKER] == counts[Kind.RED3] == 0
    # unseen plain: 4 black threes, 4 of 4..A except 5 (6 left), 9 (7 left: top), K (1), Q (5)
    unseen = {Kind.BLACK3: 4, Kind.FIVE: 6, Kind.NINE: 7, Kind.KING: 1, Kind.QUEEN: 5}
    total = sum(unseen.get(k, 8) for k in range(Kind.FOUR, Kind.ACE + 1)) + 4
    p = unseen[Kind.FIVE] / total
    assert abs(counts[Kind.FIVE] / n - p) < 4 * math.sqrt(p * (1 - p) / n)
    assert counts[Kind.KING] > 0


# ----------------------------------------------------------------------------- determinism


def test_rollouts_are_deterministic_and_keyed_per_rollout():
    setup = prepare(parse_position(FOUR))
    a = run_rollouts(setup, "expert", 200, seed=7)
    b = run_rollouts(setup, "expert", 200, seed=7)
    assert (a == b).all()
    c = run_rollouts(setup, "expert", 80, seed=7)
    assert (a[:80] == c).all()
    d = run_rollouts(setup, "expert", 200, seed=8)
    assert not (a == d).all()
    e = run_rollouts(setup, ["expert", "greedy", "expert", "greedy"], 50, seed=7, check=True)
    assert e.shape == (50,)


def test_position_to_state_seed_forms():
    pos = parse_position(FOUR)
    s1 = position_to_state(pos, None, 11)
    assert (s1 == position_to_state(pos, None, 11)).all()
    assert not (s1 == position_to_state(pos, None, 12)).all()
    g = position_to_state(pos, None, np.random.default_rng(0))
    assert _check(g, prepare(pos).params) == 0


# ----------------------------------------------------------------------------- refusals


def _odds(tmp_path, text, *extra):
    f = tmp_path / "pos.txt"
    f.write_text(text)
    return main(["odds", "--position", str(f), "--rollouts", "20", *extra])


BAD = {
    "too many kings": EXACT.replace("hand: 5 5", "hand: K K").replace(
        "hand_sizes: 2 11", "hand_sizes: 2 11"
    ),
    "illegal meld": EXACT.replace("melds them: Q Q Q", "melds them: Q 2 2"),
    "wild meld": EXACT.replace("melds them: Q Q Q", "melds them: Q Q JK JK JK"),
    "counts": EXACT.replace("stock: 81", "stock: 80"),
    "red threes": EXACT.replace("red3 them: 2", "red3 them: 0")
    .replace("stock: 81", "stock: 1")
    .replace("hand_sizes: 2 11", "hand_sizes: 2 93"),
    "empty hand": EXACT.replace("hand_sizes: 2 11", "hand_sizes: 2 0").replace(
        "stock: 81", "stock: 92"
    ),
    "frozen single": EXACT.replace("pile: 0", "pile: 1\npile_top: 9\nfrozen: yes").replace(
        "stock: 81", "stock: 80"
    ),
    "pile listed not frozen": EXACT.replace("pile: 0", "pile_cards: 9 JK 9\nfrozen: no").replace(
        "stock: 81", "stock: 78"
    ),
    "melded seat": EXACT.replace("melds them: Q Q Q\n", "").replace("stock: 81", "stock: 84")
    + "melded: 1\n",
    "unknown key": EXACT + "colour: red\n",
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_impossible_positions_are_refused(tmp_path, capsys, name):
    assert _odds(tmp_path, BAD[name]) == 2
    err = capsys.readouterr().err
    assert err.startswith("canasta odds: error: ") and err.count("\n") == 1, err


def test_cli_refuses_bad_options(tmp_path, capsys):
    assert _odds(tmp_path, EXACT, "--strategy", "nonesuch") == 2
    assert "unknown strategy" in capsys.readouterr().err
    assert _odds(tmp_path, EXACT, "--players", "4") == 2
    assert capsys.readouterr().err.count("\n") == 1
    assert _odds(tmp_path, EXACT, "--strategy", "greedy", "greedy", "greedy") == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_cli_prints_tables(tmp_path, capsys):
    assert _odds(tmp_path, FOUR, "--strategies", "expert", "--seed", "2", "--within", "1", "4") == 0
    out = capsys.readouterr().out
    assert "P(the hand ends by this team going out)" in out and "us" in out and "them" in out
    assert "us - them" in out and "expected score difference [95% CI]" in out


def test_the_readme_example_position_runs(capsys):
    from pathlib import Path

    from sim.cli.main import main

    path = Path(__file__).resolve().parents[1] / "docs" / "position-example.txt"
    assert (
        main(["odds", "--position", str(path), "--strategies", "greedy", "--rollouts", "200"]) == 0
    )
    out = capsys.readouterr().out
    assert "200 rollouts" in out and "P(team goes out within k turns)" in out


# ----------------------------------------------------------------------------- no peeking


def test_rollout_observations_hide_the_unseen_pile_cards():
    """Two worlds that differ only in cards hidden from the viewer (here: a buried pile card
    swapped with a card of another hand) give the viewer's strategy identical observations, as
    the rollouts build them; the plain observation (the old rollouts) would have told them apart."""
    from sim.core.enums import Act
    from sim.play.selfplay.step import build_obs_nb
    from sim.play.worlds.sampler import observe_nb
    from strategies.registry import decide_nb, parse_spec

    pos = parse_position(FOUR)
    setup = prepare(pos)
    hidden = pos.pile_size - 1
    a = position_to_state(pos, None, 3)
    # a card of seat 1's hand whose kind differs from the bottom pile card, swapped into the pile
    low = int(a[Off.PILE]) & 15
    h1 = Off.HANDS + 1 * N_KINDS
    k = next(k for k in range(Kind.FOUR, Kind.ACE + 1) if a[h1 + k] > 0 and k != low)
    b = a.copy()
    b[Off.PILE] = k
    b[h1 + k] -= 1
    b[h1 + low] += 1
    b[Off.PILE_COUNTS + low] -= 1
    b[Off.PILE_COUNTS + k] += 1
    for s in (0, 2):  # seats that see neither seat 1's hand nor the buried card
        oa, ob = np.zeros(Off.STATE_SIZE, np.int32), np.zeros(Off.STATE_SIZE, np.int32)
        observe_nb(a, s, hidden, oa, False)
        observe_nb(b, s, hidden, ob, False)
        assert (oa == ob).all()
        build_obs_nb(a, s, oa, False)
        build_obs_nb(b, s, ob, False)
        assert not (oa == ob).all()  # the leak the rollouts no longer have
    sid, knobs = parse_spec("expert")
    buf = np.zeros(N_ACTIONS, np.int32)
    rng = np.zeros(2, np.uint64)
    obs = np.zeros(Off.STATE_SIZE, np.int32)
    observe_nb(a, 0, hidden, obs, False)
    assert (obs == setup.obs).sum() > 0
    act_a = decide_nb(sid, obs, setup.params, knobs, rng, buf)
    observe_nb(b, 0, hidden, obs, False)
    assert decide_nb(sid, obs, setup.params, knobs, rng, buf) == act_a
    assert act_a in range(Act.N_ACTIONS)


def test_rollouts_start_from_the_observation_only():
    setup = prepare(parse_position(FOUR))
    # nothing beyond the public part and the viewer's own hand: no other hand, pile order, stock
    assert (setup.obs[Off.HANDS + N_KINDS :] == 0).all()
    assert setup.obs[Off.PILE_COUNTS : Off.PILE_COUNTS + N_KINDS].sum() == 1  # the top card only
