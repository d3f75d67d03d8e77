"""Option types of the command line: numbers checked against their documented range
(sim.core.limits) while the arguments are read, so a bad number stops the command in one line
before any work (argparse prints ``canasta CMD: error: argument --seed: ...``)."""

from __future__ import annotations

import argparse
import math
import re
from collections.abc import Callable

from sim.core.errors import CanastaError

_SUFFIX = {"k": 1_000, "m": 1_000_000, "g": 1_000_000_000}


def parse_whole(text: str) -> int:
    """'1000000', '1_000_000', '1,000,000', '1e6', '100k', '1M' -> int; ValueError otherwise."""
    t = str(text).strip().lower().replace("_", "").replace(",", "")
    mult = 1
    if t and t[-1] in _SUFFIX:
        mult, t = _SUFFIX[t[-1]], t[:-1]
    if re.fullmatch(r"[+-]?\d+", t):
        return int(t) * mult
    try:
        f = float(t) * mult
    except (ValueError, OverflowError):
        raise ValueError(f"'{text}' is not a whole number") from None
    if not math.isfinite(f) or not f.is_integer():
        raise ValueError(f"'{text}' is not a whole number")
    return int(f)


def whole(lo: int, hi: int, zero_ok: bool = True) -> Callable[[str], int]:
    """argparse type: a whole number in lo..hi (and not 0 unless zero_ok)."""

    def parse(text: str) -> int:
        try:
            value = parse_whole(text)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
        if not lo <= value <= hi or (value == 0 and not zero_ok):
            extra = "" if zero_ok or not lo <= 0 <= hi else ", not 0"
            raise argparse.ArgumentTypeError(
                f"{text} is out of range: give {lo:,} .. {hi:,}{extra}"
            )
        return value

    parse.__name__ = "whole number"
    return parse


def check_until_ci(args: argparse.Namespace, default_max: int = 1_000_000) -> None:
    """--max-hands caps --until-ci: refused without it, and below --hands (the first batch)."""
    if args.max_hands == default_max:
        return
    if args.until_ci is None:
        raise CanastaError(
            "--max-hands caps --until-ci; give --until-ci POINTS too, or leave --max-hands out"
        )
    if args.max_hands < args.hands:
        raise CanastaError(
            f"--max-hands {args.max_hands:,} is below --hands {args.hands:,} (the first batch)"
        )


def real(lo: float, hi: float, lo_open: bool = False) -> Callable[[str], float]:
    """argparse type: a finite number in lo..hi (lo excluded with lo_open)."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"'{text}' is not a number") from None
        if not math.isfinite(value) or not (lo < value if lo_open else lo <= value) or value > hi:
            sign = ">" if lo_open else ">="
            raise argparse.ArgumentTypeError(
                f"{text} is out of range: give a number {sign} {lo:g} and <= {hi:g}"
            )
        return value

    parse.__name__ = "number"
    return parse
