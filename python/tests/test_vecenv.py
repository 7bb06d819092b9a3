"""The vectorised batch: shapes, auto-reset, rewards, and refused actions that change nothing."""

import numpy as np
import pytest

import junqi


@pytest.mark.parametrize("board,mode", [("two_player", "dark"), ("two_player", "flip"),
                                        ("three_player", "dark"), ("six_player", "dark")])
def test_shapes_and_episodes(board, mode):
    n = 8
    env = junqi.VecEnv(n, board=board, mode=mode, seed=1, threads=2)
    C, S = len(junqi.plane_names(board)), len(junqi.square_names(board))
    assert env.obs.shape == (n, C, S) and env.obs.dtype == np.uint8
    assert env.mask.shape == (n, env.num_actions) and env.mask.dtype == np.bool_
    assert env.rewards.shape == (n, env.seats) and env.rewards.dtype == np.float32
    assert env.dones.shape == (n,) and env.to_move.dtype == np.int64
    assert env.mask.any(axis=1).all()
    finished = 0
    for _ in range(3000 if board == "two_player" else 1200):
        obs, mask, rewards, dones = env.step(env.sample_actions())
        assert mask.any(axis=1).all(), "every game (restarted or not) has a legal action"
        finished += int(dones.sum())
        for i in np.flatnonzero(dones):
            r = rewards[i]
            assert set(r.tolist()) <= {-1.0, 0.0, 1.0}
            assert (r == 0).all() or (r == 1).any()
        assert (rewards[~dones] == 0).all()
    assert finished > 0
    env.reset()
    assert not env.dones.any() and (env.rewards == 0).all()


def test_threads_do_not_change_results():
    a = junqi.VecEnv(16, seed=3, threads=1)
    b = junqi.VecEnv(16, seed=3, threads=2)
    for _ in range(500):
        x, y = a.sample_actions(), b.sample_actions()
        assert (x == y).all()
        a.step(x)
        b.step(y)
        assert (a.obs == b.obs).all() and (a.mask == b.mask).all()
        assert (a.rewards == b.rewards).all() and (a.dones == b.dones).all()


def test_illegal_actions_are_refused_and_nothing_moves():
    env = junqi.VecEnv(4, seed=2)
    before = [env.position_json(i) for i in range(4)]
    obs = env.obs.copy()
    acts = env.sample_actions()
    bad = acts.copy()
    bad[2] = int(np.flatnonzero(~env.mask[2])[0])
    with pytest.raises(junqi.IllegalActionError) as e:
        env.step(bad)
    assert e.value.game == 2 and e.value.code == "action.not_legal"
    # A mask changed by the caller does not let an illegal action through.
    env.mask[2, bad[2]] = True
    with pytest.raises(junqi.IllegalActionError):
        env.step(bad)
    for wrong in (np.array([-1, 0, 0, 0]), np.array([env.num_actions] * 4)):
        with pytest.raises(junqi.IllegalActionError):
            env.step(wrong)
    with pytest.raises(junqi.JunqiError):
        env.step(acts[:3])
    assert [env.position_json(i) for i in range(4)] == before
    assert (env.obs == obs).all()
    env.step(acts)
    assert [env.position_json(i) for i in range(4)] != before


def test_without_observations():
    env = junqi.VecEnv(4, seed=2, observations=False)
    assert env.obs.shape[0] == 0
    env.step(env.sample_actions())
    assert env.mask.any(axis=1).all()
    with pytest.raises(junqi.JunqiError):
        junqi.VecEnv(0)
