"""Throughput of the Python bindings: prints steps per second for the direct API, the
vectorised batch and the PettingZoo AEC loop (one core unless --threads says otherwise), of
wall clock and of CPU time.

    python python/examples/bench.py [--seconds 2] [--threads 1] [--batch 1024]
"""

import argparse
import random
import time

import numpy as np

import junqi


def timed(label, seconds, body):
    """Run ``body()`` (which returns the steps it took) until ``seconds`` have passed. Prints
    steps per second of wall clock and per second of the process's CPU time (all threads), the
    figure that other work on a shared machine does not inflate."""
    steps = 0
    start, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        steps += body()
    wall = steps / (time.perf_counter() - start)
    per_cpu = steps / max(time.process_time() - cpu, 1e-9)
    print(f"{label:<58} {wall:>12,.0f} steps/s wall {per_cpu:>12,.0f} per CPU-s")
    return wall


def direct(board, seconds, seed=0, texts=False):
    """Random play through Game: legal_action_ids, a choice in Python and step_fast; with
    `texts`, the action texts and step (the events as dicts)."""
    rng = random.Random(seed)
    state = {"g": junqi.Game(board=board, seed=seed), "seed": seed}

    def body():
        g = state["g"]
        n = 0
        for _ in range(1000):
            if g.is_over():
                state["seed"] += 1
                g = state["g"] = junqi.Game(board=board, seed=state["seed"])
            if texts:
                g.step(rng.choice(g.legal_actions()))
            else:
                ids = g.legal_action_ids()
                g.step_fast(ids[rng.randrange(len(ids))])
            n += 1
        return n

    what = "texts and events" if texts else "Python choice"
    return timed(f"direct API, {board}, {what}", seconds, body)


def vectorised(board, seconds, batch, threads, observations=True):
    env = junqi.VecEnv(batch, board=board, seed=0, threads=threads, observations=observations)

    def body():
        for _ in range(10):
            env.step(env.sample_actions())
        return 10 * batch

    what = "planes + masks" if observations else "masks only"
    return timed(f"VecEnv {board}, batch {batch}, {threads} thread(s), {what}", seconds, body)


def aec(board, seconds):
    from junqi.pettingzoo import env as make_env

    e = make_env(board=board)
    e.reset(seed=0)
    rng = np.random.default_rng(0)

    def body():
        n = 0
        for _ in range(1000):
            agent = e.agent_selection
            obs, _, term, trunc, _ = e.last()
            if term or trunc:
                e.step(None)
            else:
                # nonzero of a bool view: numpy's nonzero is ~7x faster on bool than on int8.
                ids = obs["action_mask"].view(np.bool_).nonzero()[0]
                e.step(int(ids[rng.integers(len(ids))]))
            n += 1
            if not e.agents:
                e.reset()
        return n

    return timed(f"PettingZoo AEC {board}, masks, numpy choice", seconds, body)


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--seconds", type=float, default=2.0)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--batch", type=int, default=1024)
    a = p.parse_args()
    direct("two_player", a.seconds)
    direct("two_player", a.seconds, texts=True)
    direct("four_player", a.seconds)
    vectorised("two_player", a.seconds, a.batch, 1)
    vectorised("two_player", a.seconds, a.batch, 1, observations=False)
    if a.threads > 1:
        vectorised("two_player", a.seconds, a.batch, a.threads)
    vectorised("four_player", a.seconds, a.batch, a.threads)
    try:
        aec("two_player", a.seconds)
        aec("four_player", a.seconds)
    except ImportError as e:
        print(f"PettingZoo AEC: skipped ({e})")


if __name__ == "__main__":
    main()
