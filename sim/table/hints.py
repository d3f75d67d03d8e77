"""Hints and the tutor: the seat's legal actions ranked by analyze's rollouts.

A hint analyses the decision as the seat knows it (`reports.analyze.decision_from_game`: its
observation and knowledge only) with analyze's default world model and continuation, every
action played in the same worlds (common random numbers), successive elimination until every
remaining difference to the best has a 95% half-width of ``until_ci`` points (or ``rollouts``
per action).  It runs in a thread; `HintJob.to_json` shows its progress while it runs.  The
random stream is keyed by the table's seed and the decision, so asking again gives the same
ranking.

The tutor reads the same analysis: before an action whose loss against the best is at least
the table's threshold with the loss's 95% interval above 0, it warns and names the best action.
"""

from __future__ import annotations

import math
import threading
import time
from dataclasses import dataclass
from typing import Any

from sim.play.game import GameState

__all__ = ["HintBudget", "HintJob", "tutor_verdict", "Cancelled"]


class Cancelled(Exception):
    """The hint is no longer wanted (the table moved on)."""


@dataclass(frozen=True)
class HintBudget:
    rollouts: int = 20_000  # cap per action
    until_ci: float | None = 25.0  # 95% half-width (points) of every difference to the best


# one analysis at a time: the machine's cores are shared with the bots and the page
_RUNNING = threading.Lock()


class HintJob:
    """The analysis of one decision, run in a daemon thread."""

    def __init__(
        self,
        gs: GameState,
        seat: int,
        budget: HintBudget,
        seed: int,
        equity=None,
    ) -> None:
        from reports.analyze import decision_from_game

        self.decision = decision_from_game(gs, seat)
        self.budget = budget
        self.seed = seed
        self.equity = equity
        self.status = "waiting"
        self.done = 0
        self.widest = math.inf
        self.rows: list[dict[str, Any]] = []
        self.error = ""
        self.seconds = 0.0
        self.cancelled = False
        self.finished = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True, name="canasta-hint")

    def start(self) -> HintJob:
        self.thread.start()
        return self

    def cancel(self) -> None:
        self.cancelled = True

    def _batch(self, rollouts: int, widest: float) -> None:
        self.done, self.widest = rollouts, widest
        if self.cancelled:
            raise Cancelled

    def _run(self) -> None:
        from reports.analyze import analyze

        try:
            with _RUNNING:
                if self.cancelled:
                    raise Cancelled
                self.status = "running"
                t0 = time.perf_counter()
                df = analyze(
                    self.decision,
                    rollouts=self.budget.rollouts,
                    until_ci=self.budget.until_ci,
                    seed=self.seed,
                    progress=False,
                    on_batch=self._batch,
                    equity=self.equity.of_totals if self.equity is not None else None,
                )
                self.seconds = time.perf_counter() - t0
            self.rows = [_row(r) for r in df.to_dict("records")]
            self.status = "done"
        except Cancelled:
            self.status = "cancelled"
        except Exception as exc:
            self.status, self.error = "failed", " ".join(str(exc).split()) or type(exc).__name__
        finally:
            self.finished.set()

    def wait(self, timeout: float) -> bool:
        return self.finished.wait(timeout)

    def to_json(self) -> dict[str, Any]:
        cap = self.budget.rollouts
        return {
            "status": self.status,
            "rollouts": self.done,
            "cap": cap,
            "until_ci": self.budget.until_ci,
            "widest": None if not math.isfinite(self.widest) else round(self.widest, 1),
            "progress": 1.0 if self.status == "done" else self._progress(),
            "actions": self.rows,
            "seconds": round(self.seconds, 2),
            "error": self.error,
        }

    def _progress(self) -> float:
        """Share of the work done: rollouts against the cap, or how far the widest interval has
        shrunk towards the target (half-widths shrink as 1 / sqrt(rollouts))."""
        by_cap = self.done / max(self.budget.rollouts, 1)
        target = self.budget.until_ci
        if target and math.isfinite(self.widest) and self.widest > 0:
            return round(min(max(by_cap, (target / self.widest) ** 2), 0.99), 3)
        return round(min(by_cap, 0.99), 3)


def _row(r: dict) -> dict[str, Any]:
    out = {
        "id": int(r["action_id"]),
        "action": r["action"],
        "mean": round(float(r["mean"]), 1),
        "ci": [round(float(r["ci_low"]), 1), round(float(r["ci_high"]), 1)],
        # loss against the best (>= 0), with its paired 95% interval
        "loss": round(-float(r["diff_to_best"]), 1),
        "loss_ci": [round(-float(r["diff_ci_high"]), 1), round(-float(r["diff_ci_low"]), 1)],
        "p_out": round(float(r["p_out"]), 3),
        "rollouts": int(r["rollouts"]),
        "tie": bool(r["tie"]),
    }
    if "p_win" in r:
        out["p_win"] = [round(float(r[c]), 4) for c in ("p_win", "p_win_low", "p_win_high")]
    return out


def tutor_verdict(rows: list[dict[str, Any]], action: int, threshold: float) -> dict | None:
    """The tutor's warning for playing ``action``, or None: its loss against the best is at
    least ``threshold`` points and the loss's 95% interval lies above 0."""
    if not rows:
        return None
    best = rows[0]
    mine = next((r for r in rows if r["id"] == action), None)
    if mine is None or mine["id"] == best["id"]:
        return None
    if mine["loss"] >= threshold and mine["loss_ci"][0] > 0:
        return {
            "played": mine["action"],
            "played_id": mine["id"],
            "best": best["action"],
            "best_id": best["id"],
            "loss": mine["loss"],
            "loss_ci": mine["loss_ci"],
            "threshold": threshold,
        }
    return None
