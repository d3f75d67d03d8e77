"""Coverage and recovery checks of reports.stats (fixed seeds, simulated data)."""

from __future__ import annotations

import numpy as np
import pytest
from fake_engine import seat

from reports import stats


@pytest.mark.parametrize("dist", ["normal", "skewed"])
def test_t_ci_coverage(dist):
    rng = np.random.default_rng(12345)
    reps, n = 2000, 50
    if dist == "normal":
        data, true = rng.normal(3.0, 2.0, size=(reps, n)), 3.0
    else:  # gamma(shape 4) is visibly skewed; the t interval is still ~95% at n=50
        data, true = rng.gamma(4.0, 1.5, size=(reps, n)), 6.0
    cover = np.mean([(c.low <= true <= c.high) for c in map(stats.mean_ci, data)])
    assert 0.93 <= cover <= 0.97, cover


def test_bootstrap_ci_coverage():
    rng = np.random.default_rng(7)
    reps, n = 400, 50
    data = rng.normal(0.0, 1.0, size=(reps, n))
    cover = np.mean(
        [
            stats.mean_ci(x, method="bootstrap", n_boot=1000, seed=i).low
            <= 0.0
            <= stats.mean_ci(x, method="bootstrap", n_boot=1000, seed=i).high
            for i, x in enumerate(data)
        ]
    )
    # percentile bootstrap is slightly anti-conservative at n=50; 400 reps -> wider band
    assert 0.90 <= cover <= 0.97, cover


def test_wilson_coverage():
    rng = np.random.default_rng(99)
    reps, n = 2000, 50
    for p_true in (0.1, 0.3, 0.5):
        k = rng.binomial(n, p_true, size=reps)
        _, lo, hi = stats.wilson_ci(k, np.full(reps, n))
        cover = np.mean((lo <= p_true) & (p_true <= hi))
        assert 0.93 <= cover <= 0.975, (p_true, cover)


def test_wilson_scalar_and_edges():
    p, lo, hi = stats.wilson_ci(0, 20)
    assert p == 0.0 and lo == 0.0 and 0.0 < hi < 0.2
    p, lo, hi = stats.wilson_ci(20, 20)
    assert hi == 1.0 and lo > 0.8


def test_paired_narrower_than_unpaired():
    rng = np.random.default_rng(3)
    deal = rng.normal(0, 100, size=500)  # shared deal luck -> positive correlation
    a = deal + rng.normal(5, 20, size=500)
    b = deal + rng.normal(0, 20, size=500)
    paired = stats.paired_diff_ci(a, b)
    unpaired = stats.unpaired_diff_ci(a, b)
    assert paired.half_width < unpaired.half_width / 3
    assert paired.low <= 5 <= paired.high
    assert abs(paired.mean - unpaired.mean) < 1e-9


def test_variance_reduction():
    rng = np.random.default_rng(4)
    n = 20000
    luck = rng.normal(0, 300, size=n)  # who gets the good cards: swaps sign with the seating
    d1 = 10 + luck + rng.normal(0, 50, size=n)
    d2 = 10 - luck + rng.normal(0, 50, size=n)
    f = stats.variance_reduction(d1, d2)
    expected = (300**2 + 50**2) / (2 * (50**2 / 2))  # var_ind / (2 * var_dup)
    assert abs(f / expected - 1) < 0.1, (f, expected)
    # independent seatings: no gain
    g = stats.variance_reduction(rng.normal(0, 1, n), rng.normal(0, 1, n))
    assert abs(g - 1) < 0.05


def test_bradley_terry_recovers_strengths():
    rng = np.random.default_rng(11)
    true = np.array([0.8, 0.3, 0.0, -0.4, -0.7])
    true -= true.mean()
    k = true.size
    wins = np.zeros((k, k))
    for i in range(k):
        for j in range(i + 1, k):
            p = 1 / (1 + np.exp(true[j] - true[i]))
            w = rng.binomial(3000, p)
            wins[i, j], wins[j, i] = w, 3000 - w
    fit = stats.bradley_terry(wins)
    assert np.allclose(fit.theta, true, atol=0.06), fit.theta
    assert np.all(fit.se > 0) and np.all(fit.se < 0.06)
    assert np.argsort(-fit.theta).tolist() == list(range(k))


