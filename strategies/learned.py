"""The heuristic player steered by a decision model learned from search (the improved `expert`).

At every decision the heuristic (`strategies.heuristic`, with the table's tuned knob set of
`expert-v1`) proposes its action; then every legal action is scored by a linear model over
(position, action) features (`strategies.features`: the decision's context and the action's
own features, one weight table per action group) and the best-scored action is played when its
score beats the heuristic's choice by more than `margin` points.  The model predicts each
action's gain over the heuristic's choice in points of hand score (ours minus the best opposing
team's); it was fitted to rollout values of every legal action at decisions of self-play
(`benchmarks/train_expert.py`, the command, seed and data size recorded beside the weights in
strategies/models/expert.json).  Every input is the seat's observation: no hidden card.

The weights are package data, frozen into the compiled kernel; numba's cache does not see a
change of the data file, so the file's hash is written in `MODEL_SHA256` below (a changed file
without a new hash stops the import with a message; the training script writes both).
"""

from __future__ import annotations

import hashlib
import json
from importlib import resources

import numpy as np
from numba import njit

from sim.core.enums import N_KINDS, Act, Kind, Off, Phase
from sim.core.legal import discard_why_nb, legal_actions_nb
from sim.core.readers import team_of_nb
from strategies import heuristic
from strategies.features import (
    N_GROUPS,
    N_SLOTS,
    G,
    action_nb,
    context_dot_nb,
    context_nb,
    group_of_nb,
    spec_dot_nb,
)
from strategies.knobs import Knob, knob_defaults, knob_index

MODEL_FILE = "expert.json"
MODEL_SHA256 = "eeeedb6dbd9206205b22d68e85e06bc7a38fe0129d678cab642bb41ccbcd2a54"


def _load_weights() -> np.ndarray:
    raw = resources.files("strategies.models").joinpath(MODEL_FILE).read_bytes()
    sha = hashlib.sha256(raw).hexdigest()
    if sha != MODEL_SHA256:
        raise ImportError(
            f"strategies/models/{MODEL_FILE} changed (sha256 {sha[:12]}...): write its hash in "
            "strategies/learned.py MODEL_SHA256, which also recompiles the kernel"
        )
    models = json.loads(raw)["models"]
    w = np.zeros((len(models), N_GROUPS, N_SLOTS), np.float64)
    for i, m in enumerate(models):
        arr = np.asarray(m["weights"], np.float64)
        w[i, : arr.shape[0], : arr.shape[1]] = arr
    return w


WEIGHTS = _load_weights()
N_MODELS = WEIGHTS.shape[0]

KNOB_TABLE: tuple[Knob, ...] = heuristic.KNOB_TABLE + (
    Knob(
        "model",
        0.0,
        "the decision model: an index into strategies/models/expert.json, or -1 for none (the "
        "heuristic alone, i.e. expert-v1's play)",
        f"-1 .. {N_MODELS - 1}",
    ),
    Knob(
        "margin",
        0.0,
        "points: play the model's choice only when its score beats the heuristic's by more",
    ),
    Knob(
        "candidates",
        1.0,
        "meld phase: 0 every legal action is scored; 1 the heuristic's choice and every "
        "discard (most of the model's gain, at a fraction of the cost)",
    ),
)
K = knob_index("LearnedKnobs", KNOB_TABLE)


DEFAULTS = knob_defaults(KNOB_TABLE)


@njit(cache=True, _nrt=False)
def decide_nb(
    obs: np.ndarray, params: np.ndarray, knobs: np.ndarray, rng: np.ndarray, buf: np.ndarray
) -> int:
    base = heuristic.decide_nb(obs, params, knobs, rng, buf)
    m = int(knobs[K.model])
    phase = obs[Off.PHASE]
    if m < 0 or m >= N_MODELS or (phase != Phase.DRAW and phase != Phase.MELD):
        return base
    if phase == Phase.MELD and knobs[K.candidates] != 0:
        # the heuristic's choice and every legal discard (buf[0] = base, then the discards)
        buf[0] = base
        n = 1
        if discard_why_nb(obs, params, team_of_nb(obs)) == 0:
            for k in range(N_KINDS):
                if k != Kind.RED3 and obs[Off.HANDS + k] > 0 and Act.DISCARD + k != base:
                    buf[n] = Act.DISCARD + k
                    n += 1
    else:
        n = legal_actions_nb(obs, Off.HANDS, params, buf)
    if n <= 1:
        return base
    w = WEIGHTS[m]
    ctx, dc = context_nb(obs, params)
    # the context part of each group's score, once per decision (the groups of this phase)
    if phase == Phase.DRAW:
        c0 = context_dot_nb(w, G.DRAW, ctx)
        c1 = context_dot_nb(w, G.TAKE, ctx)
        c2 = context_dot_nb(w, G.DECLINE, ctx)
        cd = (c0, c1, c2, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, c1)
    else:
        c3 = context_dot_nb(w, G.MELD, ctx)
        c4 = context_dot_nb(w, G.ADD_NAT, ctx)
        c5 = context_dot_nb(w, G.ADD_WILD, ctx)
        c6 = context_dot_nb(w, G.DISC_NAT, ctx)
        c7 = context_dot_nb(w, G.DISC_B3, ctx)
        c8 = context_dot_nb(w, G.DISC_WILD, ctx)
        c9 = context_dot_nb(w, G.SEQ, ctx)
        cd = (0.0, 0.0, 0.0, c3, c4, c5, c6, c7, c8, c9)
    best = base
    best_s = -1e300
    base_s = 0.0
    for i in range(n):
        a = buf[i]
        g = group_of_nb(a)
        is_base = a == base
        s = cd[g] + spec_dot_nb(w, g, 1.0 if is_base else 0.0, action_nb(obs, params, a, g, dc))
        if is_base:
            base_s = s
        if s > best_s:
            best_s = s
            best = a
    if best != base and best_s > base_s + knobs[K.margin]:
        return best
    return base


__all__ = ["KNOB_TABLE", "K", "DEFAULTS", "WEIGHTS", "decide_nb"]
