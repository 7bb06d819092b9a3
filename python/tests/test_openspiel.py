"""OpenSpiel: the python_junqi game passes pyspiel's random-simulation test on every board."""

import pytest

pyspiel = pytest.importorskip("pyspiel")

import junqi.openspiel  # noqa: E402,F401  (registers python_junqi)


@pytest.mark.parametrize("params", [
    {},
    {"mode": "flip"},
    {"board": "three_player", "options": '{"landmine": "both_die"}'},
    {"board": "four_player", "mode": "half_open"},
])
def test_random_simulation(params):
    game = pyspiel.load_game("python_junqi", params)
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def test_chance_start_and_information_state():
    game = pyspiel.load_game("python_junqi", {"deals": 10, "seed": 3})
    assert game.num_distinct_actions() == junqi.action_space_size("two_player")
    s = game.new_initial_state()
    assert s.is_chance_node() and len(s.chance_outcomes()) == 10
    s.apply_action(4)
    assert s.current_player() == 0
    start = junqi.Game(seed=3 ^ ((4 * 0x9E3779B97F4A7C15) & ((1 << 64) - 1)))
    assert sorted(s.legal_actions()) == sorted(start.legal_action_ids())
    s.apply_action(s.legal_actions()[0])
    # Seat 1's information state names none of seat 0's hidden pieces.
    info = s.information_state_string(1)
    own0 = {pc["at"] for pc in start.observation(0)["pieces"] if pc["seat"] == 0}
    assert all(f'"{at}", "' not in info.splitlines()[0] for at in own0)
    assert len(s.observation_tensor(1)) == 33 * 60
    c = s.clone()
    c.apply_action(c.legal_actions()[0])
    assert c.move_number() == s.move_number() + 1
