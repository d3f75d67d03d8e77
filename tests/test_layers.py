"""The layers only import downwards: a test walks every import of the package's modules.

sim.core     rules core: constants and layouts, cards, rule sets, random numbers, legality,
             applying actions, scoring, the referee
strategies   the players (import only the core)
sim.play     self-play kernels, the step-through game, rollouts (drive the strategies)
sim.runs     parallel runs and run folders
reports      answers: compare, sweep, odds, reports
sim.cli      the command line (one home, every subcommand imported explicitly)
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LAYERS = ("sim.core", "strategies", "sim.play", "sim.runs", "reports", "sim.cli")
# the package itself and the kernel-cache guard it runs on import (imports nothing of ours)
FOUNDATION = ("sim", "sim.kernel_cache")


def layer_of(module: str) -> int | None:
    best = None
    for rank, prefix in enumerate(LAYERS):
        if module == prefix or module.startswith(prefix + "."):
            best = rank
    return best


def modules() -> list[tuple[str, Path]]:
    out = []
    for pkg in ("sim", "strategies", "reports"):
        for path in sorted((ROOT / pkg).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            out.append((".".join(parts), path))
    return out


def imported(path: Path, module: str) -> set[str]:
    """Every module an import statement names (function-level imports included)."""
    names: set[str] = set()
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(
                    package.split(".")[: len(package.split(".")) - node.level + 1]
                    + ([base] if base else [])
                )
            names.add(base)
            names.update(f"{base}.{a.name}" for a in node.names)  # `from sim.core import legal`
    return names


def upward_edges() -> list[str]:
    bad = []
    for module, path in modules():
        own = -1 if module in FOUNDATION else layer_of(module)
        if own is None:
            continue
        for target in imported(path, module):
            rank = layer_of(target)
            if rank is not None and rank > own:
                bad.append(
                    f"{module} ({LAYERS[own] if own >= 0 else 'foundation'}) imports {target} ({LAYERS[rank]})"
                )
    return bad


def test_every_module_has_a_layer():
    loose = [m for m, _ in modules() if layer_of(m) is None and m not in FOUNDATION]
    assert loose == []


def test_no_import_runs_upward():
    assert upward_edges() == []


@pytest.mark.parametrize(
    "module,target",
    [
        ("sim.core.legal", "strategies.registry"),
        ("strategies.greedy", "sim.play.loop"),
        ("reports.odds", "sim.cli.main"),
    ],
)
def test_the_walker_sees_an_upward_edge(tmp_path, module, target):
    # the check can fail: the same walker flags a planted upward import
    path = tmp_path / "planted.py"
    path.write_text(f"def f():\n    import {target}\n")
    assert target in imported(path, module)
    assert layer_of(target) > layer_of(module)
