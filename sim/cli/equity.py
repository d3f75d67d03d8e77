"""`canasta equity`: P(win the game | cumulative scores) from whole games started at those
scores."""

from __future__ import annotations

import argparse
import textwrap
from pathlib import Path
from typing import Any

from sim.cli.args import whole
from sim.cli.resume import add_resume, open_checkpoint
from sim.core import limits

EPILOG = """examples:
  canasta equity --rules classic --players 4 --strategies expert --step 250 --games 400 \\
      -o equity.parquet
      every cell (own score, opponents' score) of the grid 0, 250, .. 4750 starts 400 whole
      games of expert self-play at those scores; prints P(win the game) in percent with its
      95% interval (Wilson, on games), writes the table and equity.png (a heatmap) beside it;
      every cell plays the same game keys, so neighbouring cells' errors move together
  canasta equity --rules classic --strategies expert,greedy --step 1000 --games 200 -o eq.parquet
      different strategies per team: the table is printed for each team (its own games)
  python -c "from reports.equity import load_equity; e = load_equity('equity.parquet'); \\
      print(e.after_hand(2000, 3000, 450, -80))"
      P(win) after a hand of +450 / -80 at 2000 / 3000 (what analyze and review use)
"""


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    from reports.equity import DEFAULT_GAMES, DEFAULT_STEP

    p = subparsers.add_parser(
        "equity",
        help="P(win the game | cumulative scores): a game equity table",
        description="P(a team wins the game | its cumulative score, the opponents' cumulative "
        "score) over a "
        "grid of scores up to the game target, from whole-game simulations started at those scores "
        "(with more than two teams every opposing team starts at the opponents' score).  Ties "
        "among the "
        "leaders share the win.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "--rules", dest="preset", default="classic", help="rule preset (default classic)"
    )
    p.add_argument("--players", type=whole(2, 6), default=None, help="players 2..6 (default 4)")
    p.add_argument("--team-layout", default=None, help="six players: 2x3 or 3x2")
    p.add_argument(
        "--set",
        dest="overrides",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="override a rule parameter (repeatable)",
    )
    p.add_argument(
        "--strategies",
        default="expert",
        help="one strategy for all, one per team or one per seat, comma-separated (default expert)",
    )
    p.add_argument(
        "--step",
        type=whole(*limits.EQUITY_STEP),
        default=DEFAULT_STEP,
        help=f"grid step in points, 1 .. 10**5, at most 1000 grid points (default {DEFAULT_STEP})",
    )
    p.add_argument(
        "--low",
        type=whole(*limits.CUM_SCORE),
        default=0,
        help="lowest score of the grid, -10**8 .. below the game target (default 0)",
    )
    p.add_argument(
        "--games",
        type=whole(*limits.EQUITY_GAMES),
        default=DEFAULT_GAMES,
        help=f"games per cell, 1 .. 10**7 (default {DEFAULT_GAMES}: 95%% intervals about +-5 "
        "points of percent)",
    )
    p.add_argument(
        "--seed",
        type=whole(*limits.SEED),
        default=0,
        help="seed, 0 .. 2**63-1 (default 0); game i of every cell has key (seed, i)",
    )
    p.add_argument(
        "--jobs",
        type=whole(*limits.JOBS, zero_ok=False),
        default=1,
        help="worker processes (default 1; -1 = all cores)",
    )
    p.add_argument(
        "-o", "--out", required=True, metavar="FILE.parquet", help="where to write the table"
    )
    p.add_argument("--no-ci", action="store_true", help="print P(win) only, without the intervals")
    add_resume(p)
    p.set_defaults(run=run)
    return p


def run(args: argparse.Namespace) -> int:
    from reports import equity
    from sim.cli.rules import rules_from_args
    from sim.runs.outputs import atomic_files, writable_file
    from sim.runs.runner import check_strategy_names, expand_strategies, registered_strategies

    rules = rules_from_args(args)
    reason = rules.engine_supported()
    if reason:
        raise ValueError(reason)
    out = Path(args.out)
    if out.suffix.lower() != ".parquet":
        raise ValueError(f"-o {out}: the equity table is written as parquet; name it *.parquet")
    writable_file(out, make_parent=True)  # the table and its PNG, before the games, not after them
    writable_file(out.with_suffix(".png"), make_parent=True)
    seats = expand_strategies(rules, args.strategies)
    check_strategy_names(seats, registered_strategies(), "--strategies")
    equity.grid(rules, args.step, args.low)  # the grid's size before any game
    settings = {
        "rules": rules.to_dict(),
        "strategies": list(seats),
        "step": args.step,
        "low": args.low,
        "games": args.games,
        "seed": args.seed,
    }
    ckpt = open_checkpoint("equity", settings, out, args.resume)
    df = equity.equity_table(
        rules,
        seats,
        step=args.step,
        games=args.games,
        seed=args.seed,
        jobs=args.jobs,
        low=args.low,
        checkpoint=ckpt,
    )
    symmetric = len(set(seats)) == 1
    teams = [-1] if symmetric else list(range(rules.n_teams))
    png = out.with_suffix(".png")
    fig = _figure(df, teams, seats, rules)
    with atomic_files(out, png) as (tmp_table, tmp_png):  # the table and its PNG, or neither
        equity.save_equity(df, tmp_table)
        fig.savefig(tmp_png, dpi=110)
    ckpt.finish()
    for t in teams:
        who = (
            "any team (every seat plays " + seats[0] + ")"
            if t < 0
            else f"team {t} ({_team_strats(rules, seats, t)})"
        )
        games = args.games if t < 0 else f"about {args.games // rules.n_teams}"
        head = (
            f"P(win the game) in %, {who}: rows = own score, columns = opponents' score; "
            f"{'' if args.no_ci else '[95% CI]; '}{games} games per cell"
        )
        print("\n".join(textwrap.wrap(head, 100)))
        print(equity.format_table(df, team=t, ci=not args.no_ci))
        print()
    print("\n".join(textwrap.wrap(equity.CORRELATION_NOTE, 100)))
    print(f"wrote {out} and {png}")
    return 0


def _team_strats(rules, seats, t) -> str:
    return ",".join(s for s, team in zip(seats, rules.team_of_seat, strict=True) if team == t)


def _figure(df, teams, seats, rules):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from reports.equity import heatmap

    n = df["us"].nunique()
    size = min(20.0, 3.0 + 0.8 * n)  # room for P, its interval and n in every cell
    fig, axes = plt.subplots(
        1, len(teams), figsize=((size + 1.5) * len(teams), size), squeeze=False
    )
    for ax, t in zip(axes[0], teams, strict=True):
        title = (
            f"P(win the game) %, {rules.label}, {seats[0]} self-play"
            if t < 0
            else f"team {t} ({_team_strats(rules, seats, t)}), {rules.label}"
        )
        heatmap(df, team=t, title=title, ax=ax)
    return fig
