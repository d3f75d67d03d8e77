"""The value-model AIVAT probe (benchmarks/aivat_probe.py, issue 13): its recording kernel
replays the engine's hands exactly, and its chance terms have mean zero only with the stock's
true distribution."""

from __future__ import annotations

import numpy as np
import pytest
from aivat_probe import event_terms, features, stock_shares
from aivat_record import S0, S_KIND, play_records

from reports.compare import seat_strategies
from sim.core.enums import N_KINDS
from sim.core.rules import RuleSet
from sim.play.engine import run_chunk

RULES = RuleSet.preset("classic")


@pytest.fixture(scope="module")
def records():
    return play_records(RULES, "expert", "greedy", 5, 0, 1500, 0)


def test_records_replay_the_engine(records):
    # same hands as run_chunk: the scores and the engine's linear chance terms agree bit for bit
    res = run_chunk(RULES, seat_strategies(RULES, ("expert", "greedy")), 5, 0, 1500, luck=True)
    assert np.array_equal(res.hands["score"][:, :3], records["scores"])
    assert np.array_equal(res.hands["luck"], records["luck"])
    assert 15 < len(records["raw"]) / 1500 < 60  # draws per hand


class _Value:
    """A fixed nonlinear value: the running score estimate (the last feature), squared in part."""

    def predict(self, x: np.ndarray) -> np.ndarray:
        est = x[:, -1].astype(np.float64)
        return est + 0.002 * est * np.abs(est)


def test_terms_zero_mean_only_under_the_stock_distribution(records):
    raw = records["raw"]
    v = _Value()
    actual, expect = event_terms(v, raw)
    t = actual - expect
    z = t.mean() / (t.std(ddof=1) / np.sqrt(len(t)))
    assert abs(z) < 4.5  # ~40,000 draws; a 4.5-sigma bound
    # the same terms with a wrong chance distribution (every kind left in the stock equally
    # likely) are biased: wild cards and red threes are rarer than that
    p = stock_shares(raw)
    wrong = (p > 0) / (p > 0).sum(1, keepdims=True)
    exp_wrong = np.zeros(len(raw))
    for k in range(N_KINDS):
        has = wrong[:, k] > 0
        exp_wrong[has] += wrong[has, k] * v.predict(features(raw[has], k))
    t_wrong = actual - exp_wrong
    z_wrong = t_wrong.mean() / (t_wrong.std(ddof=1) / np.sqrt(len(t_wrong)))
    assert abs(z_wrong) > 6  # measured: about 12
    # and the recorded kind is the card drawn: V(after it) is the actual column
    k0 = raw[:, S0 + S_KIND].astype(np.int64)
    one = k0 == k0[0]
    assert np.allclose(v.predict(features(raw[one], int(k0[0]))), actual[one])
