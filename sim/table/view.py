"""The JSON each seat receives, built only from what that seat may see.

`seat_view` reads the seat's observation (`GameState.observation`: the public part of the state
and the seat's own hand, exactly what a strategy gets), the seat's knowledge (the cards every
player knows to be in a hand because it took them with the pile; its own cards held aside), the
hand's public history (the action texts) and the cards the seat's own draws brought.  It never
reads the full state while the hand runs: the other hands, the stock and the order of the pile
do not reach a seat's page.  Once a hand is over every hand is shown (`reveal`), and the replay
(`replay_frames`) shows every hand at every step.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sim.core.actions import sequence_text
from sim.core.cards import kind_name
from sim.core.enums import MAX_SEQS, N_KINDS, N_SUITED, Kind, Off, Phase
from sim.play.game import GameState
from sim.play.worlds.knowledge import Know

__all__ = ["seat_view", "replay_frames", "full_view", "DISPLAY", "cards_of"]

# jokers and twos first, then A K Q ... 4, black threes last (a hand grouped by rank)
DISPLAY = (13, 0, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1)
SUITS = "CDHS"
WILD = (Kind.TWO, Kind.JOKER)


def cards_of(counts: np.ndarray, suits: np.ndarray | None = None) -> list[dict[str, Any]]:
    """Cards of a count vector as [{rank, cards: [label, ...]}] in display order; with
    ``suits`` (int[44], Samba) natural cards carry their suit letters."""
    groups = []
    for k in DISPLAY:
        n = int(counts[k])
        if not n:
            continue
        name = kind_name(k)
        labels = [name] * n
        if suits is not None and 2 <= k <= 12:
            labels = [
                f"{name}{SUITS[s]}" for s in range(4) for _ in range(int(suits[s * 11 + (k - 2)]))
            ] or labels
        groups.append({"rank": name, "wild": k in WILD, "cards": labels})
    return groups


def _melds(obs: np.ndarray, team: int, rules) -> dict[str, Any]:
    size = int(rules.canasta_size)
    melds = []
    for k in DISPLAY:
        i = team * N_KINDS + k
        nat, two, jk = (int(obs[o + i]) for o in (Off.MELD_NAT, Off.MELD_TWO, Off.MELD_JOKER))
        if nat + two + jk:
            n = nat + two + jk
            kind = None if n < size else ("natural" if two + jk == 0 else "mixed")
            melds.append(
                {
                    "rank": kind_name(k),
                    "naturals": nat,
                    "twos": two,
                    "jokers": jk,
                    "size": n,
                    "canasta": kind,
                }
            )
    closed = []
    for k in DISPLAY:
        c = int(obs[Off.CLOSED_COUNT + team * N_KINDS + k])
        if c:
            closed.append({"rank": kind_name(k), "count": c})
    seqs = []
    for q in range(MAX_SEQS):
        j = team * MAX_SEQS + q
        length = int(obs[Off.SEQ_LEN + j])
        if length:
            suit, low = int(obs[Off.SEQ_SUIT + j]), int(obs[Off.SEQ_LOW + j])
            seqs.append(
                {
                    "slot": q,
                    "text": sequence_text(suit, low, length),
                    "size": length,
                    "samba": length >= size,
                }
            )
    return {"melds": melds, "closed": closed, "sequences": seqs}


def _public_obs(gs: GameState) -> np.ndarray:
    """The public part alone (for a table seat that sits this hand out)."""
    obs = gs.observation(0)
    obs[Off.PUB_SIZE :] = 0
    return obs


def seat_view(table, seat: int) -> dict[str, Any]:
    """What table ``seat`` sees of ``table`` (a `sim.table.model.Table`), as a JSON object.
    The caller holds the table's lock."""
    gs: GameState = table.gs
    rules = table.rules
    active = table.active_seat(seat)
    running = not gs.is_over
    if active is not None:
        obs = gs.observation(active)
        know = gs.knowledge(active)
    else:
        obs, know = _public_obs(gs), None
    n, nt = int(obs[Off.N_SEATS]), int(obs[Off.N_TEAMS])
    samba = bool(rules.sequences)
    seat_table = list(gs.seat_table)
    to_act = seat_table[int(obs[Off.SEAT])] if running else None
    dealer = seat_table[int(obs[Off.DEALER])]
    seats = []
    for t, spec in enumerate(table.settings.seats):
        a = seat_table.index(t) if t in seat_table else None
        known: list[dict[str, Any]] = []
        if a is not None and know is not None and a != active:
            row = know[Know.KNOWN + a * N_KINDS : Know.KNOWN + (a + 1) * N_KINDS]
            known = cards_of(row)
        seats.append(
            {
                "seat": t,
                "name": table.settings.names[t] if t < len(table.settings.names) else f"seat {t}",
                "player": "you" if t == seat else ("human" if spec == "human" else spec),
                "team": int(obs[Off.TEAM_OF_SEAT + a]) if a is not None else None,
                "cards": int(obs[Off.HAND_SIZE + a]) if a is not None else None,
                "melded": bool(obs[Off.SEAT_MELDED + a]) if a is not None else False,
                "to_act": t == to_act,
                "dealer": t == dealer,
                "known": known,
            }
        )
    teams = []
    for team in range(nt):
        teams.append(
            {
                "team": team,
                "seats": [
                    seat_table[a] for a in range(n) if int(obs[Off.TEAM_OF_SEAT + a]) == team
                ],
                "score": int(obs[Off.CUM_SCORE + team]),
                "minimum": int(obs[Off.TEAM_MIN + team]),
                "opened": bool(obs[Off.TEAM_OPENED + team]),
                "red3": int(obs[Off.TEAM_RED3 + team]),
                **_melds(obs, team, rules),
            }
        )
    mine = None
    if active is not None:
        counts = obs[Off.HANDS : Off.HANDS + N_KINDS]
        suits = obs[Off.HAND_SUITS : Off.HAND_SUITS + N_SUITED] if samba else None
        mine = {
            "team": int(obs[Off.TEAM_OF_SEAT + active]),
            "cards": cards_of(counts, suits),
            "count": int(counts.sum()),
            "aside": cards_of(know[Know.ASIDE : Know.ASIDE + N_KINDS])
            if know is not None and int(obs[Off.ASIDE_LEN])
            else [],
        }
    top = int(obs[Off.PILE_TOP])
    top_suit = int(obs[Off.PILE_TOP_SUIT]) if samba else -1
    drawn = table.drawn.get(table.hand.index, {})
    log = []
    for i, step in enumerate(gs.history):
        item: dict[str, Any] = {"i": i, "seat": seat_table[step.seat], "text": step.text}
        if seat_table[step.seat] == seat and i in drawn:
            item["drew"] = drawn[i]
        log.append(item)
    phase = int(obs[Off.PHASE])
    view: dict[str, Any] = {
        "version": table.version,
        "table": table.id,
        "you": seat,
        "in_hand": active is not None,
        "settings": _settings_view(table),
        "hand": {
            "index": table.hand.index,
            "turn": int(obs[Off.TURN]) + 1,
            "phase": ("draw", "meld", "over")[phase],
            "to_act": to_act,
            "stock": int(obs[Off.STOCK_LEN]),
            "pile": {
                "size": int(obs[Off.PILE_LEN]),
                "top": kind_name(top) + (SUITS[top_suit] if top_suit >= 0 else "")
                if top >= 0
                else None,
                "frozen": int(obs[Off.PILE_FREEZE]) > 0,
            },
            "took_pile": bool(obs[Off.TOOK_PILE]) if phase == Phase.MELD else False,
            "pending": int(obs[Off.PENDING_VALUE]) if phase == Phase.MELD else 0,
        },
        "seats": seats,
        "teams": teams,
        "mine": mine,
        "legal": [],
        "log": log,
        "games": _scores_view(table),
    }
    if running and to_act == seat and active is not None:
        view["legal"] = [{"id": a, "text": gs.text(a)} for a in gs.legal_actions()]
    if not running:
        view["end"] = _end_view(gs, table)
    return view


