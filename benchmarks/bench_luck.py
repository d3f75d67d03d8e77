"""How many fewer deals the luck-adjusted estimate needs, and that it is unbiased.

Plays expert against greedy on duplicate deals (classic 4p by default) with the engine's chance
terms recorded (sim/core/luck.py) and prints, for the first --deals deals:
- the variance of the plain paired differences over independent hands (seating 1 alone), over
  duplicate deals, and of the luck-adjusted duplicate differences, with the factors between
  them (a factor f means f times fewer deals for the same CI half-width);
and over --check-deals deals: the plain and the adjusted mean with their 95% CIs (they must
agree: the adjustment has mean zero by construction).  Writes benchmarks/results/luck.json.

    python benchmarks/bench_luck.py --deals 20000 --check-deals 200000
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

from reports.luck import adjust, chance_terms, luck_adjusted, play_luck_pairs
from sim.core.rules import RuleSet
from sim.play.engine import run_chunk

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rules", default="classic")
    ap.add_argument("--a", default="expert")
    ap.add_argument("--b", default="greedy")
    ap.add_argument("--deals", type=int, default=20_000)
    ap.add_argument("--check-deals", type=int, default=200_000)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "luck.json"))
    args = ap.parse_args()
    rules = RuleSet.preset(args.rules)
    run_chunk(rules, (args.a, args.b) * 2, 0, 0, 10, luck=True)  # compile outside the clock

    t0 = time.perf_counter()
    pairs = play_luck_pairs(rules, args.a, args.b, seed=args.seed, count=args.deals)
    played = time.perf_counter() - t0
    # independent hands: seating 1 alone, its own terms (deal terms included)
    one = run_chunk(rules, (args.a, args.b) * 2, args.seed, 0, args.deals, luck=True).hands
    d1 = one["score"][:, 0].astype(np.float64) - one["score"][:, 1]
    terms = chance_terms(one)
    x1 = terms[:, 0, :] - terms[:, 1, :]
    var_indep = float(np.var(d1, ddof=1)) / 2  # two independent hands per deal
    var_indep_adj = float(np.var(adjust(d1, x1), ddof=1)) / 2
    est = luck_adjusted(pairs.diff, pairs.terms)
    var_dup = float(np.var(pairs.diff, ddof=1))
    var_dup_adj = var_dup / est.variance_reduction
    factors = {
        "independent_adjusted_vs_independent": var_indep / var_indep_adj,
        "duplicate_vs_independent": var_indep / var_dup,
        "duplicate_adjusted_vs_duplicate": est.variance_reduction,
        "duplicate_adjusted_vs_duplicate_ci": est.variance_reduction_ci,
        "duplicate_adjusted_vs_independent": var_indep / var_dup_adj,
    }
    print(f"{args.deals:,} deals of {args.a} vs {args.b}, {args.rules} ({played:.0f} s for 2 x {args.deals:,} hands)")
    for k, v in factors.items():
        print(f"  {k:40s} {v if isinstance(v, tuple) else round(v, 3)}")

    check = {}
    if args.check_deals:
        t0 = time.perf_counter()
        big = play_luck_pairs(rules, args.a, args.b, seed=args.seed + 1, count=args.check_deals)
        e = luck_adjusted(big.diff, big.terms, n_boot=0)
        check = {"deals": args.check_deals, "plain_mean": e.plain_mean, "plain_ci": e.plain_ci,
                 "adjusted_mean": e.mean, "adjusted_ci": e.ci, "variance_reduction": e.variance_reduction,
                 "seconds": round(time.perf_counter() - t0, 1)}
        agree = e.ci[0] <= e.plain_mean <= e.ci[1] or e.plain_ci[0] <= e.mean <= e.plain_ci[1]
        print(f"{args.check_deals:,} deals: plain {e.plain_mean:.1f} [{e.plain_ci[0]:.1f}, {e.plain_ci[1]:.1f}], "
              f"adjusted {e.mean:.1f} [{e.ci[0]:.1f}, {e.ci[1]:.1f}] -> {'agree' if agree else 'DISAGREE'}")
        check["agree"] = bool(agree)
    Path(args.out).write_text(json.dumps({"rules": args.rules, "a": args.a, "b": args.b, "deals": args.deals,
                                          "seed": args.seed, "factors": factors, "unbiased_check": check}, indent=1))


if __name__ == "__main__":
    main()
