"""Worker processes that do not outlive the process that started them.

loky keeps its workers alive for minutes after their last task (to reuse them), and after a
kill -9 of the parent nothing tells them to stop: each holds its share of memory (about 265 MB
with the compiled core) until loky's idle timeout, and a worker blocked writing a result to
its dead parent never ends.  Every pool of the lab therefore starts its workers with
``watch_parent``, which arranges two things in each worker:

- on Linux, ``prctl(PR_SET_PDEATHSIG, SIGKILL)``: the kernel kills the worker the moment its
  parent dies, also while the worker runs a compiled kernel that holds the GIL (no Python code
  can run then, so no thread of the worker could notice);
- elsewhere (and as a second line), a daemon thread that checks once a second whether the
  parent is still the process that started it and ends the worker when it is not.

loky's resource tracker ends by itself when the last process holding its pipe is gone.

Use `parallel(n_jobs, ...)` instead of ``joblib.Parallel(...)``: it is joblib's Parallel on
loky with that initializer (tests/test_processes.py checks that no module calls joblib's
directly).  `stoppable(fn, *args)` runs one long call in a single such worker and waits for
it, so that Ctrl-C ends the call at once (the worker is killed) even when it is a compiled
kernel that would not look at signals for minutes.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

POLL_S = 1.0
PR_SET_PDEATHSIG = 1


def _watch(parent: int) -> None:
    while True:
        time.sleep(POLL_S)
        if os.getppid() != parent:
            os._exit(3)


def _die_with_parent() -> None:
    """Linux: the kernel sends SIGKILL to this process when its parent dies."""
    if not sys.platform.startswith("linux"):
        return
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)


def watch_parent(parent: int) -> None:
    """loky initializer: end this worker as soon as its parent dies (see the module docstring)."""
    if os.getpid() == parent:  # not a worker (jobs=1 runs in the parent)
        return
    _die_with_parent()
    if os.getppid() != parent:  # the parent died before the death signal was armed
        os._exit(3)
    threading.Thread(
        target=_watch, args=(parent,), name="canasta-watch-parent", daemon=True
    ).start()


def loky_kwargs() -> dict[str, Any]:
    """Keyword arguments of joblib.Parallel for loky pools whose workers watch this process."""
    return {"backend": "loky", "initializer": watch_parent, "initargs": (os.getpid(),)}


def parallel(n_jobs: int, **kwargs: Any) -> Any:
    """joblib.Parallel(n_jobs, **kwargs) on loky, its workers ending with this process."""
    from joblib import Parallel

    return Parallel(n_jobs=n_jobs, **{**loky_kwargs(), **kwargs})


def stoppable(fn: Callable[..., Any], *args: Any) -> Any:
    """``fn(*args)`` in one worker process (loky's reusable executor, watching this process):
    this process waits in Python, so Ctrl-C raises KeyboardInterrupt here within a fraction of a
    second and the worker is killed; its result is returned, its exception raised."""
    from joblib.externals.loky import get_reusable_executor

    executor = get_reusable_executor(
        max_workers=1, initializer=watch_parent, initargs=(os.getpid(),)
    )
    future = executor.submit(fn, *args)
    try:
        while True:
            with contextlib.suppress(TimeoutError):
                return future.result(timeout=0.1)
    except KeyboardInterrupt:
        future.cancel()
        executor.shutdown(wait=False, kill_workers=True)
        raise
