"""`canasta sweep STRATEGY --knob k=v1,v2 ... --vs OPPONENT`: knob grid on duplicate deals."""

from __future__ import annotations

import argparse
import textwrap
from typing import TYPE_CHECKING, Any

from sim.cli.args import check_until_ci, real, whole
from sim.core import limits

if TYPE_CHECKING:
    import pandas as pd

EPILOG = """example:
  canasta sweep tunable --knob open_threshold=50,70,90 --knob freeze_when=1,2 --vs expert \\
      --hands 5000
      plays the 6 settings "tunable:open_threshold=50,freeze_when=1" ... and tunable itself (the
      baseline) against expert on the same duplicate deals; prints them best first, each as its
      paired difference to the baseline with a 95% CI, marks settings tied with the best and
      knobs with no effect, then replays the winner against the baseline on 5000 fresh deals.
"""


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    p = subparsers.add_parser(
        "sweep",
        help="grid of knob settings of a tunable strategy vs a fixed opponent",
        description="Play every knob combination of a tunable strategy against one opponent "
        "on duplicate deals. Settings are passed to the engine as 'name:k=v,...' specs.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("strategy", help="tunable strategy name (may carry fixed knobs: name:k=v)")
    p.add_argument(
        "--knob",
        action="append",
        default=[],
        metavar="NAME=V1,V2,...",
        required=True,
        help="knob values to try (repeat for more knobs)",
    )
    p.add_argument("--vs", required=True, dest="opponent", help="opponent strategy")
    p.add_argument("--rules", default="classic")
    p.add_argument(
        "--players",
        type=whole(2, 6),
        default=4,
        help="players: 2, 4, 5 or 6 (two teams; default 4)",
    )
    p.add_argument(
        "--hands",
        type=whole(*limits.DEALS),
        default=10_000,
        help="deals per setting, 2 .. 10**8 (default 10000)",
    )
    p.add_argument("--seed", type=whole(*limits.SEED), default=0, help="0 .. 2**63-1 (default 0)")
    p.add_argument("--until-ci", type=real(0, 1e9, lo_open=True), default=None, metavar="POINTS")
    p.add_argument("--max-hands", type=whole(*limits.DEALS), default=1_000_000)
    p.add_argument("--jobs", type=whole(*limits.JOBS, zero_ok=False), default=-1)
    p.add_argument(
        "--no-retest",
        action="store_true",
        help="skip replaying the winner against the baseline on fresh deals",
    )
    p.add_argument(
        "--no-progress",
        action="store_true",
        help="no progress bar (it shows only on a terminal anyway)",
    )
    p.add_argument("--out", default=None, help="also write the table to this CSV")
    p.set_defaults(run=run)
    return p


def run(args: argparse.Namespace) -> int:
    from reports.compare import resolve_rules
    from reports.sweep import parse_knobs, sweep
    from sim.runs.outputs import writable_file, write_atomic

    knobs = parse_knobs(args.knob)
    check_until_ci(args)
    if args.out:
        writable_file(args.out)  # before the work, not after it
    rules = resolve_rules(args.rules, args.players)
    df = sweep(
        args.strategy,
        knobs,
        args.opponent,
        rules=rules,
        hands=args.hands,
        seed=args.seed,
        until_ci=args.until_ci,
        max_hands=args.max_hands,
        jobs=args.jobs,
        retest=not args.no_retest,
        progress=False if args.no_progress else None,
    )
    print_sweep(df, list(knobs), args.strategy, args.opponent)
    if args.out:
        write_atomic(args.out, df.to_csv(index=False))
    return 0


def print_sweep(df: pd.DataFrame, knobs: list[str], baseline: str, opponent: str) -> None:
    from sim.cli.tables import WIDTH, ci_column, print_table

    show = df[["rank", *knobs]].copy()
    show[f"vs {opponent} [95% CI]"] = ci_column(
        df, "mean_diff_per_hand", "ci_low", "ci_high", signed=True
    )
    show[f"vs baseline {baseline} [95% CI]"] = ci_column(
        df, "vs_baseline", "vs_baseline_low", "vs_baseline_high", signed=True
    )
    show["tied with best"] = ["tied" if t else "" for t in df["tied_best"]]
    show["deals"] = df["deals"]
    b = df.attrs["baseline"]
    print_table(
        show,
        title=f"Settings of {baseline} against {opponent}, best first (points per "
        "hand; paired over the same duplicate deals)",
        caption=f"baseline {baseline} vs {opponent}: {b['mean_diff_per_hand']:+,.1f} "
        f'[{b["ci_low"]:,.1f}, {b["ci_high"]:,.1f}]. "tied": the paired CI against '
        "the best includes 0.",
    )
    k = df.attrs["knobs"]
    kshow = k[["knob", "values"]].copy()
    kshow["largest effect [95% CI]"] = ci_column(
        k, "largest_effect", "largest_effect_low", "largest_effect_high", signed=True
    )
    kshow["effect"] = [
        "none: play identical" if i else ("none detected" if n else "yes")
        for i, n in zip(k["play_identical"], k["no_effect"], strict=True)
    ]
    print_table(kshow, title="Knobs: largest paired effect of a value against the first value")
    r = df.attrs.get("retest")
    if r:
        verdict = "confirmed" if r["confirmed"] else "NOT confirmed (CI includes 0 or below)"
        line = (
            f"retest on {r['deals']:,} fresh deals (seed {r['seed']}): {r['spec']} - {baseline} = "
            f"{r['vs_baseline']:+,.1f} points per hand [{r['vs_baseline_low']:,.1f}, "
            f"{r['vs_baseline_high']:,.1f}]: {verdict}"
        )
        print(textwrap.fill(line, WIDTH, subsequent_indent="  "))
