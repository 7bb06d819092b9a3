"""The direct API: games on every board and mode, actions as text and ids, records, errors."""

import json
import random

import numpy as np
import pytest

import junqi
from conftest import RULE_SETS


@pytest.mark.parametrize("board,mode,options", RULE_SETS)
def test_random_game_to_the_end(board, mode, options):
    g = junqi.Game(board=board, mode=mode, options=options, seed=7)
    assert g.board == board and g.mode == mode
    n = len(junqi.square_names(board))
    assert g.num_actions == n * n + n == junqi.action_space_size(board)
    assert g.planes_shape == (len(junqi.plane_names(board)), n)
    rng = random.Random(1)
    steps = 0
    while not g.is_over():
        texts, ids = g.legal_actions(), g.legal_action_ids()
        assert len(texts) == len(ids) > 0
        assert [g.action_id(t) for t in texts] == ids
        assert [g.action_text(i) for i in ids] == texts
        mask = g.legal_action_mask()
        assert mask.dtype == np.bool_ and mask.shape == (g.num_actions,)
        assert sorted(np.flatnonzero(mask).tolist()) == sorted(ids)
        if steps % 50 == 0:
            obs = g.observation()
            assert obs["legal_actions"] == texts
            assert g.observation_planes().shape == g.planes_shape
        k = rng.randrange(len(ids))
        events = g.step(texts[k] if steps % 2 else ids[k])
        assert isinstance(events, list) and events
        assert events[0]["kind"] in ("move", "attack", "flip")
        steps += 1
    assert g.legal_actions() == [] and not g.legal_action_mask().any()
    out = g.outcome()
    assert out["result"] in ("win", "draw", "aborted")
    r = g.rewards()
    assert len(r) == g.seats
    if out["result"] == "win":
        assert {s for s in range(g.seats) if r[s] == 1} == set(out["winners"])
    else:
        assert set(r) == {0.0}
    # The record replays to the same position, in both forms.
    for rec in (g.record(), g.record_json(), json.dumps(g.record_json())):
        again = junqi.Game.from_record(rec)
        assert again.to_json() == g.to_json()
        assert again.outcome() == out
        assert (again.observation_planes(0) == g.observation_planes(0)).all()


def test_same_seed_same_game_and_json_round_trip():
    a, b = junqi.Game(seed=42), junqi.Game(seed=42)
    assert a.to_json() == b.to_json()
    assert junqi.Game(seed=43).to_json() != a.to_json()
    for _ in range(30):
        a.random_action()
    c = junqi.Game.from_json(a.to_json())
    assert c.to_json() == a.to_json()
    assert c.legal_actions() == a.legal_actions()
    c2 = junqi.Game.from_json(json.dumps(a.to_json()))
    assert c2.to_json() == a.to_json()
    d = a.copy()
    d.random_action()
    assert d.plies == a.plies + 1


def test_numpy_ids_are_actions():
    g = junqi.Game(seed=2)
    ids = np.flatnonzero(g.legal_action_mask())
    assert g.action_text(ids[0]) in g.legal_actions()
    g.step(ids[0])
    g.step(np.int32(g.legal_action_ids()[0]))
    assert g.plies == 2


def test_options_are_applied():
    g = junqi.Game(options={"landmine": "both_die", "quiet_plies": 40})
    assert g.options["landmine"] == "both_die" and g.options["quiet_plies"] == 40
    g = junqi.Game(board="six_player", options=json.dumps({"teams": "none"}))
    assert g.options["teams"] == "none"


@pytest.mark.parametrize(
    "kwargs,needle",
    [
        ({"board": "eight_player"}, "eight_player"),
        ({"mode": "fog"}, "fog"),
        ({"options": {"landmine": "explodes"}}, "landmine"),
        ({"options": {"no_such_option": 1}}, "no_such_option"),
        ({"board": "three_player", "mode": "flip"}, "flip"),
        ({"options": "{not json"}, "JSON"),
    ],
)
def test_bad_rules_are_clear_errors(kwargs, needle):
    with pytest.raises(junqi.JunqiError, match=needle):
        junqi.Game(**kwargs)


def test_illegal_actions_change_nothing():
    g = junqi.Game(seed=3)
    before, rec = g.to_json(), g.record()
    planes = g.observation_planes(0)
    for bad in ["a1-a2", "e12-e11", "flip a1", 0, g.num_actions - 1]:
        with pytest.raises(junqi.IllegalActionError) as e:
            g.step(bad)
        assert e.value.code.startswith("action.")
        assert isinstance(e.value.details, dict)
        assert isinstance(e.value, ValueError)
    for bad, cls in [("z9-a1", junqi.JunqiError), ("a1", junqi.JunqiError), (-1, junqi.JunqiError),
                     (g.num_actions, junqi.JunqiError), (1.5, junqi.JunqiError), (None, junqi.JunqiError)]:
        with pytest.raises(cls):
            g.step(bad)
    assert g.to_json() == before and g.record() == rec
    assert (g.observation_planes(0) == planes).all()
    with pytest.raises(junqi.JunqiError):
        g.observation(2)
    with pytest.raises(junqi.JunqiError):
        junqi.Game.from_json({"board": "two_player"})
    with pytest.raises(junqi.JunqiError):
        junqi.Game.from_record("board two_player\nmode dark\nfirst 0\n0 a1-a2\n")


