"""Output of `canasta review`: the terminal table, and one self-contained HTML page (timeline plot
of each team's equity through the hand with mistakes and large luck events marked, the decision
table, the luck table, the summary)."""

from __future__ import annotations

import base64
import html
import io
from pathlib import Path

import pandas as pd

from reports.review import LUCK_SHOWN, MARKS, Review

__all__ = ["format_text", "write_html", "timeline_figure"]


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


def timeline_figure(rv: Review):
    """Each team's equity (points) at the reviewed seats' decisions, ending at the hand's result."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(11, 4.6))
    d = rv.decisions
    n_actions = len(rv.record.actions)
    colors = ["tab:blue", "tab:red", "tab:green"]
    n_teams = len(rv.result)
    labelled: list[float] = []  # x of the luck labels written: close ones are stacked, not overlaid
    for t in sorted(d["team"].unique()):
        dt = d[d["team"] == t].sort_values("index")
        xs = list(dt["index"]) + [n_actions]
        ys = list(dt["value"]) + [rv.result[t]]
        c = colors[t % 3]
        ax.plot(
            xs,
            ys,
            "-o",
            color=c,
            ms=3,
            lw=1.4,
            label=f"team {t} (seats {','.join(map(str, sorted(dt['seat'].unique())))})",
        )
        if n_teams == 2 and len(d["team"].unique()) == 1:
            o = 1 - t
            ax.plot(
                xs,
                [-y for y in ys],
                "--",
                color=colors[o],
                lw=1,
                alpha=0.7,
                label=f"team {o} (mirror)",
            )
        bad = dt[dt["mark"] != ""]
        ax.scatter(bad["index"], bad["value"], s=90, marker="X", color="black", zorder=5)
        for r in bad.itertuples():
            ax.annotate(
                f"{r.mark} {r.played}",
                (r.index, r.value),
                textcoords="offset points",
                xytext=(4, 8),
                fontsize=8,
                color="black",
            )
        lk = rv.luck[(rv.luck["team"] == t) & (rv.luck["luck"].abs() >= LUCK_SHOWN)]
        for r in lk.itertuples():
            up = r.luck > 0
            ax.scatter(
                [r.at_index],
                [r.after],
                s=70,
                marker="^" if up else "v",
                color="tab:green" if up else "tab:orange",
                zorder=5,
                edgecolor="black",
            )
            k = sum(abs(x - r.at_index) < 0.06 * n_actions for x in labelled)
            labelled.append(r.at_index)
            what = r.event if r.event == "deal" else f"{r.event} {r.cards[:12]}"
            ax.annotate(
                f"{what} {r.luck:+.0f}",
                (r.at_index, r.after),
                textcoords="offset points",
                xytext=(4, -12 - 10 * k),
                fontsize=7,
                color="dimgray",
            )
    ax.axhline(0, color="gray", lw=0.6)
    ax.set_xlabel("action of the hand")
    ax.set_ylabel("equity: expected hand result (points)")
    ax.set_title(
        "equity through the hand (X: marked mistakes; triangles: luck of at least "
        f"{LUCK_SHOWN:.0f} points)"
    )
    ax.legend(fontsize=8, loc="best")
    fig.tight_layout()
    return fig


CSS = """body{font-family:system-ui,sans-serif;max-width:1150px;margin:1.5em auto;padding:0 1em;
color:#222}
table{border-collapse:collapse;font-size:.85em;margin:.6em 0}th,td{border:1px solid #ccc;
padding:.2em .5em;text-align:right}th{background:#f0f0f0}td.l{text-align:left}
tr.m1 td{background:#fff6d0}tr.m2 td{background:#ffe0c0}
tr.m3 td{background:#ffc8c8}img{max-width:100%}p.note{color:#555;font-size:.9em}"""


def _table(df: pd.DataFrame, left: set[str], row_class=None) -> str:
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in df.columns)
    body = []
    for i, row in enumerate(df.itertuples(index=False)):
        cls = f' class="{row_class(i)}"' if row_class and row_class(i) else ""
        cells = "".join(
            f"<td{' class=l' if c in left else ''}>{html.escape(str(v))}</td>"
            for c, v in zip(df.columns, row, strict=True)
        )
        body.append(f"<tr{cls}>{cells}</tr>")
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"


def write_html(rv: Review, path) -> Path:
    """One self-contained page (the plot as a data URI, inline CSS, no scripts)."""
    import matplotlib.pyplot as plt

    path = Path(path)
    if path.suffix.lower() not in (".html", ".htm"):
        raise ValueError(f"-o {path}: the review page must end in .html")
    fig = timeline_figure(rv)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100)
    plt.close(fig)
    img = base64.b64encode(buf.getvalue()).decode("ascii")
    d = rv.decisions[rv.decisions["legal"] > 1]
    shown = pd.DataFrame(
        {
            "turn": d["turn"],
            "seat": d["seat"],
            "legal": d["legal"],
            "played": d["played"],
            "best": d["best"],
            "lost": d["lost"].round(0).astype(int),
            "95% CI": [
                f"[{lo:.0f}, {hi:.0f}]" if b != p else ""
                for lo, hi, b, p in zip(
                    d["lost_low"], d["lost_high"], d["best"], d["played"], strict=True
                )
            ],
            "mark": d["mark"],
            "equity": d["value"].round(0).astype(int),
        }
    )
    if "p_win" in d.columns:
        shown["P(win) after played, %"] = [
            f"{p:.1f} [{lo:.1f}, {hi:.1f}]"
            for p, lo, hi in zip(d["p_win"], d["p_win_low"], d["p_win_high"], strict=True)
        ]
        shown["P(win) lost [95% CI]"] = [
            f"{p:.2f} [{lo:.2f}, {hi:.2f}]"
            for p, lo, hi in zip(d["p_lost"], d["p_lost_low"], d["p_lost_high"], strict=True)
        ]
    level = {"?!": "m1", "?": "m2", "??": "m3"}
    marks = list(shown["mark"])
    luck = rv.luck.assign(
        luck=[_pm(v, h) for v, h in zip(rv.luck["luck"], rv.luck["half"], strict=True)],
        before=rv.luck["before"].round(0).astype(int),
        after=rv.luck["after"].round(0).astype(int),
    )
    summ = rv.summary.assign(
        skill=[
            _pm(-v, h)
            for v, h in zip(rv.summary["skill_lost"], rv.summary["skill_half"], strict=True)
        ],
        luck=[_pm(v, h) for v, h in zip(rv.summary["luck"], rv.summary["luck_half"], strict=True)],
    )
    keep = [
        "team",
        "seats",
        "decisions",
        "doubtful",
        "mistakes",
        "blunders",
        "skill",
        "luck",
        "result",
    ]
    if "p_win_lost" in summ.columns:
        summ = summ.assign(
            **{
                "P(win) lost, points of %": [
                    f"{v:.2f} ± {h:.2f}"
                    for v, h in zip(summ["p_win_lost"], summ["p_win_lost_half"], strict=True)
                ]
            }
        )
        keep.append("P(win) lost, points of %")
    summ = summ[keep]
    head = "".join(f"<p>{html.escape(x)}</p>" for x in _head(rv))
    page = (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>Canasta hand '
        "review</title>"
        f"<style>{CSS}</style></head><body><h1>Canasta hand review</h1>{head}"
        "<h2>Summary per team</h2>"
        + _table(summ, {"seats"})
        + "<p class=note>skill: minus the equity lost in the team's reviewed decisions; luck: the "
        "sum of its luck values "
        "(deal, upcard, draws); 95% intervals.</p>"
        '<h2>Equity through the hand</h2><img alt="equity timeline" '
        f'src="data:image/png;base64,{img}">'
        "<h2>Decisions</h2>"
        + _table(shown, {"played", "best", "mark"}, lambda i: level.get(marks[i], ""))
        + "<h2>Luck</h2>"
        + _table(
            luck[["turn", "seat", "team", "event", "cards", "before", "after", "luck"]],
            {"event", "cards"},
        )
        + "</body></html>\n"
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(page, encoding="utf-8")
    return path
