"""Search player specs: ``pimc``, ``pimc:worlds=64,guard=1``, ``ismcts:iters=512,c=300``.

Knobs (``name=value``, comma-separated, as for strategies):

pimc
    worlds   worlds sampled per searched decision (default `PIMC_DEFAULTS`)
    rollouts rollouts per world and action, each with its own players' random streams (only
             useful when the base strategy is random: expert is deterministic)
    base     the base strategy: plays the searching seat's part of the rollouts and is the
             guard's reference (a registered strategy name, default expert; at a table with
             a tuned set, the strategy plays that set)
    model    how the other seats are modelled, in the worlds sampled (tries) and in the rollouts:
             table (default) = by the strategy seated there (who sits where is public; their
             cards are not); base = every seat by the base strategy
    search   which decisions to search, joined by '+': take (draw or take the pile), discard
             (the base would discard: which card, or meld on instead), meld (the base would meld
             or add), out (any meld-phase decision with at most 4 cards in hand), all (pimc's
             default; ismcts's is take+discard+out)
    guard    leave the base's choice only when the mean paired gain exceeds guard standard
             errors (0: play the best mean)
    tries    model-consistent worlds: redraws of an opponent's hidden cards until its model
             strategy holding them would have played its last turn as it did (the draw or
             take of the pile, and the discard; 0: uniform worlds)
ismcts
    iters    iterations (determinizations) per searched decision
    c        UCB exploration constant, in points
    base, model, search, tries  as for pimc
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sim.play.search.loop import CFG_SIZE, ISMCTS, PIMC, Cfg
from strategies import SEARCH_BASE
from strategies.registry import STRATEGY_NAMES, StrategyError, parse_spec

__all__ = [
    "SEARCH_NAMES",
    "SearchSpec",
    "is_search",
    "parse_search",
    "PIMC_DEFAULTS",
    "ISMCTS_DEFAULTS",
    "CLASSES",
]

SEARCH_NAMES = ("pimc", "ismcts")
CLASSES = {"take": 1, "discard": 2, "meld": 4, "out": 8, "all": 15}
# pimc's defaults lie on the measured budget-strength frontier (benchmarks/search_curve.py:
# searching every decision at 32 worlds beat the take+discard+out default by +263 [+187, +340]
# points per hand at 1.8 times its search time, 2026-12-02)
PIMC_DEFAULTS = {
    "worlds": 32,
    "rollouts": 1,
    "base": SEARCH_BASE,
    "model": "table",
    "search": "all",
    "guard": 1.0,
    "tries": 64,
}
ISMCTS_DEFAULTS = {
    "iters": 256,
    "c": 300.0,
    "base": SEARCH_BASE,
    "model": "table",
    "search": "take+discard+out",
    "tries": 64,
}
MODELS = ("table", "base")
# the range of every number knob (work per searched decision grows with worlds x rollouts,
# iters and tries: the bounds keep one decision within hours, not years)
RANGES: dict[str, tuple[float, float]] = {
    "worlds": (1, 100_000),
    "rollouts": (1, 1000),
    "iters": (1, 1_000_000),
    "tries": (0, 100_000),
    "guard": (0.0, 1e9),  # in standard errors; 1e9: never leave the base
    "c": (0.0, 1_000_000.0),
}
_INTS = ("worlds", "rollouts", "iters", "tries")  # whole numbers


@dataclass(frozen=True)
class SearchSpec:
    """A parsed search player spec; `cfg` is its row for the search loop."""

    kind: str
    knobs: dict

    @property
    def base(self) -> str:
        return str(self.knobs["base"])

    def cfg(self) -> np.ndarray:
        row = np.zeros(CFG_SIZE, np.float64)
        k = self.knobs
        row[Cfg.KIND] = PIMC if self.kind == "pimc" else ISMCTS
        row[Cfg.BUDGET] = k["worlds"] if self.kind == "pimc" else k["iters"]
        row[Cfg.ROLLOUTS] = k.get("rollouts", 1)
        row[Cfg.MASK] = search_mask(str(k["search"]))
        row[Cfg.GUARD] = k.get("guard", 0.0)
        row[Cfg.TRIES] = k["tries"]
        row[Cfg.EXPLORE] = k.get("c", 0.0)
        row[Cfg.MODEL] = 1.0 if k["model"] == "table" else 0.0
        return row


def is_search(spec: str) -> bool:
    """Is ``spec`` a search player (``pimc``, ``ismcts``, with or without knobs)?"""
    return str(spec).split(":", 1)[0].strip() in SEARCH_NAMES


def search_mask(text: str) -> int:
    mask = 0
    for part in text.split("+"):
        part = part.strip()
        if part not in CLASSES:
            raise StrategyError(
                f"search={text!r}: unknown decision class {part!r}; join some of "
                f"{', '.join(CLASSES)} with '+', e.g. search=take+discard"
            )
        mask |= CLASSES[part]
    return mask


def parse_search(spec: str) -> SearchSpec:
    """'pimc:worlds=64,guard=1' -> SearchSpec; StrategyError (a ValueError) naming a bad knob."""
    name, _, rest = str(spec).partition(":")
    name = name.strip()
    if name not in SEARCH_NAMES:
        raise StrategyError(
            f"{name!r} is not a search player; search players: {', '.join(SEARCH_NAMES)}"
        )
    defaults = PIMC_DEFAULTS if name == "pimc" else ISMCTS_DEFAULTS
    knobs: dict = dict(defaults)
    if ":" in str(spec) and not rest.strip():
        raise StrategyError(
            f"strategy spec {spec!r} ends with ':'; write {name} or {name}:knob=value,..."
        )
    seen: set[str] = set()
    for item in (x.strip() for x in rest.split(",")) if rest.strip() else ():
        key, eq, raw = item.partition("=")
        key, raw = key.strip(), raw.strip()
        if not item:
            raise StrategyError(
                f"strategy spec {spec!r} has an empty knob (a ',' too many); "
                f"write {name}:knob=value,knob=value"
            )
        if key in seen:
            raise StrategyError(f"{name}: knob {key!r} is given twice; give it once")
        seen.add(key)
        if eq and not raw:
            raise StrategyError(f"{name}: knob {key!r} has no value; write {name}:{key}=VALUE")
        if not eq or key not in defaults:
            raise StrategyError(
                f"search player {name!r} has no knob {key!r} (its knobs: {', '.join(defaults)}); "
                f"write {name}:knob=value,..."
            )
        if key == "base":
            if raw not in STRATEGY_NAMES:
                raise StrategyError(
                    f"{name}: base={raw!r} is not a strategy; choose from "
                    f"{', '.join(STRATEGY_NAMES)}"
                )
            knobs[key] = raw
        elif key == "model":
            if raw not in MODELS:
                raise StrategyError(
                    f"{name}: model={raw!r}; choose table (the strategies seated at the "
                    f"table model the other seats) or base (the base strategy models them)"
                )
            knobs[key] = raw
        elif key == "search":
            search_mask(raw)
            knobs[key] = raw
        else:
            try:
                value = float(raw)
            except ValueError:
                raise StrategyError(f"{name}: knob {key}={raw!r} is not a number") from None
            lo, hi = RANGES[key]
            whole = key in _INTS
            if not (lo <= value <= hi) or (whole and not value.is_integer()):  # also nan
                kind = "a whole number" if whole else "a number"
                raise StrategyError(f"{name}: {key}={raw} must be {kind} {lo:g} .. {hi:g}")
            knobs[key] = int(value) if whole else value
    return SearchSpec(name, knobs)


def base_arrays(spec: SearchSpec, table: str | None = None) -> tuple[int, np.ndarray]:
    """The base strategy's (id, knob vector) at `table` (RuleSet.label: a tuned base plays its
    set)."""
    return parse_spec(spec.base, table)
