"""Where the self-play kernel spends its time, per compiled function: samples of `perf record`
(cpu-clock, so it works without hardware counters) over `run_chunk` of one strategy, with the
numba functions named through a perf map, and for each function the share of samples on call
overhead: the entry's zeroing of stack slots (numba gives every call site of a function two
slots that its entry zeroes on every call) and argument pushes (an array argument is 7 words).

    python benchmarks/profile_kernel.py --strategy greedy --hands 300000
    python benchmarks/profile_kernel.py --strategy expert --hands 100000 \\
        --function heuristic9decide_nb

Needs Linux `perf` (Debian's linux-perf) and `objdump`; run it twice after an edit (the first run
compiles).  Function level: a callee inlined by numba or LLVM counts in its caller.  Prints a
table, and with --function the function's hottest instructions.  Writes nothing else.
"""

from __future__ import annotations

import argparse
import collections
import ctypes
import os
import re
import signal
import subprocess
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def numba_symbols() -> list[tuple[int, int, str]]:
    """(address, size, name) of every function numba's JIT engine holds, sizes from the gaps
    (numba's private layout: the engine's set of defined symbols)."""
    from numba.core.registry import cpu_target

    engine = cpu_target.target_context.codegen()._engine
    found = []
    for name in engine._defined_symbols:
        try:
            addr = engine._ee.get_function_address(name)
        except Exception:  # a global variable, not a function
            continue
        if addr:
            found.append((addr, name))
    found.sort()
    return [
        (a, (found[i + 1][0] - a) if i + 1 < len(found) else 4096, n)
        for i, (a, n) in enumerate(found)
    ]


def short(name: str) -> str:
    """`_ZN3sim4core5apply12do_action_nbB4v238B40...` -> `sim.core.apply.do_action_nb`."""
    m = re.match(r"_ZN((?:\d+[A-Za-z_][A-Za-z0-9_]*?)+)B\d+v\d+", name)
    if not m:
        return name[:60]
    parts, s = [], m.group(1)
    while s:
        n = re.match(r"\d+", s)
        if not n:
            break
        k = int(n.group())
        parts.append(s[n.end() : n.end() + k])
        s = s[n.end() + k :]
    return ".".join(parts)


def disassemble(addr: int, code: bytes) -> list[tuple[int, str]]:
    with tempfile.NamedTemporaryFile(suffix=".bin") as f:
        f.write(code)
        f.flush()
        out = subprocess.run(
            [
                "objdump",
                "-D",
                "-b",
                "binary",
                "-m",
                "i386:x86-64",
                f"--adjust-vma={addr:#x}",
                f.name,
            ],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    return [
        (int(line.split(":")[0], 16), line.split("\t", 2)[-1].strip())
        for line in out.splitlines()
        if ":\t" in line
    ]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--strategy", default="greedy")
    ap.add_argument("--rules", default="classic")
    ap.add_argument("--hands", type=int, default=300_000)
    ap.add_argument(
        "--function",
        default=None,
        help="also list the hottest instructions of the function whose name contains this",
    )
    ap.add_argument("--top", type=int, default=20)
    args = ap.parse_args(argv)
    import sim.play.engine as engine
    from sim.core.rules import RuleSet

    rules = RuleSet.preset(args.rules)
    seats = (args.strategy,) * rules.players
    engine.run_chunk(rules, seats, 1, 0, 10)  # compile or load everything first
    symbols = numba_symbols()
    with tempfile.TemporaryDirectory() as tmp:
        data = os.path.join(tmp, "perf.data")
        rec = subprocess.Popen(
            ["perf", "record", "-q", "-e", "cpu-clock", "-o", data, "-p", str(os.getpid())],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        time.sleep(1.0)  # perf attaches
        t = time.process_time()
        size = 5000
        for i in range(max(1, args.hands // size)):
            engine.run_chunk(rules, seats, 1, 10 + i * size, size, reuse_buffers=True)
        spent = time.process_time() - t
        rec.send_signal(signal.SIGINT)
        rec.wait()
        ips = collections.Counter(
            int(x, 16)
            for x in subprocess.run(
                ["perf", "script", "-i", data, "-F", "ip"], capture_output=True, text=True
            ).stdout.split()
        )
    total = sum(ips.values()) or 1
    print(
        f"{args.strategy}, {args.rules}: {args.hands / spent:,.0f} hands per CPU second under "
        f"perf, {total:,} samples"
    )
    print(f"{'function':56s} {'% all':>6s} {'zeroing':>8s} {'pushes':>7s}")
    rows = []
    for addr, size, name in symbols:
        hits = {ip: c for ip, c in ips.items() if addr <= ip < addr + size}
        n = sum(hits.values())
        if n < 0.003 * total:
            continue
        listing = disassemble(addr, ctypes.string_at(addr, size)) if size < (1 << 20) else []
        zero = sum(
            hits.get(a, 0)
            for a, ins in listing
            if ins.startswith("movq") and "$0x0," in ins and "(%rsp)" in ins
        )
        push = sum(hits.get(a, 0) for a, ins in listing if ins.startswith("push"))
        rows.append((n, name, zero, push, addr, size, listing, hits))
    rows.sort(reverse=True)
    for n, name, zero, push, *_ in rows:
        print(
            f"{short(name)[-56:]:56s} {100 * n / total:6.1f} {100 * zero / total:8.2f} "
            f"{100 * push / total:7.2f}"
        )
    if args.function:
        chosen = [r for r in rows if args.function in r[1]]
        if not chosen:
            print(f"no sampled function's name contains {args.function!r}")
            return 1
        n, name, _, _, addr, size, listing, hits = chosen[0]
        text = dict(listing)
        print(f"\n{short(name)}: hottest instructions ({n:,} samples)")
        for ip, c in sorted(hits.items(), key=lambda x: -x[1])[: args.top]:
            print(f"{c:7d} {100 * c / n:5.1f}%  {ip - addr:#7x}  {text.get(ip, '?')}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
