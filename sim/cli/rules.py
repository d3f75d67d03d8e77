"""`canasta rules`: list the presets, or print every parameter of one rule set."""

from __future__ import annotations

import argparse
import json
import textwrap
from typing import Any

from sim.cli.args import whole
from sim.core.rules import PRESETS, RuleSet, parse_overrides

EPILOG = """examples:
  canasta rules                                       list the presets
  canasta rules classic --players 6 --team-layout 3x2 every parameter of a rule set
  canasta rules german --set go_out_bonus=150 --set pile_take_onto_canasta=pair
  canasta rules samba --json                          the rule set as JSON (run manifests)

--set values: ints (10000 or 10,000), bools (yes/no), pile_take_onto_canasta yes/no/pair,
  red_three_scores=0,100,200,300,800,800,800  minimum_bands=0:50,1500:90,3000:120,7000:150
  card_values=joker:60,two:25 (or all 15 values in kind order 2 3 4 .. A JK R3)
"""


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    p = subparsers.add_parser(
        "rules",
        help="list rule presets or show every parameter of a rule set",
        description="List the rule presets, or print every parameter of a rule set "
        "(preset + player count + overrides) with its meaning.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("preset", nargs="?", help=f"preset: {', '.join(PRESETS)} (default: list them)")
    p.add_argument(
        "--players", type=whole(2, 6), default=None, help="players at the table, 2..6 (default 4)"
    )
    p.add_argument(
        "--team-layout",
        default=None,
        metavar="LAYOUT",
        help="six players: 2x3 (two teams of three, default) or 3x2 (three teams of two)",
    )
    p.add_argument(
        "--set",
        dest="overrides",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="override one parameter (repeatable)",
    )
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    p.set_defaults(run=run)
    return p


def rules_from_args(args: argparse.Namespace) -> RuleSet:
    """The RuleSet chosen by preset / --players / --team-layout / --set (shared by other
    commands)."""
    sets = parse_overrides(getattr(args, "overrides", None))
    players = args.players if args.players is not None else 4
    return RuleSet.preset(args.preset or "classic", players, args.team_layout, **sets)


def rules_for_position(pos: Any, args: argparse.Namespace) -> RuleSet:
    """The RuleSet of a position file and the command's --rules / --team-layout / --set: the
    file's, with the options adding what it leaves open; an option that contradicts the file
    (--rules german on a classic position, --set x=1 where the file sets x=2) is refused."""
    from sim.core.rules import RulesError

    for option, mine, theirs in (
        ("--rules", getattr(args, "rules", None), pos.rules),
        ("--team-layout", getattr(args, "team_layout", None), pos.team_layout),
    ):
        if mine and theirs and mine != theirs:
            key = option[2:].replace("-", "_")
            raise RulesError(
                f"{option} {mine} but the position says {key}: {theirs}; give it once "
                "(in the file or as the option)"
            )
    sets = parse_overrides(getattr(args, "overrides", None))
    for name, value in sets.items():
        if name in pos.overrides and pos.overrides[name] != value:
            raise RulesError(
                f"--set {name} contradicts the position's set: {name}={pos.overrides[name]}; "
                "give it once"
            )
    return RuleSet.preset(
        getattr(args, "rules", None) or pos.rules or "classic",
        pos.players,
        getattr(args, "team_layout", None) or pos.team_layout,
        **{**pos.overrides, **sets},
    )


def format_table(rows: list[tuple[str, str, str]], width: int = 100) -> str:
    """parameter | value | meaning, the meanings wrapped at words to fit ``width`` columns."""
    w0 = max(len(r[0]) for r in rows)
    w1 = min(max(len(r[1]) for r in rows), 24)
    indent = " " * (w0 + w1 + 4)
    lines = [f"{'parameter':<{w0}}  {'value':<{w1}}  meaning", f"{'-' * w0}  {'-' * w1}  {'-' * 7}"]
    for a, b, c in rows:
        head = f"{a:<{w0}}  {b:<{w1}}  "
        if len(head) > len(indent):  # a long value: wrapped, the meaning on the next line
            values = textwrap.wrap(b, width - w0 - 2)
            lines.append(f"{a:<{w0}}  {values[0]}")
            lines += [" " * (w0 + 2) + more for more in values[1:]]
            head = indent
        wrapped = textwrap.wrap(c, width - len(indent)) or [""]
        lines.append(head + wrapped[0])
        lines += [indent + more for more in wrapped[1:]]
    return "\n".join(line.rstrip() for line in lines)


def run(args: argparse.Namespace) -> int:
    chosen = args.preset or args.players is not None or args.team_layout or args.overrides
    if not chosen:
        if args.json:
            print(json.dumps(PRESETS, indent=2))
        else:
            width = max(len(n) for n in PRESETS)
            print("rule presets (canasta rules NAME --players N shows every parameter):")
            for name, text in PRESETS.items():
                default = " (default)" if name == "classic" else ""
                print(
                    textwrap.fill(
                        f"{name:<{width}}  {text}{default}",
                        100,
                        initial_indent="  ",
                        subsequent_indent=" " * (width + 4),
                    )
                )
        return 0
    rules = rules_from_args(args)
    if args.json:
        print(json.dumps(rules.to_dict(), indent=2))
        return 0
    print(f"rule set {rules.label}: {rules.n_active} play each hand, {rules.n_teams} teams")
    print(format_table(rules.describe()))
    changed = rules.differences_from_preset()
    if changed:
        print(f"changed from the preset: {', '.join(changed)}")
    reason = rules.engine_supported()
    if reason:
        print(f"note: {reason}; play and simulate refuse this rule set")
    return 0
