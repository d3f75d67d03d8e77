"""The opening searches' pure parts, cached: what group melds of one rank can reach, the best
points and the most canastas of group melds, the ways to lay one suit's naturals in sequences.

They take plain tuples (no position), so `functools` can cache them across positions and hands.
"""

from __future__ import annotations

from functools import cache, lru_cache


@cache
def group_outcomes(
    key: tuple, n: int, nat: int, wild: int, is_open: bool, closed_any: bool
) -> frozenset[tuple[int, int]]:
    """Group melds of one rank: every (wild cards placed, canastas completed) reachable by
    melding exactly `n` more naturals of the rank, one card at a time as the actions allow.
    The rank's current state: an open meld (`nat`, `wild`) if `is_open`, closed canastas if
    `closed_any`.  `key` = Rules.group_key (max wild, wild <= naturals, naturals of a new meld,
    canasta size, wild onto a canasta, several melds per rank)."""
    max_wild, wild_le_nat, min_naturals, size, wild_onto, multi = key
    out: set[tuple[int, int]] = set()
    if n == 0:
        out.add((0, 0))

    def fits(nat_after: int, wild_after: int, size_before: int) -> bool:
        return (
            wild_after <= max_wild
            and (not wild_le_nat or wild_after <= nat_after)
            and (wild_onto or size_before < size)
        )

    def go(nat2: int, wild2: int, used: int, dw: int, size_before: int) -> None:
        crossed = 1 if size_before < size <= nat2 + wild2 else 0
        if multi and nat2 + wild2 >= size:  # closed at once: a new meld may start
            sub = group_outcomes(key, n - used, 0, 0, False, True)
        else:
            sub = group_outcomes(key, n - used, nat2, wild2, True, closed_any)
        for w, c in sub:
            out.add((w + dw, c + crossed))

    if is_open:
        if n > 0:
            go(nat + 1, wild, 1, 0, nat + wild)
        if fits(nat, wild + 1, nat + wild):
            go(nat, wild + 1, 0, 1, nat + wild)
    else:
        if n >= 3 and min_naturals <= 3:
            go(3, 0, 3, 0, 0)
        if n >= 2 and min_naturals <= 2 and fits(2, 1, 2):
            go(2, 1, 2, 1, 0)
        if multi and closed_any and n > 0:  # `add 7 to 7s` with no open meld: onto a closed one
            out |= group_outcomes(key, n - 1, 0, 0, False, True)
    return frozenset(out)


def intervals(values: list[int]) -> list[tuple[int, int]]:
    """Sorted distinct ints as maximal runs (lo, hi)."""
    out: list[tuple[int, int]] = []
    for v in values:
        if out and v == out[-1][1] + 1:
            out[-1] = (out[-1][0], v)
        else:
            out.append((v, v))
    return out


@lru_cache(maxsize=1 << 15)
def group_best(
    key: tuple,
    rest: tuple[int, ...],
    budget: int,
    wild_values: tuple[int, ...],
    states: tuple,
    nat_values: tuple[int, ...],
) -> int:
    """The most points group melds can add with at most `budget` cards: `rest` naturals per
    rank, wild cards worth `wild_values` (best first), each rank in state `states[i]`.  A
    dynamic programme over (naturals used, fewest wilds, most wilds) -> natural points."""
    nw = len(wild_values)
    dp: dict[tuple[int, int, int], int] = {(0, 0, 0): 0}
    for i, n in enumerate(rest):
        options = []
        for u in range(n + 1):
            ws = sorted({w for w, _ in group_outcomes(key, u, *states[i])})
            options += [(u, lo, hi) for lo, hi in intervals(ws)]
        if options == [(0, 0, 0)]:
            continue
        nxt: dict[tuple[int, int, int], int] = {}
        for (used, lo, hi), pts in dp.items():
            for u, olo, ohi in options:
                if used + u > budget or lo + olo > nw:
                    continue
                k2 = (used + u, lo + olo, min(hi + ohi, nw))
                v = pts + u * nat_values[i]
                if nxt.get(k2, -1) < v:
                    nxt[k2] = v
        dp = nxt
    best = 0
    for (used, lo, hi), pts in dp.items():
        w = min(hi, nw, budget - used)
        if w >= lo:
            best = max(best, pts + sum(wild_values[:w]))
    return best


