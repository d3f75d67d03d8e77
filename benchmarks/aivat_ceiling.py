"""Probe (issue 13): the most that draw-time chance terms could remove from duplicate deals.

Plays each of --deals duplicate deals (A against B, both seatings) --stocks times with the same
deal and upcard and the rest of the stock shuffled again (benchmarks/aivat_record.py, restock).
The variance of a deal's paired difference splits into the part the deal fixes (the variance
of its mean over stocks) and the part the stock adds (within a deal).  Terms on stock draws can
remove at most the second part, so total / deal part bounds their factor against plain
duplicate deals.

    nice -n 10 python benchmarks/aivat_ceiling.py --deals 3000 --stocks 8
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np
from aivat_record import play_records

from sim.core.rules import RuleSet


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--a", default="expert")
    ap.add_argument("--b", default="greedy")
    ap.add_argument("--deals", type=int, default=3000)
    ap.add_argument("--stocks", type=int, default=8)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument(
        "--out", default=str(Path(__file__).resolve().parent / "results" / "aivat_ceiling.json")
    )
    args = ap.parse_args()
    rules = RuleSet.preset("classic")
    y = np.zeros((args.deals, args.stocks))
    for j in range(args.stocks):
        s = [
            play_records(rules, args.a, args.b, args.seed, 0, args.deals, seating, restock=j + 1)[
                "scores"
            ]
            for seating in (0, 1)
        ]
        y[:, j] = ((s[0][:, 0] - s[0][:, 1]) + (s[1][:, 1] - s[1][:, 0])) / 2.0
    k = args.stocks
    within = y.var(axis=1, ddof=1).mean()  # stock part
    total = y.var(ddof=1)
    deal_part = y.mean(axis=1).var(ddof=1) - within / k  # variance of E[y | deal]
    print(
        f"{args.deals} deals x {k} stocks: total variance {total:,.0f}, stock part {within:,.0f}, "
        f"deal part {deal_part:,.0f}; the most draw-time terms can give: x{total / deal_part:.2f}"
    )
    rng = np.random.default_rng(0)
    b = []
    for _ in range(300):
        i = rng.integers(0, args.deals, args.deals)
        w = y[i].var(axis=1, ddof=1).mean()
        b.append(y[i].var(ddof=1) / (y[i].mean(axis=1).var(ddof=1) - w / k))
    lo, hi = np.quantile(b, [0.025, 0.975])
    print(f"  95% bootstrap CI over deals: [{lo:.2f}, {hi:.2f}]")
    Path(args.out).write_text(
        json.dumps(
            {
                "a": args.a,
                "b": args.b,
                "deals": args.deals,
                "stocks": k,
                "seed": args.seed,
                "total_variance": float(total),
                "stock_part": float(within),
                "deal_part": float(deal_part),
                "ceiling": float(total / deal_part),
                "ceiling_ci": [float(lo), float(hi)],
            },
            indent=1,
        )
    )


if __name__ == "__main__":
    main()
