"""OpenSpiel bots as seats of the lab: ``openspiel-ismcts:sims=1000,c=300,rollout=expert``.

The bot is OpenSpiel's own ISMCTS (``open_spiel.python.algorithms.ismcts.ISMCTSBot``, the Python
port of ``pyspiel.ISMCTSBot``; the C++ bot cannot call a Python game's resampler) playing the
game ``python_canasta_lab`` (`sim.play.openspiel.game`).  Knobs:

    sims     simulations per decision (default 1000)
    c        UCT exploration constant, in points (returns are hand scores; default 300)
    rollout  leaf evaluation: ``expert`` (or any registered strategy: the rest of the hand played
             by it at every seat, in the lab's engine, one rollout) or ``random`` (OpenSpiel's
             RandomRolloutEvaluator: slow, Python-speed random hands)
    worlds   cap on distinct sampled worlds per search (0: a fresh world every simulation)

Every ISMCTS simulation samples a world with the game's ``resample_from_infostate``, so the bot
never sees a hidden card.  Needs the optional extra: ``pip install ".[openspiel]"``.
"""

from __future__ import annotations

import numpy as np

from sim.core.apply import SCORE_ROWS, score_hand_nb
from sim.core.enums import MAX_SEATS, MAX_TEAMS, N_ACTIONS, Off
from sim.core.rng import STREAM_PLAYERS, seed_rng_nb
from sim.play.selfplay.status import Slot
from sim.play.selfplay.step import play_out_hidden_nb
from strategies.registry import MAX_KNOBS, STRATEGY_NAMES, StrategyError, parse_spec

__all__ = ["BOT_NAMES", "is_openspiel", "parse_bot", "make_bot", "OPENSPIEL_MISSING"]

BOT_NAMES = ("openspiel-ismcts",)
DEFAULTS = {"sims": 1000, "c": 300.0, "rollout": "expert", "worlds": 0}
RANGES = {"sims": (1, 1_000_000), "c": (0.0, 1_000_000.0), "worlds": (0, 100_000)}
OPENSPIEL_MISSING = (
    "OpenSpiel is not installed: pip install '.[openspiel]' (package open_spiel) "
    "to seat openspiel-* bots"
)


def is_openspiel(spec: str) -> bool:
    return str(spec).split(":", 1)[0].strip() in BOT_NAMES


def parse_bot(spec: str) -> dict:
    """'openspiel-ismcts:sims=200' -> knob dict; StrategyError (a ValueError) on a bad knob."""
    name, _, rest = str(spec).partition(":")
    if name.strip() not in BOT_NAMES:
        raise StrategyError(f"{name!r} is not an OpenSpiel bot; bots: {', '.join(BOT_NAMES)}")
    knobs: dict = dict(DEFAULTS)
    if ":" in str(spec) and not rest.strip():
        raise StrategyError(f"strategy spec {spec!r} ends with ':'; write {name.strip()}")
    seen: set[str] = set()
    for item in (x.strip() for x in rest.split(",")) if rest.strip() else ():
        key, eq, raw = item.partition("=")
        key, raw = key.strip(), raw.strip()
        if not item or key in seen:
            raise StrategyError(
                f"strategy spec {spec!r}: an empty knob or one given twice; give each once"
            )
        seen.add(key)
        if not eq or key not in DEFAULTS:
            raise StrategyError(f"{name} has no knob {key!r} (its knobs: {', '.join(DEFAULTS)})")
        if key == "rollout":
            if raw != "random" and raw not in STRATEGY_NAMES:
                raise StrategyError(
                    f"{name}: rollout={raw!r}: use random or a strategy "
                    f"({', '.join(STRATEGY_NAMES)})"
                )
            knobs[key] = raw
            continue
        try:
            value = float(raw)
        except ValueError:
            raise StrategyError(f"{name}: knob {key}={raw!r} is not a number") from None
        lo, hi = RANGES[key]
        if not lo <= value <= hi or (key != "c" and not value.is_integer()):  # also nan
            kind = "a number" if key == "c" else "a whole number"
            raise StrategyError(f"{name}: {key}={raw} must be {kind} {lo:g} .. {hi:g}")
        knobs[key] = value if key == "c" else int(value)
    return knobs


class StrategyRollout:
    """OpenSpiel evaluator: play the rest of the hand with a lab strategy at every seat (the
    lab's engine) and return each player's team score; uniform priors."""

    def __init__(self, strategy: str, seed: int) -> None:
        sid, knobs = parse_spec(strategy)
        self.ids = np.full(MAX_SEATS, sid, np.int64)
        self.knobs = np.zeros((MAX_SEATS, MAX_KNOBS), np.float64)
        self.knobs[:] = knobs
        self.seed = int(seed)
        self.calls = 0

    def evaluate(self, state) -> np.ndarray:
        n = state.get_game().num_players()
        if not state.is_terminal():
            if state.is_chance_node():
                return np.zeros(n)
            world = state.state.copy()
            rng = np.zeros((MAX_SEATS, 2), np.uint64)
            for s in range(n):
                seed_rng_nb(rng[s], self.seed, self.calls, 0, STREAM_PLAYERS + 1 + s)
            self.calls += 1
            status = np.zeros(Slot.SIZE, np.int64)
            play_out_hidden_nb(
                world,
                state._g.params_arr,
                self.ids,
                self.knobs,
                rng,
                np.zeros(Off.STATE_SIZE, np.int32),
                np.zeros(N_ACTIONS, np.int32),
                0,
                status,
                None,
                None,
                None,
            )
            score = np.zeros((SCORE_ROWS, MAX_TEAMS), np.int32)
            score_hand_nb(world, state._g.params_arr, score)
            return np.array([float(score[0, world[Off.TEAM_OF_SEAT + s]]) for s in range(n)])
        return np.array(state.returns())

    def prior(self, state) -> list[tuple[int, float]]:
        legal = state.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]


def make_bot(game, spec: str, seed: int = 0):
    """OpenSpiel's ISMCTS bot for ``game`` (a python_canasta_lab game) from ``spec``."""
    try:
        from open_spiel.python.algorithms import ismcts, mcts
    except ImportError:
        raise StrategyError(OPENSPIEL_MISSING) from None
    k = parse_bot(spec)
    rs = np.random.RandomState(seed % (2**32))
    if k["rollout"] == "random":
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs)
    else:
        evaluator = StrategyRollout(k["rollout"], seed)
    worlds = k["worlds"] if k["worlds"] > 0 else ismcts.UNLIMITED_NUM_WORLD_SAMPLES
    bot = ismcts.ISMCTSBot(
        game,
        evaluator,
        k["c"],
        k["sims"],
        max_world_samples=worlds,
        random_state=rs,
        allow_inconsistent_action_sets=True,
    )
    # worlds from the bot's own seeded stream (OpenSpiel's default sampler is seeded by the clock)
    bot.set_resampler(lambda state, player: state.resample_from_infostate(player, rs.uniform))
    return bot
