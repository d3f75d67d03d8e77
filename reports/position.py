"""Rollouts from a position file (``canasta odds --position FILE --rollouts N``).

The position format, its parser and its checks live in sim.play.positions.text (re-exported here:
`Position`, `parse_position`, `load_position`, `parse_cards`, `card_kind`, `format_position`);
the documented example is docs/position-example.txt.

Rollouts (`rollout`) deal the unseen cards at random (sim.play.worlds.sampler; see
sim.play.rollouts.from_position for the rules of that random completion) and play the hand out with
the chosen strategies. ``n_teams`` is the rules' (2 for 2, 4, 5 and 6 players in two teams, 3
otherwise); a 5-player position describes the four seats that play the hand.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from sim.play.positions.text import (
    TEAM_NAMES,
    Meld,
    Position,
    PositionError,
    card_kind,
    format_position,
    load_position,
    pack_limits,
    parse_cards,
    parse_position,
)

if TYPE_CHECKING:
    import pandas as pd

    from sim.core.rules import RuleSet

__all__ = [
    "PositionError",
    "Position",
    "Meld",
    "RolloutResult",
    "parse_position",
    "load_position",
    "parse_cards",
    "card_kind",
    "format_position",
    "pack_limits",
    "rollout",
]


@dataclass
class RolloutResult:
    """Tables of `rollout` (teams named from the viewer's side: us, them, them2).

    teams:   team, seats, P(the hand ends by this team going out) with its Wilson 95% CI,
             expected hand score with its 95% t CI.
    within:  team, k, P(this team goes out within k turns) + Wilson 95% CI.  Turn 1 is the
             current turn of ``to_move``, turn 2 the next player's, and so on.
    endings: how the hands ended (went out / stock exhausted / red three last / turn limit),
             share with its Wilson 95% CI and mean number of turns.
    diffs:   every pair of teams: expected hand score difference (first minus second) with its
             95% t CI over rollouts (both scores come from the same rollout: paired).
    records: the raw rollout records (sim.play.rollouts.from_position.rollout_record_dt, engine team
    numbers).
    """

    teams: pd.DataFrame
    within: pd.DataFrame
    endings: pd.DataFrame
    records: np.ndarray
    strategies: tuple[str, ...]
    rollouts: int
    seed: int
    diffs: pd.DataFrame | None = None

    def to_text(self) -> str:
        import pandas as pd

        with pd.option_context("display.width", 200, "display.max_columns", 50):
            wide = self.within.assign(
                cell=[
                    f"{p:.3f} [{lo:.3f}, {hi:.3f}]"
                    for p, lo, hi in zip(
                        self.within["p"], self.within["low"], self.within["high"], strict=True
                    )
                ]
            ).pivot(index="k", columns="team", values="cell")
            wide = wide[[t for t in self.teams["team"] if t in wide.columns]]
            wide.columns.name = None
            lines = [
                f"{self.rollouts} rollouts, strategies {', '.join(self.strategies)}, seed "
                f"{self.seed}",
                "",
                "Per team: P(the hand ends by this team going out) and expected hand score (95% "
                "CIs)",
                self.teams.to_string(index=False, float_format="%.3f"),
                "",
                "P(team goes out within k turns), turn 1 = the current turn (Wilson 95% CI)",
                wide.to_string(),
                "",
                "How the hands ended",
                self.endings.to_string(index=False, float_format="%.3f"),
            ]
        return "\n".join(lines)


END_NAMES = {
    0: "running",
    1: "went out",
    2: "stock exhausted",
    3: "red three last",
    4: "turn limit",
}


def rollout(
    position: Position,
    rules: RuleSet | None = None,
    strategy: str = "expert",
    rollouts: int = 1000,
    seed: int = 0,
    within=(1, 2, 3, 5, 10),
    check: bool = False,
) -> RolloutResult:
    """Going-out odds and expected hand scores from ``rollouts`` random completions of the hidden
    cards (sim.play.rollouts.from_position), each played out with ``strategy`` (one spec for every
    seat, or a list of one per seat).  ``rules``: a sim.core.rules.RuleSet (default: classic for the
    position's players). Rollout i depends only on (seed, i)."""
    import pandas as pd

    from reports.stats import mean_ci, wilson_ci
    from sim.play.rollouts.from_position import prepare, run_rollouts

    ks = sorted({int(k) for k in within})
    if any(k < 1 for k in ks):
        raise ValueError(f"within: turns must be >= 1, got {list(within)}")
    setup = prepare(position, rules)
    specs = [strategy] if isinstance(strategy, str) else list(strategy)
    rec = run_rollouts(setup, specs, int(rollouts), int(seed), check)
    n = rec.shape[0]
    nt = position.n_teams
    team_rows, within_rows = [], []
    for pt in range(nt):
        et = setup.engine_team[pt]
        out = rec["went_out_team"] == et
        p, lo, hi = wilson_ci(int(out.sum()), n)
        sc = mean_ci(rec["score"][:, et])
        seats = " ".join(str(s) for s in range(position.players) if position.team_of_seat(s) == pt)
        team_rows.append(
            {
                "team": TEAM_NAMES[pt],
                "seats": seats,
                "p_out": p,
                "p_low": lo,
                "p_high": hi,
                "score": sc.mean,
                "score_low": sc.low,
                "score_high": sc.high,
            }
        )
        for k in ks:
            c = int((out & (rec["turns"] <= k)).sum())
            p, lo, hi = wilson_ci(c, n)
            within_rows.append({"team": TEAM_NAMES[pt], "k": k, "p": p, "low": lo, "high": hi})
    end_rows = []
    for code, name in END_NAMES.items():
        sel = rec["end_reason"] == code
        if sel.any():
            p, lo, hi = wilson_ci(int(sel.sum()), n)
            end_rows.append(
                {
                    "ended": name,
                    "share": p,
                    "share_low": lo,
                    "share_high": hi,
                    "n": int(sel.sum()),
                    "mean_turns": float(rec["turns"][sel].mean()),
                }
            )
    diff_rows = []
    for a, b in itertools.combinations(range(nt), 2):
        d = mean_ci(rec["score"][:, setup.engine_team[a]] - rec["score"][:, setup.engine_team[b]])
        diff_rows.append(
            {
                "difference": f"{TEAM_NAMES[a]} - {TEAM_NAMES[b]}",
                "score": d.mean,
                "score_low": d.low,
                "score_high": d.high,
            }
        )
    names = tuple(specs) if len(specs) > 1 else (specs[0],)
    return RolloutResult(
        pd.DataFrame(team_rows),
        pd.DataFrame(within_rows),
        pd.DataFrame(end_rows),
        rec,
        names,
        n,
        int(seed),
        pd.DataFrame(diff_rows),
    )
