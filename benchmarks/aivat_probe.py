"""Probe (issue 13): how much a value-model AIVAT term removes, beyond the engine's linear terms.

Plays --deals duplicate deals of A against B (classic 4p, seed 11 by default) with
benchmarks/aivat_record.py, which records the full state before every stock card drawn.  A value
model V (scikit-learn HistGradientBoostingRegressor) predicts the drawer's team's final score
minus the other team's from the state after a draw.  Each draw's term, for A's team minus B's, is

    V(state after the card drawn) - sum_k p_k V(state after a card of kind k),

p_k = the stock's actual share of kind k at that moment (the true chance distribution: the stock
is a uniform random order of the cards nobody has seen), so every term has mean zero whatever V
is.  V is fitted on one half of the deals (by parity) and evaluated on the other (two-fold
cross-fitting), so a deal's terms never depend on its own result; the coefficients of the terms
(and of the engine's 124 linear terms, when combined) are then fitted by reports.luck.adjust
(ridge, 10-fold cross-fitting) within each half.  Prints the factor against plain duplicate
deals with a 95% bootstrap CI over deals, and writes benchmarks/results/aivat_probe.json.

    OMP_NUM_THREADS=1 nice -n 10 python benchmarks/aivat_probe.py --deals 20000
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np
from aivat_record import (
    B_HAND,
    B_LEFT,
    B_NAT_THEM,
    B_NAT_US,
    B_PARTNER,
    B_PILE,
    B_RIGHT,
    B_STOCK,
    B_WILD_THEM,
    B_WILD_US,
    S0,
    S_FREEZE,
    S_INDEX,
    S_IS_A,
    S_KIND,
    S_MIN_THEM,
    S_MIN_US,
    S_OPEN_THEM,
    S_OPEN_US,
    S_PILE_LEN,
    S_PILE_TOP,
    S_RED3_THEM,
    S_RED3_US,
    S_STOCK_LEN,
    S_TAKES_THEM,
    S_TAKES_US,
    S_TURN,
    play_records,
)

from reports.luck import adjust
from sim.core.enums import FIRST_NATURAL, LAST_NATURAL, LUCK_SCALE, MAX_TEAMS, N_KINDS, N_LUCK, Kind
from sim.core.rules import RuleSet

ROOT = Path(__file__).resolve().parents[1]
NAT = slice(FIRST_NATURAL, LAST_NATURAL + 1)
# card points (classic): 4-7 5, 8-K 10, A and 2 20, joker 50, black three 5
POINTS = np.zeros(N_KINDS, np.float32)
POINTS[Kind.TWO] = 20
POINTS[Kind.BLACK3] = 5
POINTS[Kind.FOUR : Kind.EIGHT] = 5
POINTS[Kind.EIGHT : Kind.ACE] = 10
POINTS[Kind.ACE] = 20
POINTS[Kind.JOKER] = 50


def block(raw: np.ndarray, b: int) -> np.ndarray:
    return raw[:, b * N_KINDS : (b + 1) * N_KINDS].astype(np.float32)


def scalar(raw: np.ndarray, s: int) -> np.ndarray:
    return raw[:, S0 + s].astype(np.float32)


def team_aggregates(
    held: np.ndarray, nat: np.ndarray, wild: np.ndarray, red3: np.ndarray
) -> list[np.ndarray]:
    """Rank-free summaries of one team's melds and hands (held: both partners' cards)."""
    size = (nat + wild)[:, NAT]
    h = held[:, NAT]
    canasta = size >= 7
    melded = size > 0
    natural = canasta & (wild[:, NAT] == 0)
    meld_pts = (nat * POINTS).sum(1) + 30 * wild.sum(1)  # a wild card: 20 or 50
    hand_pts = (held * POINTS).sum(1)
    wilds_held = held[:, Kind.TWO] + held[:, Kind.JOKER]
    est = (
        meld_pts + 500 * natural.sum(1) + 300 * (canasta & ~natural).sum(1) + 100 * red3 - hand_pts
    )
    return [
        canasta.sum(1),
        natural.sum(1),
        ((size >= 5) & ~canasta).sum(1),
        ((size >= 3) & (size < 5)).sum(1),
        melded.sum(1),
        (h * melded).sum(1),
        (melded & (size + h >= 7)).sum(1),
        (~melded & (h >= 2)).sum(1),
        (~melded & (h >= 3)).sum(1),
        wilds_held,
        held[:, Kind.BLACK3],
        held.sum(1),
        hand_pts,
        meld_pts,
        np.where(melded & ~canasta, 7 - size, 7).min(1) * 1.0,
        (melded & (size + h + wilds_held[:, None] >= 7)).sum(1),
        est,
    ]


def features(raw: np.ndarray, kind: int | None = None) -> np.ndarray:
    """Feature matrix (float32[n, F]) of the states after a draw: the recorded card (kind None)
    or a card of `kind` instead (raw rows hold the state before the card)."""
    hand = block(raw, B_HAND)
    stock = block(raw, B_STOCK)
    red3_us = scalar(raw, S_RED3_US)
    stock_len = scalar(raw, S_STOCK_LEN) - 1
    k = raw[:, S0 + S_KIND].astype(np.int64) if kind is None else np.full(len(raw), kind)
    rows = np.arange(len(raw))
    stock[rows, k] -= 1
    is_red3 = k == Kind.RED3
    hand[rows[~is_red3], k[~is_red3]] += 1
    red3_us = red3_us + is_red3
    partner, left, right = block(raw, B_PARTNER), block(raw, B_LEFT), block(raw, B_RIGHT)
    nat_us, wild_us = block(raw, B_NAT_US), block(raw, B_WILD_US)
    nat_them, wild_them = block(raw, B_NAT_THEM), block(raw, B_WILD_THEM)
    pile = block(raw, B_PILE)
    red3_them = scalar(raw, S_RED3_THEM)
    top = raw[:, S0 + S_PILE_TOP].astype(np.int64)
    top_ok = top >= 0
    tk = np.where(top_ok, top, 0)
    can_take = top_ok & (hand[rows, tk] >= 2)
    us_melded_top = top_ok & ((nat_us + wild_us)[rows, tk] > 0)
    them_take = top_ok & ((left[rows, tk] >= 2) | (right[rows, tk] >= 2))
    us = team_aggregates(hand + partner, nat_us, wild_us, red3_us)
    them = team_aggregates(left + right, nat_them, wild_them, red3_them)
    mine = [
        ((hand[:, NAT] >= 2).sum(1)),
        hand[:, Kind.TWO] + hand[:, Kind.JOKER],
        hand.sum(1),
        partner.sum(1),
        left.sum(1),
        right.sum(1),
        can_take,
        us_melded_top,
        them_take,
        pile.sum(1) * 1.0,
        (pile * POINTS).sum(1),
    ]
    sc = [
        stock_len,
        scalar(raw, S_PILE_LEN),
        scalar(raw, S_FREEZE),
        top * 1.0,
        red3_us,
        red3_them,
        scalar(raw, S_OPEN_US),
        scalar(raw, S_OPEN_THEM),
        scalar(raw, S_TURN),
        scalar(raw, S_MIN_US),
        scalar(raw, S_MIN_THEM),
        scalar(raw, S_TAKES_US),
        scalar(raw, S_TAKES_THEM),
        scalar(raw, S_INDEX),
        scalar(raw, S_IS_A),
        us[-1] - them[-1],
    ]
    cols = [
        hand,
        partner,
        left,
        right,
        nat_us + wild_us,
        wild_us,
        nat_them + wild_them,
        wild_them,
        pile,
        stock,
    ]
    extra = np.column_stack([np.asarray(c, np.float32) for c in us + them + mine + sc])
    return np.concatenate(cols + [extra], axis=1).astype(np.float32)


def play(rules, a: str, b: str, seed: int, deals: int) -> dict:
    """Both seatings of deals 0..deals-1: the per-event records and the per-deal results."""
    s = [play_records(rules, a, b, seed, 0, deals, seating) for seating in (0, 1)]
    raw = np.concatenate([s[0]["raw"], s[1]["raw"]])
    hand = np.concatenate([s[0]["hand"], s[1]["hand"]])
    seating = np.concatenate(
        [np.zeros(len(s[0]["hand"]), np.int8), np.ones(len(s[1]["hand"]), np.int8)]
    )
    team = np.concatenate([s[0]["team"], s[1]["team"]])
    # the drawer's team's final score minus the other team's (two teams)
    sc = [x["scores"].astype(np.float64) for x in s]
    target = np.where(
        seating == 0,
        sc[0][hand, team] - sc[0][hand, 1 - team],
        sc[1][hand, team] - sc[1][hand, 1 - team],
    )
    diffs = [
        sc[0][:, 0] - sc[0][:, 1],
        sc[1][:, 1] - sc[1][:, 0],
    ]  # A's team minus B's, per seating
    lin = []
    for i, x in enumerate(s):
        lk = x["luck"].reshape(deals, MAX_TEAMS, N_LUCK).astype(np.float64) / LUCK_SCALE
        lin.append(lk[:, i] - lk[:, 1 - i])
    # sign: +1 when the drawer is on A's team (A is team 0 in seating 0, team 1 in seating 1)
    sign = np.where(team == seating, 1.0, -1.0)
    return {
        "raw": raw,
        "hand": hand,
        "seating": seating,
        "team": team,
        "target": target,
        "sign": sign,
        "diff": (diffs[0] + diffs[1]) / 2,
        "seatings": np.column_stack(diffs),
        "linear": lin[0] + lin[1],
        "breakdown": [x["breakdown"] for x in s],
    }


def fit_value(x: np.ndarray, y: np.ndarray, iters: int, leaves: int, seed: int):
    from sklearn.ensemble import HistGradientBoostingRegressor

    m = HistGradientBoostingRegressor(
        max_iter=iters,
        learning_rate=0.1,
        max_leaf_nodes=leaves,
        min_samples_leaf=100,
        l2_regularization=1.0,
        early_stopping=False,
        random_state=seed,
    )
    return m.fit(x, y)


def stock_shares(raw: np.ndarray) -> np.ndarray:
    """float64[n, N_KINDS]: each kind's share of the stock just before each recorded draw."""
    stock = raw[:, B_STOCK * N_KINDS : (B_STOCK + 1) * N_KINDS].astype(np.float64)
    return stock / stock.sum(1, keepdims=True)


