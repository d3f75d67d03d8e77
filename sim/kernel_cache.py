"""Keep numba's on-disk kernel cache in step with the sources.

numba (``cache=True``) reuses a kernel's machine code as long as the kernel's OWN source file
is unchanged.  A kernel compiles in the functions it calls and the constants it reads
(``sim/core/enums.py``), which may live in other files: after editing only those, numba would
silently run the old code.  So on import the package hashes the sources of every module that
holds kernels (sim/ and strategies/) and, when the hash differs from the one stamped beside
the cache, deletes the cached kernels (``*.nbi`` index and ``*.nbc`` code files), which numba
then compiles afresh.  Reading and hashing the sources takes a few milliseconds.

The cache lives in ``__pycache__`` beside the sources or, when ``NUMBA_CACHE_DIR`` is set, in
that folder (whose numba files are then all cleared on a change).
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

STAMP_NAME = "canasta-kernels.stamp"
_PACKAGE = Path(__file__).resolve().parent
# folders of sim/ above every kernel (the layers test keeps kernels from importing them): the
# command line and the browser table; editing them must not throw the compiled kernels away
NO_KERNELS = ("cli", "table")


def source_roots() -> list[Path]:
    roots = [_PACKAGE, _PACKAGE.parent / "strategies"]
    return [r for r in roots if r.is_dir()]


def sources_digest(roots: list[Path]) -> str:
    h = hashlib.blake2b(digest_size=16)
    for root in roots:
        for path in sorted(root.rglob("*.py")):
            rel = path.relative_to(root)
            if root == _PACKAGE and rel.parts[0] in NO_KERNELS:
                continue
            h.update(path.relative_to(root.parent).as_posix().encode())
            h.update(path.read_bytes())
    return h.hexdigest()


def _cache_dirs(roots: list[Path]) -> tuple[list[Path], Path]:
    """Folders holding our cached kernels, and the stamp file's folder."""
    user_dir = os.environ.get("NUMBA_CACHE_DIR")
    if user_dir:
        return [Path(user_dir)], Path(user_dir)
    return [p for root in roots for p in root.rglob("__pycache__")], _PACKAGE / "__pycache__"


def stamp_folder() -> Path:
    """The folder of the cache's stamp (NUMBA_CACHE_DIR, or the package's __pycache__)."""
    user_dir = os.environ.get("NUMBA_CACHE_DIR")
    return Path(user_dir) if user_dir else _PACKAGE / "__pycache__"


def refresh_kernel_cache() -> bool:
    """Delete cached kernels compiled from other sources; True when something was cleared.
    Never raises: a read-only installation simply keeps numba's own behaviour."""
    try:
        roots = source_roots()
        digest = sources_digest(roots)
        dirs, stamp_dir = _cache_dirs(roots)
        stamp = stamp_dir / STAMP_NAME
        if stamp.is_file() and stamp.read_text() == digest:
            return False
        for folder in dirs:
            for pattern in ("*.nbi", "*.nbc"):
                for f in folder.rglob(pattern):
                    f.unlink(missing_ok=True)
        stamp_dir.mkdir(parents=True, exist_ok=True)
        tmp = stamp.with_name(f"{STAMP_NAME}.{os.getpid()}")
        tmp.write_text(digest)
        tmp.replace(stamp)
        return True
    except OSError:
        return False
