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

The mean paired difference (points per hand, A minus B) gets a t-based 95% CI over deals, and
so does the share of hands A won (a deal's two hands are one unit).
``variance_reduction`` is the measured factor of ``reports.stats.variance_reduction``: how many
times more hands independent deals would need for the same CI width (with a delta-method CI).
Measured on classic 4p expert vs greedy it is only about 1.24: play diverges within a turn or
two, so the two plays of a deal correlate at -0.19 and the luck of the cards mostly does NOT
cancel.

``hands`` counts *deals*; every deal is played twice, so 2*hands hands are played per pairing.
The ``hands`` column of the result is hands actually played (2 x deals).

Games (``games=N``): N whole games per seating in run_chunk's "games" mode, game keys
0..N-1 (the same keys in both seatings); per-game difference = final(A) - final(B) averaged
over the two seatings; a game counts as won by A with weight 1/2 per seating (ties 1/4).

The hands are played by ``sim.runs.engines.current()`` (the core's run_chunk, docs/DATA.md);
its ``ChunkResult.hands`` / ``.games`` structured arrays (``sim.core.enums.hand_record_dt`` /
``game_record_dt``) are read directly.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from reports import checks, stats
from reports.luck import LuckPairs, chance_terms, luck_adjusted, seating_terms
from sim.core.errors import CanastaError, check_int
from sim.core.rules import RuleSet
from sim.runs import engines
from sim.runs.engines import Engine
from sim.runs.progress import grow, progress_bar

__all__ = [
    "compare",
    "round_robin",
    "resolve_rules",
    "seat_strategies",
    "play_luck_pairs",
    "two_team_check",
    "play_duplicate",
    "DEFAULT_CHUNK",
]

DEFAULT_CHUNK = 2000  # deals per run_chunk call


# ----------------------------------------------------------------------------- rules helpers


def resolve_rules(rules: RuleSet | str | None = None, players: int | None = None) -> RuleSet:
    """A RuleSet from a RuleSet (returned as is), a preset name or None ("classic").

    Presets come from ``sim.core.rules.RuleSet.preset(name, players=...)`` (6 players: 2x3)."""
    if isinstance(rules, RuleSet):
        return rules
    if rules is not None and not isinstance(rules, str):
        raise CanastaError(f"rules={rules!r}: give a RuleSet, a preset name or None")
    name = "classic" if rules is None else rules
    return RuleSet.preset(name, players=4 if players is None else players)


def two_team_check(rules: RuleSet) -> None:
    """Raise ValueError unless the rule set has exactly two teams (2, 4, or 6 as 2x3)."""
    nt = rules.n_teams
    if nt != 2:
        raise CanastaError(
            f"head-to-head comparison needs a 2-team rule set (2, 4 or 6 players as 2x3); "
            f"this one has {rules.players} players in {nt} teams"
        )


def seat_strategies(rules: RuleSet, team_strategies: Sequence[str]) -> tuple[str, ...]:
    """Expand one strategy per team to one per table seat."""
    return tuple(team_strategies[t] for t in rules.team_of_seat)


# ----------------------------------------------------------------------------- playing


def play_luck_pairs(
    rules: RuleSet,
    a: str,
    b: str,
    seed: int = 0,
    start: int = 0,
    count: int = 10_000,
    chunk: int = 2_000,
) -> LuckPairs:
    """Play deals start..start+count-1 in both seatings (two teams) recording the chance terms."""
    eng = engines.current()
    diffs, terms = [], []
    for seating, teams in ((0, (a, b)), (1, (b, a))):
        seats = seat_strategies(rules, teams)
        a_team, b_team = (0, 1) if seating == 0 else (1, 0)
        d_parts, t_parts = [], []
        for s in range(start, start + count, chunk):
            n = min(chunk, start + count - s)
            res = eng.run_chunk(rules, seats, seed, s, n, luck=True)
            h = res.hands
            d_parts.append(h["score"][:, a_team].astype(np.float64) - h["score"][:, b_team])
            luck = chance_terms(h)
            t_parts.append(luck[:, a_team, :] - luck[:, b_team, :])
        diffs.append(np.concatenate(d_parts))
        terms.append(np.concatenate(t_parts))
    return LuckPairs(
        (diffs[0] + diffs[1]) / 2.0,
        seating_terms(terms[0], terms[1]),
        np.column_stack(diffs),
        terms[0],
    )


def _chunks(start: int, count: int, size: int):
    for s in range(start, start + count, size):
        yield s, min(size, start + count - s)


def _run_many(engine: Engine, jobs: int, calls: list[tuple], bar=None) -> list:
    """calls: (rules, seats, seed, start, count, mode[, luck]).  Runs them with joblib;
    ``bar`` (a progress bar or None) advances by each call's deal count as it finishes."""

    def one(c):
        rules, seats, seed, start, count, mode, *luck = c
        extra = {"luck": True} if luck and luck[0] else {}
        return engine.run_chunk(rules, seats, seed, start, count, mode=mode, **extra)

    if jobs == 1 or len(calls) == 1:
        results = (one(c) for c in calls)
    else:
        from joblib import delayed

        from sim.runs.workers import parallel  # workers end with this process

        # an ordered generator: results arrive in call order while the workers go on
        results = parallel(jobs, return_as="generator")(delayed(one)(c) for c in calls)
    out = []
    for c, r in zip(calls, results, strict=True):
        out.append(r)
        if bar is not None:
            bar.update(c[4])
    return out


def _records(results: list, field: str) -> np.ndarray | None:
    """The hands (first hand of each deal) or games records of chunk results, in key order."""
    arrs = [getattr(r, field) for r in results]
    arrs = [a for a in arrs if a is not None and len(a)]
    if not arrs:
        return None
    a = np.concatenate(arrs)
    if field == "hands":
        order = np.lexsort((a["hand"], a["game"]))
        a = a[order]
        return a[a["hand"] == 0]
    return a[np.argsort(a["game"], kind="stable")]


def _extract(results: list, field: str, key: str) -> tuple[np.ndarray, np.ndarray]:
    """(keys, values[:, teams]) of the hands/games structured arrays of chunk results."""
    a = _records(results, field)
    if a is None:
        return np.zeros(0, np.int64), np.zeros((0, 2))
    return a["game"].astype(np.int64), np.asarray(a[key], dtype=np.float64)


def _plays_per_deal(strategies: Sequence[str]) -> int:
    """Plays of one deal: both seatings of every pairing."""
    k = len(strategies)
    return k * (k - 1)


def plays_in_python(spec: str) -> bool:
    """An OpenSpiel bot: played by a Python loop without chance terms (search players, pimc and
    ismcts, play in the compiled loop and record them)."""
    return str(spec).startswith("openspiel-")


def play_duplicate(
    rules: RuleSet,
    strategies: Sequence[str],
    seed: int,
    start: int,
    count: int,
    mode: str = "hands",
    jobs: int = -1,
    chunk: int = DEFAULT_CHUNK,
    luck: bool = False,
    bar=None,
) -> dict[tuple[str, str], tuple[np.ndarray, ...]]:
    """Play deals start..start+count-1 for every pairing of ``strategies`` in both seatings.

    Returns {(a, b): (d1, d2)} with the per-deal (A team - B team) score differences in
    seating 1 (A = team 0) and seating 2 (A = team 1); hands mode uses ``score``, games mode
    ``final``.  All pairings use the same deal keys.  With ``luck`` (hands mode, a chunk
    function that takes it) each value is (d1, d2, terms): terms[i] = the chance terms of deal
    i (sim/core/luck.py), A's team minus B's, summed over the two seatings (N_LUCK columns,
    `reports.luck.seating_terms`)."""
    luck = bool(luck) and mode == "hands"
    pairs = list(itertools.combinations(strategies, 2))
    calls, tags = [], []
    for a, b in pairs:
        for seating, teams in ((0, (a, b)), (1, (b, a))):
            seats = seat_strategies(rules, teams)
            for s, c in _chunks(start, count, chunk):
                calls.append((rules, seats, seed, s, c, mode, luck))
                tags.append((a, b, seating))
    results = _run_many(engines.current(), jobs, calls, bar)
    field, key = ("hands", "score") if mode == "hands" else ("games", "final")
    out: dict[tuple[str, str], tuple[np.ndarray, ...]] = {}
    for a, b in pairs:
        d, terms = [], []
        for seating in (0, 1):
            rs = [r for r, t in zip(results, tags, strict=True) if t == (a, b, seating)]
            keys, vals = _extract(rs, field, key)
            if keys.size != count or not np.array_equal(keys, np.arange(start, start + count)):
                raise RuntimeError(f"run_chunk returned {keys.size} {field} for {count} requested")
            a_team, b_team = (0, 1) if seating == 0 else (1, 0)
            d.append(vals[:, a_team] - vals[:, b_team])
            if luck:
                rec = _records(rs, field)
                assert rec is not None  # keys.size == count >= 1 was checked above
                chance = chance_terms(rec)
                terms.append(chance[:, a_team, :] - chance[:, b_team, :])
        out[(a, b)] = (d[0], d[1], seating_terms(terms[0], terms[1])) if luck else (d[0], d[1])
    return out


# ----------------------------------------------------------------------------- summaries


def _won_share(d1: np.ndarray, d2: np.ndarray, level: float) -> stats.CI:
    """Share of hands A won (ties 1/2) with a CI over deals: the two plays of a deal are one
    unit (their results are correlated), so each deal contributes the mean of its two."""
    w = ((d1 > 0) + 0.5 * (d1 == 0) + (d2 > 0) + 0.5 * (d2 == 0)) / 2.0
    c = stats.mean_ci(w, level)
    return stats.CI(c.mean, max(c.low, 0.0), min(c.high, 1.0), c.half_width, c.n)


def _pair_row(
    a: str, b: str, d1: np.ndarray, d2: np.ndarray, level: float, terms: np.ndarray | None = None
) -> dict:
    paired = (d1 + d2) / 2.0
    plain = stats.mean_ci(paired, level)
    won = _won_share(d1, d2, level)
    vr = stats.variance_reduction_ci(d1, d2, level)
    luck = {}
    ci = plain
    if terms is not None:
        est = luck_adjusted(paired, terms, level, n_boot=200)
        ci = stats.CI(est.mean, est.ci[0], est.ci[1], (est.ci[1] - est.ci[0]) / 2, est.n)
        luck = {
            "plain_mean_diff_per_hand": plain.mean,
            "plain_ci_low": plain.low,
            "plain_ci_high": plain.high,
            "luck_variance_reduction": est.variance_reduction,
            "luck_variance_reduction_low": est.variance_reduction_ci[0],
            "luck_variance_reduction_high": est.variance_reduction_ci[1],
        }
    return {
        "a": a,
        "b": b,
        # recorded terms but too few deals to fit their coefficients: the plain estimate stands
        "estimator": "luck-adjusted"
        if luck and math.isfinite(luck["luck_variance_reduction"])
        else "plain",
        "deals": int(d1.size),
        "hands": int(2 * d1.size),
        "mean_diff_per_hand": ci.mean,
        "ci_low": ci.low,
        "ci_high": ci.high,
        "half_width": ci.half_width,
        **luck,
        "share_hands_won_a": won.mean,
        "share_hands_won_low": won.low,
        "share_hands_won_high": won.high,
        "variance_reduction": vr.mean,
        "variance_reduction_low": vr.low,
        "variance_reduction_high": vr.high,
    }


def _game_cols(g1: np.ndarray, g2: np.ndarray, level: float) -> dict:
    ci = stats.mean_ci((g1 + g2) / 2.0, level)
    won = _won_share(g1, g2, level)
    return {
        "games": int(g1.size),
        "mean_diff_per_game": ci.mean,
        "game_ci_low": ci.low,
        "game_ci_high": ci.high,
        "share_games_won_a": won.mean,
        "share_games_won_low": won.low,
        "share_games_won_high": won.high,
    }


def _half_width(parts: list[list[np.ndarray]], level: float) -> float:
    """The CI half-width the comparison will print: luck-adjusted when terms were recorded."""
    paired = (np.concatenate(parts[0]) + np.concatenate(parts[1])) / 2.0
    if len(parts) > 2:
        est = luck_adjusted(paired, np.vstack(parts[2]), level, n_boot=0)
        return (est.ci[1] - est.ci[0]) / 2
    return stats.mean_ci(paired, level).half_width


def _play_until(
    rules: RuleSet,
    strategies,
    seed,
    hands,
    until_ci,
    max_hands,
    jobs,
    level,
    luck: bool = False,
    bar=None,
) -> dict[tuple[str, str], tuple[np.ndarray, ...]]:
    """Hands-mode duplicate play in batches until every pairing's CI half-width < until_ci."""
    if hands < 2:
        raise CanastaError(f"hands must be at least 2, got {hands}")
    target = hands if until_ci is None else min(hands, max_hands)
    done = 0
    acc: dict[tuple[str, str], list[list[np.ndarray]]] = {}
    while True:
        batch = play_duplicate(
            rules,
            strategies,
            seed,
            done,
            target - done,
            "hands",
            jobs,
            luck=luck,
            bar=bar,
        )
        for k, arrays in batch.items():
            parts = acc.setdefault(k, [[] for _ in arrays])
            for part, arr in zip(parts, arrays, strict=True):
                part.append(arr)
        done = target
        if until_ci is None or done >= max_hands:
            break
        worst = max(_half_width(parts, level) for parts in acc.values())
        if worst < until_ci:
            break
        # deals needed scale with (half-width / goal)^2; overshoot 10%, at least +25%
        need = (
            int(math.ceil(done * (worst / until_ci) ** 2 * 1.1))
            if math.isfinite(worst)
            else 2 * done
        )
        target = min(max_hands, max(need, int(done * 1.25) + 1))
        grow(bar, (target - done) * _plays_per_deal(strategies))
    return {
        k: tuple(np.concatenate(p) if p[0].ndim == 1 else np.vstack(p) for p in v)
        for k, v in acc.items()
    }


def compare(
    strategies: list[str],
    rules: RuleSet | str | None = None,
    hands: int = 10_000,
    games: int | None = None,
    seed: int = 0,
    until_ci: float | None = None,
    max_hands: int = 1_000_000,
    jobs: int = -1,
    level: float = 0.95,
    luck: bool | None = None,
    progress: Any = None,
) -> pd.DataFrame:
    """Compare strategies head to head on duplicate deals; one row per pairing.

    progress: a progress bar of deals played (each deal counts once per seating and pairing):
    True, False, None (= on a terminal only) or a bar to advance (sim/runs/progress.py).

    luck: the luck-adjusted estimate (reports/luck.py) as the headline, the plain one beside it
    (None: whenever the chunk function can record chance terms, as the engine's can).

    strategies: 2+ strategy names (or "name:k=v,..." specs); every pairing plays the same deals.
    rules: a RuleSet, a preset name or None (classic); must have exactly 2 teams.
    hands: deals per pairing (each played in both seatings).  until_ci: keep adding deals until
    the CI half-width (points per hand) is below it for every pairing, or max_hands deals.
    games: also play that many whole games per seating.
    Columns: a, b, deals, hands, mean_diff_per_hand (A - B), ci_low, ci_high, half_width,
    share_hands_won_a, share_hands_won_low, share_hands_won_high, variance_reduction,
    variance_reduction_low, variance_reduction_high [, games, mean_diff_per_game, game_ci_low,
    game_ci_high, share_games_won_a, share_games_won_low, share_games_won_high]; every
    interval is a 95% CI over deals (games), the unit of the paired design."""
    strategies = checks.strategy_list(strategies)
    checks.compare_args(hands, games, seed, until_ci, max_hands, jobs, level)
    if len(strategies) < 2:
        raise CanastaError("compare needs at least two strategies")
    twice = [s for i, s in enumerate(strategies) if s in strategies[:i]]
    if twice:
        raise CanastaError(f"strategy {twice[0]!r} is listed twice; list each once")
    rules = resolve_rules(rules)
    two_team_check(rules)
    if until_ci is not None and until_ci <= 0:
        raise CanastaError("--until-ci must be positive")
    if (
        luck is None
    ):  # the compiled self-play loop records chance terms; the OpenSpiel bots' loop does not
        luck = "luck" in engines.current().options and not any(
            plays_in_python(s) for s in strategies
        )
    first = hands if until_ci is None else min(hands, max_hands)
    per = _plays_per_deal(strategies)
    with progress_bar(progress, per * (first + (games or 0)), "deal", "compare") as bar:
        played = _play_until(
            rules, strategies, seed, hands, until_ci, max_hands, jobs, level, luck, bar
        )
        gdiffs = None
        if games:
            gdiffs = play_duplicate(rules, strategies, seed, 0, games, "games", jobs, bar=bar)
    diffs = {k: v[:2] for k, v in played.items()}
    rows = []
    for (a, b), arrays in played.items():
        row = _pair_row(a, b, arrays[0], arrays[1], level, arrays[2] if luck else None)
        if gdiffs is not None:
            g1, g2 = gdiffs[(a, b)][:2]  # games mode records no chance terms: (d1, d2)
            row.update(_game_cols(g1, g2, level))
        row["rules"] = rules.label
        row["seed"] = seed
        rows.append(row)
    df = pd.DataFrame(rows)
    df.attrs["diffs"] = diffs  # per-deal (d1, d2) arrays, for round_robin and reports
    return df


def round_robin(
    strategies: list[str],
    rules: RuleSet | str | None = None,
    hands: int = 10_000,
    games: int | None = None,
    seed: int = 0,
    until_ci: float | None = None,
    max_hands: int = 1_000_000,
    jobs: int = -1,
    level: float = 0.95,
    n_boot: int = 200,
    luck: bool | None = None,
    progress: Any = None,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Every pairing on the same deals, plus a Bradley-Terry ranking.

    Returns (pairs, ranking).  A deal is won by the strategy whose paired difference is
    positive (ties: half each).  Ratings are BT log-strengths with a bootstrap CI over deals
    (the same deals for every pairing, so resampling deals keeps the design) and an Elo-like
    scale (400 points = 10:1 odds of winning a duplicate deal).  ranking columns: strategy,
    rank, bt, bt_low, bt_high, elo, elo_low, elo_high, mean_diff_vs_field (+ _low, _high),
    deals_won_share, deals_won_low, deals_won_high; CIs over deals."""
    strategies = checks.strategy_list(strategies)
    check_int("n_boot", n_boot, *checks.N_BOOT)
    pairs = compare(
        strategies,
        rules,
        hands,
        games,
        seed,
        until_ci,
        max_hands,
        jobs,
        level,
        luck,
        progress,
    )
    diffs = pairs.attrs["diffs"]
    k = len(strategies)
    idx = {s: i for i, s in enumerate(strategies)}
    n_deals = min(d1.size for d1, _ in diffs.values())
    units = np.zeros((n_deals, k, k))
    field = np.zeros((n_deals, k))  # per deal: the sum of i's paired differences vs the others
    for (a, b), (d1, d2) in diffs.items():
        p = ((d1 + d2) / 2.0)[:n_deals]
        i, j = idx[a], idx[b]
        units[:, i, j] += (p > 0) + 0.5 * (p == 0)
        units[:, j, i] += (p < 0) + 0.5 * (p == 0)
        field[:, i] += p
        field[:, j] -= p
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
            "mean_diff_vs_field": field.mean(axis=0) / max(k - 1, 1),
            "deals_won_share": tot.sum(axis=1) / np.maximum(tot.sum(axis=1) + tot.sum(axis=0), 1),
        }
    )
    # a deal is the unit: the share of its pairings strategy i won on it, then a CI over deals
    per_deal = units.sum(axis=2) / max(k - 1, 1)
    won = [stats.mean_ci(per_deal[:, i], level) for i in range(k)]
    # never or always winning: the t interval collapses to a point; Wilson's over deals does not
    won = [c if c.half_width > 0 else stats.share_ci(c.mean * c.n, c.n, level) for c in won]
    vs = [stats.mean_ci(field[:, i] / max(k - 1, 1), level) for i in range(k)]
    ranking["mean_diff_vs_field_low"] = [c.low for c in vs]
    ranking["mean_diff_vs_field_high"] = [c.high for c in vs]
    ranking["deals_won_low"] = [max(c.low, 0.0) for c in won]
    ranking["deals_won_high"] = [min(c.high, 1.0) for c in won]
    ranking = ranking.sort_values("bt", ascending=False, kind="stable").reset_index(drop=True)
    ranking.insert(1, "rank", np.arange(1, k + 1))
    return pairs, ranking
