"""How many fewer deals the luck-adjusted estimate needs, and that it is unbiased.

Plays expert against greedy on duplicate deals (classic 4p by default) with the engine's chance
terms recorded (sim/core/luck.py), and prints for the first --deals deals the variance of the
per-deal estimate of each design, as a factor against plain duplicate deals (a factor f means
f times fewer deals for the same CI half-width), with a 95% bootstrap interval over deals (the
designs share the deal keys, so deals are resampled jointly; the cross-fitted adjustments are
held fixed):
- independent: seating 1 alone (two independent hands per deal), plain and luck-adjusted;
- duplicate: plain and luck-adjusted (what `canasta compare` uses).
Over --check-deals fresh deals of that design: the plain and the adjusted mean with
their 95% CIs (they must agree: the adjustment has mean zero by construction).  Writes
benchmarks/results/luck.json.

    nice -n 10 python benchmarks/bench_luck.py --deals 20000 --check-deals 200000
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

from reports.compare import play_luck_pairs
from reports.luck import adjust, luck_adjusted
from sim.core.rules import RuleSet
from sim.play.engine import run_chunk

ROOT = Path(__file__).resolve().parents[1]


def per_deal_variants(plain) -> dict[str, np.ndarray]:
    """Per-deal estimates of A - B (float64[n] each) whose variances the factors compare.

    The independent design's unit is a deal's two independent hands, so its per-deal value is
    seating 1's hand alone scaled to the same variance (its variance halved: sqrt(2) x spread
    over 2 hands = the mean of two independent hands)."""
    one = plain.seatings[:, 0]
    x1 = plain.first_terms
    half = 1 / np.sqrt(2)  # the mean of two independent hands: half the variance of one
    return {
        "independent": one * half,
        "independent_adjusted": adjust(one, x1) * half,
        "duplicate": plain.diff,
        "duplicate_adjusted": adjust(plain.diff, plain.terms),
    }


def factors(
    variants: dict[str, np.ndarray], base: str = "duplicate", n_boot: int = 400, seed: int = 0
) -> dict[str, dict[str, float]]:
    """var(base) / var(variant) for every variant, with a 95% bootstrap interval over deals."""
    rng = np.random.default_rng(seed)
    n = len(variants[base])
    idx = [rng.integers(0, n, n) for _ in range(n_boot)]
    out = {}
    for name, v in variants.items():
        f = np.var(variants[base], ddof=1) / np.var(v, ddof=1)
        boots = [np.var(variants[base][i], ddof=1) / np.var(v[i], ddof=1) for i in idx]
        lo, hi = np.quantile(boots, [0.025, 0.975])
        out[name] = {"factor": float(f), "low": float(lo), "high": float(hi)}
    return out


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--rules", default="classic")
    ap.add_argument("--a", default="expert")
    ap.add_argument("--b", default="greedy")
    ap.add_argument("--deals", type=int, default=20_000)
    ap.add_argument("--check-deals", type=int, default=200_000)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--save", default="", help="also save the per-deal arrays to this .npz")
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "luck.json"))
    args = ap.parse_args()
    rules = RuleSet.preset(args.rules)
    run_chunk(rules, (args.a, args.b) * 2, 0, 0, 10, luck=True)  # compile outside the clock

    t0 = time.perf_counter()
    plain = play_luck_pairs(rules, args.a, args.b, seed=args.seed, count=args.deals)
    played = time.perf_counter() - t0
    if args.save:
        np.savez_compressed(
            args.save,
            diff=plain.diff,
            terms=plain.terms,
            seatings=plain.seatings,
        )
    table = factors(per_deal_variants(plain))
    print(
        f"{args.deals:,} deals of {args.a} vs {args.b}, {args.rules} ({played:.0f} s for 2 x "
        f"{args.deals:,} hands)"
    )
    print("  factor vs plain duplicate deals (95% bootstrap CI over deals):")
    for k, v in table.items():
        print(f"  {k:24s} x{v['factor']:.3f} [{v['low']:.3f}, {v['high']:.3f}]")

    check = {}
    if args.check_deals:
        t0 = time.perf_counter()
        big = play_luck_pairs(rules, args.a, args.b, seed=args.seed + 1, count=args.check_deals)
        e = luck_adjusted(big.diff, big.terms, n_boot=0)
        check = {
            "deals": args.check_deals,
            "design": "duplicate deals, luck-adjusted (as canasta compare)",
            "plain_mean": e.plain_mean,
            "plain_ci": e.plain_ci,
            "adjusted_mean": e.mean,
            "adjusted_ci": e.ci,
            "variance_reduction": e.variance_reduction,
            "seconds": round(time.perf_counter() - t0, 1),
        }
        agree = e.ci[0] <= e.plain_mean <= e.ci[1] or e.plain_ci[0] <= e.mean <= e.plain_ci[1]
        print(
            f"{args.check_deals:,} deals: plain {e.plain_mean:.1f} [{e.plain_ci[0]:.1f}, "
            f"{e.plain_ci[1]:.1f}], "
            f"adjusted {e.mean:.1f} [{e.ci[0]:.1f}, {e.ci[1]:.1f}] -> "
            f"{'agree' if agree else 'DISAGREE'}"
        )
        check["agree"] = bool(agree)
    Path(args.out).write_text(
        json.dumps(
            {
                "rules": args.rules,
                "a": args.a,
                "b": args.b,
                "deals": args.deals,
                "seed": args.seed,
                "factors_vs_duplicate": table,
                "unbiased_check": check,
            },
            indent=1,
        )
    )


if __name__ == "__main__":
    main()