def groups_use_all(key: tuple, rest: tuple[int, ...], wilds: int, states: tuple) -> int:
    """Group melds that use every one of `rest` naturals and exactly `wilds` wild cards: the
    most canastas they complete, or -1 when impossible."""
    dp = {0: 0}  # wilds placed -> most canastas
    for i, n in enumerate(rest):
        outs = group_outcomes(key, n, *states[i])
        nxt: dict[int, int] = {}
        for w, c in dp.items():
            for ow, oc in outs:
                if w + ow <= wilds and nxt.get(w + ow, -1) < c + oc:
                    nxt[w + ow] = c + oc
        if not nxt:
            return -1
        dp = nxt
    return dp.get(wilds, -1)


@lru_cache(maxsize=1 << 14)
def suit_runs(
    counts: tuple[int, ...], existing: tuple[tuple[int, int], ...], size: int, free: int
) -> tuple[tuple[tuple[int, ...], int, int], ...]:
    """Sequences of one suit: every (cards used per rank, new runs, sambas completed) from
    `counts` (per rank index 0..10 = kinds 4..A): the team's sequences `existing` (low index,
    length) extended at either end, then at most `free` new runs of 3..`size` cards."""
    found: dict[tuple[tuple[int, ...], int], int] = {}
    top = len(counts) - 1

    def new_runs(cnt: tuple[int, ...], min_a: int, min_len: int, runs: int, sambas: int) -> None:
        usage = tuple(c0 - c for c0, c in zip(counts, cnt, strict=True))
        if found.get((usage, runs), -1) < sambas:
            found[(usage, runs)] = sambas
        if runs >= free:
            return
        for a in range(min_a, top + 1):
            for length in range(3, size + 1):
                if a + length - 1 > top:
                    break
                if a == min_a and length < min_len:
                    continue
                if any(cnt[j] < 1 for j in range(a, a + length)):
                    break
                c2 = list(cnt)
                for j in range(a, a + length):
                    c2[j] -= 1
                new_runs(tuple(c2), a, length, runs + 1, sambas + (length == size))

    def extend(i: int, cnt: tuple[int, ...], sambas: int) -> None:
        if i == len(existing):
            new_runs(cnt, 0, 3, 0, sambas)
            return
        low, length = existing[i]
        if length >= size:
            extend(i + 1, cnt, sambas)
            return
        for d in range(size - length + 1):
            if d and (low - d < 0 or cnt[low - d] < 1):
                break
            for e in range(size - length - d + 1):
                hi = low + length - 1 + e
                if e and (hi > top or cnt[hi] < 1):
                    break
                c2 = list(cnt)
                for j in list(range(low - d, low)) + list(range(low + length, hi + 1)):
                    c2[j] -= 1
                extend(i + 1, tuple(c2), sambas + (length + d + e == size))

    extend(0, counts, 0)
    return tuple((usage, runs, sambas) for (usage, runs), sambas in found.items())


@lru_cache(maxsize=4096)
def most_new_canastas(ranges: tuple[tuple[int, int, int], ...], wilds: int, size: int) -> int:
    """Spread exactly `wilds` wild cards over melds with (fewest, most, cards without wilds)
    each (-1 cards: already a canasta); the most melds that reach `size` cards, or -1 when the
    wild cards cannot all be placed."""
    if not ranges:
        return 0 if wilds == 0 else -1
    (lo, hi, base), tail = ranges[0], ranges[1:]
    best = -1
    for w in range(lo, min(hi, wilds) + 1):
        sub = most_new_canastas(tail, wilds - w, size)
        if sub < 0:
            continue
        best = max(best, sub + (1 if base >= 0 and base + w >= size else 0))
    return best
