"""HTML + Markdown report of a run folder.

``build_report(run_dir, out_html)`` writes ONE self-contained HTML file (matplotlib PNGs as base64
data URIs, inline CSS, no external resources) and ``<name>.md`` (a Markdown summary with the same
tables, no images) beside it.  It leads with the answer (who wins, by how much, with what 95% CI,
for every pair of teams: one sentence each and one plot of the differences), then the evidence, and
the settings last.  Sections (headings are stable, tests rely on them):
Answer, Strategy comparison, Games won, Score distributions, Going-out curves, Pile takes,
freezes and concealed going out, Red threes and canastas, Surprises, Experiment settings.
Every interval is a 95% CI on the right unit: games (hands of one game share their cumulative
scores; in a run of independent hands a game is one hand), hands for decision rows.
Sections that need decision logs show a note ("run with --log-decisions to get ...") when the
run has none.
"""

from __future__ import annotations

import base64
import html
import io
import json
import math
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from reports import answer, odds, stats
from reports.runs import Run, decisions_with_strategy, open_run, team_long
from reports.summary import RunSummary
from sim.core.enums import Act, Kind
from sim.core.errors import CanastaError

__all__ = ["build_report", "SECTIONS"]

SECTIONS = (
    "Answer",
    "Strategy comparison",
    "Games won",
    "Score distributions",
    "Going-out curves",
    "Pile takes, freezes and concealed going out",
    "Red threes and canastas",
    "Surprises",
    "Game equity",
    "Experiment settings",
)

NO_DEC = "Run with --log-decisions to get {what} (this run has no decision logs)."

CSS = """
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;max-width:1100px;
margin:2em auto;
padding:0 1em;color:#222;line-height:1.45}
h1{border-bottom:2px solid #444}h2{margin-top:2em;border-bottom:1px solid #bbb}
table{border-collapse:collapse;margin:.8em 0;font-size:.9em}
th,td{border:1px solid #ccc;padding:.25em .6em;text-align:right}th{background:#f0f0f0}
td:first-child,th:first-child{text-align:left}
img{max-width:100%;height:auto;display:block;margin:.8em 0}
.note{background:#fff7d6;border-left:4px solid #e0b400;padding:.5em 1em}
ul.surprises li{margin:.4em 0}
"""


# ----------------------------------------------------------------------------- helpers


