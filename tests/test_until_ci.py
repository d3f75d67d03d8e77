"""compare's --until-ci stopping rule: over repeated small runs, the interval it stops with
covers the true edge about 95% of the time, with the luck adjustment on (it starts at 200
deals, unadjusted: too few deals to fit the coefficients, and adjusts from ~500 on).

The engine is a stand-in whose true edge is known exactly (30 points per hand): each hand's
score difference is 30 for A + 150 x a zero-mean chance term the records carry + noise, so the
luck-adjusted path (cross-fitted coefficients, t-interval) and the stopping rule are what is
tested, in seconds instead of the minutes real play would need."""

from __future__ import annotations

import numpy as np
from fake_engine import seat

from reports.compare import compare
from sim.core.enums import LUCK_SCALE, N_LUCK, hand_record_dt

EDGE = 30.0


def fake_chunk(rules, strategies, seed, start, count, mode="hands", luck=False):
    """Hands whose key decides the chance term (the same deal in both seatings) and the noise."""
    a_team = 0 if strategies[0] == "expert" else 1
    r = np.random.default_rng([seed, start, a_team])  # each deal key is played once per seating
    chance = r.normal(
        size=(count, 2)
    )  # the two teams' zero-mean luck (the play differs by seating)
    score = 150 * chance + r.normal(scale=120, size=(count, 2))
    score[:, a_team] += EDGE
    hands = np.zeros(count, hand_record_dt)
    hands["game"] = np.arange(start, start + count)
    hands["score"][:, :2] = np.round(score).astype(np.int32)
    if luck:
        hands["luck"][:, 0] = (chance[:, 0] * LUCK_SCALE).astype(np.int32)
        hands["luck"][:, N_LUCK] = (chance[:, 1] * LUCK_SCALE).astype(np.int32)
    return type("Result", (), {"hands": hands, "games": None})()


def test_until_ci_interval_covers_the_true_edge():
    reps = 200
    cover = 0
    stopped_early = 0
    for seed in range(reps):
        with seat(fake_chunk, "luck"):
            row = compare(
                ["expert", "greedy"],
                hands=200,
                seed=seed,
                until_ci=10.0,
                max_hands=20_000,
                jobs=1,
            ).iloc[0]
        assert row["estimator"] == "luck-adjusted"
        cover += row["ci_low"] <= EDGE <= row["ci_high"]
        stopped_early += row["deals"] < 20_000 and row["half_width"] < 10.0
    # binomial sd at 200 runs is 1.5%: 95% +- 4.5% is three of them
    assert abs(cover / reps - 0.95) <= 0.045, cover / reps
    assert stopped_early == reps
