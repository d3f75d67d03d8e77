"""reports.values: a value model fitted on decision logs, split by hand, saved with the run."""

from __future__ import annotations

import numpy as np
import pytest

from reports import values
from sim.core.rules import RuleSet
from sim.runs import runner, store


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("values") / "run"
    runner.simulate(
        RuleSet.preset("classic"),
        "expert,greedy",
        hands=200,
        seed=3,
        out=out,
        jobs=1,
        chunk_size=100,
        log_decisions=1.0,
        log_detail="cards",
        progress=False,
    )
    return out


def test_fit_save_load(run_dir):
    vm = values.fit_value(run_dir, max_hands=None, threads=1)
    card = vm.card
    assert card["target"] == "score_us - score_them"
    assert "hand_JK" in card["features"] and "pile_top" in card["features"]
    assert not {"score_us", "score_them", "went_out_us", "seed", "game", "hand"} & set(
        card["features"]
    )
    low, high = card["r2_test_ci95"]
    assert low <= card["r2_test"] <= high
    assert card["hands_train"] + card["hands_test"] == 200
    assert (run_dir / "models" / "value.joblib").is_file() and (
        run_dir / "models" / "value.json"
    ).is_file()
    back = values.load_value(run_dir)
    assert back.card == card
    frame = store.read_run(run_dir, "decisions")
    assert np.array_equal(back.predict(frame), vm.predict(frame))


def test_ridge_and_chosen_features(run_dir):
    vm = values.fit_value(run_dir, model="ridge", save=False, threads=1)
    # the rows' situations say a lot about the hand's result: clearly better than the mean
    assert vm.card["r2_test_ci95"][0] > 0.05, vm.card
    few = values.fit_value(
        run_dir, model="ridge", features=["turn", "act_kind"], save=False, threads=1
    )
    assert few.card["features"] == ["turn", "act_kind"]
    assert few.card["r2_test"] < vm.card["r2_test"]


def test_split_keeps_every_hand_on_one_side():
    groups = np.repeat(np.arange(400), 7)
    train, test = values.split_by_hand(groups, 0.25, seed=1)
    assert not set(groups[train]) & set(groups[test])
    assert 0.18 < test.mean() < 0.32


def test_bad_inputs_are_one_line_errors(run_dir, tmp_path):
    with pytest.raises(values.ValueModelError, match="model='forest'"):
        values.fit_value(run_dir, model="forest")
    with pytest.raises(values.ValueModelError, match="'score_us' is not a feature"):
        values.fit_value(run_dir, features=["score_us"])
    with pytest.raises(values.ValueModelError, match="holds no value model"):
        values.load_value(tmp_path)
    plain = tmp_path / "plain"
    runner.simulate(RuleSet.preset("classic"), "greedy", hands=8, out=plain, jobs=1, progress=False)
    with pytest.raises(values.ValueModelError, match="no decision logs"):
        values.fit_value(plain)


def test_r2_interval_by_hand_covers():
    """Rows of a hand share a hand effect: the interval resamples hands and covers the true
    R² (1/3 here: y = x + hand effect + noise, all variance 1, predicted by x) ~95% of the time."""
    rng = np.random.default_rng(0)
    hits = 0
    reps = 200
    for rep in range(reps):
        k, m = 120, 6
        groups = np.repeat(np.arange(k), m)
        x = rng.normal(size=k * m)
        y = x + rng.normal(size=k)[groups] + rng.normal(size=k * m)
        _, low, high = values.r2_by_hand_ci(y, x, groups, n_boot=400, seed=rep)
        hits += low <= 1 / 3 <= high
    assert 0.89 <= hits / reps <= 0.99, hits
