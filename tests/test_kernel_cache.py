"""The kernel cache is cleared when any kernel source changes (numba alone would keep a
caller's stale machine code after an edit to a callee's file)."""

from __future__ import annotations

from pathlib import Path

from sim import kernel_cache


def _tree(tmp_path: Path) -> Path:
    pkg = tmp_path / "sim"
    (pkg / "core" / "__pycache__").mkdir(parents=True)
    (pkg / "core" / "enums.py").write_text("A = 1\n")
    (pkg / "core" / "__pycache__" / "legal.f-1.py311.nbi").write_text("index")
    (pkg / "core" / "__pycache__" / "legal.f-1.py311.1.nbc").write_text("code")
    (pkg / "core" / "__pycache__" / "legal.cpython-311.pyc").write_text("bytecode")
    return pkg


def test_cache_cleared_once_after_a_source_change(tmp_path, monkeypatch):
    pkg = _tree(tmp_path)
    monkeypatch.setattr(kernel_cache, "_PACKAGE", pkg)
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    cached = pkg / "core" / "__pycache__"
    assert kernel_cache.refresh_kernel_cache() is True  # no stamp yet: cleared
    assert sorted(p.name for p in cached.iterdir()) == ["legal.cpython-311.pyc"]
    (cached / "legal.f-1.py311.nbi").write_text("index")  # numba compiles again
    assert kernel_cache.refresh_kernel_cache() is False  # same sources: kept
    assert (cached / "legal.f-1.py311.nbi").exists()
    (pkg / "core" / "enums.py").write_text("A = 2\n")  # a constant changes in another file
    assert kernel_cache.refresh_kernel_cache() is True
    assert not (cached / "legal.f-1.py311.nbi").exists()


def test_user_cache_dir(tmp_path, monkeypatch):
    pkg = _tree(tmp_path)
    user = tmp_path / "numba-cache" / "sim_core_abc"
    user.mkdir(parents=True)
    (user / "legal.f-1.py311.nbi").write_text("index")
    monkeypatch.setattr(kernel_cache, "_PACKAGE", pkg)
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "numba-cache"))
    assert kernel_cache.refresh_kernel_cache() is True
    assert not (user / "legal.f-1.py311.nbi").exists()
    assert (tmp_path / "numba-cache" / kernel_cache.STAMP_NAME).is_file()


def test_editing_the_command_line_or_the_table_keeps_the_cache(tmp_path, monkeypatch):
    pkg = _tree(tmp_path)
    for folder in kernel_cache.NO_KERNELS:
        (pkg / folder).mkdir()
        (pkg / folder / "page.py").write_text("X = 1\n")
    monkeypatch.setattr(kernel_cache, "_PACKAGE", pkg)
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    cached = pkg / "core" / "__pycache__"
    assert kernel_cache.refresh_kernel_cache() is True
    (cached / "legal.f-1.py311.nbi").write_text("index")
    for folder in kernel_cache.NO_KERNELS:
        (pkg / folder / "page.py").write_text("X = 2\n")
    assert kernel_cache.refresh_kernel_cache() is False
    assert (cached / "legal.f-1.py311.nbi").exists()


def test_the_folders_left_out_hold_no_kernels():
    # what makes leaving them out safe: no kernel there, and no kernel imports them (layers)
    root = Path(kernel_cache.__file__).resolve().parent
    for folder in kernel_cache.NO_KERNELS:
        for path in (root / folder).rglob("*.py"):
            text = path.read_text()
            assert "@njit" not in text and "import numba" not in text, path
            assert "from numba" not in text, path
