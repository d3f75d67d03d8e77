"""`canasta play`: play one hand with built-in strategies and print its history."""

from __future__ import annotations

import argparse
from typing import Any

from sim.cli.rules import rules_from_args
from sim.core.enums import Off
from sim.core.referee import IllegalAction, referee_hand
from sim.play.game import GameState
from sim.play.history import format_history
from sim.play.pyplay import play_hand_py
from sim.play.warm import COLD_COMPILE_SECONDS, compile_notice, warm_play

EPILOG = """examples:
  canasta play --rules classic --players 4 --seed 7
  canasta play --rules german --players 6 --team-layout 3x2 --seed 3 --strategies greedy,random,random
  canasta play --deck mydeck.txt --dealer 0 --strategies random   (a stacked deck: 108 tokens like AS 10H 3D 2C JK,
                                                                    dealt one at a time from the seat left of the dealer,
                                                                    then the upcard, then the stock from the top)
  canasta play --players 4 --strategies expert --seed 7 --position-at 5:2 > pos.txt
      instead of the history, write the position of turn 5's second decision (turn numbers as
      the history prints them; step 1 = before the draw) as the seat to act knows it; then
      canasta analyze pos.txt ranks that seat's legal actions.  --seat K: as seat K knows it.
"""


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    p = subparsers.add_parser("play", help="play one hand and print its history",
                              description="Play one hand with built-in strategies and print a readable history: "
                              "the deal, every action, melds, pile state and the score breakdown.",
                              epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rules", dest="preset", default="classic", help="rule preset (default classic)")
    p.add_argument("--players", type=int, default=None, help="players 2..6 (default 4)")
    p.add_argument("--team-layout", default=None, help="six players: 2x3 or 3x2")
    p.add_argument("--set", dest="overrides", action="append", default=[], metavar="NAME=VALUE",
                   help="override a rule parameter (repeatable)")
    p.add_argument("--seed", type=int, default=0, help="seed of the deal (default 0)")
    p.add_argument("--game", type=int, default=0, help="game number of the key (default 0)")
    p.add_argument("--hand", type=int, default=0, help="hand number of the key (default 0)")
    p.add_argument("--strategies", default="random",
                   help="one strategy for all, one per team or one per seat, comma-separated (default random)")
    p.add_argument("--deck", default=None, metavar="FILE", help="stacked deck file instead of a shuffled deck")
    p.add_argument("--dealer", type=int, default=None, help="active seat of the dealer (default (game+hand) %% players)")
    p.add_argument("--cum", default=None, metavar="S0,S1,..", help="cumulative team scores before the hand (minimums)")
    p.add_argument("--position-at", default=None, metavar="TURN[:STEP]",
                   help="write the position of that decision (turn as printed, step 1 = its first decision) "
                   "instead of the history (format: docs/position-example.txt)")
    p.add_argument("--seat", type=int, default=None, metavar="K",
                   help="with --position-at: the position as table seat K knows it (default: the seat to act)")
    p.set_defaults(run=run)
    return p


def expand_strategies(text: str, rules) -> list[str]:
    names = [s.strip() for s in text.split(",") if s.strip()]
    if len(names) == 1:
        return names * rules.players
    if len(names) == rules.n_teams:
        return [names[t] for t in rules.team_of_seat]
    if len(names) == rules.players:
        return names
    raise ValueError(f"--strategies has {len(names)} names; give 1, one per team ({rules.n_teams}) or one per seat ({rules.players})")


def run(args: argparse.Namespace) -> int:
    rules = rules_from_args(args)
    reason = rules.engine_supported()
    if reason:
        raise ValueError(reason)
    strategies = expand_strategies(args.strategies, rules)
    from strategies.registry import parse_spec

    for s in strategies:
        parse_spec(s)
    for name, v in (("seed", args.seed), ("game", args.game), ("hand", args.hand)):
        if v < 0:
            raise ValueError(f"--{name} {v}: must be >= 0")
    cum = [int(x) for x in args.cum.split(",")] if args.cum else None
    if cum is not None and len(cum) != rules.n_teams:
        raise ValueError(f"--cum needs {rules.n_teams} scores (one per team), got {len(cum)}")

    def make() -> GameState:
        return GameState.new_hand(rules, args.seed, args.game, args.hand, cum, dealer=args.dealer, deck_file=args.deck)

    with compile_notice("the game core", COLD_COMPILE_SECONDS["play"]):
        warm_play()
    gs = play_hand_py(rules, strategies, args.seed, args.game, args.hand, cum, gs=make())
    if args.position_at is not None:
        print(position_at(make(), gs.actions, args.position_at, args.seat), end="")
        return 0
    if args.seat is not None:
        raise ValueError("--seat goes with --position-at")
    print(format_history(make, gs.actions, strategies))
    try:
        ref = referee_hand(gs.params, list(gs.deck), int(gs.state[Off.DEALER]), cum or [0] * rules.n_teams, gs.actions)
        agree = ref.score == gs.score_breakdown()["score"]
        print(f"referee: every action legal; score {'confirmed' if agree else 'DIFFERS: ' + str(ref.score)}")
        return 0 if agree else 1
    except IllegalAction as exc:
        print(f"referee: step {exc.step} refused: {exc.reason}")
        return 1


def _turn_step(text: str) -> tuple[int, int]:
    turn, _, step = text.partition(":")
    try:
        t, k = int(turn), int(step or 1)
    except ValueError:
        raise ValueError(f"--position-at {text}: give TURN or TURN:STEP, whole numbers from 1") from None
    if t < 1 or k < 1:
        raise ValueError(f"--position-at {text}: turns and steps count from 1")
    return t, k


def position_at(gs: GameState, actions: list[int], at: str, seat: int | None) -> str:
    """The position text of decision TURN[:STEP] of the hand ``actions`` replayed on ``gs``."""
    from sim.play.position import format_position  # noqa: PLC0415

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
        raise ValueError(f"--position-at {at}: the hand has {last} turns" + (f" and turn {turn} {k} decisions" if k else ""))
    if seat is not None and seat not in gs.seat_table:
        raise ValueError(f"--seat {seat}: not an active seat of this hand ({', '.join(map(str, gs.seat_table))})")
    active = gs.seat if seat is None else gs.seat_table.index(seat)
    return format_position(gs.position(active))
