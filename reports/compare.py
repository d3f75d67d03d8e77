"""Head-to-head strategy comparison with duplicate deals.

Duplicate deals
---------------
Every deal key (seed, game=g, hand=0) is played twice with the same cards: seating 1 gives
team 0 to strategy A and team 1 to strategy B, seating 2 swaps them.  Strategies are given per
team and expanded to table seats with ``rules.team_of_seat`` (4 players: (A,B,A,B) then
(B,A,B,A)).  Per deal i::

    d1[i] = score(A's team) - score(B's team)   in seating 1
    d2[i] = the same in seating 2
    paired difference = (d1[i] + d2[i]) / 2

The mean paired difference (points per hand, A minus B) gets a t-based 95% CI over deals.
``variance_reduction`` is the measured factor of ``reports.stats.variance_reduction``: how many
times more hands independent deals would need for the same CI width.

``hands`` counts *deals*; every deal is played twice, so 2*hands hands are played per pairing.
The ``hands`` column of the result is hands actually played (2 x deals).

Games (``games=N``): N whole games per seating in run_chunk's "games" mode, game keys
0..N-1 (the same keys in both seatings); per-game difference = final(A) - final(B) averaged
over the two seatings; a game counts as won by A with weight 1/2 per seating (ties 1/4).

The engine is called through ``chunk_fn`` (default ``sim.play.engine.run_chunk``, imported lazily)
with the signature of docs/DATA.md; its ``ChunkResult.hands`` / ``.games`` structured arrays
(``sim.core.enums.hand_record_dt`` / ``game_record_dt``) are read directly.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence

import numpy as np
import pandas as pd

from reports import stats
from sim.core.rules import RuleSet
from sim.play import engine

__all__ = [
    "compare",
    "round_robin",
    "resolve_rules",
    "seat_strategies",
    "two_team_check",
    "play_duplicate",
    "DEFAULT_CHUNK",
]

DEFAULT_CHUNK = 2000  # deals per run_chunk call


# ----------------------------------------------------------------------------- rules helpers


def resolve_rules(rules=None, players: int | None = None):
    """A RuleSet from an object (returned as is), a preset name or None ("classic").

    Presets come from ``sim.core.rules.RuleSet.preset(name, players=...)`` (6 players: 2x3)."""
    if rules is not None and not isinstance(rules, str):
        return rules
    name = rules or "classic"
    return RuleSet.preset(name, players=players or 4)


def _attr(obj, name):
    v = getattr(obj, name)
    return v() if callable(v) else v


def n_players(rules) -> int:
    return int(_attr(rules, "players"))


def team_of_seat(rules) -> tuple[int, ...]:
    """Team of each table seat (first ``players`` entries of rules.team_of_seat)."""
    p = n_players(rules)
    t = getattr(rules, "team_of_seat", None)
    if t is None:
        raise ValueError("the rule set has no team_of_seat")
    t = t() if callable(t) else t
    return tuple(int(x) for x in list(t)[:p])


def n_teams(rules) -> int:
    v = getattr(rules, "n_teams", None)
    if v is not None:
        return int(v() if callable(v) else v)
    return len(set(team_of_seat(rules)))


def _rules_label(rules) -> str:
    for attr in ("label", "name", "preset"):
        v = getattr(rules, attr, None)
        if isinstance(v, str):
            return v
    return type(rules).__name__


def two_team_check(rules) -> None:
    """Raise ValueError unless the rule set has exactly two teams (2, 4, or 6 as 2x3)."""
    nt = n_teams(rules)
    if nt != 2:
        raise ValueError(
            f"head-to-head comparison needs a 2-team rule set (2, 4 or 6 players as 2x3); "
            f"this one has {n_players(rules)} players in {nt} teams"
        )


def seat_strategies(rules, team_strategies: Sequence[str]) -> tuple[str, ...]:
    """Expand one strategy per team to one per table seat."""
    return tuple(team_strategies[t] for t in team_of_seat(rules))


# ----------------------------------------------------------------------------- playing


def _default_chunk_fn():
    return engine.run_chunk


def _chunks(start: int, count: int, size: int):
    for s in range(start, start + count, size):
        yield s, min(size, start + count - s)


def _run_many(chunk_fn, jobs: int, calls: list[tuple]) -> list:
    """calls: (rules, seats, seed, start, count, mode).  Runs them with joblib."""

    def one(c):
        rules, seats, seed, start, count, mode = c
        return chunk_fn(rules, seats, seed, start, count, mode=mode)

    if jobs == 1 or len(calls) == 1:
        return [one(c) for c in calls]
    from joblib import Parallel, delayed

    return Parallel(n_jobs=jobs)(delayed(one)(c) for c in calls)


def _extract(results: list, field: str, key: str) -> tuple[np.ndarray, np.ndarray]:
    """(keys, values[:, teams]) of the hands/games structured arrays of chunk results."""
    arrs = [getattr(r, field) for r in results]
    arrs = [a for a in arrs if a is not None and len(a)]
    if not arrs:
        return np.zeros(0, np.int64), np.zeros((0, 2))
    a = np.concatenate(arrs)
    if field == "hands":
        order = np.lexsort((a["hand"], a["game"]))
        a = a[order]
        a = a[a["hand"] == 0]
    else:
        a = a[np.argsort(a["game"], kind="stable")]
    return a["game"].astype(np.int64), np.asarray(a[key], dtype=np.float64)


def play_duplicate(
    rules,
    strategies: Sequence[str],
    seed: int,
    start: int,
    count: int,
    mode: str = "hands",
    jobs: int = -1,
    chunk_fn: Callable | None = None,
    chunk: int = DEFAULT_CHUNK,
) -> dict[tuple[str, str], tuple[np.ndarray, np.ndarray]]:
    """Play deals start..start+count-1 for every pairing of ``strategies`` in both seatings.

    Returns {(a, b): (d1, d2)} with the per-deal (A team - B team) score differences in
    seating 1 (A = team 0) and seating 2 (A = team 1); hands mode uses ``score``, games mode
    ``final``.  All pairings use the same deal keys."""
    fn = chunk_fn or _default_chunk_fn()
    pairs = list(itertools.combinations(strategies, 2))
    calls, tags = [], []
    for a, b in pairs:
        for seating, teams in ((0, (a, b)), (1, (b, a))):
            seats = seat_strategies(rules, teams)
            for s, c in _chunks(start, count, chunk):
                calls.append((rules, seats, seed, s, c, mode))
                tags.append((a, b, seating))
    results = _run_many(fn, jobs, calls)
    field, key = ("hands", "score") if mode == "hands" else ("games", "final")
    out: dict[tuple[str, str], tuple[np.ndarray, np.ndarray]] = {}
    for a, b in pairs:
        d = []
        for seating in (0, 1):
            rs = [r for r, t in zip(results, tags, strict=True) if t == (a, b, seating)]
            keys, vals = _extract(rs, field, key)
            if keys.size != count or not np.array_equal(keys, np.arange(start, start + count)):
                raise RuntimeError(f"run_chunk returned {keys.size} {field} for {count} requested")
            a_team, b_team = (0, 1) if seating == 0 else (1, 0)
            d.append(vals[:, a_team] - vals[:, b_team])
        out[(a, b)] = (d[0], d[1])
    return out


# ----------------------------------------------------------------------------- summaries


def _pair_row(a: str, b: str, d1: np.ndarray, d2: np.ndarray, level: float) -> dict:
    paired = (d1 + d2) / 2.0
    ci = stats.mean_ci(paired, level)
    both = np.concatenate([d1, d2])
    won = float(((both > 0) + 0.5 * (both == 0)).mean()) if both.size else math.nan
    return {
        "a": a,
        "b": b,
        "deals": int(d1.size),
        "hands": int(2 * d1.size),
        "mean_diff_per_hand": ci.mean,
        "ci_low": ci.low,
        "ci_high": ci.high,
        "half_width": ci.half_width,
        "share_hands_won_a": won,
        "variance_reduction": stats.variance_reduction(d1, d2),
    }


def _game_cols(g1: np.ndarray, g2: np.ndarray, level: float) -> dict:
    ci = stats.mean_ci((g1 + g2) / 2.0, level)
    both = np.concatenate([g1, g2])
    return {
        "games": int(g1.size),
        "mean_diff_per_game": ci.mean,
        "game_ci_low": ci.low,
        "game_ci_high": ci.high,
        "share_games_won_a": float(((both > 0) + 0.5 * (both == 0)).mean()),
    }


def _play_until(
    rules, strategies, seed, hands, until_ci, max_hands, jobs, chunk_fn, level
) -> dict[tuple[str, str], tuple[np.ndarray, np.ndarray]]:
    """Hands-mode duplicate play in batches until every pairing's CI half-width < until_ci."""
    if hands < 2:
        raise ValueError(f"hands must be at least 2, got {hands}")
    target = hands if until_ci is None else min(hands, max_hands)
    done = 0
    acc: dict[tuple[str, str], list[list[np.ndarray]]] = {}
    while True:
        batch = play_duplicate(rules, strategies, seed, done, target - done, "hands", jobs, chunk_fn)
        for k, (d1, d2) in batch.items():
            acc.setdefault(k, [[], []])
            acc[k][0].append(d1)
            acc[k][1].append(d2)
        done = target
        if until_ci is None or done >= max_hands:
            break
        widths = []
        for d1s, d2s in acc.values():
            paired = (np.concatenate(d1s) + np.concatenate(d2s)) / 2.0
            widths.append(stats.mean_ci(paired, level).half_width)
        worst = max(widths)
        if worst < until_ci:
            break
        # deals needed scale with (half-width / goal)^2; overshoot 10%, at least +25%
        need = int(math.ceil(done * (worst / until_ci) ** 2 * 1.1)) if math.isfinite(worst) else 2 * done
        target = min(max_hands, max(need, int(done * 1.25) + 1))
    return {k: (np.concatenate(v[0]), np.concatenate(v[1])) for k, v in acc.items()}


