"""A table's hand as the project's hand record (docs/hand-record.md) and as JSON, and a hand
record read back into a table (to replay and review a hand played elsewhere)."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from sim.core.cards import card_token
from sim.play.game import GameState
from sim.table.model import HandLog
from sim.table.settings import HUMAN, TableError, TableSettings

__all__ = ["hand_record_text", "hand_json", "import_record", "MAX_RECORD"]

MAX_RECORD = 200_000  # characters of an imported hand record


def _actions(table, hand: HandLog) -> tuple[list[str], GameState]:
    gs = hand.new_state(table.rules)
    texts = []
    for a in hand.actions:
        texts.append(gs.text(a))
        gs.apply(a)
    return texts, gs


def _players(table) -> list[str]:
    return [HUMAN if p == HUMAN else p for p in table.settings.seats]


def hand_record_text(table, idx: int) -> str:
    """Hand ``idx`` of ``table`` as a hand record that `canasta review FILE` reads."""
    hand = table.hands[idx]
    s = table.settings
    texts, gs = _actions(table, hand)
    lines = [
        f"# canasta table {table.id}, hand {idx + 1}"
        + ("" if gs.is_over else " (not over yet: review needs the whole hand)"),
        f"rules: {s.rules}",
        f"players: {s.players}",
    ]
    if s.team_layout:
        lines.append(f"team_layout: {s.team_layout}")
    lines += [f"set: {x}" for x in s.sets]
    if hand.deck is not None:
        lines.append("deck: " + " ".join(card_token(c) for c in hand.deck))
    else:
        seed, game, h = hand.key or (s.seed, 0, idx)
        lines.append(f"key: seed={seed} game={game} hand={h}")
    lines.append(f"dealer: {_dealer(table, hand)}")
    lines.append("scores: " + " ".join(str(c) for c in hand.cum))
    lines.append("strategies: " + ", ".join(_players(table)))
    lines.append("actions:")
    lines += texts
    return "\n".join(lines) + "\n"


def _dealer(table, hand: HandLog) -> int:
    from sim.core.enums import Off

    return int(hand.new_state(table.rules).state[Off.DEALER])


def hand_json(table, idx: int) -> dict[str, Any]:
    """Hand ``idx`` as JSON: the settings, the deal, every action (id, text, seat) and the
    result."""
    hand = table.hands[idx]
    gs = hand.new_state(table.rules)
    steps = []
    for a in hand.actions:
        steps.append({"seat": gs.seat_table[gs.seat], "id": int(a), "text": gs.text(a)})
        gs.apply(a)
    return {
        "table": table.id,
        "hand": idx,
        "rules": table.rules.label,
        "settings": table.settings.to_json(),
        "key": list(hand.key) if hand.key else None,
        "deck": [card_token(c) for c in hand.deck] if hand.deck else None,
        "dealer": _dealer(table, hand),
        "scores_before": hand.cum,
        "actions": steps,
        "over": gs.is_over,
        "score": gs.score_breakdown() if gs.is_over else None,
    }


def import_record(text: str, seat: int = 0) -> tuple[TableSettings, HandLog]:
    """A hand record (or a `canasta play` history) as a finished one-hand table to replay and
    review, ``seat`` the table seat to review.  TableError (400) with the record's reason."""
    from reports.hand_file import read_hand_file
    from sim.core.errors import CanastaError

    if not isinstance(text, str) or not text.strip():
        raise TableError("give the hand record's text (docs/hand-record.md)")
    if len(text) > MAX_RECORD:
        raise TableError(f"the hand record is {len(text):,} characters; at most {MAX_RECORD:,}")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "hand.txt"
        path.write_text(text, encoding="utf-8")
        try:
            rec = read_hand_file(path)
        except CanastaError as exc:
            raise TableError(str(exc).replace(str(path), "record")) from None
    rules = rec.rules
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < rules.players:
        raise TableError(f"seat={seat!r}: give the table seat to review, 0 .. {rules.players - 1}")
    strategies = rec.strategies or ["?"] * rules.players
    seats = [HUMAN if s == seat else (strategies[s] or "?") for s in range(rules.players)]
    settings = TableSettings(
        rules=rules.name,
        players=rules.players,
        team_layout=rules.team_layout or None,
        sets=[f"{k}={_value(v)}" for k, v in rules.differences_from_preset().items()],
        seats=seats,
        names=[f"seat {s}" + (" (reviewed)" if s == seat else "") for s in range(rules.players)],
        mode="hand",
        seed=rec.key[0] if rec.key else 0,
        practice=True,
    )
    try:
        same = (settings.rule_set().to_params(0) == rules.to_params(0)).all()
    except CanastaError:
        same = False
    if not same:
        raise TableError(
            "the record's rule overrides cannot be kept by the table; import it with "
            "fewer --set values"
        )
    hand = HandLog(
        0,
        list(rec.cum or [0] * rules.n_teams),
        list(rec.actions),
        key=tuple(rec.key) if rec.key else None,
        deck=list(rec.deck) if rec.deck is not None else None,
        dealer=rec.dealer,
    )
    gs = hand.new_state(rules)
    for a in hand.actions:
        gs.apply(a)
    hand.result = [int(x) for x in gs.score_breakdown()["score"]]
    return settings, hand


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, tuple | list):
        if v and isinstance(v[0], tuple | list):
            return ",".join(":".join(str(x) for x in p) for p in v)
        return ",".join(str(x) for x in v)
    return str(v)
