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


def test_threads_check_every_game_before_any_moves():
    """The legality check runs on the batch's threads: the first illegal game is named and no
    game moves, however the games are shared between the threads."""
    n = 200
    env = junqi.VecEnv(n, seed=9, threads=3)
    ref = junqi.VecEnv(n, seed=9, threads=1)
    before = [env.position_json(i) for i in (0, 69, 150, 199)]
    acts = env.sample_actions()
    assert (acts == ref.sample_actions()).all()
    bad = acts.copy()
    for g in (150, 69, 199):
        bad[g] = int(np.flatnonzero(~env.mask[g])[0])
    with pytest.raises(junqi.IllegalActionError) as e:
        env.step(bad)
    assert e.value.game == 69
    assert [env.position_json(i) for i in (0, 69, 150, 199)] == before
    for _ in range(300):
        env.step(acts)
        ref.step(acts)
        assert (env.obs == ref.obs).all() and (env.mask == ref.mask).all()
        assert (env.rewards == ref.rewards).all() and (env.dones == ref.dones).all()
        assert (env.to_move == ref.to_move).all()
        acts = env.sample_actions()
        assert (acts == ref.sample_actions()).all()


def test_without_observations():
    env = junqi.VecEnv(4, seed=2, observations=False)
    assert env.obs.shape[0] == 0
    env.step(env.sample_actions())
    assert env.mask.any(axis=1).all()
    with pytest.raises(junqi.JunqiError):
        junqi.VecEnv(0)


K = 0x9E3779B97F4A7C15


@pytest.mark.parametrize(
    "board,mode,options",
    [
        ("two_player", "dark", None),
        ("two_player", "open", None),
        ("two_player", "flip", None),
        ("two_player", "dark", {"engineer_scout": True, "landmine": "both_die"}),
        ("three_player", "dark", None),
        ("four_player", "dark", None),
        ("four_player", "half_open", {"engineer_scout": True}),
        ("six_player", "dark", None),
    ],
)
@pytest.mark.parametrize("threads", [1, 2])
def test_incremental_planes_equal_fresh_planes(board, mode, options, threads):
    """The batch keeps every seat's planes and rewrites only the squares a step touched: its
    planes must be the ones a fresh computation (Game.observation_planes) gives, every step,
    across restarts (a restarted game has no history, as a game read from JSON). The masks
    must be the referee's legal actions (the batch lists them while it steps)."""
    n = 6
    seed = 11
    env = junqi.VecEnv(n, board=board, mode=mode, options=options, seed=seed, threads=threads)
    games = [junqi.Game(board=board, mode=mode, options=options, seed=seed ^ (i * K % 2**64))
             for i in range(n)]
    steps = 1500 if board == "two_player" else 4000
    restarts = 0
    for _ in range(steps):
        for i, g in enumerate(games):
            assert env.to_move[i] == g.to_move
            assert (env.obs[i] == g.observation_planes(g.to_move)).all()
            assert sorted(np.flatnonzero(env.mask[i]).tolist()) == sorted(g.legal_action_ids())
        acts = env.sample_actions()
        env.step(acts)
        for i in range(n):
            if env.dones[i]:
                games[i] = junqi.Game.from_json(env.position_json(i))
                restarts += 1
            else:
                games[i].step_fast(int(acts[i]))
    assert restarts > 0


def test_legal_action_ids_are_the_mask():
    env = junqi.VecEnv(8, board="three_player", seed=4)
    for _ in range(50):
        games, ids = env.legal_action_ids()
        rows, cols = np.nonzero(env.mask)
        assert sorted(zip(games.tolist(), ids.tolist())) == sorted(zip(rows.tolist(), cols.tolist()))
        some = np.array([5, 2])
        g, i = env.legal_action_ids(some)
        assert g.tolist() == [5] * int(env.mask[5].sum()) + [2] * int(env.mask[2].sum())
        assert env.mask[g, i].all()
        env.step(env.sample_actions())
    with pytest.raises(junqi.JunqiError):
        env.legal_action_ids(np.array([8]))
