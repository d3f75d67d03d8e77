"""Output of `canasta mistakes`: the terminal tables, the JSON object and one self-contained HTML
page (inline CSS, no scripts, no network; readable on a phone)."""

from __future__ import annotations

import html
import math
from pathlib import Path

import pandas as pd

from reports.decision_kinds import CLASSES, SITUATIONS, bucket_order

__all__ = ["situations", "to_json", "text_parts", "write_html", "head_lines"]

SHOWN_EXAMPLES = 8  # groups whose examples are printed (the costliest)


def situations(decisions: pd.DataFrame) -> pd.DataFrame:
    """One row per (situation, value): the census of `reports.mistakes.group` by each situation
    alone, values in their natural order."""
    from reports.mistakes import group

    parts = []
    for s in SITUATIONS:
        g = group(decisions, [s])
        g = g[g[s] != "all"]
        order = {v: i for i, v in enumerate(bucket_order(s))}
        g = g.assign(_o=g[s].map(order)).sort_values("_o").drop(columns="_o")
        parts.append(g.rename(columns={s: "value"}).assign(situation=s))
    cols = ["situation", "value"] + [c for c in parts[0].columns if c not in ("situation", "value")]
    return pd.concat(parts, ignore_index=True)[cols]


def _num(v: float, d: int = 0) -> str:
    if v is None or not math.isfinite(v):
        return "n/a" if v is None or math.isnan(v) else ("inf" if v > 0 else "-inf")
    return f"{round(v, d) + 0.0:.{d}f}"


def _ci(est: float, lo: float, hi: float) -> str:
    if not math.isfinite(est):
        return ""
    if not (math.isfinite(lo) and math.isfinite(hi)):
        return f"{_num(est)} [n/a]"
    return f"{_num(est)} [{_num(lo)}, {_num(hi)}]"


def _pct(v: float) -> str:
    return "" if not math.isfinite(v) else f"{100 * v:.0f}%"


def _label_columns(by: list[str]) -> dict[str, str]:
    names = {"played_class": "played", "best_class": "best", "opp_cards": "opp cards"}
    return {b: names.get(b, b.replace("_", " ")) for b in by}


def _shown(df: pd.DataFrame, by: list[str]) -> pd.DataFrame:
    """The census table as text cells."""
    labels = _label_columns(by)
    show = pd.DataFrame({labels[b]: df[b].astype(str) for b in by})
    if "kind" in by and {"played_class", "best_class"} <= set(by):
        show = show.drop(columns=labels["kind"])  # the kind is the pair (played, best)
        best = df["kind"] == "best"
        show[labels["best_class"]] = show[labels["best_class"]].where(~best, "= played")
    show["n"] = df["decisions"].astype(int)
    show["share"] = [_pct(v) for v in df["share"]]
    show["marked"] = [_pct(v) for v in df["marked_share"]]
    show["lost/decision"] = [
        _ci(a, b, c)
        for a, b, c in zip(df["lost_mean"], df["lost_mean_low"], df["lost_mean_high"], strict=True)
    ]
    show["lost/hand"] = [
        _ci(a, b, c)
        for a, b, c in zip(df["lost_hand"], df["lost_hand_low"], df["lost_hand_high"], strict=True)
    ]
    return show


def head_lines(meta: dict) -> list[str]:
    vs = f" against {meta['vs']}" if meta.get("vs") else " in self-play"
    out = [
        f"where {meta['strategy']} loses its points:",
        f"{meta['rules']}{vs}; {meta['hands']} hands "
        f"(seed {meta['seed']}), one seat of the strategy reviewed per hand; "
        f"{meta['decisions']} decisions with a choice, every legal action rolled out "
        f"{meta['rollouts']} times, then {meta['continue_with']} at every seat"
        + (f" (worlds inferred with {meta['infer']})" if meta.get("infer") else "")
        + ".",
    ]
    if meta.get("interrupted"):
        out.append(f"interrupted: {meta['hands']} of {meta['hands_asked']} hands reviewed.")
    return out


NOTE = (
    "lost = the reviewed seat's equity lost against the best action, in points of its team's "
    "hand result, counted as canasta review's summary counts skill (a loss whose 95% interval "
    "excludes 0; a tie with the best counts 0); lost/decision: mean per decision of the group; "
    "lost/hand: the group's loss per hand (hands without it count 0; the column adds up to the "
    "'all' row); 95% intervals clustered by hand; marked: share of the group's decisions "
    "review marks ?!, ? or ??."
)


def _wrap(text: str, width: int = 100, indent: str = "") -> list[str]:
    import textwrap

    return textwrap.wrap(text, width, initial_indent=indent, subsequent_indent=indent)


