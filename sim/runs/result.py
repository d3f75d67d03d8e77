"""A finished (or reopened) run of `sim.runs.runner.simulate`: its manifest and lazily read
tables."""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from functools import cached_property
from pathlib import Path
from typing import Any

import pandas as pd

from sim.core.errors import CanastaError
from sim.runs import store


class RunResult:
    """A finished (or reopened) run.  Tables load lazily: ``.hands``, ``.decisions``, ``.games``."""

    def __init__(
        self,
        path: str | os.PathLike | None,
        manifest: dict[str, Any],
        frames: dict[str, pd.DataFrame] | None = None,
        elapsed: float | None = None,
        chunks_run: int = 0,
        already_complete: bool = False,
        units_run: int = 0,
    ) -> None:
        self.units_run = units_run
        self.path = Path(path) if path is not None else None
        self.manifest = manifest
        self._frames = frames
        self.elapsed = elapsed
        self.chunks_run = chunks_run
        self.already_complete = already_complete

    @classmethod
    def open(cls, path: str | os.PathLike) -> RunResult:
        """Reopen a run folder: ``RunResult.open("runs/x").hands``."""
        return cls(path, store.read_manifest(path))

    def __repr__(self) -> str:
        where = str(self.path) if self.path else "in memory"
        m = self.manifest
        seats = ",".join(m["strategies"])
        return f"<RunResult {m['mode']}={m['total']} seed={m['seed']} {seats} {where}>"

    def read(
        self, table: str = "hands", columns: Sequence[str] | None = None, filters: Any = None
    ) -> pd.DataFrame:
        if table not in store.TABLES:
            raise CanastaError(f"unknown table '{table}': choose one of {', '.join(store.TABLES)}")
        if self._frames is not None:
            df = self._frames[table]
            if filters is not None:
                import pyarrow as pa

                expr = store._filter_expression(filters)
                df = pa.Table.from_pandas(df, preserve_index=False).filter(expr).to_pandas()
            return df[list(columns)] if columns is not None else df
        assert self.path is not None  # a run without a folder always carries its frames
        return store.read_run(self.path, table, columns=columns, filters=filters)

    @cached_property
    def hands(self) -> pd.DataFrame:
        return self.read("hands")

    @cached_property
    def decisions(self) -> pd.DataFrame:
        return self.read("decisions")

    @cached_property
    def games(self) -> pd.DataFrame:
        return self.read("games")

    @property
    def chunks_done(self) -> int:
        if self._frames is not None:
            return self.manifest["n_chunks"]
        assert self.path is not None  # a run without a folder always carries its frames
        return len(store.done_chunks(self.path, self.manifest["n_chunks"]))

    @property
    def complete(self) -> bool:
        return self.chunks_done == self.manifest["n_chunks"]


def hands_per_second(result: RunResult) -> float:
    n = len(result.read("hands", columns=["seed"]))
    return n / result.elapsed if result.elapsed else math.nan
