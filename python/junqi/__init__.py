"""军棋 (Junqi, Chinese Army Chess) for Python, over the Rust rules core of the junqi project.

The main names:

- :class:`Game`: one game (any board, mode and options; from a seed, a JSON position or a
  record). Legal actions as text (``legal_actions``) and as integer ids (``legal_action_ids``,
  ``legal_action_mask``) in a fixed action space per board, ``step``, ``is_over``,
  ``outcome``, ``observation(seat)`` (the core's observation JSON) and
  ``observation_planes(seat)`` (numpy planes), ``to_json``, ``record``.
- :class:`LsaGame`: one game of 陆海空三军棋 (board ``land_sea_air``) with the same names:
  ``legal_actions``, ``legal_action_ids``, ``step``, ``last_events(seat)``, ``observation``,
  ``to_json``/``from_json``, ``record``/``from_record``; :class:`LsaBot` its built-in players.
- :class:`VecEnv`: a batch of games stepped in Rust, numpy in and out.
- :class:`Bot`: the built-in bots (``Bot("search", budget="nodes:20000")``).
- :func:`arena`: a paired match between two bots, either of them a Python policy.
- :mod:`junqi.pettingzoo` and :mod:`junqi.gym`: a PettingZoo AEC environment and a Gymnasium
  single-agent environment against a built-in bot (these need ``pettingzoo``/``gymnasium``);
  :mod:`junqi.openspiel` registers the OpenSpiel game ``python_junqi`` (needs ``open_spiel``).

See ``docs/python.md`` for a tutorial and the layout of the action ids and planes.
"""

from ._junqi import (
    Bot,
    Game,
    IllegalActionError,
    JunqiError,
    LsaBot,
    LsaGame,
    VecEnv,
    action_space_size,
    arena,
    bot_names,
    plane_names,
    square_names,
)

BOARDS = ("two_player", "three_player", "four_player", "six_player")
"""The 军棋 boards :class:`Game` plays."""

LSA_BOARD = "land_sea_air"
"""The land-sea-air board, played by :class:`LsaGame` (modes ``dark`` and ``open``)."""

MODES = ("dark", "open", "half_open", "flip")
"""The modes (``half_open`` needs teams; ``flip`` is two-player only)."""

__all__ = [
    "BOARDS",
    "LSA_BOARD",
    "MODES",
    "Bot",
    "Game",
    "IllegalActionError",
    "JunqiError",
    "LsaBot",
    "LsaGame",
    "VecEnv",
    "action_space_size",
    "arena",
    "bot_names",
    "plane_names",
    "square_names",
]
