"""Argument checks of the public report functions (compare, round_robin, sweep): the same
ranges as the command line (sim.core.limits), one-line CanastaError before any work."""

from __future__ import annotations

import math
from typing import Any

from sim.core import limits
from sim.core.errors import CanastaError, check_int

N_BOOT = (20, 100_000)  # bootstrap resamples of round_robin's ranking CIs


def strategy_list(strategies: Any) -> list[str]:
    """Specs from 'a,b' text or a sequence of specs, each read by the registry's one parser."""
    from sim.play.specs import check_spec
    from strategies.registry import split_specs

    if isinstance(strategies, str):
        specs = split_specs(strategies)
    elif hasattr(strategies, "__iter__"):
        specs = list(strategies)
        if not all(isinstance(s, str) for s in specs):
            raise CanastaError(
                f"strategies {strategies!r}: give names like ['expert', 'greedy'] or "
                "'expert,greedy'"
            )
        specs = [s.strip() for s in specs]
    else:
        raise CanastaError(
            f"strategies {strategies!r}: give names like ['expert', 'greedy'] or 'expert,greedy'"
        )
    for spec in specs:
        check_spec(spec)  # compiled strategies, search players and OpenSpiel bots alike
    return specs


def compare_args(
    hands: Any, games: Any, seed: Any, until_ci: Any, max_hands: Any, jobs: Any, level: Any
) -> None:
    check_int("hands", hands, *limits.DEALS)
    if games is not None:
        check_int("games", games, *limits.GAMES_PER_SEATING)
    check_int("seed", seed, *limits.SEED)
    check_int("max_hands", max_hands, *limits.DEALS)
    if check_int("jobs", jobs, *limits.JOBS) == 0:
        raise CanastaError("jobs=0: give a number of workers, or -1 for all cores")
    if until_ci is not None and (
        isinstance(until_ci, bool)
        or not isinstance(until_ci, int | float)
        or not math.isfinite(until_ci)
        or until_ci <= 0
    ):
        raise CanastaError(f"until_ci={until_ci!r}: give a positive number of points per hand")
    if isinstance(level, bool) or not isinstance(level, int | float) or not 0 < level < 1:
        raise CanastaError(f"level={level!r}: give a confidence level between 0 and 1, e.g. 0.95")
