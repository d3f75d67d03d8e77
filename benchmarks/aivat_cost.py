"""Probe (issue 13): what evaluating a value-model AIVAT term inside the kernel would cost.

Fits the probe's value model (benchmarks/aivat_probe.py: gradient-boosted trees, --iters trees
of up to --leaves leaves) on --deals hands of A against B, exports its trees to arrays and
times a numba evaluation of them on every state the term needs (after the card drawn and after
each kind the stock holds, at every draw of those hands), against the time the engine takes to
play the same hands with the linear chance terms on (best of 3 each).  Feature building is
left out of the cost (it would add more), so the ratio is a lower bound.

    OMP_NUM_THREADS=1 nice -n 10 python benchmarks/aivat_cost.py
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np
from aivat_probe import features, fit_value, play, stock_shares
from numba import njit

from reports.compare import seat_strategies
from sim.core.enums import N_KINDS
from sim.core.rules import RuleSet
from sim.play.engine import run_chunk


@njit(cache=True)
def predict_nb(x, off, feat, thr, left, right, leaf, val, base, out):
    """Sum of the trees' leaf values for each row of x (float64[n, F]) into out (float64[n])."""
    for i in range(x.shape[0]):
        s = base
        for t in range(off.shape[0]):
            j = off[t]
            while not leaf[j]:
                j = off[t] + (left[j] if x[i, feat[j]] <= thr[j] else right[j])
            s += val[j]
        out[i] = s


def tree_arrays(model) -> tuple:
    """A fitted HistGradientBoostingRegressor's trees as flat arrays (node indices per tree)."""
    trees = [p[0].nodes for p in model._predictors]
    off = np.cumsum([0] + [len(t) for t in trees])[:-1].astype(np.int64)
    nodes = np.concatenate(trees)
    return (
        off,
        nodes["feature_idx"].astype(np.int64),
        nodes["num_threshold"].astype(np.float64),
        nodes["left"].astype(np.int64),
        nodes["right"].astype(np.int64),
        nodes["is_leaf"].astype(np.bool_),
        nodes["value"].astype(np.float64),
        float(np.ravel(model._baseline_prediction)[0]),
    )


def best_of(fn, n: int = 3) -> float:
    times = []
    for _ in range(n):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--a", default="expert")
    ap.add_argument("--b", default="greedy")
    ap.add_argument("--deals", type=int, default=1500)
    ap.add_argument("--iters", type=int, default=200)
    ap.add_argument("--leaves", type=int, default=31)
    ap.add_argument("--seed", type=int, default=21)
    ap.add_argument(
        "--out", default=str(Path(__file__).resolve().parent / "results" / "aivat_cost.json")
    )
    args = ap.parse_args()
    rules = RuleSet.preset("classic")
    d = play(rules, args.a, args.b, args.seed, args.deals)
    model = fit_value(features(d["raw"]), d["target"], args.iters, args.leaves, 0)
    arrays = tree_arrays(model)
    # every state a term needs: after the card drawn, and after each kind the stock holds
    p = stock_shares(d["raw"])
    x = np.concatenate(
        [features(d["raw"])] + [features(d["raw"][p[:, k] > 0], k) for k in range(N_KINDS)]
    )
    x = x.astype(np.float64)
    out = np.zeros(len(x))
    predict_nb(x[:10], *arrays, out[:10])
    assert np.allclose(out[:10], model.predict(x[:10].astype(np.float32)))
    hands = 2 * args.deals
    t_value = best_of(lambda: predict_nb(x, *arrays, out))
    seats = seat_strategies(rules, (args.a, args.b))
    run_chunk(rules, seats, args.seed, 0, 10, luck=True)
    t_play = best_of(
        lambda: [
            run_chunk(rules, seat_strategies(rules, t), args.seed, 0, args.deals, luck=True)
            for t in ((args.a, args.b), (args.b, args.a))
        ]
    )
    res = {
        "hands": hands,
        "value_evaluations": len(x),
        "per_hand": len(x) / hands,
        "us_per_evaluation": t_value / len(x) * 1e6,
        "value_s": t_value,
        "play_s": t_play,
        "cost_ratio": (t_play + t_value) / t_play,
        "trees": args.iters,
        "leaves": args.leaves,
    }
    print(
        f"{len(x) / hands:.0f} value evaluations per hand at {res['us_per_evaluation']:.2f} us: "
        f"{t_value / hands * 1e6:.0f} us per hand against {t_play / hands * 1e6:.1f} us to play it "
        f"(cost x{res['cost_ratio']:.0f}; load from other users makes both noisy)"
    )
    Path(args.out).write_text(json.dumps(res, indent=1))


if __name__ == "__main__":
    main()
