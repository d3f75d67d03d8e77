"""P(win the game) beside the score: a small equity table per rule set, made once and kept.

The table (reports.equity.equity_table) is estimated by whole games of the lab's default player
at every seat started at the scores of a coarse grid (a fifth of the target apart, ``GAMES``
games a cell, a few seconds of CPU); the store keeps it, so each rule set pays once.  Lookups
interpolate between cells (reports.equity.Equity); the 95% interval shown interpolates the
cells' Wilson intervals the same way.  Cells share their games' random streams (common random
numbers): neighbouring cells err together, so their differences are tighter than their
intervals suggest.
"""

from __future__ import annotations

import threading
from typing import Any

import pandas as pd

__all__ = ["EquityBook", "GAMES"]

GAMES = 400  # games per cell


class EquityBook:
    """Equity tables by rule set, made lazily in a thread; ``store`` keeps them."""

    def __init__(self, store=None, games: int = GAMES, strategy: str | None = None) -> None:
        self.store = store
        self.games = games
        self.strategy = strategy
        self.lock = threading.Lock()
        self.tables: dict[str, Any] = {}  # label -> (Equity of p, of low, of high) or "making"

    def _key(self, rules) -> str:
        from sim.table.settings import default_bot

        strat = self.strategy or default_bot()
        return f"equity:{rules.label}:{rules.game_target}:{strat}:{self.games}"

    def lookup(self, rules):
        """(p, low, high) Equity lookups, or None while the table is being made (starts it)."""
        key = self._key(rules)
        with self.lock:
            got = self.tables.get(key)
            if got is not None:
                return None if got == "making" else got
            cached = self.store.cached(key) if self.store is not None else None
            if cached is not None:
                self.tables[key] = _lookups(pd.DataFrame(cached["rows"]), cached["meta"])
                return self.tables[key]
            self.tables[key] = "making"
        threading.Thread(target=self._make, args=(rules, key), daemon=True).start()
        return None

    def _make(self, rules, key: str) -> None:
        from reports.equity import equity_table
        from sim.table.settings import default_bot

        try:
            strat = self.strategy or default_bot()
            step = max(int(rules.game_target) // 5, 1)
            df = equity_table(
                rules, [strat] * rules.players, step=step, games=self.games, progress=False
            )
            meta = df.attrs.get("equity", {})
            if self.store is not None:
                self.store.cache(key, {"rows": df.to_dict("list"), "meta": meta})
            with self.lock:
                self.tables[key] = _lookups(df, meta)
        except Exception:
            with self.lock:
                self.tables.pop(key, None)

    def view(self, rules, totals: list[int], over: bool) -> list[dict] | None:
        """Per team: P(win the game) with its 95% interval at these cumulative scores (the
        start of the next hand), or None while the table is being made."""
        if over:
            best = max(totals)
            leaders = [t for t, v in enumerate(totals) if v == best]
            return [
                {"p": (1.0 / len(leaders)) if t in leaders else 0.0, "low": None, "high": None}
                for t in range(len(totals))
            ]
        got = self.lookup(rules)
        if got is None:
            return None
        p, lo, hi = got
        out = []
        for t, us in enumerate(totals):
            them = max(v for s, v in enumerate(totals) if s != t) if len(totals) > 1 else 0
            out.append(
                {
                    "p": round(float(p.p_win(us, them)), 3),
                    "low": round(float(lo.p_win(us, them)), 3),
                    "high": round(float(hi.p_win(us, them)), 3),
                }
            )
        return out


def _lookups(df: pd.DataFrame, meta: dict):
    from reports.equity import Equity

    out = []
    for col in ("p_win", "ci_low", "ci_high"):
        d = df.assign(p_win=df[col])
        d.attrs["equity"] = meta
        out.append(Equity(d))
    return tuple(out)
