"""The evaluator `canasta review` scores decisions with: the shared analysis engine's paired
rollouts (`reports.analyze.paired_rollouts`) on the decision as the deciding seat knows it
(`decision_from_game`: its observation and knowledge only, so no rollout reads a card that seat
could not see), every legal action played in the same sampled worlds (common random numbers),
every seat continuing with one strategy.

The table it returns (`summarize`) is indexed by action id, best first: mean, ci_low, ci_high
(the seat's team's hand result, points), diff_to_best = mean(best) - mean(action) >= 0 with its
paired 95% CI (one difference per world), rollouts; with an equity table also p_win (P(the team
wins the game) after the hand, percent) with its CI, and p_lost = p_win(best) - p_win(action)
with its paired CI.  Intervals: t intervals over worlds (`reports.stats.mean_ci`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from reports.stats import mean_ci
from sim.play.game import GameState

__all__ = ["DEFAULT_ROLLOUTS", "SAME_AS_CONTINUATION", "make_evaluator", "summarize"]

DEFAULT_ROLLOUTS = 1000
# make_evaluator's default world model: worlds inferred with the continuation strategy as the
# model of the other seats -- the one whose predictions matched play (benchmarks/
# bench_calibration.py); None deals uniform worlds
SAME_AS_CONTINUATION = "same as the continuation"


def summarize(
    values: np.ndarray, actions: list[int], p_win: np.ndarray | None = None
) -> pd.DataFrame:
    """The evaluator's table from per-world results ``values`` [worlds, actions] (points) and,
    optionally, ``p_win`` [worlds, actions] (percent); see the module docstring."""
    best = int(np.argmax(values.mean(axis=0)))
    rows = []
    for j, a in enumerate(actions):
        ci = mean_ci(values[:, j])
        d = mean_ci(values[:, best] - values[:, j])
        row = {
            "action": int(a),
            "mean": ci.mean,
            "ci_low": ci.low,
            "ci_high": ci.high,
            "diff_to_best": d.mean,
            "diff_ci_low": d.low,
            "diff_ci_high": d.high,
            "rollouts": ci.n,
        }
        if p_win is not None:
            pw = mean_ci(p_win[:, j])
            pl = mean_ci(p_win[:, best] - p_win[:, j])
            row.update(
                {
                    "p_win": pw.mean,
                    "p_win_low": pw.low,
                    "p_win_high": pw.high,
                    "p_lost": pl.mean,
                    "p_lost_low": pl.low,
                    "p_lost_high": pl.high,
                }
            )
        rows.append(row)
    df = pd.DataFrame(rows)
    order = [best] + [i for i in np.argsort(-df["mean"].to_numpy(), kind="stable") if i != best]
    return df.iloc[order].set_index("action", drop=False)


def make_evaluator(
    rules,
    strategy: str = "expert",
    jobs: int = 1,
    infer: str | None = SAME_AS_CONTINUATION,
    equity=None,
):
    """``evaluate(gs, actions, rollouts, seed) -> DataFrame`` (`summarize`) for the seat to act in
    ``gs``, scoring the given (legal, distinct) actions.  ``jobs`` worker processes share the
    worlds (results independent of it); ``infer``: a model strategy the other seats' hidden hands
    must agree with (their last turns; analyze's --infer), by default ``strategy``; None: uniform
    worlds.  ``equity``: a `reports.equity.Equity` (adds the P(win the game) columns)."""
    if infer == SAME_AS_CONTINUATION:
        infer = strategy
    from reports.analyze import decision_from_game, paired_rollouts
    from reports.review import ReviewError
    from sim.core import limits
    from sim.core.errors import CanastaError, check_int

    try:
        jobs = check_int("jobs", jobs, *limits.WORKERS)
    except CanastaError as exc:
        raise ReviewError(str(exc)) from None

    def evaluate(gs: GameState, actions: list[int], rollouts: int, seed: int) -> pd.DataFrame:
        dec = decision_from_game(gs)
        wanted = [int(a) for a in actions]
        if not set(wanted) <= set(dec.actions) or len(set(wanted)) != len(wanted):
            raise RuntimeError("the actions to score are not distinct legal actions of the seat")
        only = None if sorted(wanted) == sorted(dec.actions) else wanted
        cols = [dec.actions.index(a) for a in wanted]
        cuts = np.linspace(0, rollouts, max(1, min(jobs, rollouts // 50)) + 1).astype(int)
        parts = [(int(lo), int(hi - lo)) for lo, hi in zip(cuts[:-1], cuts[1:], strict=True)]
        if len(parts) > 1:
            from joblib import delayed

            from sim.runs.workers import parallel

            res = parallel(len(parts))(
                delayed(paired_rollouts)(dec, strategy, n, seed, lo, infer, actions=only)
                for lo, n in parts
            )
        else:
            res = [paired_rollouts(dec, strategy, rollouts, seed, 0, infer, actions=only)]
        us = np.concatenate([r[0] for r in res]).astype(np.int64)[:, cols]
        them = np.concatenate([r[1] for r in res]).astype(np.int64)[:, cols]
        pw = None
        if equity is not None:
            pw = 100.0 * np.asarray(equity.of_totals(dec.cum_us + us, dec.cum_them + them), float)
        return summarize((us - them).astype(float), wanted, pw)

    return evaluate
