"""The one check of a strategy spec of any kind: a compiled strategy of the registry
(`expert:hold_melds=0`), a search player (`pimc:worlds=32`) or an OpenSpiel bot
(`openspiel-ismcts:sims=1000`).  Each raises its one-line StrategyError (a CanastaError).

Where a spec may stand decides which kinds it may be: a seat at a table takes every kind
(`ALL_KINDS`); rollouts, world models and knob searches take compiled strategies only
(`COMPILED`), and the refusal says so, naming the option."""

from __future__ import annotations

import difflib
import importlib.util
from collections.abc import Sequence

from sim.play.openspiel.bot import BOT_NAMES, OPENSPIEL_MISSING, is_openspiel, parse_bot
from sim.play.search.spec import SEARCH_NAMES, is_search, parse_search
from strategies import registry
from strategies.registry import StrategyError

__all__ = ["ALL_KINDS", "COMPILED", "check_spec", "check_specs", "spec_kind", "names_of"]

ALL_KINDS = ("compiled", "search", "openspiel")
COMPILED = ("compiled",)
_KIND_TEXT = {
    "compiled": "a compiled strategy",
    "search": "a search player",
    "openspiel": "an OpenSpiel bot",
}


def names_of(kinds: Sequence[str] = ALL_KINDS) -> tuple[str, ...]:
    """The strategy names of these kinds, compiled strategies first."""
    out: tuple[str, ...] = ()
    if "compiled" in kinds:
        out += registry.STRATEGY_NAMES
    if "search" in kinds:
        out += SEARCH_NAMES
    if "openspiel" in kinds:
        out += BOT_NAMES
    return out


def spec_kind(spec: str) -> str | None:
    """compiled | search | openspiel, or None for an unknown name."""
    if is_search(spec):
        return "search"
    if is_openspiel(spec):
        return "openspiel"
    if str(spec).split(":", 1)[0].strip() in registry.STRATEGY_NAMES:
        return "compiled"
    return None


def check_spec(spec: str, option: str = "", kinds: Sequence[str] = ALL_KINDS) -> None:
    """Refuse `spec` (a StrategyError naming `option`) unless it is a well-formed spec of one of
    `kinds`: a known name, knobs it has, each value in its range."""
    where = f"{option} " if option else ""
    if not isinstance(spec, str) or not spec.strip():
        raise StrategyError(
            f"{where}{spec!r}: give a strategy name like 'expert' or 'expert:open_threshold=50'"
        )
    name = spec.split(":", 1)[0].strip()
    kind = spec_kind(spec)
    allowed = names_of(kinds)
    if kind is None:
        close = difflib.get_close_matches(name, list(names_of()), n=1, cutoff=0.5)
        hint = f" (did you mean '{close[0]}'?)" if close else ""
        raise StrategyError(
            f"{where}unknown strategy {name!r}{hint}; choose from {', '.join(allowed)}"
        )
    if kind not in kinds:
        raise StrategyError(
            f"{where}{spec}: {name} is {_KIND_TEXT[kind]}; {option or 'this'} takes "
            f"{' or '.join(_KIND_TEXT[k] for k in kinds)}: {', '.join(allowed)}"
        )
    try:
        if kind == "search":
            parse_search(spec)
        elif kind == "openspiel":
            parse_bot(spec)
            if importlib.util.find_spec("open_spiel") is None:  # refused now, not in a worker
                raise StrategyError(OPENSPIEL_MISSING)
        else:
            registry.parse_spec(spec)
    except StrategyError as exc:
        raise StrategyError(f"{where}{exc}" if option else str(exc)) from None


def check_specs(specs: Sequence[str], option: str = "", kinds: Sequence[str] = ALL_KINDS) -> None:
    """check_spec of each of `specs`."""
    for spec in specs:
        check_spec(spec, option, kinds)
