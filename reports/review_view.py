"""What a reviewed seat saw at each of its decisions, for the review page and ``--json``
(``views``): its hand, both teams' melds and red threes, the pile, the stock and hand sizes,
what the other seats did since its previous decision, and the evaluator's top actions.

Everything here is what the deciding seat could see (its own hand and the table); the other
seats' draws are shown as ``draw``, never with the card drawn.

    from reports.review_view import decision_views
    views = decision_views(rv)      # rv: reports.review.Review; one dict per decision row
"""

from __future__ import annotations

import math

import pandas as pd

from sim.core.actions import sequence_text
from sim.core.cards import kind_name
from sim.core.enums import FIRST_NATURAL, LAST_NATURAL, N_KINDS, N_SUITED, Act, Kind, Off, Par
from sim.play.game import GameState

__all__ = ["TOP", "top_actions", "decision_views", "meld_items", "hand_cards"]

TOP = 5  # actions shown per decision (the played one is added when it is not among them)
SUITS = "CDHS"
# hand order: jokers, twos, aces down to fours, then threes (as canasta play prints hands)
_ORDER = [Kind.JOKER, Kind.TWO] + list(range(LAST_NATURAL, FIRST_NATURAL - 1, -1))
_ORDER += [Kind.BLACK3, Kind.RED3]


def _f(v) -> float | None:
    v = float(v)
    return round(v, 1) if math.isfinite(v) else None


def top_actions(gs: GameState, ev: pd.DataFrame, played: int, k: int = TOP) -> list[dict]:
    """The evaluator's ``k`` best actions at ``gs`` (best first, as `canasta analyze` lists
    them: the team's mean hand result with its 95% CI, the paired difference to the best with
    its CI), and the played action after them when it is not among them."""
    ids = [int(a) for a in ev.index]
    shown = ids[:k] + ([played] if played not in ids[:k] and played in ids else [])
    out = []
    for rank, a in enumerate(ids):
        if a not in shown:
            continue
        r = ev.loc[a]
        out.append(
            {
                "rank": rank + 1,
                "action": gs.text(a),
                "mean": _f(r["mean"]),
                "ci_low": _f(r["ci_low"]),
                "ci_high": _f(r["ci_high"]),
                "diff": _f(r["diff_to_best"]),
                "diff_low": _f(r["diff_ci_low"]),
                "diff_high": _f(r["diff_ci_high"]),
                "played": a == played,
            }
        )
    return out


def hand_cards(gs: GameState, seat: int) -> list[str]:
    """The seat's hand, high to low (with suits under Samba rules)."""
    st = gs.state
    counts = st[Off.HANDS + seat * N_KINDS : Off.HANDS + (seat + 1) * N_KINDS]
    suited = bool(gs.params[Par.SEQUENCES])
    out = []
    for k in _ORDER:
        n = int(counts[k])
        if suited and FIRST_NATURAL <= k <= LAST_NATURAL:
            base = Off.HAND_SUITS + seat * N_SUITED
            for s in range(4):
                out += [kind_name(k) + SUITS[s]] * int(st[base + s * 11 + k - FIRST_NATURAL])
        else:
            out += ["R3" if k == Kind.RED3 else kind_name(k)] * n
    return out


def meld_items(gs: GameState, team: int) -> list[dict]:
    """The team's melds: {"cards": text, "size", "canasta": "natural" | "mixed" | ""}."""
    size_c = gs.rules.canasta_size
    out = []
    for rank, (n, t, j) in gs.melds(team).items():
        size = n + t + j
        cards = [rank] * n + ["2"] * t + ["JK"] * j
        text = " ".join(cards) if size <= 8 else f"{rank}×{n}" + " 2" * t + " JK" * j
        canasta = "" if size < size_c or rank == "3" else ("natural" if t + j == 0 else "mixed")
        out.append({"cards": text, "size": size, "canasta": canasta})
    st = gs.state
    for k in range(N_KINDS):
        closed = int(st[Off.CLOSED_COUNT + team * N_KINDS + k])
        for _ in range(closed):
            out.append(
                {"cards": f"{kind_name(k)} canasta (closed)", "size": size_c, "canasta": "closed"}
            )
    for suit, low, length in gs.sequences(team).values():
        out.append(
            {
                "cards": sequence_text(suit, low, length),
                "size": length,
                "canasta": "samba" if length >= size_c else "",
            }
        )
    return out


def _snapshot(gs: GameState, since: list[dict]) -> dict:
    seat = gs.seat
    st = gs.state
    top = gs.pile_top
    return {
        "hand": hand_cards(gs, seat),
        "melds": {str(t): meld_items(gs, t) for t in range(gs.n_teams)},
        "red_threes": {str(t): gs.red_threes(t) for t in range(gs.n_teams)},
        "opened": {str(t): gs.team_opened(t) for t in range(gs.n_teams)},
        "pile": {
            "size": int(st[Off.PILE_LEN]),
            "top": kind_name(top) if top >= 0 else None,
            "frozen": gs.pile_frozen,
        },
        "stock": gs.stock_size,
        "hand_sizes": {
            str(gs.seat_table[s]): int(st[Off.HAND_SIZE + s]) for s in range(gs.n_seats)
        },
        "since": since,
    }


def decision_views(rv) -> list[dict]:
    """One dict per row of ``rv.decisions`` (same order): the snapshot above, ``top`` (the
    evaluator's top actions, `top_actions`, when the review kept them) and the row's index."""
    rec = rv.record
    wanted = set(int(i) for i in rv.decisions["index"])
    gs = rec.new_state()
    gs.tracks_knowledge = False  # a public replay: no seat's knowledge is needed
    last_seen: dict[int, int] = {}  # table seat -> index of its previous decision
    log: list[tuple[int, int, str]] = []  # (index, table seat, text) of every action
    views: dict[int, dict] = {}
    for i, a in enumerate(rec.actions):
        seat = gs.seat_table[gs.seat]
        if i in wanted:
            start = last_seen.get(seat, -1)
            since = [{"seat": s, "action": t} for j, s, t in log if j > start and s != seat]
            views[i] = _snapshot(gs, since) | {"index": i, "top": rv.top.get(i, [])}
            last_seen[seat] = i
        text = gs.text(a)
        before = int(gs.state[Off.PILE_LEN])
        took = Act.TAKE_PAIR <= a <= Act.TAKE_ONTO or a >= Act.TAKE_SEQ
        gs.apply(int(a))
        if took:
            text += f" ({before} cards)"
        log.append((i, seat, text))
    return [views[int(i)] for i in rv.decisions["index"]]
