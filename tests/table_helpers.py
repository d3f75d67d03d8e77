"""Helpers of the table's tests: a hub on a temporary database with small budgets, and driving a
seat through the API until it is to act."""

from __future__ import annotations

import time

from sim.table.hints import HintBudget
from sim.table.hub import Hub, HubConfig
from sim.table.reviews import ReviewBudget
from sim.table.store import Store

SMALL = dict(
    pace=0.0,
    hint=HintBudget(rollouts=120, until_ci=None),
    tutor=HintBudget(rollouts=120, until_ci=None),
    review=ReviewBudget(rollouts=8, prior_hands=24),
    equity=False,
)


def make_hub(path, **kw) -> Hub:
    return Hub(Store(path), HubConfig(**{**SMALL, **kw}))


def token_of(link: str) -> str:
    return link.rsplit("/", 1)[1]


def wait_turn(client, token: str, seat: int, timeout: float = 900.0) -> dict:
    """The seat's view once it is to act or the hand is over (bots play meanwhile)."""
    t0 = time.monotonic()
    v = client.get(f"/api/t/{token}/state").json()
    while v["hand"]["to_act"] != seat and v["hand"]["phase"] != "over":
        if time.monotonic() - t0 > timeout:
            raise AssertionError(f"seat {seat} never came to act: {v['hand']}")
        v = client.get(f"/api/t/{token}/state", params={"since": v["version"], "wait": 5}).json()
    return v


def plain_move(v: dict) -> dict:
    """A legal move of the seat to act: draw, else a discard (the last listed), else the first."""
    texts = [a["text"] for a in v["legal"]]
    for prefix in ("draw", "discard"):
        found = [a for a in v["legal"] if a["text"].startswith(prefix)]
        if found:
            return {"action": found[-1]["id"], "version": v["version"]}
    assert texts, "no legal action"
    return {"action": v["legal"][0]["id"], "version": v["version"]}


def play_hand(client, token: str, seat: int) -> dict:
    """Play the seat's decisions with `plain_move` until the hand is over; the final view."""
    while True:
        v = wait_turn(client, token, seat)
        if v["hand"]["phase"] == "over":
            return v
        r = client.post(f"/api/t/{token}/act", json=plain_move(v))
        assert r.status_code == 200, r.text
