"""Strength and speed of the search players on duplicate deals (any of the 13 tables).

    python benchmarks/bench_search.py seat   --deals 500 [--spec pimc] [--base expert]
                                             [--rules classic --players 6 --layout 3x2]
        one searching seat (seat 0) among base-strategy players, paired with all-base play on
        the same deals: per deal d = (m | search at seat 0) - (m | all base), where m is the
        score of seat 0's team minus the mean score of the other teams (team 0 - team 1 with
        two teams).  --max-seconds stops adding chunks after that much wall time and saves what
        was played (for a sequence of tables under a deadline).  Five players: every deal is
        hand 0 of its game, where seat 1 sits out, so the four who play get the four-player deal
        (with the tuned five-player knobs, today the same as the four-player ones); --games
        plays whole games instead (the sitting-out seat, the dealer and the initial-meld minimum
        change from hand to hand), paired by game key: d = seat 0's team's final score minus the
        mean of the other teams', and per hand = mean d / mean hands per game of the searched
        table.  --diffs FILE.npy saves the per-deal (per-game) differences, so runs over
        consecutive --start ranges combine exactly.
    python benchmarks/bench_search.py team   --deals 500 [--spec pimc] [--vs expert]
        a whole team of the search player against a team of --vs, reports.compare duplicate
        deals (each deal played in both seatings; tables with two teams)
    python benchmarks/bench_search.py speed  --deals 50 [--spec pimc]
        hands per second, one process, the search player as one seat of four

Every result is appended as one JSON line to benchmarks/results/search.jsonl (with the command,
the CI and the time).  Timings are noisy on a shared machine.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

from reports import stats
from reports.compare import compare
from sim.core.rules import RuleSet
from sim.play.engine import run_chunk

ROOT = Path(__file__).resolve().parents[1]

OUT = ROOT / "benchmarks" / "results" / "search.jsonl"


def _save(row: dict) -> None:
    row["command"] = " ".join(sys.argv)
    row["utc"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    OUT.parent.mkdir(parents=True, exist_ok=True)
    with OUT.open("a") as f:
        f.write(json.dumps(row) + "\n")
    print(json.dumps(row, indent=1))


def _rules(args) -> RuleSet:
    return RuleSet.preset(args.rules, players=args.players, team_layout=args.layout)


def _diff(hands: np.ndarray, n_teams: int) -> np.ndarray:
    """Seat 0's team (always team 0, also with five players) minus the mean of the other teams."""
    s = hands["score"][:, :n_teams].astype(np.float64)
    return s[:, 0] - s[:, 1:].mean(axis=1)


def _game_diff(games: np.ndarray, n_teams: int) -> np.ndarray:
    s = games["final"][:, :n_teams].astype(np.float64)
    return s[:, 0] - s[:, 1:].mean(axis=1)


def _unit_diff(res, n_teams: int, games: bool) -> np.ndarray:
    return _game_diff(res.games, n_teams) if games else _diff(res.hands, n_teams)


