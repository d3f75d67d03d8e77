"""Random-play conformance for every preset x player count, and the core against the
independent referee on thousands of hands."""

from __future__ import annotations

import functools

import numpy as np
import pytest

from sim.core.enums import Off
from sim.core.referee import IllegalAction, referee_hand
from sim.core.rules import RuleSet
from sim.play.engine import EngineError, run_chunk
from sim.play.pyplay import play_hand_py

VARIANTS = [
    (preset, players, layout)
    for preset in ("classic", "german")
    for players, layout in ((2, None), (3, None), (4, None), (5, None), (6, "2x3"), (6, "3x2"))
] + [("samba", 4, None)]


@pytest.mark.parametrize(("preset", "players", "layout"), VARIANTS)
def test_random_play_invariants_hold(preset, players, layout):
    """--check mode: after every action every card is accounted for, melds are legal, no hand
    empties without going out, the frozen state matches the pile, the player to act always has
    a legal action, and the score matches a recomputation from the cards on the table."""
    rules = RuleSet.preset(preset, players=players, team_layout=layout)
    res = run_chunk(rules, ("random",) * players, seed=11, start=0, count=400, check=True)
    assert len(res.hands) == 400
    # every hand ends for a reason the rules know, and some end each common way
    reasons = np.bincount(res.hands["end_reason"], minlength=5)
    assert reasons[0] == 0
    assert reasons[1] > 0  # went out
    games = run_chunk(
        rules, ("random",) * players, seed=11, start=0, count=3, mode="games", check=True
    )
    assert len(games.games) == 3
    assert (games.games["hands"] >= 1).all()


def test_games_reach_the_target_and_use_cumulative_minimums():
    rules = RuleSet.preset("classic")
    res = run_chunk(rules, ("random",) * 4, seed=5, start=0, count=20, mode="games", check=True)
    for g in res.games:
        hands = res.hands[res.hands["game"] == g["game"]]
        cum = np.cumsum(hands["score"][:, :2], axis=0)
        assert (hands["cum_before"][1:, :2] == cum[:-1]).all()
        assert (cum[-1] == g["final"][:2]).all()
        if not g["capped"]:
            assert cum[-1].max() >= rules.game_target
            assert (cum[:-1].max(axis=1) < rules.game_target).all()
        # the dealer rotates
        assert list(hands["dealer"]) == [(g["game"] + h) % 4 for h in range(len(hands))]


def _referee_check(rules: RuleSet, seed: int, n_hands: int, cum=None) -> int:
    agreed = 0
    for game in range(n_hands):
        gs = play_hand_py(
            rules, ["random"] * rules.players, seed=seed, game=game, hand=0, cum_scores=cum
        )
        cum_scores = list(cum or [0] * rules.n_teams)
        dealer = int(gs.state[Off.DEALER])
        try:
            ref = referee_hand(gs.params, list(gs.deck), dealer, cum_scores, gs.actions)
        except IllegalAction as exc:  # pragma: no cover - the failure message is the point
            pytest.fail(
                f"referee refused step {exc.step} "
                f"({gs.history[exc.step].text if exc.step < len(gs.history) else '-'}) "
                f"of hand seed={seed} game={game}: {exc.reason}"
            )
        core = gs.score_breakdown()
        assert ref.score == core["score"], (seed, game)
        assert ref.meld_points == core["meld_points"]
        assert ref.canasta_bonus == core["canasta_bonus"]
        assert ref.red3_points == core["red3_points"]
        assert ref.go_out_bonus == core["go_out_bonus"]
        assert ref.hand_penalty == core["hand_penalty"]
        assert ref.end_reason == int(gs.state[Off.END_REASON])
        assert ref.concealed == bool(gs.state[Off.CONCEALED])
        agreed += 1
    return agreed


def test_core_and_referee_agree_classic_4p():
    assert _referee_check(RuleSet.preset("classic"), seed=1, n_hands=1500) == 1500


@pytest.mark.parametrize(
    ("preset", "players", "layout", "cum"),
    [
        ("classic", 2, None, [1600, -20]),
        ("classic", 3, None, [3100, 0, 200]),
        ("german", 4, None, [0, 0]),
        ("classic", 6, "2x3", [7600, 100]),
        ("classic", 6, "3x2", [0, 0, 0]),
        ("german", 5, None, [0, 0]),
    ],
)
def test_core_and_referee_agree_other_variants(preset, players, layout, cum):
    rules = RuleSet.preset(preset, players=players, team_layout=layout)
    assert _referee_check(rules, seed=2, n_hands=150, cum=cum) == 150


def test_core_and_referee_agree_samba():
    """Samba: suits, sequences, several melds per rank, draw two.  The referee replays the
    engine's suit choices from ENGINE.md and checks every action with its exact opening search."""
    assert _referee_check(RuleSet.preset("samba"), seed=3, n_hands=300) == 300


@pytest.mark.parametrize("cum", [[7000, -20], [1600, 3100]])
def test_core_and_referee_agree_samba_minimums(cum):
    assert _referee_check(RuleSet.preset("samba"), seed=4, n_hands=100, cum=cum) == 100


def test_results_do_not_depend_on_chunking():
    rules = RuleSet.preset("classic")
    whole = run_chunk(rules, ("random",) * 4, seed=9, start=0, count=60, log_rate=0.5)
    parts = [
        run_chunk(rules, ("random",) * 4, seed=9, start=s, count=20, log_rate=0.5)
        for s in (0, 20, 40)
    ]
    assert np.array_equal(whole.hands, np.concatenate([p.hands for p in parts]))
    assert np.array_equal(whole.decisions, np.concatenate([p.decisions for p in parts]))


