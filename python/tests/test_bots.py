"""The built-in bots from Python, and the arena with a Python policy as one side."""

import random

import pytest

import junqi


@pytest.mark.parametrize("name", ["random", "heuristic", "search", "beginner"])
def test_bots_play_legal_moves(name):
    g = junqi.Game(seed=4)
    bots = [junqi.Bot(name, budget="nodes:2000", seed=s) for s in range(2)]
    for _ in range(30):
        if g.is_over():
            break
        a = bots[g.to_move].choose(g)
        assert a in g.legal_actions()
        g.step(a)
    assert "random" in junqi.bot_names() and name in junqi.bot_names()


def test_bot_follows_a_game_from_json_and_four_seats():
    g = junqi.Game(board="four_player", seed=9)
    for _ in range(20):
        g.random_action()
    g = junqi.Game.from_json(g.to_json())
    bots = {s: junqi.Bot("heuristic", seed=s) for s in range(4)}
    for _ in range(40):
        if g.is_over():
            break
        g.step(bots[g.to_move].choose(g))


def test_bot_errors():
    with pytest.raises(junqi.JunqiError, match="no bot named"):
        junqi.Bot("grandmaster")
    with pytest.raises(junqi.JunqiError):
        junqi.Bot("search", budget="parsecs:3")
    g = junqi.Game(seed=1)
    g.random_playout()
    with pytest.raises(junqi.JunqiError):
        junqi.Bot("random").choose(g)


def test_arena_with_a_python_policy():
    rng = random.Random(0)
    calls = []

    def policy(obs):
        calls.append(obs["to_move"])
        # Dark play: the only enemy identity ever announced is a flag (on its marshal's loss).
        assert {pc["role"] for pc in obs["pieces"]
                if pc["seat"] != obs["observer"]["seat"]} <= {None, "flag"}
        return rng.choice(obs["legal_actions"])

    rep = junqi.arena(policy, "random", games=2, seed=3)
    assert rep["games"] == 2 and rep["bots"] == ["py:policy", "random"]
    assert rep["wins"] + rep["draws"] + rep["losses"] == 2
    assert calls and not rep["forfeits"]


def test_arena_policy_errors_forfeit():
    def broken(obs):
        raise RuntimeError("no idea")

    rep = junqi.arena(broken, "random", games=2, seed=1)
    assert rep["losses"] == 2
    assert any("no idea" in f["why"] for f in rep["forfeits"]), rep["forfeits"]
    with pytest.raises(junqi.JunqiError):
        junqi.arena(42, "random")
