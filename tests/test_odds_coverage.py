"""Going-out odds on the real engine: the clustered intervals cover, the row-wise Wilson ones
do not.  One logged run of 6,000 hands (classic 4p, expert vs greedy) is cut into 60 runs of
100 hands; each small run's interval is checked against the value of the other 59 together."""

from __future__ import annotations

import numpy as np
import pandas as pd

from reports import odds, stats
from sim.core.rules import RuleSet
from sim.runs import runner


def test_going_out_intervals_cover_on_the_engine():
    r = runner.simulate(RuleSet.preset("classic"), "expert,greedy", hands=6000, seed=11, jobs=1,
                        log_decisions=1.0, progress=False)
    d = r.decisions.drop_duplicates(subset=["seed", "game", "hand", "turn"]).copy()
    d["end_turn"] = d.groupby(["seed", "game", "hand"])["turn"].transform("max")
    d["strategy"] = np.where(d["team"] == 0, "expert", "greedy")
    d["canastas_us"] = d["canastas_us"].clip(upper=3)
    d["ok3"] = ((d["went_out_us"] == 1) & (d["end_turn"] - d["turn"] < 3)).astype(float)
    by = ["strategy", "canastas_us"]
    sub = d["game"].to_numpy() % 60
    clustered, wilson = [], []
    for i in range(60):
        part, rest = d[sub == i], d[sub != i]
        tab = odds.odds_from_rows(part, by, within=3, min_n=1)
        idx = pd.MultiIndex.from_frame(tab[by])
        truth = rest.groupby(by)[["went_out_us", "ok3"]].mean().reindex(idx)
        for col, t in (("p_out", truth["went_out_us"]), ("p_within_3", truth["ok3"])):
            t = t.to_numpy()
            clustered += list((tab[f"{col}_low"] <= t) & (t <= tab[f"{col}_high"]))
        k = part.groupby(by)["went_out_us"].agg(["sum", "size"]).reindex(idx)
        _, lo, hi = stats.wilson_ci(k["sum"].to_numpy(), k["size"].to_numpy())
        t = truth["went_out_us"].to_numpy()
        wilson += list((lo <= t) & (t <= hi))
    # ~600 intervals, correlated within a small run: a wider band than 95 +- 2
    assert 0.91 <= np.mean(clustered) <= 0.99, np.mean(clustered)
    assert np.mean(wilson) < 0.7, np.mean(wilson)
