"""Speed of `canasta table`: a bot's move, a hint, a page update.

- bot move: every decision of the bot seats in classic 4-player hands (keys --seed, 0, h),
  timed as the table makes it (`sim.table.bots.bot_action`, from the seat's observation and
  knowledge), for the default player and the search players at their default budgets; CPU
  seconds per decision (mean, 95th percentile, max).  Goal: under 1 s.
- hint: the decisions with at least 4 legal actions of a seat in those hands, each analysed as
  the table's Hint button does (`sim.table.hints.HintJob`, successive elimination until every
  difference to the best is known to +-25 points, 95%); wall and CPU seconds, and the share
  finished within 10 s at +-25.  Goal: within 10 s.
- page update: a table served by uvicorn on localhost, a person's move (POST act) and the
  view that follows (GET state) over HTTP, and, with Playwright and Chromium, the time the
  page takes to draw a new view (window.lastRenderMs); milliseconds.  Goal: under 100 ms.

Warm cache (a first small run compiles).  Prints a table and writes
benchmarks/results/table.json.

    python benchmarks/bench_table.py [--seed 1] [--hands 3] [--hints 12]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

import numpy as np

from sim.core.rules import RuleSet
from sim.play.game import GameState
from sim.play.pyplay import play_hand_py
from sim.table.bots import bot_action
from sim.table.hints import HintBudget, HintJob
from sim.table.settings import default_bot

ROOT = Path(__file__).resolve().parents[1]
PLAYERS = (default_bot(), "pimc", "ismcts")


def hands(seed: int, n: int) -> list[list[int]]:
    rules = RuleSet.preset("classic")
    return [play_hand_py(rules, [default_bot()] * 4, seed, 0, h).actions for h in range(n)]


def bot_moves(seed: int, played: list[list[int]], spec: str) -> dict:
    rules = RuleSet.preset("classic")
    specs = ["human", spec, "human", spec]
    times = []
    for h, actions in enumerate(played):
        gs = GameState.new_hand(rules, seed, 0, h)
        for a in actions:
            if gs.seat_table[gs.seat] in (1, 3):
                t0 = time.process_time()
                bot_action(gs, specs, seed, h)
                times.append(time.process_time() - t0)
            gs.apply(a)
    t = np.array(times)
    return {
        "player": spec,
        "decisions": len(t),
        "mean_s": round(float(t.mean()), 4),
        "p95_s": round(float(np.percentile(t, 95)), 4),
        "max_s": round(float(t.max()), 4),
    }


def hint_runs(seed: int, played: list[list[int]], limit: int) -> dict:
    rules = RuleSet.preset("classic")
    budget = HintBudget()
    rows = []
    for h, actions in enumerate(played):
        gs = GameState.new_hand(rules, seed, 0, h)
        for a in actions:
            if len(rows) < limit and gs.seat_table[gs.seat] == 0 and len(gs.legal_actions()) >= 4:
                job = HintJob(gs, gs.seat, budget, seed * 1000 + len(rows))
                c0, w0 = time.process_time(), time.perf_counter()
                job.start().wait(600)
                rows.append(
                    {
                        "actions": len(gs.legal_actions()),
                        "wall_s": round(time.perf_counter() - w0, 2),
                        "cpu_s": round(time.process_time() - c0, 2),
                        "rollouts": job.done,
                        "widest": None if not np.isfinite(job.widest) else round(job.widest, 1),
                        "status": job.status,
                    }
                )
            gs.apply(a)
    walls = [r["wall_s"] for r in rows]
    within = [r for r in rows if r["wall_s"] <= 10 and (r["widest"] or 0) <= 25]
    return {
        "decisions": len(rows),
        "median_wall_s": round(statistics.median(walls), 2) if walls else None,
        "max_wall_s": max(walls) if walls else None,
        "median_cpu_s": round(statistics.median(r["cpu_s"] for r in rows), 2) if rows else None,
        "within_10s_at_25": f"{len(within)}/{len(rows)}",
        "runs": rows,
    }


def page_updates(seed: int, moves: int) -> dict:
    import httpx
    import uvicorn

    from sim.table.app import make_app
    from sim.table.hub import Hub, HubConfig
    from sim.table.store import Store

    tmp = tempfile.mkdtemp()
    hub = Hub(Store(Path(tmp) / "t.sqlite3"), HubConfig(pace=0.0, auto_review=False))
    port = 8790 + os.getpid() % 100
    srv = uvicorn.Server(uvicorn.Config(make_app(hub), port=port, log_level="warning"))
    th = threading.Thread(target=srv.run, daemon=True)
    th.start()
    while not srv.started:
        time.sleep(0.05)
    base = f"http://127.0.0.1:{port}"
    key = {"x-canasta-key": hub.store.owner_key()}
    act_ms, state_ms, render_ms = [], [], []
    with httpx.Client(base_url=base, timeout=60) as c:
        g = c.post(
            "/api/games", json={"seed": seed, "seats": ["human"] + ["expert"] * 3}, headers=key
        )
        tok = g.json()["links"]["0"].rsplit("/", 1)[1]
        while len(act_ms) < moves:
            v = c.get(f"/api/t/{tok}/state").json()
            if v["hand"]["phase"] == "over":
                g = c.post(
                    "/api/games",
                    json={"seed": seed + len(act_ms), "seats": ["human"] + ["expert"] * 3},
                    headers=key,
                )
                tok = g.json()["links"]["0"].rsplit("/", 1)[1]
                continue
            if v["hand"]["to_act"] != 0:
                c.get(f"/api/t/{tok}/state", params={"since": v["version"], "wait": 5})
                continue
            texts = [a for a in v["legal"] if a["text"].startswith(("draw", "discard"))]
            a = (texts or v["legal"])[-1]
            t0 = time.perf_counter()
            c.post(f"/api/t/{tok}/act", json={"action": a["id"], "version": v["version"]})
            act_ms.append(1000 * (time.perf_counter() - t0))
            t0 = time.perf_counter()
            c.get(f"/api/t/{tok}/state")
            state_ms.append(1000 * (time.perf_counter() - t0))
        render_ms = browser_render(base, tok)
    srv.should_exit = True
    th.join(timeout=10)
    hub.close()

    def summary(x):
        if not x:
            return None
        return {
            "n": len(x),
            "median_ms": round(statistics.median(x), 1),
            "p95_ms": round(float(np.percentile(x, 95)), 1),
            "max_ms": round(max(x), 1),
        }

    return {"act": summary(act_ms), "state": summary(state_ms), "render": summary(render_ms)}


def browser_render(base: str, tok: str) -> list[float]:
    """Milliseconds the page takes to draw a view (its render function), over repeated draws."""
    if not os.access("/usr/bin/chromium", os.X_OK):
        return []
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return []
    args = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]
    out = []
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path="/usr/bin/chromium", args=args)
        page = b.new_page(viewport={"width": 1400, "height": 1000})
        page.goto(f"{base}/t/{tok}")
        page.wait_for_selector("#felt .seat")
        for _ in range(30):
            out.append(
                page.evaluate(
                    "(() => { const v = Object.assign({}, view, {version: view.version + 1}); "
                    "render(v); return window.lastRenderMs; })()"
                )
            )
        b.close()
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--hands", type=int, default=3)
    ap.add_argument("--hints", type=int, default=12)
    ap.add_argument("--moves", type=int, default=40)
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "table.json"))
    args = ap.parse_args()
    played = hands(args.seed, args.hands)
    for spec in PLAYERS:  # compile first
        bot_moves(args.seed, [played[0][:12]], spec)
    first = GameState.new_hand(RuleSet.preset("classic"), 1)
    HintJob(first, first.seat, HintBudget(rollouts=10, until_ci=None), 0).start().wait(600)
    bots = [bot_moves(args.seed, played, spec) for spec in PLAYERS]
    hint = hint_runs(args.seed, played, args.hints)
    page = page_updates(args.seed, args.moves)
    res = {
        "date": time.strftime("%Y-%m-%d"),
        "command": "python benchmarks/bench_table.py " + " ".join(sys.argv[1:]),
        "load": os.getloadavg()[0],
        "cpu": platform.processor() or platform.machine(),
        "bot_moves": bots,
        "hints": hint,
        "page_updates": page,
    }
    print(f"bot move (CPU s per decision, {args.hands} classic-4p hands; load {res['load']:.1f}):")
    for b in bots:
        print(
            f"  {b['player']:<10} {b['decisions']:>5} decisions  mean {b['mean_s']:.4f}  "
            f"p95 {b['p95_s']:.4f}  max {b['max_s']:.4f}"
        )
    print(
        f"hint to +-25 points: {hint['decisions']} decisions, "
        f"median {hint['median_wall_s']} s wall "
        f"({hint['median_cpu_s']} s CPU), max {hint['max_wall_s']} s; "
        f"within 10 s at +-25: {hint['within_10s_at_25']}"
    )
    for name, s in page.items():
        if s:
            print(
                f"page {name:<7} median {s['median_ms']} ms  p95 {s['p95_ms']} ms  "
                f"max {s['max_ms']} ms  (n={s['n']})"
            )
    Path(args.out).write_text(json.dumps(res, indent=1) + "\n")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
