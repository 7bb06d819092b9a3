"""The training example (python/examples/train.py) end to end on a tiny budget: the features
read from the arena's observation dicts are the planes', and a few generations of evolution
strategies (about 5 s) already beat the untrained policy (uniform random play) over a thousand
games. Every generator is seeded: the result is the same every run."""

import pathlib
import sys

import numpy as np

import junqi

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "examples"))
import train  # noqa: E402


def test_planes_from_observation_dicts_are_the_planes():
    for seed in range(4):
        g = junqi.Game(seed=seed)
        for k in range(120):
            if g.is_over():
                break
            ids = g.legal_action_ids()
            g.step_fast(ids[(k * 7919) % len(ids)])
            for s in (0, 1):
                mine = train.planes_of_observation(g.observation(s))[0]
                assert (mine == g.observation_planes(s)[: mine.shape[0]]).all()


def test_a_short_training_beats_the_untrained_policy():
    theta = train.train(generations=6, seed=1, log=lambda _: None, pop=8, slots_per_member=16,
                        plies_per_slot=800)
    assert theta.shape == (train.NUM_FEATURES,) and np.abs(theta).sum() > 0
    base, n = train.batch_score(np.zeros_like(theta), games=1024, seed=5)
    trained, m = train.batch_score(theta, games=1024, seed=5)
    assert n == m == 1024
    # Over 1 024 games the standard error of a score is at most 0.016.
    assert abs(base - 0.5) < 0.05
    assert trained > base + 0.04 and trained > 0.54, (base, trained)
    # The same parameters play through the arena's observation dicts.
    rep = train.evaluate(theta, games=20, seed=7)
    assert rep["games"] == 20 and rep["forfeits"] == []
