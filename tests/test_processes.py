"""Processes (issue 12): loky workers end when their parent is killed; Ctrl-C at any moment,
also while the libraries load, gives one line and no traceback; a folder left holding only the
lock and a temporary manifest (kill -9 during its write) is used as a fresh one."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time

import fake_engine
import pytest

import sim.cli.main as cli
from sim.play import engine
from sim.runs import store

ORPHAN = textwrap.dedent(
    """
    import os, time
    from joblib import Parallel, delayed
    from sim.runs.workers import loky_kwargs

    def pid(_):
        time.sleep(0.2)
        return os.getpid()

    pids = set(Parallel(n_jobs=2, **loky_kwargs())(delayed(pid)(i) for i in range(6)))
    print(" ".join(map(str, pids)), flush=True)
    time.sleep(120)
    """
)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie of ours would still answer; workers are the killed parent's children, not ours
    return True


def test_loky_workers_end_when_their_parent_is_killed(tmp_path):
    script = tmp_path / "orphan.py"
    script.write_text(ORPHAN)
    parent = subprocess.Popen(
        [sys.executable, str(script)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    )
    pids = [int(x) for x in parent.stdout.readline().split()]
    assert len(pids) == 2 and parent.pid not in pids
    assert all(_alive(p) for p in pids)
    parent.kill()
    parent.wait()
    deadline = time.monotonic() + 15
    while any(_alive(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(_alive(p) for p in pids), "loky workers outlived their killed parent"


def _wait_until_python_catches_sigint(pid: int) -> None:
    """Until the child's interpreter has installed its SIGINT handler (Linux: /proc).  Before
    that a SIGINT kills the process outright (status -2): the interpreter's own start, not the
    lab's code, and on a loaded machine it can take longer than the test's shortest delay."""
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            status = open(f"/proc/{pid}/status").read()
        except OSError:  # no /proc: nothing to wait on
            return
        caught = next(
            (line.split()[1] for line in status.splitlines() if line.startswith("SigCgt:")), None
        )
        if caught is None or int(caught, 16) & (1 << (signal.SIGINT - 1)):
            return
        time.sleep(0.002)


# (the interpreter's own start, before any of the lab's code runs, about 30-50 ms, is not covered:
# the delay counts from the moment the interpreter catches SIGINT)
@pytest.mark.parametrize("delay", [0.15, 0.5, 1.2])
def test_ctrl_c_while_starting_is_one_line(tmp_path, delay):
    env = dict(
        os.environ, PYTHONPATH=os.pathsep.join([os.getcwd(), os.environ.get("PYTHONPATH", "")])
    )
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "sim.cli",
            "compare",
            "expert",
            "greedy",
            "--hands",
            "200000",
            "--jobs",
            "1",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=os.getcwd(),
    )
    _wait_until_python_catches_sigint(proc.pid)
    time.sleep(delay)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    assert "Traceback" not in err, err
    assert proc.returncode == 130, (proc.returncode, err)
    assert err.strip().splitlines()[-1] == "canasta: interrupted", err


def test_folder_with_only_lock_and_tmp_manifest_is_reused(tmp_path, monkeypatch, capsys):
    out = tmp_path / "run"
    out.mkdir()
    (out / store.LOCK).write_text("pid 1")
    (out / (store.MANIFEST + store.TMP_SUFFIX)).write_text('{"format": "canasta-r')
    monkeypatch.setattr(engine, "run_chunk", fake_engine.run_chunk)
    argv = [
        "simulate",
        "--hands",
        "300",
        "--chunk-size",
        "100",
        "--jobs",
        "1",
        "--out",
        str(out),
        "--no-progress",
    ]
    assert cli.main(argv) == 0
    assert store.done_chunks(out) == [0, 1, 2] and not list(out.glob("*.tmp"))
    # and --resume on such a folder starts it too
    out2 = tmp_path / "run2"
    out2.mkdir()
    (out2 / (store.MANIFEST + store.TMP_SUFFIX)).write_text("")
    assert cli.main([*argv[:-3], "--out", str(out2), "--no-progress", "--resume"]) == 0
    assert store.done_chunks(out2) == [0, 1, 2]


def test_ctrl_c_while_numba_compiles_is_one_line(tmp_path):
    # a fresh cache: the kernels are still compiling when Ctrl-C comes (a KeyboardInterrupt
    # raised inside llvmlite's callbacks cannot propagate: the handler ends the process itself)
    env = dict(
        os.environ,
        NUMBA_CACHE_DIR=str(tmp_path / "cache"),
        PYTHONPATH=os.pathsep.join([os.getcwd(), os.environ.get("PYTHONPATH", "")]),
    )
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "sim.cli",
            "compare",
            "expert",
            "greedy",
            "--hands",
            "200000",
            "--jobs",
            "1",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=os.getcwd(),
    )
    time.sleep(4)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    assert "Traceback" not in err and "Exception ignored" not in err, err
    assert proc.returncode == 130, (proc.returncode, err)
    assert err.strip().splitlines()[-1] == "canasta: interrupted", err


def test_the_compiler_is_recognised_on_the_interrupted_stack():
    from sim.cli.main import _in_compiler

    scope: dict = {}
    exec(
        compile(
            "import sys\ndef here():\n    return sys._getframe()\n",
            "/site-packages/numba/core/fake.py",
            "exec",
        ),
        scope,
    )
    assert _in_compiler(scope["here"]())
    assert not _in_compiler(sys._getframe())


@pytest.mark.parametrize("caught_by", ["main", "command"])
def test_ctrl_c_caught_inside_string_exec_still_exits_130(tmp_path, caught_by):
    # the flaky -2 of test_ctrl_c_while_starting_is_one_line: a KeyboardInterrupt that leaves code
    # run from a string (dataclasses, namedtuples, numba build their code so while modules load)
    # makes CPython end a `python -m` process with SIGINT at exit, even though main caught it
    (tmp_path / "ki_in_exec.py").write_text(
        "import sys\n"
        "import sim.cli.main as m\n"
        "def _run(argv):\n"
        "    try:\n"
        "        exec('raise KeyboardInterrupt')\n"
        "    except KeyboardInterrupt:\n"
        f"        if {caught_by == 'main'}:\n"
        "            raise\n"
        "        print('canasta: interrupted', file=sys.stderr)\n"  # as simulate ends a run
        "        return 130\n"
        "m._run = _run\n"
        "sys.exit(m.main(['simulate']))\n"
    )
    env = dict(
        os.environ,
        PYTHONPATH=os.pathsep.join([str(tmp_path), os.getcwd(), os.environ.get("PYTHONPATH", "")]),
    )
    proc = subprocess.run(
        [sys.executable, "-m", "ki_in_exec"],
        capture_output=True,
        text=True,
        env=env,
        cwd=os.getcwd(),
        timeout=120,
    )
    assert "Traceback" not in proc.stderr, proc.stderr
    assert proc.returncode == 130, (proc.returncode, proc.stderr)
    assert proc.stderr.strip().splitlines()[-1] == "canasta: interrupted", proc.stderr
