"""The table's agent: the hooks through which the self-play loop (`sim.play.selfplay.loop`) lets
search players take part.

One loop plays every table.  Its ``agent`` argument is None at a table of compiled strategies;
the search players (`sim.play.search.loop`, a module that imports the loop and so cannot be
imported by it) pass their context (`SearchAgent`) and register their own implementations of
these four hooks for its type (`numba.extending.overload`).  numba picks the implementation by
the argument's type when it compiles the loop, so at a plain table the hooks below are inlined:
``decide_nb`` and nothing else, the loop's machine code as without them.  (The loop calls
``decide_nb`` itself at a plain table, in a branch on ``agent is None`` that numba prunes by
type: an inlined overload is also compiled on its own, which cost a cold start 1.5 CPU-s.)
"""

from __future__ import annotations

from numba import types
from numba.extending import overload

from strategies.registry import decide_nb

__all__ = ["agent_hand_start", "agent_decide", "agent_before", "agent_after"]


def agent_hand_start(agent, state, seat_table):  # pragma: no cover - resolved by numba
    """A hand was dealt and the players' streams seeded (seat_table: table seat of each seat)."""
    raise NotImplementedError


def agent_decide(
    agent, state, obs, params, seat, strat_ids, knobs, rng, buf, seed, game, hand
):  # pragma: no cover
    """The action of ``seat``, the seat to act; ``obs`` holds its observation (`build_obs_nb`)."""
    raise NotImplementedError


def agent_before(agent, state, params, action):  # pragma: no cover - resolved by numba
    """``action`` is about to be applied to ``state``."""
    raise NotImplementedError


def agent_after(agent, state):  # pragma: no cover - resolved by numba
    """An action was applied to ``state``."""
    raise NotImplementedError


@overload(agent_hand_start, inline="always")
def _plain_hand_start(agent, state, seat_table):
    if isinstance(agent, types.NoneType):
        return lambda agent, state, seat_table: None


@overload(agent_decide, inline="always")
def _plain_decide(agent, state, obs, params, seat, strat_ids, knobs, rng, buf, seed, game, hand):
    if isinstance(agent, types.NoneType):

        def impl(agent, state, obs, params, seat, strat_ids, knobs, rng, buf, seed, game, hand):
            return decide_nb(strat_ids[seat], obs, params, knobs[seat], rng[seat], buf)

        return impl


@overload(agent_before, inline="always")
def _plain_before(agent, state, params, action):
    if isinstance(agent, types.NoneType):
        return lambda agent, state, params, action: None


@overload(agent_after, inline="always")
def _plain_after(agent, state):
    if isinstance(agent, types.NoneType):
        return lambda agent, state: None
