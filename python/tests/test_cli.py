"""Python and the command-line tool agree on the same seeds and positions: `junqi selfplay`,
`junqi rules legal` / `junqi rules apply` and `junqi arena`."""

import json
import random

import pytest

import junqi

K, M = 0x9E3779B97F4A7C15, (1 << 64) - 1


def selfplay_seed(seed, game):
    """The seed `junqi selfplay` gives its game `game`."""
    return seed ^ ((game * K) & M)


@pytest.mark.parametrize("board,mode", [("two_player", "dark"), ("two_player", "flip"),
                                        ("three_player", "dark"), ("four_player", "half_open"),
                                        ("six_player", "dark")])
def test_selfplay_matches(cli, board, mode):
    games, seed = 4, 12345
    out = json.loads(cli(["selfplay", "--board", board, "--mode", mode, "--games", str(games),
                          "--seed", str(seed), "--json"]))
    plies, results = 0, {}
    for i in range(games):
        g = junqi.Game(board=board, mode=mode, seed=selfplay_seed(seed, i))
        plies += g.random_playout()
        o = g.outcome()
        label = "aborted" if o["result"] == "aborted" else o["reason"]
        results[label] = results.get(label, 0) + 1
    assert (out["games"], out["plies"], out["results"]) == (games, plies, results)


@pytest.mark.parametrize("board,mode,options", [
    ("two_player", "dark", None),
    ("two_player", "flip", None),
    ("four_player", "dark", {"teams": "none", "landmine": "both_die"}),
    ("six_player", "half_open", None),
])
def test_rules_legal_and_apply_match(cli, board, mode, options):
    rng = random.Random(3)
    g = junqi.Game(board=board, mode=mode, options=options, seed=99)
    positions, applies, expected = [], [], []
    while not g.is_over() and len(positions) < 60:
        for _ in range(rng.randrange(1, 8)):
            if not g.is_over():
                g.random_action()
        if g.is_over():
            break
        pos = g.to_json()
        positions.append(json.dumps(pos))
        action = rng.choice(g.legal_actions())
        after = g.copy()
        events = after.step(action)
        applies.append(json.dumps({"position": pos, "action": action}))
        expected.append((g.legal_actions(), events, after.to_json(), after.outcome()))
    legal = [json.loads(line) for line in cli(["rules", "legal"], "\n".join(positions) + "\n").splitlines()]
    applied = [json.loads(line) for line in cli(["rules", "apply"], "\n".join(applies) + "\n").splitlines()]
    assert len(legal) == len(applied) == len(expected) > 0
    for got_legal, got_apply, (actions, events, after, outcome) in zip(legal, applied, expected):
        assert got_legal["actions"] == actions
        assert got_apply["events"] == events
        assert got_apply["position"] == after
        assert got_apply.get("outcome") == outcome
    # A refused action is refused by both.
    bad = json.dumps({"position": json.loads(positions[0]), "action": "a1-a2"})
    assert "error" in json.loads(cli(["rules", "apply"], bad + "\n"))


@pytest.mark.parametrize("board,bots", [("two_player", ["random", "heuristic"]),
                                        ("three_player", ["heuristic", "random"])])
def test_arena_matches(cli, board, bots):
    args = ["arena", "--board", board, "--games", "4", "--seed", "17", "--threads", "1", "--json"]
    for b in bots:
        args += ["--bot", b]
    out = json.loads(cli(args))
    rep = junqi.arena(bots[0], bots[1], games=4, board=board, seed=17)
    for key in ("bots", "games", "wins", "draws", "losses", "score", "results", "per_game", "per_bot"):
        assert rep[key] == out[key], key