def test_bradley_terry_se_calibrated():
    rng = np.random.default_rng(5)
    true = np.array([0.5, 0.0, -0.5])
    hits, reps = 0, 300
    for _ in range(reps):
        wins = np.zeros((3, 3))
        for i in range(3):
            for j in range(i + 1, 3):
                w = rng.binomial(200, 1 / (1 + np.exp(true[j] - true[i])))
                wins[i, j], wins[j, i] = w, 200 - w
        f = stats.bradley_terry(wins)
        hits += f.low[0] <= true[0] <= f.high[0]
    assert 0.91 <= hits / reps <= 0.98


def test_bradley_terry_degenerate_and_bootstrap():
    wins = np.array([[0, 10, 10], [0, 0, 6], [0, 4, 0]], dtype=float)  # player 0 never loses
    fit = stats.bradley_terry(wins)
    assert np.isfinite(fit.theta).all() and fit.theta[0] == fit.theta.max()
    rng = np.random.default_rng(1)
    units = np.zeros((300, 2, 2))
    a_wins = rng.random(300) < 0.7
    units[a_wins, 0, 1] = 1
    units[~a_wins, 1, 0] = 1
    bt = stats.bradley_terry_bootstrap(units, n_boot=200)
    share = a_wins.mean()  # two players: the MLE is theta0 - theta1 = log(share / (1 - share))
    assert bt.low[0] < bt.theta[0] < bt.high[0]
    assert abs((bt.theta[0] - bt.theta[1]) - np.log(share / (1 - share))) < 1e-6
    assert bt.low[0] < np.log(0.7 / 0.3) / 2 < bt.high[0]


def test_elo_scale():
    elo = stats.to_elo([np.log(10) / 2, -np.log(10) / 2])
    assert np.allclose(elo, [1700, 1300])


# ----------------------------------------------------------------------------- compare / sweep
# (against tests.synthetic_engine.fake_run_chunk: team skill expert 60, greedy 0 per seat)

from synthetic_engine import fake_rules, fake_run_chunk  # noqa: E402

from reports.compare import compare, round_robin  # noqa: E402
from reports.sweep import make_spec, parse_knobs, sweep  # noqa: E402


def test_compare_duplicate_recovers_skill_and_reduces_variance():
    with seat(fake_run_chunk):
        df = compare(
            ["expert", "greedy"],
            rules=fake_rules(4),
            hands=1500,
            games=100,
            jobs=1,
            seed=3,
        )
    row = df.iloc[0]
    assert row["hands"] == 3000 and row["deals"] == 1500
    assert abs(row["mean_diff_per_hand"] - 120) < 2 * row["half_width"]  # two seats x 60
    assert row["variance_reduction"] > 5  # deal luck cancels between the seatings
    assert row["share_hands_won_a"] > 0.5 and row["games"] == 100
    for est in ("share_hands_won", "share_games_won", "variance_reduction"):
        a = "_a" if est.startswith("share") else ""
        assert row[f"{est}_low"] < row[f"{est}{a}"] < row[f"{est}_high"], est


def test_compare_until_ci_and_errors():
    with seat(fake_run_chunk):
        df = compare(
            ["expert", "greedy"],
            rules=fake_rules(4),
            hands=100,
            until_ci=6,
            jobs=1,
        )
    assert df.iloc[0]["half_width"] < 6 and df.iloc[0]["deals"] > 100
    with seat(fake_run_chunk):
        capped = compare(
            ["expert", "greedy"],
            rules=fake_rules(4),
            hands=100,
            until_ci=0.01,
            max_hands=300,
            jobs=1,
        )
    assert capped.iloc[0]["deals"] == 300
    with pytest.raises(ValueError, match="2-team"):
        with seat(fake_run_chunk):
            compare(["expert", "greedy"], rules=fake_rules(3), hands=10)


