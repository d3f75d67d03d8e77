"""The engine's fingerprint: one hash per case of every field of the hands, games and decision
rows that `run_chunk` returns, over the tables, strategies and modes below.  A change that must
not change results (a refactor, a faster kernel) leaves every hash as it was:

    python benchmarks/fingerprint.py --out /tmp/before.json      # on the old tree
    python benchmarks/fingerprint.py --check /tmp/before.json  # on the new tree: exit 1 on a change

``--rename expert=expert-v1`` plays the cases under another strategy name (a player kept
under a new name must give the hashes the old name gave).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys

import numpy as np

from sim.core.rules import RuleSet
from sim.play.engine import run_chunk

TABLES = (
    ("classic", 2, None),
    ("classic", 3, None),
    ("classic", 4, None),
    ("classic", 5, None),
    ("classic", 6, "2x3"),
    ("classic", 6, "3x2"),
    ("german", 4, None),
    ("samba", 4, None),
)
STRATEGIES = ("random", "greedy", "expert", "patient", "pile-control", "tunable")


def cases() -> list[dict[str, object]]:
    out: list[dict[str, object]] = []
    for preset, players, layout in TABLES:
        for strat in STRATEGIES:
            out.append(
                dict(
                    preset=preset,
                    players=players,
                    layout=layout,
                    strategies=strat,
                    mode="hands",
                    count=60,
                    log_rate=1.0,
                    detail="cards",
                    luck=True,
                )
            )
        out.append(
            dict(
                preset=preset,
                players=players,
                layout=layout,
                strategies="expert,greedy,pile-control",
                mode="games",
                count=6,
                log_rate=0.5,
                detail="basic",
                luck=False,
            )
        )
    # a search player at one table: the search loop and its rollouts
    out.append(
        dict(
            preset="classic",
            players=4,
            layout=None,
            strategies="pimc:worlds=4,expert",
            mode="hands",
            count=4,
            log_rate=1.0,
            detail="basic",
            luck=False,
        )
    )
    return out


def _digest(arr: np.ndarray) -> str:
    h = hashlib.sha256()
    names = arr.dtype.names or ()
    for name in names:
        h.update(name.encode())
        h.update(np.ascontiguousarray(arr[name]).tobytes())
    return h.hexdigest()[:16]


def _seats(spec: str, rules: RuleSet, rename: dict[str, str]) -> tuple[str, ...]:
    parts = [
        rename.get(p.split(":")[0], p.split(":")[0]) + p[len(p.split(":")[0]) :]
        for p in spec.split(",")
    ]
    if len(parts) == 1:
        return tuple(parts) * rules.players
    return tuple(parts[s % len(parts)] for s in range(rules.players))


def fingerprint(rename: dict[str, str]) -> dict[str, dict[str, str]]:
    result: dict[str, dict[str, str]] = {}
    for c in cases():
        layout = c["layout"]
        rules = RuleSet.preset(
            str(c["preset"]),
            players=int(c["players"]),  # type: ignore[call-overload]
            team_layout=layout if isinstance(layout, str) else None,
        )
        seats = _seats(str(c["strategies"]), rules, rename)
        res = run_chunk(
            rules,
            seats,
            20261201,
            0,
            int(c["count"]),  # type: ignore[call-overload]
            mode=str(c["mode"]),
            log_rate=float(c["log_rate"]),  # type: ignore[arg-type]
            log_detail=str(c["detail"]),
            luck=bool(c["luck"]),
        )
        table = f"{c['preset']}-{c['players']}{'-' + str(layout) if layout else ''}"
        name = f"{table} {c['strategies']} {c['mode']}"
        result[name] = {
            "hands": _digest(res.hands),
            "games": _digest(res.games),
            "decisions": _digest(res.decisions),
        }
    return result


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", help="write the hashes to this JSON file")
    ap.add_argument("--check", help="compare with the hashes of this JSON file; exit 1 on a change")
    ap.add_argument(
        "--rename",
        action="append",
        default=[],
        metavar="OLD=NEW",
        help="play strategy NEW where the cases name OLD",
    )
    args = ap.parse_args(argv)
    rename = dict(r.split("=", 1) for r in args.rename)
    got = fingerprint(rename)
    print(f"{len(got)} cases")
    if args.out:
        with open(args.out, "w") as fh:
            json.dump(got, fh, indent=1, sort_keys=True)
    if args.check:
        with open(args.check) as fh:
            want = json.load(fh)
        bad = [k for k in want if got.get(k) != want[k]]
        for k in bad:
            print(f"changed: {k}: {want[k]} -> {got.get(k)}")
        print("identical" if not bad else f"{len(bad)} of {len(want)} cases changed")
        return 1 if bad else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
