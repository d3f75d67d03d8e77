"""Bad input by class, second table: analyze, review, equity, tune, odds --position and
play --position-at, position files, hand records, equity tables and strategy specs of every
kind.  Each case exits with status 2, prints one line (``canasta CMD: error: ...``) holding its
needle and no traceback, writes nothing, and never reaches the work (the game core, rollouts
and duplicate deals fail the test if called).

`{d}` is the case's scratch folder: `pos.txt` (the documented example position, unless the
case writes its own), `rec.txt` (a hand record), `adir` (a folder), equity tables `eq.parquet`
(classic-4p), `eq10000.parquet` (game target 10,000), `eq3.parquet` (three teams) and damaged
ones (`eq_cut.parquet` cut in half, `eq_meta.parquet` with unreadable settings, `eq_p.parquet`
with P(win) = 7)."""

from __future__ import annotations

from pathlib import Path

import pytest

import sim.cli.main as cli

ROOT = Path(__file__).resolve().parents[1]
POS = (ROOT / "docs" / "position-example.txt").read_text()
REC = "rules: classic\nplayers: 4\nkey: seed=7 game=0 hand=0\nactions:\ndraw\n"
AN = ["analyze", "{d}/pos.txt", "--rollouts", "10"]
ODDS = ["odds", "--position", "{d}/pos.txt", "--rollouts", "10"]
RV = ["review", "--rollouts", "4"]
RVF = ["review", "{d}/rec.txt", "--rollouts", "4"]
EQ = ["equity", "-o", "{d}/e.parquet", "--step", "2500", "--games", "2"]
TUNE = ["tune", "expert", "--budget", "100000", "--jobs", "1"]


def pos(**changes: str | None) -> str:
    """The example position with keys replaced (None: removed) or added."""
    out, seen = [], set()
    for ln in POS.splitlines():
        key = ln.split("#", 1)[0].split(":", 1)[0].strip().lower()
        if key in changes:
            seen.add(key)
            if changes[key] is not None:
                out.append(f"{key}: {changes[key]}")
            continue
        out.append(ln)
    out += [f"{k}: {v}" for k, v in changes.items() if k not in seen and v is not None]
    return "\n".join(out) + "\n"


