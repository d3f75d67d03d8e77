"""Hand review: every decision of the reviewed seats scored against the best action, every chance
event's luck, skill and luck summed per team (the way GNU Backgammon analyses a match).

    from reports.review import hand_by_key, review
    rec = hand_by_key(RuleSet.preset("classic"), ["expert"] * 4, seed=7, game=0, hand=0)
    res = review(rec, seats=[0], evaluator=my_evaluator, rollouts=200, seed=1)
    res.decisions    # DataFrame, one row per decision of seat 0

Definitions (README "Decision analysis"; all values are points of the hand result of the seat's
team: its hand score minus the best opposing team's hand score):

- A decision point is every action of a reviewed seat.  The evaluator (`Evaluator`) plays each
  legal action in worlds sampled from what the seat knows there, every seat continuing with the
  continuation strategy S; it returns each action's mean with its 95% CI and the paired difference
  to the best action with its CI.
- Equity lost = mean(best) - mean(played), with the paired CI of that difference.  Marks (only when
  the CI excludes 0): ``?!`` doubtful >= 50, ``?`` mistake >= 100, ``??`` blunder >= 200 points.
- The seat's equity at a point, V, is the value of the action S would choose there (so that V
  before a chance event is exactly the mean of V after it over the event's outcomes).
- Luck: the deal is V(dealt) - V(prior), V(prior) = the team's mean hand result over random deals
  with the same dealer, scores and strategy S, V(dealt) = the same over deals that give the seat
  the cards it was dealt (everything else shuffled anew); the upcard (with any red-three
  replacements and the turns played before the seat's first decision) is V(first decision) -
  V(dealt); a draw from the stock is V(the seat's next decision of the
  turn, seeing the card) - mean(the draw action before it); when the draw ends the hand, the hand's
  result stands for V after.
- Summary per team: skill = sum of equity lost over its reviewed decisions whose loss is separable
  from 0 (its CI excludes 0; the others are ties with the best: picking the best of several noisy
  means makes every small loss look positive, and summing those would charge the player for the
  noise), luck = sum of its luck values; each with a 95% interval from the sum of the terms'
  variances (the terms are estimated from independent rollouts).
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from sim.core import limits
from sim.core.enums import MAX_SEATS, N_ACTIONS, Act, Off
from sim.core.errors import CanastaError, check_int
from sim.core.rules import RuleSet
from sim.play.game import GameState
from sim.runs.progress import new_bar

__all__ = [
    "ReviewError",
    "HandRecord",
    "Review",
    "Evaluator",
    "MARKS",
    "mark_for",
    "hand_by_key",
    "review",
    "decision_points",
    "prior_value",
    "LUCK_SHOWN",
]

# (threshold in points of equity lost, mark, name), largest first
MARKS = ((200.0, "??", "blunder"), (100.0, "?", "mistake"), (50.0, "?!", "doubtful"))
LUCK_SHOWN = 200.0  # |luck| at or above this is marked on the timeline
Z95 = 1.959963984540054

# evaluate(gs, actions, rollouts, seed) -> DataFrame indexed by action id, the best action first,
# with columns mean, ci_low, ci_high, diff_to_best (= mean(best) - mean(action), paired),
# diff_ci_low, diff_ci_high, rollouts (values for gs.seat's team)
Evaluator = Callable[[GameState, list, int, int], pd.DataFrame]


class ReviewError(CanastaError):
    """A hand or a setting that cannot be reviewed (one line saying why)."""


def _checked(name: str, value, bounds: tuple[int, int]) -> int:
    try:
        return check_int(name, value, *bounds)
    except CanastaError as exc:
        raise ReviewError(str(exc)) from None


def mark_for(lost: float, lost_low: float) -> str:
    """The mark of a decision that lost ``lost`` points (CI lower end ``lost_low``)."""
    if not lost_low > 0:
        return ""
    for threshold, mark, _ in MARKS:
        if lost >= threshold:
            return mark
    return ""


@dataclass
class HandRecord:
    """What a review needs: how to deal the hand again, and its actions."""

    rules: RuleSet
    actions: list[int]
    key: tuple[int, int, int] | None = None  # (seed, game, hand)
    deck: list[int] | None = None  # card codes, top first (a stacked deck) when there is no key
    dealer: int | None = None
    cum: list[int] = field(default_factory=list)
    strategies: list[str] | None = None  # per table seat, for display (None: unknown)

    def new_state(self) -> GameState:
        if self.key is not None:
            s, g, h = self.key
            return GameState.new_hand(self.rules, s, g, h, self.cum or None, dealer=self.dealer)
        return GameState.new_hand(
            self.rules, 0, 0, 0, self.cum or None, dealer=self.dealer, deck=self.deck
        )

    @property
    def hand_index(self) -> int:
        return self.key[2] if self.key else 0

    def replay(self) -> GameState:
        gs = self.new_state()
        for a in self.actions:
            gs.apply(a)
        return gs


def _seat_specs(rules, strategies) -> list[str]:
    """One checked spec per table seat of `rules` (a RuleSet), else ReviewError."""
    from sim.play.specs import check_specs

    if not isinstance(rules, RuleSet):
        raise ReviewError(f"rules={rules!r}: give a RuleSet, e.g. RuleSet.preset('classic')")
    if isinstance(strategies, str) or not isinstance(strategies, Sequence):
        raise ReviewError(
            f"strategies={strategies!r}: give one spec per seat, e.g. ['expert'] * {rules.players}"
        )
    specs = list(strategies)
    if len(specs) != rules.players:
        raise ReviewError(f"strategies: {len(specs)} for {rules.players} seats; give one per seat")
    try:
        check_specs(specs, "strategies")
        reason = rules.engine_supported()
    except CanastaError as exc:
        raise ReviewError(str(exc)) from None
    if reason:
        raise ReviewError(reason)
    return specs


def hand_by_key(
    rules: RuleSet, strategies: Sequence[str], seed: int, game: int = 0, hand: int = 0
) -> HandRecord:
    """The hand (seed, game, hand) of a run of whole games with these per-seat strategies: the
    game is played by the engine up to that hand (for the cumulative scores), the hand itself
    step by step (the same kernels and random streams), and checked against the engine's."""
    from sim.play.engine import run_chunk
    from sim.play.pyplay import play_hand_py

    seed = _checked("seed", seed, limits.SEED)
    game = _checked("game", game, limits.GAME)
    hand = _checked("hand", hand, limits.HAND)
    strategies = _seat_specs(rules, strategies)
    res = run_chunk(rules, strategies, seed, game, 1, mode="games")
    hands = res.hands[np.argsort(res.hands["hand"])]
    if hand >= len(hands):
        raise ReviewError(
            f"game {game} of seed {seed} has {len(hands)} hands (0..{len(hands) - 1}); --hand "
            f"{hand} does not exist"
        )
    cum = [int(x) for x in hands[hand]["cum_before"][: rules.n_teams]]
    gs = play_hand_py(rules, strategies, seed, game, hand, cum)
    if [int(x) for x in hands[hand]["score"][: rules.n_teams]] != gs.score_breakdown()["score"]:
        raise RuntimeError(
            f"the step-by-step replay of seed={seed} game={game} hand={hand} differs from the "
            "engine"
        )
    return HandRecord(rules, gs.actions, key=(seed, game, hand), cum=cum, strategies=strategies)


