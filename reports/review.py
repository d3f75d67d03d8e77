"""Hand review: every decision of the reviewed seats judged against the best action, the
best-action player's gain on the same deal, and the accounting of the result per team.

    from reports.review import hand_by_key, review
    from reports.review_eval import make_evaluator
    rec = hand_by_key(RuleSet.preset("classic"), ["expert"] * 4, seed=7, game=0, hand=0)
    res = review(rec, seats=[0], evaluator=make_evaluator(rec.rules), rollouts=200, seed=1)
    res.decisions    # DataFrame, one row per decision of seat 0
    res.summary      # per team: skill lost, the accounting's terms

Definitions (docs/analysis.md; values are points of the hand result of the seat's team: its hand
score minus the best opposing team's; S is the continuation strategy every seat plays after the
action judged):

- A decision point is every action of a reviewed seat, judged by `reports.review_judge.judge`:
  the best action picked on one set of worlds (every legal action, from what the seat knew), the
  equity lost (best - played), its 95% CI and ``vs_choice`` (S's choice - played) measured on
  fresh worlds.  Marks (only when that CI excludes 0): ``?!`` doubtful >= 50, ``?`` mistake >=
  100, ``??`` blunder >= 200 points.
- The walk (`reports.review_judge.walk`): the deal replayed with the team's reviewed seats taking
  the best action, every other seat S.  ``skill_known`` = its fresh gains over S's choice summed
  along it + the played actions' ``vs_choice``: what better play gains, from the seats' own
  knowledge.  ``skill_lost`` = the same gain measured on the actual cards: the walk's decisions
  against S's choice minus the hand's, from the accounting (``skill_basis`` "cards"; without the
  accounting it is ``skill_known``, basis "known").  ``path_lost`` = the equity lost summed along
  the hand as played, a different quantity (it overstates what better play gains).
- The accounting (`reports.accounting`): per team, result = expected result at the deal + luck
  (every chance event) + own play + others' play against S's choice, exactly; the luck table is
  its chance events seen by each reviewed seat (deal, upcard, red threes, its own draws).
- Sums of independent per-decision figures carry the sum of their variances; the accounting's
  sums are t intervals over its paired rollouts.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from reports.accounting import Accounting
from reports.review_judge import strategy_choice
from reports.stats import mean_ci
from sim.core import limits
from sim.core.enums import MAX_SEATS, Act, Off
from sim.core.errors import CanastaError, check_int
from sim.core.rules import RuleSet
from sim.play.game import GameState
from sim.runs.progress import new_bar
from strategies import BASELINE

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


# ----------------------------------------------------------------------------- the review


@dataclass
class Review:
    record: HandRecord
    seats: list[int]  # reviewed table seats
    strategy: str  # continuation strategy S
    rollouts: int
    decisions: pd.DataFrame  # one row per decision point
    luck: pd.DataFrame  # one row per chance event of a reviewed seat
    summary: pd.DataFrame  # one row per team
    result: dict[int, int]  # hand result per team
    prior: dict[int, tuple[float, float]]  # expected result at the deal per team (mean, half)
    # the evaluator's top actions per decision (action index -> reports.review_view.top_actions)
    top: dict[int, list[dict]] = field(default_factory=dict)
    walk: pd.DataFrame = field(default_factory=pd.DataFrame)  # the best-action player's walk
    walk_result: dict[int, int] = field(default_factory=dict)  # its hand result, per walk team
    walk_actions: dict[int, list[int]] = field(default_factory=dict)
    accounting: Accounting | None = None  # the hand's accounting (reports.accounting)
    world_model: str = "uniform"

    def to_json(self) -> dict:
        def rows(df: pd.DataFrame) -> list[dict]:
            return [{k: _plain(v) for k, v in r.items()} for r in df.to_dict("records")]

        rec = self.record
        out = {
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
            "worlds": self.world_model,
            "thresholds": [{"points": t, "mark": m, "name": n} for t, m, n in MARKS],
            "result": {str(t): v for t, v in self.result.items()},
            "summary": rows(self.summary),
            "decisions": rows(self.decisions),
            "luck": rows(self.luck),
            "walk": rows(self.walk),
            "walk_result": {str(t): v for t, v in self.walk_result.items()},
            "views": self.views(),
        }
        if self.accounting is not None:
            acct = self.accounting
            out["accounting"] = {
                "rollouts": acct.rollouts,
                "summary": rows(acct.summary),
                "terms": rows(acct.terms),
            }
        return out

    def views(self) -> list[dict]:
        """What the seat saw at each decision (reports.review_view.decision_views)."""
        from reports.review_view import decision_views

        return decision_views(self)


def _plain(v):
    if isinstance(v, (np.integer,)):
        return int(v)
    if isinstance(v, (np.bool_, bool)):
        return bool(v)
    if isinstance(v, (np.floating, float)):
        return None if not math.isfinite(float(v)) else round(float(v), 3)
    return v


DECISION_COLUMNS = [
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
    "choice",
    "vs_choice",
    "vs_choice_low",
    "vs_choice_high",
    "selection_lost",
]


def review(
    rec: HandRecord,
    seats: Sequence[int] | None,
    evaluator: Evaluator,
    strategy: str = BASELINE,
    rollouts: int = 200,
    seed: int = 0,
    prior_hands: int | None = None,
    progress: bool = False,
    walk: bool = True,
    accounting: bool = True,
    world_model: str = "uniform",
) -> Review:
    """Review the decisions of the table ``seats`` (None: every seat) of ``rec``: each judged by
    `reports.review_judge.judge` (best from one set of rollouts, every figure from fresh ones),
    the best-action player's walk per team (``walk``: its summed gains are the team's skill
    lost), and the hand's accounting (``accounting``: ``prior_hands`` rollouts per estimate,
    default ``rollouts``).  ``world_model``: how the evaluator deals worlds (a label)."""
    from reports.accounting import account
    from reports.review_judge import judge, point_seed
    from reports.review_judge import walk as best_walk

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

    rows, cache = [], {}
    tops: dict[int, list[dict]] = {}  # the page's top actions per decision (review_view)
    bar = new_bar(len(pts), "decision", progress)
    for p in pts:
        choice = strategy_choice(p.state, strategy, seed, p.index)
        v = judge(
            evaluator, p.state, p.legal, p.played, choice, rollouts, point_seed(seed, p.index)
        )
        cache[p.index] = v
        tops[p.index] = top_actions(p.state, v.selection, p.played)
        rows.append(_decision_row(p, v, choice))
        bar.update(1)
    bar.close()
    dec = pd.DataFrame(
        rows,
        columns=DECISION_COLUMNS + (list(P_WIN_COLS) if rows and "p_win" in rows[0] else []),
    )
    reviewed = sorted({p.table_seat for p in pts}) if seats is None else sorted(seats)
    teams = sorted({int(t) for t in dec["team"]}) if len(dec) else []
    walks, walk_result, walk_actions = [], {}, {}
    if walk:
        for t in teams:
            mine = {int(s) for s in dec.loc[dec["team"] == t, "seat"]}
            wbar = new_bar(None, "walk decision", progress)
            w, acts, end = best_walk(rec, t, mine, evaluator, strategy, rollouts, seed, cache, wbar)
            wbar.close()
            walks.append(w)
            walk_result[t] = team_result(end, t)
            walk_actions[t] = acts
    from reports.review_judge import WALK_COLUMNS

    wdf = pd.concat(walks, ignore_index=True) if walks else pd.DataFrame(columns=WALK_COLUMNS)
    acct = None
    if accounting:
        acct = account(rec, strategy, prior_hands or rollouts, seed + 11, shown_seats=reviewed)
    on_cards = {}
    if acct is not None and walk:
        for t in teams:
            w_acct = account(rec, strategy, acct.rollouts, seed + 11, walk_actions[t], reviewed)
            on_cards[t] = _on_cards(acct, w_acct, t, set(reviewed))
    luck = _luck(dec, rec, acct)
    prior = {}
    if acct is not None:
        for r in acct.summary.itertuples():
            prior[int(r.team)] = (float(r.expected), (r.expected_high - r.expected_low) / 2)
    summary = _summary(dec, wdf, acct, teams, result, walk, on_cards)
    return Review(
        rec,
        reviewed,
        strategy,
        rollouts,
        dec,
        luck,
        summary,
        result,
        prior,
        tops,
        wdf,
        walk_result,
        walk_actions,
        acct,
        world_model,
    )


def _decision_row(p: Point, v, choice: int) -> dict:
    played = v.rows[p.played]
    vs = v.rows[choice]
    single = len(p.legal) <= 1
    row = {
        "index": p.index,
        "turn": p.turn + 1,
        "seat": p.table_seat,
        "team": p.team,
        "phase": p.state.phase,
        "legal": len(p.legal),
        "played": p.state.text(p.played),
        "best": p.state.text(v.best),
        "lost": v.lost[0],
        "lost_low": v.lost[1],
        "lost_high": v.lost[2],
        "mark": "" if single else mark_for(v.lost[0], v.lost[1]),
        "value": float(vs["mean"]),
        "value_half": float(vs["ci_high"] - vs["ci_low"]) / 2,
        "played_value": float(played["mean"]),
        "played_half": float(played["ci_high"] - played["ci_low"]) / 2,
        "draw": p.played == Act.DRAW,
        "choice": p.state.text(choice),
        "vs_choice": v.vs_choice[0],
        "vs_choice_low": v.vs_choice[1],
        "vs_choice_high": v.vs_choice[2],
        "selection_lost": v.selection_gap if v.best != p.played else 0.0,
    }
    if "p_win" in played.index:
        row.update(
            {
                "p_win": float(played["p_win"]),
                "p_win_low": float(played["p_win_low"]),
                "p_win_high": float(played["p_win_high"]),
                "p_lost": v.p_lost[0],
                "p_lost_low": v.p_lost[1],
                "p_lost_high": v.p_lost[2],
            }
        )
    return row


P_WIN_COLS = ("p_win", "p_win_low", "p_win_high", "p_lost", "p_lost_low", "p_lost_high")
LUCK_COLUMNS = [
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
    "before_half",
    "after_half",
]


def _luck(dec: pd.DataFrame, rec: HandRecord, acct) -> pd.DataFrame:
    """The chance events each reviewed seat saw, from the accounting (its team's equity): the
    deal, the upcard, the dealt red threes' replacements, and its own draws."""
    rows: list[dict] = []
    if acct is None or not len(dec):
        return pd.DataFrame(rows, columns=LUCK_COLUMNS)
    terms = acct.terms
    for seat, d in dec.groupby("seat", sort=True):
        team = int(d["team"].iloc[0])
        mine = terms[(terms["team"] == team) & (terms["event"] != "decision")]
        mine = mine[(mine["seat"] == -1) | (mine["seat"] == seat)]
        for r in mine.itertuples():
            first = int(d["index"].min())
            rows.append(
                {
                    "index": int(r.index),
                    "turn": int(r.turn),
                    "seat": int(seat),
                    "team": team,
                    "event": r.event,
                    "cards": r.cards or ("the hands" if r.event == "deal" else ""),
                    "before": float(r.before),
                    "after": float(r.after),
                    "luck": float(r.value),
                    "half": float(r.high - r.low) / 2,
                    "at_index": int(r.index) + 1 if r.event == "draw" else first,
                    "before_half": float(r.before_half),
                    "after_half": float(r.after_half),
                }
            )
    return pd.DataFrame(rows, columns=LUCK_COLUMNS)


def _on_cards(acct: Accounting, w_acct: Accounting, team: int, seats: set[int]):
    """The walk's gain over the hand measured on the actual cards: the walk's decisions of the
    team's reviewed seats against S's choice minus the hand's (the accounting's decision terms,
    paired by rollout index) -- the realized gain of the best-action player less the luck of
    the two hands' chance events.  (mean, 95% half-width)."""

    def pick(e):
        return e["event"] == "decision" and e["mover_team"] == team and e["seat"] in seats

    x = w_acct.per_rollout(team, pick) - acct.per_rollout(team, pick)
    if not x.any():
        return 0.0, 0.0
    ci = mean_ci(x)
    return ci.mean, ci.half_width


def _half_sum(low, high) -> float:
    """95% half-width of a sum of independent terms with these 95% intervals."""
    h = (np.asarray(high, float) - np.asarray(low, float)) / 2
    return float(math.sqrt(float((h**2).sum())))


SUMMARY_COLUMNS = [
    "team",
    "seats",
    "decisions",
    "doubtful",
    "mistakes",
    "blunders",
    "skill_lost",
    "skill_half",
    "skill_basis",
    "skill_known",
    "skill_known_half",
    "walk_gain",
    "walk_gain_half",
    "vs_choice",
    "vs_choice_half",
    "path_lost",
    "path_half",
    "expected",
    "expected_half",
    "luck",
    "luck_half",
    "own_play",
    "own_play_half",
    "others_play",
    "others_play_half",
    "result",
]


def _summary(dec, wdf, acct, teams, result, walked: bool = True, on_cards=None) -> pd.DataFrame:
    rows = []
    for t in teams:
        d = dec[dec["team"] == t]
        w = wdf[wdf["walk_team"] == t] if len(wdf) else wdf
        walk_gain = float(w["gain"].sum()) if walked else math.nan
        walk_half = _half_sum(w["gain_low"], w["gain_high"]) if walked else math.nan
        vs, vs_half = (
            float(d["vs_choice"].sum()),
            _half_sum(d["vs_choice_low"], d["vs_choice_high"]),
        )
        row = {
            "team": t,
            "seats": ",".join(str(s) for s in sorted(d["seat"].unique())),
            "decisions": int((d["legal"] > 1).sum()),
            "doubtful": int((d["mark"] == "?!").sum()),
            "mistakes": int((d["mark"] == "?").sum()),
            "blunders": int((d["mark"] == "??").sum()),
            "skill_lost": walk_gain + vs,
            "skill_half": math.hypot(walk_half, vs_half),
            "skill_basis": "known",
            "skill_known": walk_gain + vs,
            "skill_known_half": math.hypot(walk_half, vs_half),
            "walk_gain": walk_gain,
            "walk_gain_half": walk_half,
            "vs_choice": vs,
            "vs_choice_half": vs_half,
            "path_lost": float(d["lost"].sum()),
            "path_half": _half_sum(d["lost_low"], d["lost_high"]),
            "result": result[t],
        }
        for name in ("expected", "luck", "own_play", "others_play"):
            row[name] = row[name + "_half"] = math.nan
        if acct is not None:
            a = acct.summary.set_index("team").loc[t]
            for name in ("expected", "luck", "own_play", "others_play"):
                row[name] = float(a[name])
                row[name + "_half"] = float(a[name + "_high"] - a[name + "_low"]) / 2
        if on_cards and t in on_cards:  # measured on the actual cards: what play realizes
            row["skill_lost"], row["skill_half"] = on_cards[t]
            row["skill_basis"] = "cards"
        if "p_lost" in d.columns:  # the same decisions, in points of percent of P(win the game)
            row["p_win_lost"] = float(d["p_lost"].sum())
            row["p_win_lost_half"] = _half_sum(d["p_lost_low"], d["p_lost_high"])
        rows.append(row)
    extra = ["p_win_lost", "p_win_lost_half"] if "p_lost" in dec.columns else []
    return pd.DataFrame(rows, columns=SUMMARY_COLUMNS + extra)


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
