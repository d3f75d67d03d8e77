"""A stand-in for ``sim.play.engine.run_chunk`` (same signature, same record dtypes).

Every number of a hand is a hash of its key (seed, game, hand) — the contract of the real core —
so results never depend on chunking or workers.  Vectorised numpy (SplitMix64), fast enough
to exercise the runner and the benchmark plumbing without the numba core.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.lib.recfunctions import repack_fields

from sim.core.enums import MAX_SEATS, MAX_TEAMS, decision_record_dt, game_record_dt, hand_record_dt

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)

STRATEGY_NAMES = ("random", "greedy", "expert", "cautious")
CALLS: list[tuple[int, int]] = []  # (start, count) of every call in this process (tests)


def _mix(x: np.ndarray) -> np.ndarray:
    z = np.asarray(x, dtype=np.uint64)
    with np.errstate(over="ignore"):
        z = (z ^ (z >> np.uint64(30))) * _M1
        z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


def _key(seed: int, game: np.ndarray, hand: np.ndarray, salt: int) -> np.ndarray:
    with np.errstate(over="ignore"):
        k = _mix(np.full(len(game), np.uint64(seed) + _GOLDEN, dtype=np.uint64))
        k = _mix(k ^ (game.astype(np.uint64) + _GOLDEN))
        k = _mix(k ^ (hand.astype(np.uint64) + _GOLDEN))
        k = _mix(k ^ (np.uint64(salt) + _GOLDEN))
    return k


def _uniform(h: np.ndarray) -> np.ndarray:
    return (h >> np.uint64(11)).astype(np.float64) * (1.0 / 9007199254740992.0)


def _randint(h: np.ndarray, lo: int, hi: int) -> np.ndarray:
    """Ints in [lo, hi)."""
    return lo + (h % np.uint64(hi - lo)).astype(np.int64)


@dataclass
class ChunkResult:
    hands: np.ndarray
    decisions: np.ndarray
    games: np.ndarray

    def to_frames(self, rules, strategies):
        from sim.runs.store import records_to_frames

        return records_to_frames(self.hands, self.decisions, self.games, rules, strategies)


def _team_of_seat(rules) -> np.ndarray:
    return np.asarray(rules.team_of_seat, dtype=np.int64)


def run_chunk(
    rules, strategies, seed, start, count, mode="hands", log_rate=0.0, check=False, **_options
):
    """Fake core: `count` hands (mode "hands") or whole games (mode "games") from game `start`
    (the core's options, reuse_buffers and the like, are taken and ignored: tests patch it in the
    core's place)."""
    CALLS.append((int(start), int(count)))
    if len(strategies) != rules.players:
        raise ValueError("one strategy per table seat")
    n_teams = int(rules.n_teams)
    n_active = 4 if rules.players == 5 else int(rules.players)
    tos = _team_of_seat(rules)
    games_idx = np.arange(start, start + count, dtype=np.int64)
    if mode == "hands":
        g = games_idx
        h = np.zeros(count, dtype=np.int64)
        nh = np.ones(count, dtype=np.int64)
    elif mode == "games":
        nh = _randint(_key(seed, games_idx, np.full(count, 9999), 7), 2, 9)
        g = np.repeat(games_idx, nh)
        first = np.cumsum(nh) - nh
        h = np.arange(len(g)) - np.repeat(first, nh)
    else:
        raise ValueError(f"mode {mode!r}")
    n = len(g)
    hands = np.zeros(n, dtype=hand_record_dt)
    hands["seed"] = seed
    hands["game"] = g
    hands["hand"] = h
    hands["dealer"] = (g + h) % n_active
    u_end = _uniform(_key(seed, g, h, 1))
    end = np.where(u_end < 0.9, 1, np.where(u_end < 0.98, 2, np.where(u_end < 0.995, 3, 4)))
    hands["end_reason"] = end
    seat = _randint(_key(seed, g, h, 2), 0, n_active)
    went = end == 1
    hands["went_out_seat"] = np.where(went, seat, -1)
    hands["went_out_team"] = np.where(went, tos[seat], -1)
    hands["concealed"] = went & (_uniform(_key(seed, g, h, 3)) < 0.05)
    turns = _randint(_key(seed, g, h, 4), 10, 70)
    hands["turns"] = turns
    ndec = 2 * turns + _randint(_key(seed, g, h, 5), 0, 12)
    hands["decisions"] = ndec
    score = np.zeros((n, MAX_TEAMS), dtype=np.int64)
    for t in range(n_teams):
        meld = _randint(_key(seed, g, h, 10 + t), 0, 60) * 5
        bonus = _randint(_key(seed, g, h, 20 + t), 0, 4) * 300
        red3 = _randint(_key(seed, g, h, 30 + t), 0, 3) * 100
        go = np.where(went & (tos[seat] == t), 100, 0)
        pen = _randint(_key(seed, g, h, 40 + t), 0, 30) * 5
        hands["meld_points"][:, t] = meld
        hands["canasta_bonus"][:, t] = bonus
        hands["red3_points"][:, t] = red3
        hands["go_out_bonus"][:, t] = go
        hands["hand_penalty"][:, t] = pen
        hands["canastas"][:, t] = bonus // 300
        hands["natural_canastas"][:, t] = _randint(_key(seed, g, h, 50 + t), 0, 2) * (bonus > 0)
        hands["red3"][:, t] = red3 // 100
        hands["opened"][:, t] = meld > 0
        hands["pile_takes"][:, t] = _randint(_key(seed, g, h, 60 + t), 0, 6)
        score[:, t] = meld + bonus + red3 + go - pen
    hands["score"] = score
    hands["seat_of_player"] = np.arange(MAX_SEATS)
    # cumulative scores before each hand of its game
    cum = np.cumsum(score, axis=0) - score
    first_row = np.repeat(np.cumsum(nh) - nh, nh)
    base = cum[first_row]
    hands["cum_before"] = cum - base

    games = np.zeros(count if mode == "games" else 0, dtype=game_record_dt)
    if mode == "games":
        last = np.cumsum(nh) - 1
        final = hands["cum_before"][last] + score[last]
        games["seed"] = seed
        games["game"] = games_idx
        games["hands"] = nh
        games["final"] = final
        fin = final[:, :n_teams]
        best = fin.max(axis=1)
        winner = fin.argmax(axis=1)
        tie = (fin == best[:, None]).sum(axis=1) > 1
        games["winner_team"] = np.where(tie, -1, winner)
        games["capped"] = 0

    logged = _uniform(_key(seed, g, h, 6)) < float(log_rate)
    li = np.flatnonzero(logged)
    nd = ndec[li]
    rows = int(nd.sum())
    dec = np.zeros(rows, dtype=decision_record_dt)
    if rows:
        hi = np.repeat(li, nd)
        j = np.arange(rows) - np.repeat(np.cumsum(nd) - nd, nd)
        rh = _mix(_key(seed, g[hi], h[hi], 8) ^ (j.astype(np.uint64) + _GOLDEN))
        turn = j // 2
        dseat = (hands["dealer"][hi].astype(np.int64) + 1 + turn) % n_active
        dec["seed"] = seed
        dec["game"] = g[hi]
        dec["hand"] = h[hi]
        dec["turn"] = turn
        dec["seat"] = dseat
        dec["team"] = tos[dseat]
        dec["decision_type"] = np.where(j % 2 == 0, 0, 1 + (rh % np.uint64(3)).astype(np.int64))
        dec["action"] = (rh % np.uint64(113)).astype(np.int64)
        dec["n_legal"] = 1 + ((rh >> np.uint64(8)) % np.uint64(30)).astype(np.int64)
        dec["hand_size"] = ((rh >> np.uint64(16)) % np.uint64(20)).astype(np.int64)
        dec["pile_size"] = ((rh >> np.uint64(24)) % np.uint64(40)).astype(np.int64)
        dec["pile_frozen"] = ((rh >> np.uint64(32)) % np.uint64(2)).astype(np.int64)
        dec["stock_size"] = np.maximum(0, 60 - j)
        cb = hands["cum_before"][hi]
        dec["cum_us"] = cb[np.arange(rows), tos[dseat]]
        dec["cum_them"] = cb[
            np.arange(rows), 1 - tos[dseat] if n_teams == 2 else (tos[dseat] + 1) % n_teams
        ]
        dec["pending_value"] = ((rh >> np.uint64(40)) % np.uint64(90)).astype(np.int64)
    if check:
        assert np.all(hands["score"][:, :n_teams] == score[:, :n_teams])
    # the real engine fills score_us / score_them / went_out_us itself; the fake leaves them out
    # so that the store's own join of the outcome (for chunk functions without them) is tested
    keep = [
        name for name in dec.dtype.names if name not in ("score_us", "score_them", "went_out_us")
    ]
    dec = repack_fields(dec[keep])
    return ChunkResult(hands=hands, decisions=dec, games=games)


def run_chunk_failing_at(fail_start: int):
    """A chunk function that raises KeyboardInterrupt for the chunk starting at `fail_start`."""
    return _Failing(fail_start)


class _Failing:
    def __init__(self, fail_start: int) -> None:
        self.fail_start = fail_start

    def __call__(
        self, rules, strategies, seed, start, count, mode="hands", log_rate=0.0, check=False, **_o
    ):
        if start == self.fail_start:
            raise KeyboardInterrupt
        return run_chunk(rules, strategies, seed, start, count, mode, log_rate, check)


def seat(fn, *options: str):
    """Play the runs, comparisons and sweeps of the block with the chunk function `fn` (this
    module's, the synthetic engine's, ...), which takes the keyword `options` beyond the basic
    call (sim.runs.engines)."""
    from sim.runs.engines import ChunkEngine, using

    return using(ChunkEngine(getattr(fn, "__name__", type(fn).__name__), fn, frozenset(options)))
