"""Reading run folders (docs/DATA.md): RUN_DIR/manifest.json + RUN_DIR/<table>/*.parquet.

Reads with pyarrow.dataset directly (column projection keeps big decision tables cheap).
Also derives per-team views of the hands table: a team's strategy label is the strategy of its
seats ("a+b" if they differ); the seat -> team map is the manifest's ``team_of_seat`` when
present, else ``seat % n_teams`` (n_teams = number of score_t* columns).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from sim.core.errors import CanastaError

__all__ = ["Run", "open_run", "team_long"]

KEY = ["seed", "game", "hand"]


@dataclass
class Run:
    path: Path
    manifest: dict
    tables: dict[str, list[Path]] = field(default_factory=dict)
    unfinished: str | None = None  # one line when the run is unfinished (readers print it)
    _cache: dict = field(default_factory=dict, repr=False)

    def has(self, table: str) -> bool:
        return bool(self.tables.get(table))

    def read(self, table: str, columns: list[str] | None = None) -> pd.DataFrame | None:
        """The whole table (or the given columns that exist) or None if the run lacks it."""
        if not self.has(table):
            return None
        from sim.runs.integrity import scan

        names = set(self.columns(table))
        cols = None if columns is None else [c for c in columns if c in names]
        key = (table, None if cols is None else tuple(cols))
        if key not in self._cache:  # page checksums verified; a damaged shard is named
            self._cache[key] = scan(self.tables[table], cols, None, self.path).to_pandas()
        return self._cache[key]

    def table(self, table: str, columns: list[str] | None = None) -> pd.DataFrame:
        """Like read(), for a table the run must have: a one-line CanastaError if it lacks it."""
        df = self.read(table, columns)
        if df is None:
            raise CanastaError(f"{self.path}: the run has no {table} table")
        return df

    def columns(self, table: str) -> list[str]:
        if not self.has(table):
            return []
        import pyarrow.parquet as pq

        from sim.runs.store import readable_shards

        with readable_shards(self.path):
            return list(pq.read_schema(self.tables[table][0]).names)

    @property
    def hands(self) -> pd.DataFrame:
        df = self.read("hands")
        if df is None:
            raise CanastaError(f"{self.path} has no hands table (hands/*.parquet)")
        return df


def open_run(path: str | Path) -> Run:
    """Open a run folder; ValueError with a one-line message if it is not one.

    Uses sim.runs.store: manifest checks, only shards of completed chunks, footers checked."""
    if not isinstance(path, str | os.PathLike):
        raise CanastaError(f"{path!r}: give the run folder as a path, e.g. 'runs/x'")
    path = Path(path)
    from sim.runs import store

    if not path.exists():
        raise CanastaError(f"{path} does not exist")
    if not path.is_dir():
        raise CanastaError(f"{path} is not a folder")
    if not (path / "manifest.json").exists():
        raise CanastaError(f"{path} is not a run folder: no manifest.json")
    tables: dict[str, list[Path]] = {}
    manifest = store.read_manifest(path)  # RunFolderError is a CanastaError
    for name in ("hands", "games", "decisions"):
        tables[name] = store.shard_files(path, name)  # footers checked against the markers
    if not tables["hands"]:
        raise CanastaError(f"{path} has no completed chunks yet (no hands shards)")
    run = Run(path, manifest if isinstance(manifest, dict) else {"manifest": manifest}, tables)
    run.unfinished = store.unfinished_note(path, manifest)
    # every chunk writes all three shards; a table with 0 rows counts as absent
    import pyarrow.parquet as pq

    with store.readable_shards(path):
        for name in ("games", "decisions"):
            if tables[name] and sum(pq.ParquetFile(f).metadata.num_rows for f in tables[name]) == 0:
                tables[name] = []
    return run


def n_teams_of(hands: pd.DataFrame) -> int:
    return sum(1 for c in hands.columns if c.startswith("score_t"))


def players_of(hands: pd.DataFrame) -> int:
    return sum(1 for c in hands.columns if c.startswith("strategy_s"))


def team_of_seat(run: Run, hands: pd.DataFrame) -> list[int]:
    nt, p = n_teams_of(hands), players_of(hands)
    t = run.manifest.get("team_of_seat")
    if isinstance(t, list) and len(t) >= p:
        return [int(x) for x in t[:p]]
    return [s % nt for s in range(p)]


def team_strategy(hands: pd.DataFrame, tos: list[int], team: int) -> pd.Series:
    seats = [s for s, t in enumerate(tos) if t == team]
    lab = hands[f"strategy_s{seats[0]}"].astype(str)
    for s in seats[1:]:
        other = hands[f"strategy_s{s}"].astype(str)
        lab = lab.where(lab == other, lab + "+" + other)
    return lab


def lineup(hands: pd.DataFrame, tos: list[int]) -> pd.Series:
    """'teamA vs teamB' label of each hand."""
    nt = max(tos) + 1
    labs = [team_strategy(hands, tos, t) for t in range(nt)]
    out = labs[0]
    for x in labs[1:]:
        out = out + " vs " + x
    return out


TEAM_FIELDS = (
    "score",
    "meld_points",
    "canasta_bonus",
    "red3_points",
    "go_out_bonus",
    "hand_penalty",
    "canastas",
    "natural_canastas",
    "red3",
    "opened",
    "pile_takes",
    "cum_before",
)


def team_long(run: Run, hands: pd.DataFrame | None = None) -> pd.DataFrame:
    """One row per (hand, team): key, rules, team, strategy, the team fields, went_out,
    concealed (this team went out concealed), end_reason, turns, opp_score, diff."""
    h = run.hands if hands is None else hands
    tos = team_of_seat(run, h)
    nt = n_teams_of(h)
    parts = []
    for t in range(nt):
        d = pd.DataFrame({k: h[k] for k in KEY if k in h})
        d["rules"] = h["rules"].astype(str) if "rules" in h else "?"
        d["team"] = t
        d["strategy"] = team_strategy(h, tos, t).to_numpy()
        for f in TEAM_FIELDS:
            c = f"{f}_t{t}"
            if c in h:
                d[f] = h[c].to_numpy()
        d["went_out"] = (h["went_out_team"].to_numpy() == t).astype(np.int8)
        d["concealed"] = (d["went_out"].to_numpy() & (h["concealed"].to_numpy() == 1)).astype(
            np.int8
        )
        d["end_reason"] = h["end_reason"].to_numpy()
        d["turns"] = h["turns"].to_numpy()
        others = [h[f"score_t{u}"].to_numpy() for u in range(nt) if u != t]
        d["opp_score"] = np.max(np.vstack(others), axis=0) if others else 0
        d["diff"] = d["score"] - d["opp_score"]
        parts.append(d)
    return pd.concat(parts, ignore_index=True)


def decisions_with_strategy(run: Run, columns: list[str] | None = None) -> pd.DataFrame | None:
    """The decisions table with a ``strategy`` column (strategy of the deciding seat)."""
    dec = run.read("decisions", columns)
    if dec is None:
        return None
    h = run.read("hands", KEY + [c for c in run.columns("hands") if c.startswith("strategy_s")])
    p = players_of(h)
    m = dec.merge(h, on=KEY, how="left")
    seat = m["seat"].to_numpy().astype(int)
    strat = np.full(len(m), "?", dtype=object)
    for s in range(p):
        sel = seat == s
        strat[sel] = m.loc[sel, f"strategy_s{s}"].astype(str).to_numpy()
    dec = dec.copy()
    dec["strategy"] = strat
    return dec
