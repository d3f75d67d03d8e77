"""The answer a report leads with: who wins, by how much, with what 95% CI, for every pair of teams.

Built on ``reports.summary.summarize_tables`` (intervals clustered by game, so hands of one game
count as one unit), from a run folder opened with ``reports.runs.open_run``.
"""

from __future__ import annotations

import math
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from reports.runs import KEY, Run, n_teams_of, team_of_seat, team_strategy
from reports.summary import RunSummary, summarize_tables

__all__ = ["run_summary", "sentences", "difference_figure", "pct_ci", "num_ci"]


def run_summary(run: Run, h: pd.DataFrame | None = None) -> RunSummary:
    """The summary of a run folder; team labels are the strategies of the team's seats."""
    h = run.hands if h is None else h
    tos = team_of_seat(run, h)
    nt = n_teams_of(h)
    names = []
    for t in range(nt):
        labs = team_strategy(h, tos, t).unique()
        names.append(str(labs[0]) if len(labs) == 1 else "mixed")
    cols = KEY[:2] + [f"score_t{t}" for t in range(nt)] + ["end_reason"]
    games = None
    if run.has("games"):
        gcols = ["winner_team"] + [f"final_t{t}" for t in range(nt)]
        games = run.read("games", gcols)
        if games is None or not set(gcols) <= set(games.columns):
            games = None
    mode = str(run.manifest.get("mode", "hands"))
    return summarize_tables([h[cols]], games, names, mode)


def num_ci(est: float, low: float, high: float, signed: bool = False) -> str:
    """'+152.7 (95% CI 142.9 to 162.5)', decimals from the half-width."""
    hw = (high - low) / 2
    d = 0 if not math.isfinite(hw) or hw >= 10 else (1 if hw >= 1 else 2)
    e = f"{round(est, d) + 0.0:{'+' if signed else ''},.{d}f}"
    return f"{e} (95% CI {low:,.{d}f} to {high:,.{d}f})"


def pct_ci(p: float, low: float, high: float) -> str:
    return f"{100 * p:.1f}% (95% CI {100 * low:.1f} to {100 * high:.1f})"


def sentences(s: RunSummary) -> list[str]:
    """One sentence per pair of teams: the winner, the margin per hand and its CI."""
    unit = "games" if s.mode == "games" else "independent deals"
    how = f"{s.hands:,} hands" + (f" in {s.games:,} {unit}" if s.mode == "games" else f", {unit}")
    out = []
    for r in s.pairs.itertuples():
        a = f"team {r.a} ({s.teams['strategy'][r.a]})"
        b = f"team {r.b} ({s.teams['strategy'][r.b]})"
        if r.low > 0 or r.high < 0:
            win, lose, m, lo, hi = (
                (a, b, r.estimate, r.low, r.high)
                if r.estimate > 0
                else (b, a, -r.estimate, -r.high, -r.low)
            )
            d = 0 if (hi - lo) / 2 >= 10 else 1
            out.append(
                f"{win.capitalize()} beats {lose} by {m:,.{d}f} points per hand "
                f"(95% CI {lo:,.{d}f} to {hi:,.{d}f}; {how})."
            )
        else:
            out.append(
                f"{a.capitalize()} and {b} are not told apart: {a} minus {b} is "
                f"{num_ci(r.estimate, r.low, r.high, signed=True)} points per hand, "
                f"an interval that includes 0 ({how})."
            )
    if s.game_teams is not None:
        g = s.game_teams.sort_values("estimate", ascending=False).iloc[0]
        out.append(
            f"In whole games, team {g['team']} ({g['strategy']}) wins "
            f"{pct_ci(g['estimate'], g['low'], g['high'])} of {s.games:,} games."
        )
    return out


def difference_figure(s: RunSummary) -> Any:
    """Every pair's mean difference per hand with its 95% CI, against a line at 0."""
    p = s.pairs
    fig, ax = plt.subplots(figsize=(8.5, 0.7 * len(p) + 1.8))
    y = np.arange(len(p))[::-1]
    ax.errorbar(
        p["estimate"],
        y,
        xerr=[p["estimate"] - p["low"], p["high"] - p["estimate"]],
        fmt="o",
        ms=8,
        capsize=8,
        lw=2.2,
        color="tab:blue",
        label="mean difference, 95% CI",
    )
    for yi, r in zip(y, p.itertuples(), strict=True):
        ax.annotate(
            f"{r.estimate:+,.0f} [{r.low:,.0f}, {r.high:,.0f}]",
            (r.estimate, yi),
            textcoords="offset points",
            xytext=(0, 10),
            ha="center",
            fontsize=9,
        )
    ax.axvline(0, color="0.3", lw=1.2, ls="--", label="no difference")
    lo = min(0.0, float(p["low"].min()))
    hi = max(0.0, float(p["high"].max()))
    pad = 0.15 * (hi - lo or 1.0)
    ax.set_xlim(lo - pad, hi + pad)
    ax.set_yticks(y, p["label"])
    ax.set_ylim(-0.8, len(p) - 0.2)
    ax.set_xlabel("score difference per hand, first team minus second (points)")
    ax.set_title("Who wins, and by how much (95% CI; clustered by game)")
    ax.grid(axis="x", alpha=0.3)
    ax.legend(loc="lower right", fontsize=8)
    return fig
