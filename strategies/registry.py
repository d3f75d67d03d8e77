"""The strategy registry: names, knob definitions and the compiled dispatcher.

Adding a strategy = one file in strategies/ defining `decide_nb(obs, params, knobs, rng, buf)`
(and `KNOBS`, its named parameters with defaults), plus one line in `_ENTRIES` and one branch
in `decide_nb` below.  sim/ is never touched.

The engine calls `decide_nb(strategy_id, obs, params, knobs, rng, buf)` with the acting
player's observation only (public state + own hand, layout `sim.core.enums.Off`, own hand at
`Off.HANDS`), the rule parameters, the seat's knob vector (float64), the seat's random stream
(uint64[2], use `sim.core.rng` functions) and a scratch int32 buffer of N_ACTIONS entries (for
`sim.core.legal.legal_actions_nb`).  It returns an action id; an illegal one stops the run.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from sim.core.errors import CanastaError
from strategies import expert, greedy, heuristic, patient, pile_control, random_play, tunable

MAX_KNOBS = 24

# (name, module) in id order; the id is the position
_ENTRIES = (
    ("random", random_play),
    ("greedy", greedy),
    ("patient", patient),
    ("pile-control", pile_control),
    ("expert", expert),
    ("tunable", tunable),
)

STRATEGY_NAMES: tuple[str, ...] = tuple(name for name, _ in _ENTRIES)


@njit(cache=True, _nrt=False, inline="always")  # inlined into the loop: saves a call per decision
def decide_nb(strategy_id: int, obs: np.ndarray, params: np.ndarray, knobs: np.ndarray, rng: np.ndarray, buf: np.ndarray) -> int:
    if strategy_id == 0:
        return random_play.decide_nb(obs, params, knobs, rng, buf)
    if strategy_id == 1:
        return greedy.decide_nb(obs, params, knobs, rng, buf)
    if 2 <= strategy_id <= 5:
        # patient, pile-control, expert, tunable: one compiled heuristic, different knob vectors
        return heuristic.decide_nb(obs, params, knobs, rng, buf)
    return -1


class StrategyError(CanastaError):
    """Unknown strategy name or knob: one-line message."""


def split_specs(text: str) -> list[str]:
    """The one reader of a strategy list, for every command and function:
    'expert,tunable:open_threshold=50,freeze_when=2' -> ['expert', 'tunable:open_threshold=50,freeze_when=2'].

    A comma part holding '=' but no ':' is a further knob of the previous spec."""
    if not isinstance(text, str):
        raise StrategyError(f"strategies {text!r}: give text like 'expert,greedy' or 'tunable:open_threshold=50'")
    out: list[str] = []
    for part in text.split(","):
        part = part.strip()
        if out and "=" in part and ":" not in part and ":" in out[-1]:
            out[-1] += "," + part
        elif not part:
            raise StrategyError(f"strategies {text!r}: an empty name; write names separated by commas")
        else:
            out.append(part)
    return out


def strategy_id(name: str) -> int:
    if not isinstance(name, str):
        raise StrategyError(f"strategy {name!r}: give a name like 'expert' or 'tunable:open_threshold=50'")
    base = name.split(":", 1)[0]
    if base not in STRATEGY_NAMES:
        raise StrategyError(f"unknown strategy {base!r}; known strategies: {', '.join(STRATEGY_NAMES)}")
    return STRATEGY_NAMES.index(base)


def knob_defaults(name: str) -> dict[str, float]:
    base = name.split(":", 1)[0]
    module = dict(_ENTRIES)[base] if base in STRATEGY_NAMES else None
    if module is None:
        strategy_id(name)
    return dict(getattr(module, "KNOBS", {}))


def split_spec(spec: str) -> tuple[str, dict[str, str]]:
    """The one reader of a strategy spec: 'name' or 'name:knob=value,knob=value' ->
    (name, {knob: value text}); a knob without a value, or given twice, is a StrategyError."""
    if not isinstance(spec, str):
        raise StrategyError(f"strategy {spec!r}: give a name like 'expert' or 'tunable:open_threshold=50'")
    base, _, rest = spec.strip().partition(":")
    base = base.strip()
    if not base:
        raise StrategyError(f"strategy spec {spec!r} has no name; write name or name:knob=value,...")
    knobs: dict[str, str] = {}
    for item in filter(None, (x.strip() for x in rest.split(","))):
        key, eq, raw = item.partition("=")
        key = key.strip()
        if not eq or not key or not raw.strip():
            raise StrategyError(f"knob {item!r} of strategy {base!r} has no value; write {base}:{key or 'knob'}=VALUE")
        if key in knobs:
            raise StrategyError(f"knob {key!r} of strategy {base!r} is given twice; give it once")
        knobs[key] = raw.strip()
    return base, knobs


def parse_spec(spec: str) -> tuple[int, np.ndarray]:
    """'name' or 'name:knob=value,knob=value' -> (strategy id, knob vector float64[MAX_KNOBS])."""
    base, given = split_spec(spec)
    sid = strategy_id(base)
    defaults = knob_defaults(base)
    values = dict(defaults)
    for key, raw in given.items():
        if key not in defaults:
            known = ", ".join(defaults) or "none"
            raise StrategyError(f"strategy {base!r} has no knob {key!r} (its knobs: {known}); write {base}:knob=value,...")
        try:
            values[key] = float(raw)
        except ValueError:
            raise StrategyError(f"knob {key}={raw!r} of strategy {base!r} is not a number") from None
        if not math.isfinite(values[key]):
            raise StrategyError(f"knob {key}={raw} of strategy {base!r} must be a finite number")
    vec = np.zeros(MAX_KNOBS, np.float64)
    for i, key in enumerate(defaults):
        vec[i] = values[key]
    return sid, vec
