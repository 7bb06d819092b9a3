"""A Gymnasium single-agent environment: one seat against built-in bots (needs ``gymnasium``).

``junqi.gym.JunqiEnv(board="two_player", mode="dark", opponent="random", seat=0)`` plays
``seat``; every other seat (teammates included) is a :class:`junqi.Bot` named ``opponent``
(with ``budget``). Observations are the seat's planes (``uint8 [C, squares]``); actions are
action ids; ``info["action_mask"]`` (``int8``) marks the legal ones. An illegal action
(``illegal_action="lose"``, the default) ends the episode with reward -1 and
``info["illegal_action"] = True``, the game unchanged; with ``illegal_action="raise"`` it raises
:class:`junqi.IllegalActionError` and changes nothing. The reward is +1 when the seat's team
wins, -1 when it loses, 0 otherwise; the episode terminates when the game ends (a seat
eliminated early watches the bots play the game to its end within that step).
"""

from __future__ import annotations

import gymnasium
import numpy as np
from gymnasium import spaces

from . import Bot, Game, IllegalActionError, action_space_size, plane_names, square_names


class JunqiEnv(gymnasium.Env):
    """One seat of 军棋 against built-in bots (see the module documentation)."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, board="two_player", mode="dark", options=None, opponent="random",
                 budget=None, seat=0, illegal_action="lose", render_mode=None, preset=None):
        if illegal_action not in ("lose", "raise"):
            raise ValueError('illegal_action is "lose" or "raise"')
        self.illegal_action = illegal_action
        self.board, self.mode, self.rule_options = board, mode, options
        self.preset = preset
        # Bad rules are an error here, not at the first reset.
        Game(board=board, mode=mode, options=options, seed=0, preset=preset)
        self.opponent, self.budget, self.seat = opponent, budget, seat
        self.render_mode = render_mode
        shape = (len(plane_names(board)), len(square_names(board)))
        self.observation_space = spaces.Box(0, 1, shape, dtype=np.uint8)
        self.action_space = spaces.Discrete(action_space_size(board))
        self.game = None
        self.bots = {}

    def _play_bots(self):
        g = self.game
        # An eliminated seat never moves again: the bots then play the game to its end.
        while not g.is_over() and g.to_move != self.seat:
            g.step(self.bots[g.to_move].choose(g))

    def _result(self):
        g = self.game
        obs = g.observation_planes(self.seat)
        if g.to_move == self.seat and not g.is_over():
            mask = g.legal_action_mask().view(np.int8)
        else:
            mask = np.zeros(self.action_space.n, dtype=np.int8)
        return obs, {"action_mask": mask, "to_move": g.to_move}

    def reset(self, seed=None, options=None):
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(0, 2**63))
        self.game = Game(board=self.board, mode=self.mode, options=self.rule_options,
                         seed=game_seed, preset=self.preset)
        if not 0 <= self.seat < self.game.seats:
            raise ValueError(f"seat {self.seat} does not exist on the {self.board} board")
        self.bots = {
            s: Bot(self.opponent, budget=self.budget, seed=game_seed + s)
            for s in range(self.game.seats)
            if s != self.seat
        }
        self._play_bots()
        return self._result()

    def step(self, action):
        g = self.game
        try:
            g.step_fast(int(action))
        except IllegalActionError:
            if self.illegal_action == "raise":
                raise
            obs, info = self._result()
            info["illegal_action"] = True
            return obs, -1.0, True, False, info
        self._play_bots()
        reward = float(g.rewards()[self.seat])
        obs, info = self._result()
        return obs, reward, g.is_over(), False, info

    def render(self):
        if self.render_mode == "ansi":
            return repr(self.game)
        return None
