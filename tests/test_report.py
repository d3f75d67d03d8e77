"""Report, odds and position tests on synthetic run folders (tests.synthetic_engine)."""

from __future__ import annotations

import re

import pytest
from synthetic_engine import make_run

from reports import odds
from reports.position import parse_position, rollout
from reports.report import SECTIONS, build_report
from reports.runs import open_run
from sim.cli.main import main
from sim.core.enums import Kind


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    return make_run(tmp_path_factory.mktemp("run") / "r", n_hands=2000, log_rate=0.2)


@pytest.fixture(scope="module")
def run_nodec(tmp_path_factory):
    return make_run(tmp_path_factory.mktemp("run") / "nd", n_hands=1500, decisions=False)


def _check_html(path, min_images):
    text = path.read_text()
    for s in SECTIONS:
        assert f"<h2>{s}</h2>".replace(",", ",") in text.replace("&#x27;", "'"), s
    assert len(re.findall(r"data:image/png;base64,", text)) >= min_images
    assert 'src="http' not in text and 'href="http' not in text and "<script" not in text
    return text


def test_report_full(run_dir, tmp_path):
    res = build_report(run_dir, tmp_path / "report.html")
    text = _check_html(res["html"], 5)
    md = (tmp_path / "report.md").read_text()
    assert all(f"## {s}" in md for s in SECTIONS)
    assert "take rate" in md and "--log-decisions" not in text
    # the "largest strategy difference" surprise carries its clustered interval
    line = next(x for x in md.splitlines() if "Largest strategy difference" in x)
    assert re.search(r"difference [+-][\d.,]+ \(95% CI [-\d.,]+ to [-\d.,]+\)", line), line
    assert re.search(r"standard deviations \(95% CI -?[\d.]+ to -?[\d.]+\)", line), line


def test_report_without_decisions(run_nodec, tmp_path):
    res = build_report(run_nodec, tmp_path / "r.html")
    text = _check_html(res["html"], 5)
    assert "run with --log-decisions" in text.lower()
    assert res["has_decisions"] is False


def test_cli_report_and_bad_folders(run_dir, tmp_path, capsys):
    assert main(["report", str(run_dir), "-o", str(tmp_path / "x.html")]) == 0
    assert (tmp_path / "x.html").exists() and (tmp_path / "x.md").exists()
    # a second report into the same folder does not overwrite the first one's Markdown
    assert main(["report", str(run_dir), "-o", str(tmp_path / "y.html")]) == 0
    assert (
        (tmp_path / "x.md").exists()
        and (tmp_path / "y.md").exists()
        and not (tmp_path / "report.md").exists()
    )
    capsys.readouterr()
    bad = tmp_path / "empty"
    bad.mkdir()
    assert main(["report", str(bad)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "manifest.json" in err
    assert main(["report", str(tmp_path / "missing")]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1


def test_cli_report_on_a_damaged_shard(run_nodec, tmp_path, capsys):
    """A shard cut short (a copy interrupted, a power cut) is named in one line, with the cure."""
    import shutil

    run = tmp_path / "copy"
    shutil.copytree(run_nodec, run)
    shard = sorted((run / "hands").glob("*.parquet"))[-1]
    shard.write_bytes(shard.read_bytes()[:50])
    capsys.readouterr()
    assert main(["report", str(run), "-o", str(tmp_path / "x.html")]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and shard.name in err and "--resume" in err


def test_odds_tables(run_dir, run_nodec, capsys):
    run = open_run(run_dir)
    tab = odds.going_out_table(run, ["canastas_us"], within=3)
    assert {"n", "p_out", "p_out_low", "p_out_high", "p_within_3"} <= set(tab.columns)
    assert (tab["p_out_low"] <= tab["p_out"]).all() and (
        tab["p_within_3"] <= tab["p_out"] + 1e-12
    ).all()
    for _, g in tab.groupby(["strategy", "team"]):  # split by strategy and team by default
        assert g["p_out"].is_monotonic_increasing  # synthetic: more canastas, more going out
    assert set(tab["strategy"]) == {"expert", "greedy"} and (tab["hands"] <= tab["n"]).all()
    with pytest.warns(odds.MixedStrategiesWarning, match="expert, greedy"):
        pooled = odds.going_out_table(run, ["canastas_us"], pooled=True)
    assert (
        "strategy" not in pooled and pooled["n"].sum() > tab.groupby("canastas_us")["n"].sum().min()
    )
    sh = odds.ending_shares(run)
    assert set(sh["strategy"]) == {"expert", "greedy"}
    assert (sh["share_went_out_low"] <= sh["share_went_out"]).all()
    assert main(["odds", str(run_dir), "--by", "turn", "strategy", "--within", "2"]) == 0
    out = capsys.readouterr().out
    flat = " ".join(out.split())  # titles wrap at words; headers stack ("turn" over "p90")
    assert "P(deciding team goes out)" in flat and "p90" in out
    assert max(map(len, out.splitlines())) <= 100
    assert main(["odds", str(run_dir), "--by", "nope"]) == 2
    assert main(["odds", str(run_nodec)]) == 0
    assert "--log-decisions" in capsys.readouterr().out


GOOD = """
players: 4
me: 0
hand: 7 7 K K JK 2 5 9 9 A
melds us: 7 7 7 2 | K K K K K JK 2
melds them: Q Q Q
red3 us: 1
pile: 12
pile_top: 9
hand_sizes: 10 8 11 9
stock: 43
scores: 1250 980
"""


def test_position_parses():
    p = parse_position(GOOD)
    assert p.canastas(0) == 1 and p.canastas(1) == 0 and p.red3 == [1, 0]
    assert p.hand.sum() == 10 and not p.frozen and p.pile_top == Kind.NINE
    assert rollout(p, None, "random", 10).rollouts == 10


@pytest.mark.parametrize(
    "change, message",
    [
        (("melds them: Q Q Q", "melds them: Q 2 2"), "fewer than 2 naturals"),
        (("melds them: Q Q Q", "melds them: Q Q Q Q 2 2 JK JK"), "wild cards"),
        (("melds them: Q Q Q", "melds them: 3 3 3"), "threes"),
        (("melds them: Q Q Q", "melds them: Q Q"), "at least 3"),
        (("hand: 7 7 K K JK 2 5 9 9 A", "hand: 7 7 K K JK JK JK JK 9 A"), "packs hold"),
        (("stock: 43", "stock: 40"), "do not add up"),
        (("pile_top: 9", "pile_top: 3h"), "red three"),
        (("hand_sizes: 10 8 11 9", "hand_sizes: 10 8 11"), "3 numbers for 4"),
        (("me: 0", "me: 7"), "out of range"),
        (("scores: 1250 980", "colour: red"), "unknown key"),
        (("hand: 7 7 K K JK 2 5 9 9 A", "hand: 7 7 K K JK 2 5 9 9 Z"), "unknown card"),
    ],
)
def test_position_refusals(change, message):
    with pytest.raises(ValueError, match=message) as exc:
        parse_position(GOOD.replace(*change))
    assert "\n" not in str(exc.value)
