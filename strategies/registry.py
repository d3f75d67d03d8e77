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

from sim.core.errors import CanastaError
from strategies import (
    expert,
    expert_v1,
    greedy,
    heuristic,
    patient,
    pile_control,
    random_play,
    tunable,
)
from strategies.knobs import ANY, Domain, Knob
from strategies.knobs import knob_domain as _knob_domain
from strategies.tuned import table_knobs

MAX_KNOBS = 24

# name -> module (its decide_nb plays, its KNOBS are the knob defaults); the id is the position
STRATEGIES: dict[str, ModuleType] = {
    "random": random_play,
    "greedy": greedy,
    "patient": patient,
    "pile-control": pile_control,
    "expert": expert,
    "tunable": tunable,
    "expert-v1": expert_v1,
}

# the compiled decision functions, by name (several strategies may share one)
KERNELS: dict[str, Callable] = {
    "random": random_play.decide_nb,
    "greedy": greedy.decide_nb,
    "heuristic": heuristic.decide_nb,
}

STRATEGY_NAMES: tuple[str, ...] = tuple(STRATEGIES)
_KNOB_ROWS: dict[str, Knob] = {}  # filled below from knob_rows()


def kernel_codes(kernels: Mapping[str, Callable]) -> Any:  # fields known at run time
    """A NamedTuple instance `Kernel.<name>` = the code of each decision function."""
    cls = NamedTuple("KernelCodes", [(name, int) for name in kernels])  # type: ignore[misc]
    return cls(*range(len(kernels)))


def kernel_table(
    strategies: Mapping[str, ModuleType], kernels: Mapping[str, Callable]
) -> tuple[int, ...]:
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

# decision functions that return only actions they found legal on the seat's observation (each
# candidate passed `why_illegal_nb`, or came from `legal_actions_nb`'s list): the self-play loop
# applies their actions without asking `why_illegal_nb` a second time, except in check runs
# (run_chunk(check=True), `--check`), which verify every action.  A decision function not
# listed here -- any new one -- has every action verified.  tests/test_trusted.py plays every
# listed one with and without the check and compares the hands.
CHOOSES_LEGAL: frozenset[str] = frozenset({"random", "greedy", "heuristic"})


def trusted_table(
    kernel_of: tuple[int, ...], kernels: Mapping[str, Callable], chooses_legal: frozenset[str]
) -> tuple[int, ...]:
    """Per strategy id: 1 when its decision function (by name) is one of `chooses_legal`."""
    names = list(kernels)
    return tuple(int(names[k] in chooses_legal) for k in kernel_of)


TRUSTED: tuple[int, ...] = trusted_table(KERNEL_OF, KERNELS, CHOOSES_LEGAL)


@njit(cache=True, _nrt=False, inline="always")  # inlined into the loop: saves a call per decision
def decide_nb(
    strategy_id: int,
    obs: np.ndarray,
    params: np.ndarray,
    knobs: np.ndarray,
    rng: np.ndarray,
    buf: np.ndarray,
) -> int:
    kernel = KERNEL_OF[strategy_id]
    if kernel == Kernel.heuristic:  # patient, pile-control, expert, tunable: different knob vectors
        return heuristic.decide_nb(obs, params, knobs, rng, buf)
    if kernel == Kernel.greedy:
        return greedy.decide_nb(obs, params, knobs, rng, buf)
    if kernel == Kernel.random:
        return random_play.decide_nb(obs, params, knobs, rng, buf)
    return -1


# decision functions that only call compiled kernels (random: legal_actions_nb, then
# randint_nb): callers in Python run the function's Python body over those kernels, which is
# the same action, instead of compiling it on its own, which would re-optimize the whole rules
# core linked below it once more (about a CPU second of a cold `canasta play`)
PYTHON_BODY: frozenset[str] = frozenset({"random"})


def decision_kernel(strategy_id: int) -> Callable:
    """The decision function of a strategy id, `decide(obs, params, knobs, rng, buf)`, for
    callers in Python: `decide_nb` gives the same action, but compiling it compiles every
    strategy, this one compiles only the strategy that plays (`canasta play`: random only,
    whose Python body then calls the compiled legal_actions_nb: PYTHON_BODY)."""
    name = list(KERNELS)[KERNEL_OF[strategy_id]]
    return KERNELS[name].py_func if name in PYTHON_BODY else KERNELS[name]  # type: ignore[attr-defined]


class StrategyError(CanastaError):
    """Unknown strategy name or knob: one-line message."""


def split_specs(text: str) -> list[str]:
    """The one reader of a strategy list, for every command and function:
    'expert,tunable:open_threshold=50,freeze_when=2' -> ['expert',
    'tunable:open_threshold=50,freeze_when=2'].

    A comma part holding '=' but no ':' is a further knob of the previous spec."""
    if not isinstance(text, str):
        raise StrategyError(
            f"strategies {text!r}: give text like 'expert,greedy' or 'tunable:open_threshold=50'"
        )
    out: list[str] = []
    for part in text.split(","):
        part = part.strip()
        if out and "=" in part and ":" not in part and ":" in out[-1]:
            out[-1] += "," + part
        elif not part:
            raise StrategyError(
                f"strategies {text!r}: an empty name; write names separated by commas"
            )
        else:
            out.append(part)
    return out


