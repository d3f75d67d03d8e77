"""The running tables: loading them from the store, their bot drivers, hints and reviews.

Each table that has bots gets a driver thread: while a bot is to act it waits ``pace`` seconds
(so that a person can follow the moves one at a time), then plays the bot's move.  A table is
loaded from the store the first time one of its links is used, so a restarted server resumes
every game where it was.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Any

from sim.table.bots import bot_action
from sim.table.equity import EquityBook
from sim.table.hints import HintBudget, HintJob, tutor_verdict
from sim.table.model import HandLog, Move, Table
from sim.table.reviews import ReviewBudget, ReviewJob
from sim.table.settings import TableError, TableSettings
from sim.table.store import Store
from sim.table.view import seat_view

__all__ = ["Hub", "HubConfig"]


@dataclass
class HubConfig:
    pace: float = 0.8  # seconds between two bot moves
    hint: HintBudget = field(default_factory=HintBudget)
    tutor: HintBudget = field(default_factory=lambda: HintBudget(rollouts=4000, until_ci=50.0))
    review: ReviewBudget = field(default_factory=ReviewBudget)
    auto_review: bool = True  # review the humans' decisions as soon as a hand is over
    equity: bool = True  # P(win the game) beside the score in whole games
    equity_games: int = 400
    tutor_wait: float = 60.0  # seconds an action waits for the tutor's analysis


class Hub:
    def __init__(self, store: Store, config: HubConfig | None = None) -> None:
        self.store = store
        self.config = config or HubConfig()
        self.lock = threading.RLock()
        self.tables: dict[str, Table] = {}
        self.drivers: dict[str, threading.Thread] = {}
        self.hints: dict[tuple, HintJob] = {}
        self.reviews: dict[tuple[str, int], ReviewJob] = {}
        self.equity = EquityBook(store, games=self.config.equity_games)
        self.closed = threading.Event()

    # ------------------------------------------------------------------ tables
    def new_table(self, settings: TableSettings) -> tuple[Table, dict[int, str]]:
        table = Table("new", settings)
        gid, tokens = self.store.new_game(settings, table.hands)
        table.id = gid
        table.saver = self._save
        with self.lock:
            self.tables[gid] = table
        self._drive(table)
        return table, tokens

    def import_table(self, settings: TableSettings, hand: HandLog) -> tuple[Table, dict[int, str]]:
        table = Table("new", settings, [hand], imported=True)
        gid, tokens = self.store.new_game(settings, [hand], imported=True, status="over")
        table.id = gid
        table.saver = self._save
        with self.lock:
            self.tables[gid] = table
        self._after_hand(table)
        return table, tokens

    def table(self, gid: str) -> Table:
        with self.lock:
            t = self.tables.get(gid)
            if t is not None:
                return t
            loaded = self.store.load(gid)
            if loaded is None:
                raise TableError(f"no game {gid}", 404)
            settings, hands, imported = loaded
            t = Table(gid, settings, hands, saver=self._save, imported=imported)
            self.tables[gid] = t
        self._drive(t)
        return t

    def seat(self, token: str) -> tuple[Table, int]:
        """The table and seat of a seat link; TableError 404 for an unknown link."""
        if not isinstance(token, str) or not 8 <= len(token) <= 64:
            raise TableError("no such seat link", 404)
        found = self.store.seat_of(token)
        if found is None:
            raise TableError("no such seat link", 404)
        return self.table(found[0]), found[1]

    def _save(self, table: Table, hand: HandLog) -> None:
        status = "playing"
        if hand.result is not None:
            over = table.settings.mode == "hand" or table.imported
            totals = [c + r for c, r in zip(hand.cum, hand.result, strict=True)]
            if over or max(totals) >= table.rules.game_target:
                status = "over"
        self.store.save_hand(table.id, hand, status)

    def view(self, table: Table, seat: int) -> dict[str, Any]:
        with table.lock:
            v = seat_view(table, seat)
            over = table.hand_over
        v["hint"] = self._hint_state(table, seat)
        v["review"] = self.review_state(table, table.hand.index) if over else None
        if table.settings.mode == "game" and self.config.equity:
            v["games"]["p_win"] = self.equity.view(
                table.rules, v["games"]["totals"], v["games"]["over"]
            )
        return v

    # ------------------------------------------------------------------ bots
    def _drive(self, table: Table) -> None:
        if table.imported or all(p == "human" for p in table.settings.seats):
            if table.hand_over:
                self._after_hand(table)
            return
        with self.lock:
            if table.id in self.drivers:
                return
            th = threading.Thread(
                target=self._driver, args=(table,), daemon=True, name=f"canasta-bots-{table.id}"
            )
            self.drivers[table.id] = th
        th.start()

    def _decide(self, table: Table):
        def decide(gs, hand_index):
            return bot_action(gs, table.settings.seats, table.settings.seed, hand_index)

        return decide

    def _driver(self, table: Table) -> None:
        decide = self._decide(table)
        while not self.closed.is_set() and not table.closed:
            with table.changed:
                table.changed.wait_for(
                    lambda: table.bot_to_act or table.closed or table.hand_over, timeout=1.0
                )
                waiting = table.bot_to_act
                over = table.hand_over
                version = table.version
            if over:
                self._after_hand(table)
                if table.game_over:
                    return
                table.wait(version, 1.0)  # until the next hand is dealt
                continue
            if not waiting:
                continue
            if self.config.pace > 0:
                table.wait(version, self.config.pace)
            try:
                table.bot_step(decide)
            except TableError:
                time.sleep(0.5)  # the store refused the move: try again, nothing was applied

    # ------------------------------------------------------------------ hints and tutor
    def _hint_key(self, table: Table, seat: int, kind: str = "hint") -> tuple:
        return (table.id, seat, table.hand.index, len(table.gs.history), kind)

    def _hint_state(self, table: Table, seat: int) -> dict | None:
        with table.lock:
            key = self._hint_key(table, seat)
        job = self.hints.get(key)
        return job.to_json() if job is not None else None

    def hint(self, table: Table, seat: int, kind: str = "hint") -> HintJob:
        """Start (or find) the analysis of ``seat``'s current decision: ``kind`` "hint" (the
        hint budget) or "tutor" (the tutor's smaller one)."""
        budget = self.config.hint if kind == "hint" else self.config.tutor
        with table.lock:
            if not table.settings.practice:
                raise TableError("a rated game has no hints (start a practice game)", 409)
            if table.to_act != seat:
                raise TableError("hints are for your own turn: it is not your turn", 409)
            key = self._hint_key(table, seat, kind)
            job = self.hints.get(key)
            if job is not None and job.status not in ("cancelled", "failed"):
                return job
            gs = table.gs
            seed = table.settings.seed * 1_000_003 + table.hand.index * 10_007 + len(gs.history)
            equity = None
            if table.settings.mode == "game" and self.config.equity:
                got = self.equity.lookup(table.rules)
                equity = got[0] if got else None
            job = HintJob(gs, gs.seat, budget, seed % 2**62, equity)
        self._forget_old_hints(table)
        with self.lock:
            self.hints[key] = job
        return job.start()

    def _forget_old_hints(self, table: Table) -> None:
        with table.lock:
            now = (table.hand.index, len(table.gs.history))
        with self.lock:
            for k in [k for k in self.hints if k[0] == table.id and (k[2], k[3]) != now]:
                self.hints.pop(k).cancel()

    def tutor_check(self, table: Table, seat: int, move: Move) -> dict | None:
        """The tutor's warning for ``move`` (None: no warning, or the tutor is off).  Reads the
        hint of this decision when one is done, else runs the tutor's analysis and waits."""
        with table.lock:
            s = table.settings
            if not (s.practice and s.tutor) or table.to_act != seat:
                return None
            if len(table.gs.legal_actions()) < 2:
                return None
            actions = table.plan(move)
            hint = self.hints.get(self._hint_key(table, seat))
        job = (
            hint if hint is not None and hint.status == "done" else self.hint(table, seat, "tutor")
        )
        job.wait(self.config.tutor_wait)
        if job.status != "done":
            return None
        return tutor_verdict(job.rows, actions[0], s.tutor_threshold)

    # ------------------------------------------------------------------ reviews
    def _after_hand(self, table: Table) -> None:
        if not self.config.auto_review:
            return
        with table.lock:
            if not table.hand_over:
                return
            idx = table.hand.index
        self.review(table, idx)

    def review(self, table: Table, idx: int, retry: bool = False) -> ReviewJob | None:
        """Start (or find) the review of hand ``idx`` of ``table`` (it must be over); a failed
        one is started again only with ``retry``."""
        with self.lock:
            job = self.reviews.get((table.id, idx))
            if job is not None and (job.status != "failed" or not retry):
                return job
        stored, _ = self.store.review(table.id, idx)
        if stored is not None:
            return None
        with table.lock:
            if idx >= len(table.hands) or table.hands[idx].result is None:
                raise TableError(f"hand {idx + 1} is not over: nothing to review yet", 409)
            humans = table.settings.humans
            seed = (table.settings.seed + idx) % (2**40)
            equity = None
            if table.settings.mode == "game" and self.config.equity:
                got = self.equity.lookup(table.rules)  # P(win the game) lost per decision too
                equity = got[0] if got else None
            job = ReviewJob(table, idx, humans, self.config.review, seed, equity)
        if not job.reviewed:
            return None
        job.on_done = lambda j: self.store.save_review(table.id, j.idx, j.result, j.html)
        with self.lock:
            self.reviews[(table.id, idx)] = job
        return job.start()

    def review_state(self, table: Table, idx: int) -> dict[str, Any]:
        stored, html = self.store.review(table.id, idx)
        if stored is not None:
            return {"status": "done", "progress": 1.0, "review": stored, "html": html is not None}
        job = self.reviews.get((table.id, idx))
        if job is None:
            return {"status": "none", "progress": 0.0, "review": None}
        return job.to_json()

    # ------------------------------------------------------------------ closing
    def close(self) -> None:
        self.closed.set()
        with self.lock:
            for t in self.tables.values():
                t.close()
            for job in self.hints.values():
                job.cancel()
        for th in list(self.drivers.values()):
            th.join(timeout=5)