def test_round_robin_ranking():
    with seat(fake_run_chunk):
        pairs, rank = round_robin(
            ["greedy", "random", "expert"],
            rules=fake_rules(4),
            hands=300,
            jobs=1,
            n_boot=50,
        )
    assert len(pairs) == 3
    assert rank["strategy"].tolist() == ["expert", "greedy", "random"]
    assert (rank["elo_low"] <= rank["elo"]).all() and (rank["elo"] <= rank["elo_high"]).all()
    assert (rank["deals_won_low"] < rank["deals_won_high"]).all()  # random never wins: not [0, 0]
    assert (rank["mean_diff_vs_field_low"] < rank["mean_diff_vs_field"]).all()


def test_sweep_finds_best_knob():
    assert (
        make_spec("tunable:freeze_when=2", {"open_threshold": 70})
        == "tunable:freeze_when=2,open_threshold=70"
    )
    knobs = parse_knobs(["open_threshold=50,90,130"])
    with seat(fake_run_chunk):
        df = sweep("tunable", knobs, "greedy", rules=fake_rules(4), hands=300, jobs=1)
    assert df.iloc[0]["open_threshold"] == 90 and df["rank"].tolist() == [1, 2, 3]


def test_sweep_paired_to_baseline_ties_no_effect_and_retest():
    # synthetic skill: open_threshold 90 best (+80 per seat over 50 and 130); pair_hold nothing
    knobs = parse_knobs(["open_threshold=50,90,130", "pair_hold=1,2"])
    with seat(fake_run_chunk):
        df = sweep(
            "tunable:open_threshold=50",
            knobs,
            "greedy",
            rules=fake_rules(4),
            hands=300,
            jobs=1,
        )
    top = df.iloc[0]
    assert top["open_threshold"] == 90 and df["tied_best"].sum() == 2  # both pair_hold values
    assert top["vs_baseline_low"] < 160 < top["vs_baseline_high"]  # 2 seats x 80
    at50 = df[df["open_threshold"] == 50]
    assert (
        (at50[["vs_baseline", "vs_baseline_low", "vs_baseline_high"]] == 0).all().all()
    )  # same play
    k = df.attrs["knobs"].set_index("knob")
    assert (
        not k.loc["open_threshold", "no_effect"] and not k.loc["open_threshold", "play_identical"]
    )
    assert k.loc["pair_hold", "no_effect"] and k.loc["pair_hold", "play_identical"]
    r = df.attrs["retest"]
    assert r["confirmed"] and r["seed"] == 1 and r["vs_baseline_low"] < 160 < r["vs_baseline_high"]
    with pytest.raises(ValueError):
        parse_knobs(["open_threshold"])


# ----------------------------------------------------------------------------- clustered rows


def clustered_rows(rng, n_clusters, reps=1):
    """Rows sharing a cluster: a cluster-level propensity and a random number of rows (1..12),
    the design of decision rows within a hand.  Returns (rep, cluster, group, y)."""
    k = reps * n_clusters
    size = rng.integers(1, 13, size=k)
    prop = rng.beta(0.4, 0.6, size=k)  # strong cluster effect, as in P(go out) per hand
    rep = np.repeat(np.repeat(np.arange(reps), n_clusters), size)
    cl = np.repeat(np.arange(k), size)
    group = rng.integers(0, 3, size=cl.size)  # a feature of the row (e.g. canastas held)
    y = (rng.random(cl.size) < np.minimum(prop[cl] * (1 + 0.2 * group), 1)).astype(np.float64)
    return rep, cl, group, y


