"""File-system failures (issue 12) are one line, and a run says that --resume continues:
a full disk (ENOSPC, raised by a stand-in writer), a file-size limit (EFBIG, a real
RLIMIT_FSIZE in a child process) and paths below a file."""

from __future__ import annotations

import errno
import os
import subprocess
import sys
import textwrap

import fake_engine

import sim.cli.main as cli
from sim.play import engine
from sim.runs import store


def test_disk_full_during_a_run_is_one_line_and_resumable(tmp_path, monkeypatch, capsys):
    out = tmp_path / "run"
    monkeypatch.setattr(engine, "run_chunk", fake_engine.run_chunk)
    real = store._atomic_write
    calls = []

    def full_after_some(path, data):
        calls.append(path)
        if len(calls) > 8:  # the manifest and two chunks fit
            raise OSError(errno.ENOSPC, "No space left on device", str(path))
        real(path, data)

    monkeypatch.setattr(store, "_atomic_write", full_after_some)
    argv = [
        "simulate",
        "--hands",
        "500",
        "--chunk-size",
        "100",
        "--jobs",
        "1",
        "--out",
        str(out),
        "--no-progress",
    ]
    assert cli.main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 2 and err[0].startswith(
        "canasta simulate: 500 hands"
    )  # the plan, then the error
    assert (
        err[1].startswith("canasta simulate: error: cannot use ")
        and "No space left on device" in err[1]
    )
    assert f"canasta simulate --out {out} --resume` continues" in err[1]
    monkeypatch.setattr(store, "_atomic_write", real)
    assert cli.main([*argv, "--resume"]) == 0
    assert store.done_chunks(out) == [0, 1, 2, 3, 4]


def test_file_size_limit_is_one_line(tmp_path):
    script = textwrap.dedent(
        f"""
        import resource, sys
        resource.setrlimit(resource.RLIMIT_FSIZE, (20_000, 20_000))
        import fake_engine
        from sim.play import engine
        engine.run_chunk = fake_engine.run_chunk
        from sim.cli.main import main
        sys.exit(main(["simulate", "--hands", "2000", "--chunk-size", "500", "--jobs", "1",
                       "--log-decisions", "1", "--out", {str(tmp_path / "run")!r},
                       "--no-progress"]))
        """
    )
    proc = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=300,
        env=dict(os.environ),
        cwd=os.getcwd(),
    )
    assert proc.returncode == 2, proc.stderr
    last = proc.stderr.strip().splitlines()[-1]
    assert "Traceback" not in proc.stderr
    assert (
        last.startswith("canasta simulate: error: ")
        and "File too large" in last
        and "--resume` continues" in last
    )


def test_outputs_below_a_file(tmp_path, capsys):
    f = tmp_path / "file"
    f.write_text("x")
    assert cli.main(["rules", "classic"]) == 0
    capsys.readouterr()
    assert cli.main(["report", str(tmp_path / "nope"), "-o", str(f / "r.html")]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1
