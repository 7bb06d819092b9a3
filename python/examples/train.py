"""Train a policy on CPU in a few minutes that beats the `random` bot, then measure it in the
arena. numpy only.

    python python/examples/train.py [--minutes 3] [--eval-games 400] [--seed 0]

The method, evolution strategies (OpenAI-ES: antithetic Gaussian perturbations, centred-rank
fitness), on a linear softmax policy over features of each legal action computed from the
observation planes (two-player board, dark mode):

- which own piece moves (12 roles),
- an attack by that role (the destination holds an enemy piece),
- the rows it advances towards the opponent, by role,
- an attack on an enemy piece whose role is known (12 roles: announced flags),
- how deep into the opponent's half the destination lies.

All zeros is the uniform random policy (the `random` bot's play), the untrained baseline. The
fitness of a parameter vector is its score against uniform random play in a batch of games
(`junqi.VecEnv`, each game's seat 1 or seat 0 played by the policy, the other by random
choice). The result is then played in `junqi.arena` against the built-in `random` bot (paired
deals, sides swapped) through the observation dicts the arena hands to a Python policy, and the
arena's score and 95% confidence interval are printed.
"""

import argparse
import time

import numpy as np

import junqi

BOARD = "two_player"
SQUARES = 60
COLS = 5
ROWS = SQUARES // COLS
ROLES = 12
ENEMY = 12  # plane of "a piece of the other seat" (two-player: slot 1)
NUM_FEATURES = 4 * ROLES + 1
ROW_OF = np.arange(SQUARES) // COLS


def square_facts(planes):
    """Per game and square, from planes [G, C, 60] (only planes 0-24 are read): the own role
    there (0-11; 0 also where there is no own piece), whether an enemy piece stands there, and
    the enemy's known role there (0-11, 12 where unknown or no enemy piece). Three [G, 60]."""
    own = planes[:, :ROLES, :].argmax(1)
    enemy = planes[:, ENEMY, :]
    known_planes = planes[:, ENEMY + 1:ENEMY + 1 + ROLES, :]
    known = np.where(known_planes.any(1), known_planes.argmax(1), ROLES)
    return own, enemy, known


