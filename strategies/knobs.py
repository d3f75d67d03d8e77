"""Knob tables: each strategy declares its knobs once, as (name, default, meaning) rows.

A strategy's knob vector (float64[MAX_KNOBS], built by `strategies.registry.parse_spec`) holds
the knobs in table order.  `knob_index` turns a table into a NamedTuple of those positions
(`K.open_threshold == 0`), a compile-time constant that numba folds into the kernels, so a
kernel reads `knobs[K.open_threshold]` and the name is written nowhere else.
"""

from __future__ import annotations

from typing import Any, NamedTuple


class Knob(NamedTuple):
    """One knob: its name (as written on the command line), default value and meaning."""

    name: str
    default: float
    meaning: str
    range: str | None = None  # the values it takes, when its meaning does not enumerate them


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
