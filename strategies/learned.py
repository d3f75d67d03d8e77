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

from sim.core.enums import Off, Phase
from sim.core.legal import legal_actions_nb
from strategies import heuristic
from strategies.features import N_GROUPS, N_SLOTS, action_nb, context_nb, group_of_nb, score_nb
from strategies.knobs import Knob, knob_defaults, knob_index

MODEL_FILE = "expert.json"
MODEL_SHA256 = "7c19849c0d931a403728816792b74e9ddbad90e43dcd2f0cf652451a56995223"

KNOB_TABLE: tuple[Knob, ...] = heuristic.KNOB_TABLE + (
    Knob("model", 0.0, "the decision model (an index into strategies/models/expert.json; -1 off)"),
    Knob("margin", 0.0, "play the model's choice only when it beats the heuristic's by this much"),
)
K = knob_index("LearnedKnobs", KNOB_TABLE)


def _load_weights() -> np.ndarray:
    path = resources.files("strategies.models").joinpath(MODEL_FILE)
    raw = path.read_bytes()
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
    n = legal_actions_nb(obs, Off.HANDS, params, buf)
    if n <= 1:
        return base
    w = WEIGHTS[m]
    ctx = context_nb(obs, params)
    best = base
    best_s = -1e300
    base_s = 0.0
    for i in range(n):
        a = buf[i]
        is_base = a == base
        s = score_nb(w, group_of_nb(a), 1.0 if is_base else 0.0, ctx, action_nb(obs, params, a))
        if is_base:
            base_s = s
        if s > best_s:
            best_s = s
            best = a
    if best != base and best_s > base_s + knobs[K.margin]:
        return best
    return base


__all__ = ["KNOB_TABLE", "K", "DEFAULTS", "WEIGHTS", "decide_nb"]
