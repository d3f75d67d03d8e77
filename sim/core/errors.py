"""The one exception type of the public Python API.

Every public function of the lab (``sim.*``, ``strategies.*``, ``reports.*``) that refuses its
input raises ``CanastaError`` (or a subclass naming the kind of input: ``RulesError``,
``StrategyError``, ``DeckError``, ``ActionTextError``, ``IllegalActionError``,
``RunFolderError``, ``PositionError``, ``AnalysisError``, ``ReviewError``, ``HandFileError``,
``EquityError``, ``TuneError``) with a one-line message that names what is wrong and
what would be right.  It is a ``ValueError``, so code written against the older subclasses
keeps working.  The command line prints the message as ``canasta CMD: error: ...`` and exits
with status 2.

    from sim.core.errors import CanastaError
    try:
        GameState.new_hand(seed=-1)
    except CanastaError as exc:
        print(exc)        # seed=-1: must be a whole number 0 .. 2**63-1
"""

from __future__ import annotations

from typing import Any

__all__ = ["CanastaError", "check_int", "one_line"]


class CanastaError(ValueError):
    """Bad input to a public function: the message is one line naming what is wrong and what
    would be right."""


def one_line(text: object) -> str:
    """`text` (an exception or a message) as one line: whitespace runs become one space."""
    return " ".join(str(text).split())


def check_int(name: str, value: Any, lo: int, hi: int) -> int:
    """`value` as an int in lo..hi, else a one-line CanastaError.

    Accepts Python and numpy integers and integral floats (1e6); refuses bools, None, nan,
    non-integral numbers and text (text is parsed by the command line, not here)."""
    import numbers

    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise CanastaError(f"{name}={value!r}: must be a whole number {lo} .. {hi}")
    if not isinstance(value, numbers.Integral):
        f = float(value)
        if f != f or f in (float("inf"), float("-inf")) or not f.is_integer():
            raise CanastaError(f"{name}={value!r}: must be a whole number {lo} .. {hi}")
        value = int(f)
    value = int(value)
    if not lo <= value <= hi:
        raise CanastaError(f"{name}={value}: must be a whole number {lo} .. {hi}")
    return value
