"""`canasta compare A B [C ...]`: duplicate-deal comparison (and a ranking for 3+)."""

from __future__ import annotations

import argparse
import math
import textwrap
from typing import Any

import pandas as pd

from sim.cli.args import check_until_ci, real, whole
from sim.core import limits

EPILOG = """example:
  canasta compare expert greedy --rules classic --players 4 --until-ci 10
      plays duplicate deals (each deal twice, seats swapped) until the 95% CI of
      expert-minus-greedy points per hand is narrower than +-10, then prints one row.
      The headline is luck-adjusted (the luck of every draw and of the deal, measured against
      its expectation, is taken out: about 1.4x fewer deals for the same CI); --plain makes the
      plain duplicate estimate the headline, and --out writes both with every factor.
  canasta compare expert greedy patient --hands 20000 --out cmp.csv
      every pairing on the same deals plus a Bradley-Terry / Elo ranking.
"""


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    p = subparsers.add_parser(
        "compare",
        help="compare strategies head to head on duplicate deals",
        description="Compare strategies on duplicate deals (every deal played twice with the "
        "teams' seats swapped). --hands counts deals; each is played twice.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("strategies", nargs="+", help="2+ strategy names or 'name:k=v,...' specs")
    p.add_argument("--rules", default="classic", help="rule preset (default classic)")
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
        help="deals per pairing, 2 .. 10**8 (default 10000)",
    )
    p.add_argument(
        "--games",
        type=whole(*limits.GAMES_PER_SEATING),
        default=None,
        help="also play this many whole games per seating, 1 .. 10**7",
    )
    p.add_argument("--seed", type=whole(*limits.SEED), default=0, help="0 .. 2**63-1 (default 0)")
    p.add_argument(
        "--until-ci",
        type=real(0, 1e9, lo_open=True),
        default=None,
        metavar="POINTS",
        help="add deals until the 95%% CI half-width is below POINTS per hand",
    )
    p.add_argument(
        "--max-hands",
        type=whole(*limits.DEALS),
        default=1_000_000,
        help="deal cap for --until-ci, 2 .. 10**8",
    )
    p.add_argument(
        "--jobs",
        type=whole(*limits.JOBS, zero_ok=False),
        default=-1,
        help="parallel workers (default all cores)",
    )
    p.add_argument(
        "--plain",
        action="store_true",
        help="headline the plain duplicate estimate instead of the luck-adjusted one",
    )
    p.add_argument(
        "--no-progress",
        action="store_true",
        help="no progress bar (it shows only on a terminal anyway)",
    )
    p.add_argument(
        "--out",
        default=None,
        help="also write the pairings table to this CSV (checked writable first)",
    )
    p.set_defaults(run=run)
    return p


def run(args: argparse.Namespace) -> int:
    from reports.compare import compare, resolve_rules, round_robin
    from sim.runs.outputs import writable_file, write_atomic

    if len(args.strategies) < 2:
        raise ValueError("compare needs at least two strategies")
    check_until_ci(args)
    if args.out:
        writable_file(args.out)  # before the work, not after it
    rules = resolve_rules(args.rules, args.players)
    kw = dict(
        rules=rules,
        hands=args.hands,
        games=args.games,
        seed=args.seed,
        until_ci=args.until_ci,
        max_hands=args.max_hands,
        jobs=args.jobs,
        luck=False if args.plain else None,
        progress=False if args.no_progress else None,
    )
    if len(args.strategies) == 2:
        pairs = compare(args.strategies, **kw)
        print_pairs(pairs)
    else:
        pairs, ranking = round_robin(args.strategies, **kw)
        print_pairs(pairs)
        print_ranking(ranking)
    if args.out:
        write_atomic(args.out, pairs.to_csv(index=False))
    return 0


