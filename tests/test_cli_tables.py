"""The command line's printed tables and small commands: --version, strategies, option names."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
from fake_engine import seat

from sim.cli.main import build_parser, main
from sim.cli.strategies import knob_range, knob_rows
from sim.cli.tables import fmt_ci, fmt_pct_ci, print_table
from strategies.registry import STRATEGY_NAMES, knob_defaults


def test_version(capsys):
    assert main(["--version"]) == 0
    assert re.match(r"canasta \d+\.\d+", capsys.readouterr().out)


def test_strategies_lists_plan_and_every_knob(capsys):
    assert main(["strategies"]) == 0
    out = capsys.readouterr().out
    for name in STRATEGY_NAMES:
        assert f"== {name}: " in out
    expert = out.split("== expert:")[1].split("== tunable:")[0]
    assert "Plan" in expert
    for knob, default in knob_defaults("expert").items():
        line = next(ln for ln in expert.splitlines() if ln.startswith(knob + " "))
        assert re.search(rf"\s{default:g}\s", line), line  # expert's own default, not heuristic's
    rows = {r["knob"]: r for r in knob_rows("expert")}
    assert rows["freeze_when"]["range"] == "0, 1, 2" and rows["concealed"]["range"] == "0, 1"
    assert all(r["meaning"] for r in rows.values())
    assert knob_range("weight", 9.0) == "0 .. 1e+06" and knob_range("x", 1, "0..3") == "0 .. 3"
    assert main(["strategies", "nosuch"]) == 2


def test_one_option_name_for_strategies():
    p = build_parser()
    for opt in ("--strategies", "--strategy"):  # the old spelling still parses, hidden
        assert p.parse_args(["odds", "--position", "f", opt, "expert", "greedy"]).strategies == [
            "expert",
            "greedy",
        ]
    odds_help = p._subparsers._group_actions[0].choices["odds"].format_help()
    assert "--strategies" in odds_help and "--strategy " not in odds_help


def test_tables_are_aligned_and_rounded(capsys):
    df = pd.DataFrame(
        {
            "name": ["a", "bb"],
            "count": [199906.0, 12.0],
            "x": [192.46275, 3.5],
            "ci": [fmt_ci(152.71, 142.93, 162.49), fmt_ci(-0.3, -12, 12, signed=True)],
        }
    )
    print_table(df, title="t")
    lines = capsys.readouterr().out.splitlines()
    assert "199,906" in lines[3] and "199906.0" not in "\n".join(lines)
    assert "192.46275" not in "\n".join(lines)
    assert lines[4].endswith("+0 [-12, 12]") and lines[3].endswith("152.7 [142.9, 162.5]")
    assert len({len(ln) for ln in lines[3:5]}) == 1  # right-aligned numbers: equal line ends
    assert fmt_pct_ci(0.531, 0.524, 0.538) == "53.10% [52.40, 53.80]"
    assert fmt_ci(1.0, -np.inf, np.inf).endswith("[no CI: n < 2]")
    print_table(
        pd.DataFrame({"x [95% CI]": [fmt_ci(1.0, -np.inf, np.inf)]}), title="[bold]t[/bold]"
    )
    out = capsys.readouterr().out
    assert "1.0 [no CI: n < 2]" in out and "[bold]t[/bold]" in out  # text, never rich markup


def test_rules_says_samba_is_playable(capsys):
    assert main(["rules"]) == 0
    assert "not playable" not in capsys.readouterr().out


def test_compare_three_strategies_on_the_engine(capsys):
    """Three strategies: a round robin (this once died with a TypeError on the luck option)."""
    assert (
        main(
            [
                "compare",
                "greedy",
                "random",
                "patient",
                "--hands",
                "6",
                "--jobs",
                "1",
                "--no-progress",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "greedy" in out and "patient" in out and "rank" in out.lower()
    from reports.luck import N_LUCK, min_deals

    assert f"not applied (< {min_deals(N_LUCK):,} deals)" in out  # 6 deals: nothing fitted
    assert max(map(len, out.splitlines())) <= 100


def test_strategies_describes_the_search_players(capsys):
    from sim.cli.strategies import search_rows
    from sim.play.search.spec import ISMCTS_DEFAULTS, PIMC_DEFAULTS

    assert main(["strategies", "pimc", "ismcts"]) == 0
    out = capsys.readouterr().out
    assert "== pimc:" in out and "== ismcts:" in out
    for name, defaults in (("pimc", PIMC_DEFAULTS), ("ismcts", ISMCTS_DEFAULTS)):
        rows = search_rows(name)
        assert [r["knob"] for r in rows] == list(defaults)  # every knob, none invented
        assert all(r["meaning"] for r in rows), rows  # each with its meaning


def test_a_command_named_first_is_parsed_by_its_own_parser_alone():
    """`canasta play ...` builds only play's parser (the other commands' modules load pandas,
    pyarrow and scipy: a second of a cold start); it is the same parser as in the whole one."""
    import subprocess
    import sys

    from sim.cli.main import COMMANDS

    full = build_parser()
    sub = next(a for a in full._actions if a.choices and "rules" in a.choices)
    assert tuple(sub.choices) == COMMANDS  # every command, each the module sim.cli.<name>
    for name in COMMANDS:
        alone = build_parser(name)
        only = next(a for a in alone._actions if a.choices)
        assert list(only.choices) == [name]
        assert only.choices[name].format_help() == sub.choices[name].format_help()
    for other in (None, "--help", "nosuch"):  # anything else: the whole parser
        assert len(next(a for a in build_parser(other)._actions if a.choices).choices) == len(
            COMMANDS
        )
    code = (
        "import sys; from sim.cli.main import build_parser; build_parser('play'); "
        "print(sorted({'scipy.stats', 'pandas', 'pyarrow', 'reports'} & set(sys.modules)))"
    )
    assert (
        subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True
        ).stdout.strip()
        == "[]"
    )


def test_wide_tables_wrap_their_headers_at_words_and_fit_100_columns(capsys):
    from sim.cli.tables import ci_column

    df = pd.DataFrame(
        {
            "mean": [2248.4, 1828.7],
            "low": [2233.1, 1820.2],
            "high": [2264.2, 1837.4],
        }
    )
    cells = ci_column(df, "mean", "low", "high")
    # one format per column: the decimals the narrowest interval needs, in every cell
    assert cells == ["2,248.4 [2,233.1, 2,264.2]", "1,828.7 [1,820.2, 1,837.4]"]
    wide = pd.DataFrame(
        {f"a rather long header number {i} [95% CI]": ["+12.5 [10.1, 14.9]"] * 2 for i in range(4)}
    )
    print_table(wide, title="t")
    lines = capsys.readouterr().out.splitlines()
    assert max(map(len, lines)) <= 100
    words = set(" ".join(wide.columns).split())
    for line in lines[1:4]:  # the header lines: only whole words
        assert all(w in words for w in line.split()), line
    assert any("[95% CI]" in line for line in lines[1:4])


def test_compare_prints_per_hand_and_per_game_tables_and_the_factors_below(capsys):
    from synthetic_engine import fake_rules, fake_run_chunk

    from reports.compare import compare
    from sim.cli.compare import print_pairs

    with seat(fake_run_chunk):
        df = compare(
            ["expert", "greedy"],
            rules=fake_rules(4),
            hands=400,
            games=30,
            jobs=1,
            progress=False,
        )
    print_pairs(df)
    out = capsys.readouterr().out
    assert max(map(len, out.splitlines())) <= 100
    assert "plain estimate" not in out and "Whole games" in out
    assert "expert - greedy: duplicates x" in out  # the factor as a footnote, not a column
