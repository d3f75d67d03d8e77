"""The unchecked hot path: actions of the decision functions that choose only legal actions
(strategies.registry.CHOOSES_LEGAL) are applied without a second legality check unless the run
checks; the hand records come from a reused buffer when the caller asks for it.  Neither may
change a result."""

from __future__ import annotations

import numpy as np
import pytest

from sim.core.rules import RuleSet
from sim.play.engine import run_chunk
from strategies import registry

TABLES = [("classic", 4, None), ("samba", 4, None), ("german", 3, None), ("classic", 6, "3x2")]


def _rules(preset: str, players: int, layout: str | None) -> RuleSet:
    return (
        RuleSet.preset(preset, players=players, team_layout=layout)
        if layout
        else RuleSet.preset(preset, players=players)
    )


def _same(a: np.ndarray, b: np.ndarray) -> None:
    assert a.dtype == b.dtype and len(a) == len(b) > 0
    for name in a.dtype.names:
        assert np.array_equal(a[name], b[name]), name


@pytest.mark.parametrize("preset,players,layout", TABLES)
def test_unchecked_play_is_checked_play(preset, players, layout):
    """Every strategy plays the same hands whether each action is verified (check=True) or
    applied as chosen (a trusted decision function, check=False)."""
    rules = _rules(preset, players, layout)
    for name in registry.STRATEGY_NAMES:
        seats = [name if s % 2 == 0 else "expert" for s in range(players)]
        n = 10 if name == "random" else 30
        fast = run_chunk(rules, seats, seed=23, start=0, count=n)
        checked = run_chunk(rules, seats, seed=23, start=0, count=n, check=True)
        _same(fast.hands, checked.hands)


def test_only_listed_decision_functions_are_trusted():
    """A decision function outside CHOOSES_LEGAL (a new one) has every action verified."""
    kernels = {"random": registry.KERNELS["random"], "mine": registry.KERNELS["greedy"]}
    assert registry.trusted_table((0, 1, 1, 0), kernels, frozenset({"random"})) == (1, 0, 0, 1)
    assert registry.trusted_table((1,), kernels, frozenset()) == (0,)
    names = list(registry.KERNELS)
    for sid, k in enumerate(registry.KERNEL_OF):
        assert registry.TRUSTED[sid] == (names[k] in registry.CHOOSES_LEGAL)


def test_reused_hand_buffers_hold_nothing_stale():
    """Hand records from the reused buffer equal fresh ones, whatever ran before in the process:
    three teams then two, luck on then off, games then hands."""
    runs = [
        (_rules("classic", 6, "3x2"), "hands", True),
        (_rules("classic", 4, None), "hands", True),
        (_rules("classic", 6, "3x2"), "games", False),
        (_rules("classic", 4, None), "hands", False),
        (_rules("german", 3, None), "hands", False),
    ]
    for rules, mode, luck in runs:
        seats = ["greedy"] * rules.players
        n = 2 if mode == "games" else 40
        fresh = run_chunk(rules, seats, seed=5, start=3, count=n, mode=mode, luck=luck)
        reused = run_chunk(
            rules, seats, seed=5, start=3, count=n, mode=mode, luck=luck, reuse_buffers=True
        )
        _same(reused.hands, fresh.hands)
        if not luck:
            assert not reused.hands["luck"].any()
