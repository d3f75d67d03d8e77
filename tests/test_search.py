"""Search players (sim.play.search): no hidden card read, determinism, equivalence with the base."""

from __future__ import annotations

import numpy as np
import pytest

from sim.core.enums import N_KINDS, Off, Phase
from sim.core.rules import RuleSet
from sim.play.engine import run_chunk
from sim.play.game import GameState
from sim.play.search.api import search_decide
from sim.play.search.pimc import ST_ROLLOUTS, ST_SEARCHED
from sim.play.search.spec import parse_search
from sim.play.worlds.sampler import Know
from strategies.registry import StrategyError, decide_nb, parse_spec

RULES = RuleSet.preset("classic", players=4)


def _expert_until(gs: GameState, seat: int, min_turn: int) -> None:
    """Play expert-v1 at every seat until ``seat`` is to act in its meld phase at turn >= min_turn
    (the positions the swap tests search from)."""
    sid, knobs = parse_spec("expert-v1")
    rng = np.zeros(2, np.uint64)
    buf = np.zeros(256, np.int32)
    while not gs.is_over:
        if gs.seat == seat and gs.state[Off.TURN] >= min_turn and gs.state[Off.PHASE] == Phase.MELD:
            return
        a = int(decide_nb(sid, gs.observation(), gs.params, knobs, rng, buf))
        gs.apply(a)
    pytest.skip("the hand ended before the decision")


def _swap_hidden(state: np.ndarray, know: np.ndarray) -> np.ndarray:
    """A copy of ``state`` with a card of seat 1 swapped with a card of another kind of seat 2
    (neither known to the viewer) and the stock's top card swapped with another stock card."""
    s2 = state.copy()
    known = know[Know.KNOWN : Know.KNOWN + 6 * N_KINDS].reshape(6, N_KINDS)
    h1 = Off.HANDS + 1 * N_KINDS
    h2 = Off.HANDS + 2 * N_KINDS
    for k1 in range(N_KINDS):
        for k2 in range(N_KINDS):
            if k1 != k2 and s2[h1 + k1] > known[1, k1] and s2[h2 + k2] > known[2, k2]:
                s2[h1 + k1] -= 1
                s2[h1 + k2] += 1
                s2[h2 + k2] -= 1
                s2[h2 + k1] += 1
                top = Off.STOCK + s2[Off.STOCK_POS]
                for j in range(1, s2[Off.STOCK_LEN]):
                    if s2[top + j] & 15 != s2[top] & 15:
                        s2[top], s2[top + j] = s2[top + j], s2[top]
                        break
                return s2
    pytest.skip("no hidden cards to swap")


def _greedy_opponents() -> tuple[np.ndarray, np.ndarray]:
    """The table arrays of expert (seats 0, 2) against greedy (seats 1, 3)."""
    (eid, ek), (gid, gk) = parse_spec("expert"), parse_spec("greedy")
    ids = np.array([eid, gid, eid, gid, eid, gid], np.int64)
    return ids, np.stack([ek, gk, ek, gk, ek, gk]).astype(np.float64)


@pytest.mark.parametrize(
    "spec,table",
    [
        ("pimc:worlds=6,search=all", None),
        ("ismcts:iters=24,search=all", None),
        ("pimc:worlds=6,search=all", "greedy"),
    ],
)
def test_swapping_hidden_cards_keeps_the_decision(spec, table):
    for game in range(3):
        gs = GameState.new_hand(RULES, seed=5, game=game)
        _expert_until(gs, 0, 8)
        know = gs.knowledge(0)
        assert know[Know.SNAP_VALID + 1] or know[Know.SNAP_VALID + 2] or know[Know.SNAP_VALID + 3]
        s2 = _swap_hidden(gs.state, know)
        assert not np.array_equal(
            s2[Off.HANDS : Off.HANDS + 4 * N_KINDS], gs.state[Off.HANDS : Off.HANDS + 4 * N_KINDS]
        )
        g2 = GameState(gs.rules, s2, gs.params, gs.deck, gs.seat_table, gs.key, know=gs.know.copy())
        assert np.array_equal(g2.observation(0), gs.observation(0))
        tab = _greedy_opponents() if table else None
        a1, st1 = search_decide(spec, gs.state, know, gs.params, (5, game, 0), tab)
        a2, st2 = search_decide(spec, s2, know, gs.params, (5, game, 0), tab)
        assert st1[ST_SEARCHED] == 1 and st1[ST_ROLLOUTS] > 0
        assert a1 == a2
        assert np.array_equal(st1, st2)  # the same rollouts, deviations, world statistics


def test_a_search_with_an_impossible_guard_plays_like_its_base():
    """guard=1e9: every searched decision falls back to the base: the same hands as all-expert
    (checks that the search loop deals, plays and scores like the plain loop)."""
    a = run_chunk(RULES, ["pimc:worlds=2,guard=1e9", "expert", "expert", "expert"], 3, 0, 3).hands
    b = run_chunk(RULES, ["expert"] * 4, 3, 0, 3).hands  # expert: the search players' base
    assert np.array_equal(a, b)


