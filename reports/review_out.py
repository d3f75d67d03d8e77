"""Output of `canasta review`: the terminal table, and one self-contained HTML page
(`reports.review_page`: the summary, the equity timeline by turn, each decision as the seat saw
it with the top actions, the decision and luck tables)."""

from __future__ import annotations

from pathlib import Path

from reports.review import MARKS, Review

__all__ = ["format_text", "write_html"]


def _pm(v: float, half: float) -> str:
    return f"{v + 0.0:+.0f} ± {half:.0f}"  # + 0.0: no "-0"


def _head(rv: Review) -> list[str]:
    rec = rv.record
    key = f"seed={rec.key[0]} game={rec.key[1]} hand={rec.key[2]}" if rec.key else "stacked deck"
    strat = f"; played by {','.join(rec.strategies)}" if rec.strategies else ""
    marks = ", ".join(f"{m} {n} >= {t:.0f}" for t, m, n in reversed(MARKS))
    return [
        f"review of {rec.rules.label} {key}; scores before the hand "
        f"{', '.join(map(str, rec.cum)) or '0'}{strat}",
        f"seats reviewed: {', '.join(map(str, rv.seats))}; every legal action rolled out "
        f"{rv.rollouts} times, "
        f"then {rv.strategy} at every seat; values = the team's hand score minus the best "
        "opponent's (points)",
        f"marks by equity lost (when its 95% CI excludes 0): {marks} points",
    ]


def format_text(rv: Review, all_decisions: bool = False) -> str:
    """The terminal report: decisions (those with a choice; all with ``all_decisions``), luck,
    summary."""
    out = _head(rv) + [""]
    d = rv.decisions if all_decisions else rv.decisions[rv.decisions["legal"] > 1]
    w_play = max([len("played")] + [len(x) for x in d["played"]])
    w_best = max([len("best")] + [len(x) for x in d["best"]])
    pw = "p_win" in d.columns
    out.append(
        f"{'turn':>4} {'seat':>4} {'legal':>5}  {'played':<{w_play}}  {'best':<{w_best}}  "
        f"{'lost':>6} {'95% CI':>15} {'mark':<4} {'equity':>7}"
        + ("  P(win) after played    P(win) lost [95% CI]" if pw else "")
    )
    for r in d.itertuples():
        ci = f"[{r.lost_low:.0f}, {r.lost_high:.0f}]" if r.best != r.played else ""
        win = (
            f"  {r.p_win:5.1f}% [{r.p_win_low:.1f}, {r.p_win_high:.1f}]  {r.p_lost:5.2f} "
            f"[{r.p_lost_low:.2f}, {r.p_lost_high:.2f}]"
            if pw
            else ""
        )
        out.append(
            f"{r.turn:>4} {r.seat:>4} {r.legal:>5}  {r.played:<{w_play}}  {r.best:<{w_best}}  "
            f"{r.lost:>6.0f} {ci:>15} {r.mark:<4} {r.value:>7.0f}{win}"
        )
    out += ["", "luck (equity after the event minus the expected equity before it):"]
    out.append(
        f"{'turn':>4} {'seat':>4} {'event':<6} {'cards':<34} {'before':>7} {'after':>7} "
        f"{'luck':>14}"
    )
    for r in rv.luck.itertuples():
        out.append(
            f"{r.turn:>4} {r.seat:>4} {r.event:<6} {r.cards[:34]:<34} {r.before:>7.0f} "
            f"{r.after:>7.0f} "
            f"{_pm(r.luck, r.half):>14}"
        )
    out += ["", "summary per team (95% intervals):"]
    out.append(
        f"{'team':>4} {'seats':>6} {'choices':>7} {'?!':>3} {'?':>3} {'??':>3} "
        f"{'skill (lost)':>16} "
        f"{'luck':>16} {'hand result':>11}"
    )
    for r in rv.summary.itertuples():
        pwl = (
            f"   P(win) lost {r.p_win_lost:.2f} ± {r.p_win_lost_half:.2f} points of %"
            if hasattr(r, "p_win_lost")
            else ""
        )
        out.append(
            f"{r.team:>4} {r.seats:>6} {r.decisions:>7} {r.doubtful:>3} {r.mistakes:>3} "
            f"{r.blunders:>3} "
            f"{_pm(-r.skill_lost, r.skill_half):>16} {_pm(r.luck, r.luck_half):>16} "
            f"{r.result:>11}{pwl}"
        )
    return "\n".join(out)


def write_html(rv: Review, path) -> Path:
    """One self-contained page a person can follow decision by decision
    (reports.review_page)."""
    from reports.review_page import write_page

    return write_page(rv, path, _head(rv))
