"""`canasta play`: play one hand with built-in strategies and print its history."""

from __future__ import annotations

import argparse
import re
from typing import Any

from sim.cli.args import whole
from sim.cli.rules import rules_from_args
from sim.core import limits
from sim.core.cards import read_deck_file
from sim.core.enums import Off
from sim.core.errors import CanastaError
from sim.core.referee import IllegalAction, referee_hand
from sim.play.compile.warm import compile_notice, play_compile_key, warm_play
from sim.play.game import GameState
from sim.play.history import format_history
from sim.play.pyplay import play_hand_py

EPILOG = """examples:
  canasta play --rules classic --players 4 --seed 7
  canasta play --rules german --players 6 --team-layout 3x2 --seed 3 \\
      --strategies greedy,random,random
  canasta play --deck mydeck.txt --dealer 0 --strategies random
      a stacked deck: 108 tokens like AS 10H 3D 2C JK, dealt one at a time from the seat left of
      the dealer, then the upcard, then the stock from the top
  canasta play --players 4 --strategies expert --seed 7 --position-at 5:2 > pos.txt
      instead of the history, write the position of turn 5's second decision (turn numbers as
      the history prints them; step 1 = before the draw) as the seat to act knows it; then
      canasta analyze pos.txt ranks that seat's legal actions.  --seat K: as seat K knows it.
"""


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    p = subparsers.add_parser(
        "play",
        help="play one hand and print its history",
        description="Play one hand with built-in strategies and print a readable history: "
        "the deal, every action, melds, pile state and the score breakdown.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "--rules", dest="preset", default="classic", help="rule preset (default classic)"
    )
    p.add_argument("--players", type=whole(2, 6), default=None, help="players 2..6 (default 4)")
    p.add_argument("--team-layout", default=None, help="six players: 2x3 or 3x2")
    p.add_argument(
        "--set",
        dest="overrides",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="override a rule parameter (repeatable)",
    )
    p.add_argument(
        "--seed",
        type=whole(*limits.SEED),
        default=0,
        help="seed of the deal, 0 .. 2**63-1 (default 0)",
    )
    p.add_argument(
        "--game",
        type=whole(*limits.GAME),
        default=0,
        help="game number of the key, 0 .. 2**62 (default 0)",
    )
    p.add_argument(
        "--hand",
        type=whole(*limits.HAND),
        default=0,
        help="hand number of the key, 0 .. 2**31-1 (default 0)",
    )
    p.add_argument(
        "--strategies",
        default="random",
        help="one strategy for all, one per team or one per seat, comma-separated (default random)",
    )
    p.add_argument(
        "--deck", default=None, metavar="FILE", help="stacked deck file instead of a shuffled deck"
    )
    p.add_argument(
        "--dealer",
        type=whole(0, 5),
        default=None,
        help="active seat of the dealer (default (game+hand) %% players)",
    )
    p.add_argument(
        "--cum",
        default=None,
        metavar="S0,S1,..",
        help="cumulative team scores before the hand (they set the minimums), each -10**8 .. 10**8",
    )
    p.add_argument(
        "--position-at",
        default=None,
        metavar="TURN[:STEP]",
        help="write the position of that decision (turn as printed, step 1 = its first decision) "
        "instead of the history (format: docs/position-example.txt)",
    )
    p.add_argument(
        "--seat",
        type=whole(0, 5),
        default=None,
        metavar="K",
        help="with --position-at: the position as table seat K knows it (default: the seat to act)",
    )
    p.set_defaults(run=run)
    return p


def parse_cum(text: str | None, n_teams: int) -> list[int] | None:
    """--cum '1500,-200' -> one cumulative score per team, each in its documented range."""
    if text is None:
        return None
    parse = whole(*limits.CUM_SCORE)
    try:
        cum = [parse(x) for x in text.split(",")]
    except argparse.ArgumentTypeError as exc:
        raise CanastaError(f"--cum: {exc}") from None
    if len(cum) != n_teams:
        raise CanastaError(f"--cum needs {n_teams} scores (one per team), got {len(cum)}")
    return cum