def test_search_tables_log_cards_and_record_luck_and_start_scores_like_plain_tables():
    """The one self-play loop serves search tables: with guard=1e9 (the base's choice every time)
    the hands, chance terms, basic and card-detail decision columns equal all-expert play's."""
    kw = {
        "log_rate": 1.0,
        "log_detail": "cards",
        "luck": True,
        "start_scores": [600, 1600],
        "check": True,
    }
    a = run_chunk(
        RULES,
        ["expert-v1", "pimc:worlds=2,guard=1e9,base=expert-v1", "expert-v1", "expert-v1"],
        3,
        0,
        2,
        **kw,
    )
    b = run_chunk(RULES, ["expert-v1"] * 4, 3, 0, 2, **kw)
    assert np.array_equal(a.hands, b.hands)
    assert np.any(a.hands["luck"] != 0) and (a.hands["cum_before"][:, :2] == [600, 1600]).all()
    assert a.decision_columns.keys() == b.decision_columns.keys()
    assert len(a.decision_columns) > len(
        run_chunk(RULES, ["expert-v1"] * 4, 3, 0, 1, log_rate=1.0).decision_columns
    )
    for name, col in b.decision_columns.items():
        assert np.array_equal(a.decision_columns[name], col), name
    # a searching seat that deviates plays the same with or without chance terms recorded
    spec = ["pimc:worlds=4,guard=0", "expert-v1", "ismcts:iters=8", "expert-v1"]
    c = run_chunk(RULES, spec, 3, 0, 2, luck=True).hands
    d = run_chunk(RULES, spec, 3, 0, 2).hands
    assert np.any(c["luck"] != 0) and not np.any(d["luck"] != 0)
    d["luck"] = c["luck"]
    assert np.array_equal(c, d)


def test_results_depend_on_the_hand_key_only():
    spec = ["pimc:worlds=4", "expert", "ismcts:iters=16", "greedy"]
    whole = run_chunk(RULES, spec, 11, 0, 4, check=True).hands
    parts = np.concatenate(
        [run_chunk(RULES, spec, 11, 0, 1).hands, run_chunk(RULES, spec, 11, 1, 3).hands]
    )
    assert np.array_equal(whole, parts)


def test_the_other_seats_are_modelled_by_the_strategies_seated_there_unless_model_base():
    """model=table (default) is model=base where every seat plays the base; with greedy
    opponents the seated model changes the worlds and rollouts, so the play."""

    def hands(spec: str, others: list[str]) -> np.ndarray:
        return run_chunk(RULES, [spec, *others], 3, 0, 4).hands

    experts = ["expert"] * 3  # every seat plays the base (expert, the default)
    assert np.array_equal(
        hands("pimc:worlds=3,guard=0", experts), hands("pimc:worlds=3,guard=0,model=base", experts)
    )
    greedy = ["greedy", "expert", "greedy"]
    assert not np.array_equal(
        hands("pimc:worlds=3,guard=0", greedy), hands("pimc:worlds=3,guard=0,model=base", greedy)
    )


def test_search_specs_are_checked():
    assert parse_search("pimc:worlds=8,base=greedy,search=take+discard").knobs["worlds"] == 8
    assert (
        parse_search("pimc").knobs["model"] == "table"
        and parse_search("ismcts:model=base").knobs["model"] == "base"
    )
    for bad in (
        "pimc:model=oracle",
        "pimc:world=8",
        "pimc:worlds=0",
        "pimc:worlds=2.5",
        "pimc:base=nobody",
        "pimc:search=take+peek",
        "ismcts:c=-1",
        "ismcts:iters=x",
    ):
        with pytest.raises(StrategyError):
            parse_search(bad)
    with pytest.raises(ValueError):
        run_chunk(RULES, ["pimc:worlds=-3", "expert", "expert", "expert"], 0, 0, 1)


def test_runner_accepts_search_players_and_names_bad_knobs():
    from sim.runs import runner

    names = runner.registered_strategies()
    assert "pimc" in names and "ismcts" in names
    runner.check_strategy_names(["pimc:worlds=8,guard=0.5", "ismcts:iters=32", "expert"], names)
    with pytest.raises(ValueError, match="no knob 'worldz'"):
        runner.check_strategy_names(["pimc:worldz=8"], names)
    assert runner.split_strategies("pimc:worlds=8,guard=1,greedy") == [
        "pimc:worlds=8,guard=1",
        "greedy",
    ]


def test_compare_and_sweep_read_search_specs_with_the_one_checker():
    # compare / round_robin / sweep validate strategies through sim.play.specs.check_spec
    from reports.checks import strategy_list
    from sim.core.errors import CanastaError

    assert strategy_list(["pimc:worlds=8", "expert"]) == ["pimc:worlds=8", "expert"]
    with pytest.raises(CanastaError):
        strategy_list(["pimc:worlds=lots", "expert"])
    with pytest.raises(CanastaError):
        strategy_list(["pimcc", "expert"])
