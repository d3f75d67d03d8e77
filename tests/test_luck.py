"""Luck-adjusted estimates: the chance terms have mean zero, the adjustment keeps the mean,
its interval covers, and recording the terms changes nothing else."""

from __future__ import annotations

import numpy as np
import pytest

from reports.compare import play_luck_pairs
from reports.luck import adjust, chance_terms, luck_adjusted, min_deals
from sim.core.enums import N_LUCK, OBS_SIZE, Luck, Off
from sim.core.rules import RuleSet
from sim.play.engine import run_chunk


@pytest.fixture(scope="module")
def classic_hands():
    rules = RuleSet.preset("classic")
    return run_chunk(rules, ("expert", "greedy") * 2, 5, 0, 3000, luck=True, check=True).hands


def test_terms_have_mean_zero(classic_hands):
    # each term is a feature minus its expectation at the moment of the event: over 3,000 hands
    # every term's mean is within 4.5 standard errors of zero (238 terms of the two teams: a
    # 4.5-sigma bound makes a false alarm about 1 in 600 runs); an off-by-one stock count fails it
    terms = chance_terms(classic_hands)[:, :2, :].reshape(len(classic_hands), -1)
    sd = terms.std(axis=0, ddof=1)
    used = sd > 0
    z = terms.mean(axis=0)[used] / (sd[used] / np.sqrt(len(terms)))
    # every draw and deal term varies but the red three's kind term, left at 0 in each block
    blocks = Luck.DEAL_JOKERS // Luck.DRAW_BASE
    assert used.sum() == 2 * (N_LUCK - blocks)
    assert np.abs(z).max() < 4.5


def test_terms_explain_part_of_the_result(classic_hands):
    d = classic_hands["score"][:, 0].astype(float) - classic_hands["score"][:, 1]
    terms = chance_terms(classic_hands)
    x = terms[:, 0, :] - terms[:, 1, :]
    assert np.var(d) / np.var(adjust(d, x)) > 1.2


def test_recording_terms_changes_nothing_else():
    rules = RuleSet.preset("samba")
    a = run_chunk(rules, ("expert", "greedy") * 2, 2, 0, 60, luck=True).hands
    b = run_chunk(rules, ("expert", "greedy") * 2, 2, 0, 60, luck=False).hands
    for name in a.dtype.names:
        if name != "luck":
            np.testing.assert_array_equal(a[name], b[name], err_msg=name)
    assert not b["luck"].any() and a["luck"].any()


def test_terms_stay_private():
    # the stock's kinds and the terms are never copied into a seat's observation
    assert min(Off.STOCK_KINDS, Off.LUCK_ON, Off.LUCK) >= OBS_SIZE
    assert Off.LUCK + 3 * N_LUCK == Off.STATE_SIZE and Luck.N_LUCK == N_LUCK


def test_adjusted_interval_covers_the_true_mean():
    # y = 10 + x.b + noise, x with mean zero: the cross-fitted adjusted mean's 95% CI covers 10
    # in 95% +- 2% of 1,000 repetitions, and is narrower than the plain one
    rng = np.random.default_rng(7)
    cover = 0
    narrower = 0
    reps = 1000
    for _ in range(reps):
        x = rng.normal(size=(300, 6))
        y = 10 + x @ np.array([30.0, -20, 10, 0, 0, 5]) + rng.normal(scale=25, size=300)
        est = luck_adjusted(y, x, n_boot=0)
        cover += est.ci[0] <= 10 <= est.ci[1]
        narrower += (est.ci[1] - est.ci[0]) < (est.plain_ci[1] - est.plain_ci[0])
    assert abs(cover / reps - 0.95) <= 0.02
    assert narrower == reps


def test_duplicate_pairs_agree_with_plain_compare():
    rules = RuleSet.preset("classic")
    pairs = play_luck_pairs(rules, "expert", "greedy", seed=3, count=600, chunk=150)
    est = luck_adjusted(pairs.diff, pairs.terms, n_boot=50)
    assert pairs.terms.shape == (600, N_LUCK) and pairs.first_terms.shape == (600, N_LUCK)
    assert 600 >= min_deals(N_LUCK) and est.variance_reduction > 1  # applied, and it helped
    # the adjusted and the plain means estimate the same edge
    assert abs(est.mean - est.plain_mean) < 2 * (est.plain_ci[1] - est.plain_ci[0])
    assert est.variance_reduction_ci[0] <= est.variance_reduction <= est.variance_reduction_ci[1]


def test_compare_headlines_the_adjusted_estimate_with_the_plain_beside():
    from reports.compare import compare

    row = compare(["expert", "greedy"], hands=600, seed=4, jobs=1).iloc[0]
    assert row["estimator"] == "luck-adjusted" and row["luck_variance_reduction"] > 1
    plain_half = (row["plain_ci_high"] - row["plain_ci_low"]) / 2
    assert abs(row["mean_diff_per_hand"] - row["plain_mean_diff_per_hand"]) < 2 * plain_half
    assert (
        row["luck_variance_reduction_low"]
        <= row["luck_variance_reduction"]
        <= row["luck_variance_reduction_high"]
    )
    plain = compare(["expert", "greedy"], hands=600, seed=4, jobs=1, luck=False).iloc[0]
    assert (
        plain["estimator"] == "plain"
        and plain["mean_diff_per_hand"] == row["plain_mean_diff_per_hand"]
    )


def test_too_few_deals_report_no_luck_reduction():
    """Below min_deals the coefficients are not fitted: the estimate is the plain one and the
    variance reduction is reported as missing, not as a reassuring 1.0 [1.0, 1.0]."""
    rng = np.random.default_rng(5)
    x = rng.normal(size=(100, 40))
    y = x[:, 0] * 10 + rng.normal(size=100)
    est = luck_adjusted(y, x, n_boot=20)
    assert est.mean == est.plain_mean and np.isnan(est.variance_reduction)
    assert np.isnan(est.variance_reduction_ci).all()


def test_float_floor_division_matches_integer_floor_division():
    """The terms divide through floats (speed); the quotients must equal Python's // exactly,
    negative numerators, exact multiples and their neighbours included."""
    from sim.core.luck import _floor_div_nb

    rng = np.random.default_rng(3)
    dens = np.concatenate([np.arange(1, 300), rng.integers(1, 1 << 20, 300)])
    for den in dens:
        den = int(den)
        nums = [
            0,
            1,
            -1,
            den,
            -den,
            den - 1,
            -den + 1,
            den + 1,
            -den - 1,
            7 * den,
            -7 * den,
            7 * den - 1,
            -7 * den - 1,
        ]
        nums += [int(x) for x in rng.integers(-(1 << 39), 1 << 39, 20)]
        nums += [q * den + r for q in (-(1 << 18), 1 << 18) for r in (-1, 0, 1)]
        for num in nums:
            assert _floor_div_nb(num, den) == num // den, (num, den)
