"""`canasta tune STRATEGY`: CMA-ES knob tuning on duplicate deals, re-tested on fresh deals."""

from __future__ import annotations

import argparse
import json
import shlex
from typing import Any

from sim.cli.args import whole
from sim.cli.resume import add_resume, open_checkpoint
from sim.core import limits

EPILOG = """example:
  canasta tune expert --rules classic --players 6 --vs greedy patient pile-control \\
      --budget 400000 --seed 17
      searches expert's knobs with CMA-ES: every generation plays each candidate and the
      starting knobs against greedy, patient and pile-control on the same new duplicate deals
      (each deal once per seating), 400,000 hands in all; then the winner and the start play
      2,000 deals of seed 17+1e9 (never used in tuning) and the paired 95% CI of the gain is
      printed, with the knobs that changed no decision (knob at lo vs hi, 200 deals).
  canasta tune expert --players 4 --vs greedy --budget 100000 --knob open_threshold=0:150 \\
      --knob safe_discard=0:12.5 --out tuned.json
      only two knobs (safe_discard is continuous: a bound with a '.'), result as JSON.
Same seed, same result whatever --jobs.
"""


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    p = subparsers.add_parser(
        "tune",
        help="tune a strategy's knobs with CMA-ES on duplicate deals",
        description="Search a strategy's knob space with CMA-ES (the cma library), scoring each "
        "candidate on duplicate deals with common random numbers (mean over the --vs opponents), "
        "then re-test the winner against the starting knobs on fresh deals.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("strategy", help="strategy name or 'name:k=v,...' spec (the starting knobs)")
    p.add_argument("--rules", default="classic", help="rule preset (default classic)")
    p.add_argument("--players", type=whole(2, 6), default=4, help="players: 2..6 (default 4)")
    p.add_argument("--team-layout", default=None, metavar="LAYOUT", help="six players: 2x3 or 3x2")
    p.add_argument(
        "--set",
        dest="overrides",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="override one rule parameter (repeatable)",
    )
    p.add_argument(
        "--vs",
        nargs="+",
        action="extend",
        default=None,
        metavar="OPP",
        help="opponents (default: greedy patient pile-control)",
    )
    p.add_argument(
        "--budget",
        type=whole(*limits.TUNE_BUDGET),
        required=True,
        metavar="HANDS",
        help="hands played by the search and the selection of the winner, 1 .. 10**12",
    )
    p.add_argument(
        "--knob",
        action="append",
        default=[],
        metavar="NAME=LO:HI",
        help="a knob and its range (repeatable; default: every knob of the strategy)",
    )
    p.add_argument(
        "--seed",
        type=whole(*limits.TUNE_SEED),
        default=0,
        help="tuning seed, 0 .. 2**63-1 - 1e9 (the re-test uses seed + 1e9)",
    )
    p.add_argument(
        "--test-hands",
        type=whole(*limits.TEST_DEALS),
        default=2000,
        help="fresh deals of the re-test, 2 .. 10**8 (default 2000)",
    )
    p.add_argument(
        "--generations",
        type=whole(*limits.GENERATIONS),
        default=12,
        help="CMA-ES generations, 1 .. 10**4 (default 12)",
    )
    p.add_argument(
        "--popsize",
        type=whole(*limits.POPSIZE),
        default=None,
        help="candidates per generation, 2 .. 10**4 (default cma's)",
    )
    p.add_argument(
        "--jobs",
        type=whole(*limits.JOBS, zero_ok=False),
        default=-1,
        help="parallel workers (default all cores)",
    )
    p.add_argument(
        "--out",
        default=None,
        metavar="FILE.json",
        help="also write the full result (history, test, activity) as JSON",
    )
    add_resume(p)
    p.set_defaults(run=run)
    return p


def _command(args) -> str:
    """The command line that reproduces this run (recorded in the result)."""
    parts = [
        "canasta",
        "tune",
        args.strategy,
        "--rules",
        args.rules,
        "--players",
        str(args.players),
    ]
    if args.team_layout:
        parts += ["--team-layout", args.team_layout]
    for o in args.overrides:
        parts += ["--set", o]
    if args.vs:
        parts += ["--vs", *args.vs]
    parts += ["--budget", str(args.budget), "--seed", str(args.seed)]
    for k in args.knob:
        parts += ["--knob", k]
    for opt, v, default in (
        ("--test-hands", args.test_hands, 2000),
        ("--generations", args.generations, 12),
        ("--popsize", args.popsize, None),
    ):
        if v != default:
            parts += [opt, str(v)]
    return shlex.join(parts)


def run(args: argparse.Namespace) -> int:
    from reports.tune import parse_knob_ranges, tune
    from sim.core.rules import RuleSet, parse_overrides
    from sim.runs.outputs import writable_file, write_atomic

    if args.out:
        writable_file(args.out)  # before the search, not after it
    rules = RuleSet.preset(
        args.rules, args.players, args.team_layout, **parse_overrides(args.overrides)
    )
    base = args.strategy.split(":", 1)[0]
    opponents = args.vs or [o for o in ("greedy", "patient", "pile-control") if o != base]
    space = parse_knob_ranges(args.knob, args.strategy) if args.knob else None
    from reports.tune import check_settings

    settings = check_settings(
        args.strategy,
        rules,
        opponents,
        args.budget,
        space,
        args.seed,
        args.test_hands,
        args.generations,
        args.popsize,
    )
    ckpt = open_checkpoint("tune", settings, args.out, args.resume)
    res = tune(
        args.strategy,
        rules,
        opponents,
        args.budget,
        space,
        seed=args.seed,
        jobs=args.jobs,
        test_hands=args.test_hands,
        generations=args.generations,
        popsize=args.popsize,
        progress=True,
        command=_command(args),
        checkpoint=ckpt,
    )
    if args.out:
        write_atomic(args.out, json.dumps(res.to_dict(), indent=1))
    ckpt.finish()
    print(res.summary())
    return 0
