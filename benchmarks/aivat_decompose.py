"""Probe (issue 13): where the variance left by the value-model AIVAT terms comes from.

Reads the per-draw values saved by `benchmarks/aivat_probe.py --save FILE.npz` (the deals whose
terms were measured) and splits each hand's adjusted result (coefficient 1, A's team minus B's)
into three parts that sum to it exactly:
- start: the value expected at the first draw (fixed by the deal and the upcard);
- drift: over the decisions between a draw and the next one, the value expected before the
  next draw minus the value after this one (zero for a perfect value model: the strategies are
  deterministic, so only the cards move the expected result);
- end: the result minus the value after the last draw.
Prints their variances per hand and per deal (the two seatings averaged).

    python benchmarks/aivat_decompose.py /tmp/aivat.npz
"""

from __future__ import annotations

import argparse
import json

import numpy as np


def parts(z) -> dict[str, np.ndarray]:
    """Per hand of the measured deals: y, the adjusted y and its start, drift and end parts,
    with the deal index (key // 10**6 = seating)."""
    hand, sign = z["hand"], z["sign"]
    seating = np.concatenate(
        [[0], np.cumsum(np.diff(hand) < 0)]
    )  # seating 1's events follow seating 0's
    keep = z["actual"] != 0  # events of the measured half
    hand, sign, seating = hand[keep], sign[keep], seating[keep]
    post = sign * z["actual"][keep]  # A's side: V after the card drawn
    pre = sign * z["expect"][keep]  # and its expectation before the draw
    y_ev = sign * z["target"][keep]
    key = seating * 10**6 + hand
    first = np.r_[True, key[1:] != key[:-1]]
    last = np.r_[key[1:] != key[:-1], True]
    uk, idx = np.unique(key, return_inverse=True)
    n = len(uk)
    start = np.zeros(n)
    start[idx[first]] = pre[first]
    end = np.zeros(n)
    end[idx[last]] = (y_ev - post)[last]
    y = np.zeros(n)
    y[idx[last]] = y_ev[last]
    drift_ev = np.zeros(len(key))
    nxt = np.where(~last)[0]
    drift_ev[nxt] = pre[nxt + 1] - post[nxt]
    drift = np.bincount(idx, weights=drift_ev, minlength=n)
    adjusted = y - np.bincount(idx, weights=post - pre, minlength=n)
    return {"key": uk, "y": y, "adjusted": adjusted, "start": start, "drift": drift, "end": end}


def per_deal(key: np.ndarray, v: np.ndarray) -> np.ndarray:
    """The two seatings' values of each deal averaged (deals with both seatings)."""
    h = key % 10**6
    total = np.bincount(h, weights=v)
    count = np.bincount(h)
    both = count == 2
    return total[both] / 2


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("npz")
    ap.add_argument("--out", default="")
    args = ap.parse_args()
    p = parts(np.load(args.npz))
    assert np.allclose(p["adjusted"], p["start"] + p["drift"] + p["end"])
    res = {}
    for unit in ("hand", "deal"):
        var = {
            k: float((v if unit == "hand" else per_deal(p["key"], v)).var(ddof=1))
            for k, v in p.items()
            if k != "key"
        }
        res[unit] = var
        print(f"variance per {unit}: " + ", ".join(f"{k} {v:,.0f}" for k, v in var.items()))
    if args.out:
        with open(args.out, "w") as f:
            json.dump(res, f, indent=1)


if __name__ == "__main__":
    main()
