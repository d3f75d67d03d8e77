"""The progress bars of long work (simulate, compare, sweep, tune, equity): on a terminal only,
quiet when piped.  Every bar is made by `new_bar`, so they all look and behave alike.

A function that plays takes ``progress``: True/False, None (= a bar when stderr is a
terminal) or an existing bar (anything with ``update``), so that a caller running several
such functions (sweep runs one compare per setting) shows one bar for all of them."""

from __future__ import annotations

import sys
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Iterator


def on_terminal() -> bool:
    return bool(getattr(sys.stderr, "isatty", lambda: False)())


def new_bar(
    total: int | None,
    unit: str,
    enabled: bool,
    desc: str | None = None,
    initial: int = 0,
    leave: bool = True,
) -> Any:
    """A tqdm bar on stderr (disabled: draws nothing) with the lab's settings."""
    from tqdm.auto import tqdm

    return tqdm(
        total=total,
        initial=initial,
        unit=unit,
        unit_scale=True,
        disable=not enabled,
        desc=desc,
        dynamic_ncols=True,
        smoothing=0.1,
        file=sys.stderr,
        leave=leave,
    )


@contextmanager
def progress_bar(progress: Any, total: int, unit: str, desc: str | None = None) -> Iterator[Any]:
    """Yield a bar: ``progress`` itself when it is a bar (its owner has set its total for all
    the work), else a new tqdm bar of ``total`` (disabled unless ``progress`` is True, or None
    on a terminal), closed at exit."""
    if hasattr(progress, "update"):
        yield progress
        return
    enabled = on_terminal() if progress is None else bool(progress)
    bar = new_bar(total, unit, enabled, desc)
    try:
        yield bar
    finally:
        bar.close()


def grow(bar: Any, extra: int) -> None:
    """Raise a bar's total when more work than planned is added (``--until-ci``)."""
    if bar is not None and extra > 0:
        bar.total = (bar.total or 0) + extra
        bar.refresh()
