"""`canasta play`: play one hand with built-in strategies and print its history."""

from __future__ import annotations

import argparse
from typing import Any

from sim.cli.args import whole
from sim.cli.rules import rules_from_args
from sim.core import limits
from sim.core.enums import Off
from sim.core.errors import CanastaError
from sim.core.referee import IllegalAction, referee_hand
from sim.play.game import GameState
from sim.play.history import format_history
from sim.play.pyplay import play_hand_py

EPILOG = """examples:
  canasta play --rules classic --players 4 --seed 7
  canasta play --rules german --players 6 --team-layout 3x2 --seed 3 --strategies greedy,random,random
  canasta play --deck mydeck.txt --dealer 0 --strategies random   (a stacked deck: 108 tokens like AS 10H 3D 2C JK,
                                                                    dealt one at a time from the seat left of the dealer,
                                                                    then the upcard, then the stock from the top)
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
    p.add_argument("--seed", type=whole(*limits.SEED), default=0, help="seed of the deal, 0 .. 2**63-1 (default 0)")
    p.add_argument("--game", type=whole(*limits.GAME), default=0, help="game number of the key, 0 .. 2**62 (default 0)")
    p.add_argument("--hand", type=whole(*limits.HAND), default=0, help="hand number of the key, 0 .. 2**31-1 (default 0)")
    p.add_argument("--strategies", default="random",
                   help="one strategy for all, one per team or one per seat, comma-separated (default random)")
    p.add_argument("--deck", default=None, metavar="FILE", help="stacked deck file instead of a shuffled deck")
    p.add_argument("--dealer", type=whole(0, 5), default=None, help="active seat of the dealer (default (game+hand) %% players)")
    p.add_argument("--cum", default=None, metavar="S0,S1,..",
                   help="cumulative team scores before the hand (they set the minimums), each -10**8 .. 10**8")
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
    check_strategy_names(strategies, registered_strategies())
    cum = parse_cum(args.cum, rules.n_teams)

    def make() -> GameState:
        return GameState.new_hand(rules, args.seed, args.game, args.hand, cum, dealer=args.dealer, deck_file=args.deck)

    gs = play_hand_py(rules, strategies, args.seed, args.game, args.hand, cum, gs=make())
    print(format_history(make, gs.actions, strategies))
    try:
        ref = referee_hand(gs.params, list(gs.deck), int(gs.state[Off.DEALER]), cum or [0] * rules.n_teams, gs.actions)
        agree = ref.score == gs.score_breakdown()["score"]
        print(f"referee: every action legal; score {'confirmed' if agree else 'DIFFERS: ' + str(ref.score)}")
        return 0 if agree else 1
    except IllegalAction as exc:
        print(f"referee: step {exc.step} refused: {exc.reason}")
        return 1
