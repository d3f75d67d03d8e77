"""The layers only import downwards: a test walks every import of the package's modules.

sim.core            rules core: constants and layouts, cards, rule sets, random numbers,
                    legality, applying actions, scoring, the referee
strategies          the players (import only the core)
sim.play.selfplay   the self-play loop: deal, ask strategies, apply, score, log; status codes
sim.play.worlds     what a seat knows, and worlds dealt from it (uniform and model-consistent)
sim.play.positions  position files: card text, the format, Samba parts, last turns, a running
                    hand as a position
sim.play.rollouts   rollouts from a position and of every candidate action at a decision
sim.play.search     search players (pimc, ismcts) and their table context
sim.play.openspiel  the OpenSpiel game, its bots and the Python loop of their tables
sim.play            the faces: run_chunk (engine), GameState (game), history, pyplay, specs
sim.play.compile    compiling ahead of time (one process or two)
sim.runs            parallel runs and run folders
reports             answers: compare, sweep, odds, reports
sim.table           the browser table (a web app over the game)
sim.cli             the command line (one home, every subcommand imported explicitly)

A module belongs to the longest prefix it starts with (sim.play.engine to sim.play,
sim.play.worlds.deal to sim.play.worlds).  No module imports one of a higher layer, and no two
modules import each other, directly or around a circle (function-level imports included).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LAYERS = (
    "sim.core",
    "strategies",
    "sim.play.selfplay",
    "sim.play.worlds",
    "sim.play.positions",
    "sim.play.rollouts",
    "sim.play.search",
    "sim.play.openspiel",
    "sim.play",
    "sim.play.compile",
    "sim.runs",
    "reports",
    "sim.table",
    "sim.cli",
)
# the package itself and the kernel-cache guard it runs on import (imports nothing of ours)
FOUNDATION = ("sim", "sim.kernel_cache")


def layer_of(module: str) -> int | None:
    """Rank of the longest layer prefix of ``module`` (None: not in any layer)."""
    best, length = None, -1
    for rank, prefix in enumerate(LAYERS):
        if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > length:
            best, length = rank, len(prefix)
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
                    f"{module} ({LAYERS[own] if own >= 0 else 'foundation'}) imports {target} "
                    f"({LAYERS[rank]})"
                )
    return bad


def import_graph() -> dict[str, set[str]]:
    """Our modules -> the modules of ours each imports (``from a import b``: a.b if b is a
    module, else a)."""
    ours = {m for m, _ in modules()}
    graph: dict[str, set[str]] = {}
    for module, path in modules():
        graph[module] = {t for t in imported(path, module) if t in ours and t != module}
        # `from sim.play import engine` names both sim.play and sim.play.engine: keep the module
        graph[module] -= {
            t for t in graph[module] if any(u.startswith(t + ".") for u in graph[module])
        }
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_no_import_circle():
    assert circles(import_graph()) == []


def test_the_circle_finder_sees_a_circle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert circles(graph) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_the_table_sits_between_reports_and_the_command_line():
    # the browser table (sim/table) may use everything below it; nothing below may use it
    table = layer_of("sim.table.app")
    assert layer_of("reports.compare") < table < layer_of("sim.cli.main")
    for low in ("sim.core.rules", "sim.play.game", "sim.play.selfplay.loop", "sim.runs.runner"):
        assert layer_of(low) < table


def test_every_module_has_a_layer():
    loose = [m for m, _ in modules() if layer_of(m) is None and m not in FOUNDATION]
    assert loose == []


def test_no_import_runs_upward():
    assert upward_edges() == []


@pytest.mark.parametrize(
    "module,target",
    [
        ("sim.core.legal", "strategies.registry"),
        ("strategies.greedy", "sim.play.selfplay.loop"),
        ("sim.play.selfplay.loop", "sim.play.worlds.knowledge"),
        ("sim.play.worlds.deal", "sim.play.positions.text"),
        ("sim.play.positions.text", "sim.play.rollouts.from_position"),
        ("sim.play.rollouts.actions", "sim.play.search.pimc"),
        ("sim.play.search.pimc", "sim.play.openspiel.bot"),
        ("sim.play.openspiel.game", "sim.play.engine"),
        ("sim.play.engine", "sim.play.compile.warm"),
        ("sim.play.compile.warm", "sim.runs.runner"),
        ("reports.odds", "sim.cli.main"),
        ("reports.compare", "sim.table.app"),
        ("sim.play.game", "sim.table.app"),
        ("sim.table.app", "sim.cli.main"),
    ],
)
def test_the_walker_sees_an_upward_edge(tmp_path, module, target):
    # the check can fail: the same walker flags a planted upward import
    path = tmp_path / "planted.py"
    path.write_text(f"def f():\n    import {target}\n")
    assert target in imported(path, module)
    assert layer_of(target) > layer_of(module)
