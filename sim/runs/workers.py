"""Worker processes that do not outlive the process that started them.

loky keeps its workers alive for minutes after their last task (to reuse them), and after a
kill -9 of the parent nothing tells them to stop: each holds its share of memory (about 265 MB
with the compiled core) until loky's idle timeout.  Every loky pool of the lab therefore starts
its workers with ``watch_parent``: a daemon thread in each worker checks once a second whether
its parent is still the process that started it and ends the worker at once when it is not
(the parent died and the worker was handed to init).  loky's resource tracker ends by itself
when the last process holding its pipe is gone.
"""

from __future__ import annotations

import os
import threading
import time
from typing import Any

POLL_S = 1.0


def _watch(parent: int) -> None:
    while True:
        time.sleep(POLL_S)
        if os.getppid() != parent:
            os._exit(3)


def watch_parent(parent: int) -> None:
    """loky initializer: end this worker within POLL_S of its parent's death."""
    if os.getpid() == parent:  # not a worker (jobs=1 runs in the parent)
        return
    threading.Thread(
        target=_watch, args=(parent,), name="canasta-watch-parent", daemon=True
    ).start()


def loky_kwargs() -> dict[str, Any]:
    """Keyword arguments of joblib.Parallel for loky pools whose workers watch this process."""
    return {"backend": "loky", "initializer": watch_parent, "initargs": (os.getpid(),)}
