"""Bad input, command by command (issue 12): every case exits with status 2, prints exactly one
line on stderr (``canasta CMD: error: ...``) and no traceback, and writes nothing.

`{d}` in an argument is the case's scratch folder, which holds `afile` (a file), `adir` (a
folder), `bin.txt` (bytes that are not text) and `run` (a small finished run folder)."""

from __future__ import annotations

import os
from pathlib import Path

import fake_engine
import pytest
from synthetic_engine import make_run

import sim.cli.main as cli
from sim.play import engine

BIG = str(2**64)

CASES = {
    "rules": [
        (["nosuch"], "unknown preset"),
        (["classic", "--players", "7"], "2 to 6"),
        (["classic", "--set", "hand_size"], "name=value"),
        (["classic", "--set", "go_out_bonus=100", "--set", "go_out_bonus=200"], "given twice"),
        (["classic", "--players", "6", "--team-layout", "4x4"], "3x2"),
        (["classic", "--players", "four"], "invalid int value"),
    ],
    "play": [
        (["--seed", "-1"], "--seed: -1 is out of range"),
        (["--seed", BIG], "out of range"),
        (["--seed", "1.5"], "not a whole number"),
        (["--game", str(2**63)], "--game"),
        (["--hand", "-1"], "--hand"),
        (["--cum", "10"], "needs 2 scores"),
        (["--cum", "1,x"], "--cum"),
        (["--cum", f"{2**40},0"], "out of range"),
        (["--strategies", "nosuch"], "unknown strategy"),
        (["--strategies", "tunable:open_threshold"], "has no value"),
        (["--strategies", "tunable:open_threshold=nan"], "finite"),
        (["--strategies", "tunable:open_threshold=1,open_threshold=2"], "given twice"),
        (["--strategies", "a,b,c"], "one strategy per team"),
        (["--deck", "{d}/missing.txt"], "not found"),
        (["--deck", "{d}/bin.txt"], "bin.txt"),
        (["--dealer", "9"], "--dealer"),
        (["--players", "9"], "2 to 6"),
        (["--set", "go_out_bonus=1", "--set", "go_out_bonus=2"], "given twice"),
    ],
    "simulate": [
        (["--hands", "0"], "--hands 0 is out of range"),
        (["--hands", "-5"], "out of range"),
        (["--hands", "1e16"], "out of range"),
        (["--games", "lots"], "not a whole number"),
        (["--seed", BIG], "out of range"),
        (["--chunk-size", "0"], "out of range"),
        (["--chunk-size", "1e7"], "out of range"),
        (["--jobs", "0"], "--jobs 0"),
        (["--log-decisions", "nan"], "between 0 and 1"),
        (["--strategies", "expert:nope=1"], "no knob 'nope'"),
        (["--strategies", "tunable:open_threshold=inf"], "finite"),
        (["--set", "go_out_bonus=1", "--set", "go_out_bonus=2"], "given twice"),
        (["--out", "{d}/afile/run"], "afile"),
        (["--out", "{d}/afile"], "is a file"),
        (["--out", "{d}/run", "--seed", "9"], "holds a different run"),
    ],
    "compare": [
        (["expert"], "at least two"),
        (["expert", "expert"], "listed twice"),
        (["expert", "nosuch"], "unknown strategy"),
        (["expert", "greedy", "--games", "-5"], "--games"),
        (["expert", "greedy", "--hands", "1"], "--hands"),
        (["expert", "greedy", "--max-hands", "-1"], "--max-hands"),
        (["expert", "greedy", "--seed", BIG], "--seed"),
        (["expert", "greedy", "--until-ci", "0"], "--until-ci"),
        (["expert", "greedy", "--until-ci", "nan"], "--until-ci"),
        (["expert", "greedy", "--jobs", "0"], "--jobs"),
        (["expert", "greedy", "--out", "{d}/adir"], "is a folder"),
        (["expert", "greedy", "--out", "{d}/afile/x.csv"], "is a file, not a folder"),
        (["expert", "greedy", "--out", "{d}/nodir/x.csv"], "does not exist"),
    ],
    "sweep": [
        (["tunable", "--knob", "open_threshold=50", "--knob", "open_threshold=70", "--vs", "expert"], "given twice"),
        (["tunable", "--knob", "open_threshold", "--vs", "expert"], "--knob"),
        (["tunable", "--knob", "open_threshold=50", "--vs", "expert", "--hands", "0"], "--hands"),
        (["tunable", "--knob", "open_threshold=50", "--vs", "expert", "--seed", "-3"], "--seed"),
        (["tunable", "--knob", "open_threshold=50", "--vs", "expert", "--out", "{d}/adir"], "is a folder"),
        (["tunable", "--knob", "open_threshold=50"], "--vs"),
        (["tunable", "--knob", "open_threshold=nan", "--vs", "expert"], "finite"),
    ],
    "odds": [
        ([], "RUN_DIR"),
        (["{d}/missing"], "does not exist"),
        (["{d}/adir"], "manifest.json"),
        (["{d}/run", "--within", "0"], "--within"),
        (["{d}/run", "--by", "nosuch"], "nosuch"),
        (["--position", "{d}/missing.txt"], "missing.txt"),
        (["--position", "{d}/afile", "--rollouts", "2000000000"], "--rollouts"),
        (["--position", "{d}/afile", "--rollouts", "0"], "--rollouts"),
        (["--position", "{d}/afile", "--seed", BIG], "--seed"),
        (["{d}/run", "--position", "{d}/afile"], "not both"),
    ],
    "report": [
        (["{d}/missing"], "does not exist"),
        (["{d}/adir"], "manifest.json"),
        (["{d}/run", "-o", "{d}/adir"], "html"),
        (["{d}/run", "-o", "{d}/adir.html"], "is a folder"),
        (["{d}/run", "-o", "{d}/afile/r.html"], "is a file, not a folder"),
        (["{d}/run", "-o", "{d}/report.txt"], "must end in .html"),
    ],
}


