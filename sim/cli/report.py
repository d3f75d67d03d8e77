"""`canasta report RUN_DIR -o report.html`: self-contained HTML report + report.md."""

from __future__ import annotations

import argparse
import sys
from typing import Any

EPILOG = """example:
  canasta report runs/x -o report.html
      writes report.html (one file, plots embedded) and report.md beside it (X.html -> X.md):
      settings, strategy comparison with CIs, score distributions, going-out curves, pile takes
      and freezes, red threes and canastas, and data-driven surprises.
"""


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    p = subparsers.add_parser(
        "report",
        help="HTML + Markdown report of a run folder",
        description="Build a self-contained HTML report (and report.md beside it) of a run.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("run_dir", help="run folder (manifest.json + hands/ [decisions/ games/])")
    p.add_argument(
        "-o",
        "--out",
        default=None,
        help="HTML file (default RUN_DIR/report.html); the Markdown goes beside it as the same "
        "name .md",
    )
    p.add_argument("--title", default=None)
    p.set_defaults(run=run)
    return p


def run(args: argparse.Namespace) -> int:
    from reports.report import build_report
    from reports.runs import open_run

    note = open_run(args.run_dir).unfinished
    if note:
        print(f"canasta report: warning: {note}", file=sys.stderr)
    res = build_report(args.run_dir, args.out, args.title)
    print(f"wrote {res['html']} ({res['images']} plots) and {res['md']}")
    if not res["has_decisions"]:
        print("note: no decision logs; run with --log-decisions for pile-take and going-out odds")
    return 0
