"""How many mistakes and blunders `canasta review` marks in a strategy's self-play, per hand.

    python benchmarks/review_marks.py run --strategies expert expert-v1 \\
        --continue-with expert-v1 expert --seeds 1-12
        for every (strategy, continuation, seed): `canasta review --seed S --seat 0
        --strategies STRATEGY --continue-with C --json --no-walk --no-accounting` (default
        1,000 rollouts, worlds inferred with the continuation), one JSON line per review in
        benchmarks/results/review_marks.jsonl (a rerun skips reviews already there)
    python benchmarks/review_marks.py show
        per (strategy, continuation): decisions, doubtful, mistakes and blunders per hand with
        95% CIs over hands, and the ratio of each strategy's mistakes + blunders to expert-v1's
        on the same seeds (a paired ratio of means, its 95% CI by the delta method)
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from reports import stats

ROOT = Path(__file__).resolve().parents[1]
LOG = ROOT / "benchmarks" / "results" / "review_marks.jsonl"


def _seeds(text: str) -> list[int]:
    lo, _, hi = text.partition("-")
    return list(range(int(lo), int(hi or lo) + 1))


def _done() -> set[tuple[str, str, int]]:
    if not LOG.exists():
        return set()
    rows = [json.loads(x) for x in LOG.read_text().splitlines()]
    return {(r["strategy"], r["continue_with"], r["seed"]) for r in rows}


def run(args) -> None:
    done = _done()
    for seed in _seeds(args.seeds):
        for cont in args.continue_with:
            for strat in args.strategies:
                if (strat, cont, seed) in done:
                    continue
                cmd = [
                    "canasta", "review", "--seed", str(seed), "--seat", "0",
                    "--strategies", strat, "--continue-with", cont,
                    "--json", "--no-walk", "--no-accounting",
                ]  # fmt: skip
                t = time.perf_counter()
                out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
                s = json.loads(out)["summary"][0]
                row = dict(
                    strategy=strat,
                    continue_with=cont,
                    seed=seed,
                    decisions=s["decisions"],
                    doubtful=s["doubtful"],
                    mistakes=s["mistakes"],
                    blunders=s["blunders"],
                    path_lost=s["path_lost"],
                    seconds=round(time.perf_counter() - t, 1),
                    command=" ".join(cmd),
                    utc=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                )
                with LOG.open("a") as f:
                    f.write(json.dumps(row) + "\n")
                print(
                    f"seed {seed} {strat} (rollouts {cont}): {row['decisions']} decisions, "
                    f"{row['mistakes']} mistakes, {row['blunders']} blunders",
                    flush=True,
                )


def _ci(x: np.ndarray) -> str:
    c = stats.mean_ci(x)
    return f"{c.mean:5.2f} [{c.low:5.2f}, {c.high:5.2f}]"


def show(args) -> None:
    rows = [json.loads(x) for x in LOG.read_text().splitlines()]
    by: dict[tuple[str, str], dict[int, dict]] = {}
    for r in rows:
        by.setdefault((r["strategy"], r["continue_with"]), {})[r["seed"]] = r
    print("canasta review --seat 0 of self-play, per hand (95% CI over hands)")
    head = f"{'strategy':12} {'rollouts':10} {'hands':>5} {'decisions':>20}"
    print(head + f" {'mistakes+blunders':>20} {'ratio to expert-v1':>22}")
    for (strat, cont), recs in sorted(by.items()):
        seeds = sorted(recs)
        dec = np.array([recs[s]["decisions"] for s in seeds], float)
        mb = np.array([recs[s]["mistakes"] + recs[s]["blunders"] for s in seeds], float)
        ratio = ""
        ref = by.get(("expert-v1", cont), {})
        common = [s for s in seeds if s in ref]
        if strat != "expert-v1" and len(common) > 1:
            a = np.array([recs[s]["mistakes"] + recs[s]["blunders"] for s in common], float)
            b = np.array([ref[s]["mistakes"] + ref[s]["blunders"] for s in common], float)
            # the ratio estimator sum(a) / sum(b), each seed a cluster (a paired ratio of means)
            c = stats.ratio_ci_from_sums(
                stats.ClusterSums(len(a), a.sum(), b.sum(), a @ a, b @ b, a @ b)
            )
            ratio = f"{c.mean:.2f} [{c.low:.2f}, {c.high:.2f}]"
        print(f"{strat:12} {cont:10} {len(seeds):5d} {_ci(dec):>20} {_ci(mb):>20} {ratio:>22}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("run")
    p.add_argument("--strategies", nargs="+", default=["expert", "expert-v1"])
    p.add_argument("--continue-with", nargs="+", default=["expert-v1", "expert"])
    p.add_argument("--seeds", default="1-12", help="a seed or a range, e.g. 1-12")
    sub.add_parser("show")
    args = ap.parse_args(argv)
    {"run": run, "show": show}[args.cmd](args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
