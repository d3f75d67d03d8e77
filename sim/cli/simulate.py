"""`canasta simulate`: play many hands (or games) in parallel into a run folder of parquet
shards."""

from __future__ import annotations

import argparse
import gc
import os
import re
import shlex
import sys
from pathlib import Path
from typing import Any

import pandas as pd

from sim.cli.args import parse_whole
from sim.core import limits
from sim.core.errors import CanastaError
from sim.runs import store

DEFAULT_OUT = "runs/default"

EPILOG = """examples:
  canasta simulate                                   20,000 hands, classic, expert vs greedy
  canasta simulate --strategies expert,greedy --hands 1M --seed 1 --out runs/x
  canasta simulate --games 10000 --log-decisions 0.05 --out runs/games
  canasta simulate --hands 20000 --log-decisions 1 --log-detail cards --out runs/cards
                                                     every decision with the cards behind it
  canasta simulate --rules german --players 6 --team-layout 3x2 --set go_out_bonus=200
  canasta simulate --out runs/x --resume             finish an interrupted run (its settings
                                                     from its manifest)
  canasta simulate --backend dask --scheduler tcp://10.0.0.5:8786 --hands 10M --out runs/big

--strategies: one per team (expanded to its seats) or one per table seat.
Counts accept 1000000, 1_000_000, 1e6, 100k, 1M.  Ranges (checked before any work):
--hands/--games 1 .. 10**15, --seed 0 .. 2**63-1, --chunk-size 1 .. 10**6, --players 2 .. 6,
--jobs -1024 .. 1024 except 0, --log-decisions 0 .. 1.  The run folder holds manifest.json and
hands/ decisions/ games/ parquet shards (one per chunk); read it with
sim.runs.store.read_run("runs/x", table="hands", columns=[...]).  Re-running a complete run folder
with the same settings only prints its summary; an unfinished one needs --resume.
"""


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    p = subparsers.add_parser(
        "simulate",
        help="play many hands or games in parallel into a run folder (parquet)",
        description="Play many hands (or whole games) with the given rules and strategies, in "
        "parallel chunks, into a run folder of parquet shards; resumable.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    g = p.add_argument_group("experiment")
    g.add_argument("--rules", default=None, metavar="PRESET", help="rule preset (default classic)")
    g.add_argument(
        "--players", default=None, metavar="N", help="players at the table, 2..6 (default 4)"
    )
    g.add_argument("--team-layout", default=None, metavar="LAYOUT", help="six players: 2x3 or 3x2")
    g.add_argument(
        "--set",
        dest="overrides",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="override one rule parameter (repeatable; see canasta rules)",
    )
    g.add_argument(
        "--strategies",
        default=None,
        metavar="LIST",
        help="comma list: one strategy per team or per seat (default expert,greedy)",
    )
    n = g.add_mutually_exclusive_group()
    n.add_argument(
        "--hands", default=None, metavar="N", help="independent hands to play (default 20,000)"
    )
    n.add_argument(
        "--games", default=None, metavar="N", help="whole games to play instead of hands"
    )
    g.add_argument("--seed", default=None, metavar="S", help="seed of the run (default 0)")
    g.add_argument(
        "--log-decisions",
        default=None,
        metavar="RATE",
        help="fraction 0..1 of hands whose decisions are logged (default 0)",
    )
    g.add_argument(
        "--log-detail",
        default=None,
        choices=("basic", "cards"),
        help="decision columns: basic (default) or cards (also the hand, pile top, cards "
        "drawn and played, melds on the table: docs/DATA.md)",
    )
    x = p.add_argument_group("execution")
    x.add_argument("--out", default=None, metavar="DIR", help=f"run folder (default {DEFAULT_OUT})")
    x.add_argument("--resume", action="store_true", help="finish an interrupted run in --out")
    x.add_argument(
        "--jobs",
        default=None,
        metavar="N",
        help="worker processes (default -1: all cores; runs of at most 100,000 hands or 10,000 "
        "games: this process)",
    )
    x.add_argument(
        "--chunk-size",
        default=None,
        metavar="N",
        help="hands per chunk (games with --games); default: total/64 within 250..20000 (25..2000 "
        "games), "
        "within 250..5000 (25..500 games) with decision logs",
    )
    x.add_argument(
        "--backend", default=None, metavar="{loky,dask}", help="joblib backend (default loky)"
    )
    x.add_argument(
        "--scheduler",
        default=None,
        metavar="tcp://HOST:PORT",
        help="dask scheduler (implies --backend dask)",
    )
    x.add_argument("--check", action="store_true", help="let the core verify invariants (slower)")
    x.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(run=run)
    return p


# ----------------------------------------------------------------------------- option parsing


def parse_count(
    option: str, text: str | None, lo: int = 0, hi: int = limits.RUN_COUNT[1]
) -> int | None:
    """'1000000', '1_000_000', '1,000,000', '1e6', '100k', '1M' -> int in lo..hi; one-line error
    otherwise."""
    if text is None:
        return None
    try:
        value = parse_whole(text)
    except ValueError:
        raise CanastaError(f"{option} '{text}' is not a whole number") from None
    if not lo <= value <= hi:
        raise CanastaError(f"{option} {text} is out of range: give {lo:,} .. {hi:,}")
    return value


def parse_rate(text: str | None) -> float | None:
    if text is None:
        return None
    try:
        rate = float(text)
    except ValueError:
        raise CanastaError(
            f"--log-decisions '{text}' is not a number (fraction of hands 0..1)"
        ) from None
    if not 0.0 <= rate <= 1.0:
        raise CanastaError(
            f"--log-decisions {text} must be between 0 and 1 (fraction of hands logged)"
        )
    return rate


def parse_jobs(text: str | None) -> int:
    if text is None:
        return -1
    jobs = parse_count("--jobs", text, *limits.JOBS)
    assert jobs is not None  # text is not None
    if jobs == 0:
        raise CanastaError("--jobs 0: give a number of workers, or -1 for all cores")
    return jobs


def _rules(args: argparse.Namespace, existing: dict[str, Any] | None) -> Any:
    from sim.core.rules import RuleSet, parse_overrides

    chosen = args.rules or args.players is not None or args.team_layout or args.overrides
    if existing is not None and not chosen:
        return RuleSet.from_dict(existing["rules"])
    sets = parse_overrides(args.overrides)
    players = parse_count("--players", args.players, 2, 6)
    return RuleSet.preset(
        args.rules or "classic", players if players is not None else 4, args.team_layout, **sets
    )


def _command(settings: dict[str, Any], rules: Any, out: str) -> str:
    parts = ["canasta", "simulate", "--rules", rules.name, "--players", str(rules.players)]
    if rules.players == 6:
        parts += ["--team-layout", rules.team_layout]
    for k, v in (
        rules.differences_from_preset().items() if hasattr(rules, "differences_from_preset") else ()
    ):
        if isinstance(v, list | tuple | dict):
            continue  # complex values live in the manifest's rules
        parts += ["--set", f"{k}={str(v).lower() if isinstance(v, bool) else v}"]
    parts += ["--strategies", ",".join(settings["strategies"])]
    parts += [f"--{settings['mode']}", str(settings["total"]), "--seed", str(settings["seed"])]
    parts += ["--chunk-size", str(settings["chunk_size"])]
    if settings["log_decisions"]:
        parts += ["--log-decisions", str(settings["log_decisions"])]
    if settings["log_detail"] != "basic":
        parts += ["--log-detail", settings["log_detail"]]
    parts += ["--out", out]
    return shlex.join(parts)


# ----------------------------------------------------------------------------- run


def run(args: argparse.Namespace) -> int:
    from sim.runs import runner

    out = args.out or DEFAULT_OUT
    root = Path(out)
    existing = None
    if args.resume and (root / store.MANIFEST).is_file():
        existing = store.read_manifest(root)  # corrupt -> one-line refusal

    rules = _rules(args, existing)
    hands = parse_count("--hands", args.hands, *limits.RUN_COUNT)
    games = parse_count("--games", args.games, *limits.RUN_COUNT)
    if hands is None and games is None and existing is not None:
        if existing["mode"] == "games":
            games = existing["total"]
        else:
            hands = existing["total"]
    seed = parse_count("--seed", args.seed, *limits.SEED)
    if seed is None:
        seed = existing["seed"] if existing is not None else 0
    rate = parse_rate(args.log_decisions)
    if rate is None:
        rate = existing["log_decisions"] if existing is not None else 0.0
    detail = args.log_detail
    if detail is None:
        detail = existing.get("log_detail", "basic") if existing is not None else "basic"
    if args.log_detail == "cards" and not rate:
        raise CanastaError(
            "--log-detail cards needs decision logs: add --log-decisions RATE (e.g. 1)"
        )
    chunk = parse_count("--chunk-size", args.chunk_size, *limits.CHUNK)
    mode_now = "games" if games is not None else "hands"
    if chunk is None and existing is not None and existing["mode"] == mode_now:
        chunk = existing["chunk_size"]
    backend = args.backend or ("dask" if args.scheduler else "loky")
    if backend not in runner.BACKENDS:
        raise CanastaError(f"--backend '{backend}': choose loky or dask")
    if args.scheduler and backend != "dask":
        raise CanastaError("--scheduler needs --backend dask")
    if args.scheduler and not re.fullmatch(r"(tcp|tls|ucx|inproc)://\S+", args.scheduler):
        raise CanastaError(f"--scheduler '{args.scheduler}': give an address like tcp://HOST:8786")

    strategies = args.strategies
    if strategies is None and existing is not None:
        strategies = existing["strategies"]
    seats = runner.expand_strategies(rules, strategies)
    runner.check_strategy_names(seats, runner.registered_strategies(), "--strategies")
    runner.check_engine_supports(rules)

    mode = "games" if games is not None else "hands"
    total = games if games is not None else (hands if hands is not None else runner.DEFAULT_HANDS)
    chunk_eff = chunk or runner.default_chunk_size(mode, total, rate)
    jobs = (
        parse_jobs(args.jobs)
        if args.jobs is not None
        else runner.default_jobs(mode, total, backend)
    )
    settings = {
        "strategies": seats,
        "mode": mode,
        "total": total,
        "seed": seed,
        "chunk_size": chunk_eff,
        "log_decisions": rate,
        "log_detail": detail,
    }
    command = _command(settings, rules, out)
    progress = False if args.no_progress else None

    n_chunks = -(-total // chunk_eff) if total else 0

    def announce() -> None:  # once the folder is accepted: a refusal stays one line
        print(
            f"canasta simulate: {total:,} {mode} in {n_chunks:,} "
            f"chunk{'s' if n_chunks != 1 else ''} of {chunk_eff:,}, "
            f"{' vs '.join(runner.team_labels(rules, seats))}, seed {seed} -> {out}",
            file=sys.stderr,
        )

    # this process exists for this run: what it has imported is not garbage, and the cycle
    # collector's full passes over it cost 1-3% (with --jobs 1 the chunks run here; the
    # runner does the same in its worker processes)
    gc.freeze()
    try:
        result = runner.simulate(
            rules,
            seats,
            hands=hands if mode == "hands" else None,
            games=games,
            seed=seed,
            out=out,
            jobs=jobs,
            chunk_size=chunk_eff,
            log_decisions=rate,
            backend=backend,
            scheduler=args.scheduler,
            resume=args.resume,
            check=args.check,
            progress=progress,
            command=command,
            on_start=announce,
            log_detail=detail,
        )
    except RuntimeError as exc:
        if type(exc).__name__ != "EngineError":
            raise
        msg = " ".join(str(exc).split())
        raise CanastaError(f"{msg} (chunks finished before it are kept in {out})") from None
    except runner.RunInterrupted as exc:
        print(
            f"canasta simulate: interrupted; {exc.done}/{exc.n_chunks} chunks are saved in {out}; "
            f"resume with: canasta simulate --out {shlex.quote(out)} --resume",
            file=sys.stderr,
        )
        return 130
    if result.already_complete:
        print(
            f"{out} already holds this complete run; nothing to do (summary below)", file=sys.stderr
        )
    print_summary(result)
    print(
        f"results: {os.path.normpath(out)}/  (read with sim.runs.store.read_run({str(out)!r}, "
        "table='hands'))"
    )
    return 0


# ----------------------------------------------------------------------------- summary


def print_summary(result: Any) -> None:
    """The run's summary (reports.summary): teams, all pairs of teams, games, hand endings."""
    from reports.summary import summarize
    from sim.cli.tables import ci_column, fmt_pct_ci, print_table

    s = summarize(result)
    m = result.manifest
    rules = m["rules"]
    rate = ""
    if result.elapsed and result.chunks_run and s.hands:
        unit = "hands" if m["mode"] == "hands" else "games"
        rate = f" in {result.elapsed:,.1f} s ({result.units_run / result.elapsed:,.0f} {unit}/s)"
    what = f"{s.hands:,} hands"
    if m["mode"] == "games":
        what += f" in {s.games:,} games"
    print(f"{what} ({rules.get('name')}, {rules.get('players')} players, seed {m['seed']}){rate}")
    clustered = " (CIs clustered by game)" if m["mode"] == "games" else ""
    t = s.teams
    print_table(
        pd.DataFrame(
            {
                "team": t["team"],
                "strategy": t["strategy"],
                "mean score per hand [95% CI]": ci_column(t, "estimate", "low", "high"),
                "hands won [95% CI]": ci_column(t, "won_estimate", "won_low", "won_high", pct=True),
            }
        ),
        title=f"Teams{clustered}",
    )
    p = s.pairs
    print_table(
        pd.DataFrame(
            {
                "difference": p["label"],
                "points per hand [95% CI]": ci_column(p, "estimate", "low", "high", signed=True),
            }
        ),
        title="Difference between teams",
    )
    if s.game_teams is not None:
        g = s.game_teams
        print_table(
            pd.DataFrame(
                {
                    "team": g["team"],
                    "strategy": g["strategy"],
                    "games won [95% CI]": ci_column(g, "estimate", "low", "high", pct=True),
                }
            ),
            title=f"Games ({s.games:,} whole games)",
        )
        gp = s.game_pairs
        assert gp is not None  # summarize_tables sets game_teams and game_pairs together
        print_table(
            pd.DataFrame(
                {
                    "difference": gp["label"],
                    "final score per game [95% CI]": ci_column(
                        gp, "estimate", "low", "high", signed=True
                    ),
                }
            )
        )
    e = s.ends
    parts = [
        f"{row.end} {fmt_pct_ci(row.estimate, row.low, row.high)}"
        for row in e.itertuples()
        if row.end in ("went out", "stock exhausted") or row.estimate > 0
    ]
    print("hands ended: " + "; ".join(parts))
