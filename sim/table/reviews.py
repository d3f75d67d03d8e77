"""The review of a finished hand's human seats (reports.review), run in a thread.

The review scores every decision of the reviewed seats against the best action by rollouts
from what that seat knew, gives each chance event (the deal, the upcard, every draw) its luck,
and sums skill and luck per team (docs/analysis.md).  The table keeps its JSON and its HTML
page in the store; `ReviewJob.to_json` shows its progress (decisions done) while it runs.
"""

from __future__ import annotations

import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["ReviewBudget", "ReviewJob", "hand_record"]


@dataclass(frozen=True)
class ReviewBudget:
    rollouts: int = 200  # per legal action and decision
    prior_hands: int | None = None  # deals for the luck of the deal (None: the review's default)
    strategy: str = "expert"  # continuation at every seat


_RUNNING = threading.Lock()  # one review at a time


def hand_record(table, idx: int):
    """Hand ``idx`` of a table as the review's HandRecord."""
    from reports.review import HandRecord

    hand = table.hands[idx]
    return HandRecord(
        table.rules,
        list(hand.actions),
        key=tuple(hand.key) if hand.key and hand.deck is None else None,
        deck=list(hand.deck) if hand.deck is not None else None,
        dealer=hand.dealer,
        cum=list(hand.cum),
        strategies=list(table.settings.seats),
    )


class ReviewJob:
    def __init__(
        self, table, idx: int, seats: list[int], budget: ReviewBudget, seed: int, equity=None
    ):
        from sim.table.model import Table

        assert isinstance(table, Table)
        self.record = hand_record(table, idx)
        self.idx = idx
        self.seats = seats
        self.budget = budget
        self.seed = seed
        self.equity = equity
        table_seats = list(self.record.new_state().seat_table)
        self.reviewed = [s for s in seats if s in table_seats]
        gs = self.record.new_state()
        self.total = 0
        for a in self.record.actions:
            self.total += gs.seat_table[gs.seat] in self.reviewed
            gs.apply(a)
        self.status = "waiting"
        self.done = 0
        self.result: dict[str, Any] | None = None
        self.html: str | None = None
        self.error = ""
        self.finished = threading.Event()
        self.on_done: Any = None
        self.thread = threading.Thread(target=self._run, daemon=True, name="canasta-review")

    def start(self) -> ReviewJob:
        self.thread.start()
        return self

    def _run(self) -> None:
        from reports import review_eval
        from reports.review import review
        from reports.review_out import write_html

        try:
            with _RUNNING:
                self.status = "running"
                inner = review_eval.make_evaluator(
                    self.record.rules, self.budget.strategy, equity=self.equity
                )

                def evaluate(gs, actions, rollouts, seed):
                    out = inner(gs, actions, rollouts, seed)
                    self.done += 1
                    return out

                rv = review(
                    self.record,
                    self.reviewed or None,
                    evaluate,
                    strategy=self.budget.strategy,
                    rollouts=self.budget.rollouts,
                    seed=self.seed,
                    prior_hands=self.budget.prior_hands,
                )
                self.result = rv.to_json()
                with tempfile.TemporaryDirectory() as tmp:
                    path = Path(tmp) / "review.html"
                    write_html(rv, path)
                    self.html = path.read_text(encoding="utf-8")
            self.status = "done"
            if self.on_done is not None:
                self.on_done(self)
        except Exception as exc:
            self.status, self.error = "failed", " ".join(str(exc).split()) or type(exc).__name__
        finally:
            self.finished.set()

    def to_json(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "decisions_done": self.done,
            "decisions": self.total,
            "progress": 1.0 if self.status == "done" else round(self.done / max(self.total, 1), 3),
            "review": self.result,
            "error": self.error,
        }
