"""An adversarial pass over the command line and the Python API: bad input by class.

    python benchmarks/adversarial.py [--only CLASS] [--show-fail] [--out FILE]

Every case runs in this process with the work stubbed out (the game core, rollouts, reviews
and duplicate deals raise ``WorkStarted`` when reached), so a case costs milliseconds:

- ``refuse`` cases must exit 2 with exactly one stderr line ``canasta CMD: error: ...`` (no
  traceback), write nothing in their scratch folder and never reach the work; a needle, when
  given, must be in that line, and no forbidden text (raw exception texts) may be;
- ``accept`` cases (valid input that was refused before) must reach the work or exit 0;
- ``api`` cases must raise a CanastaError (or a subclass) with a one-line message, before any
  work.

Prints one line per failing case (with --show-fail) and a count per class; writes the counts
to benchmarks/results/adversarial.json.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import math
import os
import shutil
import sys
import tempfile
import traceback
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

POS = ROOT / "docs" / "position-example.txt"
POS_TEXT = POS.read_text()
BIG64 = str(2**64)
RAW_TEXTS = (
    "invalid literal",
    "index_columns",
    "Expecting",
    "object of type",
    "NoneType",
    "has no attribute",
    "unhashable",
    "got multiple values",
    "not understood",
    "Errno",
    "KeyError",
    "unexpected keyword",
)


class WorkStarted(BaseException):
    """Raised by the stubbed work functions: the command accepted its input."""


@dataclass
class Case:
    cls: str  # the class: "1 traceback", "3 silent", ...
    name: str
    argv: list[str] | None = None  # a command line
    call: Callable | None = None  # or a Python call (given the scratch folder)
    expect: str = "refuse"  # refuse | accept | api
    needle: str = ""  # text the error line must hold
    forbid: tuple[str, ...] = ()  # texts it must not hold
    files: dict = field(default_factory=dict)  # extra scratch files: name -> text or bytes


# ----------------------------------------------------------------------------- scratch files


def _pos(**changes: str) -> str:
    """The example position with some keys replaced (value None: removed) or added."""
    lines = []
    seen = set()
    for ln in POS_TEXT.splitlines():
        key = ln.split("#", 1)[0].split(":", 1)[0].strip().lower()
        k = key.replace(" ", "_")
        if k in changes:
            seen.add(k)
            if changes[k] is not None:
                lines.append(f"{key}: {changes[k]}")
            continue
        lines.append(ln)
    for k, v in changes.items():
        if k not in seen and v is not None:
            spaced = k.startswith(("melds_", "known_", "last_turn_", "red3_"))
            lines.append(f"{k.replace('_', ' ', 1) if spaced else k}: {v}")
    return "\n".join(lines) + "\n"


RECORD = """rules: classic
players: 4
key: seed=7 game=0 hand=0
actions:
draw
"""


def _scratch(d: Path) -> None:
    (d / "afile").write_text("x")
    (d / "adir").mkdir()
    (d / "adir.html").mkdir()
    (d / "bin.txt").write_bytes(bytes(range(256)) * 4)
    (d / "pos.txt").write_text(POS_TEXT)
    (d / "record.txt").write_text(RECORD)
    (d / "empty.txt").write_text("")


def _equity_file(path: Path, **meta) -> None:
    import pandas as pd

    from reports.equity import _finish, save_equity

    rows = [(t, a, b, 100, 50.0) for t in (-1, 0, 1) for a in (0, 2500) for b in (0, 2500)]
    df = pd.DataFrame(rows, columns=["team", "us", "them", "games", "wins"])
    m = {
        "rules": "classic-4p",
        "game_target": 5000,
        "n_teams": 2,
        "strategies": ["expert"] * 4,
        "step": 2500,
        "low": 0,
        "games_per_cell": 100,
        "seed": 0,
    }
    m.update(meta)
    save_equity(_finish(df, m), path)


def _damaged_equity(d: Path) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    _equity_file(d / "eq.parquet")
    _equity_file(d / "eq10000.parquet", game_target=10000, rules="classic-4p")
    _equity_file(d / "eqsamba.parquet", rules="samba-4p", game_target=5000)
    _equity_file(d / "eq3teams.parquet", rules="classic-3p", n_teams=3)
    raw = (d / "eq.parquet").read_bytes()
    (d / "eq_trunc.parquet").write_bytes(raw[: len(raw) // 2])
    t = pq.read_table(d / "eq.parquet")
    meta = dict(t.schema.metadata)
    bad = dict(meta)
    bad[b"pandas"] = meta[b"pandas"].replace(b'"int64"', b'"ij464"', 1)
    pq.write_table(t.replace_schema_metadata(bad), d / "eq_dtype.parquet")
    bad = dict(meta)
    bad[b"pandas"] = b'{"index_columns": '
    pq.write_table(t.replace_schema_metadata(bad), d / "eq_pandasjson.parquet")
    bad = dict(meta)
    bad[b"canasta_equity"] = b'{"game_target" 5000}'
    pq.write_table(t.replace_schema_metadata(bad), d / "eq_json.parquet")
    bad = dict(meta)
    bad[b"canasta_equity"] = b'{"game_target": "lots"}'
    pq.write_table(t.replace_schema_metadata(bad), d / "eq_target.parquet")
    bad = dict(meta)
    bad[b"canasta_equity"] = b"[1, 2]"
    pq.write_table(t.replace_schema_metadata(bad), d / "eq_list.parquet")
    cols = {n: t.column(n) for n in t.column_names}
    cols["p_win"] = pa.array(["x"] * t.num_rows)
    pq.write_table(pa.table(cols).replace_schema_metadata(meta), d / "eq_type.parquet")
    cols = {n: t.column(n) for n in t.column_names}
    cols["p_win"] = pa.array([float("nan")] * t.num_rows)
    pq.write_table(pa.table(cols).replace_schema_metadata(meta), d / "eq_nan.parquet")
    cols = {n: t.column(n) for n in t.column_names}
    cols["p_win"] = pa.array([7.0] * t.num_rows)
    pq.write_table(pa.table(cols).replace_schema_metadata(meta), d / "eq_range.parquet")
    cols = {n: t.column(n) for n in t.column_names}
    cols["us"] = pa.array([0, 0, 2500, 2500] * 3, pa.int64())
    cols["them"] = pa.array([0, 0, 0, 0] * 3, pa.int64())
    pq.write_table(pa.table(cols).replace_schema_metadata(meta), d / "eq_dupe.parquet")


# ----------------------------------------------------------------------------- the cases


TUNE = ["tune", "expert", "--budget", "100000", "--jobs", "1"]
EQ = ["equity", "-o", "{d}/e.parquet", "--step", "2500", "--games", "2"]
ODDS = ["odds", "--position", "{d}/pos.txt", "--rollouts", "10"]
AN = ["analyze", "{d}/pos.txt", "--rollouts", "10"]
RV = ["review", "--rollouts", "4"]
RVF = ["review", "{d}/record.txt", "--rollouts", "4"]
SIM = ["simulate", "--hands", "10", "--jobs", "1", "--out", "{d}/run", "--no-progress"]
CMP = ["compare", "expert", "greedy", "--hands", "10", "--jobs", "1", "--no-progress"]
SWP = ["sweep", "tunable", "--knob", "open_threshold=50,70", "--vs", "expert", "--hands", "10"]
SWP += ["--jobs", "1", "--no-progress"]
PLAY = ["play"]

# every command: a valid base command line (string options are tried with '' on it)
BASES = {
    "rules": ["rules", "classic"],
    "strategies": ["strategies"],
    "play": PLAY,
    "simulate": SIM,
    "compare": CMP,
    "sweep": SWP,
    "tune": TUNE,
    "odds": ODDS,
    "analyze": AN,
    "review": RV,
    "equity": EQ,
    "report": ["report", "{d}/run", "-o", "{d}/r.html"],
    "warmup": ["warmup", "--only", "play"],
    "mistakes": ["mistakes", "expert", "--hands", "2", "--rollouts", "2"],
    "table": ["table", "--db", "{d}/table.sqlite3", "--no-warm", "--port", "0"],
}

# where each command takes strategy specs: (base argv, option or None for a positional slot)
MIS = ["mistakes", "--hands", "2", "--rollouts", "2"]
SPEC_SLOTS = [
    (MIS, "positional"),
    (["mistakes", "expert", "--hands", "2", "--rollouts", "2", "--vs"], None),
    (["mistakes", "expert", "--hands", "2", "--rollouts", "2", "--continue-with"], None),
    (["mistakes", "expert", "--hands", "2", "--rollouts", "2", "--infer"], None),
    (["play", "--strategies"], None),
    (["simulate", "--hands", "10", "--jobs", "1", "--out", "{d}/run", "--strategies"], None),
    (["compare", "greedy", "--hands", "10", "--jobs", "1"], "positional"),
    (["sweep", "tunable", "--knob", "open_threshold=50,70", "--hands", "10", "--vs"], None),
    (["tune", "--budget", "100000", "--jobs", "1"], "positional"),
    (["tune", "expert", "--budget", "100000", "--jobs", "1", "--vs"], None),
    (["odds", "--position", "{d}/pos.txt", "--rollouts", "10", "--strategies"], None),
    (["analyze", "{d}/pos.txt", "--rollouts", "10", "--strategies"], None),
    (["analyze", "{d}/pos.txt", "--rollouts", "10", "--infer"], None),
    (["review", "--rollouts", "4", "--strategies"], None),
    (["review", "--rollouts", "4", "--continue-with"], None),
    (["review", "--rollouts", "4", "--infer"], None),
    (["equity", "-o", "{d}/e.parquet", "--step", "2500", "--games", "2", "--strategies"], None),
]

BAD_SPECS = [
    ("trailing ':'", "expert:"),
    ("trailing ':' search", "pimc:"),
    ("trailing ','", "expert:open_threshold=50,"),
    ("empty knob item", "expert:open_threshold=50,,freeze_when=1"),
    ("lone ':'", ":"),
    ("double ':'", "expert::open_threshold=1"),
    ("switch 1.5", "expert:freeze_when=1.5"),
    ("switch 3", "expert:freeze_when=3"),
    ("negative count", "expert:hold_melds=-3"),
    ("negative threshold", "expert:open_threshold=-5"),
    ("huge threshold", "expert:open_threshold=1e300"),
    ("bool 2", "expert:concealed=2"),
    ("pimc guard nan", "pimc:guard=nan"),
    ("pimc guard inf", "pimc:guard=inf"),
    ("pimc guard -1", "pimc:guard=-1"),
    ("ismcts c nan", "ismcts:c=nan"),
    ("ismcts c inf", "ismcts:c=inf"),
    ("pimc worlds 1e12", "pimc:worlds=1e12"),
    ("pimc worlds 0", "pimc:worlds=0"),
    ("pimc rollouts 1e9", "pimc:rollouts=1e9"),
    ("pimc tries 1e12", "pimc:tries=1e12"),
    ("pimc tries -1", "pimc:tries=-1"),
    ("ismcts iters 1e9", "ismcts:iters=1e9"),
    ("pimc worlds 1.5", "pimc:worlds=1.5"),
    ("pimc knob twice", "pimc:worlds=4,worlds=8"),
    ("pimc base pimc", "pimc:base=pimc"),
    ("pimc search ''", "pimc:search="),
    ("pimc search trailing +", "pimc:search=take+"),
]

GOOD_MULTI = "expert:open_threshold=50,freeze_when=2"

SET_SLOTS = [
    ["mistakes", "expert", "--hands", "2", "--rollouts", "2", "--players", "4"],
    ["rules", "classic", "--players", "4"],
    ["play", "--players", "4"],
    ["simulate", "--hands", "10", "--jobs", "1", "--out", "{d}/run", "--players", "4"],
    ["tune", "expert", "--budget", "100000", "--jobs", "1", "--players", "4"],
    ["odds", "--position", "{d}/pos.txt", "--rollouts", "10", "--players", "4"],
    ["analyze", "{d}/pos.txt", "--rollouts", "10"],
    ["review", "--rollouts", "4", "--players", "4"],
    ["equity", "-o", "{d}/e.parquet", "--step", "2500", "--games", "2", "--players", "4"],
]


def cli_cases() -> list[Case]:
    c: list[Case] = []
    add = c.append

    # ---- 1. tracebacks
    for key, value in (
        ("turn", str(2**70)),
        ("turn", str(2**31)),
        ("scores", f"{2**70} 0"),
        ("scores", f"{2**40} 0"),
        ("scores", "200000000 0"),
        ("scores", "-200000000 0"),
        ("stock", str(2**64)),
        ("pile", str(2**64)),
        ("hand_sizes", f"10 {2**64} 11 9"),
        ("red3_us", str(2**63)),
        ("me", str(2**64)),
        ("decks", str(2**64)),
    ):
        text = _pos(**{key: value})
        for base in (AN, ODDS):
            add(
                Case(
                    "1 traceback",
                    f"{base[0]} pos {key}={value[:12]}",
                    base,
                    files={"pos.txt": text},
                )
            )
    meld = _pos(phase="meld", pending=str(2**70))
    for base in (AN, ODDS):
        add(Case("1 traceback", f"{base[0]} pending 2**70", base, files={"pos.txt": meld}))
    for base in SET_SLOTS:
        for s in ("players=6", "team_layout=3x2", "players=4", "name=german"):
            add(Case("1 traceback", f"{base[0]} --set {s}", [*base, "--set", s]))
    add(
        Case(
            "1 traceback",
            "record set players",
            RVF,
            files={"record.txt": "set: players=6\n" + RECORD},
        )
    )
    add(
        Case(
            "1 traceback",
            "record set team_layout",
            RVF,
            files={"record.txt": "set: team_layout=3x2\n" + RECORD},
        )
    )
    for name in (
        "eq_trunc",
        "eq_pandasjson",
        "eq_json",
        "eq_target",
        "eq_list",
        "eq_type",
        "eq_nan",
        "eq_range",
        "eq_dupe",
    ):
        for base in (AN, RV):
            add(
                Case(
                    "1 traceback",
                    f"{base[0]} --equity {name}",
                    [*base, "--equity", "{d}/" + name + ".parquet"],
                    forbid=RAW_TEXTS,
                )
            )

    # ---- 3. nonsense accepted silently: empty strings on every string option
    from sim.cli.main import build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for cmd, p in sub.choices.items():
        base = BASES[cmd]
        for act in p._actions:
            if isinstance(act, argparse._HelpAction) or act.dest == "help":
                continue
            if act.nargs == 0 or act.type not in (None, str) or act.choices:
                continue
            if act.option_strings:
                opt = act.option_strings[-1]
                argv = [*_without(base, opt), opt, ""]
                add(Case("3 silent", f"{cmd} {opt} ''", argv, needle=""))
                if act.nargs is None:
                    add(Case("3 silent", f"{cmd} {opt} ' '", [*_without(base, opt), opt, "  "]))
            else:
                argv = _positional_empty(cmd, base, act.dest)
                if argv:
                    add(Case("3 silent", f"{cmd} {act.dest} ''", argv))
    add(Case("3 silent", "rules ''", ["rules", ""]))
    add(Case("3 silent", "review ''", ["review", ""]))
    add(Case("3 silent", "report ''", ["report", "", "-o", "{d}/r.html"]))
    add(Case("3 silent", "odds ''", ["odds", ""]))
    # player counts
    for cmd in (CMP, SWP):
        for n in ("0", "-1", "7", "3"):
            add(Case("3 silent", f"{cmd[0]} --players {n}", [*cmd, "--players", n]))
        # five players are two teams (four play each hand): a valid comparison
        add(Case("3 silent", f"{cmd[0]} --players 5", [*cmd, "--players", "5"], expect="accept"))
    for base, opt in (
        (["rules", "classic"], "--players"),
        (PLAY, "--players"),
        (ODDS, "--players"),
    ):
        for n in ("0", "-1", "7", str(2**70)):
            add(Case("3 silent", f"{base[0]} {opt} {n}", [*base, opt, n]))
    # --players N beside --set players=M: covered above; contradictory options
    add(Case("3 silent", "odds RUN --position", ["odds", "{d}/run", "--position", "{d}/pos.txt"]))
    add(Case("3 silent", "review file --strategies", [*RVF, "--strategies", "greedy"]))
    add(Case("3 silent", "review file --seed", [*RVF, "--seed", "3"]))
    add(Case("3 silent", "review file --game", [*RVF, "--game", "2"]))
    add(Case("3 silent", "review file --hand", [*RVF, "--hand", "1"]))
    add(Case("3 silent", "analyze --rules beside the file's", [*AN, "--rules", "german"]))
    add(Case("3 silent", "analyze --team-layout 4p", [*AN, "--team-layout", "3x2"]))
    add(Case("3 silent", "odds --team-layout 4p", [*ODDS, "--team-layout", "3x2"]))
    add(Case("3 silent", "rules --team-layout 4p", ["rules", "classic", "--team-layout", "3x2"]))
    add(Case("3 silent", "play --team-layout 4p", [*PLAY, "--team-layout", "3x2"]))
    add(Case("3 silent", "play --seat w/o", [*PLAY, "--seat", "1"]))
    add(Case("3 silent", "odds --within w/o decisions", ["odds", "{d}/run", "--rollouts", "5"]))
    add(Case("3 silent", "odds RUN --strategies", ["odds", "{d}/run", "--strategies", "greedy"]))
    add(Case("3 silent", "odds RUN --seed", ["odds", "{d}/run", "--seed", "4"]))
    add(Case("3 silent", "compare --max-hands w/o until-ci", [*CMP, "--max-hands", "50"]))
    add(Case("3 silent", "compare max<hands", [*CMP, "--until-ci", "5", "--max-hands", "4"]))
    add(Case("3 silent", "sweep --max-hands w/o until-ci", [*SWP, "--max-hands", "50"]))
    add(Case("3 silent", "simulate --resume w/o folder", [*SIM, "--resume"]))
    add(
        Case(
            "3 silent",
            "simulate --log-detail 0 rate",
            [*SIM, "--log-detail", "basic", "--log-decisions", "0"],
        )
    )
    add(Case("3 silent", "equity --low >= target", [*EQ, "--low", "5000"]))
    add(Case("3 silent", "tune --vs itself", [*TUNE, "--vs", "expert"], expect="accept"))
    add(Case("3 silent", "tune --vs twice", [*TUNE, "--vs", "greedy", "greedy"]))
    add(
        Case(
            "3 silent",
            "tune --knob unknown",
            [*TUNE, "--knob", "nope=0:1", "--knob", "freeze_when=0:2"],
        )
    )
    add(
        Case(
            "3 silent",
            "tune --knob lo=hi",
            [*TUNE, "--knob", "open_threshold=5:5", "--knob", "freeze_when=0:2"],
        )
    )
    add(
        Case(
            "3 silent",
            "tune --knob outside range",
            [*TUNE, "--knob", "freeze_when=0:5", "--knob", "open_threshold=0:50"],
        )
    )
    add(
        Case(
            "3 silent",
            "tune --knob negative",
            [*TUNE, "--knob", "hold_melds=-3:1", "--knob", "open_threshold=0:50"],
        )
    )
    add(
        Case(
            "3 silent",
            "tune --knob trailing",
            [*TUNE, "--knob", "open_threshold=0:50:", "--knob", "freeze_when=0:2"],
        )
    )
    add(
        Case(
            "3 silent",
            "sweep --knob out of range",
            [
                "sweep",
                "tunable",
                "--knob",
                "freeze_when=0,5",
                "--vs",
                "expert",
                "--hands",
                "10",
                "--jobs",
                "1",
            ],
        )
    )
    add(
        Case(
            "3 silent",
            "sweep --knob trailing ,",
            [
                "sweep",
                "tunable",
                "--knob",
                "open_threshold=50,",
                "--vs",
                "expert",
                "--hands",
                "10",
                "--jobs",
                "1",
            ],
        )
    )
    add(
        Case(
            "3 silent",
            "sweep --knob empty value",
            [
                "sweep",
                "tunable",
                "--knob",
                "open_threshold=",
                "--vs",
                "expert",
                "--hands",
                "10",
                "--jobs",
                "1",
            ],
        )
    )
    add(
        Case(
            "3 silent",
            "compare same spec",
            ["compare", "expert", "expert:", "--hands", "10", "--jobs", "1"],
        )
    )
    # specs in every slot
    for base, where in SPEC_SLOTS:
        for label, spec in BAD_SPECS:
            argv = [base[0], spec, *base[1:]] if where == "positional" else [*base, spec]
            add(
                Case(
                    "3 silent",
                    f"{base[0]} {base[-1] if where is None else 'STRATEGY'} {label}",
                    argv,
                )
            )
    # equity tables of another table
    for name, what in (("eq10000", "target"), ("eqsamba", "rules"), ("eq3teams", "teams")):
        for base in (AN, RV):
            add(
                Case(
                    "3 silent",
                    f"{base[0]} --equity {what}",
                    [*base, "--equity", "{d}/" + name + ".parquet"],
                )
            )
    # hand records: a field given twice, other duplicates
    for fieldline in (
        "rules: german",
        "players: 6",
        "key: seed=1 game=0 hand=0",
        "dealer: 1",
        "scores: 0 0",
        "strategies: greedy",
    ):
        first = {
            "rules": "rules: classic",
            "players": "players: 4",
            "key": "key: seed=7 game=0 hand=0",
            "dealer": "dealer: 0",
            "scores": "scores: 0 0",
            "strategies": "strategies: expert",
        }
        name = fieldline.split(":")[0]
        text = (
            RECORD
            if name in ("rules", "players", "key")
            else RECORD.replace("actions:", first[name] + "\nactions:")
        )
        add(
            Case(
                "3 silent",
                f"record {name} twice",
                RVF,
                files={"record.txt": text.replace("actions:", fieldline + "\nactions:")},
            )
        )
    # impossible positions
    for label, text in (
        ("canastas_this_turn 20", _pos(phase="meld", canastas_this_turn="20")),
        ("canastas_this_turn -1", _pos(phase="meld", canastas_this_turn="-1")),
        (
            "opened no melds",
            _pos(
                melds_us=None, melds_them=None, opened="us them", stock="54", hand_sizes="10 8 11 9"
            ),
        ),
        (
            "last_turn took 500 K",
            _pos(last_turn_3="take pair | took " + " ".join(["K"] * 500) + " | discard 9"),
        ),
        (
            "last_turn melded 9 sevens",
            _pos(last_turn_3="draw | melded " + " ".join(["7"] * 9) + " | discard 9"),
        ),
        ("pending 2**20", _pos(phase="meld", pending=str(2**20))),
        ("pending negative", _pos(phase="meld", pending="-5")),
        ("turn negative", _pos(turn="-1")),
        ("to_move out", _pos(to_move="9")),
        ("melded seat 9", _pos(melded="0 9")),
        ("melded twice", _pos(melded="0 0")),
        ("key twice", POS_TEXT + "stock: 43\n"),
        ("bom", "\ufeff" + POS_TEXT),
    ):
        expect = "accept" if label == "bom" else "refuse"
        add(
            Case(
                "3 silent" if expect == "refuse" else "4 message",
                f"analyze pos {label}",
                AN,
                files={"pos.txt": text},
                expect=expect,
            )
        )
    # analyze --until-ci '=' on eliminated actions is checked by tests (needs real rollouts)

    # a damaged pandas schema (dtype 'ij464'): the table is read by its arrow types
    for base in (AN, RV):
        argv = [*base, "--equity", "{d}/eq_dtype.parquet"]
        add(Case("1 traceback", f"{base[0]} --equity eq_dtype", argv, expect="accept"))

    # ---- 4. messages
    add(
        Case(
            "4 message",
            "analyze multi-knob spec",
            [*AN, "--strategies", GOOD_MULTI],
            expect="accept",
        )
    )
    add(
        Case(
            "4 message",
            "review --continue-with multi-knob",
            [*RV, "--continue-with", GOOD_MULTI],
            expect="accept",
        )
    )
    add(Case("4 message", "odds multi-knob", [*ODDS, "--strategies", GOOD_MULTI], expect="accept"))
    add(
        Case(
            "4 message", "review --infer multi-knob", [*RV, "--infer", GOOD_MULTI], expect="accept"
        )
    )
    add(
        Case(
            "4 message",
            "review --continue-with pimc",
            [*RV, "--continue-with", "pimc"],
            needle="--continue-with",
            forbid=("--strategies", "unknown strategy"),
        )
    )
    for argv in (
        ["tune", "pimc", "--budget", "100000", "--jobs", "1"],
        [*ODDS, "--strategies", "pimc"],
        [*AN, "--strategies", "pimc"],
        [*AN, "--infer", "pimc"],
        [*RV, "--infer", "pimc"],
        ["sweep", "pimc", "--knob", "worlds=4,8", "--vs", "expert", "--hands", "10", "--jobs", "1"],
    ):
        add(
            Case(
                "4 message",
                " ".join(argv[:1] + argv[-2:]) + " search player",
                argv,
                forbid=("unknown strategy",),
            )
        )
    add(
        Case(
            "4 message", "review --strategies pimc", [*RV, "--strategies", "pimc"], expect="accept"
        )
    )
    add(Case("4 message", "tune --vs pimc", [*TUNE, "--vs", "pimc"], expect="accept"))
    add(
        Case(
            "4 message",
            "unknown strategy lists search players",
            [*TUNE, "--vs", "nosuch"],
            needle="pimc",
        )
    )
    add(
        Case(
            "4 message",
            "odds unknown lists its strategies",
            [*ODDS, "--strategies", "nosuch"],
            needle="choose from random",
        )
    )
    for cmd, base in BASES.items():
        add(
            Case(
                "4 message",
                f"{cmd} unrecognised",
                [*base, "--frobnicate"],
                needle=f"canasta {cmd}: error:",
            )
        )
        add(Case("4 message", f"{cmd} extra positional", [*base, "extra1", "extra2"]))
    add(
        Case(
            "4 message",
            "analyze dir",
            ["analyze", "{d}/adir"],
            forbid=("not found",),
            needle="folder",
        )
    )
    add(
        Case(
            "4 message",
            "odds --position dir",
            ["odds", "--position", "{d}/adir"],
            forbid=("not found",),
            needle="folder",
        )
    )
    add(
        Case(
            "4 message",
            "review dir",
            ["review", "{d}/adir"],
            forbid=("no such file",),
            needle="folder",
        )
    )
    add(
        Case(
            "4 message",
            "play --deck dir",
            ["play", "--deck", "{d}/adir"],
            forbid=("not found",),
            needle="folder",
        )
    )
    add(Case("4 message", "analyze empty file", ["analyze", "{d}/empty.txt"]))
    add(Case("4 message", "review empty file", ["review", "{d}/empty.txt"]))
    add(Case("4 message", "play --deck empty", ["play", "--deck", "{d}/empty.txt"]))
    add(
        Case(
            "4 message",
            "record bom",
            RVF,
            files={"record.txt": "\ufeff" + RECORD.replace("draw\n", "")},
            forbid=("unknown field",),
        )
    )
    add(
        Case(
            "4 message",
            "deck bom",
            ["play", "--deck", "{d}/deck.txt"],
            files={"deck.txt": "\ufeffAS"},
            forbid=("\ufeff",),
        )
    )
    add(Case("4 message", "review -o dev/full checked first", [*RV, "-o", "/dev/full"]))
    add(Case("4 message", "review -o read-only folder", [*RV, "-o", "/proc/r.html"]))
    add(Case("4 message", "tune --out read-only", [*TUNE, "--out", "/proc/t.json"]))
    add(Case("4 message", "tune --out folder", [*TUNE, "--out", "{d}/adir"]))
    add(Case("4 message", "tune --out below file", [*TUNE, "--out", "{d}/afile/t.json"]))
    add(Case("4 message", "compare --out /proc", [*CMP, "--out", "/proc/x.csv"]))
    add(Case("4 message", "equity -o /proc", ["equity", "-o", "/proc/e.parquet"]))
    add(Case("4 message", "simulate --out /proc", [*_without(SIM, "--out"), "--out", "/proc/run"]))
    add(Case("4 message", "report -o /proc", ["report", "{d}/run", "-o", "/proc/r.html"]))
    # hand records: raw texts
    for label, text in (
        ("record players x", RECORD.replace("players: 4", "players: four")),
        ("record players 9", RECORD.replace("players: 4", "players: 9")),
        ("record seed 2**70", RECORD.replace("seed=7", f"seed={2**70}")),
        ("record game 2**70", RECORD.replace("game=0", f"game={2**70}")),
        ("record hand 2**40", RECORD.replace("hand=0", f"hand={2**40}")),
        ("record dealer 2**70", RECORD.replace("actions:", f"dealer: {2**70}\nactions:")),
        ("record dealer -1", RECORD.replace("actions:", "dealer: -1\nactions:")),
        ("record scores 2**70", RECORD.replace("actions:", f"scores: {2**70} 0\nactions:")),
        ("record scores 2e8", RECORD.replace("actions:", "scores: 200000000 0\nactions:")),
        ("record rules ''", RECORD.replace("rules: classic", "rules:")),
        ("record rules nosuch", RECORD.replace("rules: classic", "rules: nosuch")),
        ("record set bad", "set: go_out_bonus\n" + RECORD),
        ("record set twice", "set: go_out_bonus=1\nset: go_out_bonus=2\n" + RECORD),
        ("record strategies trailing", RECORD.replace("actions:", "strategies: expert,\nactions:")),
        ("record strategies nosuch", RECORD.replace("actions:", "strategies: nosuch\nactions:")),
        (
            "record strategies 3 of 4",
            RECORD.replace("actions:", "strategies: expert,greedy,random\nactions:"),
        ),
        ("record empty action", RECORD.replace("draw", "draw;;discard 5")),
        ("record deck and key", RECORD.replace("actions:", "deck: AS\nactions:")),
        ("record nothing", "# nothing\n"),
        ("record no actions", RECORD.replace("actions:\ndraw\n", "")),
        ("record team_layout 4p", RECORD.replace("actions:", "team_layout: 3x2\nactions:")),
        ("record 2MB", RECORD.replace("draw", "; ".join(["draw"] * 400_000))),
    ):
        add(Case("4 message", label, RVF, files={"record.txt": text}, forbid=RAW_TEXTS))
    # position files: raw texts
    for label, text in (
        ("pos players x", _pos(players="four")),
        ("pos hand_sizes short", _pos(hand_sizes="10 8")),
        ("pos scores x", _pos(scores="1 x")),
        ("pos set bad", _pos(set="go_out_bonus")),
        ("pos set players", _pos(set="players=6")),
        ("pos rules nosuch", _pos(rules="nosuch")),
        ("pos no players", _pos(players=None)),
        ("pos 2MB", POS_TEXT + ("# " + "x" * 1000 + "\n") * 2100),
        ("pos meld of 3s", _pos(melds_them="3 3 3")),
        ("pos frozen maybe", _pos(frozen="maybe")),
        ("pos phase x", _pos(phase="x")),
    ):
        add(Case("4 message", label, AN, files={"pos.txt": text}, forbid=RAW_TEXTS))

    # ---- 5. nothing written when a command fails before work starts
    add(
        Case(
            "5 output",
            "simulate openspiel bot at start",
            [*SIM, "--strategies", "openspiel-ismcts,expert"],
        )
    )
    add(
        Case(
            "5 output",
            "simulate ismcts iters 1e9",
            [*SIM, "--strategies", "ismcts:iters=1e9,expert"],
        )
    )
    add(Case("5 output", "simulate bad rules for engine", [*SIM, "--set", "hand_size=30"]))
    # ---- 8. unbounded
    add(Case("8 unbounded", "record 60MB actions", RVF, files={"record.txt": "BIG"}))
    add(Case("8 unbounded", "pos 60MB", AN, files={"pos.txt": "BIGPOS"}))
    add(
        Case(
            "8 unbounded",
            "deck 60MB",
            ["play", "--deck", "{d}/deck.txt"],
            files={"deck.txt": "BIGDECK"},
        )
    )
    return c


def _without(argv: list[str], opt: str) -> list[str]:
    """argv without `opt` and its value."""
    out, skip = [], False
    for a in argv:
        if skip:
            skip = False
            continue
        if a == opt:
            skip = True
            continue
        out.append(a)
    return out


def _positional_empty(cmd: str, base: list[str], dest: str) -> list[str] | None:
    table = {
        ("rules", "preset"): ["rules", ""],
        ("strategies", "names"): ["strategies", ""],
        ("compare", "strategies"): ["compare", "expert", "", "--hands", "10", "--jobs", "1"],
        ("sweep", "strategy"): ["sweep", "", *SWP[2:]],
        ("tune", "strategy"): ["tune", "", *TUNE[2:]],
        ("odds", "run_dir"): ["odds", ""],
        ("analyze", "position"): ["analyze", ""],
        ("review", "history"): ["review", ""],
        ("report", "run_dir"): ["report", "", "-o", "{d}/r.html"],
    }
    return table.get((cmd, dest))


def api_cases() -> list[Case]:
    from reports import analyze as an
    from reports import equity as eq
    from reports import review as rv
    from reports import tune as tu
    from reports.position import load_position, parse_position
    from sim.core.rules import RuleSet
    from sim.play.game import GameState

    classic = RuleSet.preset("classic", 4)
    four = ["expert"] * 4
    pos = load_position(POS)
    c: list[Case] = []

    def api(name, fn):
        c.append(Case("2 api", name, call=fn, expect="api"))

    api("from_position(None)", lambda d: GameState.from_position(None))
    api("from_position(path)", lambda d: GameState.from_position(str(POS)))
    api("from_position(seed=-1)", lambda d: GameState.from_position(pos, seed=-1))
    api("from_position(seed=nan)", lambda d: GameState.from_position(pos, seed=math.nan))
    api("from_position(seed=2**70)", lambda d: GameState.from_position(pos, seed=2**70))
    api("from_position(rules='classic')", lambda d: GameState.from_position(pos, rules="classic"))
    api("from_position(rules=5)", lambda d: GameState.from_position(pos, rules=5))
    api(
        "from_position impossible",
        lambda d: GameState.from_position(parse_position(_pos(stock="44"))),
    )
    api(
        "from_position turn 2**70",
        lambda d: GameState.from_position(parse_position(_pos(turn=str(2**70)))),
    )
    api("parse_position(None)", lambda d: parse_position(None))
    api("parse_position(5)", lambda d: parse_position(5))
    api("parse_position(b'')", lambda d: parse_position(b"players: 4"))
    api("load_position(None)", lambda d: load_position(None))
    api("load_position(dir)", lambda d: load_position(d / "adir"))
    api("analyze(strategies=None)", lambda d: an.analyze(pos, strategies=None))
    api("analyze(strategies=5)", lambda d: an.analyze(pos, strategies=5))
    api("analyze(strategies=[])", lambda d: an.analyze(pos, strategies=[]))
    api("analyze(rules='classic')", lambda d: an.analyze(pos, rules="classic"))
    api("analyze(infer=5)", lambda d: an.analyze(pos, infer=5))
    api("analyze(equity=5)", lambda d: an.analyze(pos, equity=5))
    api("analyze(None)", lambda d: an.analyze(None))
    api("decision_from_position(None)", lambda d: an.decision_from_position(None))
    api("paired_rollouts(None)", lambda d: an.paired_rollouts(None))
    api("equity_table('classic')", lambda d: eq.equity_table("classic", four, step=2500, games=2))
    api("equity_table(strategies=None)", lambda d: eq.equity_table(classic, None, step=2500))
    api(
        "equity_table(strategies='expert')", lambda d: eq.equity_table(classic, "expert", step=2500)
    )
    api("equity_table(3 strategies)", lambda d: eq.equity_table(classic, ["expert"] * 3, step=2500))
    api("equity_table(step=nan)", lambda d: eq.equity_table(classic, four, step=math.nan))
    api("equity_table(low=None)", lambda d: eq.equity_table(classic, four, low=None))
    for name in (
        "eq_trunc",
        "eq_pandasjson",
        "eq_json",
        "eq_target",
        "eq_list",
        "eq_type",
        "eq_nan",
        "eq_range",
        "eq_dupe",
    ):
        api(f"load_equity({name})", lambda d, n=name: eq.load_equity(d / f"{n}.parquet"))
    api("load_equity(None)", lambda d: eq.load_equity(None))
    api("load_equity(dir)", lambda d: eq.load_equity(d / "adir"))
    api("load_equity(team=9)", lambda d: eq.load_equity(d / "eq.parquet", team=9))
    api("load_equity(team='x')", lambda d: eq.load_equity(d / "eq.parquet", team="x"))
    api("Equity(None)", lambda d: eq.Equity(None))
    api(
        "Equity(frame w/o columns)", lambda d: eq.Equity(__import__("pandas").DataFrame({"a": [1]}))
    )
    api("hand_by_key(None rules)", lambda d: rv.hand_by_key(None, four, 0))
    api("hand_by_key('classic')", lambda d: rv.hand_by_key("classic", four, 0))
    api("hand_by_key(strategies=None)", lambda d: rv.hand_by_key(classic, None, 0))
    api("hand_by_key(strategies='expert')", lambda d: rv.hand_by_key(classic, "expert", 0))
    api("hand_by_key(3 seats)", lambda d: rv.hand_by_key(classic, ["expert"] * 3, 0))
    api("hand_by_key(nosuch)", lambda d: rv.hand_by_key(classic, ["nosuch"] * 4, 0))
    api("hand_by_key(seed=nan)", lambda d: rv.hand_by_key(classic, four, math.nan))
    api("seats_arg(None)", lambda d: rv.seats_arg(None, classic))
    api("seats_arg('')", lambda d: rv.seats_arg("", classic))
    api(
        "tune lo=hi",
        lambda d: tu.tune(
            "expert",
            classic,
            ["greedy"],
            10**5,
            space=[tu.KnobRange("open_threshold", 5, 5), tu.KnobRange("freeze_when", 0, 2)],
        ),
    )
    api(
        "tune unknown knob",
        lambda d: tu.tune(
            "expert",
            classic,
            ["greedy"],
            10**5,
            space=[tu.KnobRange("nope", 0, 5), tu.KnobRange("freeze_when", 0, 2)],
        ),
    )
    api(
        "tune knob outside its range",
        lambda d: tu.tune(
            "expert",
            classic,
            ["greedy"],
            10**5,
            space=[tu.KnobRange("freeze_when", 0, 9), tu.KnobRange("open_threshold", 0, 2)],
        ),
    )
    api("tune space=5", lambda d: tu.tune("expert", classic, ["greedy"], 10**5, space=5))
    api("tune opponents=None", lambda d: tu.tune("expert", classic, None, 10**5))
    api("tune strategy=None", lambda d: tu.tune(None, classic, ["greedy"], 10**5))
    api("tune rules=5", lambda d: tu.tune("expert", 5, ["greedy"], 10**5))
    api("tune strategy=pimc", lambda d: tu.tune("pimc", classic, ["greedy"], 10**5, jobs=1))
    api("parse_knob_ranges(None)", lambda d: tu.parse_knob_ranges(None, "expert"))
    api("parse_knob_ranges([5])", lambda d: tu.parse_knob_ranges([5], "expert"))
    api("RuleSet.preset(players=x)", lambda d: RuleSet.preset("classic", "x"))
    api("RuleSet.preset(None)", lambda d: RuleSet.preset(None))
    api("RuleSet.preset(players=6 twice)", lambda d: RuleSet.preset("classic", 4, players=6))
    api(
        "RuleSet.preset(team_layout twice)",
        lambda d: RuleSet.preset("classic", 6, "2x3", team_layout="3x2"),
    )
    api("RuleSet.preset(bad override)", lambda d: RuleSet.preset("classic", 4, nope=1))
    api(
        "RuleSet.preset(go_out_bonus='x')", lambda d: RuleSet.preset("classic", 4, go_out_bonus="x")
    )
    api("RuleSet.from_dict(None)", lambda d: RuleSet.from_dict(None))
    api("RuleSet.from_dict([])", lambda d: RuleSet.from_dict([]))
    from reports.hand_file import read_hand_file

    api("read_hand_file(None)", lambda d: read_hand_file(None))
    api("read_hand_file(dir)", lambda d: read_hand_file(d / "adir"))
    api("read_hand_file(rules='classic')", lambda d: read_hand_file(d / "record.txt", "classic"))
    from reports.compare import compare, round_robin
    from reports.sweep import sweep

    api("compare(None)", lambda d: compare(None))
    api("compare rules=''", lambda d: compare(["expert", "greedy"], rules=""))
    api("round_robin(None)", lambda d: round_robin(None))
    api("sweep(None)", lambda d: sweep(None, {"open_threshold": [1, 2]}, "expert"))
    api("sweep knobs None", lambda d: sweep("tunable", None, "expert"))
    api("sweep opponent None", lambda d: sweep("tunable", {"open_threshold": [1, 2]}, None))
    api(
        "sweep knob value nan",
        lambda d: sweep("tunable", {"open_threshold": [math.nan, 2]}, "expert"),
    )
    api("sweep knob outside", lambda d: sweep("tunable", {"freeze_when": [0, 5]}, "expert"))
    from strategies.registry import knob_values, parse_spec

    api("parse_spec('expert:')", lambda d: parse_spec("expert:"))
    api("parse_spec freeze_when=1.5", lambda d: parse_spec("expert:freeze_when=1.5"))
    api("knob_values(None)", lambda d: knob_values(None))
    from sim.play.search.spec import parse_search

    api("parse_search pimc:worlds=1e12", lambda d: parse_search("pimc:worlds=1e12"))
    api("parse_search pimc:guard=nan", lambda d: parse_search("pimc:guard=nan"))
    api("parse_search(None)", lambda d: parse_search(None))
    from sim.runs import store

    api("read_run(None)", lambda d: store.read_run(None))
    api("read_run(dir)", lambda d: store.read_run(d / "adir"))
    api("read_run(file)", lambda d: store.read_run(d / "afile"))
    from sim.core.cards import read_deck_file

    api("read_deck_file(dir)", lambda d: read_deck_file(d / "adir", 2))
    api("read_deck_file(None)", lambda d: read_deck_file(None, 2))
    return c


# ----------------------------------------------------------------------------- running


def _stub_work(monkey: list) -> None:
    import reports.analyze as an
    import reports.duplicate as dup
    import reports.position as rp
    import reports.review as rv
    import sim.cli.play as cp
    import sim.play.engine as engine

    def work(*a, **k):
        raise WorkStarted()

    for mod, name in (
        (engine, "run_chunk"),
        (an, "_chunk"),
        (rp, "rollout"),
        (rv, "review"),
        (dup, "run_calls"),
        (dup, "play_against"),
        (cp, "warm_play"),
        (cp, "play_hand_py"),
    ):
        monkey.append((mod, name, getattr(mod, name)))
        setattr(mod, name, work)
    try:  # the table's server (the optional extra): its start is the work
        import uvicorn

        monkey.append((uvicorn.Server, "run", uvicorn.Server.run))
        uvicorn.Server.run = work  # type: ignore[method-assign]
    except ImportError:
        pass
    import sim.cli.warmup as wu

    for name in dir(wu):
        if name.startswith("warm") and callable(getattr(wu, name)):
            monkey.append((wu, name, getattr(wu, name)))
            setattr(wu, name, work)


def _snapshot(root: Path) -> dict:
    return {str(p.relative_to(root)): p.stat().st_size for p in root.rglob("*")}


def run_case(case: Case, template: Path) -> tuple[bool, str]:
    from sim.core.errors import CanastaError

    d = Path(tempfile.mkdtemp(prefix="adv-"))
    try:
        shutil.copytree(template, d, dirs_exist_ok=True)
        for name, text in case.files.items():
            if text == "BIG":
                with open(d / name, "w") as f:
                    f.write(RECORD.replace("draw\n", ""))
                    f.write("; ".join(["draw"] * 12_000_000))
            elif text == "BIGPOS":
                with open(d / name, "w") as f:
                    f.write(POS_TEXT.replace("hand: ", "hand: " + "7 " * 30_000_000))
            elif text == "BIGDECK":
                with open(d / name, "w") as f:
                    f.write("AS " * 20_000_000)
            elif isinstance(text, bytes):
                (d / name).write_bytes(text)
            else:
                (d / name).write_text(text)
        before = _snapshot(d)
        cwd = os.getcwd()
        os.chdir(d)
        try:
            if case.call is not None:
                return _run_api(case, d, CanastaError)
            return _run_cli(case, d, before)
        finally:
            os.chdir(cwd)
    finally:
        shutil.rmtree(d, ignore_errors=True)


def _run_api(case: Case, d: Path, base) -> tuple[bool, str]:
    assert case.call is not None
    try:
        case.call(d)
    except WorkStarted:
        return False, "accepted (work started)"
    except base as exc:
        msg = str(exc)
        if not msg or "\n" in msg:
            return False, f"CanastaError not one line: {msg!r}"
        bad = [t for t in RAW_TEXTS if t in msg]
        if bad:
            return False, f"raw text {bad[0]!r}: {msg}"
        return True, msg
    except Exception as exc:
        return False, f"{type(exc).__name__}: {' '.join(str(exc).split())[:150]}"
    return False, "returned without an error"


def _run_cli(case: Case, d: Path, before: dict) -> tuple[bool, str]:
    import sim.cli.main as cli

    argv = [a.replace("{d}", str(d)) for a in case.argv or []]
    out, err = io.StringIO(), io.StringIO()
    started = False
    code = None
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = cli.main(argv)
        except WorkStarted:
            started = True
        except SystemExit as exc:
            code = exc.code
        except BaseException as exc:
            traceback.print_exc()
            code = f"raised {type(exc).__name__}"
    text = err.getvalue()
    lines = [ln for ln in text.strip().splitlines() if not ln.startswith("canasta: compiling")]
    if case.expect == "accept":
        if started or code == 0:
            return True, "accepted"
        return False, f"refused: {code} {' | '.join(lines)[:200]}"
    if started:
        return False, "accepted (work started)"
    cmd = argv[0] if argv else ""
    problems = []
    if code != 2:
        problems.append(f"exit {code}")
    if "Traceback" in text or "Traceback" in out.getvalue():
        problems.append("traceback: " + text.strip().splitlines()[-1][:160])
    if len(lines) != 1:
        problems.append(f"{len(lines)} stderr lines")
    line = lines[0] if lines else ""
    if line and not line.startswith(f"canasta {cmd}: error: "):
        problems.append("prefix")
    if case.needle and case.needle not in line:
        problems.append(f"no {case.needle!r}")
    bad = [t for t in case.forbid if t in line]
    if bad:
        problems.append(f"says {bad[0]!r}")
    after = _snapshot(d)
    if after != before:
        new = sorted(set(after) - set(before)) or sorted(
            k for k in after if after[k] != before.get(k)
        )
        problems.append(f"wrote {new[:3]}")
    if problems:
        return False, "; ".join(problems) + f" :: {line[:220]}"
    return True, line


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--only", default=None, help="run only cases of classes starting with this")
    ap.add_argument("--grep", default=None, help="run only cases whose name holds this")
    ap.add_argument("--show-fail", action="store_true")
    ap.add_argument("--show-all", action="store_true")
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "adversarial.json"))
    args = ap.parse_args()
    os.environ.setdefault("CANASTA_NO_PROGRESS", "1")
    template = Path(tempfile.mkdtemp(prefix="adv-template-"))
    _scratch(template)
    _damaged_equity(template)
    from synthetic_engine import make_run

    make_run(template / "run", n_hands=300, log_rate=0.2)
    monkey: list = []
    cases = cli_cases() + api_cases()
    _stub_work(monkey)
    if args.only:
        cases = [c for c in cases if c.cls.startswith(args.only)]
    if args.grep:
        cases = [c for c in cases if args.grep in c.name]
    passed: Counter = Counter()
    total: Counter = Counter()
    fails = defaultdict(list)
    for case in cases:
        ok, why = run_case(case, template)
        total[case.cls] += 1
        passed[case.cls] += ok
        if not ok:
            fails[case.cls].append((case.name, why))
        if args.show_all or (args.show_fail and not ok):
            print(f"{'ok  ' if ok else 'FAIL'} [{case.cls}] {case.name}: {why}")
    shutil.rmtree(template, ignore_errors=True)
    print()
    for cls in sorted(total):
        print(f"{cls:<14} {passed[cls]:>4} / {total[cls]:<4} pass")
    print(f"{'all':<14} {sum(passed.values()):>4} / {sum(total.values()):<4} pass")
    if not args.only and not args.grep:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(
            json.dumps(
                {
                    "command": "python benchmarks/adversarial.py",
                    "classes": {k: [passed[k], total[k]] for k in sorted(total)},
                    "failing": {k: v for k, v in sorted(fails.items())},
                },
                indent=1,
            )
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
