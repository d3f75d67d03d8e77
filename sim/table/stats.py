"""Statistics of the people's games over time, each with its 95% interval.

Per hand of a human seat (imported hands left out): the hand result of the seat's team (its
hand score minus the best opposing team's, points; t interval over hands); whole games won
(Wilson interval over games); and, from the reviews, equity lost per decision, mistakes and
blunders per hand, and luck per hand (t intervals over hands).  ``recent``: the same figures
over the last hands, to see progress.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

__all__ = ["statistics", "RECENT"]

RECENT = 20  # hands in the "recent" column


def _ci(values: list[float]) -> dict[str, Any]:
    from reports.stats import mean_ci

    if not values:
        return {"n": 0, "mean": None, "low": None, "high": None}
    ci = mean_ci(np.asarray(values, float))
    fin = math.isfinite(ci.low)
    return {
        "n": len(values),
        "mean": round(ci.mean, 2),
        "low": round(ci.low, 2) if fin else None,
        "high": round(ci.high, 2) if fin else None,
    }


def _wilson(wins: float, n: int) -> dict[str, Any]:
    from reports.equity import wilson

    if n == 0:
        return {"n": 0, "mean": None, "low": None, "high": None}
    lo, hi = wilson(np.array([wins]), np.array([n]))
    return {
        "n": n,
        "mean": round(wins / n, 3),
        "low": round(float(lo[0]), 3),
        "high": round(float(hi[0]), 3),
    }


def _team_result(scores: list[int], team: int) -> int:
    others = [v for t, v in enumerate(scores) if t != team]
    return int(scores[team] - (max(others) if others else 0))


def statistics(store) -> dict[str, Any]:
    """The statistics page's figures (see the module docstring)."""
    from sim.table.settings import TableSettings

    results: list[float] = []
    games_won = 0.0
    games = 0
    for g in reversed(store.games()):  # oldest first
        if g["imported"]:
            continue
        try:
            s = TableSettings.stored(g["settings"])
            rules = s.rule_set()
        except Exception:
            continue
        humans = s.humans
        teams = {rules.team_of_seat[h] for h in humans}
        totals = [0] * rules.n_teams
        finished = [h for h in g["hands"] if h.get("result")]
        for h in finished:
            totals = [a + b for a, b in zip(totals, h["result"], strict=False)]
            for t in teams:
                results.append(_team_result(h["result"], t))
        if s.mode == "game" and g["status"] == "over" and finished:
            best = max(totals)
            leaders = [t for t, v in enumerate(totals) if v == best]
            for t in teams:
                games += 1
                games_won += (1.0 / len(leaders)) if t in leaders else 0.0
    lost, mistakes, luck, decisions = [], [], [], []
    for _, _, _settings, review in store.reviews():
        for row in review.get("summary", []):
            n = int(row.get("decisions") or 0)
            if row.get("skill_lost") is None:
                continue
            lost.append(float(row["skill_lost"]))
            decisions.append(n)
            mistakes.append(float((row.get("mistakes") or 0) + (row.get("blunders") or 0)))
            if row.get("luck") is not None:
                luck.append(float(row["luck"]))
    per_decision = [x / n for x, n in zip(lost, decisions, strict=True) if n > 0]
    out = {
        "hands": len(results),
        "result_per_hand": _ci(results),
        "games_won": _wilson(games_won, games),
        "reviewed_hands": len(lost),
        "lost_per_hand": _ci(lost),
        "lost_per_decision": _ci(per_decision),
        "mistakes_per_hand": _ci(mistakes),
        "luck_per_hand": _ci(luck),
        "recent": {
            "result_per_hand": _ci(results[-RECENT:]),
            "lost_per_decision": _ci(per_decision[-RECENT:]),
            "mistakes_per_hand": _ci(mistakes[-RECENT:]),
        },
        "series": {"results": results[-200:], "lost_per_decision": per_decision[-200:]},
    }
    return out
