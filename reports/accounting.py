"""The accounting of a hand: its result, per team, as a sum of terms that adds up exactly.

    from reports.accounting import account
    acct = account(rec, "expert", rollouts=1000, seed=0)
    acct.terms      # one row per event and team
    acct.summary    # per team: expected + luck + own play + others' play = result

The equity of a team at a point of the hand is its expected hand result (its score minus the
best opposing team's) given every card's place at that point -- every hand, the melds, the pile
-- with the stock in a random order (which is what it is, given the rest: the deck was shuffled
uniformly), every seat continuing with the continuation strategy S from its own observation
(`sim.play.rollouts.state_values`).  Before the deal it is the mean over random deals with the
hand's dealer and scores; after the hand's last event it is the result.  Every event of the hand
moves it, and the terms are the moves:

- ``deal``: the hands are dealt (the upcard and the stock still unseen);
- ``upcard``: the upcard is turned (with the wild cards and red threes it covered);
- ``red threes``: the dealt red threes are laid and replaced from the stock (when any were dealt);
- ``decision``: a seat's action, measured against the action S would choose there: equity
  after the action minus equity before it (the value of S's choice).  0 exactly when the seat
  played S's choice (S decides from the observation alone, without randomness);
- ``draw``: the cards a draw from the stock brought (red threes laid and replaced included):
  equity after the draw minus the value of drawing, the mean over the cards it could bring.

Each chance term has mean zero over the event's outcomes, whatever S is; the decision terms are
the seat's play against S on the actual cards -- including cards the seat could not see, which a
review's per-decision figures (from the seat's own knowledge) leave out.  Per team: result =
expected + sum of chance terms (luck) + the team's decisions (own play) + the other teams'
decisions (others' play), exactly: the sum telescopes.

Every estimate plays the same rollout indices 0 .. n-1 with the same seed, so estimate values are
paired by rollout index; a term or a sum of terms is a difference of estimates, and its 95%
interval is a t interval over rollout indices of the per-rollout differences.  The result is
exact; the expected result's interval covers the whole sum's uncertainty.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from reports.stats import mean_ci
from sim.core.enums import MAX_SEATS, MAX_TEAMS, Act, Off, Par
from strategies import BASELINE

__all__ = ["Accounting", "account", "TERM_EVENTS", "team_results", "deterministic"]

TERM_EVENTS = ("deal", "upcard", "red threes", "decision", "draw")
CHANCE = ("deal", "upcard", "red threes", "draw")


def team_results(scores: np.ndarray, n_teams: int) -> np.ndarray:
    """Hand scores [n, >= n_teams] -> each team's result [n, n_teams]: its score minus the best
    opposing team's (the score itself with one team)."""
    s = np.asarray(scores, np.float64)[:, :n_teams]
    if n_teams == 1:
        return s.copy()
    out = np.empty_like(s)
    for t in range(n_teams):
        out[:, t] = s[:, t] - np.delete(s, t, axis=1).max(axis=1)
    return out


def deterministic(spec: str) -> bool:
    """Does strategy ``spec`` decide without its random stream (the same action for the same
    observation)?  Every built-in strategy does except random."""
    return spec.split(":", 1)[0].strip() != "random"


class _Valuer:
    """Estimates of the teams' equity, all on rollout indices 0 .. n-1 of one seed."""

    def __init__(self, rules, params, strategy: str, n: int, seed: int, n_teams: int):
        from strategies.registry import MAX_KNOBS, parse_spec

        self.params, self.n, self.seed, self.n_teams = params, n, seed, n_teams
        self.ids = np.zeros(MAX_SEATS, np.int64)
        self.knobs = np.zeros((MAX_SEATS, MAX_KNOBS))
        sid, k = parse_spec(strategy, rules.label)
        self.ids[:], self.knobs[:] = sid, k
        self.cols: list[np.ndarray] = []

    def _add(self, scores: np.ndarray) -> int:
        self.cols.append(team_results(scores, self.n_teams))
        return len(self.cols) - 1

    def state(self, state: np.ndarray, first: int = -1) -> int:
        from sim.play.rollouts.state_values import state_values

        out = state_values(state, self.params, self.ids, self.knobs, first, self.seed, self.n)
        return self._add(out)

    def deal(self, deck: np.ndarray, fixed: int, dealer: int, cum: np.ndarray) -> int:
        from sim.play.rollouts.state_values import deal_values

        out = deal_values(
            deck, fixed, self.params, dealer, cum, self.ids, self.knobs, self.seed, self.n
        )
        return self._add(out)

    def exact(self, result: list[int]) -> int:
        self.cols.append(np.tile(np.asarray(result, np.float64), (self.n, 1)))
        return len(self.cols) - 1


