"""Predicted against realized: does review's equity lost equal what better play delivers?

For each deal d (hand 0 of game d of --seed, every seat playing the continuation strategy S):

1. review: `reports.review.review` of seat 0 (--rollouts per action, --worlds); predicted =
   the summary's skill_known for seat 0's team (the best-action player's gain from the seat's
   knowledge, summed along its own walk), its skill_lost (the same gain measured on the actual
   cards: checked here to equal the luck-adjusted realized gain of 3.), and for comparison
   path_lost (the one-step losses summed along the hand played);
2. the best-action player: the same deal played again with seat 0 taking, at every decision, the
   action the review's evaluator ranks first on its selection worlds (ties to S's choice, the same
   seeds), every other seat S -- written here independently of the review's walk and checked to
   play the same actions;
3. realized = its hand result minus the hand's (seat 0's team); luck-adjusted realized = the same
   less the difference of the two hands' chance terms (`reports.accounting`: the luck of every
   deal, upcard and draw, zero mean), i.e. the sum over its own decisions of their value against
   S's choice on the actual cards -- the same expectation, a much smaller spread;
4. analyze: at a third of seat 0's decisions on the hand played (those with more than one legal
   action), `reports.analyze.analyze` of the position (same worlds and rollouts); predicted =
   its fresh gap between its top action and S's choice; realized = the same two actions played
   from the true position (every card where it is, the stock shuffled; --acct-rollouts paired
   rollouts), and one play-out with the stock as it really lay.

One JSON line per deal is appended to --out (a rerun skips the deals already there: interrupted
runs resume).  `summary` prints and writes the means with 95% intervals over deals (decisions of
analyze: clustered by deal) to benchmarks/results/calibration.json.

    python benchmarks/bench_calibration.py run --rules classic --players 4 --deals 300 \\
        --rollouts 100 --worlds uniform --out benchmarks/results/calibration/c4_uniform.jsonl
    python benchmarks/bench_calibration.py summary benchmarks/results/calibration/*.jsonl
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

from reports import review_eval
from reports.accounting import _Valuer, account
from reports.analyze import analyze, decision_from_game
from reports.review import hand_by_key, review, team_result
from reports.review_judge import point_seed, strategy_choice
from reports.stats import cluster_mean_ci, mean_ci
from sim.core.enums import MAX_SEATS, MAX_TEAMS, N_ACTIONS, Off
from sim.core.rules import RuleSet

ROOT = Path(__file__).resolve().parents[1]

RESULTS = ROOT / "benchmarks" / "results" / "calibration.json"


def _infer(worlds: str) -> str | None:
    return None if worlds == "uniform" else worlds


def best_player(rec, evaluate, strategy: str, rollouts: int, seed: int) -> list[int]:
    """The deal played with seat 0 taking the evaluator's top action on the selection worlds
    (ties to S's choice) and every other seat S."""
    gs = rec.new_state()
    acts = []
    i = 0
    while not gs.is_over:
        choice = strategy_choice(gs, strategy, seed, i)
        a = choice
        legal = gs.legal_actions()
        if gs.seat_table[gs.seat] == 0 and len(legal) > 1:
            t = evaluate(gs, legal, rollouts, point_seed(seed, i))
            if float(t.loc[choice, "diff_to_best"]) > 0:
                a = int(t.index[0])
        gs.apply(a)
        acts.append(int(a))
        i += 1
    return acts


def true_playout(gs, action: int, strategy: str, key: int) -> float:
    """One play-out of the true state after ``action``, the stock as it lies (seat 0's team)."""
    from sim.core.apply import SCORE_ROWS, apply_action_nb
    from sim.core.rng import STREAM_PLAYERS, seed_rng_nb
    from sim.play.rollouts.actions import hand_result_nb
    from sim.play.selfplay.step import play_out_hidden_nb
    from strategies.registry import MAX_KNOBS, parse_spec

    ids, knobs = np.zeros(MAX_SEATS, np.int64), np.zeros((MAX_SEATS, MAX_KNOBS))
    sid, k = parse_spec(strategy, gs.rules.label)
    ids[:], knobs[:] = sid, k
    st = gs.state.copy()
    apply_action_nb(st, gs.params, action)
    rng = np.zeros((MAX_SEATS, 2), np.uint64)
    for s in range(gs.n_seats):
        seed_rng_nb(rng[s], key, 0, 0, STREAM_PLAYERS + 1 + s)
    status = np.zeros(16, np.int64)
    play_out_hidden_nb(
        st,
        gs.params,
        ids,
        knobs,
        rng,
        np.zeros(Off.STATE_SIZE, np.int32),
        np.zeros(N_ACTIONS, np.int32),
        0,
        status,
        None,
        None,
        None,
    )
    us, them, _ = hand_result_nb(st, gs.params, 0, np.zeros((SCORE_ROWS, MAX_TEAMS), np.int32))
    return float(us - them)


def analyze_points(rec, args, infer, seed: int) -> list[dict]:
    """analyze's fresh gap against the realized one at a third of seat 0's decisions."""
    gs = rec.new_state()
    val = _Valuer(rec.rules, gs.params, args.strategy, args.acct_rollouts, seed + 5, gs.n_teams)
    out = []
    for i, a in enumerate(rec.actions):
        legal = gs.legal_actions()
        if gs.seat_table[gs.seat] == 0 and len(legal) > 1 and (i * 7919 + seed) % 3 == 0:
            dec = decision_from_game(gs)
            df = analyze(
                dec,
                args.strategy,
                args.rollouts,
                seed=point_seed(seed, i) % 2**62,
                infer=infer,
                progress=False,
            )
            at = df.attrs
            top, choice = int(df["action_id"].iloc[0]), int(at["choice_id"])
            row = {
                "index": i,
                "legal": len(legal),
                "dev": top != choice,
                "pred": at["gap"],
                "pred_low": at["gap_low"],
                "pred_high": at["gap_high"],
                "real": 0.0,
                "real_low": 0.0,
                "real_high": 0.0,
                "playout": 0.0,
            }
            if top != choice:
                xt = val.cols[val.state(gs.state, top)][:, 0]
                xc = val.cols[val.state(gs.state, choice)][:, 0]
                ci = mean_ci(xt - xc)
                key = seed * 104729 + i
                row.update(
                    real=ci.mean,
                    real_low=ci.low,
                    real_high=ci.high,
                    playout=true_playout(gs, top, args.strategy, key)
                    - true_playout(gs, choice, args.strategy, key),
                )
            out.append(row)
        gs.apply(a)
    return out


def one_deal(rules, d: int, args) -> dict:
    t0 = time.process_time()
    infer = _infer(args.worlds)
    rec = hand_by_key(rules, [args.strategy] * rules.players, args.seed, d, 0)
    ev = review_eval.make_evaluator(rules, args.strategy, infer=infer)
    rseed = d % 2**40
    rv = review(
        rec,
        [0],
        ev,
        args.strategy,
        args.rollouts,
        rseed,
        prior_hands=args.acct_rollouts,
        world_model=args.worlds,
    )
    team = 0
    s = rv.summary.set_index("team").loc[team]
    acts = best_player(rec, ev, args.strategy, args.rollouts, rseed)
    if acts != rv.walk_actions[team]:
        raise RuntimeError(f"deal {d}: the best-action player and the review's walk differ")
    walk_acct = account(rec, args.strategy, args.acct_rollouts, rseed + 11, actions=acts)
    w = walk_acct.summary.set_index("team").loc[team]
    p = rv.accounting.summary.set_index("team").loc[team]
    gs = rec.new_state()
    for a in acts:
        gs.apply(a)
    realized = team_result(gs, team) - rv.result[team]
    adjusted = float(w["own_play"] + w["others_play"] - p["own_play"] - p["others_play"])
    identity = realized - (float(w["luck"] - p["luck"]) + adjusted)
    if abs(float(s["skill_lost"]) - adjusted) > 1e-6:
        raise RuntimeError(f"deal {d}: review's skill lost on the cards is not the adjusted gain")
    row = {
        "deal": d,
        "predicted": float(s["skill_known"]),
        "predicted_half": float(s["skill_known_half"]),
        "predicted_cards": float(s["skill_lost"]),
        "path_lost": float(s["path_lost"]),
        "realized": float(realized),
        "adjusted": adjusted,
        "adjusted_half": float(w["own_play_high"] - w["own_play_low"]) / 2,
        "identity": float(identity),
        "decisions": int(s["decisions"]),
        "walk_decisions": int(len(rv.walk)),
        "walk_deviations": int((rv.walk["played"] != rv.walk["choice"]).sum()),
        "marks": int(s["doubtful"] + s["mistakes"] + s["blunders"]),
        "old_marks": int(
            ((rv.decisions["selection_lost"] > 0) & (rv.decisions["legal"] > 1)).sum()
        ),
        "analyze": analyze_points(rec, args, infer, rseed) if args.analyze else [],
    }
    row["cpu"] = round(time.process_time() - t0, 2)
    return row


def run(args) -> None:
    rules = RuleSet.preset(args.rules, players=args.players, team_layout=args.layout)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    done = set()
    if out.exists():
        done = {json.loads(line)["deal"] for line in out.read_text().splitlines() if line}
    meta = {
        "table": rules.label,
        "strategy": args.strategy,
        "rollouts": args.rollouts,
        "worlds": args.worlds,
        "acct_rollouts": args.acct_rollouts,
        "seed": args.seed,
    }
    for d in range(args.start, args.start + args.deals):
        if d in done:
            continue
        row = one_deal(rules, d, args)
        row.update(meta)
        with out.open("a") as f:
            f.write(json.dumps(row) + "\n")
        print(
            f"deal {d}: predicted {row['predicted']:+.0f} realized {row['realized']:+.0f} "
            f"adjusted {row['adjusted']:+.0f} ({row['cpu']:.1f} CPU s)",
            flush=True,
        )


def _ci(x) -> dict:
    c = mean_ci(np.asarray(x, float))
    return {"mean": round(c.mean, 1), "low": round(c.low, 1), "high": round(c.high, 1), "n": c.n}


def _cluster_ci(x: np.ndarray, deal: np.ndarray) -> dict:
    ci = cluster_mean_ci(x, deal)
    return {
        "mean": round(ci.mean, 1),
        "low": round(ci.low, 1),
        "high": round(ci.high, 1),
        "n": len(x),
        "deals": len(set(deal.tolist())),
    }


def summarize(paths: list[str]) -> dict:
    out = {}
    for p in paths:
        rows = [json.loads(line) for line in Path(p).read_text().splitlines() if line]
        if not rows:
            continue
        r0 = rows[0]
        pred = np.array([r["predicted"] for r in rows])
        real = np.array([r["realized"] for r in rows])
        adj = np.array([r["adjusted"] for r in rows])
        pts = [(r["deal"], a) for r in rows for a in r["analyze"]]
        res = {
            "table": r0["table"],
            "strategy": r0["strategy"],
            "rollouts": r0["rollouts"],
            "worlds": r0["worlds"],
            "acct_rollouts": r0["acct_rollouts"],
            "deals": len(rows),
            "review_predicted": _ci(pred),
            "review_path_lost": _ci([r["path_lost"] for r in rows]),
            "realized": _ci(real),
            "realized_adjusted": _ci(adj),
            "realized_minus_predicted": _ci(real - pred),
            "realized_minus_adjusted": _ci(real - adj),
            "adjusted_minus_predicted": _ci(adj - pred),
            "identity_max_abs": float(np.abs([r["identity"] for r in rows]).max()),
            "marks_per_hand": _ci([r["marks"] for r in rows]),
            "cpu_s_per_deal": round(float(np.mean([r["cpu"] for r in rows])), 1),
        }
        dev = [(d, a) for d, a in pts if a["dev"]]
        for prefix, sel in (("analyze", pts), ("analyze_dev", dev)):
            if not sel:
                continue
            deal = np.array([d for d, _ in sel])
            cols = {name: np.array([a[name] for _, a in sel]) for name in ("pred", "real")}
            cols["playout"] = np.array([a["playout"] for _, a in sel])
            cols["real_minus_pred"] = cols["real"] - cols["pred"]
            for name, x in cols.items():
                res[f"{prefix}_{name}"] = _cluster_ci(x, deal)
        key = f"{r0['table']} {r0['worlds']} r{r0['rollouts']} {r0['strategy']}"
        out[key] = res
    return out


def _fmt(c: dict) -> str:
    return f"{c['mean']:+,.0f} [{c['low']:+,.0f}, {c['high']:+,.0f}]"


def markdown(res: dict) -> str:
    """The tables of docs/analysis.md and benchmarks/RESULTS.md: review, then analyze."""
    lines = [
        "| table, worlds | deals | realized gain | skill lost (on the cards) | realized - it | "
        "skill lost from what the seat knew | realized - it | path lost |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in res.values():
        lines.append(
            f"| {r['table']}, {r['worlds']} | {r['deals']} | {_fmt(r['realized'])} | "
            f"{_fmt(r['realized_adjusted'])} | {_fmt(r['realized_minus_adjusted'])} | "
            f"{_fmt(r['review_predicted'])} | {_fmt(r['realized_minus_predicted'])} | "
            f"{_fmt(r['review_path_lost'])} |"
        )
    lines += [
        "",
        "| table, worlds | decisions (deals) | predicted gap | realized gap | realized - "
        "predicted | top action not S's: decisions | predicted | realized | realized - predicted |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in res.values():
        if "analyze_pred" not in r:
            continue
        a, d = r["analyze_pred"], r.get("analyze_dev_pred", {"n": 0})
        dev = (
            f"{_fmt(r['analyze_dev_pred'])} | {_fmt(r['analyze_dev_real'])} | "
            f"{_fmt(r['analyze_dev_real_minus_pred'])}"
            if d["n"]
            else "| |"
        )
        lines.append(
            f"| {r['table']}, {r['worlds']} | {a['n']:,} ({a['deals']}) | {_fmt(a)} | "
            f"{_fmt(r['analyze_real'])} | {_fmt(r['analyze_real_minus_pred'])} | {d['n']:,} | "
            f"{dev} |"
        )
    return "\n".join(lines)


def main() -> None:
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("what", choices=("run", "summary"))
    p.add_argument("files", nargs="*")
    p.add_argument("--rules", default="classic")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--layout", default=None)
    p.add_argument("--strategy", default="expert", help="continuation strategy S (every seat)")
    p.add_argument("--worlds", default="uniform", help="uniform, or the model of --infer")
    p.add_argument("--rollouts", type=int, default=100)
    p.add_argument("--acct-rollouts", type=int, default=200)
    p.add_argument("--deals", type=int, default=300)
    p.add_argument("--start", type=int, default=0)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--no-analyze", dest="analyze", action="store_false")
    p.add_argument("--out", default="")
    args = p.parse_args()
    if args.what == "run":
        if not args.out:
            p.error("run needs --out FILE.jsonl")
        run(args)
        return
    res = summarize(args.files)
    print(json.dumps(res, indent=1))
    print(markdown(res))
    old = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
    old.update(res)
    old["_command"] = " ".join(sys.argv)
    old["_utc"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    RESULTS.write_text(json.dumps(old, indent=1) + "\n")


if __name__ == "__main__":
    main()
