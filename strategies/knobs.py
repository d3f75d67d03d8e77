"""Knob tables: each strategy declares its knobs once, as (name, default, meaning) rows.

A strategy's knob vector (float64[MAX_KNOBS], built by `strategies.registry.parse_spec`) holds
the knobs in table order.  `knob_index` turns a table into a NamedTuple of those positions
(`K.open_threshold == 0`), a compile-time constant that numba folds into the kernels, so a
kernel reads `knobs[K.open_threshold]` and the name is written nowhere else.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any, NamedTuple

KNOB_MAX = 1_000_000  # the largest value of a count, threshold or weight knob


class Knob(NamedTuple):
    """One knob: its name (as written on the command line), default value, meaning and, when
    the meaning does not say it, the values it takes (``range``: "0, 1, 2", "0 .. 40",
    ">= 0"; see `knob_domain`)."""

    name: str
    default: float
    meaning: str
    range: str = ""


@dataclass(frozen=True)
class Domain:
    """The values a knob takes: a list of choices, or any number lo .. hi."""

    lo: float
    hi: float
    choices: tuple[float, ...] = ()

    def text(self) -> str:
        """As `canasta strategies` prints it: "0, 1, 2" or "0 .. 1e+06"."""
        if self.choices:
            return ", ".join(f"{v:g}" for v in self.choices)
        return f"{self.lo:g} .. {self.hi:g}"

    def problem(self, value: float) -> str | None:
        """Why `value` is not one of the domain's values (None: it is)."""
        if not math.isfinite(value):
            return "must be a finite number"
        if self.choices:
            if value not in self.choices:
                return f"must be one of {self.text()}"
        elif not self.lo <= value <= self.hi:
            return f"must be within {self.text()}"
        return None


ANY = Domain(-KNOB_MAX, KNOB_MAX)  # a knob nothing is known about: any moderate number


def knob_domain(knob: Knob) -> Domain:
    """The knob's values: its declared ``range``, else the options its meaning enumerates ("0
    never ...; 1 ...; 2 ..." or "1: ..." for a switch: those values and 0), else a
    non-negative number up to KNOB_MAX (every other knob of the lab is a count, a threshold in
    points or cards, or a weight)."""
    if knob.range:
        return parse_domain(knob.range)
    meaning = " ".join(knob.meaning.split())
    opts = {int(x) for x in re.findall(r"(?:^|; )(\d)(?::| )", meaning)}
    if opts:
        opts |= {0, int(knob.default)} if float(knob.default).is_integer() else {0}
        return Domain(min(opts), max(opts), tuple(float(v) for v in sorted(opts)))
    return Domain(0.0, float(KNOB_MAX))


def parse_domain(text: str) -> Domain:
    """'0, 1, 2' | '0 .. 40' | '0..40' | '>= 0' -> Domain (ValueError for other text)."""
    t = text.strip()
    if t.startswith(">="):
        return Domain(float(t[2:]), float(KNOB_MAX))
    if ".." in t:
        lo, _, hi = t.partition("..")
        return Domain(float(lo), float(hi))
    values = tuple(sorted(float(v) for v in t.split(",")))
    return Domain(values[0], values[-1], values)


def knob_index(type_name: str, table: tuple[Knob, ...]) -> Any:  # fields known at run time
    """A NamedTuple instance whose fields are the knob names and whose values their positions."""
    names = [k.name for k in table]
    if len(set(names)) != len(names):
        raise ValueError(f"{type_name}: a knob name appears twice in {names}")
    cls = NamedTuple(type_name, [(n, int) for n in names])  # type: ignore[misc]
    return cls(*range(len(names)))


def knob_defaults(table: tuple[Knob, ...]) -> dict[str, float]:
    """{name: default} in table order (the order of the knob vector)."""
    return {k.name: float(k.default) for k in table}


def knobs_with(table: tuple[Knob, ...], **overrides: float) -> dict[str, float]:
    """The table's defaults with some values replaced (table order kept); KeyError names an
    unknown knob."""
    defaults = knob_defaults(table)
    for key in overrides:
        if key not in defaults:
            raise KeyError(f"no knob {key!r}; knobs: {', '.join(defaults)}")
    return {k: float(overrides.get(k, v)) for k, v in defaults.items()}
