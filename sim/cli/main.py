"""`canasta` entry point: the argument parser over every subcommand module, and error handling."""

from __future__ import annotations

import argparse
import sys

from sim.cli import analyze, compare, odds, play, report, rules, simulate, strategies, sweep, warmup

# each module defines add_parser(subparsers) and run(args) -> int
SUBCOMMANDS = (rules, strategies, play, simulate, compare, sweep, odds, analyze, report, warmup)

EPILOG = """examples:
  canasta rules                                   list rule presets
  canasta rules classic --players 6               every parameter of a rule set
  canasta strategies expert                       a strategy's plan and knobs
  canasta play --rules classic --players 4 --seed 7
  canasta simulate --rules classic --players 4 --strategies expert,greedy --hands 100000 --seed 1 --out runs/x
  canasta compare expert greedy --until-ci 10
  canasta report runs/x -o report.html
  canasta warmup                                  compile the game core once, ahead of time
"""


class CliError(Exception):
    """A user error: printed as one line, exit status 2."""


def version() -> str:
    """The installed package's version, else the source tree's pyproject.toml's."""
    from importlib.metadata import PackageNotFoundError  # noqa: PLC0415
    from importlib.metadata import version as _v  # noqa: PLC0415

    try:
        return _v("canasta-lab")
    except PackageNotFoundError:
        import tomllib  # noqa: PLC0415
        from pathlib import Path  # noqa: PLC0415

        py = Path(__file__).resolve().parents[2] / "pyproject.toml"
        try:
            return str(tomllib.loads(py.read_text())["project"]["version"]) + " (source tree)"
        except (OSError, KeyError, tomllib.TOMLDecodeError):
            return "unknown"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="canasta",
        description="Canasta strategy lab: simulate, compare and analyse Canasta strategies.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"canasta {version()}")
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
    except BrokenPipeError:  # `canasta strategies | head`: the reader has all it wanted
        import os  # noqa: PLC0415

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except (CliError, ValueError, FileNotFoundError, KeyError) as exc:
        msg = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        print(f"canasta {args.command}: error: {msg}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
