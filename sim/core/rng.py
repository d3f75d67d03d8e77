"""Counter-based random numbers keyed by (seed, game, hand, stream).

A hand's generator depends only on its key, so a hand is reproducible on its own, whatever ran
before it and whichever worker plays it.  The generator is SplitMix64 run over a counter:
rng[0] holds the key, rng[1] the counter.
"""

from __future__ import annotations

import numpy as np
from numba import njit

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
STREAM_DECK = 0
STREAM_PLAYERS = 1  # strategies' own random choices


@njit(cache=True, _nrt=False)
def mix64_nb(x: np.uint64) -> np.uint64:
    """SplitMix64 finaliser: a bijective 64-bit hash."""
    z = x
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True, _nrt=False)
def key_nb(seed: int, game: int, hand: int, stream: int) -> np.uint64:
    """Hash of the key (seed, game, hand, stream); every argument is a non-negative int."""
    k = mix64_nb(np.uint64(seed) + GOLDEN)
    k = mix64_nb(k ^ (np.uint64(game) + GOLDEN))
    k = mix64_nb(k ^ (np.uint64(hand) + GOLDEN))
    k = mix64_nb(k ^ (np.uint64(stream) + GOLDEN))
    return k


@njit(cache=True, _nrt=False)
def seed_rng_nb(rng: np.ndarray, seed: int, game: int, hand: int, stream: int) -> None:
    """Reset `rng` (uint64, shape (2,)) to the start of the stream of this key."""
    rng[0] = key_nb(seed, game, hand, stream)
    rng[1] = np.uint64(0)


@njit(cache=True, _nrt=False, inline="always")  # two stores: typed in its caller, no call
def seed_rng_row_nb(
    rng: np.ndarray, row: int, seed: int, game: int, hand: int, stream: int
) -> None:
    """`seed_rng_nb(rng[row], ...)` for a 2-D `rng` (uint64, shape (n, 2)) without the row
    view, which a kernel that keeps numba's runtime pays with an atomic reference count up and
    down (sim.play.selfplay.loop.play_chunk_nb, once per seat and hand)."""
    rng[row, 0] = key_nb(seed, game, hand, stream)
    rng[row, 1] = np.uint64(0)


@njit(cache=True, _nrt=False)
def next_u64_nb(rng: np.ndarray) -> np.uint64:
    rng[1] += np.uint64(1)
    return mix64_nb(rng[0] + rng[1] * GOLDEN)


@njit(cache=True, _nrt=False)
def uniform_nb(rng: np.ndarray) -> float:
    """Float in [0, 1) with 53 random bits."""
    return float(next_u64_nb(rng) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True, _nrt=False)
def randint_nb(rng: np.ndarray, n: int) -> int:
    """Integer in [0, n) (n > 0).  The bias of the float method is below 2**-40 for n < 2**13."""
    return int(uniform_nb(rng) * n)


@njit(cache=True, _nrt=False)
def shuffle_nb(rng: np.ndarray, arr: np.ndarray, n: int) -> None:
    """Fisher-Yates shuffle of arr[:n] in place.

    The same draws as `randint_nb(rng, i + 1)` for i = n - 1 .. 1, with the key and the counter
    kept in locals and the counter stored back once: through rng[1] every draw waited on the
    store of the one before (the compiler cannot tell that `arr` and `rng` do not overlap)."""
    key = rng[0]
    count = rng[1]
    for i in range(n - 1, 0, -1):
        count += np.uint64(1)
        u = float(mix64_nb(key + count * GOLDEN) >> np.uint64(11)) * (1.0 / 9007199254740992.0)
        j = int(u * (i + 1))
        tmp = arr[i]
        arr[i] = arr[j]
        arr[j] = tmp
    rng[1] = count
