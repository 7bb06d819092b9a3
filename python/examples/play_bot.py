"""Play a game against a built-in bot in the terminal: you are seat 0 (South), moves as text.

    python python/examples/play_bot.py [--bot normal] [--seed 1]

Type a move such as ``a2-a3`` (``list`` shows your legal moves, ``quit`` stops).
"""

import argparse

import junqi


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--bot", default="normal")
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args()
    g = junqi.Game(seed=a.seed)
    bot = junqi.Bot(a.bot, seed=a.seed)
    while not g.is_over():
        if g.to_move == 1:
            move = bot.choose(g)
            print(f"{bot.name}: {move}  {g.step(move)}")
            continue
        mine = sorted((pc["at"], pc["role"]) for pc in g.observation(0)["pieces"] if pc["seat"] == 0)
        print("your pieces:", " ".join(f"{at}:{role}" for at, role in mine))
        text = input("your move> ").strip()
        if text == "quit":
            return
        if text == "list":
            print(" ".join(g.legal_actions()))
            continue
        try:
            print(g.step(text))
        except (junqi.IllegalActionError, junqi.JunqiError) as e:
            print(f"refused: {e}")
    print("result:", g.outcome())
    print(g.record())


if __name__ == "__main__":
    main()
