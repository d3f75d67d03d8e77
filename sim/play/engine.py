"""Python face of the core: validate inputs, own the buffers, call the kernels, explain errors."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from sim.core.enums import (
    DEC_CARD_FIELDS,
    DEC_GROUPS,
    MAX_SEATS,
    MAX_TEAMS,
    N_CARD_CLASSIC,
    decision_record_dt,
    game_record_dt,
    hand_record_dt,
)
from sim.core.legal import WHY_TEXT
from sim.core.rules import RuleSet
from sim.play.search.loop import CFG_SIZE, new_agent
from sim.play.search.spec import base_arrays, is_search, parse_search
from sim.play.selfplay.loop import play_chunk_nb
from sim.play.selfplay.status import CHECK_TEXT, Broken, Illegal, Slot, Status, action_text_safe
from strategies.registry import MAX_KNOBS, STRATEGY_NAMES, parse_spec


def explain_status(status: np.ndarray, seed: int, seat_tables: np.ndarray) -> str | None:
    """The one-line message of a kernel's status array (sim/play/selfplay/status.py), None when it
    finished: an illegal action names the strategy, table seat, action, reason and hand key; a
    broken invariant names the check and where."""
    s = [int(v) for v in status]
    if s[Slot.CODE] == Status.ILLEGAL:
        seat_table = seat_tables[s[Illegal.HAND] % seat_tables.shape[0]][s[Illegal.SEAT]]
        name = STRATEGY_NAMES[s[Illegal.STRATEGY]]
        return (
            f"strategy {name!r} (seat {seat_table}) chose an illegal action "
            f"{action_text_safe(s[Illegal.ACTION])}: "
            f"{WHY_TEXT[s[Illegal.WHY]]}; replay with key seed={seed} game={s[Illegal.GAME]} "
            f"hand={s[Illegal.HAND]}"
        )
    if s[Slot.CODE] == Status.INVARIANT:
        return (
            f"invariant broken: {CHECK_TEXT.get(s[Broken.CHECK], 'unknown check')} at seed={seed} "
            f"game={s[Broken.GAME]} hand={s[Broken.HAND]} turn={s[Broken.TURN]}"
        )
    return None


class EngineError(RuntimeError):
    """A strategy broke the rules or an invariant failed: one line with the hand's key."""


class ChunkResult:
    """The records of one chunk: `hands` (hand_record_dt), `decisions` (decision_record_dt) and
    `games` (game_record_dt).  The engine logs decisions column-wise: `decision_columns` maps
    each decision field to its (contiguous) column, and `decisions` assembles the records from
    them on first use."""

    def __init__(
        self,
        hands: np.ndarray,
        decisions: np.ndarray | None = None,
        games: np.ndarray | None = None,
        decision_columns: dict[str, np.ndarray] | None = None,
    ) -> None:
        self.hands = hands
        self.games = games if games is not None else np.zeros(0, game_record_dt)
        self._decisions = decisions
        self.decision_columns = decision_columns
        if decisions is None and decision_columns is None:
            self._decisions = np.zeros(0, decision_record_dt)

    @property
    def decisions(self) -> np.ndarray:
        if self._decisions is None:
            cols = self.decision_columns
            assert cols is not None  # __init__ sets records or columns
            rows = np.empty(len(cols["seed"]), decision_record_dt)
            for name in decision_record_dt.names or ():
                rows[name] = cols[name]
            self._decisions = rows
        return self._decisions


def _rotation_tables(rules: RuleSet) -> tuple[np.ndarray, np.ndarray]:
    n_rot = 3 if rules.players == 5 else 1
    params = np.stack([rules.to_params(h) for h in range(n_rot)]).astype(np.int32)
    seats = np.full((n_rot, MAX_SEATS), -1, np.int64)
    for h in range(n_rot):
        active = rules.active_seats(h)
        seats[h, : len(active)] = active
    return params, seats


def strategy_tables(
    rules: RuleSet, strategies: tuple[str, ...] | list[str]
) -> tuple[np.ndarray, np.ndarray]:
    ids, knobs, _ = strategy_tables_search(rules, strategies)
    return ids, knobs


