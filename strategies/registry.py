"""The strategy registry: names, knob definitions and the compiled dispatcher.

Adding a strategy = one file in strategies/ defining `decide_nb(obs, params, knobs, rng, buf)`
and `KNOBS` (its named parameters with defaults, in knob-vector order; see strategies/knobs.py),
plus one line in `STRATEGIES`.  A strategy that reuses a compiled decision function (as patient,
pile-control, expert and tunable reuse the heuristic's) needs nothing else; a new decision
function also gets one line in `KERNELS` and one branch in `decide_nb`.  sim/ is never touched.

Who plays is looked up by name, never by position: a strategy's id is its position in
`STRATEGIES` (the engine's seat tables carry it), `KERNEL_OF[id]` is the code of the decision
function its module exports, and `decide_nb` branches on the name-derived codes `Kernel.<name>`.
Reordering either table renumbers ids or codes consistently and changes nothing else.

The engine calls `decide_nb(strategy_id, obs, params, knobs, rng, buf)` with the acting
player's observation only (public state + own hand, layout `sim.core.enums.Off`, own hand at
`Off.HANDS`), the rule parameters, the seat's knob vector (float64), the seat's random stream
(uint64[2], use `sim.core.rng` functions) and a scratch int32 buffer of N_ACTIONS entries (for
`sim.core.legal.legal_actions_nb`).  It returns an action id; an illegal one stops the run.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import ModuleType
from typing import Any, NamedTuple

import numpy as np
from numba import njit

from strategies import expert, greedy, heuristic, patient, pile_control, random_play, tunable

MAX_KNOBS = 24

# name -> module (its decide_nb plays, its KNOBS are the knob defaults); the id is the position
STRATEGIES: dict[str, ModuleType] = {
    "random": random_play,
    "greedy": greedy,
    "patient": patient,
    "pile-control": pile_control,
    "expert": expert,
    "tunable": tunable,
}

# the compiled decision functions, by name (several strategies may share one)
KERNELS: dict[str, Callable] = {
    "random": random_play.decide_nb,
    "greedy": greedy.decide_nb,
    "heuristic": heuristic.decide_nb,
}

STRATEGY_NAMES: tuple[str, ...] = tuple(STRATEGIES)


def kernel_codes(kernels: Mapping[str, Callable]) -> Any:  # fields known at run time
    """A NamedTuple instance `Kernel.<name>` = the code of each decision function."""
    cls = NamedTuple("KernelCodes", [(name, int) for name in kernels])  # type: ignore[misc]
    return cls(*range(len(kernels)))


def kernel_table(strategies: Mapping[str, ModuleType], kernels: Mapping[str, Callable]) -> tuple[int, ...]:
    """The kernel code of each strategy id: the decision function its module exports, found by
    identity (a module whose decide_nb is not in `kernels` is an error)."""
    funcs = list(kernels.values())
    table = []
    for name, module in strategies.items():
        found = [i for i, f in enumerate(funcs) if f is module.decide_nb]
        if not found:
            raise ValueError(f"strategy {name!r}: its decide_nb is not in KERNELS")
        table.append(found[0])
    return tuple(table)


Kernel = kernel_codes(KERNELS)
KERNEL_OF: tuple[int, ...] = kernel_table(STRATEGIES, KERNELS)


@njit(cache=True, _nrt=False, inline="always")  # inlined into the loop: saves a call per decision
def decide_nb(strategy_id: int, obs: np.ndarray, params: np.ndarray, knobs: np.ndarray, rng: np.ndarray, buf: np.ndarray) -> int:
    kernel = KERNEL_OF[strategy_id]
    if kernel == Kernel.heuristic:  # patient, pile-control, expert, tunable: different knob vectors
        return heuristic.decide_nb(obs, params, knobs, rng, buf)
    if kernel == Kernel.greedy:
        return greedy.decide_nb(obs, params, knobs, rng, buf)
    if kernel == Kernel.random:
        return random_play.decide_nb(obs, params, knobs, rng, buf)
    return -1


class StrategyError(ValueError):
    """Unknown strategy name or knob: one-line message."""


def strategy_id(name: str) -> int:
    base = name.split(":", 1)[0]
    if base not in STRATEGY_NAMES:
        raise StrategyError(f"unknown strategy {base!r}; known strategies: {', '.join(STRATEGY_NAMES)}")
    return STRATEGY_NAMES.index(base)


def knob_defaults(name: str) -> dict[str, float]:
    strategy_id(name)
    return dict(STRATEGIES[name.split(":", 1)[0]].KNOBS)


def parse_spec(spec: str) -> tuple[int, np.ndarray]:
    """'name' or 'name:knob=value,knob=value' -> (strategy id, knob vector float64[MAX_KNOBS])."""
    sid = strategy_id(spec)
    base, _, rest = spec.partition(":")
    defaults = knob_defaults(base)
    values = dict(defaults)
    if rest.strip():
        for item in rest.split(","):
            key, eq, raw = item.partition("=")
            key = key.strip()
            if not eq or key not in defaults:
                known = ", ".join(defaults) or "none"
                raise StrategyError(f"strategy {base!r} has no knob {key!r} (its knobs: {known}); write {base}:knob=value,...")
            try:
                values[key] = float(raw)
            except ValueError:
                raise StrategyError(f"knob {key}={raw!r} of strategy {base!r} is not a number") from None
    vec = np.zeros(MAX_KNOBS, np.float64)
    for i, key in enumerate(defaults):
        vec[i] = values[key]
    return sid, vec
