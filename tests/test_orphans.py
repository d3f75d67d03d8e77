"""No orphans, and Ctrl-C honoured while compiled kernels run.

- Workers end within seconds of their parent's kill -9, also while each runs a compiled
  kernel that holds the GIL (no thread of theirs can run then: the kernel's death signal,
  prctl(PR_SET_PDEATHSIG), ends them).
- Every module that starts workers does it through sim.runs.workers (its pools arm that).
- Ctrl-C during `analyze --rollouts 1000000 --jobs 1` ends it within seconds (its kernel calls
  are split into units), and `workers.stoppable` ends a call that would never return."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
POS = str(ROOT / "docs" / "position-example.txt")

BUSY = textwrap.dedent(
    """
    import os, sys
    from numba import njit
    from joblib import delayed
    from sim.runs.workers import parallel

    @njit(cache=False)
    def spin(n):  # holds the GIL for minutes
        x = 0
        for i in range(n):
            x = (x * 1103515245 + i) % 2147483647
        return x

    def task(i):
        print(os.getpid(), flush=True)
        return spin(10**12)

    spin(10)  # compiled here; the workers compile their own copy
    list(parallel(2)(delayed(task)(i) for i in range(2)))
    """
)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie is dead
        return Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0] != "Z"
    except OSError:
        return True


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="prctl is Linux's")
def test_workers_in_a_compiled_kernel_end_with_their_parent(tmp_path):
    script = tmp_path / "busy.py"
    script.write_text(BUSY)
    parent = subprocess.Popen(
        [sys.executable, str(script)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    )
    pids = {int(parent.stdout.readline()) for _ in range(2)}
    time.sleep(0.5)  # both inside the kernel
    assert all(_alive(p) for p in pids)
    parent.kill()
    parent.wait()
    deadline = time.monotonic() + 10
    while any(_alive(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = [p for p in pids if _alive(p)]
    for p in left:
        os.kill(p, signal.SIGKILL)
    assert not left, "workers outlived their killed parent"


def test_every_pool_is_started_through_sim_runs_workers():
    """joblib.Parallel and loky executors only in sim/runs/workers.py (and the run loop, which
    passes workers.loky_kwargs() or runs on dask): every other pool would start workers that
    outlive a killed parent."""
    allowed = {"sim/runs/workers.py", "sim/runs/runner.py"}
    offenders = []
    for path in [*ROOT.glob("sim/**/*.py"), *ROOT.glob("reports/**/*.py")]:
        rel = path.relative_to(ROOT).as_posix()
        text = path.read_text()
        if rel not in allowed and re.search(
            r"\bParallel\(|get_reusable_executor|ProcessPool", text
        ):
            offenders.append(rel)
    assert not offenders, offenders
    runner = (ROOT / "sim/runs/runner.py").read_text()
    assert "loky_kwargs()" in runner


def _forever(_):
    import time as t

    t.sleep(3600)


def test_stoppable_call_ends_at_ctrl_c(tmp_path):
    script = tmp_path / "stop.py"
    script.write_text(
        "import sys, time\n"
        f"sys.path.insert(0, {str(Path(__file__).parent)!r})\n"
        "from sim.runs.workers import stoppable\n"
        "from test_orphans import _forever\n"
        "print('ready', flush=True)\n"
        "try:\n"
        "    stoppable(_forever, 0)\n"
        "except KeyboardInterrupt:\n"
        "    print('stopped', flush=True)\n"
    )
    proc = subprocess.Popen(
        [sys.executable, str(script)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert proc.stdout.readline().strip() == "ready"
    time.sleep(2.0)  # the worker has started and sleeps
    t0 = time.monotonic()
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert "stopped" in out, err
    assert time.monotonic() - t0 < 15  # not the hour the call would take


def test_ctrl_c_during_a_long_analysis_with_one_job(tmp_path):
    proc = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys; from sim.cli.main import main; sys.exit(main())",
            "analyze",
            POS,
            "--rollouts",
            "1000000",
            "--jobs",
            "1",
        ],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 300
    while not list(tmp_path.glob(".canasta-analyze-*.partial")):  # the rollouts have begun
        assert proc.poll() is None and time.monotonic() < deadline, proc.stderr.read()
        time.sleep(0.05)
    time.sleep(0.5)
    t0 = time.monotonic()
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    waited = time.monotonic() - t0
    assert proc.returncode == 130 and "Traceback" not in err, err
    assert waited < 15, waited  # one kernel unit, not the whole million rollouts


def test_a_reader_that_leaves_is_not_an_error():
    """`canasta rules classic | head -1`: the closed pipe ends the command quietly, exit 0."""
    proc = subprocess.Popen(
        [sys.executable, "-c", "import sys; from sim.cli.main import main; sys.exit(main())",
         "rules", "classic"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )  # fmt: skip
    proc.stdout.readline()
    proc.stdout.close()  # the reader leaves after one line
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == 0, err
    assert "error" not in err and "Traceback" not in err and "Exception ignored" not in err, err
