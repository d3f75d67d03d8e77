"""Long commands survive interruption: equity, tune, review --seat all and analyze keep their
finished work in a checkpoint as it finishes; after a kill -9 (at a random moment once some
work is kept) or a Ctrl-C, the same command with --resume ends with exactly the result of an
uninterrupted run.  Tiny budgets: each command runs for a few seconds."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import sim.cli.main as cli
from sim.runs.checkpoint import Checkpoint, CheckpointError, records

POS = str(Path(__file__).resolve().parents[1] / "docs" / "position-example.txt")
MAIN = "import sys; from sim.cli.main import main; sys.exit(main())"


def _in(cwd: Path, argv: list[str]) -> int:
    before = os.getcwd()
    os.chdir(cwd)
    try:
        return cli.main(argv)
    finally:
        os.chdir(before)


def _checkpoint(cwd: Path, name: str | None) -> Path:
    """The command's checkpoint: `name` beside its output, else the one made in `cwd`."""
    if name:
        return cwd / name
    found = sorted(cwd.glob(".canasta-*.partial"))
    return found[0] if found else cwd / "no-checkpoint-yet"


def _interrupted(argv, cwd: Path, name: str | None, sig: int, seed: int) -> bool:
    """Run the command in a child; once its checkpoint holds work, wait a random moment and
    send `sig`.  True when the child was interrupted (False: it finished first)."""
    rng = random.Random(seed)
    child = subprocess.Popen(
        [sys.executable, "-c", MAIN, *argv],
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 900  # a cold cache on a loaded machine compiles for minutes
    while records(_checkpoint(cwd, name)) == 0 and child.poll() is None:
        assert time.monotonic() < deadline, "the command kept no work"
        time.sleep(0.02)
    time.sleep(rng.uniform(0.0, 0.2))
    if child.poll() is not None:
        child.communicate()
        return False
    child.send_signal(sig)
    _, err = child.communicate(timeout=120)
    if sig == signal.SIGINT:
        last = err.strip().splitlines()[-1]
        assert child.returncode == 130 and "with --resume to continue" in last, err
        assert "Traceback" not in err
    else:
        assert child.returncode == -signal.SIGKILL
    assert records(_checkpoint(cwd, name)) > 0
    return True


def _same_after_resume(argv, tmp_path, name, sig, seed, read, capsys) -> None:
    """The command's result after an interruption and --resume equals an uninterrupted one."""
    ref, run = tmp_path / "ref", tmp_path / "run"
    ref.mkdir()
    run.mkdir()
    assert _in(ref, argv) == 0
    expect = read(ref, capsys.readouterr().out)
    for attempt in range(3):  # a run that finished before the signal: again, sooner
        if _interrupted(argv, run, name, sig, seed + attempt):
            break
    else:
        pytest.fail("the command always finished before it could be interrupted")
    assert _in(run, [*argv, "--resume"]) == 0
    assert read(run, capsys.readouterr().out) == expect
    assert not list(run.glob("*.partial")) and not list(run.glob(".*.partial"))


def _file(name):
    return lambda d, out: (d / name).read_bytes()


def test_equity_kill_9_then_resume(tmp_path, capsys):
    argv = ["equity", "--step", "1250", "--games", "400", "--jobs", "1", "-o", "e.parquet"]
    _same_after_resume(
        argv, tmp_path, "e.parquet.partial", signal.SIGKILL, 1, _file("e.parquet"), capsys
    )


def test_tune_ctrl_c_then_resume(tmp_path, capsys):
    argv = [
        "tune",
        "expert",
        "--vs",
        "greedy",
        "--budget",
        "6000",
        "--knob",
        "open_threshold=0:150",
        "--knob",
        "freeze_when=0:2",
        "--popsize",
        "3",
        "--generations",
        "6",
        "--test-hands",
        "50",
        "--jobs",
        "1",
        "--out",
        "t.json",
    ]

    def read(d, out):
        res = json.loads((d / "t.json").read_text())
        res.pop("date")
        return res

    _same_after_resume(argv, tmp_path, "t.json.partial", signal.SIGINT, 2, read, capsys)


def test_review_all_seats_kill_9_then_resume(tmp_path, capsys):
    argv = ["review", "--seed", "5", "--seat", "all", "--rollouts", "6", "--json"]
    _same_after_resume(argv, tmp_path, None, signal.SIGKILL, 3, lambda d, out: out, capsys)


def test_analyze_ctrl_c_then_resume(tmp_path, capsys):
    argv = ["analyze", POS, "--rollouts", "3000", "--seed", "4", "--json"]
    _same_after_resume(argv, tmp_path, None, signal.SIGINT, 4, lambda d, out: out, capsys)


def test_a_leftover_checkpoint_needs_resume_and_the_same_settings(tmp_path):
    path = tmp_path / "x.partial"
    ck = Checkpoint(path, "equity", {"a": 1}, resume=False)
    ck.put(("cell", 0), [1, 2])
    ck.close()
    with pytest.raises(CheckpointError, match="--resume"):
        Checkpoint(path, "equity", {"a": 1}, resume=False)
    with pytest.raises(CheckpointError, match="other settings"):
        Checkpoint(path, "equity", {"a": 2}, resume=True)
    with open(path, "ab") as fh:  # a record cut short by a kill: dropped, the others kept
        fh.write(b"\x40\0\0\0\0\0\0\0\1\2\3\4partial")
    ck = Checkpoint(path, "equity", {"a": 1}, resume=True)
    assert ck.done == {("cell", 0): [1, 2]}
    ck.put(("cell", 1), [3])
    ck.close()
    assert records(path) == 2
    assert Checkpoint(path, "equity", {"a": 1}, resume=True).done == {
        ("cell", 0): [1, 2],
        ("cell", 1): [3],
    }
    with pytest.raises(CheckpointError, match="nothing to resume"):
        Checkpoint(tmp_path / "none.partial", "equity", {}, resume=True)


def test_a_checkpoint_without_finished_work_is_not_left_behind(tmp_path):
    path = tmp_path / "y.partial"
    Checkpoint(path, "tune", {}, resume=False).close()
    assert not path.exists()