# ----------------------------------------------------------------------------- decision points


@dataclass
class Point:
    index: int  # position of the action in the hand
    turn: int
    seat: int  # active seat
    table_seat: int
    team: int
    state: GameState  # before the action
    legal: list[int]
    played: int


def decision_points(rec: HandRecord, seats: Sequence[int] | None) -> tuple[list[Point], GameState]:
    """Every action of the reviewed table seats (None: all) with a copy of the state before it;
    and the final state."""
    gs = rec.new_state()
    table = gs.seat_table
    if seats is not None:
        bad = [s for s in seats if s not in table]
        if bad:
            raise ReviewError(
                f"--seat {bad[0]}: not a seat of this hand (seats {', '.join(map(str, table))})"
            )
    pts = []
    for i, a in enumerate(rec.actions):
        seat = gs.seat
        if seats is None or table[seat] in seats:
            pts.append(
                Point(
                    i,
                    int(gs.state[Off.TURN]),
                    seat,
                    table[seat],
                    gs.team,
                    copy.deepcopy(gs),
                    gs.legal_actions(),
                    int(a),
                )
            )
        gs.apply(a)
    if not gs.is_over:
        raise ReviewError(f"the hand is not over after its {len(rec.actions)} actions")
    return pts, gs


def team_result(gs: GameState, team: int) -> int:
    """The hand result of ``team``: its score minus the best opposing team's."""
    sc = gs.score_breakdown()["score"]
    others = [v for t, v in enumerate(sc) if t != team]
    return int(sc[team] - (max(others) if others else 0))


