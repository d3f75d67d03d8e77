"""OpenSpiel game check: returns of python_canasta_lab equal the independent referee's scores.

    python benchmarks/openspiel_returns.py [HANDS] [PLAYERS]     (default 1000 hands, 4 players)

Each hand is dealt by the game's chance nodes and played with uniformly random legal actions
(seeded by the hand index); the action list is replayed by sim.core.referee and every player's
return must equal its team's referee score.  Appends a JSON line to
benchmarks/results/openspiel_returns.jsonl.  Needs the extra: pip install ".[openspiel]".
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import pyspiel

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    sys.path.insert(0, str(ROOT / "tests"))  # the test module's helper (tests/ is no package)
    from test_openspiel import random_hand_returns

    hands = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    players = int(sys.argv[2]) if len(sys.argv) > 2 else 4
    game = pyspiel.load_game("python_canasta_lab", {"preset": "classic", "players": players})
    t = time.perf_counter()
    bad = 0
    for i in range(hands):
        ours, ref = random_hand_returns(game, i)
        bad += ours != ref
        if (i + 1) % 50 == 0:
            print(f"{i + 1} hands, {bad} mismatches", flush=True)
    row = {
        "hands": hands,
        "players": players,
        "mismatches": bad,
        "seconds": round(time.perf_counter() - t, 1),
        "utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }
    out = ROOT / "benchmarks" / "results" / "openspiel_returns.jsonl"
    with out.open("a") as f:
        f.write(json.dumps(row) + "\n")
    print(json.dumps(row))


if __name__ == "__main__":
    main()
