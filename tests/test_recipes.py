"""CONTRIBUTING.md's recipes, followed: a throwaway command, strategy, rule parameter and decision
column are added the way the recipes say, and the checks the recipes name pass.

The command is added in this process (its module registered by monkeypatching); the others change
declarations that are read when the package is imported, so they are made in a copy of the tree
and checked in a fresh interpreter (with its own kernel cache: nothing is compiled)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
import types
from pathlib import Path

import pytest

from strategies.registry import STRATEGIES

ROOT = Path(__file__).resolve().parents[1]


# ----------------------------------------------------------------------------- a command


def _hello_module() -> types.ModuleType:
    """sim/cli/hello.py as the recipe writes it: add_parser, run, worked examples."""
    mod = types.ModuleType("sim.cli.hello")

    def add_parser(subparsers):
        import argparse

        p = subparsers.add_parser(
            "hello",
            help="greet a number of players",
            epilog="example:\n  canasta hello --players 4     greets four players, one line each",
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        p.add_argument("--players", type=int, default=4)
        p.set_defaults(run=mod.run)
        return p

    def run(args) -> int:
        from sim.core.errors import CanastaError

        if not 2 <= args.players <= 6:
            raise CanastaError(f"--players {args.players}: give 2 .. 6")
        for seat in range(args.players):
            print(f"hello, seat {seat}")
        return 0

    mod.add_parser, mod.run = add_parser, run
    return mod


def test_the_command_recipe(monkeypatch, capsys):
    from sim.cli import main as cli

    monkeypatch.setitem(sys.modules, "sim.cli.hello", _hello_module())
    monkeypatch.setattr(cli, "COMMANDS", (*cli.COMMANDS, "hello"))  # step 2
    assert cli.main(["hello", "--players", "3"]) == 0  # step 5: a tiny input
    assert capsys.readouterr().out.splitlines() == [f"hello, seat {s}" for s in range(3)]
    assert cli.main(["hello", "--players", "9"]) == 2  # step 3: one line, status 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["canasta hello: error: --players 9: give 2 .. 6"]
    sub = next(a for a in cli.build_parser()._actions if a.choices and "hello" in a.choices)
    text = sub.choices["hello"].format_help()  # step 5: --help shows a worked example
    assert "\nexample:\n  canasta hello --players 4" in text
    assert max(len(line) for line in text.splitlines()) <= 100


# ----------------------------------------------------------------------------- in a copy


@pytest.fixture(scope="module")
def tree(tmp_path_factory) -> Path:
    """A copy of the package (sim, strategies), the docs and the stub writer."""
    dest = tmp_path_factory.mktemp("tree")
    skip = shutil.ignore_patterns("__pycache__", "*.nbi", "*.nbc")
    for folder in ("sim", "strategies", "docs"):
        shutil.copytree(ROOT / folder, dest / folder, ignore=skip)
    (dest / "tests").mkdir()
    shutil.copy(ROOT / "tests" / "layout_stubs.py", dest / "tests")
    return dest


def _python(tree: Path, code: str) -> str:
    env = dict(os.environ, PYTHONPATH=str(tree), NUMBA_CACHE_DIR=str(tree / "nbcache"))
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, f"{path.name}: the recipe's anchor {old!r} is gone"
    path.write_text(text.replace(old, new, 1))


def _add_entry(path: Path, head: str, line: str) -> None:
    """The recipe's one line at the end of the dict literal that starts with ``head``."""
    text = path.read_text()
    assert head in text, f"{path.name}: the recipe's anchor {head!r} is gone"
    end = text.index("\n}\n", text.index(head)) + 1
    path.write_text(text[:end] + line + text[end:])


