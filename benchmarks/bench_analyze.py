"""Speed of `canasta analyze` and the variance reduction of its common random numbers.

The position: the first decision with exactly 10 legal actions of a classic 4-player hand played
by expert (seed --seed), seen by the seat to act.  Timed: `reports.analyze.analyze` with
--until-ci 15 (successive elimination, cap 40000 rollouts per action), one process, warm cache
(a small run first).  Goal: every difference to the best at half-width <= 15 points within 10 s.

Variance reduction: from --paired rollouts of every action on the same worlds, for each action
against the best, var(paired differences) versus var(a) + var(best) (what independent rollouts
of the two actions would give): the ratio is the factor of rollouts common random numbers save.
Writes benchmarks/results/analyze.json.

    python benchmarks/bench_analyze.py [--seed 1] [--paired 4000]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time
from pathlib import Path

import numpy as np

from reports.analyze import analyze, decision_from_game, paired_rollouts
from sim.core.rules import RuleSet
from sim.play.game import GameState
from sim.play.pyplay import play_hand_py

ROOT = Path(__file__).resolve().parents[1]


def ten_action_decision(seed: int):
    """The first decision with 10 legal actions of an expert hand (key seed, 0, 0)."""
    rules = RuleSet.preset("classic", 4)
    for s in range(seed, seed + 50):
        full = play_hand_py(rules, ["expert"] * 4, s)
        gs = GameState.new_hand(rules, s)
        for a in full.actions:
            if len(gs.legal_actions()) == 10:
                return decision_from_game(
                    gs, label=f"classic-4p key ({s}, 0, 0), turn {int(gs.state[4]) + 1}"
                ), s
            gs.apply(a)
    raise SystemExit("no decision with 10 legal actions found")


def variance_reduction(dec, paired: int, seed: int) -> dict:
    us, them, _ = paired_rollouts(dec, "expert", paired, seed)
    r = (us - them).astype(np.float64)
    best = int(np.argmax(r.mean(axis=0)))
    ratios = []
    for a in range(r.shape[1]):
        if a == best:
            continue
        v_diff = (r[:, a] - r[:, best]).var(ddof=1)
        v_indep = r[:, a].var(ddof=1) + r[:, best].var(ddof=1)
        if v_diff > 0:
            ratios.append(v_indep / v_diff)
    return {
        "paired_rollouts": paired,
        "ratio_per_action": [round(x, 2) for x in ratios],
        "median_ratio": round(float(np.median(ratios)), 2),
        "min_ratio": round(float(min(ratios)), 2),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--paired", type=int, default=4000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "analyze.json"))
    args = ap.parse_args(argv)
    dec, key = ten_action_decision(args.seed)
    analyze(dec, rollouts=20, seed=0)  # warm the cache
    times, cpu, df = [], [], None
    for r in range(args.repeat):
        t0, c0 = time.perf_counter(), time.process_time()
        df = analyze(dec, rollouts=40000, until_ci=15, seed=100 + r)
        times.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    half = ((df["diff_ci_high"] - df["diff_ci_low"]) / 2).iloc[1:]
    alive = df["rollouts"].iloc[1:] == df.attrs["rollouts"]
    res = {
        "position": dec.label,
        "legal_actions": len(dec.actions),
        "method": f"analyze(until_ci=15, cap 40000), {args.repeat} seeds (wall time: best; CPU "
        "time of the "
        "process alongside), one process, warm cache; the machine is shared, so wall times are "
        "noisy",
        "seconds_best": round(min(times), 2),
        "seconds_all": [round(t, 2) for t in times],
        "cpu_seconds_all": [round(t, 2) for t in cpu],
        "goal_seconds": 10,
        "rollouts_max": int(df.attrs["rollouts"]),
        "rollouts_total": int(df["rollouts"].sum()),
        "max_half_width_of_kept_actions": round(float(half[alive].max()), 1)
        if alive.any()
        else None,
        "table": df.drop(columns=["action_id"]).round(2).to_dict("records"),
        "crn": variance_reduction(dec, args.paired, 7),
        "cpu": platform.machine(),
        "cpus_available": len(os.sched_getaffinity(0)),
        "python": platform.python_version(),
    }
    Path(args.out).write_text(json.dumps(res, indent=2) + "\n")
    print(json.dumps({k: v for k, v in res.items() if k != "table"}, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
