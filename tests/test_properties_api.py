"""Property-based tests (hypothesis) of the public Python API and the file parsers behind
analyze, odds --position and review: whatever the input, nothing but a CanastaError (one line)
escapes, and never before the input was checked.

- Position files: the documented example with one key's value replaced by random text or a
  number from -2**70 .. 2**70, read by parse_position, then turned into a decision, a game state
  and a sampled world (what analyze and odds --position do first).
- Hand records: a valid record with one field or action replaced, read by read_hand_file.
- Public functions: each argument of analyze, paired_rollouts, equity_table, load_equity,
  Equity, hand_by_key, review, tune, compare, sweep, GameState.new_hand / from_position,
  RuleSet.preset, read_hand_file and the spec parsers replaced by an odd value (None, '', NaN,
  inf, 2**70, -1, a list, a dict, an object), the others valid; the work itself is stubbed
  (it raises Accepted when reached: input that is valid after all).
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sim.core.errors import CanastaError

FAST = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
ROOT = Path(__file__).resolve().parents[1]
POS_TEXT = (ROOT / "docs" / "position-example.txt").read_text()


class Accepted(BaseException):
    """The stubbed work was reached: the input passed every check."""


def one_line(fn, *args, **kwargs) -> None:
    try:
        fn(*args, **kwargs)
    except Accepted:
        pass
    except CanastaError as exc:
        msg = str(exc)
        assert msg and "\n" not in msg, repr(exc)


NUMBERS = st.one_of(
    st.integers(-(2**70), 2**70),
    st.sampled_from([2**31, 2**63, 2**64, -(2**63) - 1, 10**8 + 1, 2 * 10**8, 0, -1]),
).map(str)
CARDS = st.lists(
    st.sampled_from(["7", "K", "JK", "2", "3", "3H", "R3", "A", "10", "Q", "x", "|", "-"]),
    max_size=40,
).map(" ".join)
KEYS = [
    "turn",
    "scores",
    "pending",
    "stock",
    "pile",
    "me",
    "to_move",
    "decks",
    "players",
    "hand_sizes",
    "red3 us",
    "canastas_this_turn",
    "melded",
    "hand",
    "melds us",
    "melds them",
    "pile_cards",
    "known 1",
    "opened",
    "last_discard",
    "last_turn 3",
    "phase",
    "frozen",
    "set",
    "rules",
]


def _replace(text: str, key: str, value: str) -> str:
    out, done = [], False
    for ln in text.splitlines():
        k = ln.split("#", 1)[0].split(":", 1)[0].strip().lower()
        if k == key and not done:
            out.append(f"{key}: {value}")
            done = True
        else:
            out.append(ln)
    if not done:
        out.append(f"{key}: {value}")
    return "\n".join(out) + "\n"


@FAST
@given(
    st.sampled_from(KEYS),
    st.one_of(NUMBERS, CARDS, st.text(max_size=30)),
    st.sampled_from(["draw", "meld"]),
)
def test_position_values(key, value, phase):
    from reports.analyze import decision_from_position
    from reports.position import parse_position
    from sim.play.game import GameState

    text = _replace(_replace(POS_TEXT, "phase", phase), key, value)

    def read_and_use(t):
        pos = parse_position(t)
        GameState.from_position(pos, seed=1)
        decision_from_position(pos)

    one_line(read_and_use, text)


RECORD = (
    "rules: classic\nplayers: 4\nkey: seed=7 game=0 hand=0\ndealer: 0\nscores: 0 0\n"
    "strategies: expert\nactions:\ndraw\n"
)
RECORD_FIELDS = ["rules", "players", "key", "dealer", "scores", "strategies", "set", "deck", "x"]


@FAST
@given(
    name=st.sampled_from(RECORD_FIELDS),
    value=st.one_of(
        NUMBERS, st.text(max_size=30), NUMBERS.map(lambda n: f"seed={n} game=0 hand=0")
    ),
    twice=st.booleans(),
)
def test_hand_record_values(tmp_path_factory, name, value, twice):
    from reports.hand_file import read_hand_file

    text = RECORD.replace("actions:", f"{name}: {value}\nactions:")
    if not twice:
        text = "\n".join(
            ln for ln in text.splitlines() if not ln.startswith(f"{name}: ") or value in ln
        )
    path = tmp_path_factory.mktemp("rec") / "r.txt"
    path.write_text(text, encoding="utf-8", errors="surrogateescape")
    one_line(read_hand_file, path)


# ----------------------------------------------------------------------------- public functions

ODD = st.sampled_from(
    [
        None,
        "",
        " ",
        "x",
        "expert:",
        math.nan,
        math.inf,
        -math.inf,
        2**70,
        -(2**70),
        -1,
        0,
        1.5,
        True,
        [],
        [None],
        {},
        {"a": 1},
        object(),
        b"bytes",
        (1, 2),
    ]  # fmt: skip
)


def _calls():
    """name -> (function, {argument: a valid value})."""
    from reports import analyze as an
    from reports import equity as eq
    from reports import review as rv
    from reports import tune as tu
    from reports.compare import compare
    from reports.hand_file import read_hand_file
    from reports.position import load_position, parse_position
    from reports.sweep import sweep
    from sim.core.rules import RuleSet
    from sim.play.game import GameState
    from strategies.registry import knob_values, parse_spec, split_specs

    classic = RuleSet.preset("classic", 4)
    pos = load_position(ROOT / "docs" / "position-example.txt")
    four = ["expert"] * 4
    return {
        "analyze": (
            an.analyze,
            dict(
                decision=pos,
                strategies="expert",
                rollouts=10,
                until_ci=None,
                jobs=1,
                seed=0,
                rules=None,
                infer=None,
                infer_tries=100,
                equity=None,
            ),  # fmt: skip
        ),
        "equity_table": (
            eq.equity_table,
            dict(rules=classic, strategies=four, step=2500, games=2, seed=0, jobs=1, low=0),
        ),
        "load_equity": (eq.load_equity, dict(path=ROOT / "nope.parquet", team=None)),
        "hand_by_key": (
            rv.hand_by_key,
            dict(rules=classic, strategies=four, seed=0, game=0, hand=0),
        ),
        "tune": (
            tu.tune,
            dict(
                strategy="expert",
                rules=classic,
                opponents=["greedy"],
                budget=10**5,
                space=None,
                seed=0,
                jobs=1,
                test_hands=2000,
                generations=12,
                popsize=None,
            ),  # fmt: skip
        ),
        "compare": (
            compare,
            dict(
                strategies=["expert", "greedy"],
                rules=None,
                hands=100,
                games=None,
                seed=0,
                until_ci=None,
                max_hands=10**6,
                jobs=1,
            ),  # fmt: skip
        ),
        "sweep": (
            sweep,
            dict(
                strategy="tunable",
                knobs={"open_threshold": [50, 70]},
                opponent="expert",
                rules=None,
                hands=100,
                seed=0,
                jobs=1,
            ),  # fmt: skip
        ),
        "new_hand": (
            GameState.new_hand,
            dict(rules=classic, seed=0, game=0, hand=0, cum_scores=None, dealer=None),
        ),
        "from_position": (GameState.from_position, dict(position=pos, rules=None, seed=0)),
        "preset": (RuleSet.preset, dict(name="classic", players=4, team_layout=None)),
        "parse_position": (parse_position, dict(text=POS_TEXT)),
        "load_position": (load_position, dict(path=ROOT / "docs" / "position-example.txt")),
        "read_hand_file": (read_hand_file, dict(path=ROOT / "nope.txt", rules=None)),
        "parse_spec": (parse_spec, dict(spec="expert:open_threshold=50")),
        "knob_values": (knob_values, dict(spec="expert", table=None)),
        "split_specs": (split_specs, dict(text="expert,greedy")),
    }


@pytest.fixture(scope="module")
def calls():
    return _calls()


@pytest.fixture
def no_work(monkeypatch):
    import reports.analyze as an
    import reports.duplicate as dup
    from sim.play import engine

    def work(*a, **k):
        raise Accepted()

    for mod, name in (
        (engine, "run_chunk"),
        (an, "_chunk"),
        (dup, "run_calls"),
        (dup, "play_against"),
    ):
        monkeypatch.setattr(mod, name, work)


@FAST
@given(st.data())
def test_public_functions_refuse_odd_arguments_with_one_line(calls, no_work, data):
    name = data.draw(st.sampled_from(sorted(calls)))
    fn, kwargs = calls[name]
    arg = data.draw(st.sampled_from(sorted(kwargs)))
    value = data.draw(ODD)
    one_line(fn, **{**kwargs, arg: value})
