"""陆海空三军棋 (board ``land_sea_air``) from Python: ``junqi.LsaGame`` agrees with the command
line on the same seeds, reads back its own positions and records, refuses bad input without
changing anything, and gives each seat only what it may know of a look."""

import json
import random

import pytest

import junqi
from test_cli import selfplay_seed


def test_selfplay_matches_the_command_line(cli):
    games, seed = 4, 777
    out = json.loads(cli(["selfplay", "--board", "land_sea_air", "--games", str(games),
                          "--seed", str(seed), "--threads", "1", "--json"]))
    plies, results = 0, {}
    for i in range(games):
        g = junqi.LsaGame(seed=selfplay_seed(seed, i))
        plies += g.random_playout()
        assert g.is_over()
        reason = g.outcome()["reason"]
        results[reason] = results.get(reason, 0) + 1
    assert (out["games"], out["plies"], out["results"]) == (games, plies, results)


def test_legal_actions_ids_and_steps():
    g = junqi.LsaGame(mode="open", seed=3)
    assert (g.board, g.mode, g.to_move, g.plies) == ("land_sea_air", "open", 0, 0)
    texts, ids = g.legal_actions(), g.legal_action_ids()
    assert texts and len(texts) == len(ids) == len(set(ids))
    assert all(0 <= i < g.num_actions for i in ids)
    assert [g.action_id(t) for t in texts] == ids
    h = g.copy()
    events = g.step(texts[0])
    h.step(ids[0])
    assert g.to_json() == h.to_json() and g.plies == 1
    assert all("kind" in e for e in events)


def test_bad_input_changes_nothing():
    g = junqi.LsaGame(seed=4)
    before = g.to_json()
    with pytest.raises(junqi.JunqiError, match="not an action"):
        g.step("nonsense")
    with pytest.raises(junqi.JunqiError, match="outside"):
        g.step(g.num_actions)
    with pytest.raises(junqi.JunqiError):
        g.step("e1-e15")
    with pytest.raises(junqi.JunqiError, match="dark or open"):
        junqi.LsaGame(mode="flip")
    with pytest.raises(junqi.JunqiError, match="rail_max"):
        junqi.LsaGame(options={"rail_max": -1})
    with pytest.raises(junqi.JunqiError, match="LsaGame"):
        junqi.Game(board="land_sea_air")
    with pytest.raises(junqi.JunqiError, match="seat 2"):
        g.observation(2)
    assert g.to_json() == before


def test_positions_and_records_read_back():
    g = junqi.LsaGame(seed=9)
    for _ in range(40):
        if g.is_over():
            break
        g.random_action()
    back = junqi.LsaGame.from_json(g.to_json())
    assert back.to_json() == g.to_json()
    assert back.legal_actions() == g.legal_actions()
    for rec in (g.record(), g.record_json(), json.dumps(g.record_json())):
        again = junqi.LsaGame.from_record(rec)
        assert again.to_json() == g.to_json()
        assert again.record() == g.record()
    with pytest.raises(junqi.JunqiError):
        junqi.LsaGame.from_record("board land_sea_air\nnot a record")


def test_a_look_reaches_only_its_owner():
    """Over random games: a look's result is in the events of the scout's owner only, and a
    spectator's view of the piece looked at is what it was before the look, unless the scout
    was shot down (public: only an anti-aircraft gun shoots a scout plane down)."""
    looks = 0
    for seed in range(30):
        g = junqi.LsaGame(seed=seed)
        rng = random.Random(seed)
        while not g.is_over() and g.plies < 300:
            acts = g.legal_actions()
            scouts = [a for a in acts if a.startswith("scout")]
            mover, other = g.to_move, 1 - g.to_move
            public_before = {p["at"]: p.get("role") for p in g.observation("public")["pieces"]}
            a = rng.choice(scouts) if scouts and rng.random() < 0.5 else rng.choice(acts)
            events = g.step(a)
            private = [e for e in events if e["kind"] == "scouted_private"]
            assert private == [e for e in g.last_events(mover) if e["kind"] == "scouted_private"]
            assert not any(e["kind"] == "scouted_private" for e in g.last_events(other))
            shot = any(e["kind"] == "scout" and e["result"] == "shot_down" for e in events)
            if private and not shot:
                looks += 1
                at = private[0]["at"]
                public_now = {p["at"]: p.get("role") for p in g.observation("public")["pieces"]}
                if at in public_now:
                    assert public_now[at] == public_before[at], (seed, a)
    assert looks > 0, "the sweep saw no look"


def play(bots, seed, max_plies=2000):
    """Play an LsaGame between two LsaBots (South first); the game at its end."""
    g = junqi.LsaGame(seed=seed)
    while not g.is_over() and g.plies < max_plies:
        a = bots[g.to_move].choose(g)
        assert a in g.legal_actions()
        g.step(a)
    return g


def test_built_in_players_play_from_python():
    assert junqi.LsaBot("普通").name == "heuristic"
    assert junqi.LsaBot("search@depth=4").name == "search"
    with pytest.raises(junqi.JunqiError, match="random, heuristic, search"):
        junqi.LsaBot("minimax")
    wins = 0
    for seed in range(4):
        h, r = junqi.LsaBot("heuristic", seed=seed), junqi.LsaBot("random", seed=seed)
        bots = [h, r] if seed % 2 == 0 else [r, h]
        g = play(bots, seed)
        o = g.outcome()
        if o and o["result"] == "win" and o["winners"] == [seed % 2]:
            wins += 1
    assert wins >= 3, f"the heuristic won {wins} of 4 against random"


def test_a_player_is_reproducible_and_follows_a_game_it_joins_late():
    one = [junqi.LsaBot("search", budget="nodes:300", seed=5) for _ in range(2)]
    two = [junqi.LsaBot("search", budget="nodes:300", seed=5) for _ in range(2)]
    a, b = play(one, 8, max_plies=60), play(two, 8, max_plies=60)
    assert a.record() == b.record()
    # A fresh player asked in the middle of a game replays it first, and answers legally.
    assert not a.is_over()
    late = junqi.LsaBot("heuristic")
    assert late.choose(a) in a.legal_actions()
