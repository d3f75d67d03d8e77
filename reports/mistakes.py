"""Where a strategy loses its points: `canasta review` over many hands, its decisions grouped by
kind and situation (``canasta mistakes``).

    from sim.core.rules import RuleSet
    from reports.mistakes import census
    df = census(RuleSet.preset("classic"), "expert", hands=40, seed=1)
    df.head()      # one row per group, costliest first

Method:

- Hands: whole games of the strategy (self-play, or its team against ``vs`` at every other
  team, the strategy's team alternating game by game: team ``g % n_teams`` in game g), keys
  (seed, g, h) for g = 0, 1, ... and every hand h of game g, until ``hands`` hands.  In hand i
  one seat of the strategy is reviewed, turn about (``i % its seats``), so every seat position
  counts alike.
- Each decision of that seat with more than one legal action is reviewed by
  `reports.review.review` (rollouts from what the seat knew, every seat then continuing with
  ``continue_with``): its equity lost against the best action, counted as review's summary
  counts skill (`counted_loss`: the loss when its 95% interval excludes 0, else 0), its mark.
  Each hand's rollouts are seeded by (seed, i) alone, so the result is the same whatever ``jobs``.
- Every decision gets the class of the action played and of the best one
  (`reports.decision_kinds`), their pair's name (``kind``) and its situation.
- A group (rows with equal ``by`` columns) shows its decisions and share of all, how many were
  marked, the mean equity lost per decision and the total per hand (the group's loss summed in
  each hand, averaged over all hands, hands without the group counting 0): points of the
  reviewed seat's team.  95% intervals are clustered by hand (the unit that is independent):
  the per-decision mean is a ratio estimator over hands, the per-hand total a t interval over
  hands.
- Examples: the group's costliest decisions, each with the key, seat, turn and step that
  ``canasta play --position-at TURN:STEP --seat K`` turns into a position file for
  ``canasta analyze``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from reports.stats import cluster_sums, mean_ci, ratio_ci_from_sums
from sim.core import limits
from sim.core.errors import CanastaError, check_int
from sim.runs.progress import new_bar, on_terminal

__all__ = [
    "MistakesError",
    "HandKey",
    "DEFAULT_HANDS",
    "DEFAULT_ROLLOUTS",
    "GROUPINGS",
    "hand_keys",
    "review_hands",
    "group",
    "census",
    "example_command",
]

DEFAULT_HANDS = 40
DEFAULT_ROLLOUTS = 200  # per legal action: a census needs many decisions more than tight ones
EXAMPLES = 3
# the columns a census can group by (kind, played, best; and the situations)
GROUPINGS: tuple[str, ...] = ("kind", "played_class", "best_class", "phase", "pile", "frozen")
GROUPINGS += ("stock", "opp_cards", "opp_melds", "mark")
DEFAULT_BY = ("kind", "played_class", "best_class")
HANDS = (1, 10**6)


class MistakesError(CanastaError):
    """A setting that cannot make a census (one line saying why)."""


def _checked(name: str, value, bounds: tuple[int, int]) -> int:
    try:
        return check_int(name, value, *bounds)
    except CanastaError as exc:
        raise MistakesError(str(exc)) from None


@dataclass(frozen=True)
class HandKey:
    """One reviewed hand: its key, who played it and the reviewed table seat."""

    index: int  # position in the census
    game: int
    hand: int
    strategies: tuple[str, ...]  # per table seat
    seat: int  # reviewed table seat


def _seat_strategies(rules, strategy: str, vs: str | None, game: int) -> tuple[str, ...]:

    if vs is None:
        return (strategy,) * rules.players
    ours = game % rules.n_teams
    return tuple(strategy if t == ours else vs for t in rules.team_of_seat)


def hand_keys(rules, strategy: str, vs: str | None, hands: int, seed: int) -> list[HandKey]:
    """The census's hands (see the module docstring): games played by the engine to count
    their hands, in key order, until ``hands``."""
    from sim.play.engine import run_chunk

    keys: list[HandKey] = []
    g = 0
    while len(keys) < hands:
        strats = _seat_strategies(rules, strategy, vs, g)
        ours = [s for s, name in enumerate(strats) if name == strategy]
        if vs is not None:
            ours = [s for s in ours if _team(rules, s) == g % rules.n_teams]
        n = len(run_chunk(rules, list(strats), seed, g, 1, mode="games").hands)
        for h in range(n):
            if len(keys) == hands:
                break
            i = len(keys)
            keys.append(HandKey(i, g, h, strats, ours[i % len(ours)]))
        g += 1
    return keys


def _team(rules, seat: int) -> int:

    return rules.team_of_seat[seat]


def _hand_seed(seed: int, index: int) -> int:
    """The rollout seed of census hand ``index`` (within review's seed range)."""
    ss = np.random.SeedSequence([int(seed) % 2**63, int(index), 0x6D697374])
    return int(ss.generate_state(1, np.uint64)[0] % (limits.REVIEW_SEED[1] + 1))


def _review_one(rules, key: HandKey, seed: int, rollouts: int, continue_with: str, infer):
    """Review one hand's seat; one row per decision with a choice (classes, situation, the
    review's columns, the step of its turn)."""
    from reports import review_eval
    from reports.decision_kinds import action_class, kind, situation
    from reports.review import decision_points, hand_by_key, review

    rec = hand_by_key(rules, list(key.strategies), seed, key.game, key.hand)
    evaluator = review_eval.make_evaluator(rules, continue_with, infer=infer)
    rv = review(
        rec,
        [key.seat],
        evaluator,
        strategy=continue_with,
        rollouts=rollouts,
        seed=_hand_seed(seed, key.index),
        walk=False,  # the census needs the decisions only, not the best-action replay
        accounting=False,
    )
    pts, _ = decision_points(rec, [key.seat])
    by_index = {p.index: p for p in pts}
    steps = _steps(rec)
    rows = []
    for r in rv.decisions.to_dict("records"):
        if r["legal"] < 2:
            continue
        p = by_index[int(r["index"])]
        best_id = p.state._action_id(r["best"]) if r["best"] != r["played"] else p.played
        played_c = action_class(p.state, p.played)
        best_c = action_class(p.state, best_id)
        rows.append(
            {
                "hand_index": key.index,
                "game": key.game,
                "hand": key.hand,
                "step": steps[int(r["index"])],
                **{k: r[k] for k in ("index", "turn", "seat", "legal", "played", "best")},
                "lost": counted_loss(r),
                **{k: r[k] for k in ("lost_low", "lost_high", "mark")},
                "lost_raw": r["lost"],
                "played_class": played_c,
                "best_class": best_c,
                "kind": kind(played_c, best_c, r["best"] == r["played"]),
                **situation(p.state),
            }
        )
    return key.index, rows


def counted_loss(row: dict) -> float:
    """A decision's equity lost as review's summary counts it (its skill term): the loss when
    its 95% interval excludes 0, else 0 (a tie with the best)."""
    return float(row["lost"]) if float(row["lost_low"]) > 0 else 0.0


def _steps(rec) -> dict[int, int]:
    """Action index -> its step in its turn (1 = the turn's first decision)."""
    from sim.core.enums import Off

    gs = rec.new_state()
    gs.tracks_knowledge = False
    out, turn, k = {}, -1, 0
    for i, a in enumerate(rec.actions):
        t = int(gs.state[Off.TURN])
        k = k + 1 if t == turn else 1
        turn = t
        out[i] = k
        gs.apply(a)
    return out


DECISION_COLUMNS = [
    "hand_index", "game", "hand", "step", "index", "turn", "seat", "legal", "played", "best",
    "lost", "lost_low", "lost_high", "mark", "lost_raw", "played_class", "best_class", "kind",
    "phase", "pile", "frozen", "stock", "opp_cards", "opp_melds",
]  # fmt: skip


def _check_setup(rules, strategy, vs, hands, seed, rollouts, jobs, continue_with, infer):
    from sim.runs.runner import check_strategy_names, registered_strategies

    reason = rules.engine_supported()
    if reason:
        raise MistakesError(reason)
    for name, v in (("strategy", strategy), ("vs", vs), ("continue_with", continue_with)):
        if v is not None and (not isinstance(v, str) or not v.strip()):
            raise MistakesError(f"{name}={v!r}: give a strategy name like 'expert'")
    names = [strategy, continue_with] + [x for x in (vs, infer) if x]
    check_strategy_names(names, registered_strategies())
    return (
        _checked("hands", hands, HANDS),
        _checked("seed", seed, limits.SEED),
        _checked("rollouts", rollouts, limits.ROLLOUTS_PER_ACTION),
        _checked("jobs", jobs, limits.WORKERS),
    )


def review_hands(
    rules,
    strategy: str,
    vs: str | None = None,
    hands: int = DEFAULT_HANDS,
    seed: int = 0,
    rollouts: int = DEFAULT_ROLLOUTS,
    jobs: int = 1,
    continue_with: str = "expert",
    infer: str | None = None,
    progress: bool | None = None,
) -> pd.DataFrame:
    """Every reviewed decision with a choice, one row each (`DECISION_COLUMNS`); attrs
    ``census`` holds the settings and ``hands`` (hands reviewed: fewer than asked when
    interrupted, with ``interrupted`` True)."""
    hands, seed, rollouts, jobs = _check_setup(
        rules, strategy, vs, hands, seed, rollouts, jobs, continue_with, infer
    )
    keys = hand_keys(rules, strategy, vs, hands, seed)
    bar = new_bar(len(keys), "hand", on_terminal() if progress is None else bool(progress))
    done: dict[int, list[dict]] = {}
    interrupted = False
    args = (seed, rollouts, continue_with, infer)
    try:
        if jobs == 1:
            for k in keys:
                i, rows = _review_one(rules, k, *args)
                done[i] = rows
                bar.update(1)
        else:
            from joblib import delayed

            from sim.runs.workers import parallel  # workers end with this process

            gen = parallel(jobs, return_as="generator_unordered", batch_size=1)(
                delayed(_review_one)(rules, k, *args) for k in keys
            )
            for i, rows in gen:
                done[i] = rows
                bar.update(1)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        bar.close()
    # hands in key order; after an interruption, the finished hands before the first gap
    n = 0
    while n in done:
        n += 1
    rows = [r for i in range(n) for r in done[i]]
    df = pd.DataFrame(rows, columns=DECISION_COLUMNS)
    df.attrs["census"] = {
        "rules": rules.label,
        "strategy": strategy,
        "vs": vs,
        "hands_asked": hands,
        "hands": n,
        "interrupted": interrupted,
        "seed": seed,
        "rollouts": rollouts,
        "continue_with": continue_with,
        "infer": infer,
    }
    return df


GROUP_COLUMNS = [
    "decisions", "share", "marked", "marked_share", "lost_mean", "lost_mean_low",
    "lost_mean_high", "lost_hand", "lost_hand_low", "lost_hand_high", "hands_with", "examples",
]  # fmt: skip


def group(
    decisions: pd.DataFrame,
    by: Sequence[str] = DEFAULT_BY,
    hands: int | None = None,
    top: int | None = None,
):
    """The census table from `review_hands` rows: one row per group of ``by`` (GROUPINGS),
    costliest per hand first, then a row ``all`` (every decision); columns ``by`` +
    `GROUP_COLUMNS` (see the module docstring).  ``hands``: hands reviewed (default: attrs);
    ``top``: the costliest ``top`` groups, the others merged into one row ("N other groups")."""
    by = list(by)
    bad = [b for b in by if b not in GROUPINGS]
    if bad or not by:
        raise MistakesError(
            f"group by {','.join(bad) or 'nothing'}: choose from {', '.join(GROUPINGS)}"
        )
    meta = dict(decisions.attrs.get("census", {}))
    n_hands = int(hands if hands is not None else meta.get("hands", 0))
    if n_hands < 1:
        raise MistakesError("no hand was reviewed")
    d = decisions.assign(marked=decisions["mark"].astype(str) != "")
    total = len(d)
    out = []
    groups = list(d.groupby(by, sort=False)) if total else []
    for values, g in groups:
        values = values if isinstance(values, tuple) else (values,)
        out.append({**dict(zip(by, values, strict=True)), **_stats(g, total, n_hands)})
    res = pd.DataFrame(out, columns=by + GROUP_COLUMNS)
    res = res.sort_values(["lost_hand", "decisions"], ascending=False, kind="stable")
    if top is not None and len(res) > top + 1:
        rest = res.iloc[top:]
        keys = set(map(tuple, rest[by].to_numpy().tolist()))
        mask = [tuple(k) in keys for k in d[by].to_numpy().tolist()]
        other = {b: "" for b in by} | _stats(d[mask], total, n_hands)
        shown = [b for b in by if b != "kind"] or by  # the kind is not printed beside its pair
        other[shown[0]] = f"{len(rest)} other groups"
        res = pd.concat([res.iloc[:top], pd.DataFrame([other], columns=by + GROUP_COLUMNS)])
    every = {b: "all" for b in by} | _stats(d, total, n_hands)
    every["examples"] = []
    res = pd.concat([res, pd.DataFrame([every], columns=by + GROUP_COLUMNS)], ignore_index=True)
    res.attrs["census"] = meta | {"by": by, "hands": n_hands, "decisions": total}
    return res


def _stats(g: pd.DataFrame, total: int, n_hands: int) -> dict:
    lost = g["lost"].to_numpy(float)
    hand = g["hand_index"].to_numpy()
    per_dec = ratio_ci_from_sums(cluster_sums(lost, hand)) if len(g) else None
    per_hand = np.zeros(n_hands)
    np.add.at(per_hand, hand, lost)
    ph = mean_ci(per_hand)
    worst = g[g["lost"] > 0].sort_values("lost", ascending=False, kind="stable").head(EXAMPLES)
    return {
        "decisions": len(g),
        "share": len(g) / total if total else math.nan,
        "marked": int(g["marked"].sum()),
        "marked_share": float(g["marked"].mean()) if len(g) else math.nan,
        "lost_mean": per_dec.mean if per_dec else math.nan,
        "lost_mean_low": per_dec.low if per_dec else math.nan,
        "lost_mean_high": per_dec.high if per_dec else math.nan,
        "lost_hand": ph.mean,
        "lost_hand_low": ph.low,
        "lost_hand_high": ph.high,
        "hands_with": int(len(np.unique(hand))),
        "examples": [
            {k: _plain(r[k]) for k in ("game", "hand", "seat", "turn", "step", "played", "best")}
            | {"lost": round(float(r["lost"]), 1), "mark": r["mark"]}
            for r in worst.to_dict("records")
        ],
    }


def _plain(v):
    return int(v) if isinstance(v, np.integer) else v


def census(
    rules,
    strategy: str,
    vs: str | None = None,
    hands: int = DEFAULT_HANDS,
    seed: int = 0,
    rollouts: int = DEFAULT_ROLLOUTS,
    jobs: int = 1,
    continue_with: str = "expert",
    infer: str | None = None,
    by: Sequence[str] = DEFAULT_BY,
    progress: bool | None = None,
) -> pd.DataFrame:
    """The census (`group` of `review_hands`): one row per group, costliest first, then ``all``."""
    by = list(by)
    group(pd.DataFrame(columns=DECISION_COLUMNS), by, hands=1)  # the grouping before the work
    d = review_hands(
        rules, strategy, vs, hands, seed, rollouts, jobs, continue_with, infer, progress
    )
    return group(d, by)


def example_command(rules_args: str, meta: dict, ex: dict, rules=None) -> str:
    """The command that writes example ``ex`` as a position file ``canasta analyze`` opens."""

    strat = meta["strategy"]
    vs = meta.get("vs")
    if vs is None:
        who = strat
    else:
        ours = ex["game"] % rules.n_teams
        who = ",".join(strat if t == ours else vs for t in sorted(set(rules.team_of_seat)))
    return (
        f"canasta play {rules_args}--strategies {_quote(who)} --seed {meta['seed']} "
        f"--game {ex['game']} --hand {ex['hand']} --position-at {ex['turn']}:{ex['step']} "
        f"--seat {ex['seat']}"
    )


def _quote(s: str) -> str:
    import shlex

    return shlex.quote(s)