def strategy_id(name: str) -> int:
    if not isinstance(name, str):
        raise StrategyError(
            f"strategy {name!r}: give a name like 'expert' or 'tunable:open_threshold=50'"
        )
    base = name.split(":", 1)[0]
    if base not in STRATEGY_NAMES:
        raise StrategyError(
            f"unknown strategy {base!r}; known strategies: {', '.join(STRATEGY_NAMES)}"
        )
    return STRATEGY_NAMES.index(base)


def knob_defaults(name: str) -> dict[str, float]:
    strategy_id(name)
    return dict(STRATEGIES[name.split(":", 1)[0]].KNOBS)


def split_spec(spec: str) -> tuple[str, dict[str, str]]:
    """The one reader of a strategy spec: 'name' or 'name:knob=value,knob=value' ->
    (name, {knob: value text}); a knob without a value, or given twice, is a StrategyError."""
    if not isinstance(spec, str):
        raise StrategyError(
            f"strategy {spec!r}: give a name like 'expert' or 'tunable:open_threshold=50'"
        )
    base, colon, rest = spec.strip().partition(":")
    base = base.strip()
    if not base:
        raise StrategyError(
            f"strategy spec {spec!r} has no name; write name or name:knob=value,..."
        )
    if colon and not rest.strip():
        raise StrategyError(
            f"strategy spec {spec!r} ends with ':'; write {base} or {base}:knob=value,..."
        )
    knobs: dict[str, str] = {}
    for item in (x.strip() for x in rest.split(",")) if colon else ():
        if not item:
            raise StrategyError(
                f"strategy spec {spec!r} has an empty knob (a ',' too many); "
                f"write {base}:knob=value,knob=value"
            )
        key, eq, raw = item.partition("=")
        key = key.strip()
        if not eq or not key or not raw.strip():
            raise StrategyError(
                f"knob {item!r} of strategy {base!r} has no value; write "
                f"{base}:{key or 'knob'}=VALUE"
            )
        if key in knobs:
            raise StrategyError(f"knob {key!r} of strategy {base!r} is given twice; give it once")
        knobs[key] = raw.strip()
    return base, knobs


def knob_values(spec: str, table: str | None = None) -> dict[str, float]:
    """The knob values a spec plays with at a table (named like `RuleSet.label`): the module's
    KNOBS, then the table's tuned set (strategies/tuned/), then the spec's own `knob=value`s."""
    if table is not None and not isinstance(table, str):
        raise StrategyError(f"table={table!r}: give a table name like 'classic-4p' (or None)")
    base, given = split_spec(spec)
    strategy_id(base)
    defaults = knob_defaults(base)
    values = {**defaults, **{k: v for k, v in table_knobs(base, table).items() if k in defaults}}
    for key, raw in given.items():
        if key not in defaults:
            known = ", ".join(defaults) or "none"
            raise StrategyError(
                f"strategy {base!r} has no knob {key!r} (its knobs: {known}); write "
                f"{base}:knob=value,..."
            )
        try:
            values[key] = float(raw)
        except ValueError:
            raise StrategyError(
                f"knob {key}={raw!r} of strategy {base!r} is not a number"
            ) from None
        why = knob_domain(base, key).problem(values[key])
        if why:
            raise StrategyError(
                f"knob {key}={raw} of strategy {base!r} {why} (canasta strategies {base})"
            )
    return values


def knob_rows() -> dict[str, Knob]:
    """Every documented knob row (name, default, meaning, range) of the registered strategies:
    each module's `KNOB_TABLE`, and the heuristic's, whose knobs four strategies share."""
    rows: dict[str, Knob] = {k.name: k for k in heuristic.KNOB_TABLE}
    for module in STRATEGIES.values():
        rows.update({k.name: k for k in getattr(module, "KNOB_TABLE", ())})
    return rows


def knob_domain(strategy: str, knob: str) -> Domain:
    """The values `knob` of `strategy` takes (strategies.knobs.knob_domain of its row; a knob
    without a documented row takes any number of moderate size)."""
    row = _KNOB_ROWS.get(knob)
    if row is None:
        row = knob_rows().get(knob)
    return ANY if row is None else _knob_domain(row)


def parse_spec(spec: str, table: str | None = None) -> tuple[int, np.ndarray]:
    """'name' or 'name:knob=value,knob=value' -> (strategy id, knob vector float64[MAX_KNOBS]),
    at `table` (see knob_values; None: no tuned set)."""
    sid = strategy_id(split_spec(spec)[0])
    values = knob_values(spec, table)
    vec = np.zeros(MAX_KNOBS, np.float64)
    for i, key in enumerate(values):
        vec[i] = values[key]
    return sid, vec


_KNOB_ROWS.update(knob_rows())
