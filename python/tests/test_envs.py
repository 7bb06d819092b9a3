"""PettingZoo and Gymnasium conformance (api_test, seed_test, check_env), every board."""

import numpy as np
import pytest

pettingzoo = pytest.importorskip("pettingzoo")
gymnasium = pytest.importorskip("gymnasium")

from pettingzoo.test import api_test, seed_test  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402

import junqi  # noqa: E402
import junqi.gym  # noqa: E402
import junqi.pettingzoo  # noqa: E402


@pytest.mark.parametrize("board,mode,options", [
    ("two_player", "dark", None),
    ("two_player", "flip", None),
    ("three_player", "dark", None),
    ("four_player", "half_open", None),
    ("six_player", "dark", {"teams": "none"}),
])
def test_pettingzoo_api_and_seed(board, mode, options):
    api_test(junqi.pettingzoo.env(board=board, mode=mode, options=options), num_cycles=400)
    seed_test(lambda: junqi.pettingzoo.env(board=board, mode=mode, options=options), num_cycles=100)


def test_pettingzoo_plays_whole_games_with_eliminations():
    env = junqi.pettingzoo.env(board="four_player", options={"teams": "none"})
    rng = np.random.default_rng(0)
    for episode in range(3):
        env.reset(seed=episode)
        totals = {a: 0.0 for a in env.possible_agents}
        removed_mid_game = 0
        for agent in env.agent_iter():
            obs, reward, term, trunc, _ = env.last()
            totals[agent] += reward
            if term or trunc:
                if not env.game.is_over():
                    removed_mid_game += 1
                env.step(None)
                continue
            mask = obs["action_mask"]
            assert mask.dtype == np.int8 and mask.any()
            env.step(int(rng.choice(np.flatnonzero(mask))))
        assert env.game.is_over() and not env.agents
        r = env.game.rewards()
        assert [totals[a] for a in env.possible_agents] == r


def test_gymnasium_env():
    check_env(junqi.gym.JunqiEnv(), skip_render_check=True)
    env = junqi.gym.JunqiEnv(board="three_player", opponent="random")
    obs, info = env.reset(seed=1)
    assert obs.shape == env.observation_space.shape
    episodes = 0
    for _ in range(5000):
        action = int(np.flatnonzero(info["action_mask"])[0])
        obs, reward, done, trunc, info = env.step(action)
        if done:
            assert reward in (-1.0, 0.0, 1.0)
            episodes += 1
            obs, info = env.reset()
            if episodes == 2:
                break
    assert episodes == 2
    # An illegal action loses by default, or raises.
    obs, info = env.reset(seed=2)
    bad = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, done, _, info = env.step(bad)
    assert done and reward == -1.0 and info["illegal_action"]
    strict = junqi.gym.JunqiEnv(illegal_action="raise")
    _, info = strict.reset(seed=2)
    with pytest.raises(junqi.IllegalActionError):
        strict.step(int(np.flatnonzero(info["action_mask"] == 0)[0]))


def test_envs_take_a_rule_preset():
    env = junqi.pettingzoo.env(board="four_player", preset="qq")
    api_test(env, num_cycles=200)
    env.reset(seed=1)
    assert env.game.preset == "qq" and env.game.options["blocked"] == "out_at_once"
    g = junqi.gym.JunqiEnv(board="four_player", preset="qq")
    g.reset(seed=2)
    assert g.game.preset == "qq" and g.game.table_rules == {"leaver": "partner_plays_on"}
    with pytest.raises(ValueError, match="qq"):
        junqi.gym.JunqiEnv(board="three_player", preset="qq")