def strategy_choice(gs: GameState, spec: str, seed: int, index: int) -> int:
    """The action the fast strategy ``spec`` would choose at this point (seeded by (seed,
    index))."""
    from sim.core.rng import STREAM_PLAYERS, seed_rng_nb
    from strategies.registry import decide_nb, parse_spec

    sid, knobs = parse_spec(
        spec, gs.rules.label
    )  # a strategy tuned per table plays its table's set
    rng = np.zeros(2, np.uint64)
    seed_rng_nb(rng, seed, index, 1, STREAM_PLAYERS)
    buf = np.zeros(N_ACTIONS, np.int32)
    return int(decide_nb(sid, gs.observation(gs.seat), gs.params, knobs, rng, buf))


def prior_value(
    rec: HandRecord, strategy: str, team: int, n: int, seed: int
) -> tuple[float, float]:
    """Mean hand result of ``team`` over n random deals with this hand's dealer, cumulative
    scores and S at every seat, and its 95% half-width (hands are independent)."""
    from sim.play.engine import run_chunk

    rules = rec.rules
    gs = rec.new_state()
    dealer = int(gs.state[Off.DEALER])
    n_act = rules.n_active
    # keys (seed, g, 0) deal with dealer g % n_act: take those with this hand's dealer
    start = dealer
    games = n * n_act
    res = run_chunk(
        rules,
        [strategy] * rules.players,
        seed,
        start,
        games,
        mode="hands",
        start_scores=rec.cum or None,
    )
    h = res.hands[(res.hands["game"] % n_act) == dealer]
    sc = h["score"][:, : rules.n_teams].astype(float)
    others = np.delete(sc, team, axis=1).max(axis=1) if rules.n_teams > 1 else 0.0
    v = sc[:, team] - others
    return float(v.mean()), float(Z95 * v.std(ddof=1) / math.sqrt(len(v)))


def dealt_value(
    rec: HandRecord, strategy: str, seat: int, n: int, seed: int
) -> tuple[float, float]:
    """Mean hand result of the team of active ``seat`` over n deals in which that seat gets the
    cards it was dealt and every other card (the other hands, the upcard, the stock) is shuffled
    anew, S at every seat (each deal played by the compiled kernels), the same dealer and scores;
    and its 95% half-width.  The value of the deal before the upcard is turned (red threes among
    the seat's cards are replaced at random)."""
    from sim.core.apply import SCORE_ROWS, init_hand_nb
    from sim.core.enums import MAX_TEAMS, Par
    from sim.core.rng import STREAM_PLAYERS, seed_rng_nb
    from sim.play.rollouts.actions import hand_result_nb
    from sim.play.selfplay.step import play_out_hidden_nb
    from strategies.registry import MAX_KNOBS, parse_spec

    gs0 = rec.new_state()
    deck, n_act, dealer = gs0.deck, gs0.n_seats, int(gs0.state[Off.DEALER])
    j = (seat - dealer - 1) % n_act  # dealt one card at a time from the seat after the dealer
    fixed = np.array([r * n_act + j for r in range(int(gs0.params[Par.HAND_SIZE]))])
    free = np.setdiff1d(np.arange(len(deck)), fixed)
    cum = np.zeros(MAX_TEAMS, np.int32)
    cum[: len(rec.cum)] = rec.cum
    team = int(gs0.state[Off.TEAM_OF_SEAT + seat])
    ids, knobs = np.zeros(MAX_SEATS, np.int64), np.zeros((MAX_SEATS, MAX_KNOBS))
    sid, k = parse_spec(strategy, rec.rules.label)
    ids[:], knobs[:] = sid, k
    rngs, obs, buf = (
        np.zeros((MAX_SEATS, 2), np.uint64),
        np.zeros(Off.STATE_SIZE, np.int32),
        np.zeros(N_ACTIONS, np.int32),
    )
    status, score = np.zeros(16, np.int64), np.zeros((SCORE_ROWS, MAX_TEAMS), np.int32)
    shuffle = np.random.default_rng([seed, seat, 29])
    vals = []
    for r in range(n):
        d = deck.copy()
        d[free] = deck[free][shuffle.permutation(len(free))]
        state = np.zeros(Off.STATE_SIZE, np.int32)
        init_hand_nb(state, gs0.params, d, len(d), dealer, cum)
        for s in range(n_act):
            seed_rng_nb(rngs[s], seed, r, 29, STREAM_PLAYERS + 1 + s)
        play_out_hidden_nb(
            state, gs0.params, ids, knobs, rngs, obs, buf, 0, status, None, None, None
        )
        if status[0] != 0:
            raise RuntimeError(
                f"strategy {strategy!r} chose an illegal action in a re-dealt hand (deal {r})"
            )
        us, them, _ = hand_result_nb(state, gs0.params, team, score)
        vals.append(us - them)
    v = np.array(vals, float)
    return float(v.mean()), float(Z95 * v.std(ddof=1) / math.sqrt(len(v)))


