"""Time to build a report from a run folder; writes benchmarks/results/report.json.

usage: python benchmarks/bench_report.py RUN_DIR [--repeat 3]
       python benchmarks/bench_report.py --synthetic 100000   (builds a synthetic run first)
"""

from __future__ import annotations

import argparse
import json
import platform
import tempfile
import time
from pathlib import Path

from reports.report import build_report
from reports.runs import open_run


def main() -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("run_dir", nargs="?")
    ap.add_argument("--synthetic", type=int, default=None, metavar="HANDS")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--out", default=str(Path(__file__).parent / "results" / "report.json"))
    args = ap.parse_args()
    tmp = tempfile.TemporaryDirectory()
    if args.synthetic:
        from tests.synthetic_engine import make_run

        run_dir = make_run(Path(tmp.name) / "run", n_hands=args.synthetic, log_rate=0.05, shards=8)
    elif args.run_dir:
        run_dir = Path(args.run_dir)
    else:
        ap.error("give RUN_DIR or --synthetic HANDS")
    run = open_run(run_dir)
    n_hands = len(run.read("hands", ["game"]))
    n_dec = len(run.read("decisions", ["game"])) if run.has("decisions") else 0
    times = []
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        res = build_report(run_dir, Path(tmp.name) / "report.html")
        times.append(time.perf_counter() - t0)
    out = {
        "benchmark": "report",
        "run_dir": "synthetic" if args.synthetic else str(run_dir),
        "hands": n_hands,
        "decision_rows": n_dec,
        "images": res["images"],
        "html_bytes": Path(res["html"]).stat().st_size,
        "seconds": times,
        "best_seconds": min(times),
        "python": platform.python_version(),
        "machine": platform.machine(),
    }
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(out, indent=2) + "\n")
    print(json.dumps(out, indent=2))
    tmp.cleanup()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