def test_cluster_group_ci_coverage_and_wilson_too_narrow():
    import pandas as pd

    rng = np.random.default_rng(2024)
    _, cl, group, y = clustered_rows(rng, 200_000)
    truth = pd.Series(y).groupby(group).mean()  # the value of a large run
    rep, cl, group, y = clustered_rows(rng, 150, reps=1500)
    df = pd.DataFrame({"rep": rep, "cl": cl, "g": group, "y": y})
    for proportion in (False, True):
        tab = stats.cluster_group_ci(
            df, "y", ["rep", "g"], ["cl"], bounds=(0, 1), proportion=proportion
        )
        t = truth.reindex(tab["g"]).to_numpy()
        cover = np.mean((tab["low"] <= t) & (t <= tab["high"]))
        assert 0.93 <= cover <= 0.97, (proportion, cover)
    k = df.groupby(["rep", "g"])["y"].agg(["sum", "size"])
    _, lo, hi = stats.wilson_ci(k["sum"].to_numpy(), k["size"].to_numpy())
    naive = np.mean((lo <= t) & (t <= hi))
    assert naive < 0.85, naive  # rows as independent: 0.79 measured, far below 0.93


def test_cluster_proportion_ci_few_clusters_and_rare_events():
    """Where the symmetric interval fails (20 clusters, p ~ 0.05) the Wilson form holds."""
    import pandas as pd

    rng = np.random.default_rng(77)
    reps, n_cl = 3000, 20
    size = rng.integers(1, 9, size=reps * n_cl)
    prop = rng.beta(0.3, 5.7, size=reps * n_cl)  # mean 0.05, strongly clustered
    cl = np.repeat(np.arange(reps * n_cl), size)
    y = (rng.random(cl.size) < prop[cl]).astype(float)
    # the truth of the ratio: E[sum y] / E[m] = E[prop] (size independent of prop)
    df = pd.DataFrame({"rep": cl // n_cl, "cl": cl, "y": y})
    tab = stats.cluster_group_ci(df, "y", ["rep"], ["cl"], bounds=(0, 1), proportion=True)
    cover = np.mean((tab["low"] <= 0.05) & (0.05 <= tab["high"]))
    # measured 0.973 (the symmetric interval: 0.861); erring wide is the safe side here
    assert 0.93 <= cover <= 0.98, cover


def test_cluster_mean_ci_reduces_to_t_and_sums_add():
    rng = np.random.default_rng(5)
    x = rng.normal(2.0, 3.0, 400)
    a, b = stats.cluster_mean_ci(x), stats.mean_ci(x)
    assert abs(a.mean - b.mean) < 1e-12 and abs(a.half_width / b.half_width - 1) < 1e-9
    cl = rng.integers(0, 50, 400)
    whole = stats.cluster_sums(x, cl)
    parts = stats.cluster_sums(x[cl < 25], cl[cl < 25]) + stats.cluster_sums(
        x[cl >= 25], cl[cl >= 25]
    )
    assert np.allclose(whole, parts)
    c = stats.ratio_ci_from_sums(whole)
    assert c.n == 400 and abs(c.mean - x.mean()) < 1e-12
    assert stats.ratio_ci_from_sums(stats.cluster_sums([1.0])).half_width == np.inf


def test_variance_reduction_ci_coverage():
    rng = np.random.default_rng(8)
    reps, n = 1000, 400
    rho = -0.19  # the measured correlation of the two plays of a deal
    cov = 300.0**2 * np.array([[1, rho], [rho, 1]])
    z = rng.multivariate_normal([10, 10], cov, size=(reps, n))
    z[..., 0] += rng.standard_t(5, size=(reps, n)) * 80  # heavier tails than normal
    truth = (
        (cov[0, 0] + 80**2 * 5 / 3 + cov[1, 1])
        / 2
        / (2 * (cov[0, 0] + 80**2 * 5 / 3 + cov[1, 1] + 2 * cov[0, 1]) / 4)
    )
    hits = [
        (c.low <= truth <= c.high)
        for c in (stats.variance_reduction_ci(z[i, :, 0], z[i, :, 1]) for i in range(reps))
    ]
    assert 0.93 <= np.mean(hits) <= 0.97, np.mean(hits)


def test_share_ci():
    c = stats.share_ci(30.5, 50)
    assert abs(c.mean - 0.61) < 1e-12 and c.low < 0.61 < c.high and c.n == 50


def test_cluster_diff_ci_coverage_with_correlated_teams():
    """Two strategies' rows share clusters (the two teams of one game, several hands each):
    the clustered difference covers the true difference 95% +- 2% of the time, while treating
    rows as independent two samples does not (a per-game effect on one team's rows makes the
    naive interval far too narrow)."""
    rng = np.random.default_rng(77)
    reps, games, true_diff = 1500, 40, 0.3
    cover = naive_cover = 0
    for _ in range(reps):
        hands = rng.integers(1, 11, games)  # hands per game differ
        g = np.repeat(np.arange(games), hands)
        shared = rng.normal(0, 1.0, games)[g]  # game effect on both teams
        own_a = rng.normal(0, 1.5, games)[g]  # game effect on team a only
        ya = true_diff + shared + own_a + rng.normal(0, 0.5, g.size)
        yb = shared + rng.normal(0, 0.5, g.size)
        y = np.concatenate([ya, yb])
        cl = np.concatenate([g, g])
        a = np.r_[np.ones(g.size, bool), np.zeros(g.size, bool)]
        c = stats.cluster_diff_ci(y, a, ~a, cl)
        assert c.n == games
        cover += c.low <= true_diff <= c.high
        u = stats.unpaired_diff_ci(ya, yb)
        naive_cover += u.low <= true_diff <= u.high
    assert 0.93 <= cover / reps <= 0.97, cover / reps
    assert naive_cover / reps < 0.85, naive_cover / reps


def test_cluster_diff_ci_edges():
    y = np.array([1.0, 2.0, 3.0])
    assert np.isnan(stats.cluster_diff_ci(y, [True] * 3, [False] * 3, [0, 1, 2]).mean)
    one = stats.cluster_diff_ci(y, [True, False, False], [False, True, True], [0, 0, 0])
    assert one.mean == -1.5 and one.high == np.inf


class _CountingBar:
    """A stand-in progress bar: counts the deals it is advanced by."""

    def __init__(self, total=0):
        self.total, self.n = total, 0

    def update(self, k):
        self.n += k

    def refresh(self):
        pass


def test_compare_and_sweep_advance_one_progress_bar():
    bar = _CountingBar(total=2 * 3 * 40)
    with seat(fake_run_chunk):
        compare(
            ["expert", "greedy", "random"],
            rules=fake_rules(4),
            hands=40,
            jobs=1,
            progress=bar,
        )
    assert bar.n == 3 * 2 * 40  # three pairings, two seatings, 40 deals
    grown = _CountingBar(total=2 * 100)
    with seat(fake_run_chunk):
        df = compare(
            ["expert", "greedy"],
            rules=fake_rules(4),
            hands=100,
            until_ci=6,
            jobs=1,
            progress=grown,
        )
    assert grown.n == 2 * df.iloc[0]["deals"] and grown.total == grown.n  # --until-ci grows it
    sweep_bar = _CountingBar()
    with seat(fake_run_chunk):
        sweep(
            "tunable",
            parse_knobs(["open_threshold=50,90"]),
            "greedy",
            rules=fake_rules(4),
            hands=30,
            jobs=1,
            progress=sweep_bar,
        )
    # baseline + 2 settings + retest (winner and baseline), both seatings of 30 deals each
    assert sweep_bar.n == sweep_bar.total == 5 * 2 * 30


def test_round_robin_takes_the_compare_options():
    """`canasta compare A B C` passes luck/progress on to round_robin (it once raised TypeError)."""
    with seat(fake_run_chunk):
        pairs, rank = round_robin(
            ["greedy", "random", "expert"],
            rules=fake_rules(4),
            hands=50,
            jobs=1,
            n_boot=20,
            luck=False,
            progress=False,
        )
    assert len(pairs) == 3 and len(rank) == 3