def action_logits(params, facts, rows, ids, seats):
    """Logits of legal actions ``ids`` (moves ``from·60 + to``), the ``rows`` of ``facts``
    (:func:`square_facts`) they belong to, seen by ``seats``; ``params`` [L, NUM_FEATURES] is
    the parameter vector of each action's game. The features: the moving role (one-hot), an
    attack by that role, its rows forward (clipped to ±2, halved) by role, the known role of the
    attacked piece, the depth of the destination in the opponent's half (0-1)."""
    own, enemy, known = facts
    frm, to = ids // SQUARES, ids % SQUARES
    role = own[rows, frm]
    e = enemy[rows, to]
    k = known[rows, to]
    sign = np.where(seats == 0, 1, -1)
    fwd = np.clip((ROW_OF[to] - ROW_OF[frm]) * sign, -2, 2) / 2.0
    depth_row = np.where(seats == 0, ROW_OF[to], ROWS - 1 - ROW_OF[to])
    depth = np.clip(depth_row - (ROWS // 2 - 1), 0, None) / (ROWS // 2)
    idx = np.arange(len(ids))
    known_w = np.concatenate([params[:, 36:48], np.zeros((len(ids), 1), params.dtype)], 1)
    return (params[idx, role] + e * params[idx, 12 + role] + fwd * params[idx, 24 + role]
            + known_w[idx, k] + depth * params[:, 48])


def sample_per_segment(logits, seg, rng):
    """One entry per segment (``seg`` sorted: each entry's segment) drawn from the softmax of
    ``logits`` within it (the Gumbel-max trick). Returns the chosen entries' indices."""
    g = logits + rng.gumbel(size=logits.shape)
    starts = np.flatnonzero(np.r_[True, seg[1:] != seg[:-1]])
    best = np.maximum.reduceat(g, starts)
    counts = np.diff(np.r_[starts, len(seg)])
    hit = np.flatnonzero(g == np.repeat(best, counts))
    # The first hit of each segment (ties have probability zero, but be exact).
    first = np.r_[True, seg[hit][1:] != seg[hit][:-1]]
    return hit[first]


class Trainer:
    """ES over a batch of games: slot ``b`` belongs to population member ``b % pop``, and the
    policy plays seat ``(b // pop) % 2`` of it."""

    def __init__(self, pop=16, slots_per_member=32, sigma=0.5, lr=1.0, seed=0):
        assert pop % 2 == 0
        self.pop, self.sigma, self.lr = pop, sigma, lr
        self.n = pop * slots_per_member
        self.env = junqi.VecEnv(self.n, board=BOARD, seed=seed)
        self.rng = np.random.default_rng(seed)
        self.member = np.arange(self.n) % pop
        self.policy_seat = (np.arange(self.n) // pop) % 2
        self.theta = np.zeros(NUM_FEATURES, dtype=np.float32)
        self.generation = 0
        self.plies = 0

    def play(self, params, plies, counted_from_start=False, score=None, count=None):
        """Play ``plies`` steps of every game, member ``m`` with ``params[m]``; adds the finished
        games' scores (win 1, draw 1/2, loss 0 for the policy) per member into ``score`` and
        ``count`` and returns them. Only games started here count (a game under way was played
        partly with other parameters), unless ``counted_from_start`` (a new batch)."""
        score = np.zeros(len(params)) if score is None else score
        count = np.zeros(len(params)) if count is None else count
        fresh = np.full(self.n, counted_from_start)
        env = self.env
        for _ in range(plies):
            actions = env.sample_actions()
            mine = np.flatnonzero(env.to_move == self.policy_seat)
            if len(mine):
                games, ids = env.legal_action_ids(mine)
                facts = square_facts(env.obs[mine])
                rows = np.searchsorted(mine, games)
                member = self.member[games]
                logits = action_logits(params[member], facts, rows, ids, self.policy_seat[games])
                pick = sample_per_segment(logits, games, self.rng)
                actions[games[pick]] = ids[pick]
            env.step(actions)
            self.plies += self.n
            done = np.flatnonzero(env.dones)
            if len(done):
                counted = done[fresh[done]]
                r = env.rewards[counted, self.policy_seat[counted]]
                np.add.at(score, self.member[counted], (r + 1) / 2)
                np.add.at(count, self.member[counted], 1)
                fresh[done] = True
        return score, count

    def run_generation(self, plies_per_slot=1500):
        """One ES step: play every perturbation, update ``theta``; returns the population's mean
        score against random and the number of games it is over."""
        half = self.rng.standard_normal((self.pop // 2, NUM_FEATURES)).astype(np.float32)
        eps = np.concatenate([half, -half])
        params = self.theta[None, :] + self.sigma * eps
        score, count = self.play(params, plies_per_slot, counted_from_start=self.generation == 0)
        fitness = score / np.maximum(count, 1)
        ranks = np.empty(self.pop)
        ranks[np.argsort(fitness)] = np.arange(self.pop)
        centred = ranks / (self.pop - 1) - 0.5
        grad = (centred[:, None] * eps).sum(0) / (self.pop * self.sigma)
        self.theta = self.theta + self.lr * grad.astype(np.float32)
        self.generation += 1
        return float(fitness.mean()), int(count.sum())


def batch_score(theta, games=1024, seed=99, batch=256):
    """The score of ``theta`` against uniform random play over the first ``games / batch``
    games of every game slot of a fresh batch (half with the policy as seat 0): a fast check in
    the batch rather than the arena. Every slot's first games count, however long they take
    (counting whatever finishes in a time window would favour short games)."""
    t = Trainer(pop=2, slots_per_member=batch // 2, seed=seed)
    per_slot = -(-games // batch)
    params = np.stack([theta, theta]).astype(np.float32)
    env = t.env
    total, finished = 0.0, np.zeros(t.n, dtype=np.int64)
    while (finished < per_slot).any():
        actions = env.sample_actions()
        mine = np.flatnonzero(env.to_move == t.policy_seat)
        if len(mine):
            g, ids = env.legal_action_ids(mine)
            facts = square_facts(env.obs[mine])
            logits = action_logits(params[t.member[g]], facts, np.searchsorted(mine, g), ids,
                                   t.policy_seat[g])
            pick = sample_per_segment(logits, g, t.rng)
            actions[g[pick]] = ids[pick]
        env.step(actions)
        done = np.flatnonzero(env.dones & (finished < per_slot))
        total += float(((env.rewards[done, t.policy_seat[done]] + 1) / 2).sum())
        finished[done] += 1
    return total / finished.sum(), int(finished.sum())


def train(seconds=None, generations=None, seed=0, log=print, plies_per_slot=1500, **kw):
    """Train for about ``seconds`` of wall clock or for ``generations`` (whole generations, at
    least one); returns the parameters. ``kw`` goes to :class:`Trainer`."""
    t = Trainer(seed=seed, **kw)
    start = time.perf_counter()
    while t.generation == 0 or (
        (seconds is None or time.perf_counter() - start < seconds)
        and (generations is None or t.generation < generations)
    ):
        mean, games = t.run_generation(plies_per_slot)
        log(f"generation {t.generation:3d}: population's mean score vs random {mean:.3f} "
            f"({games} games), {t.plies:,} plies, {time.perf_counter() - start:.0f} s")
    return t.theta


def planes_of_observation(obs):
    """The planes the features use (own roles, enemy pieces, known enemy roles: planes 0-24 of
    ``Game.observation_planes``), built from an observation dict as the arena gives it."""
    index, roles = SQUARE_INDEX, ROLE_INDEX
    me = obs["observer"]["seat"]
    p = np.zeros((1, 2 * ROLES + 1, SQUARES), dtype=np.uint8)
    for pc in obs["pieces"]:
        sq = index[pc["at"]]
        if pc["seat"] == me:
            p[0, roles[pc["role"]], sq] = 1
        elif pc["seat"] is not None:
            p[0, ENEMY, sq] = 1
            if pc["role"] is not None:
                p[0, ENEMY + 1 + roles[pc["role"]], sq] = 1
    return p


ROLE_INDEX = {n[len("own_"):]: i for i, n in enumerate(junqi.plane_names(BOARD)[:ROLES])}
SQUARE_INDEX = {name: i for i, name in enumerate(junqi.square_names(BOARD))}


def make_policy(theta, seed=0, greedy=False):
    """A policy for ``junqi.arena`` (observation dict -> action text) playing ``theta``."""
    rng = np.random.default_rng(seed)
    index = SQUARE_INDEX

    def policy(obs):
        legal = obs["legal_actions"]
        moves = [a.split("-") for a in legal]
        ids = np.array([index[f] * SQUARES + index[t] for f, t in moves])
        facts = square_facts(planes_of_observation(obs))
        rows = np.zeros(len(legal), dtype=np.int64)
        seats = np.full(len(legal), obs["observer"]["seat"])
        logits = action_logits(np.broadcast_to(theta, (len(legal), NUM_FEATURES)), facts, rows,
                               ids, seats)
        if greedy:
            k = int(np.argmax(logits + 1e-6 * rng.random(len(logits))))
        else:
            k = int(sample_per_segment(logits, rows, rng)[0])
        return legal[k]

    return policy


def evaluate(theta, games=400, seed=12345, greedy=False):
    """``theta`` against the built-in ``random`` bot in the arena; returns the report."""
    return junqi.arena(make_policy(theta, seed=seed, greedy=greedy), "random", games=games,
                       board=BOARD, seed=seed)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--minutes", type=float, default=3.0)
    p.add_argument("--eval-games", type=int, default=400)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--save", help="write the parameters to this .npy file")
    a = p.parse_args()
    cpu = time.process_time()
    theta = train(a.minutes * 60, seed=a.seed)
    print(f"trained in {time.process_time() - cpu:.0f} CPU-s; parameters:")
    print(np.array2string(theta, precision=2, max_line_width=100))
    if a.save:
        np.save(a.save, theta)
    for name, th in (("untrained (all zeros: uniform random)", np.zeros_like(theta)),
                     ("trained", theta)):
        quick, n = batch_score(th, seed=a.seed + 2)
        print(f"{name} vs uniform random in the batch: score {quick:.3f} over {n} games")
        rep = evaluate(th, games=a.eval_games, seed=a.seed + 1)
        print(f"{name} vs random: {rep['games']} games, +{rep['wins']} ={rep['draws']} "
              f"-{rep['losses']}, score {rep['score']:.3f} "
              f"(95% CI {rep['ci_low']:.3f}-{rep['ci_high']:.3f}), "
              f"{rep['avg_plies']:.0f} plies a game")


if __name__ == "__main__":
    main()
