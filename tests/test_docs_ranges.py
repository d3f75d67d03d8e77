"""docs/DATA.md's "Numbers and their ranges" names every number option of every command (and
the range the command checks is the one the option's help states)."""

from __future__ import annotations

import argparse
from pathlib import Path

from sim.cli.main import build_parser

DATA = (Path(__file__).resolve().parents[1] / "docs" / "DATA.md").read_text()
SECTION = DATA.split("## Numbers and their ranges", 1)[1].split("\n## ", 1)[0]


def _numeric(action: argparse.Action) -> bool:
    t = action.type
    return t in (int, float) or getattr(t, "__name__", "") in ("whole number", "number")


def test_every_number_option_has_its_range_in_data_md():
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    missing = []
    for cmd, p in sub.choices.items():
        for action in p._actions:
            if not _numeric(action) or not action.option_strings:
                continue
            opt = max(action.option_strings, key=len)
            if opt not in SECTION:
                missing.append(f"{cmd} {opt}")
    assert not missing, f"docs/DATA.md does not give the range of: {', '.join(missing)}"