def _digest(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*.py"))}


def test_the_strategy_recipe_touches_nothing_in_sim(tree):
    before = _digest(tree / "sim")
    # step 1: the worked example of docs/players.md, as its own file, with its plan (step 3)
    guide = (tree / "docs" / "players.md").read_text()
    code = guide.split("```python\n", 1)[1].split("```", 1)[0]
    (tree / "strategies" / "cautious.py").write_text(
        '"""`cautious`: takes the pile only when it is big, else the last legal action.\n\n'
        "Plan: take with a natural pair from `never_take_below` cards on (docs/STRATEGY.md,\n"
        'section 3); otherwise the last legal action of the list."""\n\n' + code
    )
    # step 2: the registry's three lines
    reg = tree / "strategies" / "registry.py"
    _edit(reg, "from strategies import (\n", "from strategies import (\n    cautious,\n")
    _add_entry(reg, "STRATEGIES: dict[", '    "cautious": cautious,\n')
    _add_entry(reg, "KERNELS: dict[", '    "cautious": cautious.decide_nb,\n')
    text = reg.read_text()
    branch = text[text.index("    if kernel == Kernel.") :].split("\n")[:2]
    assert "random" in branch[0] or "greedy" in branch[0] or "heuristic" in branch[0]
    _edit(
        reg,
        branch[0] + "\n",
        "    if kernel == Kernel.cautious:\n"
        "        return cautious.decide_nb(obs, params, knobs, rng, buf)\n" + branch[0] + "\n",
    )
    out = _python(
        tree,
        """
        import io, contextlib, json
        from sim.cli.main import main
        from sim.play.compile import parallel_warm as pw
        from strategies.registry import STRATEGY_NAMES, parse_spec
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            assert main(["strategies", "cautious"]) == 0
        sid, knobs = parse_spec("cautious:never_take_below=5")
        units = [u.module for u in pw.decision_units("own") + pw.decision_units("helper")]
        steps = pw.play_decide_steps("cautious")
        print(json.dumps({"text": buf.getvalue(), "id": sid, "knob": float(knobs[0]),
                          "units": units, "play": steps[-1].module}))
        """,
    )
    got = json.loads(out.splitlines()[-1])
    assert "== cautious: takes the pile only when it is big" in got["text"]
    assert "never_take_below" in got["text"]  # its knob, with its default
    assert got["knob"] == 5.0 and got["id"] == len(STRATEGIES)  # the next id
    assert "strategies.cautious" in got["units"] and got["play"] == "strategies.cautious"
    assert _digest(tree / "sim") == before  # nothing in sim/ was touched


def test_the_rule_parameter_recipe(tree):
    params = tree / "sim" / "core" / "params.py"
    text = params.read_text()
    # step 1: one declared field, after the last one of RuleParams
    anchor = text[: text.index("\n\n\n", text.index("class RuleParams"))]
    new_field = (
        "\n    bonus_for_tea: int = param(\n"
        '        0, "points for the team that makes tea", lo=0, hi=500, par="BONUS_FOR_TEA"\n'
        "    )"
    )
    params.write_text(text.replace(anchor, anchor + new_field, 1))
    rules_md = tree / "docs" / "RULES.md"
    assert "`bonus_for_tea`" not in rules_md.read_text()  # tests/test_docs.py would fail here
    # step 5: the rule in words
    rules_md.write_text(rules_md.read_text() + "\n- `bonus_for_tea`: points for making tea.\n")
    out = _python(
        tree,
        """
        import sys, io, contextlib, json
        sys.path.insert(0, "tests")
        import layout_stubs
        from sim.cli.main import main
        from sim.core.errors import CanastaError
        from sim.core.params import Par
        from sim.core.rules import RuleSet
        r = RuleSet.preset("classic", bonus_for_tea=50)
        try:
            RuleSet.preset("classic", bonus_for_tea=-1)
            refused = ""
        except CanastaError as e:
            refused = str(e)
        stale = layout_stubs.stale()
        layout_stubs.main()
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            assert main(["rules", "classic"]) == 0
        text = open("docs/RULES.md").read()
        missing = [p for p in RuleSet.param_names() if f"`{p}`" not in text]
        print(json.dumps({"value": int(r.to_params()[Par.BONUS_FOR_TEA]), "refused": refused,
                          "stale": stale, "fresh": layout_stubs.stale(), "rules": buf.getvalue(),
                          "undocumented": missing}))
        """,
    )
    got = json.loads(out.splitlines()[-1])
    assert got["value"] == 50  # RuleSet and to_params follow from the declaration
    assert "bonus_for_tea" in got["refused"] and "\n" not in got["refused"]
    assert got["stale"] == ["sim/core/_layouts.pyi"] and got["fresh"] == []
    assert "points for the team that makes tea" in got["rules"]
    assert got["undocumented"] == []  # the docs test's check, on the copy
    assert "BONUS_FOR_TEA: int" in (tree / "sim" / "core" / "_layouts.pyi").read_text()


def test_the_decision_column_recipe(tree):
    enums = tree / "sim" / "core" / "enums.py"
    text = enums.read_text()
    # step 1: one declared column at the end of DECISION_COLUMNS
    start = text.index("DECISION_COLUMNS = (")
    end = text.index("\n)\n", start)
    row = '\n    DecisionColumn("tea_time", np.int16, "minutes since the last tea"),'
    enums.write_text(text[:end] + row + text[end:])
    data_md = tree / "docs" / "DATA.md"
    doc = data_md.read_text()
    assert "`tea_time`" not in doc  # tests/test_decision_columns.py would fail here
    at = doc.index("| `decision_type` |")  # step 3: its row in the decisions table
    data_md.write_text(
        doc[:at] + "| `tea_time` | int16 | minutes since the last tea |\n" + doc[at:]
    )
    out = _python(
        tree,
        """
        import sys, json
        sys.path.insert(0, "tests")
        import layout_stubs
        from sim.core.enums import D16, decision_record_dt
        from sim.runs import store
        stale = layout_stubs.stale()
        layout_stubs.main()
        documented = open("docs/DATA.md").read()
        print(json.dumps({"record": "tea_time" in decision_record_dt.names, "row": D16.TEA_TIME,
                          "store": str(store.COLUMN_DTYPES["decisions"]["tea_time"]),
                          "stale": stale, "fresh": layout_stubs.stale(),
                          "documented": "| `tea_time` | int16 |" in documented}))
        """,
    )
    got = json.loads(out.splitlines()[-1])
    assert got["record"] and got["store"] == "int16" and got["row"] >= 0  # follow from step 1
    assert got["stale"] == ["sim/core/_layouts.pyi"] and got["fresh"] == [] and got["documented"]