# ----------------------------------------------------------------------------- the review


@dataclass
class Review:
    record: HandRecord
    seats: list[int]  # reviewed table seats
    strategy: str  # continuation strategy S
    rollouts: int
    decisions: pd.DataFrame  # one row per decision point
    luck: pd.DataFrame  # one row per chance event
    summary: pd.DataFrame  # one row per team
    result: dict[int, int]  # hand result per team
    prior: dict[int, tuple[float, float]]  # V(prior) per reviewed team
    # the evaluator's top actions per decision (action index -> reports.review_view.top_actions)
    top: dict[int, list[dict]] = field(default_factory=dict)

    def to_json(self) -> dict:
        def rows(df: pd.DataFrame) -> list[dict]:
            return [{k: _plain(v) for k, v in r.items()} for r in df.to_dict("records")]

        rec = self.record
        return {
            "hand": {
                "rules": rec.rules.label,
                "key": list(rec.key) if rec.key else None,
                "dealer": rec.dealer,
                "scores_before": rec.cum,
                "strategies": rec.strategies,
                "actions": len(rec.actions),
            },
            "seats": self.seats,
            "strategy": self.strategy,
            "rollouts": self.rollouts,
            "thresholds": [{"points": t, "mark": m, "name": n} for t, m, n in MARKS],
            "result": {str(t): v for t, v in self.result.items()},
            "summary": rows(self.summary),
            "decisions": rows(self.decisions),
            "luck": rows(self.luck),
            "views": self.views(),
        }

    def views(self) -> list[dict]:
        """What the seat saw at each decision (reports.review_view.decision_views)."""
        from reports.review_view import decision_views

        return decision_views(self)


def _plain(v):
    if isinstance(v, (np.integer,)):
        return int(v)
    if isinstance(v, (np.floating, float)):
        return None if not math.isfinite(float(v)) else round(float(v), 3)
    return v


def _row(ev: pd.DataFrame, action: int) -> pd.Series:
    if action not in ev.index:
        raise RuntimeError(f"the evaluator returned no row for action {action}")
    return ev.loc[action]


