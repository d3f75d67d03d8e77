"""Going-out odds from decision logs and hand endings from the hands table.

Units: the decisions table has several rows per turn (draw, melds, discard).  The odds use
ONE row per turn -- the turn's first decision, i.e. the state at the start of the turn (before
drawing) -- so every turn counts once.  For that row:

- ``went_out_us``: the deciding team went out in this hand (the hand ended by its going out).
  Taken from the decisions column when present, else from the hands table
  (went_out_team == team).
- ``end_turn``: the last turn with a logged decision in the hand (the turn it ended in).
- within K: the deciding team goes out in this turn or the next K-1 turns (turns of any
  player: turn t counts, ..., turn t+K-1), i.e. went_out_us and end_turn - turn < K.

Intervals: the turns of one hand share its outcome (went_out_us is one value per team and
hand), so they are not independent: a Wilson interval over turns is 1.8-2.7x too narrow
(design effect 3.4-7.2 measured).  Every proportion here carries a cluster-robust 95% interval
(``reports.stats.cluster_group_ci``: ratio estimator over clusters = games, i.e. hands in a run
of independent hands, whole games in a run of games).  Groups with fewer than ``min_n`` turns
are dropped.

Grouping: by strategy and team first (``pooled=False``, the default), then by the asked
columns.  Pooled odds mix strategies whose share changes with the feature (by canastas held,
pooled P(go out) falls from 0.53 to 0.19 while greedy's own rises from 0.69 to 0.82), so
``pooled=True`` returns them with a ``MixedStrategiesWarning`` when the run mixes strategies.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd

from reports.runs import KEY, Run, lineup, team_long, team_of_seat
from reports.stats import cluster_group_ci
from sim.core.errors import CanastaError

__all__ = [
    "turn_rows",
    "going_out_table",
    "end_turn_distribution",
    "ending_shares",
    "hand_over_curve",
    "BY_CHOICES",
    "odds_from_rows",
    "MixedStrategiesWarning",
    "CLUSTER",
]

CLUSTER = ["seed", "game"]  # rows of one game (one hand in a run of hands) share their luck


class MixedStrategiesWarning(UserWarning):
    """Pooled odds over several strategies: the mix may change with the feature."""


BY_CHOICES = (
    "turn",
    "hand_size",
    "canastas_us",
    "canastas_them",
    "pile_size",
    "pile_frozen",
    "team_opened",
    "opp_opened",
    "stock_size",
    "min_opp_hand_size",
    "next_opp_hand_size",
    "seat",
    "team",
    "strategy",
)

NEED = ["seed", "game", "hand", "turn", "seat", "team"]


def turn_rows(run: Run, by: list[str]) -> pd.DataFrame:
    """One decision row per (hand, turn) with went_out_us and end_turn."""
    avail = set(run.columns("decisions"))
    bad = [b for b in by if b != "strategy" and b not in avail]
    if bad:
        raise CanastaError(f"unknown --by column {bad[0]!r}; choose from {', '.join(BY_CHOICES)}")
    cols = list(dict.fromkeys(NEED + [b for b in by if b != "strategy"] + ["went_out_us"]))
    dec = run.table("decisions", cols)
    dec = dec.drop_duplicates(subset=KEY + ["turn"], keep="first").copy()
    dec["end_turn"] = dec.groupby(KEY, sort=False)["turn"].transform("max")
    need_hands = "went_out_us" not in dec.columns or "strategy" in by
    if need_hands:
        h = run.hands
        small = h[KEY + ["went_out_team"] + [c for c in h.columns if c.startswith("strategy_s")]]
        dec = dec.merge(small, on=KEY, how="left")
        if "went_out_us" not in dec.columns:
            dec["went_out_us"] = (dec["went_out_team"] == dec["team"]).astype(np.int8)
        if "strategy" in by:
            tos = team_of_seat(run, h)
            seat = dec["seat"].to_numpy().astype(int)
            strat = np.full(len(dec), "?", dtype=object)
            for s in range(len(tos)):
                strat[seat == s] = dec.loc[seat == s, f"strategy_s{s}"].astype(str).to_numpy()
            dec["strategy"] = strat
    return dec


def going_out_table(
    run: Run,
    by: list[str] | tuple[str, ...] = ("turn",),
    within: int | None = None,
    min_n: int = 30,
    level: float = 0.95,
    pooled: bool = False,
) -> pd.DataFrame:
    """P(deciding team goes out) [and within K turns] by strategy, team and ``by``, with
    cluster-robust CIs (see the module docstring).

    Columns: [strategy, team,] by..., n (turns), hands (clusters: games), p_out, p_out_low,
    p_out_high [, p_within_K, p_within_K_low, p_within_K_high].  ``pooled``: no grouping by
    strategy and team; warns (MixedStrategiesWarning) when the run mixes strategies."""
    if not run.has("decisions"):
        raise CanastaError(
            "this run has no decision logs; run with --log-decisions to get going-out odds"
        )
    by = list(by)
    if not by:
        raise CanastaError("--by needs at least one column")
    if within is not None and within < 1:
        raise CanastaError("--within must be at least 1")
    groups = by if pooled else [c for c in ("strategy", "team") if c not in by] + by
    d = turn_rows(run, list(dict.fromkeys(groups + ["strategy"])))
    if pooled and d["strategy"].nunique() > 1:
        mix = ", ".join(sorted(d["strategy"].unique()))
        warnings.warn(
            f"pooled odds mix strategies ({mix}) whose share may change with "
            f"{', '.join(by)}; drop --pooled to see them per strategy",
            MixedStrategiesWarning,
            stacklevel=2,
        )
    return odds_from_rows(d, groups, within, min_n, level)


def odds_from_rows(
    d: pd.DataFrame, by: list[str], within: int | None = None, min_n: int = 30, level: float = 0.95
) -> pd.DataFrame:
    """The going-out table from turn rows (columns seed, game, went_out_us, turn, end_turn and
    ``by``); intervals clustered by (seed, game)."""
    d = d.copy()
    d["out"] = d["went_out_us"].astype(np.float64)
    tab = cluster_group_ci(d, "out", by, CLUSTER, level, (0.0, 1.0), proportion=True)
    tab = tab.rename(
        columns={"clusters": "hands", "mean": "p_out", "low": "p_out_low", "high": "p_out_high"}
    )
    if within is not None:
        d["out_k"] = ((d["went_out_us"] == 1) & (d["end_turn"] - d["turn"] < within)).astype(
            np.float64
        )
        w = cluster_group_ci(d, "out_k", by, CLUSTER, level, (0.0, 1.0), proportion=True)
        name = f"p_within_{within}"
        tab[name], tab[f"{name}_low"], tab[f"{name}_high"] = w["mean"], w["low"], w["high"]
    return tab[tab["n"] >= min_n].reset_index(drop=True)


def end_turn_distribution(run: Run, level: float = 0.95) -> pd.DataFrame:
    """Turns per hand by lineup and end reason: count, mean with its CI (clustered by game),
    quantiles."""
    h = run.hands
    d = pd.DataFrame(
        {
            "lineup": lineup(h, team_of_seat(run, h)).to_numpy(),
            "end": h["end_reason"].map(END_NAMES).fillna("other").to_numpy(),
            "turns": h["turns"].to_numpy(np.float64),
            "seed": h["seed"].to_numpy(),
            "game": h["game"].to_numpy(),
        }
    )
    g = d.groupby(["lineup", "end"])["turns"]
    out = g.describe(percentiles=[0.1, 0.5, 0.9])[["count", "mean", "10%", "50%", "90%", "max"]]
    out = out.reset_index()
    ci = cluster_group_ci(d, "turns", ["lineup", "end"], CLUSTER, level)
    out.insert(4, "mean_low", ci["low"].to_numpy())
    out.insert(5, "mean_high", ci["high"].to_numpy())
    out["count"] = out["count"].astype(np.int64)
    return out


END_NAMES = {1: "went out", 2: "exhausted stock", 3: "red three last", 4: "turn limit"}


def hand_over_curve(run: Run, group: str = "lineup", max_turn: int | None = None) -> pd.DataFrame:
    """P(hand over by turn t) per lineup: rows t, columns = groups (ECDF of turns)."""
    h = run.hands
    labels = lineup(h, team_of_seat(run, h)).to_numpy()
    turns = h["turns"].to_numpy()
    top = int(max_turn or np.quantile(turns, 0.995))
    ts = np.arange(0, top + 1)
    out = {}
    for lab in sorted(set(labels)):
        x = np.sort(turns[labels == lab])
        out[lab] = np.searchsorted(x, ts, side="right") / max(x.size, 1)
    return pd.DataFrame(out, index=pd.Index(ts, name="turn"))


def ending_shares(run: Run, level: float = 0.95) -> pd.DataFrame:
    """Per preset, team and its strategy: share of hands the team went out, went out concealed,
    and share of hands ended by exhausted stock, with CIs clustered by game; share of its
    going outs that were concealed."""
    t = team_long(run)
    by = ["rules", "strategy", "team"]
    t["exhausted"] = (t["end_reason"] == 2).astype(np.float64)
    out = None
    for col in ("went_out", "concealed", "exhausted"):
        g = cluster_group_ci(
            t.assign(v=t[col].astype(np.float64)), "v", by, CLUSTER, level, (0.0, 1.0), True
        )
        if out is None:
            out = g[by + ["n"]].rename(columns={"n": "hands"})
        out[f"share_{col}"], out[f"share_{col}_low"], out[f"share_{col}_high"] = (
            g["mean"],
            g["low"],
            g["high"],
        )
    assert out is not None  # the loop above ran over the ending columns
    with np.errstate(invalid="ignore", divide="ignore"):
        out["concealed_of_going_out"] = out["share_concealed"] / out["share_went_out"]
    return out
