"""Train the decision model of the improved `expert` (strategies/learned.py) from search.

    python benchmarks/train_expert.py collect --tag it1 --player expert-v1 --hands 3000 \\
        [--opp pile-control] [--rules classic --players 4] [--worlds 16] [--rate 0.25]
        [--seed 7001]
        hands of --player at every seat (with --opp: at its team's seats, the other teams
        playing --opp); at a --rate share of the decisions of every --player seat, the rollout
        value of every legal action (sim.play.search.record: --worlds
        model-consistent worlds, the table's players in the rollouts, common random numbers),
        saved per chunk of hands to benchmarks/results/train/<tag>/ (a rerun continues)
    python benchmarks/train_expert.py fit --tags it1 [it2 ...] --out-model 0 [--ridge 30]
        a linear model per action group (strategies/features.py) fitted by weighted ridge
        regression of each action's gain over the heuristic's choice (paired rollout means,
        weights 1 / (se^2 + 50^2)); writes model number --out-model into
        strategies/models/expert.json with the command, seeds and data size, and its hash
        into strategies/learned.py
    python benchmarks/train_expert.py tables
        strategies/tuned/expert.json: per table, the model (or -1) and the heuristic knobs of
        expert (CHOICES below)
    python benchmarks/train_expert.py eval --spec expert --vs expert-v1 --deals 2000 --seed S
        duplicate deals (reports.compare), points per hand with the 95% CI; several --spec
        and --vs (a panel) play every pair and print each spec's worst result

Expert iteration: collect with the improved player as --player (its rollouts then continue
with it), refit on all tags, repeat.  Seeds used for collection are never used to measure.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
import time
from pathlib import Path

import numpy as np

from sim.core.rules import RuleSet

ROOT = Path(__file__).resolve().parents[1]

OUT = ROOT / "benchmarks" / "results" / "train"
MODEL = ROOT / "strategies" / "models" / "expert.json"
KERNEL = ROOT / "strategies" / "learned.py"


def _rules(args) -> RuleSet:
    return RuleSet.preset(args.rules, players=args.players, team_layout=args.layout)


def collect(args) -> None:
    from sim.play.search.record import record_chunk

    rules = _rules(args)
    d = OUT / args.tag
    d.mkdir(parents=True, exist_ok=True)
    team = rules.team_of_seat
    # --opp: the other teams' seats play that strategy (the recording seats are --player's)
    table = [
        args.player if not args.opp or team[i] == team[0] else args.opp
        for i in range(rules.players)
    ]
    seats = tuple(i for i in range(rules.players) if table[i] == args.player)
    meta = dict(
        player=args.player,
        opponents=args.opp or args.player,
        table=rules.label,
        worlds=args.worlds,
        rate=args.rate,
        seed=args.seed,
        chunk=args.chunk,
        explore=args.explore,
    )
    (d / "meta.json").write_text(json.dumps(meta, indent=1) + "\n")
    t0 = time.process_time()
    for start in range(0, args.hands, args.chunk):
        f = d / f"chunk_{start:07d}.npz"
        if f.exists():
            continue
        n = min(args.chunk, args.hands - start)
        rec = record_chunk(
            rules,
            table,
            args.seed,
            start,
            n,
            worlds=args.worlds,
            rate=args.rate,
            explore=args.explore,
            seats=seats,
            cap=n * 200,
        )
        tmp = f.with_suffix(".tmp.npz")
        np.savez_compressed(
            tmp,
            obs=rec.obs,
            actions=rec.actions,
            n_act=rec.n_act,
            base=rec.base,
            mean=rec.mean,
            se=rec.se,
            key=rec.key,
        )
        tmp.rename(f)
        print(
            f"{args.tag}: hands {start + n}/{args.hands}, {len(rec.n_act)} decisions, "
            f"{time.process_time() - t0:.0f} CPU-s",
            flush=True,
        )


def load(tags: list[str]) -> tuple[dict, list[dict]]:
    parts: dict[str, list[np.ndarray]] = {}
    metas = []
    for tag in tags:
        d = OUT / tag
        meta = json.loads((d / "meta.json").read_text())
        files = sorted(d.glob("chunk_*[0-9].npz"))
        meta["files"] = len(files)
        metas.append(meta)
        for f in files:
            z = np.load(f)
            for k in z.files:
                parts.setdefault(k, []).append(z[k])
    return {k: np.concatenate(v) for k, v in parts.items()}, metas


def design(data: dict, table: str) -> tuple[np.ndarray, np.ndarray]:
    """(groups int8[n, A], slots float32[n, A, N_SLOTS]) of every recorded decision."""
    from strategies.features import N_SLOTS, features_nb

    name, players, *layout = table.split("-")
    rules = RuleSet.preset(
        name, players=int(players[:-1]), team_layout=layout[0] if layout else None
    )
    params = rules.to_params(0).astype(np.int32)
    n, a = data["actions"].shape
    g = np.full((n, a), -1, np.int8)
    x = np.zeros((n, a, N_SLOTS), np.float32)
    features_nb(
        data["obs"].astype(np.int32),
        params,
        data["actions"].astype(np.int32),
        data["n_act"].astype(np.int64),
        data["base"].astype(np.int64),
        g,
        x,
    )
    return g, x


def fit_weights(
    g: np.ndarray, x: np.ndarray, data: dict, ridge: float, floor: float
) -> tuple[np.ndarray, dict]:
    """Weighted ridge regression of y[i, a] = gain of action a over the base's choice on
    x[i, a] - x[i, base], one weight table row per group (the groups' blocks are stacked)."""
    from strategies.features import N_GROUPS, N_SLOTS

    n, amax = data["actions"].shape
    base = data["base"].astype(np.int64)
    n_act = data["n_act"].astype(np.int64)
    valid = np.arange(amax)[None, :] < n_act[:, None]
    rows = np.arange(n)
    gb = g[rows, base].astype(np.int64)
    xb = x[rows, base]
    y = data["mean"].astype(np.float64)
    wgt = 1.0 / (data["se"].astype(np.float64) ** 2 + floor**2)
    from scipy import sparse

    P = N_GROUPS * N_SLOTS
    notbase = valid & (np.arange(amax)[None, :] != base[:, None])
    ii, aa = np.nonzero(notbase)
    # difference rows: + x[i, a] in block g[i, a], - x[i, base] in block g[i, base] (sparse)
    m = len(ii)
    ga = g[ii, aa].astype(np.int64)
    cols = np.concatenate(
        [
            ga[:, None] * N_SLOTS + np.arange(N_SLOTS)[None, :],
            gb[ii][:, None] * N_SLOTS + np.arange(N_SLOTS)[None, :],
        ],
        axis=1,
    )
    vals = np.concatenate([x[ii, aa], -xb[ii]], axis=1).astype(np.float64)
    D = sparse.csr_matrix(
        (vals.ravel(), (np.repeat(np.arange(m), 2 * N_SLOTS), cols.ravel())), shape=(m, P)
    )
    ww = wgt[ii, aa]
    DW = sparse.diags(ww) @ D
    A = (D.T @ DW).toarray()
    b = DW.T @ y[ii, aa]
    scale = np.trace(A) / P  # the ridge relative to the mean diagonal of the normal equations
    w = np.linalg.solve(A + ridge * scale * np.eye(P), b).reshape(N_GROUPS, N_SLOTS)
    # in-sample check: the gain of the model's choice as the rollouts measured it
    score = np.einsum("iaj,iaj->ia", x, w[np.clip(g, 0, None).astype(np.int64)])
    score = np.where(valid, score, -np.inf)
    pick = score.argmax(axis=1)
    gain = y[rows, pick]
    best = np.where(valid, y, -np.inf).max(axis=1)
    info = dict(
        decisions=int(n),
        pairs=int(len(ii)),
        mean_gain_of_choice=float(gain.mean()),
        mean_gain_of_best=float(best.mean()),
        deviate_share=float((pick != base).mean()),
    )
    return w, info


def held_out_gain(w: np.ndarray, g: np.ndarray, x: np.ndarray, data: dict, margin: float) -> tuple:
    """(mean rollout gain of the model's choice per decision, its 95% half-width, share of
    decisions where it leaves the heuristic's choice)."""
    valid = np.arange(data["actions"].shape[1])[None, :] < data["n_act"][:, None]
    score = np.einsum("iaj,iaj->ia", x, w[np.clip(g, 0, None).astype(np.int64)])
    score = np.where(valid, score, -np.inf)
    rows = np.arange(len(score))
    base = data["base"].astype(np.int64)
    pick = score.argmax(axis=1)
    dev = score[rows, pick] > score[rows, base] + margin
    pick = np.where(dev, pick, base)
    gain = data["mean"][rows, pick].astype(np.float64)
    return float(gain.mean()), float(1.96 * gain.std() / np.sqrt(len(gain))), float(dev.mean())


def fit(args) -> None:
    data, metas = load(args.tags)
    tables = {m["table"] for m in metas}
    if len(tables) != 1:
        raise SystemExit(f"tags mix tables {sorted(tables)}: fit one table at a time")
    table = tables.pop()
    g, x = design(data, table)
    n = len(data["n_act"])
    # hold out every fifth hand (by game key) to check the fit out of sample
    hold = data["key"][:, 0] % 5 == 4
    tr = {k: v[~hold] for k, v in data.items()}
    te = {k: v[hold] for k, v in data.items()}
    models = json.loads(MODEL.read_text())["models"] if MODEL.exists() and not args.fresh else []
    slot = args.out_model
    for ridge in args.ridge:
        for floor in args.floor:
            w, _ = fit_weights(g[~hold], x[~hold], tr, ridge, floor)
            held = {str(mg): held_out_gain(w, g[hold], x[hold], te, mg) for mg in (0.0, 25.0, 50.0)}
            print(
                f"ridge {ridge:g} floor {floor:g}: held-out gain per decision (margin: mean, "
                f"95% half-width, deviating) "
                + "  ".join(f"{m}: {a:+.1f} +-{b:.1f} {c:.2f}" for m, (a, b, c) in held.items()),
                flush=True,
            )
            w, info = fit_weights(g, x, data, ridge, floor)  # final: every decision
            rec = dict(
                table=table,
                weights=np.round(w, 4).tolist(),
                command="python benchmarks/train_expert.py " + " ".join(sys.argv[1:]),
                data=[
                    {k: m[k] for k in ("player", "table", "worlds", "rate", "seed", "files")}
                    | {"opponents": m.get("opponents", m["player"])}
                    for m in metas
                ],
                decisions=n,
                fit=info,
                held_out={
                    k: dict(zip(("gain", "half_width", "deviate"), v, strict=True))
                    for k, v in held.items()
                },
                ridge=ridge,
                floor=floor,
                date=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            )
            while len(models) <= slot:
                models.append(rec)
            models[slot] = rec
            print(f"  -> model {slot}", flush=True)
            slot += 1
    write_model(models)


def write_model(models: list[dict]) -> None:
    about = (
        "decision models of the improved expert (strategies/learned.py): per action group "
        "(strategies/features.py GROUP_NAMES) the weights of its slots (is the heuristic's "
        "choice, CONTEXT_NAMES, the group's SPEC_NAMES); fitted by benchmarks/train_expert.py"
    )
    MODEL.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps({"about": about, "models": models}, indent=1) + "\n"
    MODEL.write_text(text)
    sha = hashlib.sha256(MODEL.read_bytes()).hexdigest()
    src = KERNEL.read_text()
    src = re.sub(r'MODEL_SHA256 = "[0-9a-f]*"', f'MODEL_SHA256 = "{sha}"', src)
    KERNEL.write_text(src)
    print(f"wrote {MODEL} ({len(models)} models), sha256 {sha[:12]}")


def evaluate(args) -> None:
    """Duplicate deals of --spec against --vs at each table (bench_ladder.pair_differences:
    at a 3-team table the two ways of seating one against two teams of the other, averaged)."""
    from bench_ladder import pair_differences
    from tune_tables import TABLES, table_name

    tables = (
        TABLES if args.tables == ["all"] else [t for t in TABLES if table_name(*t) in args.tables]
    )
    out = OUT / "eval.jsonl"
    for t in tables:
        rules = RuleSet.preset(t[0], players=t[1], team_layout=t[2])
        for spec in args.spec:
            worst = None
            for vs in args.vs:
                t0 = time.process_time()
                d = pair_differences(rules, [spec, vs], args.seed, args.deals, 1)[(spec, vs)]
                m, h = float(d.mean()), float(1.96 * d.std(ddof=1) / np.sqrt(len(d)))
                row = dict(
                    table=rules.label,
                    spec=spec,
                    vs=vs,
                    deals=len(d),
                    seed=args.seed,
                    mean=round(m, 1),
                    ci_low=round(m - h, 1),
                    ci_high=round(m + h, 1),
                    cpu_s=round(time.process_time() - t0, 1),
                    utc=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                )
                worst = m if worst is None else min(worst, m)
                print(
                    f"{rules.label:16} {spec} - {vs}: {m:+.0f} [{m - h:+.0f}, {m + h:+.0f}]"
                    f" over {len(d)} deals ({row['cpu_s']} CPU-s)",
                    flush=True,
                )
                with out.open("a") as f:
                    f.write(json.dumps(row) + "\n")
            if len(args.vs) > 1:
                print(
                    f"{rules.label:16} {spec}: worst {worst:+.0f} over {len(args.vs)}", flush=True
                )


# the per-table choice of expert: table -> (heuristic knobs, model, margin); heuristic knobs
# "v1": expert-v1's set of the table, "tuned": the set `canasta tune expert-v1 --vs expert-v1`
# found (benchmarks/results/tune_vs_v1/<table>.json); model -1: the heuristic alone.  Chosen on
# 1,000 duplicate deals of seed 900001 (benchmarks/results/train/selection.txt) by the worst
# result against a panel (expert-v1, pile-control, greedy, patient, tunable): a player tuned
# against expert-v1 alone learned to exploit it and lost to pile-control and greedy.  Models:
# 0-3 fitted at classic 4p on expert-v1 self-play; 4-5 samba 4p, 6-7 classic 6p 2x3, 8-9
# german 6p 2x3 (each on expert-v1 self-play at its own table); 10 at classic 4p on expert-v1
# against itself, pile-control, greedy and patient (tags c4-v1, c4-pc, c4-gr, c4-pa).
CHOICES: dict[str, tuple[str, int, float]] = {
    "classic-2p": ("v1", 10, 75.0),
    "classic-4p": ("v1", 10, 75.0),
    "classic-5p": ("v1", 10, 75.0),
    "german-2p": ("v1", 10, 75.0),
    "german-4p": ("v1", 10, 75.0),
    "german-5p": ("v1", 10, 75.0),
    "classic-3p": ("tuned", 10, 75.0),
    "german-3p": ("tuned", -1, 0.0),
    "classic-6p-3x2": ("v1", 10, 250.0),
    "german-6p-3x2": ("v1", 10, 250.0),
    "classic-6p-2x3": ("v1", 7, 60.0),
    "german-6p-2x3": ("v1", 9, 0.0),
    "samba-4p": ("v1", 4, 25.0),
}
TABLES_FILE = ROOT / "strategies" / "tuned" / "expert.json"
TUNE_VS_V1 = ROOT / "benchmarks" / "results" / "tune_vs_v1"


def tables(args) -> None:
    """Write strategies/tuned/expert.json from CHOICES (each table's knobs over expert-v1's)."""
    out: dict[str, dict] = {}
    for table, (heur, model, margin) in CHOICES.items():
        knobs: dict[str, float] = {"model": float(model)}
        if model >= 0:
            knobs["margin"] = margin
        rec: dict = {"choice": f"heuristic knobs: {heur}; model {model}"}
        if heur == "tuned":
            t = json.loads((TUNE_VS_V1 / f"{table}.json").read_text())
            knobs = {**{k: float(v) for k, v in t["best"].items()}, **knobs}
            rec["heuristic_set"] = {
                k: t[k] for k in ("command", "seed", "test_seed", "budget", "date")
            } | {"retest": t["test"][0]}
        rec["knobs"] = knobs
        rec["command"] = "python benchmarks/train_expert.py tables"
        rec["selection"] = "benchmarks/results/train/selection.txt (seed 900001, 2,000 deals)"
        rec["date"] = time.strftime("%Y-%m-%d", time.gmtime())
        out[table] = rec
    about = (
        "expert's per-table choice over expert-v1's sets (strategies/tuned/expert_v1.json): "
        "the decision model (model: an index into strategies/models/expert.json, -1 the "
        "heuristic alone) and where measured better, heuristic knobs tuned against expert-v1; "
        "written by benchmarks/train_expert.py tables from its CHOICES"
    )
    text = json.dumps({"strategy": "expert", "about": about, "tables": out}, indent=1) + "\n"
    TABLES_FILE.write_text(text)
    print(f"wrote {TABLES_FILE} ({len(out)} tables)")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    sub.add_parser("tables", help="write strategies/tuned/expert.json from CHOICES")
    for name in ("collect", "fit", "eval"):
        p = sub.add_parser(name)
        p.add_argument("--rules", default="classic")
        p.add_argument("--players", type=int, default=4)
        p.add_argument("--layout", default=None)
        if name == "collect":
            p.add_argument("--tag", required=True)
            p.add_argument("--player", default="expert-v1")
            p.add_argument(
                "--opp", default="", help="the other teams play this (default: --player)"
            )
            p.add_argument("--hands", type=int, default=1000)
            p.add_argument("--chunk", type=int, default=20)
            p.add_argument("--worlds", type=int, default=16)
            p.add_argument("--rate", type=float, default=0.25)
            p.add_argument("--explore", type=float, default=0.0)
            p.add_argument("--seed", type=int, default=7001)
        elif name == "fit":
            p.add_argument("--tags", nargs="+", required=True)
            p.add_argument("--out-model", type=int, default=0)
            p.add_argument("--ridge", type=float, nargs="+", default=[0.01])
            p.add_argument("--floor", type=float, nargs="+", default=[200.0])
            p.add_argument("--fresh", action="store_true", help="start a new model file")
        else:
            p.add_argument("--spec", nargs="+", default=["expert"])
            p.add_argument("--vs", nargs="+", default=["expert-v1"], help="one or a panel")
            p.add_argument("--deals", type=int, default=2000)
            p.add_argument("--tables", nargs="+", default=["classic-4p"], help="labels or all")
            p.add_argument("--seed", type=int, default=900001)
    args = ap.parse_args(argv)
    {"collect": collect, "fit": fit, "eval": evaluate, "tables": tables}[args.cmd](args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
