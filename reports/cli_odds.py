"""`canasta odds RUN_DIR`: going-out odds tables from a run's decision logs."""

from __future__ import annotations

import argparse

import pandas as pd

EPILOG = """examples:
  canasta odds runs/x --by canastas_us --within 3
      P(the deciding team goes out this hand, and within 3 turns) by its canastas on the
      table, one row per value with Wilson 95% CIs (needs a run made with --log-decisions).
  canasta odds runs/x --by hand_size strategy
  canasta odds --position pos.txt --rollouts 1000      (position file format: reports/position.py)
"""


def add_parser(subparsers) -> argparse.ArgumentParser:
    from reports.odds import BY_CHOICES  # noqa: PLC0415

    p = subparsers.add_parser(
        "odds", help="going-out odds from decision logs (or a position file)",
        description="Going-out odds per turn from a run's decision logs, the turn at which hands "
        "end, and concealed / exhausted-stock shares per strategy.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("run_dir", nargs="?", help="run folder (with decision logs)")
    p.add_argument("--by", nargs="+", default=["turn"], metavar="COL",
                   help=f"group by these decision columns: {', '.join(BY_CHOICES)} (default turn)")
    p.add_argument("--within", type=int, default=None, metavar="K",
                   help="also P(going out within the next K turns)")
    p.add_argument("--min-n", type=int, default=30, help="hide groups with fewer turns (default 30)")
    p.add_argument("--position", default=None, metavar="FILE", help="position file for rollouts")
    p.add_argument("--rollouts", type=int, default=1000)
    p.set_defaults(run=run)
    return p


def run(args) -> int:
    if args.position:
        from reports.position import load_position, rollout  # noqa: PLC0415

        pos = load_position(args.position)
        try:
            rollout(pos, None, args.rollouts)
        except NotImplementedError:
            raise ValueError("--position rollouts need the game core (not wired yet); "
                             "the position file itself is valid") from None
        return 0
    if not args.run_dir:
        raise ValueError("give a RUN_DIR (or --position FILE)")
    from reports import odds  # noqa: PLC0415
    from reports.runs import open_run  # noqa: PLC0415

    run_ = open_run(args.run_dir)
    with pd.option_context("display.width", 200, "display.max_rows", 500):
        print("Hands ended by ... (turns per hand)")
        print(odds.end_turn_distribution(run_).to_string(index=False, float_format="%.1f"))
        print()
        print("Going out, concealed going out and exhausted stock per preset and strategy")
        print(odds.ending_shares(run_).to_string(index=False, float_format="%.3f"))
        print()
        if not run_.has("decisions"):
            print("(no decision logs: run with --log-decisions to get going-out odds by "
                  + ", ".join(args.by) + ")")
            return 0
        tab = odds.going_out_table(run_, args.by, args.within, args.min_n)
        print(f"P(deciding team goes out) by {', '.join(args.by)} (Wilson 95% CI)")
        print(tab.to_string(index=False, float_format="%.3f"))
    return 0
