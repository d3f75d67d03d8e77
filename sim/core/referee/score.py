"""The score of a finished hand, per team, as docs/ENGINE.md "Score of a hand" (and its Samba
section: closed canastas and sequences count, a samba earns its own bonus)."""

from __future__ import annotations

from dataclasses import dataclass, field

from sim.core.enums import End, Kind
from sim.core.referee.names import NATURALS
from sim.core.referee.position import Position


@dataclass
class RefereeResult:
    """Score of one hand, per team, and how it ended."""

    score: list[int]
    meld_points: list[int]
    canasta_bonus: list[int]
    red3_points: list[int]
    go_out_bonus: list[int]
    hand_penalty: list[int]
    end_reason: int
    went_out_seat: int
    concealed: bool
    turns: int
    canastas: list[int]
    red3: list[int]
    natural_canastas: list[int] = field(default_factory=list)
    opened: list[bool] = field(default_factory=list)
    pile_takes: list[int] = field(default_factory=list)
    decisions: int = 0


@dataclass
class _TeamTable:
    """What one team has on the table."""

    meld_points: int = 0
    canasta_bonus: int = 0
    canastas: int = 0
    naturals: int = 0
    opened: bool = False


def _team_table(pos: Position, t: int) -> _TeamTable:
    """Card points and canasta bonuses of team `t`'s group melds, closed canastas and
    sequences; it has opened if it laid anything."""
    r = pos.rules
    cs = r.canasta_size
    out = _TeamTable()
    groups = list(pos.melds[t].items())
    groups += [(k, m) for k, ms in pos.closed[t].items() for m in ms]
    for k, m in groups:
        out.meld_points += (
            m.nat * r.value[k] + m.two * r.value[Kind.TWO] + m.joker * r.value[Kind.JOKER]
        )
        if k in NATURALS and m.size >= cs:
            out.canastas += 1
            if m.wild == 0:
                out.naturals += 1
                out.canasta_bonus += r.natural_canasta
            else:
                out.canasta_bonus += r.mixed_canasta
    seqs = [q for q in pos.seqs[t] if q is not None]
    for q in seqs:
        out.meld_points += sum(r.value[k] for k in range(q.low, q.low + q.length))
        if q.length >= cs:
            out.canastas += 1
            out.canasta_bonus += r.samba_bonus
    out.opened = pos.opened[t] or bool(groups) or bool(seqs)
    return out


def _red3_points(pos: Position, t: int, table: _TeamTable) -> int:
    """Team `t`'s red threes: plus once it opened (or has the canastas the rules ask), else
    minus."""
    r = pos.rules
    if not pos.red3[t]:
        return 0
    value = r.red3_table[min(pos.red3[t], 6)]
    plus = table.opened if r.red3_need_canastas == 0 else table.canastas >= r.red3_need_canastas
    return value if plus else -value


def _go_out_bonus(pos: Position) -> list[int]:
    r = pos.rules
    go_out = [0] * pos.n_teams
    if pos.end_reason == End.WENT_OUT:
        t = r.team_of_seat[pos.went_out_seat]
        if pos.concealed and r.concealed_bonus > 0:
            go_out[t] = r.concealed_bonus
        elif pos.went_out_discard:
            go_out[t] = r.go_out_bonus
        else:
            go_out[t] = r.go_out_no_discard_bonus
    return go_out


def hand_score(pos: Position) -> RefereeResult:
    """The score of the (finished) hand in `pos`, per team, and how it ended."""
    r = pos.rules
    nt = pos.n_teams
    tables = [_team_table(pos, t) for t in range(nt)]
    red3_points = [_red3_points(pos, t, tables[t]) for t in range(nt)]
    go_out = _go_out_bonus(pos)
    penalty = [0] * nt
    for s in range(pos.n_seats):
        t = r.team_of_seat[s]
        penalty[t] += sum(c * r.value[k] for k, c in enumerate(pos.hands[s]))
        if s == pos.seat:
            penalty[t] += sum(r.value[c & 15] for c in pos.aside)
    score = [
        tables[t].meld_points + tables[t].canasta_bonus + red3_points[t] + go_out[t] - penalty[t]
        for t in range(nt)
    ]
    return RefereeResult(
        score=score,
        meld_points=[x.meld_points for x in tables],
        canasta_bonus=[x.canasta_bonus for x in tables],
        red3_points=red3_points,
        go_out_bonus=go_out,
        hand_penalty=penalty,
        end_reason=pos.end_reason,
        went_out_seat=pos.went_out_seat,
        concealed=bool(pos.concealed and pos.end_reason == End.WENT_OUT),
        turns=pos.turns,
        canastas=[x.canastas for x in tables],
        red3=list(pos.red3),
        natural_canastas=[x.naturals for x in tables],
        opened=[x.opened for x in tables],
        pile_takes=list(pos.pile_takes),
        decisions=pos.decisions,
    )
