"""Luck-adjusted comparison: fewer deals for the same confidence interval.

A hand's result mixes the strategies' skill with the luck of the cards.  The engine can record,
per team, chance terms with mean zero by construction (sim/core/luck.py: each drawn or dealt
card's features minus their expectation at that moment).  Subtracting a linear combination of
them from each deal's paired difference keeps its mean and removes the part of its spread the
cards explain (control variates; the same idea as AIVAT in poker, Burch et al. 2018).

The coefficients are estimated by ridge regression (see RIDGE) with cross-fitting: the deals
are split into 10 folds by deal index, and each fold is adjusted with coefficients fitted on
the other folds, so a deal's adjustment never depends on its own result and the adjusted mean
stays unbiased.  Below ``min_deals`` no coefficients are fitted and the plain estimate stands
(its variance reduction is reported as missing).  The 95% interval is a t-interval over deals
of the adjusted paired differences.

    from reports.compare import play_luck_pairs
    from reports.luck import luck_adjusted
    pairs = play_luck_pairs(RuleSet.preset("classic"), "expert", "greedy", seed=1, count=20_000)
    est = luck_adjusted(pairs.diff, pairs.terms)
    est.mean, est.ci, est.plain_mean, est.plain_ci, est.variance_reduction
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from reports import stats
from sim.core.enums import LUCK_SCALE, MAX_TEAMS, N_LUCK

FOLDS = 10


def chance_terms(hands: np.ndarray) -> np.ndarray:
    """The hand records' chance terms as float64[n, MAX_TEAMS, N_LUCK] (sim/core/luck.py)."""
    return hands["luck"].reshape(len(hands), MAX_TEAMS, N_LUCK).astype(np.float64) / LUCK_SCALE


@dataclass(frozen=True)
class LuckPairs:
    """Duplicate deals of A against B with their chance terms.

    diff : float64[n]  per deal, (A's team - B's team) averaged over the two seatings
    terms : float64[n, N_LUCK]  per deal, A's team's terms minus B's team's, summed over the
            two seatings (`seating_terms`)
    seatings : float64[n, 2]  per deal, A's team - B's team in seating 1 and in seating 2
    first_terms : float64[n, N_LUCK]  seating 1's terms alone (A's team minus B's team)
    """

    diff: np.ndarray
    terms: np.ndarray
    seatings: np.ndarray
    first_terms: np.ndarray


@dataclass(frozen=True)
class LuckEstimate:
    """The plain and the luck-adjusted mean paired difference, each with its 95% CI."""

    n: int
    plain_mean: float
    plain_ci: tuple[float, float]
    mean: float
    ci: tuple[float, float]
    variance_reduction: float  # variance of the plain differences / of the adjusted ones
    variance_reduction_ci: tuple[float, float]


def seating_terms(first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """A deal's regressors: its two seatings' terms (each A's team minus B's) summed.  The
    seatings are the same game with the teams swapped, so one coefficient per term serves both;
    half the columns fit better (measured: x1.41 against x1.39 with separate columns on 20,000
    deals) and leave fewer deals without an adjustment in a small run (`adjust`)."""
    return first + second


# Ridge penalty on the standardized terms, times the training deals.  Plain least squares on
# ~116 terms overfits in small runs: measured on 8,000 expert-vs-greedy classic-4p deals cut
# into runs of n deals, the variance reduction was 0.79 (worse than no adjustment) at n = 600,
# 1.09 at 1,200, 1.16 at 2,400 and 1.23 at 8,000; with this penalty 1.08, 1.15, 1.20, 1.23.
# Any fixed coefficients keep the estimate unbiased (the terms have mean zero), so shrinking
# them costs no bias.
RIDGE = 0.03


def _fit(y: np.ndarray, x: np.ndarray, ridge: float = RIDGE) -> np.ndarray:
    """Ridge coefficients of y on x (intercept fitted, not penalized, not returned)."""
    xm, sd = x.mean(axis=0), x.std(axis=0)
    sd[sd == 0] = 1.0  # a term that never varied in these deals gets coefficient 0
    z = (x - xm) / sd
    gram = z.T @ z + ridge * len(y) * np.eye(z.shape[1])
    coef, *_ = np.linalg.lstsq(gram, z.T @ (y - y.mean()), rcond=None)
    return coef / sd


def min_deals(n_terms: int) -> int:
    """Fewest deals for which the coefficients of ``n_terms`` chance terms are fitted; with
    fewer, ``adjust`` leaves the differences as they are."""
    return 4 * n_terms


def adjust(y: np.ndarray, x: np.ndarray, folds: int = FOLDS) -> np.ndarray:
    """y minus x @ beta, with beta fitted on the other folds (cross-fitting by position)."""
    y = np.asarray(y, np.float64)
    x = np.asarray(x, np.float64)
    if x.ndim != 2 or x.shape[0] != y.shape[0]:
        raise ValueError(f"terms must have one row per deal: {x.shape} for {y.shape[0]} deals")
    n = len(y)
    if n < min_deals(x.shape[1]):
        return y.copy()  # too few deals to fit the coefficients: no adjustment
    fold = np.arange(n) % folds
    out = np.empty(n)
    for k in range(folds):
        test = fold == k
        beta = _fit(y[~test], x[~test])
        out[test] = y[test] - x[test] @ beta
    return out


def luck_adjusted(
    y: np.ndarray,
    x: np.ndarray,
    level: float = 0.95,
    folds: int = FOLDS,
    n_boot: int = 400,
    seed: int = 0,
) -> LuckEstimate:
    """Plain and adjusted means of per-deal differences y given their chance terms x."""
    y = np.asarray(y, np.float64)
    adj = adjust(y, x, folds)
    plain = stats.mean_ci(y, level)
    adjusted = stats.mean_ci(adj, level)
    if len(y) < min_deals(np.shape(x)[1]):  # not applied: no reduction to report
        return LuckEstimate(
            len(y),
            plain.mean,
            (plain.low, plain.high),
            adjusted.mean,
            (adjusted.low, adjusted.high),
            math.nan,
            (math.nan, math.nan),
        )
    vr = (
        float(np.var(y, ddof=1) / np.var(adj, ddof=1))
        if len(y) > 2 and np.var(adj) > 0
        else math.nan
    )
    # the variance reduction's interval: a bootstrap over deals (the adjustment held fixed)
    rng = np.random.default_rng(seed)
    boots = []
    for _ in range(n_boot if len(y) > 2 else 0):
        i = rng.integers(0, len(y), len(y))
        va = np.var(adj[i], ddof=1)
        if va > 0:
            boots.append(np.var(y[i], ddof=1) / va)
    lo, hi = (
        np.quantile(boots, [(1 - level) / 2, (1 + level) / 2]) if boots else (math.nan, math.nan)
    )
    return LuckEstimate(
        len(y),
        plain.mean,
        (plain.low, plain.high),
        adjusted.mean,
        (adjusted.low, adjusted.high),
        vr,
        (float(lo), float(hi)),
    )


__all__ = [
    "LuckPairs",
    "LuckEstimate",
    "chance_terms",
    "seating_terms",
    "adjust",
    "luck_adjusted",
    "min_deals",
    "N_LUCK",
]
