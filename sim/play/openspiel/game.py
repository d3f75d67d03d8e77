"""The lab's Canasta as an OpenSpiel Python game, ``python_canasta_lab`` (optional extra).

``pip install ".[openspiel]"`` installs OpenSpiel; importing this module registers the game:

    import pyspiel, sim.play.openspiel.game
    game = pyspiel.load_game("python_canasta_lab", {"preset": "classic", "players": 4,
                                                    "set": "go_out_bonus=200;max_turns=400"})

- Game parameters: ``preset`` (classic, german, ...), ``players`` (2, 3, 4, 6; one OpenSpiel player
  per seat, all seats active), ``team_layout`` (six players: "2x3" or "3x2"), ``set`` (``--set``
  values joined by ';'), ``dealer`` (seat).  Samba rules are refused (the worlds sampler needs
  them without sequences).
- The shuffle is a chain of chance nodes, one per card of the deck, top first: outcome = the
  card's kind (0..14), probability = its share of the cards not yet dealt.  Suits are assigned
  in a fixed rotation (they play no part without sequences).
- Player actions are the engine's action ids (0..180, `sim.core.enums.Act`); the legal ones come
  from the engine's single legality function (`sim.core.legal.legal_actions_nb`) and are applied
  by `sim.core.apply.apply_action_nb`.
- ``returns()``: each player's team's hand score (`score_hand_nb`), so a team's players get the
  same return (general-sum: hand scores do not add up to a constant).
- Information state string of a player: its observation (public state + own hand, pile cards
  nobody saw left out) + what it knows beyond it (`sim.play.worlds.sampler.Know`) + the action
  history (every action is public; cards drawn are not shown).  Observation string: the
  observation.
- ``resample_from_infostate(player, sampler)``: a state whose hidden cards are dealt by the
  lab's worlds sampler (`sim.play.worlds.sampler.sample_world_nb`) from that player's observation
  and knowledge only; the random stream comes from ``sampler`` (``sampler.sample()`` in [0, 1)).

The engine core never imports this module.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pyspiel

from sim.core.apply import SCORE_ROWS, apply_action_nb, init_hand_nb, score_hand_nb
from sim.core.enums import MAX_CARDS, MAX_TEAMS, N_ACTIONS, N_KINDS, Kind, Off, Par, Phase
from sim.core.legal import legal_actions_nb
from sim.core.rules import RuleSet, parse_overrides
from sim.play.selfplay.loop import deck_composition_nb
from sim.play.worlds.sampler import (
    ERROR_TEXT,
    Know,
    know_after_nb,
    know_init_nb,
    know_update_nb,
    observe_nb,
    sample_world_nb,
)

__all__ = ["GAME_NAME", "CanastaGame", "CanastaState", "rules_from_params", "deck_codes_from_kinds"]

GAME_NAME = "python_canasta_lab"
_DEFAULTS = {"preset": "classic", "players": 4, "team_layout": "", "set": "", "dealer": 0}
MAX_GAME_LENGTH = 108 + 4000


def rules_from_params(params: dict) -> RuleSet:
    """The RuleSet of the game parameters (ValueError naming what is wrong)."""
    sets = [s for s in str(params.get("set", "")).split(";") if s.strip()]
    rules = RuleSet.preset(
        str(params.get("preset", "classic")),
        int(params.get("players", 4)),
        str(params.get("team_layout", "")) or None,
        **parse_overrides(sets),
    )
    reason = rules.engine_supported()
    if reason:
        raise ValueError(reason)
    if rules.n_active != rules.players:
        raise ValueError(
            f"{rules.players} players: a seat sits out each hand; the OpenSpiel game "
            "needs every seat active (2, 3, 4 or 6 players)"
        )
    p = rules.to_params(0)
    if p[Par.SEQUENCES] or p[Par.MULTI_MELDS]:
        raise ValueError("Samba rules are not supported by the OpenSpiel game (worlds need suits)")
    return rules


def deck_codes_from_kinds(kinds: list[int]) -> np.ndarray:
    """Card codes (kind | suit << 4) for a deck given by kinds: suits in a fixed rotation (red
    threes hearts/diamonds, black threes clubs/spades)."""
    nxt = [0] * N_KINDS
    out = np.zeros(len(kinds), np.int32)
    for i, k in enumerate(kinds):
        r = nxt[k]
        nxt[k] += 1
        if k == Kind.JOKER:
            suit = 0
        elif k == Kind.RED3:
            suit = 1 + r % 2
        elif k == Kind.BLACK3:
            suit = 3 * (r % 2)
        else:
            suit = r % 4
        out[i] = k | (suit << 4)
    return out


def _game_type(max_players: int = 6) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=GAME_NAME,
        long_name="Canasta (canasta-lab engine)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max_players,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=False,
        parameter_specification=dict(_DEFAULTS),
    )


class _Setup(NamedTuple):
    rules: RuleSet
    params_arr: np.ndarray
    n_cards: int
    composition: np.ndarray
    dealer: int


_SETUPS: dict[tuple, _Setup] = {}


def _setup(params: dict) -> _Setup:
    """The engine's view of the game parameters, cached: pyspiel may hand the states a fresh
    wrapper of the game object, without its Python attributes."""
    merged = {**_DEFAULTS, **dict(params)}
    key = tuple(sorted((k, str(v)) for k, v in merged.items()))
    if key not in _SETUPS:
        rules = rules_from_params(merged)
        p = rules.to_params(0).astype(np.int32)
        comp = np.zeros(N_KINDS, np.int64)
        n_cards = int(deck_composition_nb(p, comp))
        dealer = int(merged["dealer"])
        if not 0 <= dealer < rules.players:
            raise ValueError(f"dealer={dealer}: must be a seat 0..{rules.players - 1}")
        _SETUPS[key] = _Setup(rules, p, n_cards, comp, dealer)
    return _SETUPS[key]


class CanastaGame(pyspiel.Game):
    """One hand of Canasta on the lab's engine."""

    def __init__(self, params: dict | None = None) -> None:
        merged = {**_DEFAULTS, **(params or {})}
        rules = rules_from_params(merged)
        bound = float(20_000)
        info = pyspiel.GameInfo(
            num_distinct_actions=N_ACTIONS,
            max_chance_outcomes=N_KINDS,
            num_players=rules.players,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=None,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(_game_type(), info, merged)
        _setup(merged)  # checks the dealer

    def new_initial_state(self) -> CanastaState:
        return CanastaState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        return CanastaObserver(iig_obs_type, params)


class CanastaState(pyspiel.State):
    """A hand in progress: the deal (chance nodes), then the engine's state array."""

    def __init__(self, game: CanastaGame) -> None:
        super().__init__(game)
        self._g = _setup(game.get_parameters())
        self.remaining = self._g.composition.copy()
        self.kinds: list[int] = []
        self.state = np.zeros(Off.STATE_SIZE, np.int32)
        self.know = np.zeros((self._g.rules.players, Know.SIZE), np.int32)
        self.moves: list[tuple[int, int]] = []  # (seat, action)
        self.pile_hidden = 0

    # ------------------------------------------------------------------ pyspiel API
    def current_player(self) -> int:
        if len(self.kinds) < self._g.n_cards:
            return pyspiel.PlayerId.CHANCE
        if self.state[Off.PHASE] == Phase.OVER:
            return pyspiel.PlayerId.TERMINAL
        return int(self.state[Off.SEAT])

    def _legal_actions(self, player: int) -> list[int]:
        buf = np.zeros(N_ACTIONS, np.int32)
        n = legal_actions_nb(self.state, Off.HANDS + player * N_KINDS, self._g.params_arr, buf)
        return sorted(int(a) for a in buf[:n])

    def chance_outcomes(self) -> list[tuple[int, float]]:
        total = float(self.remaining.sum())
        return [(k, self.remaining[k] / total) for k in range(N_KINDS) if self.remaining[k] > 0]

    def _apply_action(self, action: int) -> None:
        if self.is_chance_node():
            self.kinds.append(int(action))
            self.remaining[action] -= 1
            if len(self.kinds) == self._g.n_cards:
                self._deal()
            return
        seat = int(self.state[Off.SEAT])
        params = self._g.params_arr
        for s in range(self.know.shape[0]):
            know_update_nb(self.know[s], self.state, params, int(action))
        why = apply_action_nb(self.state, params, int(action))
        if why:
            raise pyspiel.SpielError(f"illegal action {action} for seat {seat}")
        for s in range(self.know.shape[0]):
            know_after_nb(self.know[s], self.state)
        self.moves.append((seat, int(action)))

    def _deal(self) -> None:
        deck = deck_codes_from_kinds(self.kinds)
        init_hand_nb(
            self.state,
            self._g.params_arr,
            deck,
            len(deck),
            self._g.dealer,
            np.zeros(MAX_TEAMS, np.int32),
        )
        for s in range(self.know.shape[0]):
            know_init_nb(self.know[s], s, 0)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal kind {action}"
        from sim.core.actions import action_text, action_text_at

        if len(self.kinds) == self._g.n_cards and player == int(self.state[Off.SEAT]):
            return action_text_at(self.state, int(action))  # as canasta play names it here
        return action_text(int(action))

    def is_terminal(self) -> bool:
        return len(self.kinds) == self._g.n_cards and self.state[Off.PHASE] == Phase.OVER

    def returns(self) -> list[float]:
        n = self._g.rules.players
        if not self.is_terminal():
            return [0.0] * n
        score = np.zeros((SCORE_ROWS, MAX_TEAMS), np.int32)
        score_hand_nb(self.state, self._g.params_arr, score)
        return [float(score[0, self.state[Off.TEAM_OF_SEAT + s]]) for s in range(n)]

    def __str__(self) -> str:
        if len(self.kinds) < self._g.n_cards:
            return f"dealing: {len(self.kinds)} of {self._g.n_cards} cards"
        seat, turn = int(self.state[Off.SEAT]), int(self.state[Off.TURN])
        return f"seat {seat} to act, turn {turn}, moves {self.moves}"

    # ------------------------------------------------------------------ information
    @classmethod
    def from_engine(
        cls,
        game: CanastaGame,
        rules: RuleSet,
        state: np.ndarray,
        know: np.ndarray,
        deck_kinds: list[int],
        moves: list[tuple[int, int]],
        dealer: int,
    ) -> CanastaState:
        """A state of a hand the lab's own loop is playing (rules as a RuleSet, which may carry
        --set values), for an OpenSpiel bot to decide on."""
        out = cls(game)
        p = rules.to_params(0).astype(np.int32)
        comp = np.zeros(N_KINDS, np.int64)
        n_cards = int(deck_composition_nb(p, comp))
        out._g = _Setup(rules, p, n_cards, comp, dealer)
        out.kinds = list(deck_kinds)
        out.remaining = np.zeros(N_KINDS, np.int64)
        out.state = state.copy()
        out.know = know.copy()
        out.moves = list(moves)
        return out

    def observation_vector(self, player: int) -> np.ndarray:
        obs = np.zeros(Off.STATE_SIZE, np.int32)
        if len(self.kinds) == self._g.n_cards:
            hidden = self.pile_hidden if self.state[Off.PILE_LEN] > 0 else 0
            observe_nb(self.state, player, hidden, obs, False)
        return obs

    def resample_from_infostate(self, player_id: int, probability_sampler) -> CanastaState:
        """A state ``player_id`` cannot tell from this one: hidden cards dealt by the worlds
        sampler from its observation and knowledge alone (see the module docstring)."""
        if self.is_chance_node() or self.is_terminal():
            return self.clone()
        obs = self.observation_vector(player_id)
        know = self.know[player_id]
        rng = np.zeros(2, np.uint64)
        rng[0] = np.uint64(
            int(probability_sampler() * 2**63)
            if callable(probability_sampler)
            else int(probability_sampler.sample() * 2**63)
        )
        world = np.zeros(Off.STATE_SIZE, np.int32)
        code = sample_world_nb(
            obs,
            know,
            self._g.params_arr,
            rng,
            world,
            np.zeros(MAX_CARDS, np.int32),
            np.zeros(N_KINDS, np.int64),
            np.zeros(N_KINDS, np.int64),
        )
        if code:
            raise pyspiel.SpielError(f"cannot resample: {ERROR_TEXT[int(code)]}")
        # private fields the observation does not carry but the rules use
        world[Off.PILE_TAKES : Off.PILE_TAKES + MAX_TEAMS] = self.state[
            Off.PILE_TAKES : Off.PILE_TAKES + MAX_TEAMS
        ]
        out = self.clone()
        out.state = world
        return out

    def clone(self) -> CanastaState:
        out = CanastaState(self.get_game())
        out._g = self._g  # a state built by the lab's loop may carry rules given as a RuleSet
        out.remaining = self.remaining.copy()
        out.kinds = list(self.kinds)
        out.state = self.state.copy()
        out.know = self.know.copy()
        out.moves = list(self.moves)
        out.pile_hidden = self.pile_hidden
        return out


class CanastaObserver:
    """Strings only: the observation, or the information state (observation + knowledge +
    public history) when perfect recall is asked for."""

    def __init__(self, iig_obs_type, params) -> None:
        if params:
            raise ValueError(f"observation parameters not supported; passed {params}")
        self.perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        self.tensor = np.zeros(0, np.float32)
        self.dict: dict = {}

    def set_from(self, state: CanastaState, player: int) -> None:
        pass

    def string_from(self, state: CanastaState, player: int) -> str:
        obs = state.observation_vector(player)
        nz = np.flatnonzero(obs[: Off.HANDS + N_KINDS])
        text = f"p{player} " + " ".join(f"{i}:{obs[i]}" for i in nz)
        if state.is_chance_node():
            text += f" dealt {len(state.kinds)}"
        if self.perfect_recall:
            k = state.know[player]
            knz = np.flatnonzero(k[: Know.SNAP])
            text += " | know " + " ".join(f"{i}:{k[i]}" for i in knz)
            text += " | moves " + " ".join(f"{s}.{a}" for s, a in state.moves)
        return text


pyspiel.register_game(_game_type(), CanastaGame)
