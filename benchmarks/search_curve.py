"""The search players' budget-strength curve: one searching seat among the table's players, on
the same duplicate deals for every setting, so settings compare exactly.

    python benchmarks/search_curve.py run --table expert-v1 --deals 1000 --seed 960001 \\
        [--specs pimc:worlds=8 pimc:worlds=16 ...]
        per spec: per deal d = (m | the spec at seat 0) - (m | the table's strategy at every
        seat), m = seat 0's team's score minus the other team's (classic 4p); the per-deal
        differences go to benchmarks/results/search_curve/<table>/<spec>.npy (a rerun skips a
        spec already measured on the same deals) and one JSON line per spec to
        benchmarks/results/search_curve.jsonl: the mean with its 95% CI over deals, and the CPU
        time the searching seat added per hand (searching table minus all-base table)
    python benchmarks/search_curve.py show --table expert-v1 [--against pimc]
        the table of every measured spec (points per hand, 95% CI, CPU ms of search per hand),
        the efficient frontier marked (no other spec both stronger and cheaper), and each
        spec's paired difference to --against on the same deals

The default grid crosses worlds (8, 16, 32, 64) with the searched decisions (the default
take+discard+out, and all), and at 32 worlds the guard (0 against 1 standard error) and the
world model (uniform worlds, tries=0, against worlds inferred from the other seats' turns).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np
from bench_search import _diff  # seat 0's team minus the other team, per hand

from reports import stats
from sim.core.rules import RuleSet
from sim.play.engine import run_chunk

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "benchmarks" / "results" / "search_curve"
LOG = ROOT / "benchmarks" / "results" / "search_curve.jsonl"

TDO = "search=take+discard+out"
GRID = [
    *(f"pimc:worlds={w},{TDO}" for w in (8, 16, 32, 64)),
    *(f"pimc:worlds={w},search=all" for w in (8, 16, 32, 64)),
    f"pimc:worlds=32,{TDO},guard=0",
    "pimc:worlds=32,search=all,guard=0",
    f"pimc:worlds=32,{TDO},tries=0",
    "pimc:worlds=32,search=all,tries=0",
]


def _safe(text: str) -> str:
    """A file name of a spec (no ':' or ',', which some file systems refuse)."""
    return text.replace(":", "_").replace(",", "_").replace("=", "")


def _file(table: str, spec: str) -> Path:
    return OUT / _safe(table) / (_safe(spec) + ".npy")


def run(args) -> None:
    rules = RuleSet.preset("classic", players=4)
    (OUT / _safe(args.table)).mkdir(parents=True, exist_ok=True)
    base = [args.table] * 4
    for spec in args.specs:
        f = _file(args.table, spec)
        if f.exists() and len(np.load(f)) == args.deals:
            print(f"{spec}: measured ({f.name})", flush=True)
            continue
        full = spec if "base=" in spec else f"{spec},base={args.table}"
        d, n_h, cpu_s, cpu_b = [], 0, 0.0, 0.0
        for lo in range(0, args.deals, args.chunk):
            n = min(args.chunk, args.deals - lo)
            c = time.process_time()
            a = _diff(run_chunk(rules, [full, *base[1:]], args.seed, lo, n).hands, 2)
            c2 = time.process_time()
            b = _diff(run_chunk(rules, base, args.seed, lo, n).hands, 2)
            cpu_s, cpu_b = cpu_s + c2 - c, cpu_b + time.process_time() - c2
            d.append(a - b)
            n_h += n
            if sys.stderr.isatty():
                m, lo_ci, hi_ci = stats.mean_ci(np.concatenate(d))[:3]
                print(
                    f"\r{spec}: {n_h} deals {m:+.0f} [{lo_ci:+.0f}, {hi_ci:+.0f}]",
                    end="",
                    file=sys.stderr,
                    flush=True,
                )
        x = np.concatenate(d)
        tmp = f.with_suffix(".tmp.npy")
        np.save(tmp, x)
        tmp.rename(f)
        m, lo_ci, hi_ci = stats.mean_ci(x)[:3]
        row = dict(
            table="classic-4p",
            players=args.table,
            spec=full,
            seed=args.seed,
            deals=int(x.size),
            mean=round(m, 1),
            ci_low=round(lo_ci, 1),
            ci_high=round(hi_ci, 1),
            search_cpu_ms_per_hand=round(1000 * (cpu_s - cpu_b) / n_h, 1),
            hands_per_cpu_s=round(n_h / cpu_s, 2),
            command="python benchmarks/search_curve.py " + " ".join(sys.argv[1:]),
            utc=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        )
        with LOG.open("a") as fh:
            fh.write(json.dumps(row) + "\n")
        print(
            f"\r{spec}: {m:+.0f} [{lo_ci:+.0f}, {hi_ci:+.0f}] over {x.size} deals, "
            f"{row['search_cpu_ms_per_hand']} CPU ms of search per hand",
            flush=True,
        )


def show(args) -> None:
    rows = {}
    for line in LOG.read_text().splitlines():
        r = json.loads(line)
        if r["players"] == args.table:
            rows[r["spec"]] = r  # the latest line per spec
    if not rows:
        raise SystemExit(f"no measurements with --table {args.table}")
    ref_spec = args.against if "base=" in args.against else f"{args.against},base={args.table}"
    ref = _file(args.table, ref_spec.replace(f",base={args.table}", ""))
    ref_d = np.load(ref) if ref.exists() else None
    specs = sorted(rows, key=lambda s: rows[s]["search_cpu_ms_per_hand"])
    print(f"one searching seat among {args.table}: minus {args.against} on the same deals")
    print(f"{'spec':50} {'points':>6} {'95% CI':>13} {'ms/hand':>7} {'minus it':>14} F")
    for s in specs:
        r = rows[s]
        dom = any(
            rows[o]["mean"] > r["mean"]
            and rows[o]["search_cpu_ms_per_hand"] <= r["search_cpu_ms_per_hand"]
            for o in rows
            if o != s
        )
        vs = ""
        f = _file(args.table, s.replace(f",base={args.table}", ""))
        if ref_d is not None and f.exists() and s != ref_spec:
            x = np.load(f)
            if len(x) == len(ref_d):
                m, lo, hi = stats.mean_ci(x - ref_d)[:3]
                vs = f"{m:+.0f} [{lo:+.0f}, {hi:+.0f}]"
        ci = f"[{r['ci_low']:+.0f}, {r['ci_high']:+.0f}]"
        name = s.replace(f",base={args.table}", "")
        print(
            f"{name:50} {r['mean']:+6.0f} {ci:>13} {r['search_cpu_ms_per_hand']:7.0f} "
            f"{vs:>14} {'' if dom else '*'}"
        )
    print("* on the efficient frontier: no other setting is both stronger and cheaper")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("run")
    p.add_argument("--table", default="expert-v1", help="the strategy at every other seat")
    p.add_argument("--specs", nargs="+", default=GRID)
    p.add_argument("--deals", type=int, default=1000)
    p.add_argument("--chunk", type=int, default=50)
    p.add_argument("--seed", type=int, default=960001)
    q = sub.add_parser("show")
    q.add_argument("--table", default="expert-v1")
    q.add_argument("--against", default="pimc:worlds=32,search=all")
    args = ap.parse_args(argv)
    {"run": run, "show": show}[args.cmd](args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