def test_a_hand_is_reproducible_from_its_key_alone():
    rules = RuleSet.preset("classic")
    many = run_chunk(rules, ("random",) * 4, seed=4, start=0, count=30)
    one = run_chunk(rules, ("random",) * 4, seed=4, start=17, count=1)
    assert np.array_equal(many.hands[17], one.hands[0])
    other_seed = run_chunk(rules, ("random",) * 4, seed=5, start=17, count=1)
    assert (
        not np.array_equal(other_seed.hands[0]["score"], one.hands[0]["score"])
        or other_seed.hands[0]["turns"] != one.hands[0]["turns"]
    )


def test_python_play_matches_kernel_play():
    rules = RuleSet.preset("classic")
    res = run_chunk(rules, ("random",) * 4, seed=3, start=0, count=25)
    for game in range(25):
        gs = play_hand_py(rules, ["random"] * 4, seed=3, game=game, hand=0)
        assert gs.score_breakdown()["score"] == list(res.hands[game]["score"][:2])
        assert len(gs.history) == res.hands[game]["decisions"]


def test_decision_log_rate_is_a_sample_of_whole_hands():
    rules = RuleSet.preset("classic")
    res = run_chunk(rules, ("random",) * 4, seed=1, start=0, count=400, log_rate=0.25)
    logged = np.unique(res.decisions["game"])
    assert 60 < len(logged) < 140
    for g in logged[:10]:
        assert (res.decisions["game"] == g).sum() == res.hands[g]["decisions"]


def test_illegal_action_from_a_strategy_stops_the_run_with_the_key(monkeypatch):
    from sim.play import pyplay

    class Cheater:
        def decide(self, obs, params, legal, rng):
            return 98 + 13  # discard a joker it may not have

    rules = RuleSet.preset("classic")
    with pytest.raises(pyplay.StrategyIllegalError, match=r"Cheater.*seed=0 game=0 hand=0"):
        play_hand_py(rules, [Cheater()] * 4)
    _ = EngineError


def test_decision_rows_carry_the_hands_outcome():
    rules = RuleSet.preset("classic", players=6, team_layout="3x2")
    res = run_chunk(rules, ("greedy",) * 6, seed=2, start=0, count=40, log_rate=1.0)
    by_game = {int(h["game"]): h for h in res.hands}
    for d in res.decisions[::7]:
        h = by_game[int(d["game"])]
        scores = list(h["score"][:3])
        assert d["score_us"] == scores[d["team"]]
        assert d["score_them"] == max(s for t, s in enumerate(scores) if t != d["team"])
        assert d["went_out_us"] == int(h["went_out_team"] == d["team"])


@functools.cache
def _legal_list_mismatch():
    """A compiled brute-force check: at every step of random play, legal_actions_nb lists
    exactly the actions why_illegal_nb accepts (it enumerates with the same checkers, pruned),
    in the documented order: melds and additions by kind (a natural added, then the other
    variants), sequences, discards by kind.  Strategies choose by position in the list, so
    the order is part of what makes a seed reproduce a result."""
    from numba import njit

    from sim.core.apply import apply_action_nb
    from sim.core.enums import N_ACTIONS, N_KINDS, Act, Phase
    from sim.core.legal import legal_actions_nb, why_illegal_nb
    from sim.core.rng import randint_nb

    @njit
    def order_key(a):
        if a < Act.MELD or a >= Act.TAKE_SEQ:
            return a  # the draw phase: by id
        if a >= Act.SEQ_NEW:
            return 2000 + a  # sequences after every meld and addition
        if a >= Act.DISCARD:
            return 3000 + a  # discards last, by kind
        if a < Act.ADD_NAT:
            kind, rank = (a - Act.MELD) // 3, 1 + (a - Act.MELD) % 3
        elif a < Act.ADD_TWO:
            kind, rank = a - Act.ADD_NAT, 0
        elif a < Act.ADD_JOKER:
            kind, rank = a - Act.ADD_TWO, 1
        else:
            kind, rank = a - Act.ADD_JOKER, 2
        return 1000 + kind * 10 + rank

    @njit  # not cached: it is compiled once per test process (a few seconds)
    def mismatch(state, params, rng, buf):
        step = 0
        while state[Off.PHASE] != Phase.OVER:
            hand_off = Off.HANDS + state[Off.SEAT] * N_KINDS
            n = legal_actions_nb(state, hand_off, params, buf)
            m = 0
            for a in range(N_ACTIONS):
                if why_illegal_nb(state, hand_off, params, a) == 0:
                    m += 1
                    found = False
                    for j in range(n):
                        if buf[j] == a:
                            found = True
                    if not found:
                        return step
            if m != n or n == 0:
                return step
            for j in range(1, n):
                if order_key(buf[j]) <= order_key(buf[j - 1]):
                    return step
            apply_action_nb(state, params, buf[randint_nb(rng, n)])
            step += 1
        return -1

    return mismatch


@pytest.mark.parametrize(("preset", "players", "layout"), VARIANTS)
def test_legal_list_is_exactly_what_why_illegal_accepts(preset, players, layout):
    from sim.core.enums import N_ACTIONS
    from sim.play.game import GameState

    mismatch = _legal_list_mismatch()
    rules = RuleSet.preset(preset, players=players, team_layout=layout)
    rng = np.array([12345, 678], np.uint64)
    buf = np.zeros(N_ACTIONS, np.int32)
    for game in range(60):
        gs = GameState.new_hand(rules, seed=21, game=game)
        step = mismatch(gs.state, gs.params, rng, buf)
        assert step == -1, f"{preset} {players}p game {game}: the legal list differs at step {step}"
