"""What kind of action a decision took and in what situation, from public information and the
deciding seat's own hand only (what `canasta mistakes` groups decisions by).

    from reports.decision_kinds import action_class, situation, CLASSES
    action_class(gs, a)    # 'discard takeable', 'add wild', 'go out', ... (CLASSES)
    situation(gs)          # {'phase': 'meld', 'pile': '3-7', 'frozen': 'no', ...}

A class names what the action does to the table:

- draw phase: ``draw`` (from the stock), ``take pile`` (with natural cards), ``take pile +wild``
  (with a two or a joker from the hand), ``decline`` (the stock is out: the hand ends);
- meld phase: ``go out`` (any action after which the seat's hand is empty and the hand over),
  ``open`` (a meld or addition while the team has not made its initial meld), ``meld``,
  ``meld +wild`` (a new meld with a two or a joker), ``add natural``, ``add wild``, ``sequence``
  (Samba: a new sequence or an extension);
- discards: ``discard wild`` (a two or a joker: freezes the pile), ``discard black 3`` (the
  next seat cannot take it), ``discard takeable`` (a natural rank of which the next
  opponent's team has a meld on the table while the pile is not frozen: it may take the pile
  onto that meld), ``discard other``.

`kind` names a pair of classes (played, best) as a player would say it: ``meld instead of
hold`` (a meld or addition where discarding was best), ``hold instead of meld``, ``draw instead
of taking``, ``take instead of drawing``, ``another take``, ``missed going out``, ``went out
early``, ``discard instead of freezing`` (discarding a wild card was best), ``freeze instead
of discard``, ``takeable discard`` (a takeable discard where another was best), ``another
discard``, ``another meld``; the best action played: ``best``.
"""

from __future__ import annotations

from sim.core.enums import MAX_SEQS, N_KINDS, Act, End, Kind, Off, Phase
from sim.play.game import GameState

__all__ = [
    "CLASSES",
    "SITUATIONS",
    "action_class",
    "kind",
    "situation",
    "next_opponent",
]

CLASSES = {
    "draw": "draw from the stock",
    "take pile": "take the discard pile with natural cards",
    "take pile +wild": "take the discard pile with a two or a joker from the hand",
    "decline": "decline the pile when the stock is out (the hand ends)",
    "go out": "an action that empties the hand and ends it",
    "open": "a meld or addition before the team's initial meld is complete",
    "meld": "a new meld of natural cards",
    "meld +wild": "a new meld with a two or a joker",
    "add natural": "add a natural card to a meld",
    "add wild": "add a two or a joker to a meld",
    "sequence": "Samba: a new sequence or a card added to one",
    "discard wild": "discard a two or a joker (freezes the pile)",
    "discard black 3": "discard a black three (the next seat cannot take the pile)",
    "discard takeable": "discard a rank the next opponent's team has melded, pile not frozen",
    "discard other": "any other discard",
}
MELDING = {"open", "meld", "meld +wild", "add natural", "add wild", "sequence"}
DISCARDS = {"discard wild", "discard black 3", "discard takeable", "discard other"}
TAKES = {"take pile", "take pile +wild"}

# situation -> (label, bucket edges: a value v goes to the first bucket whose upper end >= v)
SITUATIONS = {
    "phase": "phase of the turn (draw: before drawing or taking; meld: after it)",
    "pile": "cards in the discard pile",
    "frozen": "the pile is frozen (a wild card or red three in it)",
    "stock": "cards left in the stock",
    "opp_cards": "fewest cards in an opponent's hand",
    "opp_melds": "melds on the table of the strongest opposing team",
}
_BUCKETS = {
    "pile": (2, 7, 14),
    "stock": (9, 29, 59),
    "opp_cards": (2, 5, 10),
    "opp_melds": (0, 2, 4),
}


def _bucket(v: int, edges: tuple[int, ...]) -> str:
    lo = 0
    for hi in edges:
        if v <= hi:
            return f"{lo}" if lo == hi else f"{lo}-{hi}"
        lo = hi + 1
    return f"{lo}+"


def bucket_order(name: str) -> list[str]:
    """The buckets of a situation, low to high (for tables)."""
    if name == "phase":
        return ["draw", "meld"]
    if name == "frozen":
        return ["no", "yes"]
    edges = _BUCKETS[name]
    return [_bucket(e, edges) for e in edges] + [_bucket(edges[-1] + 1, edges)]


def next_opponent(gs: GameState) -> int:
    """The first seat after the seat to act (in turn order) on another team."""
    n, s, st = gs.n_seats, gs.seat, gs.state
    for d in range(1, n):
        o = (s + d) % n
        if st[Off.TEAM_OF_SEAT + o] != st[Off.TEAM_OF_SEAT + s]:
            return o
    return (s + 1) % n


