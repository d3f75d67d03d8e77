"""The summary of a run folder that `canasta simulate` prints: every number with its 95% CI.

Per team: mean score per hand and the share of hands won; per pair of teams (all pairs when
there are three): the mean score difference per hand; for runs of whole games: the share of
games won per team and the mean final-score difference per pair; how the hands ended.

Units: hands of one game are not independent (the cumulative score steers the opening minimum),
so every per-hand interval is clustered by game (seed, game) with the ratio estimator of
``reports.stats``; in a run of independent hands each game is one hand and the interval is the
plain t interval.  Games are independent: Wilson intervals for the game shares.  The sums are
gathered shard by shard, so a summary of ten million hands needs no more memory than one chunk.
A hand is won by the team with the strictly highest score; a tie for the highest score gives
each tied team an equal part.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from reports import stats
from sim.runs import store

__all__ = ["RunSummary", "summarize", "summarize_tables", "END_LABELS"]

END_LABELS = {1: "went out", 2: "stock exhausted", 3: "red three last card", 4: "turn limit"}


@dataclass
class RunSummary:
    """What a run's summary shows; the tables have columns estimate, low, high (95% CI)."""

    hands: int
    games: int  # distinct games (= hands in a run of independent hands)
    mode: str
    teams: pd.DataFrame  # team, strategy, mean score, low, high, hands won share, low, high
    pairs: pd.DataFrame  # a, b (team numbers), label, mean diff per hand, low, high
    ends: pd.DataFrame  # end, share, low, high
    game_teams: pd.DataFrame | None = None  # team, strategy, games won share, low, high
    game_pairs: pd.DataFrame | None = None  # a, b, label, mean final diff per game, low, high
    extra: dict[str, Any] = field(default_factory=dict)


def _hand_sums(df: pd.DataFrame, n_teams: int) -> dict[str, stats.ClusterSums]:
    """Cluster sums (cluster = (seed, game)) of every per-hand quantity of one shard."""
    sc = np.stack([df[f"score_t{t}"].to_numpy(np.float64) for t in range(n_teams)], axis=1)
    top = sc.max(axis=1, keepdims=True)
    at_top = sc == top
    won = at_top / at_top.sum(axis=1, keepdims=True)
    cols: dict[str, np.ndarray] = {}
    for t in range(n_teams):
        cols[f"score{t}"] = sc[:, t]
        cols[f"won{t}"] = won[:, t]
    for a, b in itertools.combinations(range(n_teams), 2):
        cols[f"diff{a}{b}"] = sc[:, a] - sc[:, b]
    end = df["end_reason"].to_numpy(np.int64)
    for k in END_LABELS:
        cols[f"end{k}"] = (end == k).astype(np.float64)
    key = df["seed"].to_numpy(np.int64) * (1 << 40) + df["game"].to_numpy(np.int64)
    _, inv = np.unique(key, return_inverse=True)
    return {name: _sums_by(inv, v) for name, v in cols.items()}


def _sums_by(inv: np.ndarray, y: np.ndarray) -> stats.ClusterSums:
    yc = np.bincount(inv, weights=y)
    mc = np.bincount(inv).astype(np.float64)
    return stats.ClusterSums(
        int(yc.size),
        float(yc.sum()),
        float(mc.sum()),
        float(yc @ yc),
        float(mc @ mc),
        float(yc @ mc),
    )


def _hand_frames(result: Any, cols: list[str]):
    """The hands table shard by shard (a run folder) or at once (an in-memory run)."""
    if result.path is None:
        yield result.read("hands", columns=cols)
        return
    from sim.runs import integrity

    with store.readable_shards(result.path):
        for f in store.shard_files(result.path, "hands"):  # footers checked against the markers
            yield integrity.scan([f], cols, None, result.path).to_pandas()  # pages verified


def _row(ci: stats.CI) -> dict[str, float]:
    return {"estimate": ci.mean, "low": ci.low, "high": ci.high}


def summarize(result: Any, level: float = 0.95) -> RunSummary:
    """Summary of a ``sim.runs.runner.RunResult`` (a run folder or an in-memory run)."""
    m = result.manifest
    n_teams = int(m["n_teams"])
    cols = ["seed", "game"] + [f"score_t{t}" for t in range(n_teams)] + ["end_reason"]
    games = None
    if m["mode"] == "games":
        games = result.read(
            "games", columns=["winner_team"] + [f"final_t{t}" for t in range(n_teams)]
        )
    return summarize_tables(
        _hand_frames(result, cols), games, list(m["team_strategies"]), m["mode"], level
    )


def summarize_tables(
    frames, games: pd.DataFrame | None, names: list[str], mode: str, level: float = 0.95
) -> RunSummary:
    """The summary from hands-table pieces (an iterable of DataFrames with seed, game,
    score_t*, end_reason; a game must not straddle two pieces), the games table (or None) and
    the teams' strategy labels."""
    n_teams = len(names)
    acc: dict[str, stats.ClusterSums] = {}
    for df in frames:
        if len(df) == 0:
            continue
        for k, s in _hand_sums(df, n_teams).items():
            acc[k] = acc[k] + s if k in acc else s
    hands = int(acc["score0"].m) if acc else 0
    n_games = int(acc["score0"].clusters) if acc else 0

    def ci(name: str, bounds=None) -> dict[str, float]:
        if name not in acc:
            return {"estimate": math.nan, "low": math.nan, "high": math.nan}
        return _row(stats.ratio_ci_from_sums(acc[name], level, bounds))

    teams = pd.DataFrame(
        [
            {
                "team": t,
                "strategy": names[t],
                **ci(f"score{t}"),
                **{f"won_{k}": v for k, v in ci(f"won{t}", (0.0, 1.0)).items()},
            }
            for t in range(n_teams)
        ]
    )
    pairs = pd.DataFrame(
        [
            {
                "a": a,
                "b": b,
                "label": f"team {a} ({names[a]}) - team {b} ({names[b]})",
                **ci(f"diff{a}{b}"),
            }
            for a, b in itertools.combinations(range(n_teams), 2)
        ]
    )
    ends = pd.DataFrame(
        [{"end": lab, **ci(f"end{k}", (0.0, 1.0))} for k, lab in END_LABELS.items()]
    )
    out = RunSummary(hands, n_games, mode, teams, pairs, ends)
    if games is not None and len(games):
        out.game_teams, out.game_pairs = _game_tables(games, n_teams, names, level)
        out.games = int(out.game_teams["games"].iloc[0])
    return out


def _game_tables(g: pd.DataFrame, n_teams: int, names: list[str], level: float):
    w = g["winner_team"].to_numpy(np.int64)
    n = len(w)
    # a tie (winner -1) gives each team an equal part; ties among fewer teams are not recorded
    rows = []
    for t in range(n_teams):
        wins = float((w == t).sum()) + float((w < 0).sum()) / n_teams
        rows.append(
            {"team": t, "strategy": names[t], "games": n, **_row(stats.share_ci(wins, n, level))}
        )
    pairs = []
    for a, b in itertools.combinations(range(n_teams), 2):
        d = g[f"final_t{a}"].to_numpy(np.float64) - g[f"final_t{b}"].to_numpy(np.float64)
        pairs.append(
            {
                "a": a,
                "b": b,
                "label": f"team {a} ({names[a]}) - team {b} ({names[b]})",
                **_row(stats.mean_ci(d, level)),
            }
        )
    return pd.DataFrame(rows), pd.DataFrame(pairs)
