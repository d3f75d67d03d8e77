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
    r = runner.simulate(
        RuleSet.preset("classic"),
        "expert,greedy",
        hands=6000,
        seed=11,
        jobs=1,
        log_decisions=1.0,
        progress=False,
    )
    d = r.decisions.drop_duplicates(subset=["seed", "game", "hand", "turn"]).copy()
    d["end_turn"] = d.groupby(["seed", "game", "hand"])["turn"].transform("max")
    d["strategy"] = np.where(d["team"] == 0, "expert", "greedy")
    d["canastas_us"] = d["canastas_us"].clip(upper=3)
    d["ok3"] = ((d["went_out_us"] == 1) & (d["end_turn"] - d["turn"] < 3)).astype(float)
    by = ["strategy", "canastas_us"]
    d["sub"] = d["game"] % 60
    # every small run at once: the small run is one more grouping column
    tab = odds.odds_from_rows(d, ["sub", *by], within=3, min_n=1)
    total = d.groupby(by)[["went_out_us", "ok3"]].agg(["sum", "size"])
    part = d.groupby(["sub", *by])[["went_out_us", "ok3"]].agg(["sum", "size"])
    rest = (
        total.reindex(pd.MultiIndex.from_frame(tab[by])).to_numpy()
        - part.reindex(pd.MultiIndex.from_frame(tab[["sub", *by]])).to_numpy()
    )
    truth_out = rest[:, 0] / rest[:, 1]  # the value of the other 59 small runs together
    truth_3 = rest[:, 2] / rest[:, 3]
    clustered = np.concatenate(
        [
            (tab["p_out_low"] <= truth_out) & (truth_out <= tab["p_out_high"]),
            (tab["p_within_3_low"] <= truth_3) & (truth_3 <= tab["p_within_3_high"]),
        ]
    )
    k = part.reindex(pd.MultiIndex.from_frame(tab[["sub", *by]]))["went_out_us"]
    _, lo, hi = stats.wilson_ci(k["sum"].to_numpy(), k["size"].to_numpy())
    wilson = (lo <= truth_out) & (truth_out <= hi)
    # ~900 intervals, correlated within a small run: a wider band than 95 +- 2
    assert 0.91 <= np.mean(clustered) <= 0.99, np.mean(clustered)
    assert np.mean(wilson) < 0.7, np.mean(wilson)
