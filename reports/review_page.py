"""The review page (`canasta review -o review.html`): one self-contained HTML file (inline CSS,
an inline SVG plot and a small inline script; nothing loaded from the network) that a person
can follow decision by decision.

- the summary per team (every term the review reports, with its 95% interval);
- the equity timeline by turn: each team's equity at the reviewed decisions, numbered markers
  for the marked decisions (the numbers of the decision table's rows) and L-numbered triangles
  for the luck events of at least `reports.review.LUCK_SHOWN` points (the luck table's rows),
  labels placed so that none overlaps another; a colour key (Okabe-Ito colours, told apart
  by shape too);
- a stepper: one decision at a time, what the seat saw there (its hand, both teams' melds and
  red threes, the pile's size, top card and whether it is frozen, the stock, what the other
  seats did since its previous decision) and the top five actions with their value and 95% CI
  as `canasta analyze` prints them, the played one highlighted; Prev / Next buttons, the arrow
  keys (or j / k) step, a row of the decision table or a marker opens its decision;
- the decision table and the luck table (they scroll sideways on a phone).

Without the script every decision is shown one after the other.
"""

from __future__ import annotations

import html
import math
from pathlib import Path

import pandas as pd

from reports.review import LUCK_SHOWN, MARKS

__all__ = ["write_page", "page_html", "COLOURS"]

# Okabe-Ito: distinguishable with the common colour-vision deficiencies
COLOURS = {
    "team0": "#0072B2",
    "team1": "#D55E00",
    "team2": "#009E73",
    "?!": "#F0E442",
    "??": "#D55E00",
    "?": "#E69F00",
    "luck+": "#009E73",
    "luck-": "#CC79A7",
}
MARK_NAMES = {m: n for _, m, n in MARKS}
SUIT_SIGN = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


def _e(x) -> str:
    return html.escape(str(x))


def _pm(v, half) -> str:
    if v is None or not math.isfinite(float(v)):
        return ""
    if half is None or not math.isfinite(float(half)):
        return f"{float(v) + 0.0:+.0f}"
    return f"{float(v) + 0.0:+.0f} ± {float(half):.0f}"


def _ci(v, lo, hi) -> str:
    if v is None:
        return ""
    if lo is None or hi is None:
        return f"{v:.0f}"
    return f"{v:.0f} [{lo:.0f}, {hi:.0f}]"


# ----------------------------------------------------------------------------- timeline (SVG)


