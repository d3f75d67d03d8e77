"""Strength with duplicate deals: A vs B on the same deals, seats swapped.

Each deal (seed, game, 0) is played twice, classic four players: (A, B, A, B) and (B, A, B, A).
run_chunk keys deals by (seed, game, hand), so both runs see identical cards; the per-deal
difference is the mean over the two seatings of score(A's team) - score(B's team), which cancels
the luck of the cards.  Reports the mean difference per hand with a 95% CI (normal
approximation over deals) and writes benchmarks/results/strength.json.

    python benchmarks/bench_strength.py                 # 20,000 deals per pairing
    python benchmarks/bench_strength.py --deals 2000 --pair expert:greedy
"""

from __future__ import annotations

import argparse
import json
import math
import platform
import time
from pathlib import Path

from sim.core.rules import RuleSet
from sim.play.engine import run_chunk

ROOT = Path(__file__).resolve().parents[1]

PAIRS = (
    ("greedy", "random"),
    ("expert", "greedy"),
    ("expert", "patient"),
    ("expert", "pile-control"),
)


def duplicate(
    a: str, b: str, deals: int, rules: RuleSet | None = None, seed: int = 2024, start: int = 0
) -> dict:
    """Mean score difference per hand of `a` over `b` on `deals` duplicate deals (4 players)."""
    rules = rules or RuleSet.preset("classic")
    if rules.players != 4:
        raise ValueError("duplicate() seats two partnerships: use a four-player rule set")
    r1 = run_chunk(rules, [a, b, a, b], seed, start, deals).hands
    r2 = run_chunk(rules, [b, a, b, a], seed, start, deals).hands
    assert (r1["game"] == r2["game"]).all()
    d = ((r1["score"][:, 0] - r1["score"][:, 1]) + (r2["score"][:, 1] - r2["score"][:, 0])) / 2.0
    mean = float(d.mean())
    se = float(d.std(ddof=1) / math.sqrt(len(d)))
    return {
        "a": a,
        "b": b,
        "deals": deals,
        "mean_diff": round(mean, 2),
        "ci95": [round(mean - 1.96 * se, 2), round(mean + 1.96 * se, 2)],
        "a_score": round(float((r1["score"][:, 0].mean() + r2["score"][:, 1].mean()) / 2), 1),
        "b_score": round(float((r1["score"][:, 1].mean() + r2["score"][:, 0].mean()) / 2), 1),
        "a_wins_deal": round(float((d > 0).mean()), 3),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=20_000)
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--pair", action="append", help="A:B (default: the four standard pairings)")
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "strength.json"))
    ap.add_argument("--no-write", action="store_true")
    args = ap.parse_args(argv)
    pairs = [tuple(p.split(":", 1)) for p in args.pair] if args.pair else PAIRS
    rules = RuleSet.preset("classic")
    run_chunk(rules, ["greedy"] * 4, 0, 0, 2)  # compile outside the timing
    rows = []
    for a, b in pairs:
        t0 = time.perf_counter()
        row = duplicate(a, b, args.deals, rules, args.seed)
        row["seconds"] = round(time.perf_counter() - t0, 1)
        rows.append(row)
        lo, hi = row["ci95"]
        print(
            f"{a:>13} vs {b:<13} {row['mean_diff']:+8.1f}  95% CI [{lo:+.1f}, {hi:+.1f}]  "
            f"({row['a_score']:.0f} vs {row['b_score']:.0f}, A wins {row['a_wins_deal']:.1%} of "
            "deals)",
            flush=True,
        )
    if not args.no_write:
        out = {
            "rules": "classic, 4 players (2x2), hands keyed (seed, game, 0)",
            "seed": args.seed,
            "method": "duplicate deals: (A,B,A,B) and (B,A,B,A) on the same keys; per-deal mean of "
            "team(A)-team(B)",
            "python": platform.python_version(),
            "pairs": rows,
        }
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(json.dumps(out, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
