"""Strategies: legal play everywhere, the Python tier matches the fast tier, knob parsing, and a
strength smoke test (greedy beats random on duplicate deals)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from sim.core.rules import RuleSet
from sim.play.engine import run_chunk
from sim.play.pyplay import play_hand_py
from strategies.python_tier import PyGreedy, PythonStrategy
from strategies.registry import MAX_KNOBS, STRATEGY_NAMES, StrategyError, knob_defaults, parse_spec

NAMES = ("random", "greedy", "patient", "pile-control", "expert", "tunable", "expert-v1")
TABLES = [(2, None), (3, None), (4, None), (5, None), (6, "2x3"), (6, "3x2")]


def _rules(preset: str, players: int, layout: str | None) -> RuleSet:
    return (
        RuleSet.preset(preset, players=players, team_layout=layout)
        if layout
        else RuleSet.preset(preset, players=players)
    )


def test_registry_names():
    assert STRATEGY_NAMES == NAMES


@pytest.mark.parametrize("preset", ["classic", "german"])
@pytest.mark.parametrize("players,layout", TABLES)
def test_every_strategy_plays_legally(preset, players, layout):
    """Every strategy, alone at the table and mixed with the others, under the invariant checks:
    an illegal action or a broken invariant raises EngineError."""
    rules = _rules(preset, players, layout)
    for name in NAMES:
        n = 40 if name == "random" else 120
        res = run_chunk(rules, [name] * players, seed=11, start=0, count=n, check=True)
        assert len(res.hands) == n
        if name != "random":
            # real strategies end their hands by going out, not by the safety cap
            assert (res.hands["end_reason"] != 4).all(), name
    mixed = [NAMES[1 + (i % (len(NAMES) - 1))] for i in range(players)]
    res = run_chunk(rules, mixed, seed=12, start=0, count=150, check=True, mode="hands")
    assert len(res.hands) == 150


def test_games_mode_with_all_strategies():
    rules = RuleSet.preset("classic")
    res = run_chunk(
        rules,
        ["expert", "pile-control", "patient", "tunable:freeze_when=2,concealed=1"],
        3,
        0,
        10,
        mode="games",
        check=True,
    )
    assert len(res.games) == 10


def test_python_greedy_matches_fast_greedy():
    rules = RuleSet.preset("classic")
    for game in range(50):
        fast = play_hand_py(rules, ["greedy"] * 4, seed=5, game=game, hand=0)
        slow = play_hand_py(rules, [PyGreedy()] * 4, seed=5, game=game, hand=0)
        assert fast.actions == slow.actions, f"game {game}: the action histories differ"
        assert fast.score_breakdown() == slow.score_breakdown()


def test_python_callers_get_the_compiled_decision_functions_actions(monkeypatch):
    """decision_kernel runs random's Python body over the compiled kernels it calls
    (registry.PYTHON_BODY): every action is the compiled decide_nb's."""
    from sim.play import pyplay
    from strategies import registry

    assert registry.PYTHON_BODY == {"random"}
    rules = RuleSet.preset("classic")
    body = [play_hand_py(rules, ["random"] * 4, seed=3, game=g, hand=0).actions for g in range(20)]
    assert (
        registry.decision_kernel(STRATEGY_NAMES.index("random"))
        is registry.KERNELS["random"].py_func
    )
    monkeypatch.setattr(
        pyplay,
        "decision_kernel",
        lambda sid: list(registry.KERNELS.values())[registry.KERNEL_OF[sid]],
    )
    assert [
        play_hand_py(rules, ["random"] * 4, seed=3, game=g, hand=0).actions for g in range(20)
    ] == body


def test_python_greedy_matches_on_other_tables():
    for preset, players, layout in (
        ("german", 4, None),
        ("classic", 3, None),
        ("classic", 6, "3x2"),
        ("samba", 4, None),
    ):
        rules = _rules(preset, players, layout)
        for game in range(6):
            fast = play_hand_py(rules, ["greedy"] * players, seed=9, game=game, hand=0)
            slow = play_hand_py(rules, [PyGreedy()] * players, seed=9, game=game, hand=0)
            assert fast.actions == slow.actions


def test_python_base_strategy_plays_first_legal():
    rules = RuleSet.preset("classic")
    gs = play_hand_py(
        rules, [PythonStrategy(), "greedy", PythonStrategy(), "greedy"], seed=1, game=0, hand=0
    )
    assert gs.is_over


