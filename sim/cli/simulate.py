"""`canasta simulate`: play many hands (or games) in parallel into a run folder of parquet shards."""

from __future__ import annotations

import argparse
import gc
import os
import re
import shlex
import sys
from pathlib import Path
from typing import Any

from sim.runs import store

DEFAULT_OUT = "runs/default"

EPILOG = """examples:
  canasta simulate                                   20,000 hands, classic, expert vs greedy
  canasta simulate --strategies expert,greedy --hands 1M --seed 1 --out runs/x
  canasta simulate --games 10000 --log-decisions 0.05 --out runs/games
  canasta simulate --rules german --players 6 --team-layout 3x2 --set go_out_bonus=200
  canasta simulate --out runs/x --resume             finish an interrupted run (settings from its manifest)
  canasta simulate --backend dask --scheduler tcp://10.0.0.5:8786 --hands 10M --out runs/big

--strategies: one per team (expanded to its seats) or one per table seat.
Counts accept 1000000, 1_000_000, 1e6, 100k, 1M.  The run folder holds manifest.json and
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
    g.add_argument("--players", default=None, metavar="N", help="players at the table, 2..6 (default 4)")
    g.add_argument("--team-layout", default=None, metavar="LAYOUT", help="six players: 2x3 or 3x2")
    g.add_argument(
        "--set", dest="overrides", action="append", default=[], metavar="NAME=VALUE",
        help="override one rule parameter (repeatable; see canasta rules)",
    )
    g.add_argument(
        "--strategies", default=None, metavar="LIST",
        help="comma list: one strategy per team or per seat (default expert,greedy)",
    )
    n = g.add_mutually_exclusive_group()
    n.add_argument("--hands", default=None, metavar="N", help="independent hands to play (default 20,000)")
    n.add_argument("--games", default=None, metavar="N", help="whole games to play instead of hands")
    g.add_argument("--seed", default=None, metavar="S", help="seed of the run (default 0)")
    g.add_argument(
        "--log-decisions", default=None, metavar="RATE",
        help="fraction 0..1 of hands whose decisions are logged (default 0)",
    )
    x = p.add_argument_group("execution")
    x.add_argument("--out", default=None, metavar="DIR", help=f"run folder (default {DEFAULT_OUT})")
    x.add_argument("--resume", action="store_true", help="finish an interrupted run in --out")
    x.add_argument("--jobs", default=None, metavar="N", help="worker processes (default -1: all cores)")
    x.add_argument(
        "--chunk-size", default=None, metavar="N",
        help="hands per chunk (games with --games); default: total/64 within 250..5000 (25..500 games)",
    )
    x.add_argument("--backend", default=None, metavar="{loky,dask}", help="joblib backend (default loky)")
    x.add_argument("--scheduler", default=None, metavar="tcp://HOST:PORT", help="dask scheduler (implies --backend dask)")
    x.add_argument("--check", action="store_true", help="let the core verify invariants (slower)")
    x.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(run=run)
    return p


# ----------------------------------------------------------------------------- option parsing

_SUFFIX = {"k": 1_000, "m": 1_000_000, "g": 1_000_000_000}


def parse_count(option: str, text: str | None, minimum: int = 0) -> int | None:
    """'1000000', '1_000_000', '1,000,000', '1e6', '100k', '1M' -> int; one-line error otherwise."""
    if text is None:
        return None
    t = str(text).strip().lower().replace("_", "").replace(",", "")
    mult = 1
    if t and t[-1] in _SUFFIX:
        mult, t = _SUFFIX[t[-1]], t[:-1]
    try:
        if re.fullmatch(r"[+-]?\d+", t):
            value = int(t) * mult
        else:
            f = float(t) * mult
            if not f.is_integer():
                raise ValueError
            value = int(f)
    except (ValueError, OverflowError):
        raise ValueError(f"{option} '{text}' is not a whole number") from None
    if value < minimum:
        raise ValueError(f"{option} {value} must be >= {minimum}")
    return value


def parse_rate(text: str | None) -> float | None:
    if text is None:
        return None
    try:
        rate = float(text)
    except ValueError:
        raise ValueError(f"--log-decisions '{text}' is not a number (fraction of hands 0..1)") from None
    if not 0.0 <= rate <= 1.0:
        raise ValueError(f"--log-decisions {text} must be between 0 and 1 (fraction of hands logged)")
    return rate


def parse_jobs(text: str | None) -> int:
    if text is None:
        return -1
    jobs = parse_count("--jobs", text, minimum=-(10**6))
    assert jobs is not None  # text is not None
    if jobs == 0:
        raise ValueError("--jobs 0: give a number of workers, or -1 for all cores")
    return jobs


def _rules(args: argparse.Namespace, existing: dict[str, Any] | None):
    from sim.core.rules import RulesError, RuleSet, parse_overrides

    chosen = args.rules or args.players is not None or args.team_layout or args.overrides
    if existing is not None and not chosen:
        return RuleSet.from_dict(existing["rules"])
    sets = parse_overrides(args.overrides)
    for fixed, option in (("name", "--rules"), ("players", "--players"), ("team_layout", "--team-layout")):
        if fixed in sets:
            raise RulesError(f"use {option}, not --set {fixed}=")
    players = parse_count("--players", args.players, minimum=0)
    return RuleSet.preset(args.rules or "classic", players if players is not None else 4, args.team_layout, **sets)


def _command(settings: dict[str, Any], rules: Any, out: str) -> str:
    parts = ["canasta", "simulate", "--rules", rules.name, "--players", str(rules.players)]
    if rules.players == 6:
        parts += ["--team-layout", rules.team_layout]
    for k, v in rules.differences_from_preset().items() if hasattr(rules, "differences_from_preset") else ():
        if isinstance(v, list | tuple | dict):
            continue  # complex values live in the manifest's rules
        parts += ["--set", f"{k}={str(v).lower() if isinstance(v, bool) else v}"]
    parts += ["--strategies", ",".join(settings["strategies"])]
    parts += [f"--{settings['mode']}", str(settings["total"]), "--seed", str(settings["seed"])]
    parts += ["--chunk-size", str(settings["chunk_size"])]
    if settings["log_decisions"]:
        parts += ["--log-decisions", str(settings["log_decisions"])]
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
    hands = parse_count("--hands", args.hands)
    games = parse_count("--games", args.games)
    if hands is None and games is None and existing is not None:
        if existing["mode"] == "games":
            games = existing["total"]
        else:
            hands = existing["total"]
    seed = parse_count("--seed", args.seed)
    if seed is None:
        seed = existing["seed"] if existing is not None else 0
    rate = parse_rate(args.log_decisions)
    if rate is None:
        rate = existing["log_decisions"] if existing is not None else 0.0
    chunk = parse_count("--chunk-size", args.chunk_size, minimum=1)
    mode_now = "games" if games is not None else "hands"
    if chunk is None and existing is not None and existing["mode"] == mode_now:
        chunk = existing["chunk_size"]
    jobs = parse_jobs(args.jobs)
    backend = args.backend or ("dask" if args.scheduler else "loky")
    if backend not in runner.BACKENDS:
        raise ValueError(f"--backend '{backend}': choose loky or dask")
    if args.scheduler and backend != "dask":
        raise ValueError("--scheduler needs --backend dask")
    if args.scheduler and not re.fullmatch(r"(tcp|tls|ucx|inproc)://\S+", args.scheduler):
        raise ValueError(f"--scheduler '{args.scheduler}': give an address like tcp://HOST:8786")

    strategies = args.strategies
    if strategies is None and existing is not None:
        strategies = existing["strategies"]
    seats = runner.expand_strategies(rules, strategies)
    runner.check_strategy_names(seats, runner.registered_strategies())
    runner.check_engine_supports(rules)

    mode = "games" if games is not None else "hands"
    total = games if games is not None else (hands if hands is not None else runner.DEFAULT_HANDS)
    chunk_eff = chunk or runner.default_chunk_size(mode, total)
    settings = {"strategies": seats, "mode": mode, "total": total, "seed": seed,
                "chunk_size": chunk_eff, "log_decisions": rate}
    command = _command(settings, rules, out)
    progress = False if args.no_progress else None

    n_chunks = -(-total // chunk_eff) if total else 0
    print(
        f"canasta simulate: {total:,} {mode} in {n_chunks:,} chunk{'s' if n_chunks != 1 else ''} of {chunk_eff:,}, "
        f"{' vs '.join(runner.team_labels(rules, seats))}, seed {seed} -> {out}",
        file=sys.stderr,
    )
    # this process exists for this run: what it has imported is not garbage, and the cycle
    # collector's full passes over it cost 1-3% (with --jobs 1 the chunks run here; the
    # runner does the same in its worker processes)
    gc.freeze()
    try:
        result = runner.simulate(
            rules, seats, hands=hands if mode == "hands" else None, games=games, seed=seed,
            out=out, jobs=jobs, chunk_size=chunk_eff, log_decisions=rate, backend=backend,
            scheduler=args.scheduler, resume=args.resume, check=args.check, progress=progress,
            command=command,
        )
    except RuntimeError as exc:
        if type(exc).__name__ != "EngineError":
            raise
        msg = " ".join(str(exc).split())
        raise ValueError(f"{msg} (chunks finished before it are kept in {out})") from None
    except runner.RunInterrupted as exc:
        print(
            f"canasta simulate: interrupted; {exc.done}/{exc.n_chunks} chunks are saved in {out}; "
            f"resume with: canasta simulate --out {shlex.quote(out)} --resume",
            file=sys.stderr,
        )
        return 130
    if result.already_complete:
        print(f"{out} already holds this complete run; nothing to do (summary below)", file=sys.stderr)
    for line in result.summary_lines():
        print(line)
    print(f"results: {os.path.normpath(out)}/  (read with sim.runs.store.read_run({str(out)!r}, table='hands'))")
    return 0