def test_game_over_refuses_actions():
    g = junqi.Game(seed=5)
    g.random_playout()
    with pytest.raises(junqi.IllegalActionError) as e:
        g.step("a2-a3")
    assert e.value.code == "action.game_over"
    with pytest.raises(junqi.JunqiError):
        g.random_action()


def test_table_actions():
    g = junqi.Game(seed=1)
    ev = g.table_action("resign", 1)
    assert any(e["kind"] == "eliminated" for e in ev)
    assert g.is_over() and g.outcome()["winners"] == [0]
    assert "resign 1" in g.record()
    g = junqi.Game(board="four_player", seed=1)
    g.table_action("resign", 1)
    assert not g.is_over() and g.eliminated == [1]
    with pytest.raises(junqi.IllegalActionError):
        g.table_action("resign", 1)
    with pytest.raises(junqi.JunqiError):
        g.table_action("surrender", 0)


def test_planes_layout_and_history():
    g = junqi.Game(seed=11)
    names = junqi.plane_names("two_player")
    p = g.observation_planes(0)
    obs = g.observation(0)
    squares = junqi.square_names("two_player")
    own = {pc["at"]: pc["role"] for pc in obs["pieces"] if pc["seat"] == 0}
    for i, role in enumerate(names[:12]):
        assert {squares[j] for j in np.flatnonzero(p[i])} == {a for a, r in own.items() if "own_" + r == role}
    enemy = {pc["at"] for pc in obs["pieces"] if pc["seat"] == 1}
    assert {squares[j] for j in np.flatnonzero(p[names.index("seat+1_piece")])} == enemy
    assert p[names.index("seat+1_teammate")].sum() == 0
    assert p[names.index("moved")].sum() == 0
    ev = g.step(g.legal_actions()[0])
    mv = ev[0]
    p = g.observation_planes(0)
    assert squares[np.flatnonzero(p[names.index("last_to")])[0]] == mv["to"]
    assert squares[np.flatnonzero(p[names.index("last_from")])[0]] == mv["from"]
    assert squares[np.flatnonzero(p[names.index("moved")])[0]] == mv["to"]
    # The history is public: both seats see the same history planes.
    hist = [names.index(n) for n in ("moved", "won_attack", "last_from", "last_to")]
    assert (g.observation_planes(0)[hist] == g.observation_planes(1)[hist]).all()


def test_presets_resolve_options_and_table_rules():
    g = junqi.Game(board="four_player", preset="qq", seed=3)
    assert g.preset == "qq"
    assert g.options["blocked"] == "out_at_once" and g.options["quiet_plies"] == 71
    assert g.table_rules == {"leaver": "partner_plays_on"}
    # A leaver's partner plays on (QQ); the record keeps the table rule and replays it.
    g.step(g.legal_actions()[0])
    events = g.table_action("leave", 1)
    assert events == [{"kind": "eliminated", "seat": 1, "reason": "left"}]
    assert not g.is_over()
    text = g.record()
    assert "option blocked out_at_once" in text and "table leaver partner_plays_on" in text
    again = junqi.Game.from_record(text)
    assert again.preset == "qq" and not again.is_over()
    assert junqi.Game.from_record(g.record_json()).observation(0) == g.observation(0)
    # Without the preset the same leave aborts the game.
    plain = junqi.Game(board="four_player", seed=3)
    assert plain.preset == "standard" and plain.table_rules == {"leaver": "abort"}
    plain.step(plain.legal_actions()[0])
    plain.table_action("leave", 1)
    assert plain.outcome() == {"result": "aborted"}
    # Options change the preset; then it is custom.
    custom = junqi.Game(board="four_player", preset="qq", options={"quiet_plies": 90})
    assert custom.options["quiet_plies"] == 90 and custom.preset is None
    # Errors say what is wrong.
    with pytest.raises(ValueError, match="not played on the six_player board"):
        junqi.Game(board="six_player", preset="qq")
    with pytest.raises(ValueError, match="disagree"):
        junqi.Game(board="four_player", preset="qq", options={"preset": "standard"})
    lsa = junqi.LsaGame(preset="taiwan", seed=1)
    assert lsa.preset == "taiwan"
    with pytest.raises(ValueError, match="taiwan"):
        junqi.Game(preset="taiwan")