@dataclass
class Accounting:
    """The terms of a hand (see the module docstring)."""

    strategy: str
    rollouts: int
    terms: pd.DataFrame  # one row per event and team
    summary: pd.DataFrame  # one row per team
    cols: list[np.ndarray]  # per-rollout team values of every estimate [n, n_teams]
    events: list[dict]  # the events with the ids of the estimates before and after

    def per_rollout(self, team: int, pick) -> np.ndarray:
        """The sum of the terms of ``team``'s events for which ``pick(event)`` holds, per rollout
        index (float64[rollouts]; accountings with the same seed and rollouts are paired)."""
        x = np.zeros(self.rollouts)
        for e in self.events:
            if pick(e) and e["after"] != e["before"]:
                x += self.cols[e["after"]][:, team] - self.cols[e["before"]][:, team]
        return x

    def sum_ci(self, team: int, pick) -> tuple[float, float, float]:
        """Mean and 95% interval of the sum of the terms of ``team``'s events for which
        ``pick(event)`` holds (a t interval over rollout indices)."""
        x = self.per_rollout(team, pick)
        if not x.any():
            return 0.0, 0.0, 0.0
        ci = mean_ci(x)
        return ci.mean, ci.low, ci.high


def _drawn(gs, seat: int, before: np.ndarray, red3_before: int) -> str:
    from sim.core.cards import kind_name

    got = np.maximum(gs.hand_counts(seat) - before, 0)
    cards = [kind_name(k) for k in range(len(got)) for _ in range(int(got[k]))]
    cards += ["R3"] * (gs.red_threes(int(gs.state[Off.TEAM_OF_SEAT + seat])) - red3_before)
    return " ".join(cards) or "-"


def account(
    rec,
    strategy: str = BASELINE,
    rollouts: int = 1000,
    seed: int = 0,
    actions: list[int] | None = None,
    shown_seats: list[int] | None = None,
) -> Accounting:
    """The accounting of the hand ``rec`` (reports.review.HandRecord), or of the same deal played
    with ``actions`` instead of the record's.  ``rollouts`` per estimate (>= 2), all with
    ``seed``.  ``shown_seats``: table seats whose drawn cards are named in ``terms`` (None: all)."""
    from reports.review_judge import strategy_choice

    acts = list(rec.actions if actions is None else actions)
    gs = rec.new_state()
    n_teams, n_act = gs.n_teams, gs.n_seats
    val = _Valuer(rec.rules, gs.params, strategy, int(rollouts), int(seed), n_teams)
    det = deterministic(strategy)
    cum = np.zeros(MAX_TEAMS, np.int32)
    cum[: len(rec.cum)] = rec.cum
    dealer = int(gs.state[Off.DEALER])
    dealt = int(gs.params[Par.HAND_SIZE]) * n_act
    events: list[dict] = []

    def event(kind, index, seat, before, after, **kw):
        events.append(
            {
                "event": kind,
                "index": index,
                "turn": kw.pop("turn", 0),
                "seat": seat,
                "mover_team": kw.pop("team", -1),
                "before": before,
                "after": after,
                **kw,
            }
        )

    prior = val.deal(gs.deck, 0, dealer, cum)
    v_deal = val.deal(gs.deck, dealt, dealer, cum)
    event("deal", -3, -1, prior, v_deal, cards="")
    v_up = val.deal(gs.deck, dealt + int(gs.state[Off.PILE_LEN]), dealer, cum)
    event("upcard", -2, -1, v_deal, v_up, cards=" ".join(gs.pile()))
    cur = v_up
    if sum(gs.red_threes(t) for t in range(n_teams)) > 0:
        nxt = val.exact(_result(gs)) if gs.is_over else val.state(gs.state)
        event("red threes", -1, -1, cur, nxt, cards="")
        cur = nxt
    table = gs.seat_table
    for i, a in enumerate(acts):
        if gs.is_over:
            raise ValueError(f"the hand is over after {i} actions, {len(acts)} were given")
        seat = gs.seat
        tseat, team, turn = table[seat], gs.team, int(gs.state[Off.TURN]) + 1
        choice = strategy_choice(gs, strategy, seed, i)
        info = {"turn": turn, "team": team, "action": gs.text(a), "choice": gs.text(choice)}
        same = det and a == choice
        if a == Act.DRAW:
            q = cur if same else val.state(gs.state, Act.DRAW)
            event("decision", i, tseat, cur, q, **info)
            before, red3 = gs.hand_counts(seat), gs.red_threes(team)
            gs.apply(a)
            after = val.exact(_result(gs)) if gs.is_over else val.state(gs.state)
            shown = shown_seats is None or tseat in shown_seats
            event(
                "draw",
                i,
                tseat,
                q,
                after,
                turn=turn,
                team=team,
                cards=_drawn(gs, seat, before, red3) if shown else "",
            )
            cur = after
            continue
        gs.apply(a)
        if same:
            event("decision", i, tseat, cur, cur, **info)
            continue
        after = val.exact(_result(gs)) if gs.is_over else val.state(gs.state)
        event("decision", i, tseat, cur, after, **info)
        cur = after
    if not gs.is_over:
        raise ValueError(f"the hand is not over after its {len(acts)} actions")
    result = _result(gs)
    final = val.exact(result)
    if cur != final:  # S's own moves ended the hand: every rollout agrees with the result
        if not np.allclose(val.cols[cur], val.cols[final]):
            raise RuntimeError("the accounting's last equity differs from the hand's result")
        for e in events:
            e["after"] = final if e["after"] == cur else e["after"]
            e["before"] = final if e["before"] == cur else e["before"]
    terms = _terms(events, val.cols, n_teams)
    acct = Accounting(strategy, int(rollouts), terms, pd.DataFrame(), val.cols, events)
    acct.summary = _summary(acct, prior, result, n_teams)
    return acct


