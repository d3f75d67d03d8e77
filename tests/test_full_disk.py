"""A full disk for every command that writes files: each ends in one line, exit 2, and leaves
the output it would have replaced as it was (no truncated file, no temporary file, all of a
command's files or none).

The disk fills up (an injected OSError(ENOSPC)) after a few hundred bytes of any file written
below the test's folder: Python's open() (also pathlib's) and pyarrow's parquet writer hit it.  The
commands play with the fake engine (tests/fake_engine.py) where they play at all."""

from __future__ import annotations

import builtins
import errno
import io
from pathlib import Path

import fake_engine
import pytest
from synthetic_engine import make_run

import sim.cli.main as cli
from sim.play import engine

LIMIT = 40  # bytes a file may hold before the disk is full


class _FullFile(io.RawIOBase):
    """A file that takes LIMIT bytes, then fails as a full disk does."""

    def __init__(self, fh) -> None:
        self.fh, self.n = fh, 0

    def writable(self) -> bool:
        return True

    def write(self, b) -> int:
        data = b.encode() if isinstance(b, str) else bytes(b)
        if self.n + len(data) > LIMIT:
            raise OSError(errno.ENOSPC, "No space left on device")
        self.n += len(data)
        return self.fh.write(b)

    def close(self) -> None:
        self.fh.close()
        super().close()

    def __getattr__(self, name):
        return getattr(self.fh, name)


@pytest.fixture
def full_disk(tmp_path, monkeypatch):
    """Writes below tmp_path/'out' fail after LIMIT bytes (Python files and parquet)."""
    import pyarrow.parquet as pq

    root = tmp_path / "out"
    root.mkdir()
    real_open = builtins.open

    def open_(file, mode="r", *a, **k):
        fh = real_open(file, mode, *a, **k)
        if any(c in mode for c in "wax") and str(file).startswith(str(root)):
            return _FullFile(fh)
        return fh

    real_write_table = pq.write_table

    def write_table(table, where, *a, **k):
        if str(where).startswith(str(root)):
            Path(where).write_bytes(b"PAR1" + b"\0" * 100)  # a start, then the disk is full
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_write_table(table, where, *a, **k)

    monkeypatch.setattr(builtins, "open", open_)
    monkeypatch.setattr(io, "open", open_)  # pathlib's write_text
    monkeypatch.setattr(pq, "write_table", write_table)
    return root


def _run_full(argv, root, capsys) -> str:
    before = {p.name: p.read_bytes() for p in root.iterdir()}
    code = cli.main(argv)
    err = capsys.readouterr().err
    lines = [ln for ln in err.strip().splitlines() if not ln.startswith("canasta: compiling")]
    assert code == 2, err
    assert "Traceback" not in err
    assert lines[-1].startswith(f"canasta {argv[0]}: error: ") and "No space left" in lines[-1]
    after = {p.name: p.read_bytes() for p in root.iterdir()}
    assert after == before, "a full disk changed or left files"
    return lines[-1]


def _old(root: Path, *names: str) -> None:
    for n in names:
        (root / n).write_bytes(b"an earlier result\n")


@pytest.fixture
def fake(monkeypatch):
    monkeypatch.setattr(engine, "run_chunk", fake_engine.run_chunk)


def test_compare_and_sweep_out(full_disk, fake, capsys):
    _old(full_disk, "c.csv", "s.csv")
    base = ["--hands", "200", "--jobs", "1", "--no-progress"]
    _run_full(
        ["compare", "expert", "greedy", *base, "--out", str(full_disk / "c.csv")], full_disk, capsys
    )
    _run_full(
        [
            "sweep",
            "tunable",
            "--knob",
            "open_threshold=50,70",
            "--vs",
            "expert",
            *base,
            "--no-retest",
            "--out",
            str(full_disk / "s.csv"),
        ],
        full_disk,
        capsys,
    )


def test_report_writes_both_pages_or_neither(full_disk, tmp_path, capsys):
    run = make_run(tmp_path / "run", n_hands=300, log_rate=0.2)
    _old(full_disk, "r.html", "r.md")
    _run_full(["report", str(run), "-o", str(full_disk / "r.html")], full_disk, capsys)


def test_equity_writes_table_and_png_or_neither(full_disk, fake, capsys):
    _old(full_disk, "e.parquet", "e.png")
    out = str(full_disk / "e.parquet")
    _run_full(["equity", "-o", out, "--step", "2500", "--games", "4"], full_disk, capsys)


def test_tune_out(full_disk, fake, capsys):
    _old(full_disk, "t.json")
    argv = [
        "tune",
        "expert",
        "--budget",
        "2000",
        "--vs",
        "greedy",
        "--knob",
        "open_threshold=0:150",
        "--knob",
        "freeze_when=0:2",
        "--popsize",
        "2",
        "--generations",
        "2",
        "--test-hands",
        "20",
        "--jobs",
        "1",
        "--out",
        str(full_disk / "t.json"),
    ]
    _run_full(argv, full_disk, capsys)


def test_review_out(full_disk, capsys, monkeypatch):
    import pandas as pd

    from reports import review_eval

    def quick(rules, strategy="expert", jobs=1, infer=None, equity=None):
        def evaluate(gs, actions, rollouts, seed):
            n = len(actions)
            df = pd.DataFrame(
                {
                    "action": actions,
                    "mean": [0.0] * n,
                    "ci_low": [-1.0] * n,
                    "ci_high": [1.0] * n,
                    "diff_to_best": [0.0] * n,
                    "diff_ci_low": [0.0] * n,
                    "diff_ci_high": [0.0] * n,
                    "rollouts": [rollouts] * n,
                }
            )
            return df.set_index("action", drop=False)

        return evaluate

    monkeypatch.setattr(review_eval, "make_evaluator", quick)
    _old(full_disk, "r.html")
    argv = ["review", "--seed", "3", "--rollouts", "2", "-o", str(full_disk / "r.html")]
    _run_full(argv, full_disk, capsys)
