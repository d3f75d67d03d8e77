"""docs/notebooks/what-experts-do.ipynb runs end to end on a small run (so it never goes stale)."""

from __future__ import annotations

import os
from pathlib import Path

import nbformat
from nbclient import NotebookClient

NOTEBOOK = Path(__file__).resolve().parents[1] / "docs" / "notebooks" / "what-experts-do.ipynb"


def test_what_experts_do_runs(tmp_path, monkeypatch):
    monkeypatch.setenv("CANASTA_NB_HANDS", "150")
    monkeypatch.setenv("CANASTA_NB_OUT", str(tmp_path / "run"))
    monkeypatch.delenv("MPLBACKEND", raising=False)  # the kernel's inline backend makes the PNGs
    root = str(NOTEBOOK.parents[2])  # the kernel (a subprocess) imports this checkout
    monkeypatch.setenv(
        "PYTHONPATH", os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH")) if p)
    )
    nb = nbformat.read(NOTEBOOK, as_version=4)
    NotebookClient(
        nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    ).execute()
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]
    assert not [o for o in outputs if o.output_type == "error"]
    images = [o for o in outputs if "image/png" in o.get("data", {})]
    assert len(images) == 3  # one figure per question
    assert (tmp_path / "run" / "manifest.json").is_file()
