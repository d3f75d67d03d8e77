"""`canasta compare A B [C ...]`: duplicate-deal comparison (and a ranking for 3+)."""

from __future__ import annotations

import argparse

import pandas as pd

EPILOG = """example:
  canasta compare expert greedy --rules classic --players 4 --until-ci 10
      plays duplicate deals (each deal twice, seats swapped) until the 95% CI of
      expert-minus-greedy points per hand is narrower than +-10, then prints one row.
  canasta compare expert greedy patient --hands 20000 --out cmp.csv
      every pairing on the same deals plus a Bradley-Terry / Elo ranking.
"""


def add_parser(subparsers) -> argparse.ArgumentParser:
    p = subparsers.add_parser(
        "compare", help="compare strategies head to head on duplicate deals",
        description="Compare strategies on duplicate deals (every deal played twice with the "
        "teams' seats swapped). --hands counts deals; each is played twice.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("strategies", nargs="+", help="2+ strategy names or 'name:k=v,...' specs")
    p.add_argument("--rules", default="classic", help="rule preset (default classic)")
    p.add_argument("--players", type=int, default=4, help="players: 2, 4 or 6 (default 4)")
    p.add_argument("--hands", type=int, default=10_000, help="deals per pairing (default 10000)")
    p.add_argument("--games", type=int, default=None, help="also play this many whole games per seating")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--until-ci", type=float, default=None, metavar="POINTS",
                   help="add deals until the 95%% CI half-width is below POINTS per hand")
    p.add_argument("--max-hands", type=int, default=1_000_000, help="deal cap for --until-ci")
    p.add_argument("--jobs", type=int, default=-1, help="parallel workers (default all cores)")
    p.add_argument("--out", default=None, help="also write the pairings table to this CSV")
    p.set_defaults(run=run)
    return p


def run(args) -> int:
    from reports.compare import compare, resolve_rules, round_robin

    if len(args.strategies) < 2:
        raise ValueError("compare needs at least two strategies")
    rules = resolve_rules(args.rules, args.players)
    kw = dict(rules=rules, hands=args.hands, games=args.games, seed=args.seed,
              until_ci=args.until_ci, max_hands=args.max_hands, jobs=args.jobs)
    with pd.option_context("display.width", 200, "display.max_columns", 50):
        if len(args.strategies) == 2:
            pairs = compare(args.strategies, **kw)
            print(pairs.drop(columns=["rules"]).T.to_string(header=False))
        else:
            pairs, ranking = round_robin(args.strategies, **kw)
            print(pairs.drop(columns=["rules", "seed"]).to_string(index=False, float_format="%.3f"))
            print()
            print(ranking.to_string(index=False, float_format="%.2f"))
    if args.out:
        pairs.to_csv(args.out, index=False)
    return 0