def _meld_count(gs: GameState, team: int) -> int:
    st = gs.state
    base = team * N_KINDS
    open_melds = sum(
        1
        for k in range(N_KINDS)
        if st[Off.MELD_NAT + base + k] + st[Off.MELD_TWO + base + k] + st[Off.MELD_JOKER + base + k]
    )
    closed = int(st[Off.CLOSED_COUNT + base : Off.CLOSED_COUNT + base + N_KINDS].sum())
    seqs = int((st[Off.SEQ_LEN + team * MAX_SEQS : Off.SEQ_LEN + (team + 1) * MAX_SEQS] > 0).sum())
    return open_melds + closed + seqs


def _goes_out(gs: GameState, action: int) -> bool:
    # a copy of the table alone (no knowledge rows: the copy only needs the state)
    g = GameState(
        gs.rules,
        gs.state.copy(),
        gs.params,
        gs.deck,
        gs.seat_table,
        None,
        know=None,
        tracks_knowledge=False,
    )
    g.apply(action)
    st = g.state
    return (
        int(st[Off.PHASE]) == Phase.OVER
        and int(st[Off.END_REASON]) == End.WENT_OUT
        and int(st[Off.WENT_OUT_SEAT]) == gs.seat
    )


def action_class(gs: GameState, action: int) -> str:
    """The class (a key of CLASSES) of ``action`` in ``gs`` (the seat to act's decision)."""
    a = int(action)
    st = gs.state
    if a == Act.DRAW:
        return "draw"
    if a in (Act.TAKE_PAIR, Act.TAKE_ONTO) or Act.TAKE_SEQ <= a < Act.N_ACTIONS:
        return "take pile"
    if a in (Act.TAKE_NAT_TWO, Act.TAKE_NAT_JOKER):
        return "take pile +wild"
    if a == Act.DECLINE:
        return "decline"
    if _goes_out(gs, a):
        return "go out"
    if Act.DISCARD <= a < Act.SEQ_NEW:
        k = a - Act.DISCARD
        if k in (Kind.TWO, Kind.JOKER):
            return "discard wild"
        if k == Kind.BLACK3:
            return "discard black 3"
        opp = next_opponent(gs)
        team = int(st[Off.TEAM_OF_SEAT + opp])
        i = team * N_KINDS + k
        if int(st[Off.PILE_FREEZE]) == 0 and st[Off.MELD_NAT + i] > 0:
            return "discard takeable"
        return "discard other"
    if not st[Off.TEAM_OPENED + gs.team]:
        return "open"
    if Act.SEQ_NEW <= a < Act.TAKE_SEQ:
        return "sequence"
    if Act.MELD <= a < Act.ADD_NAT:
        return "meld" if (a - Act.MELD) % 3 == 0 else "meld +wild"
    if Act.ADD_NAT <= a < Act.ADD_TWO:
        return "add natural"
    return "add wild"


def kind(played: str, best: str, is_best: bool) -> str:
    """A player's name for the pair (class played, class of the best action)."""
    if is_best:
        return "best"
    if best == "go out":
        return "missed going out"
    if played == "go out":
        return "went out early"
    if played in MELDING and best in DISCARDS:
        return "meld instead of hold"
    if played in DISCARDS and best in MELDING:
        return "hold instead of meld"
    if played == "draw" and best in TAKES:
        return "draw instead of taking"
    if played in TAKES and best == "draw":
        return "take instead of drawing"
    if played in TAKES and best in TAKES:
        return "another take"
    if played in DISCARDS and best == "discard wild":
        return "discard instead of freezing"
    if played == "discard wild" and best in DISCARDS:
        return "freeze instead of discard"
    if played == "discard takeable" and best in DISCARDS:
        return "takeable discard"
    if played in DISCARDS and best in DISCARDS:
        return "another discard"
    if played in MELDING and best in MELDING:
        return "another meld"
    return f"{played} instead of {best}"


def situation(gs: GameState) -> dict[str, str]:
    """The situation of the seat to act, bucketed (keys: SITUATIONS; public information)."""
    st = gs.state
    me = gs.team
    opps = [s for s in range(gs.n_seats) if st[Off.TEAM_OF_SEAT + s] != me]
    teams = sorted({int(st[Off.TEAM_OF_SEAT + s]) for s in opps})
    fewest = min(int(st[Off.HAND_SIZE + s]) for s in opps) if opps else 0
    melds = max((_meld_count(gs, t) for t in teams), default=0)
    return {
        "phase": gs.phase,
        "pile": _bucket(int(st[Off.PILE_LEN]), _BUCKETS["pile"]),
        "frozen": "yes" if int(st[Off.PILE_FREEZE]) > 0 else "no",
        "stock": _bucket(int(st[Off.STOCK_LEN]), _BUCKETS["stock"]),
        "opp_cards": _bucket(fewest, _BUCKETS["opp_cards"]),
        "opp_melds": _bucket(melds, _BUCKETS["opp_melds"]),
    }
