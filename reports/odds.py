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

Proportions carry Wilson CIs.  Groups with fewer than ``min_n`` turns are dropped.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from reports.runs import KEY, Run, lineup, team_long, team_of_seat
from reports.stats import wilson_ci
from sim.core.errors import CanastaError

__all__ = [
    "turn_rows",
    "going_out_table",
    "end_turn_distribution",
    "ending_shares",
    "hand_over_curve",
    "BY_CHOICES",
]

BY_CHOICES = (
    "turn", "hand_size", "canastas_us", "canastas_them", "pile_size", "pile_frozen",
    "team_opened", "opp_opened", "stock_size", "min_opp_hand_size", "next_opp_hand_size",
    "seat", "team", "strategy",
)

NEED = ["seed", "game", "hand", "turn", "seat", "team"]


def turn_rows(run: Run, by: list[str]) -> pd.DataFrame:
    """One decision row per (hand, turn) with went_out_us and end_turn."""
    avail = set(run.columns("decisions"))
    bad = [b for b in by if b != "strategy" and b not in avail]
    if bad:
        raise CanastaError(f"unknown --by column {bad[0]!r}; choose from {', '.join(BY_CHOICES)}")
    cols = list(dict.fromkeys(NEED + [b for b in by if b != "strategy"] + ["went_out_us"]))
    dec = run.read("decisions", cols)
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
) -> pd.DataFrame:
    """P(deciding team goes out) [and within K turns] grouped by ``by``, with Wilson CIs.

    Columns: by..., n, p_out, p_out_low, p_out_high [, p_within, p_within_low,
    p_within_high]."""
    if not run.has("decisions"):
        raise CanastaError("this run has no decision logs; run with --log-decisions to get going-out odds")
    by = list(by)
    if not by:
        raise CanastaError("--by needs at least one column")
    if within is not None and within < 1:
        raise CanastaError("--within must be at least 1")
    d = turn_rows(run, by)
    d["out"] = d["went_out_us"].astype(np.int64)
    agg = {"n": ("out", "size"), "k": ("out", "sum")}
    if within is not None:
        d["out_k"] = ((d["went_out_us"] == 1) & (d["end_turn"] - d["turn"] < within)).astype(np.int64)
        agg["k_within"] = ("out_k", "sum")
    g = d.groupby(by, sort=True).agg(**agg).reset_index()
    g = g[g["n"] >= min_n].reset_index(drop=True)
    p, lo, hi = wilson_ci(g["k"].to_numpy(), g["n"].to_numpy(), level)
    g["p_out"], g["p_out_low"], g["p_out_high"] = p, lo, hi
    if within is not None:
        p, lo, hi = wilson_ci(g["k_within"].to_numpy(), g["n"].to_numpy(), level)
        g[f"p_within_{within}"], g[f"p_within_{within}_low"], g[f"p_within_{within}_high"] = p, lo, hi
    return g.drop(columns=[c for c in ("k", "k_within") if c in g.columns])


def end_turn_distribution(run: Run) -> pd.DataFrame:
    """Turns per hand by lineup and end reason: count, mean, quantiles."""
    h = run.hands
    d = pd.DataFrame({"lineup": lineup(h, team_of_seat(run, h)).to_numpy(),
                      "end": h["end_reason"].map(END_NAMES).fillna("other").to_numpy(),
                      "turns": h["turns"].to_numpy()})
    g = d.groupby(["lineup", "end"])["turns"]
    out = g.describe(percentiles=[0.1, 0.5, 0.9])[["count", "mean", "10%", "50%", "90%", "max"]]
    return out.reset_index()


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
    """Per preset and team strategy: share of hands the team went out, went out concealed,
    share of its going outs that were concealed, and share of hands ended by exhausted stock
    (with Wilson CIs for the hand shares)."""
    t = team_long(run)
    g = t.groupby(["rules", "strategy"]).agg(
        hands=("went_out", "size"),
        went_out=("went_out", "sum"),
        concealed=("concealed", "sum"),
        exhausted=("end_reason", lambda s: int((s == 2).sum())),
    ).reset_index()
    for col in ("went_out", "concealed", "exhausted"):
        p, lo, hi = wilson_ci(g[col].to_numpy(), g["hands"].to_numpy(), level)
        g[f"share_{col}"], g[f"share_{col}_low"], g[f"share_{col}_high"] = p, lo, hi
    with np.errstate(invalid="ignore", divide="ignore"):
        g["concealed_of_going_out"] = g["concealed"] / g["went_out"]
    return g.drop(columns=["went_out", "concealed", "exhausted"])
