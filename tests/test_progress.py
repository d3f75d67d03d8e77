"""Every progress bar comes from sim/runs/progress.py: on a terminal only, quiet when piped."""

from __future__ import annotations

import re
from pathlib import Path

from sim.runs.progress import grow, new_bar, progress_bar

ROOT = Path(__file__).resolve().parents[1]


def test_piped_bar_is_silent_and_forced_bar_draws(capsys):
    with progress_bar(None, 10, "deal") as bar:  # pytest's stderr is not a terminal
        bar.update(10)
    assert bar.disable and capsys.readouterr().err == ""
    with progress_bar(True, 10, "deal", "compare") as bar:
        bar.update(4)
        grow(bar, 5)
        assert bar.total == 15
    err = capsys.readouterr().err
    assert "compare" in err and "/15" in err


def test_a_bar_passed_in_is_advanced_not_replaced():
    outer = new_bar(100, "deal", enabled=False)
    with progress_bar(outer, 10, "deal") as bar:
        assert bar is outer


def test_only_the_progress_module_makes_tqdm_bars():
    makers = [
        p.relative_to(ROOT).as_posix()
        for d in ("sim", "reports", "strategies")
        for p in (ROOT / d).rglob("*.py")
        if re.search(r"^\s*(from tqdm|import tqdm)", p.read_text(), re.M)
    ]
    assert makers == ["sim/runs/progress.py"]