def _command_lines(cmd: str, width: int = 100) -> list[str]:
    """A shell command broken with backslashes so that no line is wider than ``width``."""
    words = (cmd + " > pos.txt && canasta analyze pos.txt").split(" ")
    lines, cur = [], "     "
    for w in words:
        if len(cur) + len(w) + 3 > width and cur.strip():
            lines.append(cur + " \\")
            cur = "       " + w
        else:
            cur = cur + " " + w if cur.strip() else cur + w
    lines.append(cur)
    return lines


def _costly(r, by: list[str]) -> bool:
    """A group whose examples are worth showing: a real group that lost points."""
    first = str(getattr(r, by[0]))
    return bool(r.examples) and r.lost_hand > 0 and first != "all" and "other groups" not in first


def _examples(df: pd.DataFrame, by: list[str], commands: list[list[str]]) -> list[str]:
    out = [
        "",
        "examples (the costliest decisions of the costliest groups; open one with the command):",
    ]
    k = 0
    for r, cmds in zip(df.head(SHOWN_EXAMPLES).itertuples(), commands, strict=False):
        if not _costly(r, by):
            continue
        name = " / ".join(str(getattr(r, b)) for b in by if b != "kind" or len(by) == 1)
        out.append(f"  {name}:")
        for ex, cmd in zip(r.examples[:2], cmds, strict=False):
            k += 1
            out.append(
                f"   {k}. game {ex['game']} hand {ex['hand']} turn {ex['turn']} seat {ex['seat']}: "
                f"{ex['played']} (best {ex['best']}), lost {ex['lost']:.0f} {ex['mark']}".rstrip()
            )
            out += _command_lines(cmd)
    return out


def text_parts(
    df: pd.DataFrame, kinds: pd.DataFrame, sits: pd.DataFrame, commands: list[list[str]]
) -> dict:
    """The pieces of the terminal report (the command line prints the tables): ``head`` and
    ``note`` lines, the ``kinds``, ``table`` and ``situations`` frames as text cells,
    ``examples`` and ``classes`` lines."""
    meta = df.attrs["census"]
    by = list(meta["by"])
    return {
        "head": [w for x in head_lines(meta) for w in _wrap(x)],
        "kinds": _shown(kinds, ["kind"]),
        "table": _shown(df, by),
        "note": _wrap(NOTE),
        "situations": _shown(sits, ["situation", "value"]),
        "examples": _examples(df, by, commands),
        "classes": [f"  {k:<17} {v}" for k, v in CLASSES.items()],
    }


def to_json(
    df: pd.DataFrame, kinds: pd.DataFrame, sits: pd.DataFrame, commands: list[list[str]]
) -> dict:
    def rows(d: pd.DataFrame) -> list[dict]:
        return [{k: _plain(v) for k, v in r.items()} for r in d.to_dict("records")]

    groups = rows(df)
    for g, cmds in zip(groups, commands, strict=False):
        for ex, cmd in zip(g["examples"], cmds, strict=False):
            ex["command"] = cmd
    return {
        "census": {k: _plain(v) for k, v in df.attrs["census"].items()},
        "groups": groups,
        "kinds": rows(kinds.drop(columns="examples")),
        "situations": rows(sits.drop(columns="examples")),
        "classes": CLASSES,
        "situation_names": SITUATIONS,
    }


def _plain(v):
    import numpy as np

    if isinstance(v, np.integer):
        return int(v)
    if isinstance(v, (np.floating, float)):
        return None if not math.isfinite(float(v)) else round(float(v), 3)
    if isinstance(v, list):
        return [_plain(x) for x in v]
    if isinstance(v, dict):
        return {k: _plain(x) for k, x in v.items()}
    return v


CSS = """body{font-family:system-ui,sans-serif;max-width:1150px;margin:1em auto;padding:0 .8em;
color:#222;line-height:1.35}h1{font-size:1.5em}h2{font-size:1.2em;margin-top:1.4em}
.scroll{overflow-x:auto;-webkit-overflow-scrolling:touch}
table{border-collapse:collapse;font-size:.85em;margin:.5em 0}
th,td{border:1px solid #ccc;padding:.2em .45em;text-align:right;white-space:nowrap}
th{background:#f0f0f0}td.l{text-align:left}tr.all td{font-weight:bold;background:#f7f7f7}
.bar{position:relative;width:9em;height:.9em;background:#f3f3f3;display:inline-block}
.bar span{position:absolute;top:0;bottom:0;background:#0072b2}
.bar i{position:absolute;top:45%;height:2px;background:#222}
code{font-size:.85em;background:#f5f5f5;padding:.1em .25em;word-break:break-all;
white-space:pre-wrap}p.note{color:#444;font-size:.9em}li{margin:.25em 0}"""