def review(
    rec: HandRecord,
    seats: Sequence[int] | None,
    evaluator: Evaluator,
    strategy: str = "expert",
    rollouts: int = 200,
    seed: int = 0,
    prior_hands: int | None = None,
    progress: bool = False,
) -> Review:
    """Review the decisions of the table ``seats`` (None: every seat) of ``rec``."""
    rollouts = _checked("rollouts", rollouts, limits.ROLLOUTS_PER_ACTION)
    seed = _checked("seed", seed, limits.REVIEW_SEED)
    if prior_hands is not None:
        prior_hands = _checked("prior_hands", prior_hands, limits.ROLLOUTS_PER_ACTION)
    if not isinstance(rec, HandRecord) or not callable(evaluator):
        raise ReviewError(
            "review needs a HandRecord (hand_by_key, read_hand_file) and an evaluator"
        )
    pts, final = decision_points(rec, seats)
    n_teams = final.n_teams
    result = {t: team_result(final, t) for t in range(n_teams)}
    from reports.review_view import top_actions

    rows = []
    tops: dict[int, list[dict]] = {}  # the page's top actions per decision (review_view)
    bar = new_bar(len(pts), "decision", progress)
    for p in pts:
        ev = evaluator(p.state, p.legal, rollouts, seed * 1_000_003 + p.index)
        tops[p.index] = top_actions(p.state, ev, p.played)
        best = int(ev.index[0])  # the evaluator lists the best action first
        played = _row(ev, p.played)
        if float(played["diff_to_best"]) <= 0:  # as good as the best in every world
            best = p.played
        choice = strategy_choice(p.state, strategy, seed, p.index)
        vs = _row(ev, choice) if choice in ev.index else played
        lost = float(played["diff_to_best"]) if best != p.played else 0.0
        lo, hi = (
            (float(played["diff_ci_low"]), float(played["diff_ci_high"]))
            if best != p.played
            else (0.0, 0.0)
        )
        # diff_to_best is mean(best) - mean(action) >= 0
        rows.append(
            {
                "index": p.index,
                "turn": p.turn + 1,
                "seat": p.table_seat,
                "team": p.team,
                "phase": p.state.phase,
                "legal": len(p.legal),
                "played": p.state.text(p.played),
                "best": p.state.text(best),
                "lost": lost,
                "lost_low": lo,
                "lost_high": hi,
                "mark": mark_for(lost, lo) if len(p.legal) > 1 else "",
                "value": float(vs["mean"]),
                "value_half": float(vs["ci_high"] - vs["ci_low"]) / 2,
                "played_value": float(played["mean"]),
                "played_half": float(played["ci_high"] - played["ci_low"]) / 2,
                "draw": p.played == Act.DRAW,
                **_p_win_cols(played, best == p.played),
            }
        )
        bar.update(1)
    bar.close()
    dec = pd.DataFrame(
        rows,
        columns=[
            "index",
            "turn",
            "seat",
            "team",
            "phase",
            "legal",
            "played",
            "best",
            "lost",
            "lost_low",
            "lost_high",
            "mark",
            "value",
            "value_half",
            "played_value",
            "played_half",
            "draw",
        ]
        + (list(P_WIN_COLS) if rows and "p_win" in rows[0] else []),
    )
    reviewed = sorted({p.table_seat for p in pts}) if seats is None else sorted(seats)
    teams = sorted({int(t) for t in dec["team"]}) if len(dec) else []
    prior = {
        t: prior_value(rec, strategy, t, prior_hands or max(4 * rollouts, 200), seed + 7)
        for t in teams
    }
    table = list(final.seat_table)
    dealt = {
        s: dealt_value(rec, strategy, table.index(s), prior_hands or max(rollouts, 100), seed + 11)
        for s in sorted({p.table_seat for p in pts})
    }
    luck = _luck(dec, rec, final, prior, result, dealt)
    summary = _summary(dec, luck, teams, rec, final, result)
    return Review(rec, reviewed, strategy, rollouts, dec, luck, summary, result, prior, tops)


P_WIN_COLS = ("p_win", "p_win_low", "p_win_high", "p_lost", "p_lost_low", "p_lost_high")


def _p_win_cols(played: pd.Series, is_best: bool) -> dict:
    """P(win the game) after the played action and P(win) lost against the best (percent), when
    the evaluator had an equity table."""
    if "p_win" not in played.index:
        return {}
    out = {c: float(played[c]) for c in P_WIN_COLS}
    if is_best:
        out.update(p_lost=0.0, p_lost_low=0.0, p_lost_high=0.0)
    return out


