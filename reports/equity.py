"""Game equity: P(a team wins the game | its cumulative score, the opponents' cumulative score).

Like backgammon's match equity tables, the table turns a hand's result into a game-winning
chance.  `equity_table` estimates it by whole-game simulations started at the scores of a grid
(`sim.play.engine.run_chunk(mode="games", start_scores=...)`); `Equity` (from `load_equity` or
`Equity(table_frame)`) looks it up: `p_win(us, them)` before a hand, `after_hand(...)` once a
hand's scores are known (a game the hand ends is won, lost or tied outright).

    from sim.core.rules import RuleSet
    from reports.equity import equity_table, Equity
    df = equity_table(RuleSet.preset("classic"), ["expert"] * 4, step=1000, games=200, seed=1)
    Equity(df).after_hand(2000, 3000, 450, -80)     # P(win) after a hand of +450 / -80

Design (docs: README "Decision analysis"):
- Cell (us, them), us and them on the grid low, low+step, ... < the game target.  Game i of
  every cell has the key (seed, i) (common random numbers across the cells: neighbouring cells
  are positively correlated, which makes the surface smooth and differences tight, and their
  errors move together: a whole table can sit a few points off while each cell's interval is
  right, `CORRELATION_NOTE`); in game i the team ``(i // n_active) % n_teams`` starts at ``us``
  and every other team at ``them`` (`us_team`: game i's first dealer is seat ``i % n_active``,
  so every n_active * n_teams games give each team the row's score once under each dealer; with
  one strategy everywhere p(a, a) = 1/2 and, for two teams, p(a, b) + p(b, a) = 1 in
  expectation).
- A game is won by the team with the highest final score; a tie among the leaders gives each
  of them an equal share (so the P(win) of all teams add up to 1).  Games capped by the rules'
  max_hands are decided by the same rule.
- Rows: ``team`` = the team whose chance is counted (its share of the cell's games), and
  ``team = -1`` pooling every team (all games of the cell).  Read the pooled rows when every
  seat plays the same strategy, the team's rows otherwise (`Equity(..., team=t)`).
- 95% intervals: Wilson on games (one value per game).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from sim.core import limits
from sim.core.errors import CanastaError, check_int
from sim.runs.progress import new_bar, on_terminal

__all__ = [
    "EquityError",
    "check_fits",
    "equity_table",
    "Equity",
    "load_equity",
    "save_equity",
    "format_table",
    "heatmap",
    "run_equity",
    "us_team",
    "wilson",
    "CORRELATION_NOTE",
    "MIN_GAMES",
    "EQUITY_COLUMNS",
    "DEFAULT_GAMES",
    "DEFAULT_STEP",
]

DEFAULT_STEP = 250
DEFAULT_GAMES = 400
MIN_GAMES = 10  # a cell of fewer games is left out of the heatmap (hatched) and marked in tables
CORRELATION_NOTE = (
    "Every cell plays the same game keys (game i of each cell is dealt from key (seed, i)), so "
    "the cells' errors move together: a whole table, or its diagonal, can sit a few points off "
    "at once while each cell's 95% interval is right. Read each cell against its own interval; "
    "neighbouring cells that agree are not independent evidence."
)


class EquityError(CanastaError):
    """A setting or a file that cannot make or be an equity table (one line saying why)."""


def _checked(name: str, value, bounds: tuple[int, int]) -> int:
    try:
        return check_int(name, value, *bounds)
    except CanastaError as exc:
        raise EquityError(str(exc)) from None


CHUNK_GAMES = 200  # games per task (a task plays one cell's games [i0, i0 + CHUNK_GAMES))
EQUITY_COLUMNS = ("team", "us", "them", "games", "wins", "p_win", "ci_low", "ci_high")
Z95 = 1.959963984540054


def wilson(wins: np.ndarray, n: np.ndarray, z: float = Z95) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score interval for wins out of n (wins may hold halves for ties)."""
    wins = np.asarray(wins, float)
    n = np.asarray(n, float)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = np.where(n > 0, wins / n, np.nan)
        den = 1 + z * z / n
        centre = (p + z * z / (2 * n)) / den
        half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return np.clip(centre - half, 0, 1), np.clip(centre + half, 0, 1)


