"""The project's documents stand on their own: docs/RULES.md covers every rule parameter and
preset, and no file points outside the project (to a spec folder beside it, or to a path on a
development machine)."""

from __future__ import annotations

import re
from pathlib import Path

from sim.core.rules import PRESETS, RuleSet

ROOT = Path(__file__).resolve().parents[1]
TEXT_SUFFIXES = {".py", ".md", ".toml", ".txt", ".cfg", ".ini", ".yml", ".yaml"}


def project_text_files() -> list[Path]:
    skip = {".git", ".venv", "runs", "__pycache__", ".ruff_cache", ".mypy_cache", ".pytest_cache"}
    out = []
    for path in ROOT.rglob("*"):
        if any(part in skip or part.endswith(".egg-info") for part in path.relative_to(ROOT).parts):
            continue
        if path.is_file() and (path.suffix in TEXT_SUFFIXES or path.parent.name == ".ci"):
            out.append(path)
    return out


def test_rules_doc_names_every_parameter_and_preset():
    text = (ROOT / "docs" / "RULES.md").read_text()
    missing = [p for p in RuleSet.param_names() if f"`{p}`" not in text]
    assert not missing, f"docs/RULES.md does not describe {missing}"
    assert all(f"`{name}`" in text for name in PRESETS)


def test_no_reference_outside_the_project():
    # spelled in pieces so that this file does not match itself
    beside, dev = r"\.\./" + "shared", "/" + "work" + "/"
    pattern = re.compile(rf"{beside}|{dev}|/home/\w+/")
    bad = []
    for path in project_text_files():
        for no, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            if pattern.search(line):
                bad.append(f"{path.relative_to(ROOT)}:{no}: {line.strip()}")
    assert not bad, "\n".join(bad)


def test_every_command_help_shows_a_worked_example():
    from sim.cli.main import build_parser, subcommand_modules

    parser = build_parser()
    sub = next(a for a in parser._actions if a.choices and "rules" in a.choices)
    # every module of sim/cli that defines a subcommand is registered, once
    defining = {
        f.stem for f in (ROOT / "sim" / "cli").glob("*.py") if "def add_parser" in f.read_text()
    }
    assert {m.__name__.rsplit(".", 1)[1] for m in subcommand_modules()} == defining
    assert len(sub.choices) == len(subcommand_modules())
    for name, command in sub.choices.items():
        text = command.format_help()
        _, heading, examples = text.partition("\nexample")  # "example:" or "examples:"
        assert heading and f"canasta {name}" in examples, name
