"""The Python API refuses bad input as the command line does (issue 12): one documented
exception type, sim.core.errors.CanastaError, with a one-line message naming the argument."""

from __future__ import annotations

import pytest

from reports import checks
from reports.compare import compare, round_robin
from reports.sweep import sweep
from sim.core.errors import CanastaError
from sim.core.rules import RuleSet
from sim.play.game import GameState
from sim.runs import runner, store

RULES = RuleSet.preset("classic")


def _gs():
    return GameState.new_hand(RULES, seed=1)


CASES = [
    ("new_hand seed=-1", lambda: GameState.new_hand(seed=-1), "seed=-1"),
    ("new_hand seed=1.5", lambda: GameState.new_hand(seed=1.5), "seed=1.5"),
    ("new_hand seed=2**64", lambda: GameState.new_hand(seed=2**64), "seed="),
    ("new_hand game=-1", lambda: GameState.new_hand(game=-1), "game=-1"),
    ("new_hand hand='1'", lambda: GameState.new_hand(hand="1"), "hand='1'"),
    ("new_hand deck=[999]*108", lambda: GameState.new_hand(deck=[999] * 108), "deck[0]=999"),
    ("new_hand cum nan", lambda: GameState.new_hand(cum_scores=[float("nan"), 0]), "cum_scores[0]"),
    ("new_hand cum 3 teams", lambda: GameState.new_hand(cum_scores=[0, 0, 0]), "one per team"),
    ("new_hand dealer=9", lambda: GameState.new_hand(dealer=9), "dealer=9"),
    ("new_hand rules='classic'", lambda: GameState.new_hand("classic"), "RuleSet"),
    ("apply(None)", lambda: _gs().apply(None), "action None"),
    ("apply(2**70)", lambda: _gs().apply(2**70), "no such action id"),
    ("apply(-1)", lambda: _gs().apply(-1), "no such action id"),
    ("apply('fly')", lambda: _gs().apply("fly"), "cannot read action"),
    ("apply illegal", lambda: _gs().apply("discard 7"), "illegal action"),
    ("hand(seat=9)", lambda: _gs().hand(9), "seat=9"),
    ("melds(team=5)", lambda: _gs().melds(5), "team=5"),
    (
        "round_robin n_boot=0",
        lambda: round_robin(["expert", "greedy", "patient"], n_boot=0),
        "n_boot=0",
    ),
    ("compare twice", lambda: compare("expert,expert"), "listed twice"),
    ("compare hands=-5", lambda: compare(["expert", "greedy"], hands=-5), "hands=-5"),
    ("compare games=0", lambda: compare(["expert", "greedy"], games=0), "games=0"),
    (
        "compare until_ci=nan",
        lambda: compare(["expert", "greedy"], until_ci=float("nan")),
        "until_ci",
    ),
    ("compare rules=5", lambda: compare(["expert", "greedy"], rules=5), "rules=5"),
    ("compare knob", lambda: compare(["expert:nope=1", "greedy"]), "no knob 'nope'"),
    ("sweep knobs list", lambda: sweep("tunable", ["open_threshold"], "expert"), "knobs="),
    ("simulate hands=0", lambda: runner.simulate(RULES, "greedy", hands=0), "hands=0"),
    ("simulate seed=-1", lambda: runner.simulate(RULES, "greedy", seed=-1), "seed=-1"),
    (
        "simulate chunk 1e7",
        lambda: runner.simulate(RULES, "greedy", hands=10, chunk_size=10**7),
        "chunk_size=",
    ),
    ("simulate strategies=5", lambda: runner.simulate(RULES, 5, hands=10), "strategies 5"),
    ("simulate rules str", lambda: runner.simulate("classic", "greedy", hands=10), "RuleSet"),
    ("read_run(3)", lambda: store.read_run(3), "as a path"),
    ("read_run missing", lambda: store.read_run("/nonexistent/run"), "no such run folder"),
]


@pytest.mark.parametrize(("name", "call", "needle"), CASES, ids=[c[0] for c in CASES])
def test_api_refuses_with_one_documented_error(name, call, needle):
    with pytest.raises(CanastaError) as exc:
        call()
    msg = str(exc.value)
    assert "\n" not in msg and needle in msg, msg


def test_strategy_text_is_read_by_the_one_parser():
    assert checks.strategy_list("expert,tunable:open_threshold=50,freeze_when=2") == [
        "expert",
        "tunable:open_threshold=50,freeze_when=2",
    ]
    assert (
        runner.expand_strategies(RULES, "tunable:open_threshold=50,freeze_when=2,greedy")
        == ("tunable:open_threshold=50,freeze_when=2", "greedy") * 2
    )
