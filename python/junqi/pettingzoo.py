"""A PettingZoo AEC environment over :class:`junqi.Game` (needs ``pettingzoo`` and ``gymnasium``).

``junqi.pettingzoo.env(board="two_player", mode="dark", options=None)`` gives an AEC
environment with one agent per seat (``player_0`` …). Each observation is a dict:
``"observation"``, the seat's planes (``uint8 [C, squares]``, :meth:`junqi.Game.observation_planes`),
and ``"action_mask"`` (``int8 [num_actions]``, ones on the legal action ids when the agent is
to move, all zeros otherwise). Actions are the board's action ids. Rewards come at the end of
the game: +1 for every seat of the winning team, -1 for the others, 0 in a draw. A seat
eliminated while the game goes on (three, four and six seats) whose whole team is out has lost:
it gets its -1 and is terminated at once, taking its ``None`` step before the next seat moves;
a seat eliminated while a teammate plays on stays an agent that never moves (an all-zero mask)
until the game ends and its team's result is known. ``reset(seed=s)`` makes the game reproducible.
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from . import Game, action_space_size, plane_names, square_names


def env(board="two_player", mode="dark", options=None, render_mode=None, preset=None):
    """The AEC environment for a board, a mode, rule options (a dict) and a rule preset
    (``"standard"``, ``"qq"``; the options change it)."""
    return JunqiEnv(board=board, mode=mode, options=options, render_mode=render_mode,
                    preset=preset)


raw_env = env


class JunqiEnv(AECEnv):
    """军棋 as a PettingZoo AEC environment (see the module documentation)."""

    metadata = {"name": "junqi_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, board="two_player", mode="dark", options=None, render_mode=None,
                 preset=None):
        super().__init__()
        self.board, self.mode, self.rule_options = board, mode, options
        self.preset = preset
        probe = Game(board=board, mode=mode, options=options, seed=0, preset=preset)
        self._seats = probe.seats
        self._team_of = {s: team for team in probe.teams for s in team}
        self.possible_agents = [f"player_{i}" for i in range(self._seats)]
        self._agent_seat = {a: i for i, a in enumerate(self.possible_agents)}
        n = action_space_size(board)
        shape = (len(plane_names(board)), len(square_names(board)))
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(0, 1, shape, dtype=np.uint8),
                    "action_mask": spaces.Box(0, 1, (n,), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        self._num_actions = n
        self.render_mode = render_mode
        self._rng = np.random.default_rng()
        self.game = None

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed=None, options=None):
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        game_seed = int(self._rng.integers(0, 2**63))
        self.game = Game(board=self.board, mode=self.mode, options=self.rule_options,
                         seed=game_seed, preset=self.preset)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        self._out = len(self.game.eliminated)
        self._rewards_set = False
        self.agent_selection = self.possible_agents[self.game.to_move]

    def observe(self, agent):
        # Planes and mask in one call to Rust (the mask all zeros unless the agent is to move).
        planes, mask = self.game.observe_with_mask(
            self._agent_seat[agent], not self.terminations.get(agent, True)
        )
        return {"observation": planes, "action_mask": mask}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        g = self.game
        self._cumulative_rewards[agent] = 0.0
        g.step_fast(int(action))
        over = g.is_over()
        eliminated = g.eliminated
        if not over and len(eliminated) == self._out:
            # The common step: nobody is out, no reward (so none to accumulate).
            if self._rewards_set:
                self._clear_rewards()
                self._rewards_set = False
            self.agent_selection = self.possible_agents[g.to_move]
            if self.render_mode == "ansi":
                print(self.render())
            return
        self._out = len(eliminated)
        self._clear_rewards()
        self._rewards_set = True
        out = set(eliminated)
        newly_dead = []
        for a in self.agents:
            seat = self._agent_seat[a]
            team_out = all(s in out for s in self._team_of[seat])
            if not self.terminations[a] and (over or team_out):
                self.terminations[a] = True
                newly_dead.append(a)
                if not over:
                    self.rewards[a] = -1.0
        if over:
            r = g.rewards()
            for a in newly_dead:
                self.rewards[a] = float(r[self._agent_seat[a]])
        self._accumulate_rewards()
        if newly_dead:
            self._skip_agent_selection = None if over else self.possible_agents[g.to_move]
            self.agent_selection = newly_dead[0]
        else:
            self.agent_selection = self.possible_agents[g.to_move]
        if self.render_mode == "ansi":
            print(self.render())

    def render(self):
        if self.render_mode is None:
            return None
        g = self.game
        return f"{g!r} last: {g.record().splitlines()[-1]}"

    def close(self):
        pass
