"""Printed tables of the command line: aligned, rounded, with intervals as "est [low, high]".

Every subcommand prints its tables through ``print_table`` (rich): numbers right-aligned, counts
with thousands separators, scores rounded to what their CI can resolve, shares in percent.  On a
terminal the table fits its width; piped, it keeps its natural width (no wrapping).
"""

from __future__ import annotations

import math
import re
import sys
import textwrap
from collections.abc import Callable, Sequence

import numpy as np
import pandas as pd
from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

__all__ = ["print_table", "render_table", "fmt_num", "fmt_ci", "fmt_pct_ci", "fmt_count", "console"]


def console(file=None, width: int | None = None) -> Console:
    """A console on ``file`` (stdout): a terminal's width, or piped ``width`` (default: a wide
    virtual page, so that no table wraps) without colour codes."""
    out = file or sys.stdout
    tty = hasattr(out, "isatty") and out.isatty()
    return Console(
        file=out,
        width=None if tty else (width or 10_000),
        no_color=not tty,
        highlight=False,
        soft_wrap=not tty,
    )


def fmt_count(v) -> str:
    if v is None or (isinstance(v, float) and not math.isfinite(v)):
        return ""
    return f"{int(round(float(v))):,}"


def _decimals(scale: float) -> int:
    """Decimals that show a number whose uncertainty (or size) is ``scale``: 2 significant."""
    if not math.isfinite(scale) or scale <= 0:
        return 1
    return int(min(max(1 - math.floor(math.log10(scale)), 0), 4))


def fmt_num(v, decimals: int | None = None) -> str:
    if v is None:
        return ""
    v = float(v)
    if math.isnan(v):
        return ""
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    d = _decimals(abs(v) / 10) if decimals is None else decimals
    return f"{v:,.{d}f}"


def fmt_ci(est, low, high, decimals: int | None = None, signed: bool = False) -> str:
    """'152.7 [142.9, 162.5]'; decimals from the half-width (two significant digits of it)."""
    if est is None or (isinstance(est, float) and math.isnan(est)):
        return ""
    hw = (float(high) - float(low)) / 2 if math.isfinite(low) and math.isfinite(high) else math.inf
    d = decimals if decimals is not None else (_decimals(hw) if math.isfinite(hw) and hw > 0 else 1)
    est = round(float(est), d) + 0.0  # no "-0"
    e = f"{est:+,.{d}f}" if signed else f"{est:,.{d}f}"
    if not math.isfinite(hw):
        return f"{e} [no CI: n < 2]"
    return f"{e} [{float(low):,.{d}f}, {float(high):,.{d}f}]"


def fmt_pct_ci(p, low, high, decimals: int | None = None) -> str:
    """A share with its CI in percent: '53.1% [52.4, 53.8]'."""
    if p is None or (isinstance(p, float) and math.isnan(p)):
        return ""
    hw = 100 * (float(high) - float(low)) / 2
    d = decimals if decimals is not None else (_decimals(hw) if hw > 0 else 1)
    return f"{100 * float(p):.{d}f}% [{100 * float(low):.{d}f}, {100 * float(high):.{d}f}]"


def _default_fmt(series: pd.Series) -> Callable:
    if pd.api.types.is_bool_dtype(series):
        return lambda v: "yes" if v else ""
    if pd.api.types.is_integer_dtype(series):
        return fmt_count
    if pd.api.types.is_float_dtype(series):
        x = series.to_numpy(np.float64)
        x = x[np.isfinite(x)]
        if x.size and np.all(x == np.round(x)) and np.abs(x).max() >= 10:
            return fmt_count  # counts stored as floats (199906.0)
        scale = float(np.median(np.abs(x))) if x.size else 1.0
        d = _decimals(scale / 10) if scale > 0 else 1
        return lambda v: fmt_num(v, d)
    return lambda v: "" if v is None or (isinstance(v, float) and math.isnan(v)) else str(v)


def _numeric_text(series: pd.Series) -> bool:
    """Text cells that hold numbers ('152.7 [142.9, 162.5]', '53.1% [...]'): right-aligned."""
    vals = [str(v) for v in series if isinstance(v, str) and v]
    return bool(vals) and all(v[0] in "+-0123456789." for v in vals)