def seat(args) -> None:
    rules = _rules(args)
    team = rules.team_of_seat
    # --opp: the other teams' seats play another strategy (pimc's model of them is then wrong)
    base = [
        args.base if team[i] == team[0] or not args.opp else args.opp for i in range(rules.players)
    ]
    searched = [args.spec] + base[1:]
    mode = "games" if args.games else "hands"
    d, n_hands, secs, cpu, t0 = [], 0, 0.0, 0.0, time.perf_counter()
    for lo in range(args.start, args.start + args.deals, args.chunk):
        if args.max_seconds and d and time.perf_counter() - t0 > args.max_seconds:
            break
        n = min(args.chunk, args.start + args.deals - lo)
        t, c = time.perf_counter(), time.process_time()
        ra = run_chunk(rules, searched, args.seed, lo, n, mode=mode)
        secs, cpu = secs + time.perf_counter() - t, cpu + time.process_time() - c
        n_hands += len(ra.hands)
        a = _unit_diff(ra, rules.n_teams, args.games)
        b = _unit_diff(
            run_chunk(rules, base, args.seed, lo, n, mode=mode), rules.n_teams, args.games
        )
        d.append(a - b)
        x = np.concatenate(d)
        m, lo_ci, hi_ci = stats.mean_ci(x)[:3]
        print(
            f"{x.size} {mode}: {m:+.1f} [{lo_ci:+.1f}, {hi_ci:+.1f}]  {n_hands / secs:.1f} hands/s",
            flush=True,
        )
    x = np.concatenate(d)
    if args.diffs:
        np.save(args.diffs, x)
    m, lo_ci, hi_ci = stats.mean_ci(x)[:3]
    extra = {}
    if args.games:
        per = n_hands / x.size
        extra = {
            "unit": "game",
            "games": int(x.size),
            "hands": n_hands,
            "mean_diff_per_game": round(m, 1),
            "ci_low_per_game": round(lo_ci, 1),
            "ci_high_per_game": round(hi_ci, 1),
            "hands_per_game": round(per, 2),
        }
        m, lo_ci, hi_ci = m / per, lo_ci / per, hi_ci / per
    _save(
        {
            "design": "one searching seat (seat 0) vs all-base play, same deals",
            "table": rules.label,
            **extra,
            "spec": args.spec,
            "base": args.base,
            "opponents": args.opp or args.base,
            "start": args.start,
            "seed": args.seed,
            "deals": int(x.size),
            "mean_diff_per_hand": round(m, 1),
            "ci_low": round(lo_ci, 1),
            "ci_high": round(hi_ci, 1),
            "hands_per_s_searching_table": round(n_hands / secs, 2),
            "hands_per_cpu_s_searching_table": round(n_hands / cpu, 2),
        }
    )


def team(args) -> None:
    t = time.perf_counter()
    rules = _rules(args)
    df = compare(
        [args.spec, args.vs],
        rules=rules,
        hands=args.deals,
        seed=args.seed,
        jobs=args.jobs,
        level=0.95,
    )
    r = df.iloc[0]
    _save(
        {
            "design": "team vs team, duplicate deals (reports.compare)",
            "table": rules.label,
            "a": args.spec,
            "b": args.vs,
            "seed": args.seed,
            "deals": int(r["deals"]),
            "mean_diff_per_hand": round(float(r["mean_diff_per_hand"]), 1),
            "ci_low": round(float(r["ci_low"]), 1),
            "ci_high": round(float(r["ci_high"]), 1),
            "seconds": round(time.perf_counter() - t, 1),
        }
    )


def speed(args) -> None:
    rules = _rules(args)
    seats = [args.spec] + [args.base] * (rules.players - 1)
    run_chunk(rules, seats, args.seed, 10_000_000, 2)  # load the compiled kernels
    t, c = time.perf_counter(), time.process_time()
    run_chunk(rules, seats, args.seed, args.start, args.deals)
    secs, cpu = time.perf_counter() - t, time.process_time() - c
    # CPU seconds of this process: hands per second of one core, whatever else loads the machine
    _save(
        {
            "design": f"speed: one searching seat of {rules.players}, one process",
            "table": rules.label,
            "spec": args.spec,
            "deals": args.deals,
            "seconds": round(secs, 2),
            "hands_per_s": round(args.deals / secs, 2),
            "cpu_seconds": round(cpu, 2),
            "hands_per_cpu_s": round(args.deals / cpu, 2),
        }
    )


def main() -> None:
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("what", choices=("seat", "team", "speed"))
    p.add_argument("--spec", default="pimc")
    p.add_argument("--base", default="expert")
    p.add_argument("--vs", default="expert")
    p.add_argument("--deals", type=int, default=200)
    p.add_argument("--start", type=int, default=0)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--chunk", type=int, default=50)
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--rules", default="classic", help="preset: classic, german, samba")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--layout", default=None, help="six players: 2x3 (default) or 3x2")
    p.add_argument(
        "--opp", default="", help="seat: the other teams play this strategy (default: --base)"
    )
    p.add_argument(
        "--games", action="store_true", help="seat: whole games, paired by game key (five players)"
    )
    p.add_argument(
        "--diffs", default="", help="seat: save the per-deal differences to this .npy file"
    )
    p.add_argument(
        "--max-seconds",
        type=float,
        default=0.0,
        help="seat: stop adding chunks after this wall time (0: play all --deals)",
    )
    args = p.parse_args()
    {"seat": seat, "team": team, "speed": speed}[args.what](args)


if __name__ == "__main__":
    main()