def answer(row: pd.Series) -> str:
    """One sentence: who wins, by how much, with what CI (or that the CI includes 0)."""
    a, b, m, lo, hi = row["a"], row["b"], row["mean_diff_per_hand"], row["ci_low"], row["ci_high"]
    if lo > 0 or hi < 0:
        win, lose = (a, b) if m > 0 else (b, a)
        lo_, hi_ = (lo, hi) if m > 0 else (-hi, -lo)
        return (
            f"{win} beats {lose} by {abs(m):,.1f} points per hand "
            f"(95% CI {lo_:,.1f} to {hi_:,.1f}, {int(row['deals']):,} duplicate deals)."
        )
    return (
        f"{a} and {b} are not told apart: {a} - {b} = {m:+,.1f} points per hand, 95% CI "
        f"{lo:,.1f} to {hi:,.1f} includes 0 ({int(row['deals']):,} duplicate deals)."
    )


def _factor(row: pd.Series, est: str) -> str:
    from sim.cli.tables import fmt_ci

    v = row[est]
    if not math.isfinite(v):
        return ""
    return "x" + fmt_ci(v, row[est + "_low"], row[est + "_high"])


def factor_notes(pairs: pd.DataFrame) -> list[str]:
    """One footnote line per pairing: how many times fewer deals its estimate needs for the
    same CI, from the luck adjustment (against plain duplicates) and from the duplicates
    themselves (against independent hands)."""
    from reports.luck import N_LUCK, min_deals

    lines = []
    for _, row in pairs.iterrows():
        parts = []
        if "luck_variance_reduction" in pairs:
            luck = _factor(row, "luck_variance_reduction")
            need = min_deals(N_LUCK)
            parts.append(
                f"luck adjustment {luck} fewer deals"
                if luck
                else f"luck adjustment not applied (< {need:,} deals)"
            )
        dup = _factor(row, "variance_reduction")
        if dup:
            parts.append(f"duplicates {dup} fewer than independent hands")
        if parts:
            lines.append(f"{row['a']} - {row['b']}: " + "; ".join(parts) + ".")
    return lines


def print_pairs(pairs: pd.DataFrame) -> None:
    from sim.cli.tables import WIDTH, ci_column, print_table

    for _, row in pairs.iterrows():
        print(textwrap.fill(answer(row), WIDTH, subsequent_indent="  "))
    luck = "plain_mean_diff_per_hand" in pairs and (pairs["estimator"] == "luck-adjusted").any()
    what = "luck-adjusted" if luck else "plain duplicate estimate"
    show = pd.DataFrame(
        {
            "a - b": pairs["a"] + " - " + pairs["b"],
            "deals": pairs["deals"],
            "points per hand [95% CI]": ci_column(
                pairs, "mean_diff_per_hand", "ci_low", "ci_high", signed=True
            ),
            "hands won by a [95% CI]": ci_column(
                pairs, "share_hands_won_a", "share_hands_won_low", "share_hands_won_high", pct=True
            ),
        }
    )
    print_table(show, title=f"Duplicate deals, per hand ({what}; 95% CIs over deals)")
    if "games" in pairs:
        games = pd.DataFrame(
            {
                "a - b": show["a - b"],
                "games": pairs["games"],
                "points per game [95% CI]": ci_column(
                    pairs, "mean_diff_per_game", "game_ci_low", "game_ci_high", signed=True
                ),
                "games won by a [95% CI]": ci_column(
                    pairs,
                    "share_games_won_a",
                    "share_games_won_low",
                    "share_games_won_high",
                    pct=True,
                ),
            }
        )
        print_table(games, title="Whole games (95% CIs over games)")
    notes = factor_notes(pairs)
    if notes:
        print("x fewer deals for the same CI (95% CI):")
        for line in notes:
            print(textwrap.fill(line, WIDTH, initial_indent="  ", subsequent_indent="    "))


def print_ranking(ranking: pd.DataFrame) -> None:
    from sim.cli.tables import ci_column, print_table

    show = pd.DataFrame(
        {
            "rank": ranking["rank"],
            "strategy": ranking["strategy"],
            "Elo [95% CI]": ci_column(ranking, "elo", "elo_low", "elo_high"),
            "points per hand vs field [95% CI]": ci_column(
                ranking,
                "mean_diff_vs_field",
                "mean_diff_vs_field_low",
                "mean_diff_vs_field_high",
                signed=True,
            ),
            "deals won [95% CI]": ci_column(
                ranking, "deals_won_share", "deals_won_low", "deals_won_high", pct=True
            ),
        }
    )
    print_table(show, title="Bradley-Terry ranking (CIs over deals; Elo: bootstrap)")