WIDTH = 100  # the widest a printed table may be (wider detail: --out / --json files)


def _units(header: str) -> list[str]:
    """A header's unbreakable pieces: words, and bracketed groups like "[95% CI]"."""
    return re.findall(r"\[[^\]]*\]|\S+", header)


def wrap_header(header: str, width: int) -> str:
    """``header`` wrapped at words (a bracketed group stays whole) into lines of ``width``."""
    lines: list[str] = []
    cur = ""
    for unit in _units(header):
        if cur and len(cur) + 1 + len(unit) > width:
            lines.append(cur)
            cur = unit
        else:
            cur = f"{cur} {unit}" if cur else unit
    lines.append(cur)
    return "\n".join(lines)


def render_table(
    df: pd.DataFrame,
    title: str | None = None,
    formats: dict | None = None,
    columns: Sequence[str] | None = None,
    caption: str | None = None,
    wrap: Sequence[str] = (),
    wrap_headers: bool = False,
) -> Table:
    """The table of ``df``; with ``wrap_headers`` each header is wrapped at words to its
    column's cells (at least its longest word), never through a word."""
    formats = formats or {}
    cols = list(columns) if columns is not None else list(df.columns)
    t = Table(
        title=Text(title) if title else None,
        caption=Text(caption) if caption else None,
        box=box.SIMPLE_HEAD,
        title_justify="left",
        caption_justify="left",
        pad_edge=False,
        show_edge=False,
    )
    cells = []
    for c in cols:
        fn = formats.get(c) or _default_fmt(df[c])
        cells.append([fn(v) for v in df[c]])
    for c, texts in zip(cols, cells, strict=True):
        num = c in df and (
            pd.api.types.is_numeric_dtype(df[c]) or c in formats or _numeric_text(df[c])
        )
        header = str(c)
        if wrap_headers and c not in wrap:
            width = max([len(x) for x in texts] + [len(u) for u in _units(header)])
            header = wrap_header(header, width)
        t.add_column(Text(header), justify="right" if num else "left", no_wrap=c not in wrap)
    for row in zip(*cells, strict=True):
        # cells are plain text: "[no CI: n < 2]" must not be read as rich markup
        t.add_row(*(Text(x) for x in row))
    return t


def _render(con: Console, table: Table) -> list[str]:
    with con.capture() as cap:
        con.print(table)
    return [line.rstrip() for line in cap.get().splitlines()]


def print_table(
    df: pd.DataFrame,
    title: str | None = None,
    formats: dict | None = None,
    columns: Sequence[str] | None = None,
    caption: str | None = None,
    file=None,
    wrap: Sequence[str] = (),
) -> None:
    """Print ``df`` as an aligned table; ``formats`` maps a column to a value -> text function;
    the ``wrap`` columns (long texts) wrap at the terminal's width (piped: at WIDTH).  A table
    wider than WIDTH (or the terminal) gets its headers wrapped at words."""
    out = file or sys.stdout
    con = console(out, WIDTH if wrap else None)
    limit = min(WIDTH, con.width)
    body = _render(con, render_table(df, None, formats, columns, None, wrap))
    narrow = max((len(x) for x in body), default=0) > limit
    table = render_table(df, None, formats, columns, None, wrap, wrap_headers=narrow)
    lines = [*(textwrap.wrap(title, limit) if title else []), *_render(con, table)]
    lines += textwrap.wrap(caption, limit) if caption else []
    out.write("\n".join(lines) + "\n")


def ci_column(
    df: pd.DataFrame, est: str, low: str, high: str, pct: bool = False, signed: bool = False
) -> list[str]:
    """One text column 'est [low, high]' from three numeric columns, every cell with the same
    decimals: those the narrowest interval needs (two significant digits of its half-width)."""
    hw = (df[high].to_numpy(np.float64) - df[low].to_numpy(np.float64)) / 2 * (100 if pct else 1)
    hw = hw[np.isfinite(hw) & (hw > 0)]
    d = _decimals(float(hw.min())) if hw.size else 1
    if pct:
        return [fmt_pct_ci(a, b, c, d) for a, b, c in zip(df[est], df[low], df[high], strict=True)]
    return [
        fmt_ci(a, b, c, d, signed=signed)
        for a, b, c in zip(df[est], df[low], df[high], strict=True)
    ]
