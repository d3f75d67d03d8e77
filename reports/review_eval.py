"""The evaluator `canasta review` scores decisions with: `reports.analyze.analyze` (the shared
analysis engine) on the decision as the deciding seat knows it (`decision_from_game`: its
observation and knowledge only, so no rollout reads a card that seat could not see), every
legal action played in the same sampled worlds (common random numbers), every seat continuing
with one strategy.  This module adapts analyze's table to the review's interface: indexed by
action id, ``diff_to_best`` = mean(best) - mean(action) >= 0 with its paired 95% CI.
"""

from __future__ import annotations

import pandas as pd

from sim.play.game import GameState

__all__ = ["DEFAULT_ROLLOUTS", "make_evaluator"]

DEFAULT_ROLLOUTS = 1000


def make_evaluator(rules, strategy: str = "expert", jobs: int = 1, infer: str | None = None, equity=None):
    """``evaluate(gs, actions, rollouts, seed) -> DataFrame`` (indexed by action id: action, mean,
    ci_low, ci_high, diff_to_best, diff_ci_low, diff_ci_high, rollouts) for the
    seat to act in ``gs``.  ``jobs`` worker processes share the rollouts (results independent of
    it); ``infer``: a model strategy the opponents' hidden hands must agree with (their last
    discards; analyze's --infer).  ``equity``: a `reports.equity.Equity`; adds p_win, p_win_low,
    p_win_high (P(the seat's team wins the game) after the hand, from the cumulative scores)."""
    from reports.analyze import analyze, decision_from_game  # noqa: PLC0415

    def evaluate(gs: GameState, actions: list[int], rollouts: int, seed: int) -> pd.DataFrame:
        dec = decision_from_game(gs)
        if sorted(dec.actions) != sorted(int(a) for a in actions):
            raise RuntimeError("the seat's legal actions differ from the analysis engine's")
        to_p = None if equity is None else equity.of_totals
        df = analyze(dec, strategies=strategy, rollouts=rollouts, jobs=jobs, seed=seed, infer=infer,
                     equity=to_p, progress=False)
        out = pd.DataFrame({
            "action": df["action_id"].astype(int), "mean": df["mean"], "ci_low": df["ci_low"],
            "ci_high": df["ci_high"], "diff_to_best": -df["diff_to_best"],
            "diff_ci_low": -df["diff_ci_high"], "diff_ci_high": -df["diff_ci_low"], "rollouts": df["rollouts"]})
        for c in ("p_win", "p_win_low", "p_win_high"):
            if c in df.columns:
                out[c] = df[c].to_numpy()
        return out.set_index("action", drop=False)

    return evaluate