def _result(gs) -> list[int]:
    sc = gs.score_breakdown()["score"]
    return [int(x) for x in team_results(np.array([sc]), gs.n_teams)[0]]


TERM_COLUMNS = [
    "index",
    "turn",
    "seat",
    "mover_team",
    "team",
    "event",
    "action",
    "choice",
    "cards",
    "before",
    "after",
    "value",
    "low",
    "high",
    "before_half",
    "after_half",
]


def _half(x: np.ndarray) -> float:
    """95% half-width of the mean of one estimate's paired rollouts (0 for a constant)."""
    return 0.0 if np.ptp(x) == 0 else float(mean_ci(x).half_width)


def _terms(events: list[dict], cols: list[np.ndarray], n_teams: int) -> pd.DataFrame:
    rows = []
    for e in events:
        for t in range(n_teams):
            b, a = cols[e["before"]][:, t], cols[e["after"]][:, t]
            if e["after"] == e["before"]:
                lo = hi = v = 0.0
            else:
                ci = mean_ci(a - b)
                v, lo, hi = ci.mean, ci.low, ci.high
            rows.append(
                {
                    "index": e["index"],
                    "turn": e["turn"],
                    "seat": e["seat"],
                    "mover_team": e["mover_team"],
                    "team": t,
                    "event": e["event"],
                    "action": e.get("action", ""),
                    "choice": e.get("choice", ""),
                    "cards": e.get("cards", ""),
                    "before": float(b.mean()),
                    "after": float(a.mean()),
                    "value": v,
                    "low": lo,
                    "high": hi,
                    "before_half": _half(b),
                    "after_half": _half(a),
                }
            )
    return pd.DataFrame(rows, columns=TERM_COLUMNS)


SUMMARY_COLUMNS = [
    "team",
    "expected",
    "expected_low",
    "expected_high",
    "luck",
    "luck_low",
    "luck_high",
    "own_play",
    "own_play_low",
    "own_play_high",
    "others_play",
    "others_play_low",
    "others_play_high",
    "result",
]


def _summary(acct: Accounting, prior: int, result: list[int], n_teams: int) -> pd.DataFrame:
    rows = []
    for t in range(n_teams):
        e = mean_ci(acct.cols[prior][:, t])
        luck = acct.sum_ci(t, lambda ev: ev["event"] in CHANCE)
        own = acct.sum_ci(t, lambda ev, t=t: ev["event"] == "decision" and ev["mover_team"] == t)
        oth = acct.sum_ci(t, lambda ev, t=t: ev["event"] == "decision" and ev["mover_team"] != t)
        rows.append(
            {
                "team": t,
                "expected": e.mean,
                "expected_low": e.low,
                "expected_high": e.high,
                "luck": luck[0],
                "luck_low": luck[1],
                "luck_high": luck[2],
                "own_play": own[0],
                "own_play_low": own[1],
                "own_play_high": own[2],
                "others_play": oth[0],
                "others_play_low": oth[1],
                "others_play_high": oth[2],
                "result": result[t],
            }
        )
    return pd.DataFrame(rows, columns=SUMMARY_COLUMNS)