def compare(
    strategies: list[str],
    rules=None,
    hands: int = 10_000,
    games: int | None = None,
    seed: int = 0,
    until_ci: float | None = None,
    max_hands: int = 1_000_000,
    jobs: int = -1,
    chunk_fn: Callable | None = None,
    level: float = 0.95,
) -> pd.DataFrame:
    """Compare strategies head to head on duplicate deals; one row per pairing.

    strategies: 2+ strategy names (or "name:k=v,..." specs); every pairing plays the same deals.
    rules: a RuleSet, a preset name or None (classic); must have exactly 2 teams.
    hands: deals per pairing (each played in both seatings).  until_ci: keep adding deals until
    the CI half-width (points per hand) is below it for every pairing, or max_hands deals.
    games: also play that many whole games per seating.
    Columns: a, b, deals, hands, mean_diff_per_hand (A - B), ci_low, ci_high, half_width,
    share_hands_won_a, variance_reduction [, games, mean_diff_per_game, game_ci_low,
    game_ci_high, share_games_won_a]."""
    strategies = list(strategies)
    if len(strategies) < 2:
        raise ValueError("compare needs at least two strategies")
    if len(set(strategies)) != len(strategies):
        raise ValueError("the same strategy is listed twice")
    rules = resolve_rules(rules)
    two_team_check(rules)
    if until_ci is not None and until_ci <= 0:
        raise ValueError("--until-ci must be positive")
    diffs = _play_until(rules, strategies, seed, hands, until_ci, max_hands, jobs, chunk_fn, level)
    gdiffs = None
    if games:
        gdiffs = play_duplicate(rules, strategies, seed, 0, games, "games", jobs, chunk_fn)
    rows = []
    for (a, b), (d1, d2) in diffs.items():
        row = _pair_row(a, b, d1, d2, level)
        if gdiffs is not None:
            row.update(_game_cols(*gdiffs[(a, b)], level))
        row["rules"] = _rules_label(rules)
        row["seed"] = seed
        rows.append(row)
    df = pd.DataFrame(rows)
    df.attrs["diffs"] = diffs  # per-deal (d1, d2) arrays, for round_robin and reports
    return df


