"""Compiling the game core in the background when the server starts (first run only: numba
keeps the machine code on disk), so that the first bot move, hint and review do not wait for
it.  `state()` tells the page what is still compiling."""

from __future__ import annotations

import threading
from typing import Any

__all__ = ["start", "state"]

_STATE: dict[str, Any] = {"running": False, "step": "", "error": ""}
_LOCK = threading.Lock()


def state() -> dict[str, Any]:
    with _LOCK:
        return dict(_STATE)


def _set(**kw: Any) -> None:
    with _LOCK:
        _STATE.update(kw)


def _hint_kernels() -> None:
    from reports.analyze import analyze
    from sim.core.rules import RuleSet
    from sim.play.game import GameState

    gs = GameState.new_hand(RuleSet.preset("classic"), seed=1)
    analyze(gs, rollouts=2, progress=False)


def _loop_kernels(strategy: str) -> None:
    from sim.core.rules import RuleSet
    from sim.play.engine import run_chunk

    rules = RuleSet.preset("classic")
    run_chunk(rules, [strategy] * rules.players, 0, 0, 1, mode="hands")


def _run(strategies: list[str]) -> None:
    from sim.play.compile.warm import warm_play

    try:
        _set(running=True, step="the bots")
        warm_play(strategies, knowledge=True)
        _set(step="hints")
        _hint_kernels()
        _set(step="reviews")
        _loop_kernels(strategies[0])
        _set(running=False, step="")
    except Exception as exc:
        _set(running=False, step="", error=" ".join(str(exc).split()))


def start(strategies: list[str]) -> threading.Thread:
    """Compile the kernels of these bots, the hints and the reviews, in a daemon thread."""
    th = threading.Thread(target=_run, args=(list(strategies),), daemon=True, name="canasta-warm")
    _set(running=True, step="starting")
    th.start()
    return th
