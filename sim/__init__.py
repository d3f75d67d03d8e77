"""Canasta strategy lab: the rules engine (numba core), rule sets and the Python game API.

Importing the package first makes sure numba's disk cache of the kernels is not stale
(sim/kernel_cache.py): numba checks only a kernel's own file, not the files of the functions
and constants it compiled in."""

import os as _os
import sys as _sys

from sim.kernel_cache import refresh_kernel_cache


def _started_as_command() -> bool:
    """This import starts `canasta` or `python -m sim.cli` (while -m locates its module,
    sys.argv[0] is "-m": the module is in this package)."""
    first = _sys.argv[0] if _sys.argv else ""
    return first == "-m" or _os.path.basename(first) == "canasta"


try:
    refresh_kernel_cache()
except KeyboardInterrupt:
    if not _started_as_command():
        raise
    # Ctrl-C before the command's own handler is installed: the command's one line, status 130
    print("canasta: interrupted", file=_sys.stderr)
    raise SystemExit(130) from None
