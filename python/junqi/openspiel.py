"""An OpenSpiel game over :class:`junqi.Game` (needs ``open_spiel``).

Importing this module registers ``python_junqi`` with pyspiel::

    import pyspiel, junqi.openspiel
    game = pyspiel.load_game("python_junqi", {"board": "two_player", "mode": "dark"})

Parameters: ``board`` and ``mode`` (as :class:`junqi.Game` takes them), ``options`` (the rule
options as a JSON object in a string, ``"{}"`` for the defaults), ``preset`` (a rule preset,
``"qq"`` or ``"standard"``, that the options change; ``""`` for none), ``deals`` (how many starts
the opening chance node chooses among, default 1000) and ``seed``. The game begins with one
chance node: outcome ``k`` (uniform over ``deals``) is the start ``Game(seed = seed ^ k·K)``,
the random deployments (flip play: the deal) that no player observes beyond their own pieces.
Then every seat moves in turn; actions are the board's action ids (``docs/python.md``). The
returns are +1 for the winning team's seats, -1 for the others, 0 for a draw.

Observations: ``observation_tensor`` is the player's planes (``Game.observation_planes``,
flattened, as floats) and ``observation_string`` its observation JSON. ``information_state_string``
is the player's own start (its pieces as the first observation shows them) followed by the
referee's announcements of every step (moves, attacks and their results, flips: all public),
which is perfect recall.
"""

from __future__ import annotations

import json

import numpy as np
import pyspiel

from . import Game, action_space_size

K, M = 0x9E3779B97F4A7C15, (1 << 64) - 1

_DEFAULTS = {"board": "two_player", "mode": "dark", "options": "{}", "preset": "", "deals": 1000,
             "seed": 0}


def _game_type(players):
    return pyspiel.GameType(
        short_name="python_junqi",
        long_name="Python Junqi (军棋)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=(pyspiel.GameType.Utility.ZERO_SUM if players == 2
                 else pyspiel.GameType.Utility.GENERAL_SUM),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=6,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_DEFAULTS,
    )


def _options(text):
    opts = json.loads(text) if text else {}
    return opts or None


class JunqiGame(pyspiel.Game):
    """军棋 for OpenSpiel (see the module documentation)."""

    def __init__(self, params=None):
        p = {**_DEFAULTS, **(params or {})}
        self.board, self.mode = p["board"], p["mode"]
        self.rule_options = _options(p["options"])
        self.preset = p["preset"] or None
        self.deals, self.seed = int(p["deals"]), int(p["seed"])
        if self.deals < 1:
            raise ValueError("deals must be at least 1")
        probe = Game(board=self.board, mode=self.mode, options=self.rule_options, seed=0,
                     preset=self.preset)
        self.seats = probe.seats
        self.planes_shape = probe.planes_shape
        info = pyspiel.GameInfo(
            num_distinct_actions=action_space_size(self.board),
            max_chance_outcomes=self.deals,
            num_players=self.seats,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0 if self.seats == 2 else None,
            max_game_length=int(probe.options["max_plies"]) + 1,
        )
        super().__init__(_game_type(self.seats), info, p)

    def new_initial_state(self):
        return JunqiState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return JunqiObserver(self, perfect_recall)


class JunqiState(pyspiel.State):
    """A state: before the opening chance node, or a game in progress."""

    def __init__(self, game):
        super().__init__(game)
        self._g = None
        self._start = None  # each seat's first observation of its own pieces
        self._history = []  # every step's announcements (all public), as JSON text

    def current_player(self):
        if self._g is None:
            return pyspiel.PlayerId.CHANCE
        if self._g.is_over():
            return pyspiel.PlayerId.TERMINAL
        return self._g.to_move

    def _legal_actions(self, player):
        return sorted(self._g.legal_action_ids())

    def chance_outcomes(self):
        n = self.get_game().deals
        return [(k, 1.0 / n) for k in range(n)]

    def _apply_action(self, action):
        if self._g is None:
            game = self.get_game()
            self._g = Game(board=game.board, mode=game.mode, options=game.rule_options,
                           seed=game.seed ^ ((int(action) * K) & M), preset=game.preset)
            self._start = [
                json.dumps(sorted((pc["at"], pc["role"]) for pc in self._g.observation(s)["pieces"]
                                  if pc["seat"] == s and pc["role"] is not None))
                for s in range(game.seats)
            ]
        else:
            self._history.append(json.dumps(self._g.step(int(action)), sort_keys=True))

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {action}"
        game = self.get_game()
        probe = self._g if self._g is not None else Game(board=game.board, mode=game.mode,
                                                         options=game.rule_options,
                                                         preset=game.preset)
        return probe.action_text(int(action))

    def is_terminal(self):
        return self._g is not None and self._g.is_over()

    def returns(self):
        if self._g is None:
            return [0.0] * self.get_game().seats
        return [float(r) for r in self._g.rewards()]

    def __str__(self):
        if self._g is None:
            return "chance: the deal"
        return json.dumps(self._g.to_json(), sort_keys=True)

    def __deepcopy__(self, memo):
        other = JunqiState(self.get_game())
        other._g = None if self._g is None else self._g.copy()
        other._start = self._start
        other._history = list(self._history)
        return other

    # What a player may know.
    def _observation_string(self, player):
        if self._g is None:
            return ""
        return json.dumps(self._g.observation(player), sort_keys=True)

    def _information_state_string(self, player):
        if self._g is None:
            return ""
        return "\n".join([self._start[player], *self._history])


class JunqiObserver:
    """The observer pyspiel asks for: planes (``tensor``) and strings."""

    def __init__(self, game, perfect_recall):
        self.perfect_recall = perfect_recall
        c, n = game.planes_shape
        if perfect_recall:
            self.tensor = np.zeros(0, np.float32)
            self.dict = {}
        else:
            self.tensor = np.zeros(c * n, np.float32)
            self.dict = {"planes": self.tensor.reshape(c, n)}

    def set_from(self, state, player):
        if self.perfect_recall:
            return
        if state._g is None:
            self.tensor.fill(0)
        else:
            self.tensor[:] = state._g.observation_planes(player).ravel()

    def string_from(self, state, player):
        if self.perfect_recall:
            return state._information_state_string(player)
        return state._observation_string(player)


pyspiel.register_game(_game_type(2), JunqiGame)

__all__ = ["JunqiGame", "JunqiState", "JunqiObserver"]
