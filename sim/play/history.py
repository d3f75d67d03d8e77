"""A readable hand history: the deal, every action (with the cards drawn or taken), melds,
pile state, and the score breakdown."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from sim.core.actions import sequence_text
from sim.core.cards import kind_name
from sim.core.enums import N_KINDS, Act, Off
from sim.play.game import GameState


def _cards(counts: np.ndarray) -> str:
    order = [13, 0, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 14]
    return " ".join(kind_name(k) for k in order for _ in range(int(counts[k]))) or "-"


def _melds_text(gs: GameState, team: int) -> str:
    parts = []
    for rank, (n, t, j) in gs.melds(team).items():
        size = n + t + j
        tag = ""
        if size >= gs.rules.canasta_size and rank != "3":
            tag = "*natural canasta*" if t + j == 0 else "*mixed canasta*"
        parts.append(
            f"{rank}s x{n}"
            + (f"+{t}x2" if t else "")
            + (f"+{j}xJK" if j else "")
            + (f" {tag}" if tag else "")
        )
    for k in range(15):
        closed = int(gs.state[Off.CLOSED_COUNT + team * N_KINDS + k])
        if closed:
            parts.append(f"{kind_name(k)}s: {closed} closed canasta(s)")
    for suit, low, length in gs.sequences(team).values():
        parts.append(
            f"sequence {sequence_text(suit, low, length)}"
            + (" *samba*" if length >= gs.rules.canasta_size else "")
        )
    return ", ".join(parts) or "no melds"


def format_history(
    make_state: Callable[[], GameState], actions: list[int], strategies: list[str] | None = None
) -> str:
    """Replay `actions` on a fresh state from `make_state()` and describe every step."""
    gs = make_state()
    lines: list[str] = []
    r = gs.rules
    seat_name = [
        f"seat {t} (team {gs.state[Off.TEAM_OF_SEAT + s]})" for s, t in enumerate(gs.seat_table)
    ]
    if strategies:
        seat_name = [f"{n}, {strategies[gs.seat_table[s]]}" for s, n in enumerate(seat_name)]
    lines.append(
        f"rules {r.label}; dealer: seat {gs.seat_table[int(gs.state[Off.DEALER])]}; "
        "minimum per team: "
        f"{', '.join(str(int(gs.state[Off.TEAM_MIN + t])) for t in range(gs.n_teams))}"
    )
    if gs.key:
        lines.append(f"key: seed={gs.key[0]} game={gs.key[1]} hand={gs.key[2]}")
    lines.append(
        "scores before the hand: "
        + ", ".join(str(int(gs.state[Off.CUM_SCORE + t])) for t in range(gs.n_teams))
    )
    lines.append("deal:")
    for s in range(gs.n_seats):
        lines.append(f"  {seat_name[s]}: {_cards(gs.hand_counts(s))}")
    for t in range(gs.n_teams):
        if gs.red_threes(t):
            lines.append(f"  team {t} lays {gs.red_threes(t)} red three(s)")
    pile = gs.pile()
    lines.append(
        f"upcard: {' '.join(pile)}"
        + (" (pile frozen)" if gs.pile_frozen else "")
        + f"; stock {gs.stock_size}"
    )
    turn = -1
    for a in actions:
        seat = gs.seat
        team = gs.team
        if int(gs.state[Off.TURN]) != turn:
            turn = int(gs.state[Off.TURN])
            lines.append(f"turn {turn + 1}: {seat_name[seat]} holds {_cards(gs.hand_counts(seat))}")
        before = gs.hand_counts(seat)
        red_before = gs.red_threes(team)
        pile_len = int(gs.state[Off.PILE_LEN])
        text = gs.text(a)
        gs.apply(a)
        after = gs.hand_counts(seat)
        note = ""
        if a == Act.DRAW:
            got = np.maximum(after - before, 0)
            note = f" -> {_cards(got)}"
        elif a <= Act.TAKE_ONTO or a >= Act.TAKE_SEQ:
            note = f" -> {pile_len} cards taken; hand now {int(after.sum())}"
        if gs.red_threes(team) > red_before:
            note += (
                f" (lays {gs.red_threes(team) - red_before} red three, replaced)"
                if a == Act.DRAW
                else " (red three laid)"
            )
        if (
            Act.MELD <= a < Act.DISCARD or a >= Act.SEQ_NEW or a <= Act.TAKE_ONTO
        ) and a != Act.DRAW:
            note += f"  [team {team}: {_melds_text(gs, team)}]"
        if Act.DISCARD <= a < Act.SEQ_NEW:
            top = gs.pile()
            note += f"  [pile {len(top)}" + (", frozen" if gs.pile_frozen else "") + "]"
        lines.append(f"  {text}{note}")
    lines.append(
        f"hand over: {gs.end_reason}"
        + (
            f" by seat {gs.seat_table[int(gs.state[Off.WENT_OUT_SEAT])]}"
            if int(gs.state[Off.WENT_OUT_SEAT]) >= 0
            else ""
        )
        + (" (concealed)" if int(gs.state[Off.CONCEALED]) else "")
    )
    for t in range(gs.n_teams):
        lines.append(f"  team {t}: {_melds_text(gs, t)}; red threes {gs.red_threes(t)}")
    for s in range(gs.n_seats):
        if gs.hand_counts(s).sum():
            lines.append(f"  left in hand, {seat_name[s]}: {_cards(gs.hand_counts(s))}")
    sb = gs.score_breakdown()
    labels = (
        ("meld_points", "melded cards"),
        ("canasta_bonus", "canasta bonuses"),
        ("red3_points", "red threes"),
        ("go_out_bonus", "going out"),
        ("hand_penalty", "cards left in hand (minus)"),
        ("score", "hand score"),
    )
    lines.append("score:" + "".join(f"{'team ' + str(t):>12}" for t in range(gs.n_teams)))
    for key, label in labels:
        vals = sb[key]
        if key == "hand_penalty":
            vals = [-v for v in vals]
        lines.append(f"  {label:<28}" + "".join(f"{v:>12}" for v in vals)[12 - 12 :])
    return "\n".join(lines)