def test_parse_spec_knobs():
    sid, vec = parse_spec("tunable:open_threshold=70,freeze_when=2")
    assert STRATEGY_NAMES[sid] == "tunable"
    names = list(knob_defaults("tunable"))
    assert vec.shape == (MAX_KNOBS,)
    assert vec[names.index("open_threshold")] == 70.0
    assert vec[names.index("freeze_when")] == 2.0
    # untouched knobs keep their defaults
    assert vec[names.index("take_min_pile")] == knob_defaults("tunable")["take_min_pile"]
    # the presets share the knob names, with their own defaults
    assert list(knob_defaults("expert")) == names
    assert knob_defaults("patient")["open_with_pile_only"] == 1.0
    assert parse_spec("greedy")[1].sum() == 0.0


@pytest.mark.parametrize(
    "spec,fragment",
    [
        ("tunable:bogus=1", "has no knob 'bogus'"),
        ("tunable:open_threshold", "has no value"),
        ("tunable:open_threshold=lots", "is not a number"),
        ("greedy:open_threshold=1", "its knobs: none"),
        ("grredy", "unknown strategy"),
    ],
)
def test_parse_spec_errors(spec, fragment):
    with pytest.raises(StrategyError, match=fragment):
        parse_spec(spec)


def test_knobs_change_play():
    rules = RuleSet.preset("classic")
    a = run_chunk(rules, ["tunable"] * 4, 4, 0, 60).hands
    b = run_chunk(rules, ["tunable:safe_discard=0,pair_hold=0"] * 4, 4, 0, 60).hands
    assert not np.array_equal(a["score"], b["score"])


def test_greedy_beats_random_duplicate():
    rules = RuleSet.preset("classic")
    n = 400
    r1 = run_chunk(rules, ["greedy", "random", "greedy", "random"], 21, 0, n).hands
    r2 = run_chunk(rules, ["random", "greedy", "random", "greedy"], 21, 0, n).hands
    d = ((r1["score"][:, 0] - r1["score"][:, 1]) + (r2["score"][:, 1] - r2["score"][:, 0])) / 2.0
    lo = d.mean() - 1.96 * d.std(ddof=1) / math.sqrt(n)
    assert lo > 0, (d.mean(), lo)


@pytest.mark.parametrize(
    ("preset", "players", "layout"),
    [("classic", 4, None), ("classic", 6, "3x2"), ("classic", 3, None)],
)
def test_logged_canasta_counts_match_the_table(preset, players, layout):
    """The logging loop recounts canastas only after a meld that could complete one; check mode
    compares its counts with a full count at every logged decision (invariant 13)."""
    rules = RuleSet.preset(preset, players=players, team_layout=layout)
    for name in ("greedy", "expert", "random"):
        res = run_chunk(
            rules, [name] * players, seed=17, start=0, count=60, check=True, log_rate=1.0
        )
        assert (res.decisions["canastas_us"] > 0).any(), name


def test_every_strategy_plays_samba_legally_and_uses_sequences():
    rules = RuleSet.preset("samba")
    for name in NAMES:
        n = 30 if name == "random" else 80
        res = run_chunk(rules, [name] * 4, seed=13, start=0, count=n, check=True, log_rate=1.0)
        assert len(res.hands) == n
        if name in ("greedy", "expert"):
            # they lay and extend sequences (decision type 5) and go out with two canastas
            assert (res.decisions["decision_type"] == 5).sum() > n
            assert (res.hands["end_reason"] == 1).mean() > 0.5, name


# modules whose numba kernels run in the hot loop, and the only kernels there that may keep
# numba's reference-counting runtime (they allocate their scratch arrays); docs/ENGINE.md
HOT_MODULES = (
    "sim.core.legal",
    "sim.core.readers",
    "sim.core.opening",
    "sim.core.suits",
    "sim.core.why",
    "sim.core.apply",
    "sim.play.selfplay.loop",
    "sim.play.selfplay.cardlog",
    "sim.core.rng",
    "sim.play.rollouts.from_position",
    "sim.play.worlds.sampler",
    "sim.play.rollouts.actions",
    "sim.core.luck",
    "sim.play.search.pimc",
    "sim.play.search.ismcts",
    "sim.play.search.loop",
    "strategies.registry",
    "strategies.greedy",
    "strategies.heuristic",
    "strategies.random_play",
    "strategies.sequences",
)
ALLOCATING_KERNELS = {
    "sim.play.selfplay.loop.play_chunk_nb",
    "sim.play.rollouts.from_position.rollouts_nb",
    "sim.play.worlds.sampler.sample_worlds_nb",
    "sim.play.rollouts.actions.rollout_actions_nb",
}


def test_hot_loop_kernels_are_compiled_without_nrt():
    import importlib

    from numba.core.registry import CPUDispatcher

    seen = 0
    for mod_name in HOT_MODULES:
        mod = importlib.import_module(mod_name)
        for name, obj in vars(mod).items():
            if not isinstance(obj, CPUDispatcher) or obj.py_func.__module__ != mod_name:
                continue
            seen += 1
            full = f"{mod_name}.{name}"
            assert type(obj._cache).__name__ != "NullCache", f"{full} lacks cache=True"
            nrt = obj.targetoptions.get("_nrt", True)
            if full in ALLOCATING_KERNELS:
                assert nrt is True, f"{full} allocates and needs the runtime"
            else:
                assert nrt is False, (
                    f"{full} runs in the hot loop: declare @njit(cache=True, _nrt=False)"
                )
    assert seen > 60


