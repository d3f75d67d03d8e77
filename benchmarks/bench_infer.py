"""How close inferred worlds come to the real hidden hands.

Classic 4-player hands played by expert (keys (seed, 0, 0) for --hands seeds); at every draw
decision of seat 0 from turn 9 on, the two opponents' hands: natural pairs (natural ranks 4..A held
twice or more) and the cards of the rank the seat declined (the pile's top when it last drew instead
of taking; 0 when it took or the pile was empty), in the real hand and in sampled worlds (--worlds
per decision) of three kinds: uniform, model-consistent on the last discard only, and on the last
discard plus the draw or take of the same turn (the model: expert, 100 tries). Means with 95%
intervals over decisions (worlds of one decision averaged first).  Writes
benchmarks/results/infer.json.

    python benchmarks/bench_infer.py [--hands 40] [--worlds 20]
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path

import numpy as np

from sim.core.enums import FIRST_NATURAL, LAST_NATURAL, N_KINDS, Off
from sim.core.rules import RuleSet
from sim.play.game import GameState
from sim.play.pyplay import play_hand_py
from sim.play.worlds.sampler import Know, sample_worlds_nb
from strategies.registry import parse_spec

ROOT = Path(__file__).resolve().parents[1]

KINDS = ("uniform", "last discard", "discard + draw/take")


def declined_top(know: np.ndarray, s: int) -> int:
    """The pile's top rank when seat s last drew instead of taking (-1: none known)."""
    base = Know.DSNAP + s * Off.PUB_SIZE
    if (
        not know[Know.DRAW_VALID + s]
        or know[Know.DRAW_ACT + s] != 0
        or know[base + Off.PILE_LEN] == 0
    ):
        return -1
    return int(know[base + Off.PILE_TOP])


def features(hand: np.ndarray, top: int) -> tuple[int, int]:
    nat = hand[FIRST_NATURAL : LAST_NATURAL + 1]
    return int((nat >= 2).sum()), int(hand[top]) if top >= 0 else 0


def measure(hands: int, n_worlds: int) -> dict:
    rules = RuleSet.preset("classic", 4)
    sid, knobs = parse_spec("expert", rules.label)
    rows: dict[str, list] = {k: [] for k in ("real",) + KINDS}
    stats = {k: np.zeros(2, np.int64) for k in KINDS[1:]}
    for seed in range(hands):
        full = play_hand_py(rules, ["expert"] * 4, seed)
        gs = GameState.new_hand(rules, seed)
        for a in full.actions:
            if gs.seat == 0 and gs.phase == "draw" and int(gs.state[Off.TURN]) >= 8:
                obs, know = gs.observation(0), gs.knowledge(0)
                opp = [s for s in range(4) if gs.state[Off.TEAM_OF_SEAT + s] != gs.team]
                tops = {s: declined_top(know, s) for s in opp}
                rows["real"].append(
                    np.mean([features(gs.hand_counts(s), tops[s]) for s in opp], axis=0)
                )
                for kind in KINDS:
                    kn = know.copy()
                    if kind == "last discard":
                        kn[Know.DRAW_VALID : Know.DRAW_VALID + 6] = 0
                    out = np.zeros((n_worlds, Off.STATE_SIZE), np.int32)
                    mid = -1 if kind == "uniform" else sid
                    st = stats.get(kind, np.zeros(2, np.int64))
                    assert (
                        sample_worlds_nb(obs, kn, gs.params, seed, 0, out, mid, knobs, 100, st) == 0
                    )
                    f = [
                        features(
                            w[Off.HANDS + s * N_KINDS : Off.HANDS + (s + 1) * N_KINDS], tops[s]
                        )
                        for w in out
                        for s in opp
                    ]
                    rows[kind].append(np.mean(f, axis=0))
            gs.apply(a)
    res = {}
    for k, v in rows.items():
        arr = np.array(v)
        m, h = arr.mean(axis=0), 1.96 * arr.std(axis=0, ddof=1) / math.sqrt(len(arr))
        res[k] = {
            "natural_pairs": round(float(m[0]), 3),
            "natural_pairs_half": round(float(h[0]), 3),
            "declined_rank_cards": round(float(m[1]), 3),
            "declined_rank_cards_half": round(float(h[1]), 3),
            "decisions": len(arr),
        }
    for k, st in stats.items():
        res[k]["seats_constrained"] = int(st[0])
        res[k]["no_agreeing_draw"] = int(st[1])
    return res


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hands", type=int, default=40)
    ap.add_argument("--worlds", type=int, default=20)
    a = ap.parse_args()
    res = measure(a.hands, a.worlds)
    for k, v in res.items():
        print(
            f"{k:>22}: natural pairs {v['natural_pairs']:.3f} ± {v['natural_pairs_half']:.3f}, "
            f"declined-rank cards {v['declined_rank_cards']:.3f} ± "
            f"{v['declined_rank_cards_half']:.3f} ({v['decisions']} decisions)"
            + (
                f"; {v['no_agreeing_draw']} of {v['seats_constrained']} seats found no agreeing "
                "hand"
                if "seats_constrained" in v
                else ""
            )
        )
    out = ROOT / "benchmarks" / "results" / "infer.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(
        json.dumps({"hands": a.hands, "worlds": a.worlds, "results": res}, indent=1) + "\n"
    )


if __name__ == "__main__":
    main()