def run(args: argparse.Namespace) -> int:
    from sim.runs.runner import check_strategy_names, expand_strategies, registered_strategies

    rules = rules_from_args(args)
    reason = rules.engine_supported()
    if reason:
        raise CanastaError(reason)
    # the one strategy-list reader of every command (strategies.registry.split_specs)
    strategies = list(expand_strategies(rules, args.strategies))
    check_strategy_names(strategies, registered_strategies(), "--strategies")
    cum = parse_cum(args.cum, rules.n_teams)
    if args.position_at is not None:
        _turn_step(args.position_at)  # its form before the hand is played
    elif args.seat is not None:
        raise CanastaError("--seat goes with --position-at")

    if args.deck is not None:  # a bad deck file is one line at once, not after a cold compile
        read_deck_file(args.deck, rules.decks)

    knowledge = args.position_at is not None  # only a position needs what each seat knows

    def make() -> GameState:
        return GameState.new_hand(
            rules,
            args.seed,
            args.game,
            args.hand,
            cum,
            dealer=args.dealer,
            deck_file=args.deck,
            track_knowledge=knowledge,
        )

    with compile_notice("the game core", play_compile_key(strategies)):
        warm_play(strategies, knowledge=knowledge)
    gs = play_hand_py(rules, strategies, args.seed, args.game, args.hand, cum, gs=make())
    if args.position_at is not None:
        print(position_at(make(), gs.actions, args.position_at, args.seat), end="")
        return 0
    print(format_history(make, gs.actions, strategies))
    try:
        ref = referee_hand(
            gs.params,
            list(gs.deck),
            int(gs.state[Off.DEALER]),
            cum or [0] * rules.n_teams,
            gs.actions,
        )
        agree = ref.score == gs.score_breakdown()["score"]
        print(
            "referee: every action legal; score "
            f"{'confirmed' if agree else 'DIFFERS: ' + str(ref.score)}"
        )
        return 0 if agree else 1
    except IllegalAction as exc:
        print(f"referee: step {exc.step} refused: {exc.reason}")
        return 1


def _turn_step(text: str) -> tuple[int, int]:
    """'TURN[:STEP]' -> (turn, step), each 1 .. 10**6 (limits.TURN_STEP); CanastaError otherwise."""
    turn, _, step = text.partition(":")
    lo, hi = limits.TURN_STEP
    if not re.fullmatch(r"\s*\d+\s*", turn) or (step and not re.fullmatch(r"\s*\d+\s*", step)):
        raise CanastaError(
            f"--position-at {text}: give TURN or TURN:STEP, whole numbers {lo} .. {hi:,}"
        )
    t, k = int(turn), int(step or 1)
    if not (lo <= t <= hi and lo <= k <= hi):
        raise CanastaError(f"--position-at {text}: turns and steps count {lo} .. {hi:,}")
    return t, k


def position_at(gs: GameState, actions: list[int], at: str, seat: int | None) -> str:
    """The position text of decision TURN[:STEP] of the hand ``actions`` replayed on ``gs``."""
    from sim.play.positions.text import format_position

    turn, step = _turn_step(at)
    k = 0
    for a in actions:
        if int(gs.state[Off.TURN]) + 1 == turn:
            k += 1
            if k == step:
                break
        gs.apply(a)
    else:
        last = int(gs.state[Off.TURN]) + 1
        raise CanastaError(
            f"--position-at {at}: the hand has {last} turns"
            + (f" and turn {turn} {k} decisions" if k else "")
        )
    if seat is not None and seat not in gs.seat_table:
        raise CanastaError(
            f"--seat {seat}: not an active seat of this hand ({', '.join(map(str, gs.seat_table))})"
        )
    active = gs.seat if seat is None else gs.seat_table.index(seat)
    return format_position(gs.position(active))
