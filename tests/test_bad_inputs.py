"""Bad input, command by command (issue 12): every case exits with status 2, prints exactly one
line on stderr (``canasta CMD: error: ...``) and no traceback, and writes nothing.

`{d}` in an argument is the case's scratch folder, which holds `afile` (a file), `adir` (a
folder), `bin.txt` (bytes that are not text), `run` (a small finished run folder) and
`record.txt` (a hand record whose scores are not numbers); `{pos}` is the documented example
position (docs/position-example.txt).

The second table calls the Python functions behind the commands with the same kinds of bad
input: each raises a CanastaError subclass with a one-line message, before any work."""

from __future__ import annotations

import os
from pathlib import Path

import fake_engine
import pytest
from synthetic_engine import make_run

import sim.cli.main as cli
from sim.core.errors import CanastaError
from sim.play import engine

BIG = str(2**64)
POS = str(Path(__file__).resolve().parents[1] / "docs" / "position-example.txt")
TUNE = ["expert", "--budget", "100000"]
EQ = ["-o", "{d}/e.parquet"]

CASES = {
    "rules": [
        (["nosuch"], "unknown preset"),
        (["classic", "--players", "7"], "2 .. 6"),
        (["classic", "--set", "hand_size"], "name=value"),
        (["classic", "--set", "go_out_bonus=100", "--set", "go_out_bonus=200"], "given twice"),
        (["classic", "--players", "6", "--team-layout", "4x4"], "3x2"),
        (["classic", "--players", "four"], "not a whole number"),
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
        (["--players", "9"], "2 .. 6"),
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
        (
            [
                "tunable",
                "--knob",
                "open_threshold=50",
                "--knob",
                "open_threshold=70",
                "--vs",
                "expert",
            ],
            "given twice",
        ),
        (["tunable", "--knob", "open_threshold", "--vs", "expert"], "--knob"),
        (["tunable", "--knob", "open_threshold=50", "--vs", "expert", "--hands", "0"], "--hands"),
        (["tunable", "--knob", "open_threshold=50", "--vs", "expert", "--seed", "-3"], "--seed"),
        (
            ["tunable", "--knob", "open_threshold=50", "--vs", "expert", "--out", "{d}/adir"],
            "is a folder",
        ),
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
    "analyze": [
        (["{pos}", "--rollouts", "2000000000"], "--rollouts"),
        (["{pos}", "--rollouts", "1"], "--rollouts"),
        (["{pos}", "--rollouts", "many"], "not a whole number"),
        (["{pos}", "--jobs", "0"], "--jobs"),
        (["{pos}", "--jobs", "-1"], "--jobs"),
        (["{pos}", "--seed", "-1"], "--seed"),
        (["{pos}", "--seed", BIG], "--seed"),
        (["{pos}", "--until-ci", "0"], "--until-ci"),
        (["{pos}", "--until-ci", "nan"], "--until-ci"),
        (["{pos}", "--strategies", "nosuch"], "unknown strategy"),
        (["{pos}", "--infer", "nosuch"], "unknown strategy"),
        (["{pos}", "--equity", "{d}/afile"], "not a parquet file"),
        (["{pos}", "--equity", "{d}/missing.parquet"], "no such equity table"),
        (["{d}/missing.txt"], "missing.txt"),
        (["{d}/afile"], "afile"),
        (["{d}/bin.txt"], "bin.txt"),
    ],
    "review": [
        (["--rollouts", "1"], "--rollouts"),
        (["--rollouts", "2000000000"], "--rollouts"),
        (["--seed", "-1"], "--seed"),
        (["--game", BIG], "--game"),
        (["--hand", "-1"], "--hand"),
        (["--rollout-seed", BIG], "--rollout-seed"),
        (["--jobs", "0"], "--jobs"),
        (["--players", "9"], "--players"),
        (["--seat", "9"], "--seat 9"),
        (["--seat", "x"], "--seat"),
        (["--continue-with", "nosuch"], "unknown strategy"),
        (["--strategies", "nosuch"], "unknown strategy"),
        (["--equity", "{d}/afile"], "not a parquet file"),
        (["-o", "{d}/review.txt"], "must end in .html"),
        (["-o", "{d}/adir.html"], "is a folder"),
        (["-o", "{d}/afile/r.html"], "is a file, not a folder"),
        (["-o", "{d}/nodir/r.html"], "does not exist"),
        (["{d}/missing.txt"], "missing.txt: no such file"),
        (["{d}/afile"], "afile:1"),
        (["{d}/bin.txt"], "bin.txt"),
        (["{d}/record.txt"], "record.txt:2: scores"),
    ],
    "equity": [
        ([], "-o/--out"),
        ([*EQ, "--step", "0"], "--step"),
        ([*EQ, "--step", "1"], "grid points"),
        ([*EQ, "--games", "0"], "--games"),
        ([*EQ, "--games", "1e8"], "--games"),
        ([*EQ, "--seed", BIG], "--seed"),
        ([*EQ, "--jobs", "0"], "--jobs"),
        ([*EQ, "--low", "5000"], "--low"),
        ([*EQ, "--low", str(2**40)], "--low"),
        ([*EQ, "--strategies", "nosuch"], "unknown strategy"),
        (["-o", "{d}/e.csv"], "parquet"),
        (["-o", "{d}/afile/e.parquet"], "is a file, not a folder"),
    ],
    "tune": [
        (["expert"], "--budget"),
        (["expert", "--budget", "0"], "--budget"),
        (["expert", "--budget", "1e13"], "--budget"),
        (["expert", "--budget", "10"], "too small"),
        ([*TUNE, "--popsize", "1"], "--popsize"),
        ([*TUNE, "--generations", "0"], "--generations"),
        ([*TUNE, "--test-hands", "1"], "--test-hands"),
        ([*TUNE, "--jobs", "0"], "--jobs"),
        ([*TUNE, "--seed", "-1"], "--seed"),
        ([*TUNE, "--seed", str(2**63 - 1)], "--seed"),
        ([*TUNE, "--players", "7"], "--players"),
        ([*TUNE, "--knob", "open_threshold"], "--knob"),
        ([*TUNE, "--knob", "open_threshold=9:1"], "lo < hi"),
        ([*TUNE, "--knob", "open_threshold=0:inf"], "lo < hi"),
        ([*TUNE, "--knob", "open_threshold=0:10", "--knob", "open_threshold=0:5"], "given twice"),
        ([*TUNE, "--knob", "open_threshold=0:10"], "at least 2 knobs"),
        ([*TUNE, "--vs", "nosuch"], "unknown strategy"),
        (["nosuch", "--budget", "100000"], "unknown strategy"),
        ([*TUNE, "--out", "{d}/adir"], "is a folder"),
        ([*TUNE, "--out", "{d}/afile/t.json"], "is a file, not a folder"),
    ],
    "warmup": [
        (["--only", "nosuch"], "invalid choice"),
        (["--scheduler", "nowhere"], "tcp://HOST:8786"),
    ],
    "strategies": [
        (["nosuch"], "unknown strategy"),
    ],
    "play --position-at": [
        (["--position-at", "0"], "count 1 .."),
        (["--position-at", "1:0"], "count 1 .."),
        (["--position-at", "1:x"], "TURN:STEP"),
        (["--position-at", BIG], "--position-at"),
        (["--position-at", "-3"], "--position-at"),
        (["--seat", "2"], "goes with --position-at"),
        (["--position-at", "3", "--seat", "9"], "--seat"),
        (["--strategies", "greedy", "--seed", "3", "--position-at", "999:1"], "the hand has"),
    ],
}


@pytest.fixture(scope="module")
def run_template(tmp_path_factory):
    return make_run(tmp_path_factory.mktemp("t") / "run", n_hands=300, log_rate=0.2)


def _snapshot(root: Path) -> dict[str, tuple[int, int]]:
    return {
        str(p.relative_to(root)): (p.stat().st_size, p.stat().st_mtime_ns) for p in root.rglob("*")
    }


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
    (d / "record.txt").write_text("key: seed=1 game=0 hand=0\nscores: 10 x\n")
    monkeypatch.chdir(d)
    monkeypatch.setattr(engine, "run_chunk", fake_engine.run_chunk)
    before = _snapshot(d)
    command = command.split()[0]  # "play --position-at": the play cases of one option
    args = [command, *(a.replace("{d}", str(d)).replace("{pos}", POS) for a in argv)]
    code = cli.main(args)
    out, err = capsys.readouterr()
    # a cold numba cache (or a loaded machine) announces the compilation of the game core first
    lines = [ln for ln in err.strip().splitlines() if not ln.startswith("canasta: compiling ")]
    assert code == 2, (args, err)
    assert len(lines) == 1, err
    assert lines[0].startswith(f"canasta {command}: error: "), lines[0]
    assert needle in lines[0], (needle, lines[0])
    assert "Traceback" not in err and "Traceback" not in out
    assert _snapshot(d) == before, "a refused command wrote something"
    assert os.getcwd() == str(d)


# ----------------------------------------------------------------------------- the Python API


def _api_cases():
    from reports import analyze as an
    from reports import equity as eq
    from reports import review as rv
    from reports import review_eval
    from reports import tune as tu
    from reports.hand_file import HandFileError, read_hand_file
    from sim.core.rules import RuleSet
    from sim.play.positions.text import load_position

    classic = RuleSet.preset("classic", 4)
    four = ["expert"] * 4

    def pos():
        return load_position(POS)

    return [
        (lambda d: an.analyze(pos(), rollouts=2_000_000_000), an.AnalysisError, "rollouts"),
        (lambda d: an.analyze(pos(), rollouts=1.5), an.AnalysisError, "rollouts"),
        (lambda d: an.analyze(pos(), jobs=0), an.AnalysisError, "jobs"),
        (lambda d: an.analyze(pos(), seed=-1), an.AnalysisError, "seed"),
        (lambda d: an.analyze(pos(), seed=2**64), an.AnalysisError, "seed"),
        (lambda d: an.analyze(pos(), seed="1"), an.AnalysisError, "seed"),
        (lambda d: an.analyze(pos(), until_ci=float("nan")), an.AnalysisError, "until_ci"),
        (
            lambda d: an.analyze(pos(), infer="expert", infer_tries=0),
            an.AnalysisError,
            "infer_tries",
        ),
        (lambda d: an.analyze("pos.txt"), an.AnalysisError, "Decision, Position or GameState"),
        (lambda d: an.analyze(pos(), strategies="nosuch"), CanastaError, "unknown strategy"),
        (
            lambda d: an.paired_rollouts(an.decision_from_position(pos()), rollouts=0),
            an.AnalysisError,
            "rollouts",
        ),
        (
            lambda d: an.paired_rollouts(an.decision_from_position(pos()), start=-1),
            an.AnalysisError,
            "start",
        ),
        (lambda d: eq.equity_table(classic, four, step=0), eq.EquityError, "step"),
        (lambda d: eq.equity_table(classic, four, step=1), eq.EquityError, "grid points"),
        (lambda d: eq.equity_table(classic, four, low=10**9), eq.EquityError, "low"),
        (lambda d: eq.equity_table(classic, four, games=0), eq.EquityError, "games"),
        (lambda d: eq.equity_table(classic, four, games=10**12), eq.EquityError, "games"),
        (lambda d: eq.equity_table(classic, four, seed=-1), eq.EquityError, "seed"),
        (lambda d: eq.equity_table(classic, four, jobs=0), eq.EquityError, "jobs"),
        (lambda d: eq.load_equity(d / "missing.parquet"), eq.EquityError, "no such equity table"),
        (lambda d: eq.load_equity(d / "afile"), eq.EquityError, "not a parquet file"),
        (lambda d: eq.Equity(_equity_frame()).p_win("x", 0), eq.EquityError, "us='x'"),
        (
            lambda d: eq.Equity(_equity_frame()).after_hand(0, float("nan"), 0, 0),
            eq.EquityError,
            "them",
        ),
        (
            lambda d: eq.Equity(_equity_frame()).of_totals(None, 0),
            eq.EquityError,
            "us: scores must be finite",
        ),
        (lambda d: tu.tune("expert", classic, ["greedy"], budget=0), tu.TuneError, "budget"),
        (
            lambda d: tu.tune(
                "expert",
                classic,
                ["greedy"],
                10**5,
                space=tu.parse_knob_ranges(["open_threshold=0:10"], "expert"),
            ),
            tu.TuneError,
            "at least 2 knobs",
        ),
        (lambda d: tu.tune("expert", classic, ["greedy"], budget=10**13), tu.TuneError, "budget"),
        (lambda d: tu.tune("expert", classic, ["greedy"], budget=10), tu.TuneError, "too small"),
        (
            lambda d: tu.tune("expert", classic, ["greedy"], 10**5, popsize=1),
            tu.TuneError,
            "popsize",
        ),
        (
            lambda d: tu.tune("expert", classic, ["greedy"], 10**5, generations=0),
            tu.TuneError,
            "generations",
        ),
        (
            lambda d: tu.tune("expert", classic, ["greedy"], 10**5, test_hands=1),
            tu.TuneError,
            "test_hands",
        ),
        (lambda d: tu.tune("expert", classic, ["greedy"], 10**5, jobs=0), tu.TuneError, "jobs"),
        (lambda d: tu.tune("expert", classic, ["greedy"], 10**5, seed=-1), tu.TuneError, "seed"),
        (lambda d: tu.tune("expert", classic, [], 10**5), tu.TuneError, "opponent"),
        (lambda d: rv.hand_by_key(classic, four, seed=-1), rv.ReviewError, "seed"),
        (lambda d: rv.hand_by_key(classic, four, seed=0, game=2**63), rv.ReviewError, "game"),
        (lambda d: rv.hand_by_key(classic, four, seed=0, hand=1.5), rv.ReviewError, "hand"),
        (lambda d: rv.review(None, None, None, rollouts=1), rv.ReviewError, "rollouts"),
        (lambda d: rv.review(None, None, None, seed=2**50), rv.ReviewError, "seed"),
        (lambda d: rv.seats_arg("9", classic), rv.ReviewError, "--seat 9"),
        (lambda d: review_eval.make_evaluator(classic, jobs=0), rv.ReviewError, "jobs"),
        (lambda d: read_hand_file(d / "missing.txt"), HandFileError, "no such file"),
        (lambda d: read_hand_file(d / "record.txt"), HandFileError, "record.txt:2: scores"),
    ]


def _equity_frame():
    """A 2x2 pooled equity table (values are only looked up, never checked here)."""
    import pandas as pd

    df = pd.DataFrame(
        {
            "team": -1,
            "us": [0, 0, 2500, 2500],
            "them": [0, 2500, 0, 2500],
            "p_win": [0.5, 0.3, 0.7, 0.5],
        }
    )
    df.attrs["equity"] = {"game_target": 5000}
    return df


API_CASES = _api_cases()


def _no_work(*args, **kwargs):
    raise AssertionError("work started before the input was checked")


@pytest.mark.parametrize(("i"), range(len(API_CASES)))
def test_python_api_refuses_bad_input_with_one_documented_error(i, tmp_path, monkeypatch):
    from reports import analyze as an

    call, kind, needle = API_CASES[i]
    (tmp_path / "afile").write_text("x")
    (tmp_path / "record.txt").write_text("key: seed=1 game=0 hand=0\nscores: 10 x\n")
    monkeypatch.setattr(engine, "run_chunk", _no_work)
    monkeypatch.setattr(an, "_chunk", _no_work)
    assert issubclass(kind, CanastaError)
    with pytest.raises(kind) as info:
        call(tmp_path)
    msg = str(info.value)
    assert msg and "\n" not in msg, msg
    assert needle in msg, (needle, msg)