def _settings_view(table) -> dict[str, Any]:
    s = table.settings
    return {
        "rules": table.rules.label,
        "preset": s.rules,
        "sets": s.sets,
        "mode": s.mode,
        "practice": s.practice,
        "tutor": s.tutor,
        "tutor_threshold": s.tutor_threshold,
        "seed": s.seed if table.game_over else None,  # the seed deals every card
        "target": int(table.rules.game_target),
        "canasta_size": int(table.rules.canasta_size),
        "humans": s.humans,
        "imported": table.imported,
    }


def _scores_view(table) -> dict[str, Any]:
    """The scores of the hands so far (public), the totals, and whether the game is over."""
    return {
        "hands": [{"index": h.index, "before": h.cum, "score": h.result} for h in table.hands],
        "totals": table.totals(),
        "over": table.game_over,
        "hand_over": table.hand_over,
    }


def _end_view(gs: GameState, table) -> dict[str, Any]:
    """Once the hand is over: how it ended, the score parts and every hand (revealed)."""
    parts = gs.score_breakdown()
    went = int(gs.state[Off.WENT_OUT_SEAT])
    return {
        "reason": gs.end_reason,
        "went_out": gs.seat_table[went] if went >= 0 else None,
        "concealed": bool(gs.state[Off.CONCEALED]),
        "score": parts,
        "hands": full_view(gs)["hands"],
    }


def full_view(gs: GameState) -> dict[str, Any]:
    """Everything on the table, every hand included (the replay; never during a running hand)."""
    samba = bool(gs.rules.sequences)
    n, nt = gs.n_seats, gs.n_teams
    st = gs.state
    hands = []
    for a in range(n):
        suits = st[Off.HAND_SUITS + a * N_SUITED : Off.HAND_SUITS + (a + 1) * N_SUITED]
        hands.append(
            {
                "seat": gs.seat_table[a],
                "cards": cards_of(gs.hand_counts(a), suits if samba else None),
                "count": int(gs.hand_counts(a).sum()),
            }
        )
    top = gs.pile_top
    return {
        "hands": hands,
        "teams": [
            {
                "team": t,
                "red3": gs.red_threes(t),
                "opened": gs.team_opened(t),
                **_melds(st, t, gs.rules),
            }
            for t in range(nt)
        ],
        "pile": {
            "size": int(st[Off.PILE_LEN]),
            "top": kind_name(top) if top >= 0 else None,
            "frozen": gs.pile_frozen,
        },
        "stock": gs.stock_size,
        "to_act": gs.seat_table[gs.seat] if not gs.is_over else None,
    }


def replay_frames(table, hand_index: int) -> dict[str, Any]:
    """Every step of a finished hand with every hand shown: frame 0 is the deal, frame i the
    table after action i."""
    hand = table.hands[hand_index]
    gs = hand.new_state(table.rules)
    frames = [{"i": 0, "seat": None, "text": "the deal", **full_view(gs)}]
    for i, a in enumerate(hand.actions):
        seat = gs.seat_table[gs.seat]
        text = gs.text(a)
        gs.apply(a)
        frames.append({"i": i + 1, "seat": seat, "text": text, **full_view(gs)})
    return {
        "hand": hand_index,
        "names": table.settings.names,
        "frames": frames,
        "score": gs.score_breakdown() if gs.is_over else None,
    }