@pytest.fixture(scope="module")
def run_template(tmp_path_factory):
    return make_run(tmp_path_factory.mktemp("t") / "run", n_hands=300, log_rate=0.2)


def _snapshot(root: Path) -> dict[str, tuple[int, int]]:
    return {str(p.relative_to(root)): (p.stat().st_size, p.stat().st_mtime_ns) for p in root.rglob("*")}


@pytest.mark.parametrize(
    ("command", "argv", "needle"),
    [(c, a, n) for c, cases in CASES.items() for a, n in cases],
    ids=[f"{c}-{i}" for c, cases in CASES.items() for i in range(len(cases))],
)
def test_bad_input_is_one_line_exit_2_and_writes_nothing(
    command, argv, needle, tmp_path, run_template, monkeypatch, capsys
):
    import shutil

    d = tmp_path / "d"
    d.mkdir()
    (d / "afile").write_text("x")
    (d / "adir").mkdir()
    (d / "adir.html").mkdir()
    (d / "bin.txt").write_bytes(bytes(range(256)) * 4)
    shutil.copytree(run_template, d / "run")
    monkeypatch.chdir(d)
    monkeypatch.setattr(engine, "run_chunk", fake_engine.run_chunk)
    before = _snapshot(d)
    args = [command, *(a.replace("{d}", str(d)) for a in argv)]
    code = cli.main(args)
    out, err = capsys.readouterr()
    lines = err.strip().splitlines()
    assert code == 2, (args, err)
    assert len(lines) == 1, err
    assert lines[0].startswith(f"canasta {command}: error: "), lines[0]
    assert needle in lines[0], (needle, lines[0])
    assert "Traceback" not in err and "Traceback" not in out
    assert _snapshot(d) == before, "a refused command wrote something"
    assert os.getcwd() == str(d)