def round_robin(
    strategies: list[str],
    rules=None,
    hands: int = 10_000,
    games: int | None = None,
    seed: int = 0,
    until_ci: float | None = None,
    max_hands: int = 1_000_000,
    jobs: int = -1,
    chunk_fn: Callable | None = None,
    level: float = 0.95,
    n_boot: int = 200,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Every pairing on the same deals, plus a Bradley-Terry ranking.

    Returns (pairs, ranking).  A deal is won by the strategy whose paired difference is
    positive (ties: half each).  Ratings are BT log-strengths with a bootstrap CI over deals
    (the same deals for every pairing, so resampling deals keeps the design) and an Elo-like
    scale (400 points = 10:1 odds of winning a duplicate deal).  ranking columns: strategy,
    rank, bt, bt_low, bt_high, elo, elo_low, elo_high, mean_diff_vs_field, deals_won_share."""
    pairs = compare(strategies, rules, hands, games, seed, until_ci, max_hands, jobs, chunk_fn, level)
    diffs = pairs.attrs["diffs"]
    k = len(strategies)
    idx = {s: i for i, s in enumerate(strategies)}
    n_deals = min(d1.size for d1, _ in diffs.values())
    units = np.zeros((n_deals, k, k))
    field_diff = np.zeros(k)
    field_n = np.zeros(k)
    for (a, b), (d1, d2) in diffs.items():
        p = ((d1 + d2) / 2.0)[:n_deals]
        i, j = idx[a], idx[b]
        units[:, i, j] += (p > 0) + 0.5 * (p == 0)
        units[:, j, i] += (p < 0) + 0.5 * (p == 0)
        field_diff[i] += p.mean()
        field_diff[j] -= p.mean()
        field_n[i] += 1
        field_n[j] += 1
    bt = stats.bradley_terry_bootstrap(units, level, n_boot=n_boot, seed=seed)
    elo = stats.to_elo(bt.theta)
    shift = elo - stats.ELO_SCALE * bt.theta  # same centring for the CI ends
    tot = units.sum(axis=0)
    ranking = pd.DataFrame(
        {
            "strategy": strategies,
            "bt": bt.theta,
            "bt_low": bt.low,
            "bt_high": bt.high,
            "elo": elo,
            "elo_low": shift + stats.ELO_SCALE * bt.low,
            "elo_high": shift + stats.ELO_SCALE * bt.high,
            "mean_diff_vs_field": field_diff / np.maximum(field_n, 1),
            "deals_won_share": tot.sum(axis=1) / np.maximum(tot.sum(axis=1) + tot.sum(axis=0), 1),
        }
    )
    ranking = ranking.sort_values("bt", ascending=False, kind="stable").reset_index(drop=True)
    ranking.insert(1, "rank", np.arange(1, k + 1))
    return pairs, ranking
