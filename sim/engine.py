"""Python face of the core: validate inputs, own the buffers, call the kernels, explain errors."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from sim.enums import (
    MAX_SEATS,
    decision_record_dt,
    game_record_dt,
    hand_record_dt,
)
from sim.legal import WHY_TEXT
from sim.loop import BUFFER, ILLEGAL, INVARIANT, OK, play_chunk_nb
from sim.rules import RuleSet
from strategies.registry import MAX_KNOBS, STRATEGY_NAMES, parse_spec

CHECK_TEXT = {
    1: "a card is missing or counted twice (card accounting)",
    2: "the pile's kind counts do not match its cards",
    3: "the frozen state or top card does not match the pile",
    4: "a hand size does not match the hand's cards (or a red three stayed in a hand)",
    5: "a hand reached zero cards without going out",
    6: "an illegal meld is on the table",
    7: "a team has melds without having made its initial meld",
    8: "the score breakdown does not add up",
    9: "the melded points do not match the cards on the table",
    10: "the player to act has no legal action (dead end)",
    11: "a hand's suited card counts do not match its kind counts",
    12: "an illegal sequence is on the table",
}


class EngineError(RuntimeError):
    """A strategy broke the rules or an invariant failed: one line with the hand's key."""


@dataclass
class ChunkResult:
    hands: np.ndarray
    decisions: np.ndarray
    games: np.ndarray = field(default_factory=lambda: np.zeros(0, game_record_dt))

    def to_frames(self, rules: RuleSet, strategies: tuple[str, ...]) -> dict[str, pd.DataFrame]:
        from sim.store import conform_frames, records_to_frames

        frames = records_to_frames(self.hands, self.decisions, self.games, rules, strategies)
        return conform_frames(frames, int(rules.n_teams))


def _rotation_tables(rules: RuleSet) -> tuple[np.ndarray, np.ndarray]:
    n_rot = 3 if rules.players == 5 else 1
    params = np.stack([rules.to_params(h) for h in range(n_rot)]).astype(np.int32)
    seats = np.full((n_rot, MAX_SEATS), -1, np.int64)
    for h in range(n_rot):
        active = rules.active_seats(h)
        seats[h, : len(active)] = active
    return params, seats


def strategy_tables(rules: RuleSet, strategies: tuple[str, ...] | list[str]) -> tuple[np.ndarray, np.ndarray]:
    if len(strategies) != rules.players:
        raise ValueError(f"{len(strategies)} strategies given for {rules.players} seats; give one per seat")
    ids = np.zeros(MAX_SEATS, np.int64)
    knobs = np.zeros((MAX_SEATS, MAX_KNOBS), np.float64)
    for s, spec in enumerate(strategies):
        ids[s], knobs[s] = parse_spec(spec)
    return ids, knobs


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
) -> ChunkResult:
    """Play `count` hands or games keyed (seed, start + i, hand); see docs/DATA.md.

    reuse_buffers: write the decision rows into this process's reusable buffer instead of a
    new one (fresh memory costs a page fault per 4 KB, about 2 us per fully logged hand).  The
    result's `decisions` is then a view of that buffer, valid until the next call with
    reuse_buffers=True in this process: for callers that consume each result at once (the
    runner encodes it to parquet before playing the next chunk)."""
    engine_check(rules)
    if mode not in ("hands", "games"):
        raise ValueError(f"mode={mode!r}: use 'hands' or 'games'")
    if seed < 0 or start < 0 or count < 0:
        raise ValueError("seed, start and count must be non-negative integers")
    if not 0.0 <= log_rate <= 1.0:
        raise ValueError(f"log rate {log_rate} is outside [0, 1]")
    params_rot, seat_tables = _rotation_tables(rules)
    ids, knobs = strategy_tables(rules, tuple(strategies))
    games_mode = 1 if mode == "games" else 0
    hands_cap = count * (8 if games_mode else 1) + 1
    reserve = 4096
    # rows per logged hand: ~85 for good strategies, ~145 for random; too small a guess only costs
    # a rerun of the chunk (status BUFFER), never a different result
    dec_cap = int(count * log_rate * 120 * (8 if games_mode else 1)) + reserve + 16 if log_rate > 0 else 1
    while True:
        hand_out = np.zeros(hands_cap, hand_record_dt)
        game_out = np.zeros(count + 1, game_record_dt)
        dec_out = _decision_buffer(dec_cap, reuse_buffers)  # every used row is written in full
        status = np.zeros(16, np.int64)
        done, n_h, n_g, n_d = play_chunk_nb(
            params_rot, seat_tables, ids, knobs, seed, start, count, games_mode,
            float(log_rate), bool(check), hand_out, game_out, dec_out, reserve if log_rate > 0 else 0, status,
        )
        if status[0] == BUFFER:
            if n_h >= hands_cap:
                hands_cap *= 2
            else:
                dec_cap *= 2
            continue
        break
    if status[0] == ILLEGAL:
        seat_table = seat_tables[int(status[5]) % seat_tables.shape[0]][int(status[1])]
        name = STRATEGY_NAMES[int(status[6])]
        raise EngineError(
            f"strategy {name!r} (seat {seat_table}) chose an illegal action {action_text_safe(int(status[2]))}: "
            f"{WHY_TEXT[int(status[3])]}; replay with key seed={seed} game={int(status[4])} hand={int(status[5])}"
        )
    if status[0] == INVARIANT:
        raise EngineError(
            f"invariant broken: {CHECK_TEXT.get(int(status[1]), 'unknown check')} at seed={seed} "
            f"game={int(status[2])} hand={int(status[3])} turn={int(status[4])}"
        )
    assert status[0] == OK and done == count
    # the decision rows stay a view of their buffer: copying them cost as much as writing them
    # (the buffer over-allocates by at most ~50% for a good strategy; see dec_cap)
    return ChunkResult(hand_out[:n_h].copy(), dec_out[:n_d], game_out[:n_g].copy())


_REUSABLE: dict[str, np.ndarray] = {}


def _decision_buffer(rows: int, reuse: bool) -> np.ndarray:
    if not reuse:
        return np.empty(rows, decision_record_dt)
    buf = _REUSABLE.get("decisions")
    if buf is None or len(buf) < rows:
        buf = np.empty(rows, decision_record_dt)
        _REUSABLE["decisions"] = buf
    return buf[:rows]


def action_text_safe(action: int) -> str:
    try:
        from sim.actions import action_text

        return repr(action_text(action))
    except Exception:  # noqa: BLE001 - only for the message
        return str(action)

