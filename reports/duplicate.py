"""Duplicate-deal play of one strategy against opponents at any table (2 or 3 teams).

``reports.compare`` pairs two strategies at a 2-team table.  Tuning and the ladder also need the
3-team tables (3 players, 6 players as 3x2), so this module generalises the design:

Seatings: the tested strategy A takes one team's seats and the opponent B every other seat;
A's team goes round all teams (2 teams: (A,B) then (B,A), as in ``compare``; 3 teams:
(A,B,B), (B,A,B), (B,B,A)).  Every seating plays the same deal key (seed, game=i, hand=0).
Per deal i and seating k::

    d_k[i] = score(A's team) - mean(score of the other teams)
    paired[i] = mean over k of d_k[i]

``paired`` is A's mean advantage per hand (for 2 teams exactly ``compare``'s paired difference)
and its CI is computed over deals (the unit of the paired design).  Several candidates on the
same deal keys share their cards: common random numbers, so differences between candidates are
themselves paired.  Results depend on the deal keys only, never on ``jobs`` or ``chunk``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from sim.play import engine

__all__ = ["seatings", "play_pairs", "play_against", "score_chunk", "run_calls", "DuplicateError"]

DEFAULT_CHUNK = 1000  # deals per engine call


class DuplicateError(ValueError):
    """Bad input to duplicate play (unsupported table, empty list): one-line message."""


def seatings(rules, a: str, b: str) -> list[tuple[str, ...]]:
    """Seat tuples, one per team: A on that team's seats, B everywhere else."""
    tos = rules.team_of_seat
    nt = rules.n_teams
    if nt < 2:
        raise DuplicateError(f"a table of {nt} team cannot seat two strategies")
    return [tuple(a if t == k else b for t in tos) for k in range(nt)]


def score_chunk(rules, seats: tuple[str, ...], seed: int, start: int, count: int) -> np.ndarray:
    """Hand scores float64[count, n_teams] of deal keys start..start+count-1 (hand 0)."""
    res = engine.run_chunk(rules, seats, seed, start, count, mode="hands")
    h = res.hands
    h = h[h["hand"] == 0]
    h = h[np.argsort(h["game"], kind="stable")]
    if h.size != count or not np.array_equal(h["game"], np.arange(start, start + count)):
        raise RuntimeError(f"run_chunk returned {h.size} hands for {count} requested")
    return np.asarray(h["score"][:, : rules.n_teams], np.float64)


def _chunks(start: int, count: int, size: int):
    for s in range(start, start + count, size):
        yield s, min(size, start + count - s)


def run_calls(calls: list[tuple], jobs: int, fn: Callable = score_chunk) -> list[np.ndarray]:
    """Run ``fn(*call)`` for every call, in order, with joblib when jobs != 1."""
    if jobs == 1 or len(calls) <= 1:
        return [fn(*c) for c in calls]
    from joblib import delayed

    from sim.runs.workers import parallel

    return parallel(jobs)(delayed(fn)(*c) for c in calls)


def play_pairs(
    rules,
    pairs: Sequence[tuple[str, str]],
    seed: int,
    start: int,
    count: int,
    jobs: int = -1,
    chunk: int = DEFAULT_CHUNK,
) -> dict[tuple[str, str], np.ndarray]:
    """Each (A, B) pair on deal keys start..start+count-1: {(A, B): paired float64[count]}
    (module docstring: A's mean advantage per hand over its seatings).  A pair of a strategy
    with itself is 0 by symmetry and is not played."""
    if count < 1:
        raise DuplicateError(f"count must be at least 1, got {count}")
    pairs = list(dict.fromkeys(pairs))
    calls, tags = [], []
    for a, b in pairs:
        if a == b:
            continue
        for k, seats in enumerate(seatings(rules, a, b)):
            for s, n in _chunks(start, count, chunk):
                calls.append((rules, seats, seed, s, n))
                tags.append((a, b, k))
    results = run_calls(calls, jobs)
    nt = rules.n_teams
    out = {p: np.zeros(count) for p in pairs}
    by_seating: dict[tuple[str, str, int], list[np.ndarray]] = {}
    for tag, sc in zip(tags, results, strict=True):
        by_seating.setdefault(tag, []).append(sc)  # chunks in key order
    for (a, b, k), parts in by_seating.items():
        sc = np.concatenate(parts)
        others = (sc.sum(axis=1) - sc[:, k]) / (nt - 1)
        out[(a, b)] += (sc[:, k] - others) / nt
    return out


def play_against(
    rules,
    candidates: Sequence[str],
    opponents: Sequence[str],
    seed: int,
    start: int,
    count: int,
    jobs: int = -1,
    chunk: int = DEFAULT_CHUNK,
) -> dict[tuple[str, str], np.ndarray]:
    """Every candidate against every opponent (``play_pairs`` of all (candidate, opponent))."""
    if not candidates or not opponents:
        raise DuplicateError("give at least one candidate and one opponent")
    pairs = [(c, o) for c in dict.fromkeys(candidates) for o in dict.fromkeys(opponents)]
    return play_pairs(rules, pairs, seed, start, count, jobs, chunk)
