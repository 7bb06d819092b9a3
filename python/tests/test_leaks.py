"""No hidden identity leaks into a seat's observation, JSON or planes: changing what a seat may
not know (swapping two hidden enemy identities in the referee's position) changes nothing the
seat is shown; and what the planes show agrees with the observation JSON."""

import itertools
import random

import numpy as np
import pytest

import junqi
from conftest import RULE_SETS


def hidden_pairs(position, obs, seat):
    """Pairs of piece indices (in the position) whose identities `seat` may not know and that
    differ (flip play: face-down pieces, colour and role; otherwise enemy roles)."""
    known = {pc["at"]: pc for pc in obs["pieces"]}
    hidden = [i for i, pc in enumerate(position["pieces"]) if known[pc["at"]]["role"] is None]
    out = []
    for i, j in itertools.combinations(hidden, 2):
        a, b = position["pieces"][i], position["pieces"][j]
        if (a["role"], a["seat"]) != (b["role"], b["seat"]):
            out.append((i, j))
    return out


def swapped(position, i, j, with_seat):
    p = {**position, "pieces": [dict(pc) for pc in position["pieces"]]}
    a, b = p["pieces"][i], p["pieces"][j]
    a["role"], b["role"] = b["role"], a["role"]
    if with_seat:
        a["seat"], b["seat"] = b["seat"], a["seat"]
    return p


@pytest.mark.parametrize("board,mode,options", RULE_SETS)
def test_hidden_identities_do_not_show(board, mode, options):
    rng = random.Random(5)
    g = junqi.Game(board=board, mode=mode, options=options, seed=21)
    checked = 0
    for stage in range(4):
        for _ in range(rng.randrange(5, 60)):
            if g.is_over():
                break
            g.random_action()
        if g.is_over():
            break
        base = junqi.Game.from_json(g.to_json())
        position = base.to_json()
        for seat in range(g.seats):
            if seat in g.eliminated:
                continue
            obs = base.observation(seat)
            planes = base.observation_planes(seat)
            pairs = hidden_pairs(position, obs, seat)
            rng.shuffle(pairs)
            for i, j in pairs[:6]:
                try:
                    other = junqi.Game.from_json(swapped(position, i, j, mode == "flip"))
                except junqi.JunqiError:
                    continue  # not a valid position (e.g. a flag out of its headquarters)
                assert other.observation(seat) == obs, (seat, position["pieces"][i], position["pieces"][j])
                assert (other.observation_planes(seat) == planes).all()
                checked += 1
    assert checked > 0 or mode == "open"  # open play hides nothing


@pytest.mark.parametrize("board,mode,options", RULE_SETS)
def test_planes_agree_with_the_observation(board, mode, options):
    g = junqi.Game(board=board, mode=mode, options=options, seed=8)
    names = junqi.plane_names(board)
    squares = junqi.square_names(board)
    seats = g.seats
    roles = [n[4:] for n in names[:12]]
    for _ in range(6):
        for _ in range(40):
            if not g.is_over():
                g.random_action()
        for seat in range(seats):
            obs = g.observation(seat)
            p = g.observation_planes(seat)
            assert set(np.unique(p)) <= {0, 1}
            shown = {}  # square -> (plane, role plane or None)
            for pc in obs["pieces"]:
                at = squares.index(pc["at"])
                if pc.get("face_down"):
                    assert p[names.index("face_down"), at] == 1
                    per_piece = [i for i, n in enumerate(names[:names.index("face_down")])
                                 if not n.endswith(("_teammate", "_eliminated"))]
                    assert p[per_piece, at].sum() == 0, pc
                    continue
                s = pc["seat"]
                if mode == "flip" and obs["flip_colours"] is not None:
                    s = obs["flip_colours"].index(s)
                if s == seat:
                    assert p[roles.index(pc["role"]), at] == 1
                else:
                    k = (s - seat) % seats
                    assert p[names.index(f"seat+{k}_piece"), at] == 1
                    for r in roles:
                        want = 1 if pc["role"] == r else 0
                        assert p[names.index(f"seat+{k}_{r}"), at] == want, (pc, r)
                shown[at] = True
            # Nothing is shown on squares the observation has no piece on (the per-seat
            # constant planes aside).
            const = [i for i, n in enumerate(names) if n.endswith(("_teammate", "_eliminated"))]
            board_planes = np.delete(p, const + [names.index("last_from"), names.index("last_to")], axis=0)
            empty = [i for i in range(len(squares)) if i not in shown and not any(
                pc.get("face_down") and squares.index(pc["at"]) == i for pc in obs["pieces"])]
            assert board_planes[:, empty].sum() == 0


def test_vecenv_planes_are_the_games():
    """VecEnv game i is Game(seed = seed ^ i·K): same planes and masks step by step."""
    K, M = 0x9E3779B97F4A7C15, (1 << 64) - 1
    env = junqi.VecEnv(3, board="four_player", mode="half_open", seed=77)
    games = [junqi.Game(board="four_player", mode="half_open", seed=77 ^ ((i * K) & M)) for i in range(3)]
    for _ in range(150):
        for i, g in enumerate(games):
            assert env.to_move[i] == g.to_move
            assert (env.obs[i] == g.observation_planes()).all()
            assert (env.mask[i] == g.legal_action_mask()).all()
        a = env.sample_actions()
        env.step(a)
        for i, g in enumerate(games):
            g.step(int(a[i]))
        assert not env.dones.any()