def _luck(
    dec: pd.DataFrame, rec: HandRecord, final: GameState, prior: dict, result: dict, dealt: dict
) -> pd.DataFrame:
    """Chance events of the reviewed seats: the deal and the upcard (per seat) and every draw
    from the stock."""
    gs = rec.new_state()
    upcard = " ".join(gs.pile())
    drawn: dict[int, str] = {}
    for i, a in enumerate(rec.actions):  # the cards each draw brought (for display)
        if a == Act.DRAW:
            seat = gs.seat
            before = gs.hand_counts(seat)
            red3 = gs.red_threes(gs.team)
            gs.apply(a)
            got = np.maximum(gs.hand_counts(seat) - before, 0)
            from sim.core.cards import kind_name

            cards = [kind_name(k) for k in range(len(got)) for _ in range(int(got[k]))]
            cards += ["R3"] * (gs.red_threes(gs.state[Off.TEAM_OF_SEAT + seat]) - red3)
            drawn[i] = " ".join(cards) or "-"
        else:
            gs.apply(a)
    rows = []
    for seat, d in dec.groupby("seat", sort=True):
        d = d.sort_values("index")
        team = int(d["team"].iloc[0])
        v0, h0 = prior[team]
        vd, hd = dealt[seat]
        first = d.iloc[0]
        rows.append(
            {
                "index": -2,
                "turn": 0,
                "seat": seat,
                "team": team,
                "event": "deal",
                "cards": "the seat's cards",
                "before": v0,
                "after": vd,
                "luck": vd - v0,
                "half": math.hypot(h0, hd),
                "at_index": 0,
            }
        )
        rows.append(
            {
                "index": -1,
                "turn": 0,
                "seat": seat,
                "team": team,
                "event": "upcard",
                "cards": upcard + (" and the turns before" if first["turn"] > 1 else ""),
                "before": vd,
                "after": first["value"],
                "luck": first["value"] - vd,
                "half": math.hypot(hd, first["value_half"]),
                "at_index": int(first["index"]),
            }
        )
        recs = d.to_dict("records")
        for j, r in enumerate(recs):
            if not r["draw"]:
                continue
            nxt = recs[j + 1] if j + 1 < len(recs) and recs[j + 1]["turn"] == r["turn"] else None
            after, ah = (nxt["value"], nxt["value_half"]) if nxt else (float(result[team]), 0.0)
            rows.append(
                {
                    "index": r["index"],
                    "turn": r["turn"],
                    "seat": seat,
                    "team": team,
                    "event": "draw",
                    "cards": drawn.get(r["index"], "?"),
                    "before": r["played_value"],
                    "after": after,
                    "luck": after - r["played_value"],
                    "half": math.hypot(r["played_half"], ah),
                    "at_index": int(nxt["index"]) if nxt else len(rec.actions),
                }
            )
    cols = [
        "index",
        "turn",
        "seat",
        "team",
        "event",
        "cards",
        "before",
        "after",
        "luck",
        "half",
        "at_index",
    ]
    return (
        pd.DataFrame(rows, columns=cols)
        .sort_values(["index", "seat"], kind="stable")
        .reset_index(drop=True)
    )


def _summary(dec, luck, teams, rec, final, result) -> pd.DataFrame:
    rows = []
    for t in teams:
        d = dec[dec["team"] == t]
        lk = luck[luck["team"] == t]
        sep = d["lost_low"] > 0  # ties with the best count 0, and add no uncertainty
        half_skill = Z95 * math.sqrt(
            float((((d["lost_high"] - d["lost_low"])[sep] / 2 / Z95) ** 2).sum())
        )
        half_luck = Z95 * math.sqrt(float(((lk["half"] / Z95) ** 2).sum()))
        d = d.assign(lost=d["lost"].where(sep, 0.0))
        extra = {}
        if "p_lost" in d.columns:  # the same decisions, in points of percent of P(win the game)
            h = ((d["p_lost_high"] - d["p_lost_low"])[sep] / 2 / Z95) ** 2
            extra = {
                "p_win_lost": float(d["p_lost"].where(sep, 0.0).sum()),
                "p_win_lost_half": Z95 * math.sqrt(float(h.sum())),
            }
        rows.append(
            {
                "team": t,
                "seats": ",".join(str(s) for s in sorted(d["seat"].unique())),
                "decisions": int((d["legal"] > 1).sum()),
                "doubtful": int((d["mark"] == "?!").sum()),
                "mistakes": int((d["mark"] == "?").sum()),
                "blunders": int((d["mark"] == "??").sum()),
                "skill_lost": float(d["lost"].sum()),
                "skill_half": half_skill,
                "luck": float(lk["luck"].sum()),
                "luck_half": half_luck,
                "result": result[t],
                **extra,
            }
        )
    cols = [
        "team",
        "seats",
        "decisions",
        "doubtful",
        "mistakes",
        "blunders",
        "skill_lost",
        "skill_half",
        "luck",
        "luck_half",
        "result",
    ]
    return pd.DataFrame(
        rows, columns=cols + (["p_win_lost", "p_win_lost_half"] if "p_lost" in dec.columns else [])
    )


def seats_arg(text: str, rules: RuleSet) -> list[int] | None:
    """--seat K | all -> table seats (None = all)."""
    if not isinstance(text, str):
        raise ReviewError(f"--seat {text!r}: give a table seat 0..{rules.players - 1} or 'all'")
    if text == "all":
        return None
    try:
        k = int(text)
    except ValueError:
        raise ReviewError(
            f"--seat {text!r}: give a table seat 0..{rules.players - 1} or 'all'"
        ) from None
    if not 0 <= k < min(rules.players, MAX_SEATS):
        raise ReviewError(f"--seat {k}: give a table seat 0..{rules.players - 1} or 'all'")
    return [k]
