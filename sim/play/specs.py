"""The one check of a strategy spec of any kind: a compiled strategy of the registry
(`expert:hold_melds=0`), a search player (`pimc:worlds=32`) or an OpenSpiel bot
(`openspiel-ismcts:sims=1000`).  Each raises its one-line StrategyError (a CanastaError)."""

from __future__ import annotations

from sim.play.openspiel.bot import is_openspiel, parse_bot
from sim.play.search.spec import is_search, parse_search
from strategies import registry


def check_spec(spec: str) -> None:
    if is_search(spec):
        parse_search(spec)
    elif is_openspiel(spec):
        parse_bot(spec)
    else:
        registry.parse_spec(spec)