def grid(rules, step: int, low: int = 0) -> np.ndarray:
    """The grid's scores low, low+step, ... below the game target (at most limits.EQUITY_POINTS)."""
    step = _checked("step", step, limits.EQUITY_STEP)
    low = _checked("low", low, limits.CUM_SCORE)
    if low >= rules.game_target:
        raise EquityError(f"--low {low}: must be below the game target {rules.game_target}")
    n = -(-(rules.game_target - low) // step)
    if n > limits.EQUITY_POINTS:
        raise EquityError(
            f"--step {step} from --low {low} makes {n:,} grid points per axis; at most "
            f"{limits.EQUITY_POINTS} (give a step >= "
            f"{-(-(rules.game_target - low) // limits.EQUITY_POINTS)})"
        )
    return np.arange(low, rules.game_target, step, dtype=np.int64)


def _shares(final: np.ndarray, n_teams: int) -> np.ndarray:
    """[games, n_teams] share of the win of each team (ties split)."""
    f = final[:, :n_teams]
    best = f.max(axis=1, keepdims=True)
    lead = (f == best).astype(float)
    return lead / lead.sum(axis=1, keepdims=True)


def us_team(games: np.ndarray, n_active: int, n_teams: int) -> np.ndarray:
    """The team that starts at the row's score in game ``games`` of a cell (module docstring)."""
    return (np.asarray(games) // n_active) % n_teams


def _task(
    rules,
    strategies: tuple[str, ...],
    seed: int,
    cell: int,
    us: int,
    them: int,
    start: int,
    count: int,
) -> tuple[int, int, np.ndarray, np.ndarray]:
    """Games start .. start+count-1 of one cell: (cell, start, wins per team in sixths of a game
    (a tie of two or three teams shares the win: 1/2 and 1/3 are whole sixths, so sums are exact
    in any order), games per team)."""
    from sim.play.engine import run_chunk

    nt = rules.n_teams
    keys = np.arange(start, start + count)
    scores = np.full((count, nt), them, np.int64)
    scores[np.arange(count), us_team(keys, rules.n_active, nt)] = us
    res = run_chunk(rules, strategies, seed, start, count, mode="games", start_scores=scores)
    g = res.games
    order = np.argsort(g["game"])
    g = g[order]
    share = _shares(g["final"], nt)
    row = us_team(g["game"], rules.n_active, nt)  # the team at the row's score, per game
    sixths = np.rint(6 * share[np.arange(len(g)), row])
    wins6 = np.bincount(row, weights=sixths, minlength=nt).astype(np.int64)
    games = np.bincount(row, minlength=nt).astype(np.int64)
    return cell, start, wins6, games


def equity_table(
    rules,
    strategies: Sequence[str],
    step: int = DEFAULT_STEP,
    games: int = DEFAULT_GAMES,
    seed: int = 0,
    jobs: int = 1,
    low: int = 0,
    progress: bool | None = None,
    checkpoint=None,
) -> pd.DataFrame:
    """P(win the game | us, them) over the grid (columns `EQUITY_COLUMNS`; see the module
    docstring).  ``strategies``: one spec per seat.  The result depends on (rules, strategies,
    step, low, games, seed) only, never on ``jobs``.  ``checkpoint``: a
    sim.runs.checkpoint.Checkpoint that keeps every finished task (a cell's 200 games) and
    supplies those it already holds (``canasta equity --resume``).  Raises EquityError."""
    from joblib import delayed

    from sim.core.rules import RuleSet
    from sim.play.engine import engine_check, strategy_tables
    from sim.play.specs import check_specs
    from sim.runs.checkpoint import NoCheckpoint
    from sim.runs.workers import parallel

    if not isinstance(rules, RuleSet):
        raise EquityError(f"rules={rules!r}: give a RuleSet, e.g. RuleSet.preset('classic')")
    if isinstance(strategies, str) or not isinstance(strategies, Sequence):
        raise EquityError(
            f"strategies={strategies!r}: give one spec per seat, e.g. ['expert'] * {rules.players}"
        )
    strategies = tuple(strategies)
    if len(strategies) != rules.players or not all(isinstance(x, str) for x in strategies):
        raise EquityError(
            f"strategies: {len(strategies)} given for {rules.players} seats; give one per seat"
        )
    try:
        engine_check(rules)
        check_specs(strategies, "strategies")
        strategy_tables(rules, strategies)  # one clear error for bad specs before any work
    except EquityError:
        raise
    except (CanastaError, ValueError) as exc:
        raise EquityError(" ".join(str(exc).split())) from None
    games = _checked("games", games, limits.EQUITY_GAMES)
    seed = _checked("seed", seed, limits.SEED)
    jobs = _checked("jobs", jobs, limits.JOBS)
    if jobs == 0:
        raise EquityError("jobs=0: give a number of workers >= 1 (or -1 for all cores)")
    pts = grid(rules, step, low)
    nt = rules.n_teams
    cells = [(a, b) for a in pts for b in pts]
    ckpt = checkpoint if checkpoint is not None else NoCheckpoint()
    tasks = (
        (
            c,
            int(a),
            int(b),
            s,
            min(CHUNK_GAMES, games - s),
        )  # made as workers ask: memory does not grow
        for c, (a, b) in enumerate(cells)
        for s in range(0, games, CHUNK_GAMES)
        if (c, s) not in ckpt
    )
    wins6 = np.zeros((len(cells), nt), np.int64)
    played = np.zeros((len(cells), nt), np.int64)
    for (c, _), (w, n) in ckpt.done.items():
        wins6[c] += w
        played[c] += n
    bar = new_bar(
        len(cells) * games,
        "game",
        on_terminal() if progress is None else progress,
        initial=int(played.sum()),
    )
    gen = parallel(jobs, return_as="generator_unordered", batch_size=1)(
        delayed(_task)(rules, strategies, seed, *t) for t in tasks
    )
    try:
        for c, s, w, n in gen:
            ckpt.put((c, s), (w, n))
            wins6[c] += w
            played[c] += n
            bar.update(int(n.sum()))
    finally:
        bar.close()
    rows = []
    for c, (a, b) in enumerate(cells):
        for t in range(nt):
            rows.append((t, a, b, played[c, t], wins6[c, t] / 6))
        rows.append((-1, a, b, played[c].sum(), wins6[c].sum() / 6))
    df = pd.DataFrame(rows, columns=["team", "us", "them", "games", "wins"])
    return _finish(
        df,
        {
            "rules": rules.label,
            "game_target": int(rules.game_target),
            "n_teams": nt,
            "strategies": list(strategies),
            "step": int(step),
            "low": int(low),
            "games_per_cell": int(games),
            "seed": int(seed),
        },
    )


def _finish(df: pd.DataFrame, meta: dict) -> pd.DataFrame:
    df = df.astype(
        {"team": "int8", "us": "int64", "them": "int64", "games": "int64", "wins": "float64"}
    )
    df["p_win"] = np.where(df["games"] > 0, df["wins"] / df["games"].clip(lower=1), np.nan)
    lo, hi = wilson(df["wins"].to_numpy(), df["games"].to_numpy())
    df["ci_low"] = lo
    df["ci_high"] = hi
    df.attrs["equity"] = meta
    return df.loc[:, list(EQUITY_COLUMNS)]


# ----------------------------------------------------------------------------- files


def save_equity(df: pd.DataFrame, path) -> Path:
    """Parquet with the table's settings in the schema metadata (key b"canasta_equity")."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    path = Path(path)
    if path.suffix.lower() != ".parquet":
        raise EquityError(f"-o {path}: the equity table is written as parquet; name it *.parquet")
    table = pa.Table.from_pandas(df, preserve_index=False)
    meta = dict(table.schema.metadata or {})
    meta[b"canasta_equity"] = json.dumps(df.attrs.get("equity", {})).encode()
    from sim.runs.outputs import atomic_files

    path.parent.mkdir(parents=True, exist_ok=True)
    with atomic_files(path) as (tmp,):
        pq.write_table(table.replace_schema_metadata(meta), tmp)
    return path


MAX_TABLE_BYTES = 200 * 2**20  # an equity table of 1000 x 1000 cells is about 60 MB


def load_equity(path, team: int | None = None) -> Equity:
    """An `Equity` lookup from a file written by `canasta equity -o`; EquityError (one line) if
    the file is missing, damaged or not an equity table."""
    import pyarrow.parquet as pq

    if not isinstance(path, str | Path) or not str(path).strip():
        raise EquityError(f"equity table {path!r}: give the path of a file from canasta equity -o")
    path = Path(path)
    if path.is_dir():
        raise EquityError(f"{path} is a folder; give an equity table file (canasta equity -o)")
    if not path.is_file():
        raise EquityError(
            f"{path}: no such equity table (make one with canasta equity -o {path.name})"
        )
    if path.stat().st_size > MAX_TABLE_BYTES:
        raise EquityError(
            f"{path}: {path.stat().st_size / 2**20:,.0f} MB is too large for an equity table "
            f"(at most {MAX_TABLE_BYTES // 2**20} MB)"
        )
    try:
        table = pq.read_table(path)
    except Exception as exc:
        raise EquityError(f"{path}: not a parquet file ({type(exc).__name__})") from None
    raw = (table.schema.metadata or {}).get(b"canasta_equity")
    if raw is None or set(EQUITY_COLUMNS) - set(table.column_names):
        raise EquityError(f"{path}: not an equity table (written by canasta equity -o)")
    try:
        meta = json.loads(raw)
    except ValueError:
        raise EquityError(f"{path}: not an equity table (its settings are not readable)") from None
    try:
        meta = _checked_meta(meta)
        # the columns as arrow typed them: never the pandas metadata, which may be damaged
        df = table.select(list(EQUITY_COLUMNS)).to_pandas(ignore_metadata=True)
        df = _checked_frame(df)
    except EquityError as exc:
        raise EquityError(f"{path}: {exc}") from None
    except Exception as exc:
        raise EquityError(f"{path}: a damaged equity table ({type(exc).__name__})") from None
    df.attrs["equity"] = meta
    return Equity(df, team=team)


def _checked_meta(meta) -> dict:
    """The table's settings: a mapping whose numbers are numbers (EquityError otherwise)."""
    if not isinstance(meta, dict):
        raise EquityError("its settings are not a mapping (not written by canasta equity -o)")
    for key in ("game_target", "n_teams", "step", "low", "games_per_cell", "seed"):
        v = meta.get(key)
        if v is not None and (isinstance(v, bool) or not isinstance(v, int)):
            raise EquityError(f"its setting {key}={v!r} is not a whole number")
    target = meta.get("game_target")
    if target is not None and not 0 < target <= limits.CUM_SCORE[1]:
        raise EquityError(f"its game target {target} is out of range 1 .. {limits.CUM_SCORE[1]:,}")
    if "rules" in meta and not isinstance(meta["rules"], str):
        raise EquityError(f"its rules {meta['rules']!r} are not a rule-set label")
    return meta


def _checked_frame(df: pd.DataFrame) -> pd.DataFrame:
    """The table's rows with numeric columns, P(win) within 0 .. 1, one row per cell."""
    for col in EQUITY_COLUMNS:
        if not pd.api.types.is_numeric_dtype(df[col]):
            raise EquityError(f"its column {col} is not numeric")
    p = df["p_win"].to_numpy(float)
    if not (((p >= 0) & (p <= 1)) | np.isnan(p)).all():
        raise EquityError("its P(win) values are outside 0 .. 1")
    if not np.isfinite(df[["us", "them", "games", "wins"]].to_numpy(float)).all():
        raise EquityError("its scores or counts are not finite")
    if df.duplicated(["team", "us", "them"]).any():
        raise EquityError("a cell appears twice")
    return df


def check_fits(equity: Equity, rules, what: str = "--equity") -> None:
    """Refuse an equity table made for another table than `rules`: its rule set (label), its
    game target or its number of teams (EquityError naming both)."""
    meta = equity.meta
    label = meta.get("rules")
    if isinstance(label, str) and label != rules.label:
        raise EquityError(
            f"{what}: the table was made for {label}, these rules are {rules.label}; make one "
            f"with canasta equity --rules {rules.name} --players {rules.players}"
        )
    target = meta.get("game_target")
    if target is not None and int(target) != int(rules.game_target):
        raise EquityError(
            f"{what}: made for game target {target}, these rules play to {rules.game_target}"
        )
    teams = meta.get("n_teams")
    if teams is not None and int(teams) != int(rules.n_teams):
        raise EquityError(f"{what}: made for {teams} teams, these rules have {rules.n_teams}")


# ----------------------------------------------------------------------------- lookup


class Equity:
    """P(win the game) from an equity table: bilinear interpolation on the grid, scores below
    the grid read as its lowest row / column, scores between the last grid point and the
    target as the last one.  ``team``: read that team's rows (default: the pooled rows)."""

    def __init__(self, df: pd.DataFrame, team: int | None = None) -> None:
        need = ("team", "us", "them", "p_win")
        if not isinstance(df, pd.DataFrame) or set(need) - set(df.columns):
            raise EquityError(
                "give an equity table: a DataFrame with columns " + ", ".join(EQUITY_COLUMNS)
            )
        if team is not None and (isinstance(team, bool) or not isinstance(team, int | np.integer)):
            raise EquityError(f"team={team!r}: give a team number (or None: the pooled rows)")
        meta = _checked_meta(df.attrs.get("equity", {}))
        self.meta = meta
        self.target = int(meta.get("game_target", 5000))
        sel = df[df["team"] == (-1 if team is None else team)]
        if sel.empty:
            raise EquityError(f"the equity table has no rows for team {team}")
        if sel.duplicated(["us", "them"]).any():
            raise EquityError("the equity table lists a cell twice")
        self.points = np.sort(sel["us"].unique()).astype(float)
        piv = sel.pivot(index="us", columns="them", values="p_win").reindex(
            index=self.points, columns=self.points
        )
        self.p = piv.to_numpy(float)
        if np.isnan(self.p).any():
            raise EquityError("the equity table has empty cells (games = 0)")
        if len(self.points) == 1:  # one grid point: a constant table
            self.points = np.array([self.points[0], self.points[0] + 1.0])
            self.p = np.repeat(np.repeat(self.p, 2, axis=0), 2, axis=1)

    def p_win(self, us, them) -> np.ndarray | float:
        """P(win) at the start of a hand with these cumulative scores (both < target)."""
        us, them = _points("us", us), _points("them", them)
        out = self._interp(us, them)
        return float(out) if out.ndim == 0 else out

    def after_hand(self, us, them, hand_us, hand_them) -> np.ndarray | float:
        """P(win) once a hand scored (hand_us, hand_them) at cumulative (us, them): a game that
        the hand ends is 1 (won), 0 (lost) or 0.5 (tied)."""
        a = _points("us", us) + _points("hand_us", hand_us)
        b = _points("them", them) + _points("hand_them", hand_them)
        over = np.maximum(a, b) >= self.target
        done = np.where(a > b, 1.0, np.where(a < b, 0.0, 0.5))
        out = np.where(
            over, done, self._interp(np.minimum(a, self.target - 1), np.minimum(b, self.target - 1))
        )
        return float(out) if out.ndim == 0 else out

    def of_totals(self, us_total, them_total) -> np.ndarray | float:
        """P(win) from the cumulative scores after a hand (the ``equity(us, them)`` hook of
        `reports.analyze.analyze`)."""
        return self.after_hand(us_total, them_total, 0, 0)

    def _interp(self, us: np.ndarray, them: np.ndarray) -> np.ndarray:
        x = self.points
        i, fi = _locate(x, us)
        j, fj = _locate(x, them)
        p = self.p
        return (
            (1 - fi) * (1 - fj) * p[i, j]
            + fi * (1 - fj) * p[i + 1, j]
            + (1 - fi) * fj * p[i, j + 1]
            + fi * fj * p[i + 1, j + 1]
        )


def _points(name: str, value) -> np.ndarray:
    """Scores as a float array; EquityError for text, None or non-finite values."""
    try:
        a = np.asarray(value, float)
    except (TypeError, ValueError):
        raise EquityError(
            f"{name}={value!r}: give scores (numbers or an array of numbers)"
        ) from None
    if not np.isfinite(a).all():
        raise EquityError(f"{name}: scores must be finite numbers (got nan or inf)")
    return a


def _locate(x: np.ndarray, v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Index i and fraction f with v = x[i] + f (x[i+1] - x[i]), clamped to the grid."""
    v = np.clip(v, x[0], x[-1])
    i = np.clip(np.searchsorted(x, v, side="right") - 1, 0, len(x) - 2)
    f = (v - x[i]) / (x[i + 1] - x[i])
    return i, f


# ----------------------------------------------------------------------------- output


def format_table(df: pd.DataFrame, team: int = -1, ci: bool = True, width: int = 100) -> str:
    """Aligned text: one row per own score, one column per opponents' score, cells two spaces
    apart; each cell P(win) in percent, with the 95% interval when ``ci`` ("52 [47, 57]"), a
    cell of fewer than `MIN_GAMES` games marked "*" (then a footnote), one without games "-".
    Columns that do not fit ``width`` characters go to further blocks, each with the row
    labels."""
    sel = df[df["team"] == team]
    pts = np.sort(sel["us"].unique())
    cols = np.sort(sel["them"].unique())
    cell = {}
    for r in sel.itertuples():
        few = "*" if r.games < MIN_GAMES else ""
        if not r.games:
            cell[(r.us, r.them)] = "-"
        elif ci:
            cell[(r.us, r.them)] = (
                f"{100 * r.p_win:.0f} [{100 * r.ci_low:.0f}, {100 * r.ci_high:.0f}]{few}"
            )
        else:
            cell[(r.us, r.them)] = f"{100 * r.p_win:.1f}{few}"
    w = max([len(v) for v in cell.values()] + [len(str(p)) for p in cols])
    corner = "us \\ them"
    label = max(len(corner), max(len(str(p)) for p in pts))
    per_block = max(1, (width - label) // (w + 2))
    blocks = []
    for b0 in range(0, len(cols), per_block):
        block = cols[b0 : b0 + per_block]
        lines = [f"{corner:>{label}}" + "".join(f"  {p:>{w}}" for p in block)]
        for a in pts:
            lines.append(
                f"{a:>{label}}" + "".join(f"  {cell.get((a, b), '-'):>{w}}" for b in block)
            )
        blocks.append("\n".join(lines))
    if (sel["games"] < MIN_GAMES).any():
        blocks.append(f"* fewer than {MIN_GAMES} games in the cell")
    return "\n\n".join(blocks)


def heatmap(
    df: pd.DataFrame,
    team: int = -1,
    title: str | None = None,
    ax=None,
    min_games: int = MIN_GAMES,
):
    """A heatmap of P(win) in percent (own score up, opponents' score across) in a colour-blind
    safe diverging map (ColorBrewer RdBu: blue wins, red loses, white 50%); each cell shows P,
    its 95% interval and its games; cells of fewer than ``min_games`` games are left out
    (hatched grey, their count shown).  Returns the figure."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import Rectangle

    sel = df[df["team"] == team]

    def pivot(col: str) -> pd.DataFrame:
        return sel.pivot(index="us", columns="them", values=col).sort_index().sort_index(axis=1)

    p, lo, hi, games = (pivot(c) for c in ("p_win", "ci_low", "ci_high", "games"))
    n_rows, n_cols = p.shape  # a table from a grid is square; one observed in a run may not be
    n = max(n_rows, n_cols)
    fig = None
    if ax is None:
        size = min(20.0, 3.0 + 0.8 * n)
        fig, ax = plt.subplots(figsize=(size + 1.6, size))
    g = games.to_numpy(float)
    few = ~(g >= min_games)  # NaN (no games) counts as few
    data = np.ma.masked_where(few | np.isnan(p.to_numpy(float)), 100 * p.to_numpy(float))
    cmap = matplotlib.colormaps["RdBu"].with_extremes(bad="#ececec")
    im = ax.imshow(data, origin="lower", cmap=cmap, vmin=0, vmax=100, aspect="auto")
    small = 7 if n > 12 else 8 if n > 8 else 9
    ax.set_xticks(range(n_cols), [str(v) for v in p.columns], rotation=90, fontsize=small)
    ax.set_yticks(range(n_rows), [str(v) for v in p.index], fontsize=small)
    note = "cells share game keys: their errors move together"
    if few.any():
        note += f"; hatched: fewer than {min_games} games, left out"
    ax.set_xlabel(f"opponents' cumulative score\n({note})")
    ax.set_ylabel("own cumulative score")
    for i in range(n_rows):
        for j in range(n_cols):
            if few[i, j]:
                ax.add_patch(
                    Rectangle((j - 0.5, i - 0.5), 1, 1, fill=False, hatch="///",
                              edgecolor="#b0b0b0", linewidth=0)
                )  # fmt: skip
                if n <= 24 and g[i, j] > 0:
                    ax.text(j, i, f"n={g[i, j]:.0f}", ha="center", va="center", fontsize=small - 1,
                            color="#555")  # fmt: skip
                continue
            if n > 24:
                continue
            v = 100 * float(p.iat[i, j])
            colour = "white" if abs(v - 50) > 30 else "black"
            ax.text(
                j, i,
                f"{v:.0f}\n[{100 * lo.iat[i, j]:.0f}, {100 * hi.iat[i, j]:.0f}]\nn={g[i, j]:.0f}",
                ha="center", va="center", fontsize=small - 1, color=colour, linespacing=1.1,
            )  # fmt: skip
    ax.set_title(title or "P(win the game) %", fontsize=10)
    (fig or ax.figure).colorbar(im, ax=ax, label="P(win the game) %", shrink=0.8)
    (fig or ax.figure).tight_layout()
    return fig or ax.figure


# ----------------------------------------------------------------------------- from a run


def run_equity(
    hands: pd.DataFrame, games: pd.DataFrame, n_teams: int, target: int, step: int = 500
) -> pd.DataFrame:
    """The equity table observed in a run of whole games: for each team and each hand start,
    the cell of (the team's cumulative score, the best opposing one) on a grid of ``step``
    points, and whether the team won the game (ties split).  A game counts at most once per
    (team, cell) — its first hand there — so the Wilson interval is on games."""
    key = ["seed", "game"]
    g = games.set_index(key)
    final = np.stack([g[f"final_t{t}"].to_numpy() for t in range(n_teams)], axis=1)
    share = pd.DataFrame(_shares(final, n_teams), index=g.index)
    h = hands.sort_values(key + ["hand"])
    rows = []
    cum = np.stack([h[f"cum_before_t{t}"].to_numpy() for t in range(n_teams)], axis=1)
    for t in range(n_teams):
        others = np.delete(cum, t, axis=1).max(axis=1) if n_teams > 1 else np.zeros(len(h))
        us = np.clip(cum[:, t] // step * step, 0, None)
        them = np.clip(others // step * step, 0, None)
        d = pd.DataFrame(
            {"seed": h["seed"].to_numpy(), "game": h["game"].to_numpy(), "us": us, "them": them}
        )
        d = d[(d["us"] < target) & (d["them"] < target)].drop_duplicates(key + ["us", "them"])
        d["win"] = share[t].reindex(pd.MultiIndex.from_frame(d[key])).to_numpy()
        d = d.dropna(subset=["win"])
        agg = (
            d.groupby(["us", "them"]).agg(games=("win", "size"), wins=("win", "sum")).reset_index()
        )
        agg.insert(0, "team", t)
        rows.append(agg)
    df = pd.concat(rows, ignore_index=True)
    return _finish(
        df,
        {
            "game_target": int(target),
            "n_teams": n_teams,
            "step": int(step),
            "low": 0,
            "source": "run",
        },
    )


def report_section(run) -> tuple[str, pd.DataFrame | None, object | None]:
    """For `canasta report`: (a note, the table to show or None, a figure or None).  Runs of
    whole games only (the games table); per team, P(win | own score, best opposing score at the
    start of a hand) observed in the run, on a grid of a tenth of the game target."""
    if not run.has("games"):
        return (
            "A run of whole games (canasta simulate --games N) shows here P(win the game | "
            "scores).",
            None,
            None,
        )
    m = run.manifest
    rules = m.get("rules")
    target = int(rules.get("game_target", 5000)) if isinstance(rules, dict) else 5000
    n_teams = int(m.get("n_teams") or sum(c.startswith("final_t") for c in run.columns("games")))
    step = max(1, target // 10)
    df = run_equity(run.hands, run.read("games"), n_teams, target, step)
    labels = m.get("team_strategies") or [f"team {t}" for t in range(n_teams)]
    shown = df[df["games"] > 0]
    cells = shown.assign(
        cell=[
            f"{100 * p:.0f} [{100 * lo:.0f}, {100 * hi:.0f}] n={n}"
            if n >= MIN_GAMES
            else f"(n={n})"
            for p, lo, hi, n in zip(
                shown["p_win"], shown["ci_low"], shown["ci_high"], shown["games"], strict=True
            )
        ]
    )
    show = cells.pivot(index=["team", "us"], columns="them", values="cell").fillna("").reset_index()
    show.columns = ["team", "own score"] + [f"vs {c}" for c in show.columns[2:]]
    show.insert(1, "strategy", [labels[t] if t < len(labels) else "" for t in show["team"]])
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, n_teams, figsize=(9.5 * n_teams, 8.5), squeeze=False)
    for t, ax in enumerate(axes[0]):
        heatmap(
            df[df["games"] > 0],
            team=t,
            title=f"team {t} ({labels[t] if t < len(labels) else ''})",
            ax=ax,
        )
    note = (
        "P(the team wins the game | its cumulative score, the best opposing score) at the start "
        f"of each hand, scores binned by {step} points (P in %, [95% Wilson interval on games], "
        "n games: a game counts once per team and cell; cells of fewer than "
        f"{MIN_GAMES} games show only their n and are left out of the heatmap). A game passes "
        "through several cells, so neighbouring cells share games and their errors move "
        "together. canasta equity computes the table from games started at each cell."
    )
    return note, show, fig
