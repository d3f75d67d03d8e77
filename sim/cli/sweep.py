"""`canasta sweep STRATEGY --knob k=v1,v2 ... --vs OPPONENT`: knob grid on duplicate deals."""

from __future__ import annotations

import argparse

import pandas as pd

EPILOG = """example:
  canasta sweep tunable --knob open_threshold=50,70,90 --knob freeze_when=1,2 --vs expert --hands 5000
      plays the 6 settings "tunable:open_threshold=50,freeze_when=1" ... against expert on the
      same duplicate deals and prints them best first with 95% CIs (points per hand).
"""


def add_parser(subparsers) -> argparse.ArgumentParser:
    p = subparsers.add_parser(
        "sweep", help="grid of knob settings of a tunable strategy vs a fixed opponent",
        description="Play every knob combination of a tunable strategy against one opponent "
        "on duplicate deals. Settings are passed to the engine as 'name:k=v,...' specs.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("strategy", help="tunable strategy name (may carry fixed knobs: name:k=v)")
    p.add_argument("--knob", action="append", default=[], metavar="NAME=V1,V2,...", required=True,
                   help="knob values to try (repeat for more knobs)")
    p.add_argument("--vs", required=True, dest="opponent", help="opponent strategy")
    p.add_argument("--rules", default="classic")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--hands", type=int, default=10_000, help="deals per setting (default 10000)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--until-ci", type=float, default=None, metavar="POINTS")
    p.add_argument("--max-hands", type=int, default=1_000_000)
    p.add_argument("--jobs", type=int, default=-1)
    p.add_argument("--out", default=None, help="also write the table to this CSV")
    p.set_defaults(run=run)
    return p


def run(args) -> int:
    from reports.compare import resolve_rules
    from reports.sweep import parse_knobs, sweep

    knobs = parse_knobs(args.knob)
    rules = resolve_rules(args.rules, args.players)
    df = sweep(args.strategy, knobs, args.opponent, rules=rules, hands=args.hands, seed=args.seed,
               until_ci=args.until_ci, max_hands=args.max_hands, jobs=args.jobs)
    cols = ["rank", *knobs, "mean_diff_per_hand", "ci_low", "ci_high", "share_hands_won_a", "deals"]
    with pd.option_context("display.width", 200):
        print(df[cols].to_string(index=False, float_format="%.2f"))
    if args.out:
        df.to_csv(args.out, index=False)
    return 0
