"""`canasta odds RUN_DIR`: going-out odds tables from a run's decision logs."""

from __future__ import annotations

import argparse
import sys
import warnings
from typing import Any

import pandas as pd

from sim.cli.args import whole
from sim.core import limits

EPILOG = """examples:
  canasta odds runs/x --by canastas_us --within 3
      P(the deciding team goes out this hand, and within 3 turns) by strategy, team and its
      canastas on the table, with 95% CIs clustered by hand (the turns of a hand share its
      outcome; by game in a run of whole games; needs a run made with --log-decisions).
  canasta odds runs/x --by hand_size --pooled
      all strategies together (warns when the run mixes strategies).
  canasta odds --position pos.txt --strategies expert --rollouts 20000 --seed 1
      deal the unseen cards of the position at random 20000 times, play each hand out with
      expert at every seat: P(each team goes out first / within 1 2 3 5 10 turns), expected
      hand scores (the position format: docs/position-example.txt).
      To rank the legal actions of a position instead: canasta analyze pos.txt (see its --help).
  canasta odds --position pos.txt --strategies expert greedy expert greedy --within 1 3
"""


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    from reports.odds import BY_CHOICES

    p = subparsers.add_parser(
        "odds",
        help="going-out odds from decision logs (or a position file)",
        description="Going-out odds per turn from a run's decision logs, the turn at which hands "
        "end, and concealed / exhausted-stock shares per strategy.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("run_dir", nargs="?", help="run folder (with decision logs)")
    p.add_argument(
        "--by",
        nargs="+",
        default=["turn"],
        metavar="COL",
        help=f"group by these decision columns: {', '.join(BY_CHOICES)} (default turn)",
    )
    p.add_argument(
        "--within",
        type=whole(1, 10**6),
        nargs="+",
        default=None,
        metavar="K",
        help="also P(going out within the next K turns), K 1 .. 10**6 (--position: default 1 2 3 5 "
        "10)",
    )
    p.add_argument(
        "--min-n",
        type=whole(0, 10**12),
        default=30,
        help="hide groups with fewer turns (default 30)",
    )
    p.add_argument(
        "--pooled",
        action="store_true",
        help="do not split by strategy and team (warns when strategies are mixed)",
    )
    p.add_argument("--position", default=None, metavar="FILE", help="position file for rollouts")
    g = p.add_argument_group("position rollouts (--position)")
    g.add_argument(
        "--rollouts",
        type=whole(*limits.ROLLOUTS),
        default=1000,
        help="random completions to play, 1 .. 10**7 (default 1000)",
    )
    g.add_argument(
        "--strategies",
        dest="strategies",
        nargs="+",
        default=["expert"],
        metavar="SPEC",
        help="strategy for every seat, or one per seat (default expert)",
    )
    g.add_argument("--strategy", dest="strategies", nargs="+", help=argparse.SUPPRESS)  # old name
    g.add_argument(
        "--seed",
        type=whole(*limits.SEED),
        default=0,
        help="seed (default 0); rollout i depends on (seed, i)",
    )
    g.add_argument(
        "--rules",
        default=None,
        metavar="PRESET",
        help="rule preset (default: the position's, else classic)",
    )
    g.add_argument(
        "--players",
        type=whole(2, 6),
        default=None,
        metavar="N",
        help="players (default: the position's; must agree with it)",
    )
    g.add_argument(
        "--team-layout",
        default=None,
        metavar="LAYOUT",
        help="six players: 2x3 (3x2 is not supported)",
    )
    g.add_argument(
        "--set",
        dest="overrides",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="override one rule parameter (repeatable; see canasta rules)",
    )
    g.add_argument(
        "--check", action="store_true", help="verify the core's invariants after every action"
    )
    p.set_defaults(run=run)
    return p


def run(args: argparse.Namespace) -> int:
    if args.position:
        return _run_position(args)
    if not args.run_dir:
        raise ValueError("give a RUN_DIR (or --position FILE)")
    given = [
        opt
        for opt, dest, default in (
            ("--rollouts", "rollouts", 1000),
            ("--strategies", "strategies", ["expert"]),
            ("--seed", "seed", 0),
            ("--rules", "rules", None),
            ("--players", "players", None),
            ("--team-layout", "team_layout", None),
            ("--set", "overrides", []),
            ("--check", "check", False),
        )
        if getattr(args, dest) != default
    ]
    if given:
        raise ValueError(
            f"{given[0]} goes with --position FILE; a RUN_DIR's odds come from its decision logs"
        )
    from reports import odds
    from reports.runs import open_run
    from sim.cli.tables import ci_column, print_table

    run_ = open_run(args.run_dir)
    if run_.unfinished:
        print(f"canasta odds: warning: {run_.unfinished}", file=sys.stderr)
    et = odds.end_turn_distribution(run_)
    et.insert(3, "mean turns [95% CI]", ci_column(et, "mean", "mean_low", "mean_high"))
    quantiles = {"10%": "turn p10", "50%": "turn p50", "90%": "turn p90", "max": "turn max"}
    print_table(
        et.drop(columns=["mean", "mean_low", "mean_high"]).rename(
            columns={"count": "hands", **quantiles}
        ),
        title="How the hands ended: turns per hand (the mean with its 95% CI, clustered by game; "
        "p10 / p50 / p90: the turn by which 10%, 50%, 90% of those hands had ended)",
    )
    sh = odds.ending_shares(run_)
    print_table(
        pd.DataFrame(
            {
                "rules": sh["rules"],
                "strategy": sh["strategy"],
                "team": sh["team"],
                "hands": sh["hands"],
                "went out [95% CI]": ci_column(
                    sh, "share_went_out", "share_went_out_low", "share_went_out_high", pct=True
                ),
                "concealed [95% CI]": ci_column(
                    sh, "share_concealed", "share_concealed_low", "share_concealed_high", pct=True
                ),
                "stock exhausted [95% CI]": ci_column(
                    sh, "share_exhausted", "share_exhausted_low", "share_exhausted_high", pct=True
                ),
            }
        ),
        title="Going out, concealed going out and exhausted stock (CIs clustered by game)",
    )
    if not run_.has("decisions"):
        print(
            "(no decision logs: run with --log-decisions to get going-out odds by "
            + ", ".join(args.by)
            + ")"
        )
        return 0
    if args.within and len(args.within) > 1:
        raise ValueError("--within takes one K with a RUN_DIR (several only with --position)")
    within = args.within[0] if args.within else None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", odds.MixedStrategiesWarning)
        tab = odds.going_out_table(run_, args.by, within, args.min_n, pooled=args.pooled)
    for w in caught:
        print(f"canasta odds: warning: {w.message}", file=sys.stderr)
    groups = [c for c in tab.columns if c not in ("n", "hands") and not c.startswith("p_")]
    show = tab[groups + ["n", "hands"]].copy()
    show["P(go out) [95% CI]"] = ci_column(tab, "p_out", "p_out_low", "p_out_high", pct=True)
    if within is not None:
        k = f"p_within_{within}"
        show[f"P(within {within} turns) [95% CI]"] = ci_column(
            tab, k, f"{k}_low", f"{k}_high", pct=True
        )
    print_table(
        show.rename(columns={"n": "turns"}),
        title=f"P(deciding team goes out) by {', '.join(groups)} "
        "(95% CIs clustered by hand, or by game in a run of games: the turns of a hand share "
        "its outcome)",
    )
    return 0


def _run_position(args: argparse.Namespace) -> int:
    from reports.analyze import rollout_specs
    from reports.position import load_position, rollout
    from sim.cli.rules import rules_for_position

    if args.run_dir:
        raise ValueError("give either RUN_DIR or --position FILE, not both")
    pos = load_position(args.position)
    if args.players is not None and args.players != pos.players:
        raise ValueError(f"--players {args.players} but the position has players: {pos.players}")
    rules = rules_for_position(pos, args)
    rollout_specs(args.strategies, rules.n_active, "--strategies")  # compiled, each checked
    within = args.within or (1, 2, 3, 5, 10)
    res = rollout(pos, rules, args.strategies, args.rollouts, args.seed, within, args.check)
    print(
        f"position {args.position}: {pos.players} players, seat {pos.to_move} to move, "
        f"viewer seat {pos.me} (us = team of seat {pos.me}), rules {rules.label}"
    )
    print_rollout(res)
    return 0


def print_rollout(res: Any) -> None:
    """The rollout's tables, aligned, each number with its 95% CI."""
    from sim.cli.tables import ci_column, print_table

    print(f"{res.rollouts:,} rollouts, strategies {', '.join(res.strategies)}, seed {res.seed}")
    t = res.teams
    print_table(
        pd.DataFrame(
            {
                "team": t["team"],
                "seats": t["seats"],
                "P(the hand ends by this team going out) [95% CI]": ci_column(
                    t, "p_out", "p_low", "p_high", pct=True
                ),
                "expected hand score [95% CI]": ci_column(t, "score", "score_low", "score_high"),
            }
        ),
        title="Per team",
    )
    d = res.diffs
    print_table(
        pd.DataFrame(
            {
                "difference": d["difference"],
                "expected score difference [95% CI]": ci_column(
                    d, "score", "score_low", "score_high", signed=True
                ),
            }
        ),
        title="Between teams (paired: both scores from the same rollouts)",
    )
    w = res.within.assign(cell=ci_column(res.within, "p", "low", "high", pct=True))
    wide = w.pivot(index="k", columns="team", values="cell")
    wide = wide[[x for x in t["team"] if x in wide.columns]].reset_index()
    wide.columns = ["within k turns"] + [f"P({c} goes out) [95% CI]" for c in wide.columns[1:]]
    print_table(wide, title="P(team goes out within k turns), turn 1 = the current turn")
    e = res.endings
    print_table(
        pd.DataFrame(
            {
                "ended": e["ended"],
                "rollouts": e["n"],
                "share [95% CI]": ci_column(e, "share", "share_low", "share_high", pct=True),
                "mean turns": e["mean_turns"],
            }
        ),
        title="How the hands ended",
    )
