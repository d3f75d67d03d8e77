"""HTML + Markdown report of a run folder.

``build_report(run_dir, out_html)`` writes ONE self-contained HTML file (matplotlib PNGs as
base64 data URIs, inline CSS, no external resources) and ``report.md`` (a Markdown summary
with the same tables, no images) beside it.  Sections (headings are stable, tests rely on
them): Experiment settings, Strategy comparison, Score distributions, Going-out curves,
Pile takes, freezes and concealed going out, Red threes and canastas, Surprises.
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
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from reports import odds, stats  # noqa: E402
from reports.runs import Run, decisions_with_strategy, lineup, open_run, team_long, team_of_seat  # noqa: E402
from sim.core.enums import Act, Kind  # noqa: E402

__all__ = ["build_report", "SECTIONS"]

SECTIONS = (
    "Experiment settings",
    "Strategy comparison",
    "Score distributions",
    "Going-out curves",
    "Pile takes, freezes and concealed going out",
    "Red threes and canastas",
    "Surprises",
    "Game equity",
)

NO_DEC = "Run with --log-decisions to get {what} (this run has no decision logs)."

CSS = """
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;max-width:1100px;margin:2em auto;
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

    def __init__(self, title: str):
        self.title = title
        self.html: list[str] = []
        self.md: list[str] = [f"# {title}", ""]
        self.n_images = 0

    def h2(self, text: str):
        self.html.append(f"<h2>{html.escape(text)}</h2>")
        self.md += [f"## {text}", ""]

    def p(self, text: str, note: bool = False):
        cls = ' class="note"' if note else ""
        self.html.append(f"<p{cls}>{html.escape(text)}</p>")
        self.md += [("> " if note else "") + text, ""]

    def table(self, df: pd.DataFrame, floatfmt: str = "{:.3g}", max_rows: int = 40):
        df = df.head(max_rows)

        def fmt(v):
            if isinstance(v, float | np.floating):
                if not math.isfinite(v):
                    return "" if math.isnan(v) else str(v)
                return floatfmt.format(v) if abs(v) < 100 else f"{v:,.0f}"
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

    def figure(self, fig, alt: str):
        buf = io.BytesIO()
        fig.savefig(buf, format="png", dpi=100, bbox_inches="tight")
        plt.close(fig)
        data = base64.b64encode(buf.getvalue()).decode("ascii")
        self.html.append(f'<img alt="{html.escape(alt)}" src="data:image/png;base64,{data}">')
        self.md += [f"*(figure in the HTML report: {alt})*", ""]
        self.n_images += 1

    def render_html(self) -> str:
        return (
            "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
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


def _ci_frame(t: pd.DataFrame, value: str, by: list[str]) -> pd.DataFrame:
    rows = []
    for keys, g in t.groupby(by, sort=True):
        keys = keys if isinstance(keys, tuple) else (keys,)
        ci = stats.mean_ci(g[value].to_numpy())
        rows.append({**dict(zip(by, keys, strict=True)), "n": ci.n, "mean": ci.mean,
                     "ci_low": ci.low, "ci_high": ci.high})
    return pd.DataFrame(rows)


# ----------------------------------------------------------------------------- sections


def _settings(doc: _Doc, run: Run, h: pd.DataFrame):
    doc.h2("Experiment settings")
    rows = _flatten(run.manifest)
    rows += [
        ("run folder", str(run.path)),
        ("hands in the hands table", f"{len(h):,}"),
        ("games in the games table", f"{len(run.read('games', ['game'])):,}" if run.has("games") else "none"),
        ("decision rows", f"{run.read('decisions', ['seed']).shape[0]:,}" if run.has("decisions") else "none (no decision logs)"),
    ]
    doc.table(pd.DataFrame(rows, columns=["setting", "value"]), max_rows=200)


def _comparison(doc: _Doc, run: Run, h: pd.DataFrame, t: pd.DataFrame, facts: list):
    doc.h2("Strategy comparison")
    lu = lineup(h, team_of_seat(run, h))
    d0 = h["score_t0"] - h["score_t1"] if "score_t1" in h else h["score_t0"]
    rows = []
    for lab in sorted(set(lu)):
        sel = (lu == lab).to_numpy()
        ci = stats.mean_ci(d0.to_numpy()[sel])
        won = float(((d0[sel] > 0) + 0.5 * (d0[sel] == 0)).mean())
        rows.append({"lineup (team 0 vs team 1)": lab, "hands": ci.n, "mean diff t0-t1": ci.mean,
                     "ci_low": ci.low, "ci_high": ci.high, "share won t0": won})
    doc.p("Mean score difference per hand, team 0 minus team 1, with 95% t confidence intervals "
          "(hands in this run are independent deals; use `canasta compare` for duplicate deals).")
    doc.table(pd.DataFrame(rows))
    per = _ci_frame(t, "score", ["strategy", "team"])
    per["label"] = per["strategy"] + " (team " + per["team"].astype(str) + ")"
    doc.p("Mean score per hand of each team/strategy:")
    doc.table(per.drop(columns=["label"]))
    fig, ax = plt.subplots(figsize=(8, 0.6 * len(per) + 1.6))
    y = np.arange(len(per))
    ax.errorbar(per["mean"], y, xerr=[per["mean"] - per["ci_low"], per["ci_high"] - per["mean"]],
                fmt="o", capsize=5, color="tab:blue", label="mean with 95% CI")
    ax.set_yticks(y, per["label"])
    ax.set_xlabel("mean score per hand (points)")
    ax.set_title("Mean score per hand by team and strategy (95% CI)")
    ax.grid(axis="x", alpha=0.3)
    ax.legend(loc="best")
    ax.margins(y=0.3)
    doc.figure(fig, "mean score per hand with confidence intervals")
    if len(per) >= 2:
        best, worst = per.loc[per["mean"].idxmax()], per.loc[per["mean"].idxmin()]
        facts.append((abs(best["mean"] - worst["mean"]),
                      f"{best['label']} scores {best['mean'] - worst['mean']:.0f} points per hand more "
                      f"than {worst['label']} ({best['mean']:.0f} vs {worst['mean']:.0f})."))


def _distributions(doc: _Doc, t: pd.DataFrame):
    doc.h2("Score distributions")
    q = t.groupby(["strategy", "team"])["score"].describe(percentiles=[0.05, 0.25, 0.5, 0.75, 0.95])
    doc.table(q.reset_index()[["strategy", "team", "count", "mean", "std", "5%", "25%", "50%", "75%", "95%"]])
    fig, ax = plt.subplots(figsize=(9, 4.5))
    lo, hi = np.quantile(t["score"], [0.005, 0.995])
    bins = np.linspace(lo, hi, 60)
    for (s, tm), g in t.groupby(["strategy", "team"]):
        ax.hist(g["score"].clip(lo, hi), bins=bins, histtype="step", lw=1.8, density=True,
                label=f"{s} (team {tm})")
    ax.set_xlabel("hand score (points)")
    ax.set_ylabel("density")
    ax.set_title("Distribution of hand scores by team and strategy")
    ax.legend()
    ax.grid(alpha=0.3)
    doc.figure(fig, "hand score histograms")


def _curves(doc: _Doc, run: Run, t: pd.DataFrame, facts: list):
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
    doc.p("Turns per hand by how the hand ended:")
    doc.table(dist)
    if run.has("decisions"):
        tab = odds.going_out_table(run, ["canastas_us"], within=4, min_n=30)
        doc.p("P(the deciding team goes out this hand / within 4 turns) by its canastas on the "
              "table, at the start of a turn (Wilson 95% CIs):")
        doc.table(tab)
    else:
        doc.p(NO_DEC.format(what="going-out odds by canastas, hand size and pile size"), note=True)


def _pile(doc: _Doc, run: Run, t: pd.DataFrame, facts: list):
    doc.h2("Pile takes, freezes and concealed going out")
    sh = odds.ending_shares(run)
    g = t.groupby("strategy").agg(hands=("score", "size"), pile_takes_per_hand=("pile_takes", "mean"),
                                  went_out=("went_out", "mean"), concealed=("concealed", "mean")).reset_index()
    doc.table(g)
    doc.p("Going out and concealed going out per preset and team strategy (Wilson 95% CIs):")
    doc.table(sh)
    if not run.has("decisions"):
        doc.p(NO_DEC.format(what="pile-take rates per draw decision and freeze counts"), note=True)
        fig, ax = plt.subplots(figsize=(7, 3.8))
        ax.bar(g["strategy"], g["pile_takes_per_hand"], color="tab:green", label="pile takes per hand")
        ax.set_ylabel("pile takes per hand")
        ax.set_title("Pile takes per hand by strategy")
        ax.legend()
        doc.figure(fig, "pile takes per hand")
        return
    dec = decisions_with_strategy(run, ["seed", "game", "hand", "turn", "seat", "decision_type",
                                        "action", "pile_frozen", "pile_size"])
    draw = dec[dec["decision_type"] == 0]
    took = draw["action"].between(Act.TAKE_PAIR, Act.TAKE_ONTO)
    disc = dec[dec["decision_type"] == 3]
    freeze = disc["action"].isin([Act.DISCARD + Kind.TWO, Act.DISCARD + Kind.JOKER])
    hands_logged = dec.groupby("strategy")[["seed", "game", "hand"]].apply(
        lambda x: len(x.drop_duplicates()))
    rows = []
    for s in sorted(dec["strategy"].unique()):
        sd = draw[draw["strategy"] == s]
        st = took[draw["strategy"] == s]
        fz = sd["pile_frozen"] == 1
        k_all, n_all = int(st.sum()), len(sd)
        k_fz, n_fz = int(st[fz.to_numpy()].sum()), int(fz.sum())
        p, lo, hi = stats.wilson_ci(k_all, n_all)
        rows.append({"strategy": s, "draw decisions": n_all, "take rate": p, "take_low": lo,
                     "take_high": hi,
                     "take rate (pile frozen)": k_fz / n_fz if n_fz else float("nan"),
                     "take rate (not frozen)": (k_all - k_fz) / (n_all - n_fz) if n_all > n_fz else float("nan"),
                     "freezes (wild discards) per hand": float(freeze[disc["strategy"] == s].sum()) / max(hands_logged.get(s, 1), 1)})
    tab = pd.DataFrame(rows)
    doc.p("From the decision logs: share of draw decisions that take the pile, and wild cards "
          "discarded (each freezes the pile) per logged hand:")
    doc.table(tab)
    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    x = np.arange(len(tab))
    axes[0].bar(x - 0.2, tab["take rate (not frozen)"], 0.4, label="pile not frozen")
    axes[0].bar(x + 0.2, tab["take rate (pile frozen)"], 0.4, label="pile frozen")
    axes[0].set_xticks(x, tab["strategy"])
    axes[0].set_ylabel("share of draw decisions taking the pile")
    axes[0].set_title("Pile take rate by strategy")
    axes[0].legend()
    axes[1].bar(x, tab["freezes (wild discards) per hand"], color="tab:purple", label="wild discards")
    axes[1].set_xticks(x, tab["strategy"])
    axes[1].set_ylabel("per logged hand")
    axes[1].set_title("Freezes (wild cards discarded) per hand")
    axes[1].legend()
    doc.figure(fig, "pile take rates and freezes")
    if len(tab) >= 2:
        i, j = tab["take rate"].idxmax(), tab["take rate"].idxmin()
        ratio = tab.loc[i, "take rate"] / max(tab.loc[j, "take rate"], 1e-9)
        facts.append((min(ratio, 10) * 50, f"{tab.loc[i, 'strategy']} takes the pile on "
                      f"{tab.loc[i, 'take rate']:.1%} of its draws, {ratio:.1f}x as often as "
                      f"{tab.loc[j, 'strategy']} ({tab.loc[j, 'take rate']:.1%})."))


def _red3(doc: _Doc, t: pd.DataFrame):
    doc.h2("Red threes and canastas")
    cols = [c for c in ("red3", "canastas", "natural_canastas", "opened") if c in t]
    g = t.groupby("strategy")[cols].mean().reset_index()
    g.columns = ["strategy"] + [f"{c} per hand" for c in cols]
    doc.table(g)
    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    for ax, col, title in ((axes[0], "canastas", "Canastas per hand"), (axes[1], "red3", "Red threes per hand")):
        vals = np.arange(0, int(t[col].quantile(0.999)) + 1)
        w = 0.8 / max(t["strategy"].nunique(), 1)
        for i, (s, gg) in enumerate(t.groupby("strategy")):
            freq = gg[col].value_counts(normalize=True).reindex(vals, fill_value=0)
            ax.bar(vals + (i - 0.5) * w, freq.to_numpy(), w, label=s)
        ax.set_xlabel(f"{col} per team and hand")
        ax.set_ylabel("share of hands")
        ax.set_title(title)
        ax.set_xticks(vals)
        ax.legend()
    doc.figure(fig, "canastas and red threes per hand")


def _surprises(doc: _Doc, run: Run, h: pd.DataFrame, t: pd.DataFrame, facts: list):
    doc.h2("Surprises")
    out = []
    n = len(h)
    ex = int((h["end_reason"] == 2).sum())
    p, lo, hi = stats.wilson_ci(ex, n)
    out.append((40 + 200 * p, f"The exhausted stock ends {p:.1%} of hands (95% CI {lo:.1%}-{hi:.1%})."))
    tl = int((h["end_reason"] == 4).sum())
    if tl:
        out.append((1000, f"{tl} hands hit the turn limit - a strategy may be stalling (should be ~0)."))
    # largest standardized strategy difference on any per-team feature
    feats = [c for c in ("canastas", "natural_canastas", "red3", "opened", "pile_takes", "went_out",
                         "concealed", "meld_points", "hand_penalty") if c in t]
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
            out.append((80 * eff, f"Largest strategy difference on a feature: {f} - {a} "
                        f"{va:.3g} vs {b} {vb:.3g} per hand ({eff:.2f} standard deviations)."))
    # who goes out: first player to move vs others
    went = h["went_out_seat"] >= 0
    if went.any():
        players = sum(1 for c in h.columns if c.startswith("strategy_s"))
        first = (h["dealer"].astype(int) + 1) % players
        share = float((h.loc[went, "went_out_seat"] == first[went]).mean())
        out.append((60 * abs(share * players - 1), f"The seat left of the dealer (first to move) goes out in "
                    f"{share:.1%} of the hands that end by going out (1/{players} = {1 / players:.1%} if seat did not matter)."))
    out += facts
    out.sort(key=lambda x: -x[0])
    doc.html.append('<ul class="surprises">' + "".join(f"<li>{html.escape(s)}</li>" for _, s in out) + "</ul>")
    doc.md += [f"- {s}" for _, s in out] + [""]


def _game_equity(doc: _Doc, run: Run):
    from reports.equity import report_section  # noqa: PLC0415

    doc.h2("Game equity")
    note, table, fig = report_section(run)
    doc.p(note, note=table is None)
    if table is not None:
        doc.table(table, max_rows=400)
        doc.figure(fig, "P(win the game) by cumulative scores")


# ----------------------------------------------------------------------------- entry point


def build_report(run_dir, out_html=None, title: str | None = None) -> dict:
    """Write the HTML report (default RUN_DIR/report.html) and report.md beside it.

    Returns {"html": path, "md": path, "images": n, "has_decisions": bool}."""
    run = open_run(run_dir)
    out_html = Path(out_html) if out_html else run.path / "report.html"
    if out_html.suffix.lower() not in (".html", ".htm"):
        raise ValueError(f"-o {out_html}: the report file must end in .html")
    h = run.hands
    if len(h) == 0:
        raise ValueError(f"{run.path} has an empty hands table")
    t = team_long(run, h)
    doc = _Doc(title or f"Canasta lab report: {run.path.name}")
    facts: list = []
    _settings(doc, run, h)
    _comparison(doc, run, h, t, facts)
    _distributions(doc, t)
    _curves(doc, run, t, facts)
    _pile(doc, run, t, facts)
    _red3(doc, t)
    _surprises(doc, run, h, t, facts)
    _game_equity(doc, run)
    out_html.parent.mkdir(parents=True, exist_ok=True)
    out_html.write_text(doc.render_html(), encoding="utf-8")
    md = out_html.with_name("report.md")
    md.write_text(doc.render_md(), encoding="utf-8")
    return {"html": out_html, "md": md, "images": doc.n_images, "has_decisions": run.has("decisions")}
