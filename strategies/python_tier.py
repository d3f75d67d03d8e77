"""The Python tier: write a strategy as a plain Python class, try it, then port it to numba.

A Python strategy is any object with a `decide(obs, params, legal, rng) -> int` method (the base
class `PythonStrategy` documents the contract).  `sim.play.pyplay.play_hand_py` drives it with the
same kernels, deals and keys as the fast loops, one decision at a time -- roughly a hundred
times slower than a compiled strategy, but with print(), breakpoints and numpy at hand.

Prototyping a strategy::

    from sim.core.enums import Act, Kind, Off, Phase
    from sim.play.pyplay import play_hand_py
    from sim.core.rules import RuleSet
    from strategies.python_tier import PyGreedy, PythonStrategy

    class DrawOnly(PythonStrategy):
        '''Never takes the pile; otherwise plays like greedy.'''

        def __init__(self):
            self.greedy = PyGreedy()

        def decide(self, obs, params, legal, rng):
            if obs[Off.PHASE] == Phase.DRAW and Act.DRAW in legal:
                return Act.DRAW
            return self.greedy.decide(obs, params, legal, rng)

    rules = RuleSet.preset("classic")
    gs = play_hand_py(rules, [DrawOnly(), "greedy", DrawOnly(), "greedy"], seed=1, game=0, hand=0)
    print(gs.score_breakdown())           # per team: score, meld points, canastas, ...
    print([s.text for s in gs.history][:10])

Seats may mix Python objects and registered fast strategy names (with knobs:
"tunable:open_threshold=30").  Once the idea works, port `decide` to a numba
`decide_nb(obs, params, knobs, rng, buf)` in a new strategies/ module and register it
(strategies/registry.py); `PyGreedy` vs `strategies/greedy.py` shows a line-by-line port, and
tests/test_strategies.py checks that the two decide identically.
"""

from __future__ import annotations

import numpy as np

from sim.core.enums import (
    FIRST_NATURAL,
    LAST_NATURAL,
    MAX_SEQS,
    N_KINDS,
    Act,
    Kind,
    Off,
    Par,
    Phase,
)
from strategies.greedy import WILD_DISCARD_BASE

__all__ = ["PythonStrategy", "PyGreedy"]


class PythonStrategy:
    """Base class of Python-tier strategies.

    Override `decide`.  It is called once per decision of the seat it plays:

    obs : int32 array, the acting player's observation -- the public state followed by the own
        hand (15 kind counts) at `Off.HANDS`; read it with the offsets of `sim.core.enums.Off`
        (e.g. `obs[Off.PILE_LEN]`, `obs[Off.MELD_NAT + team * 15 + kind]`).  Never modify it.
    params : int32 array of rule parameters (`sim.core.enums.Par`).
    legal : list[int], the legal action ids in the engine's order (`sim.core.enums.Act`: draw-phase
        actions, then melds/additions by kind, then discards by kind); never empty.
    rng : uint64[2], the seat's random stream, keyed like the fast tier's; use
        `sim.core.rng.uniform_nb(rng)` / `randint_nb(rng, n)` for reproducible randomness.
    Returns one element of `legal`.  `sim.core.legal.why_illegal_nb(obs, Off.HANDS, params, a)`
    tells why another action is not.
    """

    name = "python"

    def decide(self, obs: np.ndarray, params: np.ndarray, legal: list[int], rng: np.ndarray) -> int:
        return legal[0]


class PyGreedy(PythonStrategy):
    """Python port of `strategies/greedy.py`: the same priorities and tie-breaks, so it makes
    exactly the same decisions (it uses no randomness)."""

    name = "py-greedy"

    def decide(self, obs, params, legal, rng):
        ok = set(legal)
        H = Off.HANDS
        hand = [int(x) for x in obs[H : H + N_KINDS]]
        sequences = bool(params[Par.SEQUENCES])
        if obs[Off.PHASE] == Phase.DRAW:
            for a in (Act.TAKE_ONTO, Act.TAKE_PAIR, Act.TAKE_NAT_JOKER, Act.TAKE_NAT_TWO):
                if a in ok:
                    return a
            if sequences:
                for a in range(Act.TAKE_SEQ, Act.N_ACTIONS):
                    if a in ok:
                        return a
            for a in (Act.DRAW, Act.DECLINE):
                if a in ok:
                    return a
            return legal[0]
        team = int(obs[Off.TEAM_OF_SEAT + obs[Off.SEAT]])
        base = team * N_KINDS
        csize = int(params[Par.CANASTA_SIZE])
        if sequences:  # 0. Samba: extend sequences (slot order, below then above), then new ones
            for q in range(MAX_SEQS):
                for end in (0, 1):
                    if Act.SEQ_ADD + q * 2 + end in ok:
                        return Act.SEQ_ADD + q * 2 + end
            for suit in range(4):
                for low in range(LAST_NATURAL - 2, FIRST_NATURAL - 1, -1):
                    a = Act.SEQ_NEW + suit * 9 + low - FIRST_NATURAL
                    if a in ok:
                        return a

        def size(k: int) -> int:
            i = base + k
            return int(obs[Off.MELD_NAT + i] + obs[Off.MELD_TWO + i] + obs[Off.MELD_JOKER + i])

        ranks_high_first = range(LAST_NATURAL, FIRST_NATURAL - 1, -1)
        for k in ranks_high_first:  # 1. naturals onto team melds
            if hand[k] > 0 and size(k) > 0 and Act.ADD_NAT + k in ok:
                return Act.ADD_NAT + k
        for k in ranks_high_first:  # 2. new natural melds
            if hand[k] >= 3 and size(k) == 0 and Act.MELD + k * 3 in ok:
                return Act.MELD + k * 3
        if hand[Kind.JOKER] + hand[Kind.TWO] > 0:
            for k in ranks_high_first:  # 3. pair + wild, joker first
                if hand[k] >= 2 and size(k) == 0:
                    if hand[Kind.JOKER] > 0 and Act.MELD + k * 3 + 2 in ok:
                        return Act.MELD + k * 3 + 2
                    if hand[Kind.TWO] > 0 and Act.MELD + k * 3 + 1 in ok:
                        return Act.MELD + k * 3 + 1
            # 4. wild additions: jokers first; the largest open meld, then canastas
            for wk, add_base in ((Kind.JOKER, Act.ADD_JOKER), (Kind.TWO, Act.ADD_TWO)):
                if hand[wk] == 0:
                    continue
                order = sorted(
                    (k for k in ranks_high_first if size(k) > 0),
                    key=lambda k: (size(k) >= csize, -size(k), -k),
                )
                for k in order:
                    if add_base + k in ok:
                        return add_base + k
        if hand[Kind.BLACK3] > 0:  # 5. black threes (going out only)
            a = (
                Act.ADD_NAT + Kind.BLACK3
                if obs[Off.MELD_NAT + base + Kind.BLACK3] > 0
                else Act.MELD + Kind.BLACK3 * 3
            )
            if a in ok:
                return a
        best, best_key = -1, 1 << 30  # 6. discard the least useful card
        for k in range(N_KINDS - 1):
            c = hand[k]
            if c == 0:
                continue
            if k == Kind.BLACK3:
                key = 0
            elif k in (Kind.TWO, Kind.JOKER):
                key = WILD_DISCARD_BASE + int(params[Par.CARD_VALUE + k])
            else:
                key = min(c, 3) * 1000 + int(params[Par.CARD_VALUE + k]) * 16 + k
            if key < best_key:
                best, best_key = k, key
        if best >= 0 and Act.DISCARD + best in ok:
            return Act.DISCARD + best
        return legal[0]
