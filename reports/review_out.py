"""Output of `canasta review`: the terminal table, and one self-contained HTML page
(`reports.review_page`: the summary, the equity timeline by turn, each decision as the seat saw
it with the top actions, the decision and luck tables)."""

from __future__ import annotations

from pathlib import Path

from reports.review import MARKS, Review

__all__ = ["format_text", "write_html"]


def _pm(v: float, half: float) -> str:
    if v != v:  # NaN: not computed (--no-walk, --no-accounting)
        return "n/a"
    return f"{v + 0.0:+.0f} ± {half:.0f}"  # + 0.0: no "-0"


def _head(rv: Review) -> list[str]:
    rec = rv.record
    key = f"seed={rec.key[0]} game={rec.key[1]} hand={rec.key[2]}" if rec.key else "stacked deck"
    strat = f"; played by {','.join(rec.strategies)}" if rec.strategies else ""
    marks = ", ".join(f"{m} {n} >= {t:.0f}" for t, m, n in reversed(MARKS))
    scores = ", ".join(map(str, rec.cum)) or "0"
    return [
        f"review of {rec.rules.label} {key}; scores before the hand {scores}",
        *([strat[2:]] if strat else []),
        f"seats reviewed: {', '.join(map(str, rv.seats))}; every legal action rolled out "
        f"{rv.rollouts} times, then {rv.strategy} at every seat",
        "values: points of the team's hand score minus the best opposing team's",
        f"marks, when the loss's 95% CI excludes 0: {marks}",
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
        f"{'lost':>6} {'95% CI':>15} {'mark':<4} {'equity':>11}"
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
            f"{r.lost:>6.0f} {ci:>15} {r.mark:<4} {_pm(r.value, r.value_half):>11}{win}"
        )
    out += ["", "luck (equity after the event minus the expected equity before it):"]
    w_ev = max([len("event")] + [len(x) for x in rv.luck["event"]])
    w_cards = 36 - w_ev  # the row fits 100 columns
    out.append(
        f"{'turn':>4} {'seat':>4} {'event':<{w_ev}} {'cards':<{w_cards}} "
        f"{'before':>12} {'after':>12} "
        f"{'luck':>14}"
    )
    for r in rv.luck.itertuples():
        out.append(
            f"{r.turn:>4} {r.seat:>4} {r.event:<{w_ev}} {r.cards[:w_cards]:<{w_cards}} "
            f"{_pm(r.before, r.before_half):>12} {_pm(r.after, r.after_half):>12} "
            f"{_pm(r.luck, r.half):>14}"
        )
    out += ["", *_summary_lines(rv)]
    return "\n".join(out)


def _summary_lines(rv: Review) -> list[str]:
    """Per team: the marks, skill lost (on the cards, and from what the seats knew), the path
    sum, and the accounting of the result -- every figure with its 95% interval."""
    out = ["summary per team (95% intervals):"]
    out.append(
        f"{'team':>4} {'seats':>6} {'choices':>7} {'?!':>3} {'?':>3} {'??':>3}  "
        f"{'skill lost':>14} {'(from what it knew)':>19} {'path lost':>14}"
    )
    for r in rv.summary.itertuples():
        basis = "" if r.skill_basis == "cards" or r.skill_lost != r.skill_lost else " *"
        out.append(
            f"{r.team:>4} {r.seats:>6} {r.decisions:>7} {r.doubtful:>3} {r.mistakes:>3} "
            f"{r.blunders:>3}  {_pm(r.skill_lost, r.skill_half) + basis:>14} "
            f"{_pm(r.skill_known, r.skill_known_half):>19} {_pm(r.path_lost, r.path_half):>14}"
        )
        if hasattr(r, "p_win_lost") and r.p_win_lost == r.p_win_lost:  # not NaN
            out.append(
                f"{'':>4} P(win the game) lost along the hand: {r.p_win_lost:.2f} ± "
                f"{r.p_win_lost_half:.2f} points of %"
            )
    out += [
        "skill lost: what a player taking the best action at every decision of the team's",
        "reviewed seats gains on this deal over the hand's players (the deal replayed with it),",
        "valued on the actual cards; from what it knew: the same gain valued in the worlds the",
        "seats could imagine; path lost: the equity lost summed along the hand played (it counts",
        "again what a better player fixes once)",
    ]
    if any(
        r.skill_basis != "cards" and r.skill_lost == r.skill_lost for r in rv.summary.itertuples()
    ):
        out.append("* without the accounting: valued in the seats' worlds")
    if "expected" not in rv.summary.columns or rv.summary["expected"].isna().all():
        return out
    out += ["", "accounting of the hand result (expected + luck + own play + others' play):"]
    out.append(
        f"{'team':>4} {'expected':>14} {'luck':>14} {'own play':>14} {'others play':>14} "
        f"{'= result':>9}"
    )
    for r in rv.summary.itertuples():
        out.append(
            f"{r.team:>4} {_pm(r.expected, r.expected_half):>14} {_pm(r.luck, r.luck_half):>14} "
            f"{_pm(r.own_play, r.own_play_half):>14} "
            f"{_pm(r.others_play, r.others_play_half):>14} {r.result:>9.0f}"
        )
    out.append("(each seat's play measured against the choice of the continuation strategy, on the")
    out.append(" actual cards; luck: the deal, the upcard and every draw of every seat)")
    return out


def write_html(rv: Review, path) -> Path:
    """One self-contained page a person can follow decision by decision
    (reports.review_page)."""
    from reports.review_page import write_page

    return write_page(rv, path, _head(rv))
