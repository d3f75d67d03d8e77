"""Layouts declared once: flat int32 arrays and records as tuples of (name, width, meaning) rows.

`layout()` turns the rows into a NamedTuple instance of offsets (each row starts where the one
before ends, so there are no holes or overlaps to keep in step by hand).  The kernels read the
offsets as attributes of a global NamedTuple, which numba folds into compile-time constants.
A row of width 0 is a marker: it names the offset where the next row starts (an end of a part).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np


class Field(NamedTuple):
    """One row of a layout: its name, how many int32 entries it takes, and what it holds."""

    name: str
    width: int
    meaning: str


def layout(type_name: str, rows: tuple[Field, ...], size_name: str) -> Any:
    """A NamedTuple instance: each row's name -> its offset, plus `size_name` -> the total width.

    Raises ValueError on a repeated name or a negative width."""
    names = [r.name for r in rows] + [size_name]
    if len(set(names)) != len(names):
        raise ValueError(f"{type_name}: a name appears twice")
    offsets = []
    at = 0
    for r in rows:
        if r.width < 0:
            raise ValueError(f"{type_name}.{r.name}: negative width {r.width}")
        offsets.append(at)
        at += r.width
    cls = NamedTuple(type_name, [(n, int) for n in names])  # type: ignore[misc]
    return cls._make([*offsets, at])


def widths(rows: tuple[Field, ...]) -> dict[str, int]:
    """{name: width} of the rows."""
    return {r.name: r.width for r in rows}


class Column(NamedTuple):
    """One field of a record dtype: name, numpy scalar type, width (1 = a scalar, n = an array
    of n, one per team or seat) and what it holds."""

    name: str
    dtype: type
    width: int
    meaning: str


def record_dtype(columns: tuple[Column, ...]) -> np.dtype:
    """The aligned numpy record dtype of the columns, in order."""
    return np.dtype(
        [(c.name, c.dtype) if c.width == 1 else (c.name, c.dtype, (c.width,)) for c in columns],
        align=True,
    )


def code_table(type_name: str, rows: tuple[tuple[str, str], ...]) -> tuple[Any, tuple[str, ...]]:
    """Named codes declared beside their text: rows of (NAME, text) -> (a NamedTuple instance
    NAME -> its position, numba-foldable; the tuple of texts, indexed by code)."""
    names = [name for name, _ in rows]
    if len(set(names)) != len(names):
        raise ValueError(f"{type_name}: a name appears twice")
    cls = NamedTuple(type_name, [(n, int) for n in names])  # type: ignore[misc]
    return cls(*range(len(rows))), tuple(text for _, text in rows)