class _Doc:
    """Collects HTML and Markdown in parallel."""

    def __init__(self, title: str) -> None:
        self.title = title
        self.html: list[str] = []
        self.md: list[str] = [f"# {title}", ""]
        self.n_images = 0

    def h2(self, text: str) -> None:
        self.html.append(f"<h2>{html.escape(text)}</h2>")
        self.md += [f"## {text}", ""]

    def p(self, text: str, note: bool = False) -> None:
        cls = ' class="note"' if note else ""
        self.html.append(f"<p{cls}>{html.escape(text)}</p>")
        self.md += [("> " if note else "") + text, ""]

    def table(self, df: pd.DataFrame, floatfmt: str = "{:.3g}", max_rows: int = 40) -> None:
        df = df.head(max_rows)

        def fmt(v):
            if isinstance(v, float | np.floating):
                if not math.isfinite(v):
                    return "" if math.isnan(v) else str(v)
                return floatfmt.format(v) if abs(float(v)) < 100 else f"{v:,.0f}"
            if isinstance(v, int | np.integer) and not isinstance(v, bool):
                return f"{v:,}"
            return str(v)

        cells = [[fmt(v) for v in row] for row in df.itertuples(index=False)]
        head = "".join(f"<th>{html.escape(str(c))}</th>" for c in df.columns)
        body = "".join(
            "<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>" for row in cells
        )
        self.html.append(f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>")
        self.md.append("| " + " | ".join(str(c) for c in df.columns) + " |")
        self.md.append("|" + "---|" * len(df.columns))
        self.md += ["| " + " | ".join(c.replace("|", "/") for c in row) + " |" for row in cells]
        self.md.append("")

    def figure(self, fig, alt: str) -> None:
        buf = io.BytesIO()
        fig.savefig(buf, format="png", dpi=100, bbox_inches="tight")
        plt.close(fig)
        data = base64.b64encode(buf.getvalue()).decode("ascii")
        self.html.append(f'<img alt="{html.escape(alt)}" src="data:image/png;base64,{data}">')
        self.md += [f"*(figure in the HTML report: {alt})*", ""]
        self.n_images += 1

    def render_html(self) -> str:
        return (
            '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f"<title>{html.escape(self.title)}</title><style>{CSS}</style></head><body>"
            f"<h1>{html.escape(self.title)}</h1>\n" + "\n".join(self.html) + "\n</body></html>\n"
        )

    def render_md(self) -> str:
        return "\n".join(self.md) + "\n"


def _flatten(d: dict, prefix: str = "") -> list[tuple[str, str]]:
    out = []
    for k, v in d.items():
        key = f"{prefix}{k}"
        if isinstance(v, dict):
            out += _flatten(v, key + ".")
        else:
            out.append((key, json.dumps(v) if isinstance(v, list | tuple) else str(v)))
    return out


def _ci_frame(t: pd.DataFrame, values: list[str], by: list[str], pct: bool = False) -> pd.DataFrame:
    """Per group of ``by``: each value's mean with its 95% CI clustered by game, as text."""
    out = None
    for v in values:
        g = stats.cluster_group_ci(
            t.assign(_v=t[v].astype(np.float64)),
            "_v",
            by,
            ["seed", "game"],
            proportion=pct,
            bounds=(0.0, 1.0) if pct else None,
        )
        if out is None:
            out = g[by + ["n"]].rename(columns={"n": "hands"})
        fmt = answer.pct_ci if pct else answer.num_ci
        out[v] = [fmt(*r) for r in g[["mean", "low", "high"]].to_numpy()]
    return out


# ----------------------------------------------------------------------------- sections


def _settings(doc: _Doc, run: Run, h: pd.DataFrame) -> None:
    doc.h2("Experiment settings")
    rows = _flatten(run.manifest)
    rows += [
        ("run folder", str(run.path)),
        ("hands in the hands table", f"{len(h):,}"),
        (
            "games in the games table",
            f"{len(run.table('games', ['game'])):,}" if run.has("games") else "none",
        ),
        (
            "decision rows",
            f"{run.table('decisions', ['seed']).shape[0]:,}"
            if run.has("decisions")
            else "none (no decision logs)",
        ),
    ]
    doc.table(pd.DataFrame(rows, columns=["setting", "value"]), max_rows=200)


def _answer(doc: _Doc, summ: RunSummary) -> None:
    doc.h2("Answer")
    for line in answer.sentences(summ):
        doc.p(line)
    doc.figure(answer.difference_figure(summ), "score difference per hand for every pair of teams")


def _comparison(doc: _Doc, summ: RunSummary, facts: list) -> None:
    doc.h2("Strategy comparison")
    unit = "game" if summ.mode == "games" else "hand (each hand is an independent deal)"
    doc.p(
        f"Difference per hand for every pair of teams, 95% CIs clustered by {unit}; use "
        "`canasta compare` for duplicate deals."
    )
    p = summ.pairs
    doc.table(
        pd.DataFrame(
            {
                "difference": p["label"],
                "points per hand": [
                    answer.num_ci(e, lo, hi, signed=True)
                    for e, lo, hi in p[["estimate", "low", "high"]].to_numpy()
                ],
            }
        )
    )
    t = summ.teams
    doc.p(
        "Each team's mean score per hand and share of hands won (a tie for the highest score "
        "is shared):"
    )
    doc.table(
        pd.DataFrame(
            {
                "team": t["team"],
                "strategy": t["strategy"],
                "mean score per hand": [
                    answer.num_ci(*r) for r in t[["estimate", "low", "high"]].to_numpy()
                ],
                "hands won": [
                    answer.pct_ci(*r) for r in t[["won_estimate", "won_low", "won_high"]].to_numpy()
                ],
            }
        )
    )
    for r in p.itertuples():
        facts.append(
            (
                abs(r.estimate),
                f"{r.label}: {answer.num_ci(r.estimate, r.low, r.high, True)} points per hand.",
            )
        )


def _games(doc: _Doc, summ: RunSummary) -> None:
    doc.h2("Games won")
    if summ.game_teams is None:
        doc.p(
            "This run plays independent hands, not whole games: run `canasta simulate --games N` "
            "for games won.",
            note=True,
        )
        return
    g = summ.game_teams
    doc.p(
        f"{summ.games:,} whole games (independent: Wilson 95% CIs); a tied game counts equally "
        "for every team."
    )
    doc.table(
        pd.DataFrame(
            {
                "team": g["team"],
                "strategy": g["strategy"],
                "games won": [answer.pct_ci(*r) for r in g[["estimate", "low", "high"]].to_numpy()],
            }
        )
    )
    gp = summ.game_pairs
    assert gp is not None  # set together with game_teams
    doc.table(
        pd.DataFrame(
            {
                "difference": gp["label"],
                "final score per game": [
                    answer.num_ci(e, lo, hi, signed=True)
                    for e, lo, hi in gp[["estimate", "low", "high"]].to_numpy()
                ],
            }
        )
    )


def _distributions(doc: _Doc, t: pd.DataFrame) -> None:
    doc.h2("Score distributions")
    q = t.groupby(["strategy", "team"])["score"].describe(percentiles=[0.05, 0.25, 0.5, 0.75, 0.95])
    doc.table(
        q.reset_index()[
            ["strategy", "team", "count", "mean", "std", "5%", "25%", "50%", "75%", "95%"]
        ]
    )
    fig, ax = plt.subplots(figsize=(9.5, 4.8))
    lo, hi = (float(v) for v in np.quantile(t["score"], [0.005, 0.995]))
    edges = np.linspace(lo, hi, 61)
    w = edges[1] - edges[0]
    tails = []
    for i, ((s, tm), g) in enumerate(t.groupby(["strategy", "team"])):
        x = g["score"].to_numpy()
        pct = 100.0 / max(len(x), 1)
        core, _ = np.histogram(x[(x >= lo) & (x <= hi)], bins=edges)
        line = ax.stairs(core * pct, edges, lw=1.8, label=f"{s} (team {tm})")
        below, above = (x < lo).sum() * pct, (x > hi).sum() * pct
        c = line.get_edgecolor()
        # the tails as their own hatched bars beyond the range, their shares written out
        ax.bar(lo - (3 + i) * w, below, width=w, color=c, alpha=0.6, hatch="//", align="edge")
        ax.bar(hi + (2 + i) * w, above, width=w, color=c, alpha=0.6, hatch="//", align="edge")
        tails.append((c, f"{s} (team {tm})", below, above))
    for j, (c, lab, below, above) in enumerate(tails):
        y = 0.95 - 0.06 * (j + 1)
        ax.text(0.01, y, f"{lab}: {below:.1f}%", color=c, transform=ax.transAxes, fontsize=8)
        ax.text(
            0.99, y, f"{lab}: {above:.1f}%", color=c, transform=ax.transAxes, fontsize=8, ha="right"
        )
    ax.text(0.01, 0.95, f"below {lo:,.0f}:", transform=ax.transAxes, fontsize=8, weight="bold")
    ax.text(
        0.99,
        0.95,
        f"above {hi:,.0f}:",
        transform=ax.transAxes,
        fontsize=8,
        weight="bold",
        ha="right",
    )
    ax.set_ylim(0, ax.get_ylim()[1] * 1.35)  # room for the tail labels
    ax.axvline(lo, color="0.5", lw=0.8, ls=":")
    ax.axvline(hi, color="0.5", lw=0.8, ls=":")
    ax.set_xlabel("hand score (points); hatched bars: the tails, all hands beyond the dotted lines")
    ax.set_ylabel(f"percent of hands per {w:,.0f}-point bin")
    ax.set_title("Distribution of hand scores by team and strategy")
    ax.legend(fontsize=8, loc="center right")
    ax.grid(alpha=0.3)
    doc.figure(fig, "hand score histograms in percent of hands")


def _curves(doc: _Doc, run: Run, t: pd.DataFrame, facts: list) -> None:
    doc.h2("Going-out curves")
    cur = odds.hand_over_curve(run)
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    for col in cur.columns:
        axes[0].plot(cur.index, cur[col], lw=2, label=col)
    axes[0].set_xlabel("turn (all players' turns counted)")
    axes[0].set_ylabel("P(hand over by turn t)")
    axes[0].set_title("Hand over by turn t, per lineup")
    axes[0].set_ylim(0, 1.02)
    axes[0].grid(alpha=0.3)
    axes[0].legend()
    ts = cur.index.to_numpy()
    for s, g in t.groupby("strategy"):
        x = np.sort(g.loc[g["went_out"] == 1, "turns"].to_numpy())
        axes[1].plot(ts, np.searchsorted(x, ts, side="right") / max(len(g), 1), lw=2, label=s)
    axes[1].set_xlabel("turn")
    axes[1].set_ylabel("P(team went out by turn t)")
    axes[1].set_title("Team went out by turn t, per strategy")
    axes[1].set_ylim(0, 1.02)
    axes[1].grid(alpha=0.3)
    axes[1].legend()
    doc.figure(fig, "going-out curves")
    dist = odds.end_turn_distribution(run)
    dist.insert(
        3,
        "mean turns",
        [answer.num_ci(*r) for r in dist[["mean", "mean_low", "mean_high"]].to_numpy()],
    )
    doc.p("Turns per hand by how the hand ended (95% CI of the mean clustered by game):")
    doc.table(dist.drop(columns=["mean", "mean_low", "mean_high"]))
    if run.has("decisions"):
        tab = odds.going_out_table(run, ["canastas_us"], within=4, min_n=30)
        doc.p(
            "P(the deciding team goes out this hand / within 4 turns) by strategy, team and its "
            "canastas on the table, at the start of a turn (95% CIs clustered by game, i.e. by "
            "hand in a run of hands: the turns "
            "of a hand share its outcome):"
        )
        show = tab[["strategy", "team", "canastas_us", "n", "hands"]].rename(columns={"n": "turns"})
        show["P(go out)"] = [
            answer.pct_ci(*r) for r in tab[["p_out", "p_out_low", "p_out_high"]].to_numpy()
        ]
        show["P(within 4 turns)"] = [
            answer.pct_ci(*r)
            for r in tab[["p_within_4", "p_within_4_low", "p_within_4_high"]].to_numpy()
        ]
        doc.table(show)
    else:
        doc.p(NO_DEC.format(what="going-out odds by canastas, hand size and pile size"), note=True)


def _pile(doc: _Doc, run: Run, t: pd.DataFrame, facts: list) -> None:
    doc.h2("Pile takes, freezes and concealed going out")
    sh = odds.ending_shares(run)
    g = t.groupby("strategy").agg(pile_takes_per_hand=("pile_takes", "mean")).reset_index()
    doc.p("Pile takes per hand (95% CIs clustered by game):")
    doc.table(_ci_frame(t, ["pile_takes"], ["strategy", "team"]))
    doc.p(
        "Going out, concealed going out and exhausted stock per preset and team (95% CIs "
        "clustered by game):"
    )
    show = sh[["rules", "strategy", "team", "hands"]].copy()
    for col in ("went_out", "concealed", "exhausted"):
        show[col.replace("_", " ")] = [
            answer.pct_ci(*r)
            for r in sh[[f"share_{col}", f"share_{col}_low", f"share_{col}_high"]].to_numpy()
        ]
    doc.table(show)
    if not run.has("decisions"):
        doc.p(NO_DEC.format(what="pile-take rates per draw decision and freeze counts"), note=True)
        fig, ax = plt.subplots(figsize=(7, 3.8))
        ax.bar(
            g["strategy"], g["pile_takes_per_hand"], color="tab:green", label="pile takes per hand"
        )
        ax.set_ylabel("pile takes per hand")
        ax.set_title("Pile takes per hand by strategy")
        ax.legend()
        doc.figure(fig, "pile takes per hand")
        return
    dec = decisions_with_strategy(
        run,
        [
            "seed",
            "game",
            "hand",
            "turn",
            "seat",
            "decision_type",
            "action",
            "pile_frozen",
            "pile_size",
        ],
    )
    assert dec is not None  # the run has decision logs (checked above)
    draw = dec[dec["decision_type"] == 0]
    took = draw["action"].between(Act.TAKE_PAIR, Act.TAKE_ONTO)
    disc = dec[dec["decision_type"] == 3]
    freeze = disc["action"].isin([Act.DISCARD + Kind.TWO, Act.DISCARD + Kind.JOKER])
    hands_logged = dec.groupby("strategy")[["seed", "game", "hand"]].apply(
        lambda x: len(x.drop_duplicates())
    )
    rows = []
    for s in sorted(dec["strategy"].unique()):
        sd = draw[draw["strategy"] == s]
        st = took[draw["strategy"] == s]
        fz = sd["pile_frozen"] == 1
        k_all, n_all = int(st.sum()), len(sd)
        k_fz, n_fz = int(st[fz.to_numpy()].sum()), int(fz.sum())
        c = stats.cluster_group_ci(
            sd.assign(took=st.astype(np.float64).to_numpy(), one=0),
            "took",
            ["one"],
            ["seed", "game"],
            proportion=True,
            bounds=(0.0, 1.0),
        )
        p, lo, hi = (float(c[k].iloc[0]) for k in ("mean", "low", "high"))
        rows.append(
            {
                "strategy": s,
                "draw decisions": n_all,
                "take rate": p,
                "take_low": lo,
                "take_high": hi,
                "take rate (pile frozen)": k_fz / n_fz if n_fz else float("nan"),
                "take rate (not frozen)": (k_all - k_fz) / (n_all - n_fz)
                if n_all > n_fz
                else float("nan"),
                "freezes (wild discards) per hand": float(freeze[disc["strategy"] == s].sum())
                / max(hands_logged.get(s, 1), 1),
            }
        )
    tab = pd.DataFrame(rows)
    doc.p(
        "From the decision logs: share of draw decisions that take the pile (95% CI clustered "
        "by hand), and wild cards discarded (each freezes the pile) per logged hand:"
    )
    shown = tab.drop(columns=["take rate", "take_low", "take_high"])
    shown.insert(
        2,
        "take rate",
        [answer.pct_ci(*r) for r in tab[["take rate", "take_low", "take_high"]].to_numpy()],
    )
    doc.table(shown)
    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    x = np.arange(len(tab))
    axes[0].bar(x - 0.2, tab["take rate (not frozen)"], 0.4, label="pile not frozen")
    axes[0].bar(x + 0.2, tab["take rate (pile frozen)"], 0.4, label="pile frozen")
    axes[0].set_xticks(x, tab["strategy"])
    axes[0].set_ylabel("share of draw decisions taking the pile")
    axes[0].set_title("Pile take rate by strategy")
    axes[0].legend()
    axes[1].bar(
        x, tab["freezes (wild discards) per hand"], color="tab:purple", label="wild discards"
    )
    axes[1].set_xticks(x, tab["strategy"])
    axes[1].set_ylabel("per logged hand")
    axes[1].set_title("Freezes (wild cards discarded) per hand")
    axes[1].legend()
    doc.figure(fig, "pile take rates and freezes")
    if len(tab) >= 2:
        i, j = tab["take rate"].idxmax(), tab["take rate"].idxmin()
        ratio = tab.loc[i, "take rate"] / max(tab.loc[j, "take rate"], 1e-9)
        facts.append(
            (
                min(ratio, 10) * 50,
                f"{tab.loc[i, 'strategy']} takes the pile on "
                f"{tab.loc[i, 'take rate']:.1%} of its draws, {ratio:.1f}x as often as "
                f"{tab.loc[j, 'strategy']} ({tab.loc[j, 'take rate']:.1%}).",
            )
        )


def _red3(doc: _Doc, t: pd.DataFrame) -> None:
    doc.h2("Red threes and canastas")
    cols = [c for c in ("red3", "canastas", "natural_canastas", "opened") if c in t]
    doc.p("Per team and hand (95% CIs clustered by game):")
    doc.table(
        _ci_frame(t, cols, ["strategy", "team"]).rename(columns={c: f"{c} per hand" for c in cols})
    )
    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    for ax, col, title in (
        (axes[0], "canastas", "Canastas per hand"),
        (axes[1], "red3", "Red threes per hand"),
    ):
        vals = np.arange(0, int(t[col].quantile(0.999)) + 1)
        w = 0.8 / max(t["strategy"].nunique(), 1)
        for i, (s, gg) in enumerate(t.groupby("strategy")):
            freq = 100 * gg[col].value_counts(normalize=True).reindex(vals, fill_value=0)
            ax.bar(vals + (i - 0.5) * w, freq.to_numpy(), w, label=s)
        ax.set_xlabel(f"{col} per team and hand")
        ax.set_ylabel("percent of hands")
        ax.set_title(title)
        ax.set_xticks(vals)
        ax.legend()
    doc.figure(fig, "canastas and red threes per hand")


def _surprises(doc: _Doc, run: Run, h: pd.DataFrame, t: pd.DataFrame, facts: list) -> None:
    doc.h2("Surprises")
    out = []
    cl = h["seed"].to_numpy(np.int64) * (1 << 40) + h["game"].to_numpy(np.int64)
    c = stats.cluster_mean_ci((h["end_reason"] == 2).to_numpy(np.float64), cl, bounds=(0.0, 1.0))
    out.append(
        (
            40 + 200 * c.mean,
            f"The exhausted stock ends {answer.pct_ci(c.mean, c.low, c.high)} of hands.",
        )
    )
    tl = int((h["end_reason"] == 4).sum())
    if tl:
        out.append(
            (1000, f"{tl} hands hit the turn limit - a strategy may be stalling (should be ~0).")
        )
    # largest standardized strategy difference on any per-team feature
    feats = [
        c
        for c in (
            "canastas",
            "natural_canastas",
            "red3",
            "opened",
            "pile_takes",
            "went_out",
            "concealed",
            "meld_points",
            "hand_penalty",
        )
        if c in t
    ]
    strat = sorted(t["strategy"].unique())
    if len(strat) >= 2:
        best = None
        for f in feats:
            m = t.groupby("strategy")[f].mean()
            sd = t[f].std()
            if not sd or not np.isfinite(sd):
                continue
            eff = (m.max() - m.min()) / sd
            if best is None or eff > best[0]:
                best = (eff, f, m.idxmax(), m.max(), m.idxmin(), m.min())
        if best:
            eff, f, a, va, b, vb = best
            sd = float(t[f].std())
            # the two strategies' rows share hands (clusters by game): a clustered interval
            tcl = t["seed"].to_numpy(np.int64) * (1 << 40) + t["game"].to_numpy(np.int64)
            d = stats.cluster_diff_ci(
                t[f].to_numpy(np.float64),
                (t["strategy"] == a).to_numpy(),
                (t["strategy"] == b).to_numpy(),
                tcl,
            )
            out.append(
                (
                    80 * eff,
                    f"Largest strategy difference on a feature: {f} - {a} "
                    f"{va:.3g} vs {b} {vb:.3g} per hand: difference "
                    f"{answer.num_ci(d.mean, d.low, d.high, signed=True)}, i.e. "
                    f"{d.mean / sd:.2f} standard deviations (95% CI {d.low / sd:.2f} to "
                    f"{d.high / sd:.2f}); intervals clustered by game.",
                )
            )
    # who goes out: first player to move vs others
    went = h["went_out_seat"] >= 0
    if went.any():
        players = sum(1 for c in h.columns if c.startswith("strategy_s"))
        first = (h["dealer"].astype(int) + 1) % players
        hit = (h.loc[went, "went_out_seat"] == first[went]).to_numpy(np.float64)
        c = stats.cluster_mean_ci(hit, cl[went.to_numpy()], bounds=(0.0, 1.0))
        out.append(
            (
                60 * abs(c.mean * players - 1),
                f"The seat left of the dealer (first to move) goes out in "
                f"{answer.pct_ci(c.mean, c.low, c.high)} of the hands that end by going out "
                f"(1/{players} = {1 / players:.1%} if seat did not matter).",
            )
        )
    out += facts
    out.sort(key=lambda x: -x[0])
    doc.html.append(
        '<ul class="surprises">' + "".join(f"<li>{html.escape(s)}</li>" for _, s in out) + "</ul>"
    )
    doc.md += [f"- {s}" for _, s in out] + [""]


def _game_equity(doc: _Doc, run: Run) -> None:
    from reports.equity import report_section

    doc.h2("Game equity")
    note, table, fig = report_section(run)
    doc.p(note, note=table is None)
    if table is not None:
        doc.table(table, max_rows=400)
        doc.figure(fig, "P(win the game) by cumulative scores")


# ----------------------------------------------------------------------------- entry point


def build_report(run_dir, out_html=None, title: str | None = None) -> dict:
    """Write the HTML report (default RUN_DIR/report.html) and its Markdown twin beside it,
    named after it (X.html -> X.md), both checked writable before any work.

    Returns {"html": path, "md": path, "images": n, "has_decisions": bool}."""
    from sim.runs.outputs import writable_file

    run = open_run(run_dir)
    out_html = Path(out_html) if out_html else run.path / "report.html"
    if out_html.suffix.lower() not in (".html", ".htm"):
        raise CanastaError(f"-o {out_html}: the report file must end in .html")
    md = out_html.with_suffix(".md")
    for path in (out_html, md):
        writable_file(path, make_parent=True)
    h = run.hands
    if len(h) == 0:
        raise CanastaError(f"{run.path} has an empty hands table")
    t = team_long(run, h)
    doc = _Doc(title or f"Canasta lab report: {run.path.name}")
    facts: list = []
    summ = answer.run_summary(run, h)
    _answer(doc, summ)
    _comparison(doc, summ, facts)
    _games(doc, summ)
    _distributions(doc, t)
    _curves(doc, run, t, facts)
    _pile(doc, run, t, facts)
    _red3(doc, t)
    _surprises(doc, run, h, t, facts)
    _game_equity(doc, run)
    _settings(doc, run, h)
    from sim.runs.outputs import atomic_files

    out_html.parent.mkdir(parents=True, exist_ok=True)
    with atomic_files(out_html, md) as (tmp_html, tmp_md):  # both pages, or neither
        tmp_html.write_text(doc.render_html(), encoding="utf-8")
        tmp_md.write_text(doc.render_md(), encoding="utf-8")
    return {
        "html": out_html,
        "md": md,
        "images": doc.n_images,
        "has_decisions": run.has("decisions"),
    }