def strategy_tables_search(
    rules: RuleSet, strategies: tuple[str, ...] | list[str]
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per table seat: strategy id, knobs and search configuration (sim.play.search.loop.Cfg;
    all zero for a plain strategy).  A search player's id and knobs are its base strategy's."""
    if len(strategies) != rules.players:
        raise ValueError(
            f"{len(strategies)} strategies given for {rules.players} seats; give one per seat"
        )
    ids = np.zeros(MAX_SEATS, np.int64)
    knobs = np.zeros((MAX_SEATS, MAX_KNOBS), np.float64)
    cfg = np.zeros((MAX_SEATS, CFG_SIZE), np.float64)
    for s, spec in enumerate(strategies):
        if is_search(spec):
            sp = parse_search(spec)
            ids[s], knobs[s] = base_arrays(sp, rules.label)  # the base plays its table's tuned set
            cfg[s] = sp.cfg()
        else:
            ids[s], knobs[s] = parse_spec(
                spec, rules.label
            )  # a strategy tuned per table plays its table's set
    return ids, knobs, cfg


def engine_check(rules: RuleSet) -> None:
    reason = rules.engine_supported()
    if reason:
        raise ValueError(reason)


def run_chunk(
    rules: RuleSet,
    strategies: tuple[str, ...] | list[str],
    seed: int,
    start: int,
    count: int,
    mode: str = "hands",
    log_rate: float = 0.0,
    check: bool = False,
    reuse_buffers: bool = False,
    start_scores: npt.ArrayLike | None = None,
    luck: bool = False,
    log_detail: str = "basic",
) -> ChunkResult:
    """Play `count` hands or games keyed (seed, start + i, hand); see docs/DATA.md.

    reuse_buffers: write the decision rows and the hand records into this process's reusable
    buffers instead of new ones (fresh memory costs a page fault per 4 KB, about 2 us per fully
    logged hand; a hand record is 1,632 bytes).  The result's `decisions` and `hands` are then
    views of those buffers, valid until the next call with reuse_buffers=True in this process:
    for callers that consume each result at once (the runner encodes it to parquet before
    playing the next chunk).

    start_scores: the teams' cumulative scores before the first hand of each game (hands mode:
    before each hand), int array [n_teams] for every unit or [count, n_teams] for unit i =
    key start + i; None = 0 for every team.  They set the hand's initial-meld minimums and
    the games' running totals (`games.final` includes them).

    log_detail: "basic" (the decision columns of `DECISION_COLUMNS`) or "cards" (also those of
    `CARD_COLUMNS` but `strategy`, which the store adds, and under rules with sequences
    `SUIT_COLUMNS`; docs/DATA.md).

    luck: record each hand's chance terms in `hands["luck"]` (sim/core/luck.py; for the
    luck-adjusted estimates of reports/luck.py); the other fields are the same either way."""
    engine_check(rules)
    if log_detail not in LOG_DETAILS:
        raise ValueError(f"log_detail={log_detail!r}: use one of {', '.join(LOG_DETAILS)}")
    cards = log_detail == "cards"
    card_fields = card_fields_for(rules) if cards else ()
    if mode not in ("hands", "games"):
        raise ValueError(f"mode={mode!r}: use 'hands' or 'games'")
    if seed < 0 or start < 0 or count < 0:
        raise ValueError("seed, start and count must be non-negative integers")
    if not 0.0 <= log_rate <= 1.0:
        raise ValueError(f"log rate {log_rate} is outside [0, 1]")
    if any(str(x).startswith("openspiel-") for x in strategies):
        return _run_openspiel_chunk(rules, tuple(strategies), seed, start, count, mode, log_rate)
    # check=None (not False), log_rate=None (not 0) compile a loop without the invariant checks,
    # without the decision logging (sim/play/selfplay/loop.py, play_chunk_nb)
    params_rot, seat_tables = _rotation_tables(rules)
    ids, knobs, cfg = strategy_tables_search(rules, tuple(strategies))
    search = bool(cfg[:, 0].any())
    start_cum = _start_scores(start_scores, rules.n_teams, count)
    games_mode = 1 if mode == "games" else 0
    hands_cap = count * (8 if games_mode else 1) + 1
    reserve = 4096
    # rows per logged hand: ~85 for good strategies, ~145 for random; too small a guess only costs
    # a rerun of the chunk (status BUFFER), never a different result
    dec_cap = (
        int(count * log_rate * 120 * (8 if games_mode else 1)) + reserve + 16 if log_rate > 0 else 1
    )
    while True:
        hand_out = _hand_records(hands_cap, reuse_buffers, bool(luck))
        game_out = np.zeros(count + 1, game_record_dt)
        d8, d16, d32, d64, dc = _decision_columns(
            dec_cap, reuse_buffers, len(card_fields)
        )  # used rows are written in full
        status = np.zeros(Slot.SIZE, np.int64)
        # search players: their context keeps their knowledge and scratch (sim.play.search.loop)
        agent = new_agent(cfg) if search else None
        done, n_h, n_g, n_d = play_chunk_nb(
            params_rot,
            seat_tables,
            ids,
            knobs,
            seed,
            start,
            count,
            games_mode,
            float(log_rate) if log_rate > 0 else None,
            True if check else None,
            hand_out,
            game_out,
            d8,
            d16,
            d32,
            d64,
            reserve if log_rate > 0 else 0,
            status,
            start_cum,
            cards,
            dc,
            bool(luck),
            agent,
        )
        if status[Slot.CODE] == Status.BUFFER:
            if n_h >= hands_cap:
                hands_cap *= 2
            else:
                dec_cap *= 2
            continue
        break
    problem = explain_status(status, seed, seat_tables)
    if problem:
        raise EngineError(problem)
    assert status[Slot.CODE] == Status.OK and done == count
    # the decision columns stay views of their buffers: copying them cost as much as writing
    # them (the buffers over-allocate by at most ~50% for a good strategy; see dec_cap)
    columns = {}
    for (names, _), arr in zip(DEC_GROUPS, (d8, d16, d32, d64), strict=True):
        for j, name in enumerate(names):
            columns[name] = arr[j, :n_d]
    for j, name in enumerate(card_fields):
        columns[name] = dc[j, :n_d]
    # a reused buffer stays a view (see reuse_buffers); a fresh one is copied only when the
    # kernel filled much less of it than it holds (games mode reserves 8 hands a game)
    hands = hand_out[:n_h] if reuse_buffers or 2 * n_h >= hands_cap else hand_out[:n_h].copy()
    return ChunkResult(hands, None, game_out[:n_g].copy(), columns)


LOG_DETAILS = ("basic", "cards")


def _start_scores(scores: npt.ArrayLike | None, n_teams: int, count: int) -> np.ndarray:
    """int32[count or 1, MAX_TEAMS] for the kernel, or ValueError naming the expected shape."""
    out = np.zeros((1, MAX_TEAMS), np.int32)
    if scores is None:
        return out
    arr = np.asarray(scores)
    if arr.ndim == 1:
        arr = arr[None, :]
    if (
        arr.ndim != 2
        or arr.shape[1] != n_teams
        or arr.shape[0] not in (1, count)
        or arr.dtype.kind not in "iu"
    ):
        raise ValueError(
            f"start_scores: give integers of shape ({n_teams},) or ({count}, {n_teams}), "
            f"got {arr.dtype} {arr.shape}"
        )
    if np.abs(arr).max(initial=0) >= 1 << 30:
        raise ValueError("start_scores: scores must lie within +-2**30")
    out = np.zeros((arr.shape[0], MAX_TEAMS), np.int32)
    out[:, :n_teams] = arr
    return out


def _run_openspiel_chunk(
    rules: RuleSet,
    strategies: tuple[str, ...],
    seed: int,
    start: int,
    count: int,
    mode: str,
    log_rate: float,
) -> ChunkResult:
    """Tables with an OpenSpiel bot: the Python loop of sim.play.openspiel.pyloop (optional
    extra)."""
    if mode != "hands" or log_rate > 0:
        raise ValueError(
            "OpenSpiel bots play in hands mode without decision logs (no --games, no "
            "--log-decisions)"
        )
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        from sim.play.openspiel.bot import OPENSPIEL_MISSING

        raise ValueError(OPENSPIEL_MISSING) from None
    from sim.play.openspiel.pyloop import run_python_chunk

    return ChunkResult(run_python_chunk(rules, strategies, seed, start, count))


def card_fields_for(rules: RuleSet) -> tuple[str, ...]:
    """The card columns the kernel writes under these rules (the suits only with sequences)."""
    return DEC_CARD_FIELDS if rules.sequences else DEC_CARD_FIELDS[:N_CARD_CLASSIC]


_REUSABLE: dict[tuple[str, int], tuple[np.ndarray, ...]] = {}


def _hand_records(rows: int, reuse: bool, luck: bool) -> np.ndarray:
    """hand_record_dt[>= rows], zeros where the kernel does not write (the kernel writes every
    field of a record but `luck`, which it writes only with luck on): with `reuse`, this
    process's buffer for runs with (or without) luck, so no fresh memory is zeroed and faulted
    in per chunk (1,632 bytes a hand)."""
    if not reuse:
        return np.zeros(rows, hand_record_dt)
    key = ("hands", int(luck))
    buf = _REUSABLE.get(key)
    if buf is None or buf[0].shape[0] < rows:
        buf = (np.zeros(rows, hand_record_dt),)
        _REUSABLE[key] = buf
    return buf[0]


def _decision_columns(rows: int, reuse: bool, n_card: int) -> tuple[np.ndarray, ...]:
    """int8/16/32/64 arrays [n_fields, rows] for the kernels' decision columns, and the int8
    card columns [n_card, rows] (a 1 x 1 dummy when n_card is 0: basic detail)."""
    key = ("decisions", n_card)
    if reuse:
        bufs = _REUSABLE.get(key)
        if bufs is not None and bufs[0].shape[1] >= rows:
            return bufs
    bufs = tuple(np.empty((len(names), rows), dtype) for names, dtype in DEC_GROUPS)
    bufs += (np.empty((n_card, rows) if n_card else (1, 1), np.int8),)
    if reuse:
        _REUSABLE[key] = bufs
    return bufs
