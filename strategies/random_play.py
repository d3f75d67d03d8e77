"""`random`: uniform over the legal actions at every decision.

The baseline every other strategy must beat, and the engine's exerciser: it reaches every
corner of the rules because it tries whatever is legal.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.core.enums import Off
from sim.core.legal import legal_actions_nb
from sim.core.rng import randint_nb

KNOBS: dict[str, float] = {}


@njit(
    cache=True, _nrt=False, inline="always"
)  # a thin caller of the core: compiled alone it re-optimizes the core linked below it
def decide_nb(
    obs: np.ndarray, params: np.ndarray, knobs: np.ndarray, rng: np.ndarray, buf: np.ndarray
) -> int:
    n = legal_actions_nb(obs, Off.HANDS, params, buf)
    if n == 0:
        return -1
    return buf[randint_nb(rng, n)]
