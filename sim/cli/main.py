"""`canasta` entry point: the argument parser over every subcommand module, and error handling."""

from __future__ import annotations

import argparse
import sys

from sim.cli import compare, odds, play, report, rules, simulate, sweep, tune

# each module defines add_parser(subparsers) and run(args) -> int
SUBCOMMANDS = (rules, play, simulate, compare, sweep, tune, odds, report)

EPILOG = """examples:
  canasta rules                                   list rule presets
  canasta rules classic --players 6               every parameter of a rule set
  canasta play --rules classic --players 4 --seed 7
  canasta simulate --rules classic --players 4 --strategies expert,greedy --hands 100000 --seed 1 --out runs/x
  canasta compare expert greedy --until-ci 10
  canasta tune expert --rules classic --players 6 --budget 400000 --seed 17
  canasta report runs/x -o report.html
"""


class CliError(Exception):
    """A user error: printed as one line, exit status 2."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="canasta",
        description="Canasta strategy lab: simulate, compare and analyse Canasta strategies.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in SUBCOMMANDS:
        module.add_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "command", None):
        parser.print_help()
        return 0
    try:
        return int(args.run(args) or 0)
    except KeyboardInterrupt:
        print("canasta: interrupted", file=sys.stderr)
        return 130
    except (CliError, ValueError, FileNotFoundError, KeyError) as exc:
        msg = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        print(f"canasta {args.command}: error: {msg}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
