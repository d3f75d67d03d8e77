"""`canasta review`: mark every decision of a played hand, and the luck of its chance events."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from sim.cli.args import whole
from sim.cli.resume import add_resume, open_checkpoint
from sim.core import limits

EPILOG = """examples:
  canasta review --rules classic --players 4 --strategies expert,greedy --seed 7 --game 0 \\
      --hand 2 --seat 1
      replay hand 2 of game 0 (seed 7) of expert (team 0) against greedy (team 1) and review seat 1:
      each of its decisions with a choice: the action played, the best one, the equity lost with its
      95% CI and a mark (?! doubtful >= 50, ? mistake >= 100, ?? blunder >= 200 points); the luck of
      its deal and draws; per team skill lost, luck and the accounting of the result
  canasta review --seed 7 --seat all --rollouts 400 --json > review.json
  canasta review --seed 7 -o review.html          one page: equity timeline + the decision table
  canasta review --seed 7 --game 3 --hand 4 --equity equity.parquet
      also P(win the game) after each played action
  canasta play --strategies expert --seed 3 > hand.txt && canasta review hand.txt --seat 2
      review a hand from the history canasta play prints (or a hand record: docs/hand-record.md)

what the figures estimate (values: the team's hand score minus the best opposing team's, points):
  best action   the legal action with the best mean on one set of rollouts (--rollouts worlds dealt
                from what the seat knew, every seat then playing --continue-with S)
  lost          mean(best) - mean(played) on FRESH worlds (not the ones that picked the best), with
                its paired 95% CI; a mark only when that CI excludes 0
  skill lost    (summary) what a player that takes the best action at every decision of the
                reviewed seats would score more than the hand's players on this deal, the other
                seats and the rest of the hand played by S: the deal is replayed with that player
                (the walk) and its decisions against S's choice, minus the hand's, are valued on
                the actual cards (the luck of the draws left out): the realized gain's
                expectation, whatever the table.  "from what the seats knew": the same gain
                valued in the review's worlds (calibrated at classic 4p; it overstates it where
                the worlds are less right).  Checked against play: benchmarks/bench_calibration.py
  path lost     the one-step losses summed along the hand as played: NOT what better play gains
                (it counts again and again what a better player fixes once); about twice as large
  accounting    per team: result = expected result at the deal + luck (deal, upcard, every draw
                of every seat) + own play + others' play against S's choice, each term with its
                95% CI, adding up exactly (equity = given every card's place, the stock shuffled)
"""


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    p = subparsers.add_parser(
        "review",
        help="mark every decision of a played hand (equity lost, luck)",
        description="Review a hand: every decision of the reviewed seats where more than one "
        "action was legal is scored against the best action by rollouts from what that seat knew "
        "(never from cards it could not see), the best picked on one set of worlds and the loss "
        "measured on fresh ones; the skill lost is what a player taking the best action would "
        "gain, replayed on the same deal; the hand's result is accounted for per team (expected "
        "+ luck + play, exactly).",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "history",
        nargs="?",
        metavar="HISTORY_FILE",
        help="a hand printed by canasta play, or a hand record (docs/hand-record.md)",
    )
    p.add_argument(
        "--rules",
        dest="preset",
        default=None,
        help="rule preset (default classic; with a file: the file's)",
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
        help="who played the hand: one strategy, one per team or one per seat (default expert)",
    )
    p.add_argument(
        "--seed",
        type=whole(*limits.SEED),
        default=0,
        help="the hand's key: seed, 0 .. 2**63-1 (default 0)",
    )
    p.add_argument(
        "--game",
        type=whole(*limits.GAME),
        default=0,
        help="the hand's key: game, 0 .. 2**62 (default 0)",
    )
    p.add_argument(
        "--hand",
        type=whole(*limits.HAND),
        default=0,
        help="the hand's key: hand of the game, 0 .. 2**31-1 (default 0)",
    )
    p.add_argument(
        "--seat", default="0", metavar="K|all", help="table seat to review, or all (default 0)"
    )
    p.add_argument(
        "--rollouts",
        type=whole(*limits.ROLLOUTS_PER_ACTION),
        default=None,
        help="rollouts per legal action, 2 .. 10**6 (default: the evaluator's default precision)",
    )
    p.add_argument(
        "--continue-with",
        dest="strategy",
        default="expert",
        metavar="S",
        help="strategy every seat plays in the rollouts (default expert)",
    )
    p.add_argument(
        "--infer",
        default=None,
        metavar="MODEL",
        help="deal worlds where each other seat's hidden hand agrees with its last turn (its "
        "discard and the draw or take before it) under the strategy MODEL (default: the "
        "--continue-with strategy, chosen by checking against play: with uniform worlds the "
        "skill lost from what the seats knew overstates what a best-action player realizes)",
    )
    p.add_argument(
        "--uniform",
        action="store_true",
        help="deal the hidden cards uniformly instead (no inference)",
    )
    p.add_argument(
        "--equity",
        default=None,
        metavar="FILE.parquet",
        help="an equity table (canasta equity -o): also show P(win the game) after each played "
        "action",
    )
    p.add_argument(
        "--rollout-seed",
        type=whole(*limits.REVIEW_SEED),
        default=0,
        help="seed of the rollouts, 0 .. 2**43 (default 0)",
    )
    p.add_argument(
        "--jobs",
        type=whole(*limits.WORKERS),
        default=1,
        help="worker processes for the rollouts, 1 .. 1024 (default 1)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object instead of the table")
    p.add_argument(
        "-o",
        "--out",
        default=None,
        metavar="FILE.html",
        help="also write one self-contained HTML page",
    )
    p.add_argument(
        "--no-walk",
        dest="walk",
        action="store_false",
        help="skip the best-action player's replay (about half the time; no skill lost then)",
    )
    p.add_argument(
        "--no-accounting",
        dest="accounting",
        action="store_false",
        help="skip the hand's accounting (and the luck table built from it)",
    )
    p.add_argument(
        "--all-decisions",
        action="store_true",
        help="also list decisions with a single legal action",
    )
    add_resume(p)
    p.set_defaults(run=run)
    return p


def _record(args, equity=None):
    from reports.equity import check_fits
    from reports.hand_file import read_hand_file
    from reports.review import hand_by_key
    from sim.cli.rules import rules_from_args
    from sim.core.rules import parse_overrides
    from sim.runs.runner import check_strategy_names, expand_strategies, registered_strategies

    if args.history:
        for option, dest, default in (
            ("--strategies", "strategies", "expert"),
            ("--seed", "seed", 0),
            ("--game", "game", 0),
            ("--hand", "hand", 0),
        ):
            if getattr(args, dest) != default:
                raise ValueError(
                    f"{option} names a hand to deal; with HISTORY_FILE the file gives the hand "
                    "(leave it out, or leave out the file)"
                )
        options = {
            "rules": args.preset,
            "players": args.players,
            "team_layout": args.team_layout,
            "set": parse_overrides(args.overrides),
        }
        rec = read_hand_file(args.history, options=options)
        if equity is not None:
            check_fits(equity, rec.rules, f"--equity {args.equity}")
        return rec
    args.preset = args.preset or "classic"
    rules = rules_from_args(args)
    reason = rules.engine_supported()
    if reason:
        raise ValueError(reason)
    if equity is not None:  # before the hand is played
        check_fits(equity, rules, f"--equity {args.equity}")
    seats = expand_strategies(rules, args.strategies)
    check_strategy_names(seats, registered_strategies(), "--strategies")
    return hand_by_key(rules, seats, args.seed, args.game, args.hand)


def run(args: argparse.Namespace) -> int:
    from reports import review_eval
    from reports.analyze import rollout_specs
    from reports.equity import load_equity
    from reports.review import review, seats_arg
    from reports.review_out import format_text, write_html
    from sim.core.rules import RuleSet
    from sim.runs.outputs import writable_file

    if args.out and not args.out.lower().endswith((".html", ".htm")):
        raise ValueError(f"-o {args.out}: the review page must end in .html")
    if args.out:
        writable_file(args.out)  # before the rollouts, not after them
    if args.uniform and args.infer:
        raise ValueError("--uniform and --infer contradict each other: give one of them")
    args.infer = None if args.uniform else (args.infer or args.strategy)
    rollout_specs(args.strategy, 1, "--continue-with")  # compiled strategies, each checked
    if args.infer is not None:
        rollout_specs(args.infer, 1, "--infer")
    seats_arg(
        args.seat, RuleSet.preset("classic", 6)
    )  # its form before any work; the hand's seats below
    equity = load_equity(args.equity) if args.equity else None
    rec = _record(args, equity)
    seats = seats_arg(args.seat, rec.rules)
    evaluator = review_eval.make_evaluator(
        rec.rules, args.strategy, jobs=args.jobs, infer=args.infer, equity=equity
    )
    rollouts = args.rollouts or review_eval.DEFAULT_ROLLOUTS
    from reports.review_resume import checkpointed, review_settings

    settings = review_settings(
        rec,
        seats=seats,
        strategy=args.strategy,
        rollouts=rollouts,
        rollout_seed=args.rollout_seed,
        infer=args.infer,
        equity=None if equity is None else equity.meta,
    )
    ckpt = open_checkpoint("review", settings, args.out, args.resume)
    evaluator = checkpointed(evaluator, ckpt)
    progress = bool(getattr(sys.stderr, "isatty", lambda: False)())
    rv = review(
        rec,
        seats,
        evaluator,
        strategy=args.strategy,
        rollouts=rollouts,
        seed=args.rollout_seed,
        progress=progress,
        walk=args.walk,
        accounting=args.accounting,
        world_model=f"inferred with {args.infer}" if args.infer else "uniform",
    )
    if args.json:
        print(json.dumps(rv.to_json()))
    else:
        print(format_text(rv, all_decisions=args.all_decisions))
    if args.out:
        path = write_html(rv, args.out)
        print(f"wrote {path}", file=sys.stderr if args.json else sys.stdout)
    ckpt.finish()
    return 0
