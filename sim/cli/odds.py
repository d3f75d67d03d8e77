"""`canasta odds RUN_DIR`: going-out odds tables from a run's decision logs."""

from __future__ import annotations

import argparse

import pandas as pd

EPILOG = """examples:
  canasta odds runs/x --by canastas_us --within 3
      P(the deciding team goes out this hand, and within 3 turns) by its canastas on the
      table, one row per value with Wilson 95% CIs (needs a run made with --log-decisions).
  canasta odds runs/x --by hand_size strategy
  canasta odds --position pos.txt --strategy expert --rollouts 20000 --seed 1
      deal the unseen cards of the position at random 20000 times, play each hand out with
      expert at every seat: P(each team goes out first / within 1 2 3 5 10 turns), expected
      hand scores (position file format: reports/position.py; completion: sim/play/rollout.py).
  canasta odds --position pos.txt --strategy expert greedy expert greedy --within 1 3
"""


def add_parser(subparsers) -> argparse.ArgumentParser:
    from reports.odds import BY_CHOICES

    p = subparsers.add_parser(
        "odds", help="going-out odds from decision logs (or a position file)",
        description="Going-out odds per turn from a run's decision logs, the turn at which hands "
        "end, and concealed / exhausted-stock shares per strategy.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("run_dir", nargs="?", help="run folder (with decision logs)")
    p.add_argument("--by", nargs="+", default=["turn"], metavar="COL",
                   help=f"group by these decision columns: {', '.join(BY_CHOICES)} (default turn)")
    p.add_argument("--within", type=int, nargs="+", default=None, metavar="K",
                   help="also P(going out within the next K turns) (--position: default 1 2 3 5 10)")
    p.add_argument("--min-n", type=int, default=30, help="hide groups with fewer turns (default 30)")
    p.add_argument("--position", default=None, metavar="FILE", help="position file for rollouts")
    g = p.add_argument_group("position rollouts (--position)")
    g.add_argument("--rollouts", type=int, default=1000, help="random completions to play (default 1000)")
    g.add_argument("--strategy", nargs="+", default=["expert"], metavar="SPEC",
                   help="strategy for every seat, or one per seat (default expert)")
    g.add_argument("--seed", type=int, default=0, help="seed (default 0); rollout i depends on (seed, i)")
    g.add_argument("--rules", default=None, metavar="PRESET", help="rule preset (default classic)")
    g.add_argument("--players", type=int, default=None, metavar="N",
                   help="players (default: the position's; must agree with it)")
    g.add_argument("--team-layout", default=None, metavar="LAYOUT", help="six players: 2x3 (3x2 is not supported)")
    g.add_argument("--set", dest="overrides", action="append", default=[], metavar="NAME=VALUE",
                   help="override one rule parameter (repeatable; see canasta rules)")
    g.add_argument("--check", action="store_true", help="verify the core's invariants after every action")
    p.set_defaults(run=run)
    return p


def run(args) -> int:
    if args.position:
        return _run_position(args)
    if not args.run_dir:
        raise ValueError("give a RUN_DIR (or --position FILE)")
    from reports import odds
    from reports.runs import open_run

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
        if args.within and len(args.within) > 1:
            raise ValueError("--within takes one K with a RUN_DIR (several only with --position)")
        within = args.within[0] if args.within else None
        tab = odds.going_out_table(run_, args.by, within, args.min_n)
        print(f"P(deciding team goes out) by {', '.join(args.by)} (Wilson 95% CI)")
        print(tab.to_string(index=False, float_format="%.3f"))
    return 0


def _run_position(args) -> int:
    from reports.position import load_position, rollout
    from sim.core.rules import RuleSet, parse_overrides
    from strategies.registry import strategy_id

    if args.run_dir:
        raise ValueError("give either RUN_DIR or --position FILE, not both")
    pos = load_position(args.position)
    if args.players is not None and args.players != pos.players:
        raise ValueError(f"--players {args.players} but the position has players: {pos.players}")
    if args.rollouts < 1:
        raise ValueError(f"--rollouts {args.rollouts}: give at least 1")
    if args.seed < 0:
        raise ValueError(f"--seed {args.seed}: give a non-negative integer")
    for spec in args.strategy:
        strategy_id(spec)
    rules = RuleSet.preset(args.rules or "classic", pos.players, args.team_layout,
                           **parse_overrides(args.overrides))
    within = args.within or (1, 2, 3, 5, 10)
    res = rollout(pos, rules, args.strategy, args.rollouts, args.seed, within, args.check)
    print(f"position {args.position}: {pos.players} players, seat {pos.to_move} to move, "
          f"viewer seat {pos.me} (us = team of seat {pos.me}), rules {rules.label}")
    print(res.to_text())
    return 0
