"""The project's documents stand on their own: docs/RULES.md covers every rule parameter and
preset, and no file points outside the project (to a spec folder beside it, or to a path on a
development machine)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

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


# What users read speaks to users: no issue numbers ("issue 14", "#12"), no "session", no commit
# hashes (7+ hex digits with both a digit and a letter), in the manual, the guides, the measured
# results, every command's --help and what `canasta strategies` and `canasta rules` print.
DEV_WORDS = re.compile(
    r"\bissues?\s+#?\d+|(?<![\w&/#])#\d+\b|\bsessions?\b"
    r"|\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,40}\b",
    re.IGNORECASE,
)


def user_texts() -> dict[str, str]:
    import contextlib
    import io

    from sim.cli.main import build_parser, main
    from sim.core.rules import PRESETS

    texts = {
        str(p.relative_to(ROOT)): p.read_text()
        for p in [ROOT / "README.md", ROOT / "benchmarks" / "RESULTS.md"]
        + sorted((ROOT / "docs").rglob("*.md"))
    }
    parser = build_parser()
    texts["canasta --help"] = parser.format_help()
    sub = next(a for a in parser._actions if a.choices and "rules" in a.choices)
    for name, command in sub.choices.items():
        texts[f"canasta {name} --help"] = command.format_help()
    for argv in (["strategies"], ["rules"], *(["rules", p] for p in PRESETS)):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            assert main(argv) == 0
        texts["canasta " + " ".join(argv)] = out.getvalue()
    return texts


def dev_words(text: str) -> list[str]:
    return [m.group(0) for m in DEV_WORDS.finditer(text)]


def test_user_text_has_no_development_history():
    bad = {where: words for where, text in user_texts().items() if (words := dev_words(text))}
    assert bad == {}


@pytest.mark.parametrize(
    "text",
    ["as issue 14 asks", "see #12", "the second session of the day", "main ba6ad13 run just after"],
)
def test_the_history_check_can_fail(text):
    assert dev_words(text)
    # and leaves ordinary text alone: numbers, hex-free words, card and rule names
    assert dev_words("1,000,000 hands, seed 20261130, classic-6p-2x3, decade, facade, 0x1F") == []


def _anchors(markdown: str) -> set[str]:
    """GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens."""
    out = set()
    for line in markdown.splitlines():
        if line.startswith("#"):
            title = line.lstrip("#").strip().lower()
            out.add(re.sub(r"\s", "-", re.sub(r"[^\w\s-]", "", title)))
    return out


def test_every_link_of_the_manual_and_the_guides_resolves():
    bad = []
    pages = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", ROOT / "benchmarks" / "RESULTS.md"]
    for page in pages + sorted((ROOT / "docs").rglob("*.md")):
        for target in re.findall(r"\]\(([^)\s]+)\)", page.read_text()):
            if re.match(r"[a-z]+:", target):
                continue  # a web address
            path, _, anchor = target.partition("#")
            dest = (page.parent / path).resolve() if path else page
            if not dest.exists():
                bad.append(f"{page.relative_to(ROOT)}: {target} (no such file)")
            elif anchor and dest.suffix == ".md" and anchor not in _anchors(dest.read_text()):
                bad.append(f"{page.relative_to(ROOT)}: {target} (no such heading)")
    assert bad == []


def test_every_help_and_printed_description_fits_100_columns():
    wide = {
        where: max(len(line) for line in text.splitlines())
        for where, text in user_texts().items()
        if where.startswith("canasta")
    }
    assert {where: w for where, w in wide.items() if w > 100} == {}