P = "pos.txt"
R = "rec.txt"
CASES: list[tuple[list[str], str, dict]] = [
    # ---- position files: numbers beyond their ranges (were OverflowError tracebacks)
    (AN, "turn: 1180591620717411303424 is out of range", {P: pos(turn=str(2**70))}),
    (ODDS, "turn: 2147483648 is out of range", {P: pos(turn=str(2**31))}),
    (AN, "scores: 200000000 is out of range", {P: pos(scores="200000000 0")}),
    (ODDS, "scores: ", {P: pos(scores=f"{2**70} 0")}),
    (AN, "pending:", {P: pos(phase="meld", pending=str(2**70))}),
    (AN, "stock:", {P: pos(stock=str(2**64))}),
    # ---- impossible positions
    (AN, "canastas_this_turn: 20", {P: pos(phase="meld", canastas_this_turn="20")}),
    (
        AN,
        "opened: team us has opened but has no melds",
        {P: pos(**{"melds us": None, "stock": "54", "melded": "1"})},
    ),
    (
        AN,
        "took 500 K",
        {P: pos(**{"last_turn 3": "take pair | took " + "K " * 500 + "| discard 9"})},
    ),
    (AN, "melded 9 7", {P: pos(**{"last_turn 3": "draw | melded " + "7 " * 9 + "| discard 9"})}),
    (AN, "seat 0 is listed twice", {P: pos(melded="0 0")}),
    (AN, "given twice", {P: POS + "stock: 43\n"}),
    (AN, "set: players=6 is not a rule override", {P: pos(set="players=6")}),
    # ---- position files: what the file is
    (["analyze", "{d}/adir"], "is a folder", {}),
    (["odds", "--position", "{d}/adir"], "is a folder", {}),
    (AN, "more than a position file holds", {P: POS + ("#" + "x" * 999 + "\n") * 120}),
    # ---- options that contradict the position file, or do nothing beside it
    ([*AN, "--rules", "german"], "--rules german but the position says rules: classic", {}),
    ([*AN, "--set", "players=6"], "not a rule override", {}),
    ([*ODDS, "--set", "team_layout=3x2"], "not a rule override", {}),
    ([*ODDS, "--players", "6"], "--players 6 but the position has players: 4", {}),
    # ---- rollout strategies: compiled only, every spec checked, multi-knob specs read whole
    ([*AN, "--strategies", "pimc"], "pimc is a search player; --strategies takes", {}),
    ([*AN, "--infer", "ismcts"], "--infer", {}),
    ([*AN, "--strategies", "expert:"], "ends with ':'", {}),
    ([*AN, "--strategies", "expert:freeze_when=1.5"], "must be one of 0, 1, 2", {}),
    ([*AN, "--strategies", "expert:hold_melds=-3"], "must be one of 0, 1", {}),
    ([*ODDS, "--strategies", "expert:open_threshold=1e300"], "must be within 0 .. 1e+06", {}),
    ([*ODDS, "--strategies", "pimc"], "search player", {}),
    ([*RV, "--continue-with", "pimc"], "pimc is a search player; --continue-with takes", {}),
    ([*RV, "--infer", "expert:open_threshold=50,"], "an empty name", {}),
    ([*RV, "--infer", "expert:open_threshold=50,,freeze_when=1"], "an empty name", {}),
    # ---- equity tables: damaged, or made for another table
    ([*AN, "--equity", "{d}/eq_cut.parquet"], "not a parquet file", {}),
    ([*AN, "--equity", "{d}/eq_meta.parquet"], "not readable", {}),
    ([*RV, "--equity", "{d}/eq_p.parquet"], "outside 0 .. 1", {}),
    ([*AN, "--equity", "{d}/eq10000.parquet"], "game target 10000", {}),
    ([*RV, "--equity", "{d}/eq3.parquet"], "made for classic-3p", {}),
    ([*AN, "--equity", "{d}/adir"], "is a folder", {}),
    ([*AN, "--equity", ""], "an empty value", {}),
    # ---- review of a file: the file gives the hand
    ([*RVF, "--seed", "3"], "--seed names a hand to deal", {}),
    ([*RVF, "--strategies", "greedy"], "--strategies names a hand to deal", {}),
    ([*RVF, "--rules", "german"], "--rules german but", {}),
    ([*RVF, "--players", "6"], "--players 6 but", {}),
    (["review", "{d}/adir"], "is a folder", {}),
    (["review", ""], "an empty value", {}),
    # ---- hand records
    (
        RVF,
        "rules is given twice (also on line 1)",
        {R: REC.replace("actions:", "rules: german\nactions:")},
    ),
    (RVF, "players: 'four' is not a whole number", {R: REC.replace("players: 4", "players: four")}),
    (RVF, "players: 9; give 2 .. 6", {R: REC.replace("players: 4", "players: 9")}),
    (RVF, "seed=", {R: REC.replace("seed=7", f"seed={2**70}")}),
    (RVF, "hand=", {R: REC.replace("hand=0", f"hand={2**40}")}),
    (RVF, "not a rule override", {R: "set: players=6\n" + REC}),
    (RVF, "an empty action", {R: REC.replace("draw", "draw;;discard 5")}),
    (RVF, "strategies", {R: REC.replace("actions:", "strategies: expert,\nactions:")}),
    (RVF, "more than a hand file holds", {R: REC.replace("draw", "; ".join(["draw"] * 250_000))}),
    # ---- equity: specs and rules
    (
        [*EQ, "--strategies", "pimc:worlds=1e12"],
        "worlds=1e12 must be a whole number 1 .. 100000",
        {},
    ),
    ([*EQ, "--strategies", "ismcts:c=nan"], "c=nan must be a number", {}),
    ([*EQ, "--strategies", "pimc:guard=-1"], "guard=-1", {}),
    ([*EQ, "--set", "players=6"], "not a rule override", {}),
    ([*EQ, "--rules", ""], "an empty value", {}),
    # ---- tune
    ([*TUNE, "--set", "players=6"], "not a rule override", {}),
    (
        [*TUNE, "--knob", "freeze_when=0:5", "--knob", "open_threshold=0:50"],
        "leaves its range 0, 1, 2",
        {},
    ),
    ([*TUNE, "--knob", "hold_melds=-3:1", "--knob", "open_threshold=0:50"], "leaves its range", {}),
    ([*TUNE, "--vs", "greedy", "greedy"], "listed twice", {}),
    ([*TUNE, "--vs", "nosuch"], "pimc", {}),
    (["tune", "pimc", "--budget", "100000"], "pimc is a search player", {}),
    ([*TUNE, "--out", ""], "an empty value", {}),
    ([*TUNE, "--out", "/proc/t.json"], "not writable", {}),
    # ---- play --position-at
    (["play", "--position-at", ""], "an empty value", {}),
    (["play", "--position-at", "3", "--strategies", "expert:"], "ends with ':'", {}),
    (["play", "--players", "4", "--set", "players=6"], "not a rule override", {}),
    # ---- unknown arguments are the subcommand's
    ([*AN, "--frobnicate"], "canasta analyze: error: unrecognized arguments", {}),
]


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    """The equity tables of the cases (written once)."""
    import pandas as pd
    import pyarrow.parquet as pq

    from reports.equity import _finish, save_equity

    d = tmp_path_factory.mktemp("eq")
    rows = [(t, a, b, 100, 50.0) for t in (-1, 0, 1) for a in (0, 2500) for b in (0, 2500)]

    def table(name, **meta):
        m = {"rules": "classic-4p", "game_target": 5000, "n_teams": 2, "step": 2500, "low": 0}
        m.update(meta)
        df = pd.DataFrame(rows, columns=["team", "us", "them", "games", "wins"])
        save_equity(_finish(df, m), d / name)

    table("eq.parquet")
    table("eq10000.parquet", game_target=10000)
    table("eq3.parquet", rules="classic-3p", n_teams=3)
    raw = (d / "eq.parquet").read_bytes()
    (d / "eq_cut.parquet").write_bytes(raw[: len(raw) // 2])
    t = pq.read_table(d / "eq.parquet")
    meta = dict(t.schema.metadata)
    meta[b"canasta_equity"] = b'{"game_target" 5000}'
    pq.write_table(t.replace_schema_metadata(meta), d / "eq_meta.parquet")
    cols = {n: t.column(n) for n in t.column_names}
    import pyarrow as pa

    cols["p_win"] = pa.array([7.0] * t.num_rows)
    pq.write_table(
        pa.table(cols).replace_schema_metadata(dict(t.schema.metadata)), d / "eq_p.parquet"
    )
    return d


def _no_work(*a, **k):
    raise AssertionError("work started before the input was checked")


def _snapshot(root: Path) -> dict:
    return {str(p.relative_to(root)): p.stat().st_size for p in root.rglob("*")}


@pytest.mark.parametrize(
    ("argv", "needle", "files"), CASES, ids=[f"{c[0][0]}-{i}" for i, c in enumerate(CASES)]
)
def test_bad_file_or_option_is_one_line_exit_2(
    argv, needle, files, tmp_path, tables, monkeypatch, capsys
):
    import shutil

    import reports.analyze as an
    import reports.duplicate as dup
    import reports.position as rp
    import sim.cli.play as cp
    from sim.play import engine

    for mod, name in (
        (engine, "run_chunk"),
        (an, "_chunk"),
        (rp, "rollout"),
        (dup, "play_against"),
        (cp, "warm_play"),
    ):
        monkeypatch.setattr(mod, name, _no_work)
    d = tmp_path / "d"
    shutil.copytree(tables, d)
    (d / "adir").mkdir()
    (d / "pos.txt").write_text(POS)
    (d / "rec.txt").write_text(REC)
    for name, text in files.items():
        (d / name).write_text(text)
    monkeypatch.chdir(d)
    before = _snapshot(d)
    args = [a.replace("{d}", str(d)) for a in argv]
    code = cli.main(args)
    out, err = capsys.readouterr()
    lines = [ln for ln in err.strip().splitlines() if not ln.startswith("canasta: compiling ")]
    assert code == 2, (args, err)
    assert len(lines) == 1 and "Traceback" not in err + out, err
    assert lines[0].startswith(f"canasta {args[0]}: error: "), lines[0]
    assert needle in lines[0], (needle, lines[0])
    assert _snapshot(d) == before, "a refused command wrote something"