def test_players_guide_strategy_example_plays_legally(tmp_path):
    """The worked example of a fast strategy in docs/players.md compiles and plays a whole hand of
    legal actions (driven through GameState, action by action)."""
    import importlib.util
    import re
    from pathlib import Path

    from sim.core.enums import N_ACTIONS
    from sim.play.game import GameState

    readme = (Path(__file__).resolve().parents[1] / "docs" / "players.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", readme, re.S)
    code = next(b for b in blocks if "def decide_nb(obs, params, knobs, rng, buf)" in b)
    path = tmp_path / "readme_strategy.py"
    path.write_text(code)
    spec = importlib.util.spec_from_file_location("readme_strategy", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    knobs = np.array(list(module.KNOBS.values()), np.float64)
    rng = np.zeros(2, np.uint64)
    buf = np.zeros(N_ACTIONS, np.int32)
    for game in range(3):
        gs = GameState.new_hand(seed=4, game=game)
        steps = 0
        while not gs.is_over:
            a = int(module.decide_nb(gs.observation(), gs.params, knobs, rng, buf))
            assert gs.why_illegal(a) is None, f"the guide's strategy chose {gs.text(a)!r}"
            gs.apply(a)
            steps += 1
            assert steps < 5000
        assert steps > 10


def test_dispatch_follows_names_not_positions():
    """Reordering the strategy or kernel tables renumbers ids and codes but never changes which
    decision function a named strategy gets."""
    from strategies import registry

    def who_plays(strategies, kernels):
        table = registry.kernel_table(strategies, kernels)
        kernel_names = list(kernels)
        ids = list(strategies)
        return {name: kernel_names[table[ids.index(name)]] for name in strategies}

    base = who_plays(registry.STRATEGIES, registry.KERNELS)
    assert (
        base["expert"] == "heuristic" and base["greedy"] == "greedy" and base["random"] == "random"
    )
    rev_s = dict(reversed(list(registry.STRATEGIES.items())))
    rev_k = dict(reversed(list(registry.KERNELS.items())))
    assert who_plays(rev_s, rev_k) == base
    assert who_plays(rev_s, registry.KERNELS) == base
    # a module whose decision function is not registered is refused, not played by another one
    with pytest.raises(ValueError, match="not in KERNELS"):
        registry.kernel_table(registry.STRATEGIES, {"greedy": registry.KERNELS["greedy"]})


def test_dispatcher_plays_each_strategy_module():
    """The compiled dispatcher returns what each strategy's own decide_nb returns, on every
    decision of a few hands (so every kernel has its branch)."""
    from sim.core.enums import N_ACTIONS
    from sim.play.game import GameState
    from strategies import registry

    buf = np.zeros(N_ACTIONS, np.int32)
    for name, module in registry.STRATEGIES.items():
        sid, knobs = parse_spec(name)
        for game in range(2):
            gs = GameState.new_hand(seed=8, game=game)
            rng = np.array([game + 1, 99], np.uint64)
            steps = 0
            while not gs.is_over and steps < 400:
                obs = gs.observation()
                r1, r2 = rng.copy(), rng.copy()
                a = int(registry.decide_nb(sid, obs, gs.params, knobs, r1, buf))
                b = int(module.decide_nb(obs, gs.params, knobs, r2, buf))
                assert a == b, (name, steps)
                assert (r1 == r2).all()
                gs.apply(a)
                rng = r1
                steps += 1


def test_knob_tables():
    """One row per knob: the index constants follow the table, every knob vector fits."""
    from strategies import heuristic, registry
    from strategies.knobs import Knob, knob_index

    assert heuristic.K._fields == tuple(k.name for k in heuristic.KNOB_TABLE)
    assert [getattr(heuristic.K, k.name) for k in heuristic.KNOB_TABLE] == list(
        range(len(heuristic.KNOB_TABLE))
    )
    assert all(k.meaning for k in heuristic.KNOB_TABLE)
    for name, module in registry.STRATEGIES.items():
        assert len(module.KNOBS) <= registry.MAX_KNOBS, name
        if module.decide_nb is heuristic.decide_nb:
            assert list(module.KNOBS) == list(heuristic.K._fields), name
    with pytest.raises(ValueError, match="twice"):
        knob_index("X", (Knob("a", 0.0, "m"), Knob("a", 1.0, "m")))
    with pytest.raises(KeyError, match="no knob"):
        heuristic.knobs_with(bogus=1)
