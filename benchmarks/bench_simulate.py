"""Throughput of `canasta simulate`: hands/s per core by strategy and decision log rate, and the
speed-up from 1 to 2 workers.  Prints a table and writes benchmarks/results/simulate.json.

    python benchmarks/bench_simulate.py                      # real core (sim.play.engine.run_chunk)
    python benchmarks/bench_simulate.py --fake --hands 20000 # the runner alone (tests/fake_engine)
    python benchmarks/bench_simulate.py --ten-million        # + wall time of 10M hands on all cores
    python benchmarks/bench_simulate.py --strategies greedy --rates 0,1 --log-detail basic,cards \
        --no-speedup --output benchmarks/results/simulate_cards.json   # cost of the card columns

Every measurement is a full `sim.runs.runner.simulate` into a temporary run folder (play, flatten,
parquet encode in the workers, write in the parent), after a warm-up run that compiles the core
(numba) in the processes used.  Strategies play themselves (all seats the same).  With one job
each cell also records this process's CPU seconds (the machine is shared: CPU time varies less
than elapsed time), and the cost of full decision logging is given two ways: the fastest runs'
ratio, and the ratio round by round (the cells take turns) as median [min, max].
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from sim.core.rules import RuleSet
from sim.runs import engines, runner, store

ROOT = Path(__file__).resolve().parents[1]

RESULTS = ROOT / "benchmarks" / "results" / "simulate.json"


def chunk_function(args: argparse.Namespace):
    if args.fake:
        tests = str(ROOT / "tests")
        sys.path.insert(0, tests)
        os.environ["PYTHONPATH"] = os.pathsep.join(
            p for p in (tests, os.environ.get("PYTHONPATH")) if p
        )
        import fake_engine

        fake = engines.ChunkEngine("tests.fake_engine", fake_engine.run_chunk)
        return fake, "tests.fake_engine", fake_engine.STRATEGY_NAMES
    return engines.CORE, "sim.play.engine:run_chunk", runner.registered_strategies()


def pick_strategies(wanted: list[str], available) -> list[str]:
    if available is None:
        return wanted
    got = [s for s in wanted if s in available]
    return got or ["random" if "random" in available else available[0]]


def best_of(runs: list[dict]) -> dict:
    """The fastest of repeated runs of one cell (this machine's speed varies by 5-10%), with
    every run's figures (the paired ratios of full_log_pairs use them round by round)."""
    best = dict(min(runs, key=lambda r: r["seconds"]))
    best["repeats"] = len(runs)
    best["hands_per_s_all"] = [r["hands_per_s"] for r in runs]
    best["seconds_all"] = [r["seconds"] for r in runs]
    best["cpu_seconds_all"] = [r["cpu_seconds"] for r in runs]
    return best


def interleaved(repeat: int, cells: list[tuple], common: tuple) -> list[dict]:
    """Each cell measured `repeat` times, the cells taking turns (a slow spell of the machine
    then hits every cell, not just one: ratios between cells stay fair)."""
    runs: list[list[dict]] = [[] for _ in cells]
    for _ in range(max(1, repeat)):
        for i, cell in enumerate(cells):
            *head, detail = cell if len(cell) == 5 else (*cell, "basic")
            gc.collect()  # the garbage of the cell before is not this cell's cost
            runs[i].append(measure(*common[:1], *head, *common[1:], detail=detail))
    return [best_of(r) for r in runs]


def measure(
    rules, strategy, hands, rate, jobs, chunk_size, fn, tmp: Path, detail: str = "basic"
) -> dict:
    out = tmp / f"run-{strategy}-{rate}-{jobs}-{detail}"
    chunk_size = chunk_size or None  # 0: the product's default
    t0 = time.perf_counter()
    c0 = time.process_time()
    with engines.using(fn):
        r = runner.simulate(
            rules,
            strategy,
            hands=hands,
            seed=12345,
            out=out,
            jobs=jobs,
            chunk_size=chunk_size,
            log_decisions=rate,
            progress=False,
            log_detail=detail,
        )
    cpu = time.process_time() - c0  # this process's CPU (user + system): all of it with one job
    wall = time.perf_counter() - t0
    size = sum(f.stat().st_size for f in out.rglob("*.parquet"))
    rows = len(store.read_run(out, "decisions", columns=["game"])) if rate else 0
    shutil.rmtree(out)
    hps = hands / r.elapsed
    workers = jobs if jobs > 0 else os.cpu_count() or 1
    return {
        "strategy": strategy,
        "log_rate": rate,
        "log_detail": detail,
        "jobs": jobs,
        "hands": hands,
        "seconds": round(r.elapsed, 3),
        "wall_seconds": round(wall, 3),
        "cpu_seconds": round(cpu, 3) if jobs == 1 else None,
        "hands_per_s": round(hps, 1),
        "hands_per_s_per_core": round(hps / workers, 1),
        "decision_rows": rows,
        "bytes_on_disk": size,
        "bytes_per_hand": round(size / hands, 1),
    }


def full_log_cost(rows: list[dict]) -> dict[str, float]:
    """Per strategy (and detail, when not basic): time per hand with every decision logged /
    time without logging."""
    by = {
        (r["strategy"], r["log_rate"], r.get("log_detail", "basic")): r["hands_per_s"] for r in rows
    }
    out = {}
    for (s, rate, detail), hps in by.items():
        if rate == 1.0 and (s, 0.0, "basic") in by:
            out[s if detail == "basic" else f"{s} ({detail})"] = round(
                by[(s, 0.0, "basic")] / hps, 2
            )
    return out


def full_log_pairs(rows: list[dict]) -> dict[str, dict]:
    """Per strategy (and detail): the time with every decision logged over the time without,
    round by round (the cells took turns, so each pair ran under the same load): median, min
    and max over the rounds, for the run's elapsed time and for its CPU seconds (one job)."""
    by = {(r["strategy"], r["log_rate"], r.get("log_detail", "basic")): r for r in rows}
    out = {}
    for (s, rate, detail), row in by.items():
        base = by.get((s, 0.0, "basic"))
        if rate != 1.0 or base is None:
            continue
        cell = {}
        for key in ("seconds_all", "cpu_seconds_all"):
            pairs = [a / b for a, b in zip(row[key], base[key], strict=True) if a is not None and b]
            if pairs:
                cell[key.replace("_all", "")] = {
                    "median": round(statistics.median(pairs), 2),
                    "min": round(min(pairs), 2),
                    "max": round(max(pairs), 2),
                }
        out[s if detail == "basic" else f"{s} ({detail})"] = cell
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--hands", type=int, default=20_000, help="hands per measurement (default 20000)"
    )
    ap.add_argument(
        "--chunk-size",
        type=int,
        default=0,
        help="hands per chunk; 0 (default): the product's own default (runner.default_chunk_size), "
        "as `canasta simulate` plays; earlier results used 2500",
    )
    ap.add_argument(
        "--repeat", type=int, default=3, help="runs per cell, the fastest counts (default 3)"
    )
    ap.add_argument("--strategies", default="greedy,expert", help="self-play strategies to time")
    ap.add_argument("--rates", default="0,0.05,1", help="decision log rates")
    ap.add_argument(
        "--log-detail",
        default="basic",
        help="decision log details to time at each log rate > 0: basic, cards or basic,cards",
    )
    ap.add_argument("--fake", action="store_true", help="time the runner with tests/fake_engine")
    ap.add_argument("--no-speedup", action="store_true", help="skip the 1 vs 2 workers measurement")
    ap.add_argument(
        "--ten-million", action="store_true", help="also time 10,000,000 hands on all cores"
    )
    ap.add_argument("--big-hands", type=int, default=10_000_000, help=argparse.SUPPRESS)
    ap.add_argument(
        "--big-log", type=float, default=0.0, help="log rate of the 10M run (default 0)"
    )
    ap.add_argument(
        "--big-out", default=None, help="keep the 10M run in this folder (default: temporary)"
    )
    ap.add_argument("--output", default=str(RESULTS), help="JSON results file")
    args = ap.parse_args(argv)

    fn, fn_name, available = chunk_function(args)
    rules = RuleSet.preset("classic", players=4)
    strategies = pick_strategies([s for s in args.strategies.split(",") if s], available)
    rates = [float(x) for x in args.rates.split(",")]
    details = [d for d in args.log_detail.split(",") if d]
    if not details or any(d not in runner.LOG_DETAILS for d in details):
        ap.error(f"--log-detail {args.log_detail}: give basic, cards or basic,cards")
    rows: list[dict] = []
    speedup: dict | None = None
    big: dict | None = None
    with tempfile.TemporaryDirectory(prefix="bench-simulate-") as tmpdir:
        tmp = Path(tmpdir)
        for s in strategies:  # warm-up: compile the core in this process (jobs=1 runs here)
            for d in details:
                with engines.using(fn):
                    runner.simulate(
                        rules,
                        s,
                        hands=200,
                        out=None,
                        jobs=1,
                        chunk_size=100,
                        log_decisions=1.0,
                        progress=False,
                        log_detail=d,
                    )
        gc.freeze()  # as `canasta simulate` does before it runs
        for s in strategies:
            cells = [(s, args.hands, rate, 1) for rate in rates if rate == 0]
            cells += [(s, args.hands, rate, 1, d) for rate in rates if rate > 0 for d in details]
            for row in interleaved(args.repeat, cells, (rules, args.chunk_size, fn, tmp)):
                rows.append(row)
                print(
                    f"  {s:>8} log {row['log_rate']:<5} {row['log_detail']:<6} "
                    f"{row['hands_per_s_per_core']:>10,.0f} hands/s/core",
                    flush=True,
                )
        if not args.no_speedup:
            s = strategies[0]
            # warm the 2 loky workers (each compiles / loads the numba cache once)
            with engines.using(fn):
                runner.simulate(
                    rules, s, hands=400, out=None, jobs=2, chunk_size=100, progress=False
                )
            cells = [(s, args.hands, 0.0, 1), (s, args.hands, 0.0, 2)]
            one, two = interleaved(args.repeat, cells, (rules, args.chunk_size, fn, tmp))
            speedup = {
                "strategy": s,
                "hands": args.hands,
                "hands_per_s_1": one["hands_per_s"],
                "hands_per_s_2": two["hands_per_s"],
                "speedup": round(two["hands_per_s"] / one["hands_per_s"], 2),
            }
        if args.ten_million:
            out = Path(args.big_out) if args.big_out else tmp / "ten-million"
            s = strategies[0]
            t0 = time.perf_counter()
            with engines.using(fn):
                r = runner.simulate(
                    rules,
                    s,
                    hands=args.big_hands,
                    seed=1,
                    out=out,
                    jobs=-1,
                    log_decisions=args.big_log,
                    progress=None,
                    resume=True,
                )
            wall = time.perf_counter() - t0
            size = sum(f.stat().st_size for f in out.rglob("*.parquet"))
            big = {
                "strategy": s,
                "hands": args.big_hands,
                "log_rate": args.big_log,
                "jobs": os.cpu_count(),
                "wall_seconds": round(wall, 1),
                "hands_per_s": round(args.big_hands / wall, 1),
                "bytes_on_disk": size,
                "resumed_chunks_skipped": r.manifest["n_chunks"] - r.chunks_run,
            }

    print()
    chunks = f"chunks of {args.chunk_size:,}" if args.chunk_size else "the default chunks"
    print(
        f"canasta simulate throughput ({fn_name}, classic 4 players, {args.hands:,} hands per "
        "cell, "
        f"{chunks}, {os.cpu_count()} cores)"
    )
    head = (
        f"{'strategy':>10} {'log rate':>8} {'detail':>6} {'hands/s/core':>13} {'s':>7} "
        f"{'decision rows':>14} "
        f"{'bytes/hand':>10}"
    )
    print(head)
    print("-" * len(head))
    for r in rows:
        print(
            f"{r['strategy']:>10} {r['log_rate']:>8} {r['log_detail']:>6} "
            f"{r['hands_per_s_per_core']:>13,.0f} "
            f"{r['seconds']:>7.2f} {r['decision_rows']:>14,} {r['bytes_per_hand']:>10,.0f}"
        )
    log_cost = full_log_cost(rows)
    for s, ratio in log_cost.items():
        print(f"full decision logging costs x{ratio} the time without ({s}, fastest runs)")
    pairs = full_log_pairs(rows)
    for s, cell in pairs.items():
        for what, q in cell.items():
            print(
                f"  paired by round ({s}, {what}): median x{q['median']} [{q['min']}, {q['max']}]"
            )
    if speedup:
        print(
            f"1 -> 2 workers ({speedup['strategy']}, log 0): {speedup['hands_per_s_1']:,.0f} -> "
            f"{speedup['hands_per_s_2']:,.0f} hands/s, speed-up x{speedup['speedup']}"
        )
    if big:
        print(
            f"{big['hands']:,} hands on {big['jobs']} cores (log {big['log_rate']}): "
            f"{big['wall_seconds']:,.1f} s "
            f"wall, {big['hands_per_s']:,.0f} hands/s, {big['bytes_on_disk'] / 1e6:,.0f} MB"
        )

    result = {
        "benchmark": "simulate",
        "created": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "chunk_fn": fn_name,
        "machine": {
            "cpu_count": os.cpu_count(),
            "platform": platform.platform(),
            "processor": platform.processor() or platform.machine(),
        },
        "versions": runner.package_versions(),
        "rules": "classic",
        "players": 4,
        "chunk_size": args.chunk_size,
        "repeat": args.repeat,
        "per_core": rows,
        "full_log_time_ratio": log_cost,
        "full_log_ratio_paired": pairs,
        "load_average": os.getloadavg(),
        "speedup_1_to_2": speedup,
        "ten_million": big,
    }
    out_path = Path(args.output)
    out_path.parent.mkdir(parents=True, exist_ok=True)
    tmp_path = out_path.with_name(out_path.name + ".tmp")
    tmp_path.write_text(json.dumps(result, indent=2) + "\n")
    os.replace(tmp_path, out_path)
    print(f"written {out_path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
