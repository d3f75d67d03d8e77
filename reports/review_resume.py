"""Checkpoints of `canasta review` (``--resume``): each decision's evaluation is kept as it
finishes, so that a review of many hands' decisions (``--seat all``) interrupted by Ctrl-C or a
kill continues where it stopped, to the same result.

`checkpointed` wraps an evaluator (`reports.review.Evaluator`): a call whose arguments (the
state's observation, the actions, the rollouts and the seed) are in the checkpoint returns the
kept table, any other call evaluates and keeps its table.  The evaluations are seeded, so the
resumed review is the uninterrupted one."""

from __future__ import annotations

import hashlib
from typing import Any

from reports.review import Evaluator, HandRecord

__all__ = ["checkpointed", "review_settings"]


def _key(gs: Any, actions: list, rollouts: int, seed: int) -> tuple:
    state = hashlib.blake2b(gs.observation().tobytes(), digest_size=16).hexdigest()
    return ("decision", int(gs.seat), state, tuple(int(a) for a in actions), rollouts, seed)


def checkpointed(evaluator: Evaluator, ckpt: Any) -> Evaluator:
    """`evaluator` whose results are kept in (and taken from) the checkpoint `ckpt`."""

    def evaluate(gs, actions, rollouts, seed):
        return ckpt.run(
            _key(gs, actions, rollouts, seed), lambda: evaluator(gs, actions, rollouts, seed)
        )

    return evaluate


def review_settings(rec: HandRecord, **options: Any) -> dict:
    """What a review's result depends on: the hand (rules, deal, dealer, scores, actions) and
    the review's options (seats, strategies, rollouts, seeds, model, equity table)."""
    return {
        "rules": rec.rules.to_dict(),
        "key": list(rec.key) if rec.key else None,
        "deck": list(rec.deck) if rec.deck else None,
        "dealer": rec.dealer,
        "cum": list(rec.cum),
        "actions": [int(a) for a in rec.actions],
        **options,
    }
