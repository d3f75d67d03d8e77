"""Statistics for strategy comparisons: confidence intervals, duplicate-deal pairing,
variance reduction, Bradley-Terry ratings and an Elo-like scale.

Everything takes plain numpy arrays (or things numpy can convert) and returns small
NamedTuples of floats, so the results drop straight into pandas rows.

Conventions
-----------
- ``level`` is the two-sided confidence level (0.95 = 95% interval).
- A mean CI is Student-t based by default (``method="t"``); ``method="bootstrap"`` gives a
  percentile bootstrap (seeded, so reproducible).
- Duplicate deals: a deal is played twice with the teams' seats swapped.  For deal i,
  ``d1[i]`` / ``d2[i]`` are (A's team score - B's team score) in seating 1 / seating 2; the
  deal's paired difference is ``(d1[i] + d2[i]) / 2``.
- ``variance_reduction(d1, d2)`` measures what the duplication bought *per hand played*:

      var_independent = var(concat(d1, d2))        # one hand = one independent deal
      var_duplicate   = var((d1 + d2) / 2)         # one duplicate deal = two hands
      factor          = var_independent / (2 * var_duplicate)

  i.e. the variance of the mean from 2n independent hands divided by the variance of the mean
  from n duplicate deals (the same 2n hands).  factor = 1 means no gain; factor = 5 means
  independent deals would need 5x as many hands for the same CI width.  ``var_independent``
  is estimated from the same data by ignoring the pairing (each played hand treated as its
  own deal) -- the single-seating difference has the same distribution as a hand of an
  unpaired experiment.  ``variance_reduction_ci`` gives it a delta-method interval.
- Clustered rows (decision rows of one hand, hands of one game): the unit of the interval is the
  cluster.  ``cluster_mean_ci`` / ``ratio_ci_from_sums`` use the ratio estimator
  p = sum(Y_c) / sum(m_c) over clusters c (Y_c: the cluster's sum, m_c: its row count) with the
  linearised variance n_c / (n_c - 1) * sum((Y_c - p m_c)^2) / (sum m_c)^2 and a t quantile
  with n_c - 1 degrees of freedom.  With one row per cluster it is the ordinary t interval.
  The sums are additive, so a run folder can be summarised shard by shard.
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

import numpy as np


def _t_ppf(q: float, df: Any) -> Any:
    """scipy.stats.t.ppf(q, df): the function it calls (`t_gen._ppf`), imported on first use.
    scipy.stats takes about a second to import, and every command line imports this module
    while it builds its parser; scipy.special alone takes a fifth of that."""
    from scipy.special import stdtrit

    return stdtrit(df, q)


def _norm_ppf(q: float) -> float:
    """scipy.stats.norm.ppf(q) (`norm_gen._ppf`), imported on first use (see _t_ppf)."""
    from scipy.special import ndtri

    return float(ndtri(q))


__all__ = [
    "CI",
    "BTResult",
    "mean_ci",
    "bootstrap_mean_ci",
    "paired_diff_ci",
    "unpaired_diff_ci",
    "wilson_ci",
    "share_ci",
    "ClusterSums",
    "cluster_sums",
    "ratio_ci_from_sums",
    "cluster_mean_ci",
    "cluster_group_ci",
    "variance_reduction",
    "variance_reduction_ci",
    "bradley_terry",
    "bradley_terry_bootstrap",
    "to_elo",
    "ELO_SCALE",
]

ELO_SCALE = 400.0 / math.log(10.0)  # Elo points per unit of Bradley-Terry log-strength


class CI(NamedTuple):
    mean: float
    low: float
    high: float
    half_width: float
    n: int


def _as_1d(x) -> np.ndarray:
    a = np.asarray(x, dtype=np.float64).ravel()
    return a[np.isfinite(a)]


def mean_ci(x, level: float = 0.95, method: str = "t", n_boot: int = 2000, seed: int = 0) -> CI:
    """Mean of ``x`` with a two-sided ``level`` confidence interval.

    method "t": mean +- t_{(1+level)/2, n-1} * sd / sqrt(n).  method "bootstrap": percentile
    bootstrap with ``n_boot`` resamples (seeded).  n < 2 gives an infinite interval."""
    a = _as_1d(x)
    n = a.size
    if n == 0:
        return CI(math.nan, math.nan, math.nan, math.nan, 0)
    m = float(a.mean())
    if n < 2:
        return CI(m, -math.inf, math.inf, math.inf, n)
    if method == "bootstrap":
        return bootstrap_mean_ci(a, level, n_boot, seed)
    if method != "t":
        raise ValueError(f"unknown CI method {method!r} (use 't' or 'bootstrap')")
    se = float(a.std(ddof=1)) / math.sqrt(n)
    h = float(_t_ppf(0.5 + level / 2.0, n - 1)) * se
    return CI(m, m - h, m + h, h, n)


def bootstrap_mean_ci(x, level: float = 0.95, n_boot: int = 2000, seed: int = 0) -> CI:
    """Percentile bootstrap CI of the mean (resamples in blocks to bound memory)."""
    a = _as_1d(x)
    n = a.size
    if n < 2:
        return mean_ci(a, level)
    rng = np.random.default_rng(seed)
    means = np.empty(n_boot)
    block = max(1, 2_000_000 // n)
    for i in range(0, n_boot, block):
        k = min(block, n_boot - i)
        idx = rng.integers(0, n, size=(k, n))
        means[i : i + k] = a[idx].mean(axis=1)
    lo, hi = np.quantile(means, [0.5 - level / 2.0, 0.5 + level / 2.0])
    m = float(a.mean())
    return CI(m, float(lo), float(hi), float(hi - lo) / 2.0, n)


def paired_diff_ci(a, b, level: float = 0.95, method: str = "t") -> CI:
    """CI of mean(a - b) for paired observations (same deal / same unit)."""
    a = np.asarray(a, dtype=np.float64).ravel()
    b = np.asarray(b, dtype=np.float64).ravel()
    if a.shape != b.shape:
        raise ValueError(f"paired samples need equal lengths, got {a.size} and {b.size}")
    return mean_ci(a - b, level, method)


def unpaired_diff_ci(a, b, level: float = 0.95) -> CI:
    """Welch CI of mean(a) - mean(b) treating the samples as independent."""
    a, b = _as_1d(a), _as_1d(b)
    na, nb = a.size, b.size
    if na < 2 or nb < 2:
        return CI(math.nan, -math.inf, math.inf, math.inf, na + nb)
    va, vb = a.var(ddof=1) / na, b.var(ddof=1) / nb
    se2 = va + vb
    d = float(a.mean() - b.mean())
    if se2 == 0:
        return CI(d, d, d, 0.0, na + nb)
    df = se2**2 / (va**2 / (na - 1) + vb**2 / (nb - 1))
    h = float(_t_ppf(0.5 + level / 2.0, df)) * math.sqrt(se2)
    return CI(d, d - h, d + h, h, na + nb)


def wilson_ci(k, n, level: float = 0.95):
    """Wilson score interval for a proportion k/n.  Works elementwise on arrays.

    Returns (p, low, high); p is nan where n == 0."""
    k = np.asarray(k, dtype=np.float64)
    n = np.asarray(n, dtype=np.float64)
    z = float(_norm_ppf(0.5 + level / 2.0))
    with np.errstate(invalid="ignore", divide="ignore"):
        p = k / n
        denom = 1.0 + z * z / n
        centre = (p + z * z / (2.0 * n)) / denom
        h = z * np.sqrt(p * (1.0 - p) / n + z * z / (4.0 * n * n)) / denom
        low = np.where(k <= 0, 0.0, np.clip(centre - h, 0.0, 1.0))  # exact ends, no 1 - 1e-16
        high = np.where(k >= n, 1.0, np.clip(centre + h, 0.0, 1.0))
    if p.ndim == 0:
        return float(p), float(low), float(high)
    return p, low, high


def share_ci(wins, n, level: float = 0.95) -> CI:
    """Share of ``n`` independent units won, ``wins`` may count a tie as 1/2 (Wilson interval)."""
    p, lo, hi = wilson_ci(wins, n, level)
    return CI(p, lo, hi, (hi - lo) / 2.0, int(n))


# ----------------------------------------------------------------------------- clustered rows


class ClusterSums(NamedTuple):
    """Additive sufficient statistics of a clustered mean (see the module docstring)."""

    clusters: int
    y: float  # sum of Y_c
    m: float  # sum of m_c (rows)
    yy: float  # sum of Y_c^2
    mm: float  # sum of m_c^2
    ym: float  # sum of Y_c m_c

    def __add__(self, other):
        return ClusterSums(*(a + b for a, b in zip(self, other, strict=True)))


def cluster_sums(y, cluster=None) -> ClusterSums:
    """Sums of per-cluster totals of ``y`` (rows with equal ``cluster`` labels form one cluster;
    None = every row its own cluster)."""
    y = np.asarray(y, dtype=np.float64).ravel()
    if cluster is None:
        yc, mc = y, np.ones_like(y)
    else:
        _, inv = np.unique(np.asarray(cluster), return_inverse=True, axis=0)
        inv = inv.ravel()
        yc = np.bincount(inv, weights=y)
        mc = np.bincount(inv).astype(np.float64)
    return ClusterSums(
        int(yc.size),
        float(yc.sum()),
        float(mc.sum()),
        float(yc @ yc),
        float(mc @ mc),
        float(yc @ mc),
    )


def ratio_ci_from_sums(s: ClusterSums, level: float = 0.95, bounds=None) -> CI:
    """Ratio-estimator mean and t interval over clusters; ``bounds`` (lo, hi) clips the ends
    (e.g. (0, 1) for a proportion).  n of the result = rows."""
    n = int(s.m)
    if s.clusters == 0 or s.m == 0:
        return CI(math.nan, math.nan, math.nan, math.nan, 0)
    p = s.y / s.m
    if s.clusters < 2:
        return CI(p, -math.inf, math.inf, math.inf, n)
    k = s.clusters
    ss = max(s.yy - 2.0 * p * s.ym + p * p * s.mm, 0.0)  # sum (Y_c - p m_c)^2
    se = math.sqrt(k / (k - 1.0) * ss) / s.m
    h = float(_t_ppf(0.5 + level / 2.0, k - 1)) * se
    lo, hi = p - h, p + h
    if bounds is not None:
        lo, hi = max(lo, bounds[0]), min(hi, bounds[1])
    return CI(p, lo, hi, h, n)


def cluster_mean_ci(y, cluster=None, level: float = 0.95, bounds=None) -> CI:
    """Mean of rows ``y`` with a cluster-robust interval (clusters = equal ``cluster`` labels)."""
    return ratio_ci_from_sums(cluster_sums(y, cluster), level, bounds)


def cluster_diff_ci(y, in_a, in_b, cluster, level: float = 0.95) -> CI:
    """Difference of two row means, mean(y | in_a) - mean(y | in_b), with a cluster-robust t
    interval over clusters (a cluster may hold rows of both groups, as the two teams of one
    hand do: their correlation is then accounted for).

    Each mean is a ratio estimator; the difference is linearized per cluster,
    e_c = (Y_ac - p_a m_ac) / M_a - (Y_bc - p_b m_bc) / M_b, and
    var = G / (G - 1) * sum e_c^2 over the G clusters holding any row of either group.
    n of the result = clusters."""
    y = np.asarray(y, dtype=np.float64).ravel()
    a = np.asarray(in_a, dtype=bool).ravel()
    b = np.asarray(in_b, dtype=bool).ravel()
    keep = a | b
    if not a.any() or not b.any():
        return CI(math.nan, math.nan, math.nan, math.nan, 0)
    _, inv = np.unique(np.asarray(cluster)[keep], return_inverse=True, axis=0)
    inv = inv.ravel()
    g = int(inv.max()) + 1
    ya, yb, ka, kb = y[keep] * a[keep], y[keep] * b[keep], a[keep], b[keep]
    yac, mac = np.bincount(inv, ya, g), np.bincount(inv, ka.astype(np.float64), g)
    ybc, mbc = np.bincount(inv, yb, g), np.bincount(inv, kb.astype(np.float64), g)
    pa, pb = yac.sum() / mac.sum(), ybc.sum() / mbc.sum()
    d = pa - pb
    if g < 2:
        return CI(d, -math.inf, math.inf, math.inf, g)
    e = (yac - pa * mac) / mac.sum() - (ybc - pb * mbc) / mbc.sum()
    se = math.sqrt(g / (g - 1.0) * float(e @ e))
    h = float(_t_ppf(0.5 + level / 2.0, g - 1)) * se
    return CI(d, d - h, d + h, h, g)


def cluster_group_ci(
    df,
    value: str,
    by: list[str],
    cluster: list[str],
    level: float = 0.95,
    bounds=None,
    proportion: bool = False,
):
    """Per group of ``by``: rows, clusters and the cluster-robust mean of ``value``.

    ``df`` is a pandas DataFrame; the clusters are the distinct values of the ``cluster``
    columns (a cluster may fall into several groups: each group uses its own part of it).
    ``proportion``: ``value`` is 0/1; the interval is Wilson's on the effective sample size
    n_eff = p (1 - p) / se^2 (se from the ratio estimator; n_eff = clusters when p is 0 or 1),
    with the t quantile of clusters - 1 degrees of freedom: it stays inside [0, 1] and keeps
    its coverage for rare events and few clusters, where the symmetric interval does not.
    Returns a DataFrame: by..., n, clusters, mean, low, high."""
    import pandas as pd

    per = df.groupby(by + cluster, sort=False, observed=True)[value].agg(["sum", "size"])
    per = per.rename(columns={"sum": "Y", "size": "m"}).reset_index()
    per["YY"], per["MM"], per["YM"] = per["Y"] ** 2, per["m"] ** 2, per["Y"] * per["m"]
    g = (
        per.groupby(by, sort=True, observed=True)
        .agg(
            clusters=("Y", "size"),
            y=("Y", "sum"),
            m=("m", "sum"),
            yy=("YY", "sum"),
            mm=("MM", "sum"),
            ym=("YM", "sum"),
        )
        .reset_index()
    )
    k = g["clusters"].to_numpy(np.float64)
    m = g["m"].to_numpy(np.float64)
    p = g["y"].to_numpy(np.float64) / m
    ss = np.maximum(g["yy"] - 2 * p * g["ym"] + p * p * g["mm"], 0.0).to_numpy()
    with np.errstate(invalid="ignore", divide="ignore"):
        se = np.sqrt(k / (k - 1.0) * ss) / m
        tq = _t_ppf(0.5 + level / 2.0, np.maximum(k - 1, 1))
    if proportion:
        lo, hi = _wilson_effective(p, se, m, k, tq)
    else:
        h = np.where(k >= 2, tq * se, np.inf)
        lo, hi = p - h, p + h
    if bounds is not None:
        lo, hi = np.maximum(lo, bounds[0]), np.minimum(hi, bounds[1])
    return pd.DataFrame(
        {
            **{b: g[b] for b in by},
            "n": m.astype(np.int64),
            "clusters": k.astype(np.int64),
            "mean": p,
            "low": lo,
            "high": hi,
        }
    )


def _wilson_effective(p, se, m, k, tq):
    """Wilson bounds of proportions p with effective sizes from their cluster-robust se."""
    with np.errstate(invalid="ignore", divide="ignore"):
        interior = (p > 0) & (p < 1) & (se > 0)
        n_eff = np.where(interior, p * (1 - p) / np.where(se > 0, se, 1.0) ** 2, k)
        n_eff = np.clip(n_eff, 1.0, m)
        z2 = tq * tq
        denom = 1.0 + z2 / n_eff
        centre = (p + z2 / (2 * n_eff)) / denom
        h = tq * np.sqrt(p * (1 - p) / n_eff + z2 / (4 * n_eff * n_eff)) / denom
    few = k < 2
    return np.where(few, 0.0, centre - h), np.where(few, 1.0, centre + h)


def variance_reduction(d1, d2) -> float:
    """Duplicate-deal variance-reduction factor (see the module docstring).

    ``d1``, ``d2``: per-deal (A - B) score differences in seating 1 and seating 2."""
    d1 = np.asarray(d1, dtype=np.float64).ravel()
    d2 = np.asarray(d2, dtype=np.float64).ravel()
    if d1.size < 2 or d1.size != d2.size:
        return math.nan
    var_ind = np.concatenate([d1, d2]).var(ddof=1)
    var_dup = ((d1 + d2) / 2.0).var(ddof=1)
    if var_dup == 0:
        return math.inf if var_ind > 0 else math.nan
    return float(var_ind / (2.0 * var_dup))


def variance_reduction_ci(d1, d2, level: float = 0.95) -> CI:
    """``variance_reduction`` with a delta-method interval (on the log of the factor).

    Per deal the vector (u, s, q) = ((d1^2 + d2^2) / 2, (d1 + d2) / 2, s^2) is iid; the factor
    is (E u - (E s)^2) / (2 (E q - (E s)^2)) up to the ddof corrections, a smooth function of
    the three means, so its log is asymptotically normal with the gradient-sandwich variance."""
    d1 = np.asarray(d1, dtype=np.float64).ravel()
    d2 = np.asarray(d2, dtype=np.float64).ravel()
    n = d1.size
    f = variance_reduction(d1, d2)
    if n < 3 or not math.isfinite(f) or f <= 0:
        return CI(f, -math.inf, math.inf, math.inf, n)
    s = (d1 + d2) / 2.0
    u = (d1 * d1 + d2 * d2) / 2.0
    q = s * s
    x = np.stack([u, s, q])
    mu = x.mean(axis=1)
    cov = np.cov(x) / n
    vi = mu[0] - mu[1] ** 2
    vd = mu[2] - mu[1] ** 2
    # d log f / d (Eu, Es, Eq)
    grad = np.array([1.0 / vi, -2.0 * mu[1] / vi + 2.0 * mu[1] / vd, -1.0 / vd])
    se = math.sqrt(max(float(grad @ cov @ grad), 0.0))
    z = float(_norm_ppf(0.5 + level / 2.0))
    lo, hi = f * math.exp(-z * se), f * math.exp(z * se)
    return CI(f, lo, hi, (hi - lo) / 2.0, n)


# ----------------------------------------------------------------------------- Bradley-Terry


class BTResult(NamedTuple):
    """Bradley-Terry fit: P(i beats j) = 1 / (1 + exp(theta_j - theta_i)).

    theta is centred (sum 0); se from the observed information (Hessian) under that
    constraint; low/high = theta -+ z*se (or bootstrap percentiles when bootstrapped)."""

    theta: np.ndarray
    se: np.ndarray
    low: np.ndarray
    high: np.ndarray
    iterations: int


def _bt_mm(wins: np.ndarray, prior: float, tol: float, max_iter: int) -> tuple[np.ndarray, int]:
    w = wins + prior * (1 - np.eye(wins.shape[0]))
    n = w + w.T  # games between i and j
    total = w.sum(axis=1)  # wins of i
    p = np.ones(w.shape[0])
    it = 0
    for it in range(1, max_iter + 1):  # noqa: B007 - reported
        denom = (n / (p[:, None] + p[None, :])).sum(axis=1)
        new = np.where(denom > 0, total / np.where(denom > 0, denom, 1.0), p)
        new = np.maximum(new, 1e-300)
        new /= math.exp(np.log(new).mean())
        if np.max(np.abs(np.log(new) - np.log(p))) < tol:
            p = new
            break
        p = new
    return np.log(p), it


def bradley_terry(
    wins,
    level: float = 0.95,
    prior: float | None = None,
    tol: float = 1e-10,
    max_iter: int = 10_000,
) -> BTResult:
    """Fit Bradley-Terry strengths by the MM algorithm (Hunter 2004).

    ``wins[i, j]`` = number of times i beat j (ties may be entered as 0.5 to each side).
    ``prior``: virtual wins added in every direction between every pair; None = 0 unless some
    player has no wins or no losses (then the MLE is infinite and 0.5 is used)."""
    wins = np.asarray(wins, dtype=np.float64)
    k = wins.shape[0]
    if wins.shape != (k, k) or k < 2:
        raise ValueError("wins must be a square matrix of at least 2 players")
    wins = wins * (1 - np.eye(k))
    if prior is None:
        degenerate = (wins.sum(axis=1) == 0).any() or (wins.sum(axis=0) == 0).any()
        prior = 0.5 if degenerate else 0.0
    theta, it = _bt_mm(wins, prior, tol, max_iter)
    # observed information for theta (log-strengths); singular along the all-ones direction
    w = wins + prior * (1 - np.eye(k))
    n = w + w.T
    p = np.exp(theta)
    q = p[:, None] * p[None, :] / (p[:, None] + p[None, :]) ** 2 * n
    info = -q
    np.fill_diagonal(info, 0.0)
    np.fill_diagonal(info, -info.sum(axis=1))
    cov = np.linalg.pinv(info)  # Moore-Penrose = covariance under the sum-zero constraint
    se = np.sqrt(np.clip(np.diag(cov), 0.0, None))
    z = float(_norm_ppf(0.5 + level / 2.0))
    return BTResult(theta, se, theta - z * se, theta + z * se, it)


def bradley_terry_bootstrap(
    per_unit_wins, level: float = 0.95, n_boot: int = 200, seed: int = 0
) -> BTResult:
    """Bradley-Terry with bootstrap CIs over independent units (e.g. deals).

    ``per_unit_wins``: array (units, k, k); unit u's wins matrix.  Resamples units with
    replacement, refits, and reports percentile intervals and the bootstrap sd as se."""
    arr = np.asarray(per_unit_wins, dtype=np.float64)
    if arr.ndim != 3:
        raise ValueError("per_unit_wins must have shape (units, k, k)")
    base = bradley_terry(arr.sum(axis=0), level)
    u = arr.shape[0]
    rng = np.random.default_rng(seed)
    thetas = np.empty((n_boot, arr.shape[1]))
    flat = arr.reshape(u, -1)
    for b in range(n_boot):
        counts = np.bincount(rng.integers(0, u, size=u), minlength=u).astype(np.float64)
        thetas[b] = bradley_terry((counts @ flat).reshape(arr.shape[1:]), level).theta
    lo, hi = np.quantile(thetas, [0.5 - level / 2.0, 0.5 + level / 2.0], axis=0)
    return BTResult(base.theta, thetas.std(axis=0, ddof=1), lo, hi, base.iterations)


def to_elo(theta, base: float = 1500.0) -> np.ndarray:
    """Bradley-Terry log-strengths -> Elo-like points: 400 points = 10:1 odds.

    The scale is centred so the mean rating is ``base``."""
    t = np.asarray(theta, dtype=np.float64)
    return base + ELO_SCALE * (t - t.mean())
