"""`canasta analyze POSITION`: score every legal action of a position by paired rollouts."""

from __future__ import annotations

import argparse
import json
import textwrap
from typing import Any

from sim.cli.args import real, whole
from sim.cli.resume import add_resume, open_checkpoint
from sim.core import limits

EPILOG = """examples:
  canasta analyze docs/position-example.txt --rollouts 2000 --seed 1
      every legal action of the position (the viewer must be the seat to act) is played, then
      every seat continues with expert; the same 2000 random worlds (the cards the viewer has
      not seen, dealt at random) serve every action, so differences are paired.  Table, best
      first: mean hand result of the viewer's team (its score minus the best opposing team's)
      with a 95% CI, the difference to the best with its paired 95% CI, P(the team goes out);
      '=' marks actions not separable from the best.
  canasta analyze pos.txt --until-ci 15 --rollouts 20000 --jobs 2
      successive elimination: stop when every difference to the best has a half-width <= 15
      points (clearly worse actions are dropped early); at most 20000 rollouts per action.
  canasta analyze pos.txt --strategies expert,greedy,expert,greedy --infer expert --json
      rollouts with one strategy per seat; worlds that agree with each opponent's last discard
      under expert (needs last_discard and the pile's top cards in the position), next to the
      reading with uniform worlds ("uniform_actions"); one JSON object on stdout.
  canasta equity --strategies expert -o equity.parquet && \\
      canasta analyze pos.txt --equity equity.parquet
      adds each action's P(win the game) from the position's cumulative scores (scores: line).
"""


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    p = subparsers.add_parser(
        "analyze",
        help="score every legal action of a position by paired rollouts",
        description="Decision analysis: every legal action at a position is played out by rollouts "
        "with common random numbers; the table ranks the actions with 95%% CIs.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "position", metavar="POSITION", help="position file (format: docs/position-example.txt)"
    )
    p.add_argument(
        "--strategies",
        default="expert",
        metavar="S",
        help="rollout strategy for every seat, or one per seat, comma-separated (default expert)",
    )
    p.add_argument(
        "--rollouts",
        type=whole(*limits.ROLLOUTS_PER_ACTION),
        default=1000,
        metavar="N",
        help="rollouts per action, 2 .. 10**6 (the cap with --until-ci; default 1000)",
    )
    p.add_argument(
        "--until-ci",
        type=real(0, 1e9, lo_open=True),
        default=None,
        metavar="H",
        help="stop when every difference to the best has a 95%% half-width <= H points (H > 0)",
    )
    p.add_argument(
        "--jobs",
        type=whole(*limits.WORKERS),
        default=1,
        metavar="J",
        help="worker processes, 1 .. 1024 (default 1)",
    )
    p.add_argument(
        "--seed",
        type=whole(*limits.SEED),
        default=0,
        metavar="X",
        help="seed, 0 .. 2**63-1; rollout i depends on (seed, i)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object instead of the table")
    p.add_argument(
        "--equity",
        default=None,
        metavar="FILE",
        help="an equity table from `canasta equity -o FILE`: adds P(win the game) per action "
        "from the position's cumulative scores",
    )
    p.add_argument(
        "--infer",
        default=None,
        metavar="MODEL",
        help="deal worlds that agree with each other seat's last turn under this strategy: its "
        "discard (last_discard + pile_cards) and its draw or take (last_turn S: lines); given "
        "explicitly, the uniform reading is shown too (default: inferred with the rollout "
        "strategy, the first of --strategies)",
    )
    p.add_argument(
        "--uniform",
        action="store_true",
        help="deal the hidden cards uniformly instead (no inference)",
    )
    p.add_argument(
        "--rules",
        default=None,
        metavar="PRESET",
        help="rule preset (default: the position's, else classic)",
    )
    p.add_argument("--team-layout", default=None, metavar="LAYOUT", help="six players: 2x3")
    p.add_argument(
        "--set",
        dest="overrides",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="override one rule parameter (repeatable; see canasta rules)",
    )
    add_resume(p)
    p.set_defaults(run=run)
    return p


def run(args: argparse.Namespace) -> int:
    from reports.analyze import analyze, format_table, rollout_specs, to_json
    from reports.position import load_position
    from sim.cli.rules import rules_for_position

    if args.uniform and args.infer:
        raise ValueError("--uniform and --infer contradict each other: give one of them")
    both = bool(args.infer)  # an explicit model: show the uniform reading beside it
    infer = None if args.uniform else (args.infer or args.strategies.split(",")[0].strip())
    pos = load_position(args.position)
    rules = rules_for_position(pos, args)
    rollout_specs(args.strategies, rules.n_active, "--strategies")  # compiled, each checked
    if args.infer is not None:
        rollout_specs(args.infer, 1, "--infer")
    equity = None
    if args.equity:
        from reports.equity import check_fits, load_equity

        table = load_equity(args.equity)
        check_fits(table, rules, f"--equity {args.equity}")
        equity = table.of_totals
    from reports.position import format_position

    settings = {
        "position": format_position(pos),
        "rules": rules.to_dict(),
        "strategies": args.strategies,
        "rollouts": args.rollouts,
        "until_ci": args.until_ci,
        "seed": args.seed,
        "infer": args.infer,
    }
    ckpt = open_checkpoint("analyze", settings, None, args.resume)
    df = analyze(
        pos,
        args.strategies,
        args.rollouts,
        args.until_ci,
        args.jobs,
        args.seed,
        rules,
        infer=infer,
        equity=equity,
        checkpoint=ckpt,
    )
    df.attrs["position"] = str(args.position)
    uniform = None
    if both:  # both readings: the inference can change the ranking
        uniform = analyze(
            pos,
            args.strategies,
            args.rollouts,
            args.until_ci,
            args.jobs,
            args.seed,
            rules,
            equity=equity,
            checkpoint=ckpt,
        )
    ckpt.finish()  # the result is complete (printed below)
    if args.json:
        obj = to_json(df)
        if uniform is not None:
            obj["uniform_actions"] = to_json(uniform)["actions"]
        print(json.dumps(obj))
        return 0
    a = df.attrs
    head = (
        f"position {args.position}: seat {pos.me} to act, {pos.players} players, rules "
        f"{rules.label}; "
        f"rollouts with {a['strategy']}, seed {a['seed']}, {a['rollouts']} worlds"
        + (
            f"; worlds inferred with {a['infer']} ({a['infer_failed']} of {a['infer_constrained']} "
            "seats found no agreeing hand)"
            if a["infer"]
            else ""
        )
    )
    print(textwrap.fill(head, 100, break_long_words=False, break_on_hyphens=False))
    print(format_table(df))
    if uniform is not None:
        same = uniform["action"].iloc[0] == df["action"].iloc[0]
        print(
            "\nuniform worlds (no inference): "
            f"{'the same best action' if same else 'a DIFFERENT best action'}"
        )
        print(format_table(uniform))
    return 0
