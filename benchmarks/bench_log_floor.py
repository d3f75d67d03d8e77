"""The least a fully card-logged hand can cost: issue 15's "at most 2.5x the unlogged time" against
what its own contract requires, in CPU microseconds per hand (greedy, classic 4p).

    python benchmarks/bench_log_floor.py                 # 2,500-hand chunk, 7 repeats
    python benchmarks/bench_log_floor.py --hands 5000 --repeat 9

Three parts, each measured in this process (time.process_time, best of --repeat):
1. the unlogged hand and the card-logged hand as the product runs them (play, arrow tables,
   parquet encoding: the stages of bench_log_cost.py);
2. the parquet encoding of the very same card-logged decision table under every pyarrow setting
   that could be faster (compressions x encodings, dictionaries): the fastest is the floor of
   the encoding, since the columns and their number are the issue's contract (docs/DATA.md);
3. the legal list of every decision (the basic column `n_legal` needs it), timed alone on the
   states of greedy hands.
The floor line takes the unlogged hand, puts the fastest encoding of the full decision table
in place of its empty one's, adds what the arrow tables of the logged hand cost more, the legal
lists, and the stores of the logged values at two per clock cycle (an ideal kernel doing
nothing else), and divides by the unlogged hand.  Writes benchmarks/results/log_floor.json.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
from numba import njit

from sim.core.enums import N_ACTIONS, N_KINDS, Off
from sim.core.legal import legal_actions_nb
from sim.core.rules import RuleSet
from sim.play.engine import run_chunk
from sim.play.game import GameState
from sim.runs import encode, integrity
from strategies.greedy import decide_nb
from strategies.registry import MAX_KNOBS

ROOT = Path(__file__).resolve().parents[1]

RESULTS = ROOT / "benchmarks" / "results" / "log_floor.json"
SEATS = ("greedy",) * 4
CLOCK_HZ = 2.6e9  # this machine class (lscpu); only the ideal-store term uses it


def best_of(repeat: int, fn) -> tuple[float, object]:
    best, out = float("inf"), None
    for _ in range(repeat):
        t0 = time.process_time()
        out = fn()
        best = min(best, time.process_time() - t0)
    return best, out


def hand_stages(rules: RuleSet, hands: int, repeat: int, detail: str | None) -> dict:
    """CPU us per hand of play, arrow tables, and parquet encoding (decisions, the rest), as a
    worker runs a chunk."""

    def one():
        t0 = time.process_time()
        res = run_chunk(
            rules,
            SEATS,
            7,
            0,
            hands,
            log_rate=1.0 if detail else 0.0,
            reuse_buffers=True,
            **({"log_detail": detail} if detail else {}),
        )
        t1 = time.process_time()
        tables = encode.record_tables(
            res.hands, res.decision_columns or res.decisions, res.games, rules, SEATS
        )
        t2 = time.process_time()
        key = integrity.chunk_key(0, 7, 0, hands)
        encode.encode_table(tables["decisions"], "decisions", key)
        t3 = time.process_time()
        encode.encode_table(tables["hands"], "hands", key)
        encode.encode_table(tables["games"], "games", key)
        t4 = time.process_time()
        return (t1 - t0, t2 - t1, t3 - t2, t4 - t3), tables

    runs = [one() for _ in range(repeat)]
    play, tab, enc_dec, enc_rest = (min(r[0][i] for r in runs) * 1e6 / hands for i in range(4))
    return {
        "play": play,
        "tables": tab,
        "encode_decisions": enc_dec,
        "encode_rest": enc_rest,
        "total": play + tab + enc_dec + enc_rest,
        "table": runs[0][1]["decisions"],
    }


def encoding_grid(table: pa.Table, hands: int, repeat: int) -> list[tuple[float, float, str]]:
    """(us per hand, bytes per hand, setting) of the decision table under each setting."""
    fields = [pa.field(f.name, f.type, nullable=False) for f in table.schema]
    table = pa.Table.from_arrays(table.columns, schema=pa.schema(fields))
    strings = [f.name for f in fields if pa.types.is_dictionary(f.type)]
    numbers = [f.name for f in fields if f.name not in strings]
    out = []
    t, data = best_of(repeat, lambda: encode.encode_table(table, "decisions"))
    out.append((t * 1e6 / hands, len(data) / hands, "the product's (encode.encode_table)"))
    for comp in ("none", "lz4_raw", "snappy", "zstd"):
        for enc in ("PLAIN", "BYTE_STREAM_SPLIT", "DELTA_BINARY_PACKED", "dictionary"):
            kw = (
                {"use_dictionary": True}
                if enc == "dictionary"
                else {"use_dictionary": strings, "column_encoding": {n: enc for n in numbers}}
            )

            def write(kw=kw, comp=comp):
                sink = pa.BufferOutputStream()
                pq.write_table(
                    table,
                    sink,
                    compression=comp,
                    write_statistics=False,
                    write_batch_size=1 << 18,
                    **kw,
                )
                return sink.getvalue().to_pybytes()

            t, data = best_of(repeat, write)
            out.append((t * 1e6 / hands, len(data) / hands, f"{comp} + {enc}"))
    return out


@njit(cache=True)
def legal_counts_nb(
    states: np.ndarray, params: np.ndarray, buf: np.ndarray, scratch: np.ndarray, calls: int
) -> int:
    """Copy each state (int32[n, STATE_SIZE]) into `scratch`, then list its legal actions
    `calls` times there (in cache, as in the loop, which lists them on its live state);
    returns the sum of the lengths.  calls=0 times the copies alone."""
    total = 0
    for i in range(states.shape[0]):
        for j in range(scratch.shape[0]):
            scratch[j] = states[i, j]
        for _ in range(calls):
            total += legal_actions_nb(scratch, Off.HANDS + scratch[Off.SEAT] * N_KINDS, params, buf)
    return total


def decision_states(rules: RuleSet, hands: int) -> tuple[np.ndarray, np.ndarray]:
    """The state at every decision of `hands` greedy hands (int32[n, STATE_SIZE]), and params."""
    rows = []
    knobs = np.zeros(MAX_KNOBS, np.float64)
    rng = np.zeros(2, np.uint64)
    buf = np.zeros(N_ACTIONS, np.int32)
    params = None
    for h in range(hands):
        gs = GameState.new_hand(rules, seed=3, hand=h)
        params = gs.params
        while not gs.is_over:
            rows.append(gs.state.copy())
            gs.apply(int(decide_nb(gs.observation(), gs.params, knobs, rng, buf)))
    assert params is not None
    return np.stack(rows), params


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=2_500, help="hands per chunk (default 2500)")
    ap.add_argument("--repeat", type=int, default=7, help="best of this many (default 7)")
    ap.add_argument(
        "--legal-hands", type=int, default=200, help="greedy hands whose states time the legal list"
    )
    ap.add_argument("--output", default=str(RESULTS), help="JSON results file")
    args = ap.parse_args(argv)
    rules = RuleSet.preset("classic")
    run_chunk(rules, SEATS, 7, 0, 20, log_rate=1.0, log_detail="cards")  # compile / load
    run_chunk(rules, SEATS, 7, 0, 20)

    plain = hand_stages(rules, args.hands, args.repeat, None)
    cards = hand_stages(rules, args.hands, args.repeat, "cards")
    table = cards.pop("table")
    plain.pop("table")
    rows = table.num_rows / args.hands
    grid = sorted(encoding_grid(table, args.hands, args.repeat))

    states, params = decision_states(rules, args.legal_hands)
    buf = np.zeros(N_ACTIONS, np.int32)
    scratch = np.zeros(states.shape[1], np.int32)
    legal_counts_nb(states[:2], params, buf, scratch, 1)
    t8, _ = best_of(args.repeat, lambda: legal_counts_nb(states, params, buf, scratch, 8))
    t0, _ = best_of(args.repeat, lambda: legal_counts_nb(states, params, buf, scratch, 0))
    legal_us = (t8 - t0) / 8 * 1e6 / len(states) * rows
    stores_us = rows * table.num_columns / 2 / CLOCK_HZ * 1e6
    # the unlogged hand with its (empty) decision table's encoding replaced by the fastest
    # encoding of the full one, plus what the logged tables and the kernel must add
    floor = (
        plain["total"]
        - plain["encode_decisions"]
        + grid[0][0]
        + cards["tables"]
        - plain["tables"]
        + legal_us
        + stores_us
    )

    print(
        f"greedy classic 4p, {args.hands:,} hands, best of {args.repeat}; {rows:.1f} decision rows "
        "x "
        f"{table.num_columns} columns per hand; load average {os.getloadavg()[0]:.1f}"
    )
    print(f"unlogged hand: {plain['total']:.2f} us (play {plain['play']:.2f})")
    print(
        f"card-logged hand: {cards['total']:.2f} us (play {cards['play']:.2f}, tables "
        f"{cards['tables']:.2f}, "
        f"encoding {cards['encode_decisions']:.2f} + {cards['encode_rest']:.2f}): "
        f"x{cards['total'] / plain['total']:.2f}"
    )
    print(
        "parquet encoding of the card-logged decision table, fastest first (us / bytes per hand):"
    )
    for us, nbytes, name in grid[:8]:
        print(f"  {us:7.2f} {nbytes:9,.0f}  {name}")
    print(
        f"legal lists: {legal_us:.2f} us per hand ({len(states):,} states of {args.legal_hands} "
        "hands)"
    )
    print(f"ideal stores of {rows * table.num_columns:,.0f} values: {stores_us:.2f} us per hand")
    print(
        f"floor: {floor:.2f} us per hand = x{floor / plain['total']:.2f} the unlogged hand "
        f"(goal x2.5 = {2.5 * plain['total']:.2f} us)"
    )
    out = {
        "hands": args.hands,
        "rows_per_hand": rows,
        "columns": table.num_columns,
        "unlogged": plain,
        "cards": cards,
        "encodings": [{"us": u, "bytes": b, "setting": n} for u, b, n in grid],
        "legal_us": legal_us,
        "stores_us": stores_us,
        "floor_us": floor,
        "floor_ratio": floor / plain["total"],
        "load": os.getloadavg()[0],
    }
    Path(args.output).parent.mkdir(parents=True, exist_ok=True)
    Path(args.output).write_text(json.dumps(out, indent=1))
    print(f"written {args.output}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
