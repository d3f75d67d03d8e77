"""`canasta mistakes STRATEGY`: where a strategy loses its points (review over many hands)."""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from pathlib import Path
from typing import Any

from sim.cli.args import whole
from sim.core import limits

EPILOG = """examples:
  canasta mistakes expert --hands 40 --seed 1
      review one seat of expert in each of 40 hands of expert self-play (whole games from seed 1)
      and group its decisions by the class of the action played and of the best one: each
      group's share of the decisions, how often review marked it, the equity lost per decision
      and per hand with 95% intervals clustered by hand, costliest first; then the same by
      situation (pile size, frozen, stock left, opponents' cards and melds) and example
      positions with the command that writes them for canasta analyze
  canasta mistakes greedy --vs expert --hands 100 --jobs 2 -o greedy.html
      greedy's team against expert (the teams alternate game by game), two workers (the same
      result as one), and one self-contained HTML page
  canasta mistakes expert --by kind,pile --json > census.json
      group by the kind of mistake and the pile's size; one JSON object on stdout
  canasta mistakes expert --hands 20 --examples positions/
      also write the examples as position files (positions/01-1.txt, ...)
"""


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    from reports.mistakes import DEFAULT_HANDS, DEFAULT_ROLLOUTS, GROUPINGS, HANDS

    p = subparsers.add_parser(
        "mistakes",
        help="where a strategy loses its points: review over many hands, grouped",
        description="A census of a strategy's decisions: canasta review over many hands of the "
        "strategy (self-play or against --vs), every decision with a choice grouped by the class "
        "of the action it played and of the best one and by its situation; per group its share, "
        "how often it was marked and the equity it lost, costliest first.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("strategy", metavar="STRATEGY", help="the strategy to review, e.g. expert")
    p.add_argument(
        "--rules", dest="preset", default="classic", help="rule preset (default classic)"
    )
    p.add_argument("--players", type=whole(2, 6), default=None, help="players 2..6 (default 4)")
    p.add_argument("--team-layout", default=None, help="six players: 2x3 or 3x2")
    p.add_argument(
        "--set", dest="overrides", action="append", default=[], metavar="NAME=VALUE",
        help="override a rule parameter (repeatable)",
    )  # fmt: skip
    p.add_argument(
        "--vs", default=None, metavar="S",
        help="the strategy of every other team (default: self-play)",
    )  # fmt: skip
    p.add_argument(
        "--hands", type=whole(*HANDS, zero_ok=False), default=DEFAULT_HANDS,
        help=f"hands to review, {HANDS[0]} .. {HANDS[1]:,} (default {DEFAULT_HANDS})",
    )  # fmt: skip
    p.add_argument(
        "--seed", type=whole(*limits.SEED), default=0,
        help="seed of the games (and of the rollouts), 0 .. 2**63-1 (default 0)",
    )  # fmt: skip
    p.add_argument(
        "--rollouts", type=whole(*limits.ROLLOUTS_PER_ACTION), default=DEFAULT_ROLLOUTS,
        help=f"rollouts per legal action, 2 .. 10**6 (default {DEFAULT_ROLLOUTS})",
    )  # fmt: skip
    p.add_argument(
        "--continue-with", dest="continue_with", default="expert", metavar="S",
        help="strategy every seat plays in the rollouts (default expert)",
    )  # fmt: skip
    p.add_argument(
        "--infer", default=None, metavar="MODEL",
        help="worlds that agree with the other seats' last turns under MODEL (as review --infer)",
    )  # fmt: skip
    p.add_argument(
        "--by", default=None, metavar="COLS",
        help=f"group by these columns, comma-separated: {', '.join(GROUPINGS)} "
        "(default kind,played_class,best_class)",
    )  # fmt: skip
    p.add_argument(
        "--jobs", type=whole(*limits.WORKERS), default=1,
        help="worker processes, 1 .. 1024 (default 1; the result does not depend on it)",
    )  # fmt: skip
    p.add_argument(
        "--top", type=whole(1, 10**6), default=20, metavar="N",
        help="print the N costliest groups, the others as one row (default 20; JSON has all)",
    )  # fmt: skip
    p.add_argument("--json", action="store_true", help="print one JSON object instead of tables")
    p.add_argument(
        "-o", "--out", default=None, metavar="FILE.html", help="also write one HTML page"
    )
    p.add_argument(
        "--examples", default=None, metavar="DIR",
        help="also write the example positions as files in this folder",
    )  # fmt: skip
    p.set_defaults(run=run)
    return p


def _by(text: str | None) -> list[str]:
    from reports.mistakes import DEFAULT_BY, GROUPINGS, MistakesError

    if text is None:
        return list(DEFAULT_BY)
    parts = [t.strip() for t in text.split(",")]
    if not text.strip() or any(not t for t in parts):
        raise MistakesError(f"--by {text!r}: give column names separated by commas")
    bad = [t for t in parts if t not in GROUPINGS]
    if bad:
        raise MistakesError(f"--by {bad[0]}: choose from {', '.join(GROUPINGS)}")
    if len(set(parts)) != len(parts):
        raise MistakesError(f"--by {text}: a column is named twice")
    return parts


def _rules_args(args: argparse.Namespace, rules) -> str:
    parts = [f"--rules {shlex.quote(args.preset)} --players {rules.players}"]
    if args.team_layout:
        parts.append(f"--team-layout {shlex.quote(args.team_layout)}")
    parts += [f"--set {shlex.quote(s)}" for s in args.overrides]
    return " ".join(parts) + " "


def _check_strategy(name: str, value: str | None) -> None:
    from reports.mistakes import MistakesError

    if value is not None and not value.strip():
        raise MistakesError(f"{name} '': give a strategy name like expert")
    if value is not None and "," in value and ":" not in value:
        raise MistakesError(f"{name} {value}: give one strategy (the census reviews one)")


def run(args: argparse.Namespace) -> int:
    from reports import mistakes, mistakes_out
    from sim.cli.rules import rules_from_args
    from sim.runs.outputs import writable_file
    from sim.runs.progress import on_terminal
    from sim.runs.runner import check_strategy_names, registered_strategies

    _check_strategy("STRATEGY", args.strategy)
    _check_strategy("--vs", args.vs)
    _check_strategy("--continue-with", args.continue_with)
    by = _by(args.by)
    rules = rules_from_args(args)
    reason = rules.engine_supported()
    if reason:
        raise ValueError(reason)
    names = [args.strategy, args.continue_with] + [x for x in (args.vs, args.infer) if x]
    check_strategy_names(names, registered_strategies())
    out = Path(args.out) if args.out else None
    if out is not None:
        if out.suffix.lower() not in (".html", ".htm"):
            raise ValueError(f"-o {out}: the census page must end in .html")
        writable_file(out)  # before the reviews, not after them
    ex_dir = Path(args.examples) if args.examples is not None else None
    if ex_dir is not None:
        if not args.examples.strip():
            raise ValueError("--examples '': give a folder for the position files")
        if ex_dir.exists() and not ex_dir.is_dir():
            raise ValueError(f"--examples {ex_dir}: is a file; give a folder")
        writable_file(ex_dir / "01-1.txt", make_parent=True)
    decisions = mistakes.review_hands(
        rules, args.strategy, args.vs, args.hands, args.seed, args.rollouts, args.jobs,
        args.continue_with, args.infer, progress=on_terminal(),
    )  # fmt: skip
    meta = decisions.attrs["census"]
    if meta["hands"] == 0:
        print("canasta: interrupted before the first hand was reviewed", file=sys.stderr)
        return 130
    full = mistakes.group(decisions, by)
    table = mistakes.group(decisions, by, top=args.top)
    kinds = mistakes.group(decisions, ["kind"])
    sits = mistakes_out.situations(decisions)
    rules_args = _rules_args(args, rules)

    def commands(df) -> list[list[str]]:
        return [
            [mistakes.example_command(rules_args, meta, x, rules) for x in r]
            for r in df["examples"]
        ]

    written = _write_examples(ex_dir, table, rules, meta) if ex_dir else []
    if args.json:
        print(json.dumps(mistakes_out.to_json(full, kinds, sits, commands(full))))
    else:
        print(format_text(table, kinds, sits, commands(table)))
    note = sys.stderr if args.json else sys.stdout
    if written:
        print(f"wrote {len(written)} position files in {ex_dir}", file=note)
    if out is not None:
        page = mistakes_out.write_html(table, kinds, sits, commands(table), out)
        print(f"wrote {page}", file=note)
    return 130 if meta.get("interrupted") else 0


def _write_examples(folder: Path, table, rules, meta) -> list[Path]:
    """Position files of the shown groups' examples: DIR/GG-K.txt (group GG, example K)."""
    from reports.review import hand_by_key
    from sim.cli.play import position_at
    from sim.runs.outputs import write_atomic

    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for gi, r in enumerate(table.head(8).to_dict("records")):
        for k, ex in enumerate(r["examples"], 1):
            strats = meta_strategies(rules, meta, ex["game"])
            rec = hand_by_key(rules, strats, meta["seed"], ex["game"], ex["hand"])
            text = position_at(
                rec.new_state(), rec.actions, f"{ex['turn']}:{ex['step']}", ex["seat"]
            )
            path = folder / f"{gi + 1:02d}-{k}.txt"
            write_atomic(path, text)  # whole or not at all
            ex["file"] = str(path)
            written.append(path)
    return written


def meta_strategies(rules, meta: dict, game: int) -> list[str]:
    from reports.mistakes import _seat_strategies

    return list(_seat_strategies(rules, meta["strategy"], meta.get("vs"), game))


def format_text(table, kinds, sits, commands) -> str:
    """The terminal report: the census table, the situations table, examples, the classes."""
    import io

    from reports.mistakes_out import text_parts
    from sim.cli.tables import print_table

    parts = text_parts(table, kinds, sits, commands)

    def text(df) -> list[str]:
        buf = io.StringIO()
        print_table(df, file=buf)
        return buf.getvalue().rstrip("\n").splitlines()

    lines = parts["head"] + ["", "by kind of decision:"] + text(parts["kinds"])
    lines += ["", "by the action played and the best one:"] + text(parts["table"]) + parts["note"]
    lines += ["", "by situation (each alone):"] + text(parts["situations"])
    lines += parts["examples"] + ["", "classes:"] + parts["classes"]
    return "\n".join(lines)