def _bar(v: float, lo: float, hi: float, top: float) -> str:
    if not (math.isfinite(v) and top > 0):
        return ""

    def pct(x: float) -> float:
        return max(0.0, min(100.0, 100 * x / top))

    whisker = ""
    if math.isfinite(lo) and math.isfinite(hi):
        whisker = f'<i style="left:{pct(lo):.1f}%;width:{pct(hi) - pct(lo):.1f}%"></i>'
    return f'<span class="bar"><span style="width:{pct(v):.1f}%"></span>{whisker}</span>'


def _html_table(show: pd.DataFrame, left: set[str], bars: list[str] | None = None, all_row=-1):
    cols = list(show.columns) + (["lost/hand, bar"] if bars is not None else [])
    head = "".join(f"<th>{html.escape(c)}</th>" for c in cols)
    body = []
    for i, row in enumerate(show.itertuples(index=False)):
        cells = "".join(
            f"<td{' class=l' if c in left else ''}>{html.escape(str(v))}</td>"
            for c, v in zip(show.columns, row, strict=True)
        )
        if bars is not None:
            cells += f"<td class=l>{bars[i]}</td>"
        cls = ' class="all"' if i == (len(show) - 1 if all_row == -1 else all_row) else ""
        body.append(f"<tr{cls}>{cells}</tr>")
    return (
        f'<div class="scroll"><table><thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(body)}</tbody></table></div>"
    )


def write_html(
    df: pd.DataFrame, kinds: pd.DataFrame, sits: pd.DataFrame, commands: list[list[str]], path
) -> Path:
    """One self-contained page, written under a temporary name and renamed."""
    path = Path(path)
    meta = df.attrs["census"]
    by = list(meta["by"])
    show = _shown(df, by)
    groups = df.iloc[:-1]
    top = float(max(groups["lost_hand_high"].replace(float("inf"), float("nan")).max(), 1.0))
    top = top if math.isfinite(top) else float(groups["lost_hand"].max() or 1.0)
    bars = [
        _bar(v, lo, hi, top)
        for v, lo, hi in zip(
            df["lost_hand"], df["lost_hand_low"], df["lost_hand_high"], strict=True
        )
    ]
    bars[-1] = ""
    labels = set(_label_columns(by).values())
    ex_html = []
    for r, cmds in zip(df.head(SHOWN_EXAMPLES).itertuples(), commands, strict=False):
        if not _costly(r, by):
            continue
        name = " / ".join(str(getattr(r, b)) for b in by if b != "kind" or len(by) == 1)
        items = "".join(
            f"<li>game {ex['game']} hand {ex['hand']} turn {ex['turn']} seat {ex['seat']}: "
            f"played <b>{html.escape(ex['played'])}</b>, best <b>{html.escape(ex['best'])}</b>, "
            f"lost {ex['lost']:.0f} {html.escape(ex['mark'])}<br><code>{html.escape(cmd)} "
            "&gt; pos.txt &amp;&amp; canasta analyze pos.txt</code></li>"
            for ex, cmd in zip(r.examples, cmds, strict=False)
        )
        ex_html.append(f"<h3>{html.escape(name)}</h3><ol>{items}</ol>")
    sit_show = _shown(sits, ["situation", "value"])
    legend = "".join(
        f"<tr><td class=l>{html.escape(k)}</td><td class=l>{html.escape(v)}</td></tr>"
        for k, v in CLASSES.items()
    )
    page = (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>Where {html.escape(meta['strategy'])} loses its points</title>"
        f"<style>{CSS}</style></head><body>"
        f"<h1>Where {html.escape(meta['strategy'])} loses its points</h1>"
        + "".join(f"<p>{html.escape(x)}</p>" for x in head_lines(meta)[1:])
        + "<h2>By kind of decision</h2>"
        + _html_table(_shown(kinds, ["kind"]), {"kind"})
        + "<h2>By the action played and the best one</h2>"
        + _html_table(show, labels, bars)
        + f"<p class=note>{html.escape(NOTE)} The bar shows lost/hand with its 95% interval.</p>"
        + "<h2>By situation</h2>"
        + _html_table(sit_show, {"situation", "value"}, all_row=-2)
        + "<h2>Examples</h2><p class=note>Each command writes the position as the seat knew it; "
        "canasta analyze then ranks its legal actions.</p>"
        + "".join(ex_html)
        + "<h2>Classes of actions</h2><div class=scroll><table><tbody>"
        + legend
        + "</tbody></table></div></body></html>\n"
    )
    from sim.runs.outputs import write_atomic

    return write_atomic(path, page)  # whole or not at all