def event_terms(model, raw: np.ndarray, batch: int = 200_000) -> tuple[np.ndarray, np.ndarray]:
    """Per event (drawer's side): V(after the card drawn) and sum_k p_k V(after kind k), with
    V = model.predict on `features` and p = `stock_shares`."""
    actual = np.empty(len(raw))
    expect = np.zeros(len(raw))
    for s in range(0, len(raw), batch):
        r = raw[s : s + batch]
        actual[s : s + batch] = model.predict(features(r))
        p = stock_shares(r)
        for k in range(N_KINDS):
            has = p[:, k] > 0
            if has.any():
                v = model.predict(features(r[has], k))
                expect[s : s + batch][has] += p[has, k] * v
    return actual, expect


def factor_ci(
    base: np.ndarray, v: np.ndarray, n_boot: int = 400, seed: int = 0
) -> dict[str, float]:
    rng = np.random.default_rng(seed)
    f = np.var(base, ddof=1) / np.var(v, ddof=1)
    boots = []
    for _ in range(n_boot):
        i = rng.integers(0, len(base), len(base))
        boots.append(np.var(base[i], ddof=1) / np.var(v[i], ddof=1))
    lo, hi = np.quantile(boots, [0.025, 0.975])
    return {"factor": float(f), "low": float(lo), "high": float(hi)}


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--a", default="expert")
    ap.add_argument("--b", default="greedy")
    ap.add_argument("--deals", type=int, default=20_000)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--iters", type=int, default=300)
    ap.add_argument("--leaves", type=int, default=31)
    ap.add_argument(
        "--train-frac",
        type=float,
        default=1.0,
        help="fit V on this share of the other half's deals",
    )
    ap.add_argument(
        "--only-half", type=int, default=-1, help="0 or 1: measure on that half of the deals only"
    )
    ap.add_argument("--save", default="", help="also save the per-draw values to this .npz")
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "aivat_probe.json"))
    args = ap.parse_args()
    rules = RuleSet.preset("classic")
    t0 = time.perf_counter()
    d = play(rules, args.a, args.b, args.seed, args.deals)
    print(
        f"played {args.deals:,} deals x 2 seatings: {len(d['raw']):,} draws "
        f"({time.perf_counter() - t0:.0f} s)"
    )
    n = args.deals
    half_of_deal = np.arange(n) % 2
    half_ev = d["hand"] % 2
    actual = np.zeros(len(d["raw"]))
    expect = np.zeros(len(d["raw"]))
    r2 = []
    halves = (0, 1) if args.only_half < 0 else (args.only_half,)
    for h in halves:
        t0 = time.perf_counter()
        train = (half_ev != h) & (d["hand"] // 2 < args.train_frac * n / 2)
        model = fit_value(
            features(d["raw"][train]), d["target"][train], args.iters, args.leaves, args.seed
        )
        test = half_ev == h
        a_, e_ = event_terms(model, d["raw"][test])
        actual[test], expect[test] = a_, e_
        resid = d["target"][test] - a_
        r2.append(1 - resid.var() / d["target"][test].var())
        print(
            f"  half {h}: V fitted on {train.sum():,} draws, out-of-sample R2 {r2[-1]:.3f} "
            f"({time.perf_counter() - t0:.0f} s)"
        )
    if args.save:
        np.savez_compressed(
            args.save,
            actual=actual,
            expect=expect,
            sign=d["sign"],
            hand=d["hand"],
            target=d["target"],
            diff=d["diff"],
            linear=d["linear"],
            raw=d["raw"],
        )
    keep_ev = np.isin(half_ev, halves)
    term = d["sign"] * (actual - expect) * keep_ev  # A's team minus B's
    tk = term[keep_ev]
    print(
        f"  terms: mean {tk.mean():.3f} (se {tk.std() / np.sqrt(len(tk)):.3f}), sd {tk.std():.1f}"
    )
    # per deal: summed over both seatings' draws; also split by who drew (A or B) and by stage
    is_a = d["raw"][:, S0 + S_IS_A] == 1
    early = d["raw"][:, S0 + S_STOCK_LEN] > 40
    cols = {
        "all": np.ones(len(term), bool),
        "drawer_A": is_a,
        "drawer_B": ~is_a,
        "A_early": is_a & early,
        "A_late": is_a & ~early,
        "B_early": ~is_a & early,
        "B_late": ~is_a & ~early,
    }
    per = {}
    for name, m in cols.items():
        per[name] = np.bincount(d["hand"][m], weights=term[m], minlength=n)
    keep = np.isin(half_of_deal, halves)
    y = d["diff"][keep]
    variants = {"duplicate": y}
    for name in per:
        per[name] = per[name][keep]

    def adj(x: np.ndarray) -> np.ndarray:
        out = np.empty(len(y))
        for h in halves:
            m = half_of_deal[keep] == h
            out[m] = adjust(y[m], x[m])
        return out

    lin = d["linear"][keep]
    v_all = per["all"][:, None]
    v_split = np.column_stack([per[k] for k in ("A_early", "A_late", "B_early", "B_late")])
    variants["aivat_coef1"] = y - per["all"] / 2
    variants["linear124"] = adj(lin)
    variants["aivat"] = adj(v_all)
    variants["aivat_split4"] = adj(v_split)
    variants["aivat+linear124"] = adj(np.column_stack([v_all, lin]))
    variants["aivat_split4+linear124"] = adj(np.column_stack([v_split, lin]))
    table = {k: factor_ci(y, v) for k, v in variants.items()}
    for k, v in table.items():
        print(
            f"  {k:26s} x{v['factor']:.3f} [{v['low']:.3f}, {v['high']:.3f}]  mean "
            f"{variants[k].mean():.1f}"
        )
    Path(args.out).write_text(
        json.dumps(
            {
                "a": args.a,
                "b": args.b,
                "deals": n,
                "measured_on_halves": list(halves),
                "seed": args.seed,
                "draws": int(len(term)),
                "value_r2": r2,
                "iters": args.iters,
                "leaves": args.leaves,
                "train_frac": args.train_frac,
                "factors_vs_duplicate": table,
            },
            indent=1,
        )
    )


if __name__ == "__main__":
    main()
