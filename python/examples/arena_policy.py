"""A Python policy in the arena against a built-in bot, with the arena's statistics.

    python python/examples/arena_policy.py [--bot heuristic] [--games 20]

The policy here prefers attacks (an action onto a square holding an enemy piece), else moves
at random: a few lines to show the shape of a policy, not a strong player.
"""

import argparse
import random


import junqi


def make_policy(seed):
    rng = random.Random(seed)

    def attacker(obs):
        me = obs["observer"]["seat"]
        enemy = {pc["at"] for pc in obs["pieces"] if pc["seat"] is not None and pc["seat"] != me}
        attacks = [a for a in obs["legal_actions"] if "-" in a and a.split("-")[1] in enemy]
        return rng.choice(attacks or obs["legal_actions"])

    return attacker


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--bot", default="heuristic")
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--board", default="two_player")
    p.add_argument("--seed", type=int, default=0)
    a = p.parse_args()
    rep = junqi.arena(make_policy(a.seed), a.bot, games=a.games, board=a.board, seed=a.seed)
    print(f"{rep['bots'][0]} vs {rep['bots'][1]}: {rep['games']} games, "
          f"+{rep['wins']} ={rep['draws']} -{rep['losses']}, score {rep['score']:.3f} "
          f"(95% CI {rep['ci_low']:.3f}-{rep['ci_high']:.3f}), {rep['avg_plies']:.0f} plies a game")
    for f in rep["forfeits"]:
        print("forfeit:", f)


if __name__ == "__main__":
    main()