def _nice_ticks(lo: float, hi: float, n: int = 6) -> list[float]:
    span = max(hi - lo, 1.0)
    raw = span / n
    mag = 10 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw)
    first = math.ceil(lo / step) * step
    return [first + i * step for i in range(int((hi - first) // step) + 1)]


def _place(labels: list[tuple[float, float, str]], width: float, height: float) -> list[tuple]:
    """Label positions (anchor x, y, then the text's x and baseline y) near each anchor (x, y,
    text) so that no two labels' boxes overlap: above the anchor, else further up or below,
    then beside, in steps; (the last resort, a full plot, is the nearest free row anywhere)."""
    placed: list[tuple[float, float, float, float]] = []
    out = []

    def free(box) -> bool:
        return (
            0 <= box[0]
            and box[2] <= width
            and 0 <= box[1]
            and box[3] <= height
            and not any(
                box[0] < p[2] and p[0] < box[2] and box[1] < p[3] and p[1] < box[3] for p in placed
            )
        )

    for x, y, text in sorted(labels, key=lambda t: t[0]):
        w = 8.4 * len(text) + 6
        rows = int(height // 16)
        offsets = [(-16.0 - 16 * k, 22.0 + 16 * k) for k in range(rows)]
        dys = [d for pair in offsets for d in pair]
        dxs = [0.0, w + 2, -(w + 2), 2 * (w + 2), -2 * (w + 2)]
        spot = None
        for dx in dxs:
            for dy in dys:
                box = (x + dx - w / 2, y + dy - 11, x + dx + w / 2, y + dy + 5)
                if free(box):
                    spot = (x + dx, y + dy, box)
                    break
            if spot:
                break
        if spot is None:  # nowhere near: the first free slot of the plot, row by row
            grid = ((gx, gy) for gy in range(12, int(height), 16) for gx in range(0, int(width), 8))
            for gx, gy in grid:
                box = (gx - w / 2, gy - 11, gx + w / 2, gy + 5)
                if free(box):
                    spot = (float(gx), float(gy), box)
                    break
        if spot is None:
            spot = (x, y - 16, (x - w / 2, y - 27, x + w / 2, y - 11))
        placed.append(spot[2])
        out.append((x, y, spot[0], spot[1], text))
    return out


def timeline_svg(rv, numbered: pd.DataFrame) -> str:
    """Each reviewed team's equity at its decisions (x = turn; several decisions of one turn
    spread within it), ending at the hand's result; numbered markers for the marked decisions
    (``numbered``: the decision table, column ``no``); L-numbered triangles for large luck."""
    d = rv.decisions.sort_values("index")
    n_turns = int(d["turn"].max()) if len(d) else 1
    last_x = n_turns + 1
    # x of each decision: its turn, plus its place among the turn's reviewed decisions
    pos: dict[int, float] = {}
    for _, g in d.groupby("turn", sort=True):
        m = len(g)
        for k, i in enumerate(g["index"]):
            pos[int(i)] = float(g["turn"].iloc[0]) + k / (m + 1)
    pos[len(rv.record.actions)] = float(last_x)
    luck = rv.luck.reset_index(drop=True).assign(no=lambda x: range(1, len(x) + 1))
    big = luck[luck["luck"].abs() >= LUCK_SHOWN]
    ys = list(d["value"]) + list(rv.result.values()) + list(big["after"]) + [0.0]
    lo, hi = min(ys), max(ys)
    pad = 0.12 * max(hi - lo, 200)
    lo, hi = lo - pad, hi + pad
    W, H, L, R, T, B = 1000.0, 400.0, 64.0, 16.0, 14.0, 40.0

    def sx(x: float) -> float:
        return L + (x - 1) / max(last_x - 1, 1) * (W - L - R)

    def sy(y: float) -> float:
        return T + (hi - y) / (hi - lo) * (H - T - B)

    parts = [
        f'<svg viewBox="0 0 {W:.0f} {H:.0f}" role="img" aria-label="equity through the hand" '
        'xmlns="http://www.w3.org/2000/svg" font-family="system-ui,sans-serif" font-size="14">'
    ]
    for t in _nice_ticks(lo, hi):
        parts.append(
            f'<line x1="{L}" x2="{W - R}" y1="{sy(t):.1f}" y2="{sy(t):.1f}" '
            f'stroke="{"#888" if t == 0 else "#e5e5e5"}" stroke-width="1"/>'
            f'<text x="{L - 6}" y="{sy(t) + 4:.1f}" text-anchor="end" fill="#444">{t:.0f}</text>'
        )
    step = max(1, round(n_turns / 12))
    for t in range(1, last_x + 1, step):
        parts.append(
            f'<line x1="{sx(t):.1f}" x2="{sx(t):.1f}" y1="{T}" y2="{H - B}" stroke="#f0f0f0"/>'
            f'<text x="{sx(t):.1f}" y="{H - B + 16}" text-anchor="middle" fill="#444">{t}</text>'
        )
    parts.append(
        f'<text x="{(L + W - R) / 2:.0f}" y="{H - 6}" text-anchor="middle" fill="#222">turn '
        f"(the last tick: the hand's result)</text>"
        f'<text transform="translate(14,{(T + H - B) / 2:.0f}) rotate(-90)" text-anchor="middle" '
        'fill="#222">equity: expected hand result (points)</text>'
    )
    labels = []
    for t in sorted(d["team"].unique()):
        dt = d[d["team"] == t]
        pts = [(sx(pos[int(i)]), sy(v)) for i, v in zip(dt["index"], dt["value"], strict=True)]
        pts.append((sx(last_x), sy(rv.result[int(t)])))
        col = COLOURS.get(f"team{int(t) % 3}", "#000")
        path = " ".join(f"{x:.1f},{y:.1f}" for x, y in pts)
        parts.append(f'<polyline points="{path}" fill="none" stroke="{col}" stroke-width="2"/>')
        parts += [f'<circle cx="{x:.1f}" cy="{y:.1f}" r="2.5" fill="{col}"/>' for x, y in pts[:-1]]
        parts.append(
            f'<rect x="{pts[-1][0] - 4:.1f}" y="{pts[-1][1] - 4:.1f}" width="8" height="8" '
            f'fill="{col}"><title>team {int(t)}: hand result {rv.result[int(t)]}</title></rect>'
        )
    for r in numbered[numbered["mark"] != ""].itertuples():
        x, y = sx(pos[int(r.index)]), sy(r.value)
        col = COLOURS.get(r.mark, "#000")
        parts.append(
            f'<a href="#d{r.no}"><circle cx="{x:.1f}" cy="{y:.1f}" r="6" fill="{col}" '
            f'stroke="#222" stroke-width="1.2"><title>#{r.no} turn {r.turn}: {_e(r.played)} '
            f"({_e(r.mark)} lost {r.lost:.0f})</title></circle></a>"
        )
        labels.append((x, y, f"{r.no}"))
    for r in big.itertuples():
        # at the first reviewed decision at or after the event (the hand's end after the last)
        at = min((i for i in pos if i >= int(r.at_index)), default=len(rv.record.actions))
        x, y = sx(pos[at]), sy(r.after)
        col = COLOURS["luck+" if r.luck > 0 else "luck-"]
        tri = (
            f"{x:.1f},{y - 7:.1f} {x - 6:.1f},{y + 5:.1f} {x + 6:.1f},{y + 5:.1f}"
            if r.luck > 0
            else f"{x:.1f},{y + 7:.1f} {x - 6:.1f},{y - 5:.1f} {x + 6:.1f},{y - 5:.1f}"
        )
        parts.append(
            f'<polygon points="{tri}" fill="{col}" stroke="#222" stroke-width="1">'
            f"<title>L{r.no}: {_e(r.event)} {_e(r.cards)} {r.luck:+.0f}</title></polygon>"
        )
        labels.append((x, y, f"L{r.no}"))
    for ax, ay, x, y, text in _place(labels, W, H - B):
        if abs(y - ay) > 20 or abs(x - ax) > 1:
            parts.append(
                f'<line x1="{ax:.1f}" y1="{ay:.1f}" x2="{x:.1f}" y2="{y - 4:.1f}" stroke="#999"/>'
            )
        parts.append(
            f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="middle" font-weight="bold" '
            f'fill="#111" paint-order="stroke" stroke="#fff" stroke-width="3">{_e(text)}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


def colour_key(rv) -> str:
    teams = sorted(int(t) for t in rv.decisions["team"].unique())
    items = [
        f'<span class="k"><i style="background:{COLOURS.get(f"team{t % 3}")}"></i>team {t} '
        "(line: its equity; square: its hand result)</span>"
        for t in teams
    ]
    for _, m, name in reversed(MARKS):
        items.append(
            f'<span class="k"><b class="dot" style="background:{COLOURS[m]}"></b>'
            f"{_e(m)} {name}</span>"
        )
    items.append(
        f'<span class="k"><b class="up" style="border-bottom-color:{COLOURS["luck+"]}"></b>'
        f'good luck</span><span class="k"><b class="down" style="border-top-color:'
        f'{COLOURS["luck-"]}"></b>bad luck (luck events of at least {LUCK_SHOWN:.0f} points '
        "either way)</span>"
    )
    return '<p class="key">' + " ".join(items) + "</p>"


# ----------------------------------------------------------------------------- the stepper


def _card(c: str) -> str:
    cls = "w" if c in ("2", "JK") else ("r" if c[-1:] in ("D", "H") or c == "R3" else "")
    face = c[:-1] + SUIT_SIGN[c[-1]] if len(c) >= 2 and c[-1] in SUIT_SIGN else c
    return f'<span class="c {cls}">{_e(face)}</span>'


def _melds(view: dict, team: str) -> str:
    items = view["melds"].get(team, [])
    red = view["red_threes"].get(team, 0)
    opened = view["opened"].get(team, False)
    body = "".join(
        f"<li>{_e(m['cards'])}"
        + (f' <span class="badge">{_e(m["canasta"])} canasta</span>' if m["canasta"] else "")
        + "</li>"
        for m in items
    )
    note = "" if opened or items else " (not opened)"
    red_text = f"; red threes: {red}" if red else ""
    return (
        f"<div><b>team {team}</b>{note}{red_text}<ul class=melds>{body or '<li>-</li>'}</ul></div>"
    )


def _top_table(top: list[dict]) -> str:
    if not top:
        return "<p>(no action values kept)</p>"
    rows = []
    for a in top:
        cls = ' class="played"' if a["played"] else ""
        diff = "best" if a["rank"] == 1 else _ci(a["diff"], a["diff_low"], a["diff_high"])
        half = (
            None
            if a["ci_low"] is None or a["ci_high"] is None
            else (a["ci_high"] - a["ci_low"]) / 2
        )
        rows.append(
            f"<tr{cls}><td>{a['rank']}</td><td class=l>{_e(a['action'])}"
            f"{' (played)' if a['played'] else ''}</td><td>{_pm(a['mean'], half)}</td>"
            f"<td>{diff}</td></tr>"
        )
    return (
        '<div class="scroll"><table class="top"><thead><tr><th>#</th><th>action</th>'
        "<th>value ± 95% CI</th><th>worse than the best [95% CI]</th></tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table></div>"
    )


def _section(no: int, row, view: dict, n: int) -> str:
    mark = row.mark
    verdict = (
        f'<span class="m {_mark_class(mark)}">{_e(mark)} {MARK_NAMES.get(mark, "")}</span> '
        if mark
        else ""
    )
    loss = (
        f"lost {row.lost:.0f} [{row.lost_low:.0f}, {row.lost_high:.0f}] against "
        f"<b>{_e(row.best)}</b>"
        if row.best != row.played
        else "the best action (or as good as it)"
    )
    since = (
        "".join(f"<li>seat {s['seat']}: {_e(s['action'])}</li>" for s in view["since"])
        or "<li>nothing (first decision, or the same turn)</li>"
    )
    pile = view["pile"]
    sizes = ", ".join(f"seat {s}: {k}" for s, k in view["hand_sizes"].items())
    teams = "".join(_melds(view, t) for t in sorted(view["melds"]))
    return (
        f'<section class="dec" id="d{no}" data-no="{no}"><h3>#{no} of {n} · turn {row.turn}, '
        f"seat {row.seat} ({row.phase}) · played <b>{_e(row.played)}</b></h3>"
        f"<p>{verdict}{loss}; equity {row.value:.0f} ± {row.value_half:.0f}</p>"
        '<div class="grid">'
        f"<div><h4>hand ({len(view['hand'])} cards)</h4><p class=hand>"
        + "".join(_card(c) for c in view["hand"])
        + "</p>"
        f"<h4>pile</h4><p>{pile['size']} cards, top {_e(pile['top'] or '-')}"
        f"{', <b>frozen</b>' if pile['frozen'] else ', not frozen'}; stock {view['stock']}</p>"
        f"<p class=small>cards in hand: {_e(sizes)}</p></div>"
        f"<div><h4>melds</h4>{teams}</div>"
        f"<div><h4>since the seat's last decision</h4><ul class=since>{since}</ul></div>"
        "</div>"
        f"<h4>top actions (the team's hand result, points)</h4>{_top_table(view['top'])}"
        "</section>"
    )


def _mark_class(mark: str) -> str:
    return {"?!": "m1", "?": "m2", "??": "m3"}.get(mark, "")


SCRIPT = """(function(){
var s=[].slice.call(document.querySelectorAll('section.dec'));if(!s.length)return;
var i=0,lab=document.getElementById('pos');document.body.classList.add('js');
function show(k){i=Math.max(0,Math.min(s.length-1,k));s.forEach(function(e,j){
e.hidden=j!==i;});if(lab)lab.textContent=(i+1)+' / '+s.length;
var rows=document.querySelectorAll('#decisions tbody tr');
[].forEach.call(rows,function(r,j){r.classList.toggle('cur',j===i);});}
function go(h){var m=/^#d(\\d+)$/.exec(h||'');if(m){show(+m[1]-1);
document.getElementById('stepper').scrollIntoView();}}
document.getElementById('prev').onclick=function(){show(i-1);};
document.getElementById('next').onclick=function(){show(i+1);};
document.addEventListener('keydown',function(e){if(e.altKey||e.ctrlKey||e.metaKey)return;
if(e.key==='ArrowRight'||e.key==='j'){show(i+1);e.preventDefault();}
else if(e.key==='ArrowLeft'||e.key==='k'){show(i-1);e.preventDefault();}});
window.addEventListener('hashchange',function(){go(location.hash);});
show(0);go(location.hash);})();"""

CSS = """*{box-sizing:border-box}body{font-family:system-ui,sans-serif;max-width:1150px;
margin:1em auto;padding:0 .8em;color:#222;line-height:1.35}h1{font-size:1.45em}
h2{font-size:1.2em;margin-top:1.4em}h3{font-size:1.05em;margin:.2em 0}h4{margin:.6em 0 .2em;
font-size:.95em}.scroll{overflow-x:auto;-webkit-overflow-scrolling:touch;max-width:100%}
.plot svg{min-width:760px;width:100%;height:auto}table{border-collapse:collapse;font-size:.85em;
margin:.4em 0}th,td{border:1px solid #ccc;padding:.2em .45em;text-align:right;white-space:nowrap}
th{background:#f0f0f0}td.l{text-align:left}tr.m1 td{background:#fbf5c4}tr.m2 td{background:#fde3b6}
tr.m3 td{background:#f8cdb3}tr.cur td{outline:2px solid #0072B2}tr.played td{background:#d6ecfa;
font-weight:bold}#decisions a{color:inherit}p.note,.small{color:#555;font-size:.88em}
.key .k{display:inline-block;margin-right:1em}.key i{display:inline-block;
width:1.4em;height:.25em;vertical-align:middle;margin-right:.3em}.dot{display:inline-block;width:.8em;
height:.8em;border-radius:50%;border:1px solid #222;vertical-align:middle;margin-right:.3em}
.up,.down{display:inline-block;width:0;height:0;border-left:.45em solid transparent;
border-right:.45em solid transparent;vertical-align:middle;margin-right:.3em}
.up{border-bottom:.8em solid}.down{border-top:.8em solid}
.grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(240px,1fr));gap:.2em 1.2em}
.c{display:inline-block;min-width:1.9em;padding:.05em .25em;margin:.1em;border:1px solid #999;
border-radius:4px;text-align:center;background:#fff;font-weight:600}.c.r{color:#c0392b}
.c.w{background:#fff4c2}.badge{font-size:.8em;background:#e8f3ec;border:1px solid #7fbf9a;
border-radius:3px;padding:0 .3em}ul.melds,ul.since{margin:.2em 0;padding-left:1.2em}
.m{padding:0 .3em;border-radius:3px}.m.m1{background:#F0E442}.m.m2{background:#E69F00}
.m.m3{background:#D55E00;color:#fff}section.dec{border:1px solid #ccc;border-radius:6px;
padding:.5em .8em;margin:.6em 0}.nav{display:none;gap:.6em;align-items:center}
body.js .nav{display:flex}.nav button{font-size:1em;padding:.3em .9em}"""


def _summary_table(rv) -> str:
    """Every column of the summary per team; a value and its ``_half`` (or ``_low`` and
    ``_high``) are shown as one cell "v ± h" / "v [lo, hi]"."""
    s = rv.summary
    cols = list(s.columns)
    shown: list[tuple[str, list[str]]] = []
    used: set[str] = set()
    names = {
        "skill_lost": "skill lost (on the cards)",
        "skill_known": "skill lost (from what the seats knew)",
        "result": "hand result",
        "decisions": "choices",
    }
    for c in cols:
        if c in used:
            continue
        for half in (f"{c}_half", c.replace("_lost", "") + "_half"):
            if half in cols and half != c:
                vals = [_pm(v, h) for v, h in zip(s[c], s[half], strict=True)]
                used |= {c, half}
                shown.append((names.get(c, c.replace("_", " ")), vals))
                break
        else:
            lo, hi = f"{c}_low", f"{c}_high"
            if lo in cols and hi in cols:
                vals = [_ci(v, a, b) for v, a, b in zip(s[c], s[lo], s[hi], strict=True)]
                used |= {c, lo, hi}
            else:
                vals = [_e(_fmt(v)) for v in s[c]]
                used.add(c)
            shown.append((names.get(c, c.replace("_", " ")), vals))
    head = "".join(f"<th>{_e(n)}</th>" for n, _ in shown)
    body = "".join(
        "<tr>" + "".join(f"<td>{vals[i]}</td>" for _, vals in shown) + "</tr>"
        for i in range(len(s))
    )
    table = f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
    return f'<div class="scroll">{table}</div>'


def _fmt(v) -> str:
    if isinstance(v, float):
        return "" if not math.isfinite(v) else f"{v:.0f}" if abs(v) >= 10 else f"{v:.2f}"
    return str(v)


def _decision_table(numbered: pd.DataFrame) -> str:
    rows = []
    for r in numbered.itertuples():
        ci = f"[{r.lost_low:.0f}, {r.lost_high:.0f}]" if r.best != r.played else ""
        cls = f' class="{_mark_class(r.mark)}"' if r.mark else ""
        rows.append(
            f'<tr{cls}><td><a href="#d{r.no}">{r.no}</a></td><td>{r.turn}</td><td>{r.seat}</td>'
            f"<td>{r.legal}</td><td class=l>{_e(r.played)}</td><td class=l>{_e(r.best)}</td>"
            f"<td>{r.lost:.0f}</td><td>{ci}</td><td class=l>{_e(r.mark)}</td>"
            f"<td>{r.value:.0f} ± {r.value_half:.0f}</td></tr>"
        )
    return (
        '<div class="scroll"><table id="decisions"><thead><tr><th>#</th><th>turn</th>'
        "<th>seat</th><th>legal</th><th>played</th><th>best</th><th>lost</th><th>95% CI</th>"
        f"<th>mark</th><th>equity</th></tr></thead><tbody>{''.join(rows)}</tbody></table></div>"
    )


def _luck_table(rv) -> str:
    rows = []
    for no, r in enumerate(rv.luck.itertuples(), 1):
        rows.append(
            f"<tr><td>L{no}</td><td>{r.turn}</td><td>{r.seat}</td><td>{r.team}</td>"
            f"<td class=l>{_e(r.event)}</td><td class=l>{_e(r.cards)}</td>"
            f"<td>{_pm(r.before, r.before_half)}</td><td>{_pm(r.after, r.after_half)}</td>"
            f"<td>{_pm(r.luck, r.half)}</td></tr>"
        )
    return (
        '<div class="scroll"><table><thead><tr><th>#</th><th>turn</th><th>seat</th><th>team</th>'
        "<th>event</th><th>cards</th><th>before</th><th>after</th><th>luck ± 95%</th></tr>"
        f"</thead><tbody>{''.join(rows)}</tbody></table></div>"
    )


def page_html(rv, head_lines: list[str]) -> str:
    """The page's text (see the module docstring)."""
    d = rv.decisions
    views = rv.views()
    keep = (d["legal"] > 1).to_numpy()
    numbered = d[keep].reset_index(drop=True).assign(no=lambda x: range(1, len(x) + 1))
    shown_views = [v for v, k in zip(views, keep, strict=True) if k]
    n = len(numbered)
    sections = "".join(
        _section(r.no, r, v, n) for r, v in zip(numbered.itertuples(), shown_views, strict=True)
    )
    rec = rv.record
    title = "Canasta hand review" + (
        f" — seed {rec.key[0]} game {rec.key[1]} hand {rec.key[2]}" if rec.key else ""
    )
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{_e(title)}</title><style>{CSS}</style></head><body>"
        f"<h1>{_e(title)}</h1>"
        + "".join(f"<p>{_e(x)}</p>" for x in head_lines)
        + "<h2>Summary per team</h2>"
        + _summary_table(rv)
        + "<p class=note>skill lost: what a player taking the best action at every decision of "
        "the team's reviewed seats gains on this deal over the hand's players (the deal replayed "
        "with it, valued on the actual cards; beside it the same gain valued in the worlds the "
        "seats could imagine); path lost: the equity lost summed along the hand played (it "
        "counts again what a better player fixes once); expected + luck + own play + others "
        "play = hand result (luck: the deal, the upcard and every draw of every seat; play: "
        "each action against the continuation strategy's choice); 95% intervals.</p>"
        "<h2>Equity through the hand</h2>"
        + colour_key(rv)
        + f'<div class="scroll plot">{timeline_svg(rv, numbered)}</div>'
        + "<p class=note>Numbers: the marked decisions (rows of the decision table); L numbers: "
        "the luck events (rows of the luck table). Click one to open it.</p>"
        f'<h2 id="stepper">Decision by decision ({n})</h2>'
        '<p class="nav"><button id="prev" type="button">&larr; Prev</button>'
        '<span id="pos"></span><button id="next" type="button">Next &rarr;</button>'
        '<span class="small">keys: &larr; &rarr; (or k j)</span></p>'
        + sections
        + "<h2>Decisions</h2>"
        + _decision_table(numbered)
        + "<h2>Luck</h2>"
        + _luck_table(rv)
        + f"<script>{SCRIPT}</script></body></html>\n"
    )


def write_page(rv, path, head_lines: list[str]) -> Path:
    """Write the page under a temporary name in its folder, then rename it into place."""
    path = Path(path)
    if path.suffix.lower() not in (".html", ".htm"):
        raise ValueError(f"-o {path}: the review page must end in .html")
    text = page_html(rv, head_lines)
    path.parent.mkdir(parents=True, exist_ok=True)
    from sim.runs.outputs import write_atomic

    return write_atomic(path, text)  # whole or not at all
