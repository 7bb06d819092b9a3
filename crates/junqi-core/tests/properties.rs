//! Property tests over random games on every board, every mode and many options:
//! - the move generator agrees with a slow reference generator written straight from RULES §4;
//! - every generated action is accepted by the checked `play`, and gives the same result as
//!   `play_unchecked`;
//! - an illegal action is refused and changes nothing;
//! - no observation ever carries an identity its observer may not know.

mod reference;

use junqi_core::observation::find_leak;
use junqi_core::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use reference::reference_actions;
use serde_json::json;
use std::collections::BTreeSet;

fn configs() -> Vec<(BoardKind, Mode, serde_json::Value)> {
    use BoardKind::*;
    use Mode::*;
    vec![
        (TwoPlayer, Dark, json!({})),
        (TwoPlayer, Open, json!({})),
        (TwoPlayer, Flip, json!({})),
        (
            TwoPlayer,
            Flip,
            json!({"flip_colour": "first_engineer", "losing_attacks": "allowed", "flag_guarded_by_mines": false}),
        ),
        (
            TwoPlayer,
            Dark,
            json!({"middle_crossing": "road", "landmine": "both_die", "bomb_flies": true}),
        ),
        (
            TwoPlayer,
            Dark,
            json!({"rail_turns": "any", "hq_exit": "free", "engineer_scout": true}),
        ),
        (
            TwoPlayer,
            Dark,
            json!({"win_by_flag": "carry_home", "blocked": "skip", "losing_attacks": "forbidden", "quiet_plies": 40}),
        ),
        (
            TwoPlayer,
            Dark,
            json!({"flag_guarded_by_mines": true, "reveal_flag_on_marshal_loss": false, "max_plies": 120}),
        ),
        (FourPlayer, Dark, json!({})),
        (FourPlayer, HalfOpen, json!({})),
        (
            FourPlayer,
            Open,
            json!({"turn_order": "clockwise", "blocked": "lose"}),
        ),
        (
            FourPlayer,
            Dark,
            json!({"win_by_flag": "carry_home", "engineer_scout": true, "bomb_flies": true}),
        ),
        (
            FourPlayer,
            Dark,
            json!({"rail_turns": "any", "landmine": "both_die", "losing_attacks": "forbidden", "flag_guarded_by_mines": true}),
        ),
        (FourPlayer, Dark, json!({"teams": "none"})),
        (FourPlayer, HalfOpen, json!({"teams": "opposite"})),
        (ThreePlayer, Dark, json!({})),
        (
            ThreePlayer,
            Open,
            json!({"turn_order": "clockwise", "win_by_flag": "carry_home", "bomb_flies": true}),
        ),
        (
            ThreePlayer,
            Dark,
            json!({"rail_turns": "any", "engineer_scout": true, "blocked": "lose"}),
        ),
        (SixPlayer, Dark, json!({})),
        (SixPlayer, HalfOpen, json!({})),
        (
            SixPlayer,
            HalfOpen,
            json!({"teams": "opposite", "turn_order": "clockwise"}),
        ),
        (
            SixPlayer,
            Open,
            json!({"teams": "none", "win_by_flag": "carry_home"}),
        ),
        (
            SixPlayer,
            Dark,
            json!({"teams": "opposite", "rail_turns": "any", "landmine": "both_die", "engineer_scout": true}),
        ),
    ]
}

fn rules_of(board: BoardKind, mode: Mode, opts: &serde_json::Value) -> Rules {
    let o = Options::from_json(board, mode, Some(opts)).unwrap();
    Rules::new(board, mode, o).unwrap()
}

fn observers(rules: &Rules) -> Vec<Observer> {
    let mut v = vec![Observer::Public];
    for s in 0..rules.seats() as u8 {
        v.push(Observer::Seat(s));
    }
    for t in rules.teams().teams() {
        v.push(Observer::Team(t.0));
    }
    v
}

#[test]
fn random_games_keep_every_property() {
    let mut rng = ChaCha8Rng::seed_from_u64(2024);
    let mut plies_checked = 0u64;
    for (board, mode, opts) in configs() {
        let rules = rules_of(board, mode, &opts);
        let games = match board {
            BoardKind::TwoPlayer => 30,
            BoardKind::ThreePlayer | BoardKind::FourPlayer => 10,
            BoardKind::SixPlayer => 4,
        };
        for _ in 0..games {
            let mut pos = Position::random_start(rules, &mut rng);
            let mut events = Vec::new();
            while !pos.is_over() {
                let actions = pos.legal_actions();
                let set: BTreeSet<Action> = actions.iter().copied().collect();
                assert_eq!(set.len(), actions.len(), "duplicate actions in {pos:?}");
                assert_eq!(
                    set,
                    reference_actions(&pos),
                    "generator differs from reference in {pos:?}"
                );
                assert!(!actions.is_empty() && pos.has_legal_action(pos.to_move()));
                for obs in observers(&rules) {
                    let o = pos.observe(obs);
                    assert_eq!(find_leak(&pos, &o), None);
                }
                // An illegal action changes nothing.
                let t = pos.topology();
                let from = Square(rng.gen_range(0..t.len() as u8));
                let to = Square(rng.gen_range(0..t.len() as u8));
                for bad in [Action::Move { from, to }, Action::Flip(from)] {
                    if !set.contains(&bad) {
                        let before = pos.clone();
                        let mut ev = Vec::new();
                        assert!(pos.play(bad, &mut ev).is_err());
                        assert!(ev.is_empty());
                        assert_eq!(pos, before);
                    }
                }
                let a = actions[rng.gen_range(0..actions.len())];
                let mut fast = pos.clone();
                fast.play_unchecked(a, &mut ());
                events.clear();
                pos.play(a, &mut events).unwrap();
                assert_eq!(pos, fast);
                assert!(!events.is_empty());
                plies_checked += 1;
            }
        }
    }
    assert!(plies_checked > 10_000, "only {plies_checked} plies checked");
}

/// Why an action is refused never depends on what the mover cannot see: over random games on
/// every board and hidden mode, two pieces whose identity the seat to move does not know are
/// swapped (a bomb and a general, a face-down landmine and a face-down flag …), and every move
/// from every occupied square to every square, and every flip, is refused with the same words
/// (or accepted alike) in both positions. The three rules that the rule book lets consult
/// hidden identities (docs/rules.md, "Nothing may leak": `losing_attacks = forbidden`,
/// `flag_guarded_by_mines`, a carrier's attack on a flag under `carry_home`) are left out.
#[test]
fn refusals_never_depend_on_hidden_identities() {
    use junqi_core::json::{position_from_json, position_to_json};
    let mut rng = ChaCha8Rng::seed_from_u64(4242);
    let (mut swaps, mut compared) = (0usize, 0usize);
    for (board, mode, opts) in configs() {
        if mode == Mode::Open {
            continue;
        }
        let rules = rules_of(board, mode, &opts);
        let o = &rules.options;
        if o.losing_attacks == options::LosingAttacks::Forbidden
            || o.flag_guarded_by_mines
            || o.win_by_flag == options::WinByFlag::CarryHome
        {
            continue;
        }
        for _ in 0..3 {
            let mut pos = Position::random_start(rules, &mut rng);
            for _ in 0..6 {
                let plies = rng.gen_range(3..40);
                for _ in 0..plies {
                    if pos.is_over() {
                        break;
                    }
                    let a = pos.legal_actions();
                    pos.play_unchecked(a[rng.gen_range(0..a.len())], &mut ());
                }
                if pos.is_over() {
                    break;
                }
                let seen = pos.observe(Observer::Seat(pos.to_move())).to_json();
                let hidden: Vec<String> = seen["pieces"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter(|p| p["role"].is_null())
                    .map(|p| p["at"].as_str().unwrap().to_string())
                    .collect();
                if hidden.len() < 2 {
                    continue;
                }
                let (i, j) = (
                    rng.gen_range(0..hidden.len()),
                    rng.gen_range(0..hidden.len()),
                );
                let mut v = position_to_json(&pos);
                let pieces = v["pieces"].as_array_mut().unwrap();
                let at = |n: &String| pieces.iter().position(|p| p["at"] == n.as_str()).unwrap();
                let (a, b) = (at(&hidden[i]), at(&hidden[j]));
                let role = pieces[a]["role"].clone();
                pieces[a]["role"] = pieces[b]["role"].clone();
                pieces[b]["role"] = role;
                // A swap the setup rules refuse (a flag out of its HQ) is no position at all.
                let Ok(other) = position_from_json(&v) else {
                    continue;
                };
                swaps += 1;
                let topo = pos.topology();
                let mut actions: Vec<Action> = topo.squares().map(Action::Flip).collect();
                for from in topo.squares().filter(|&s| pos.piece_at(s).is_some()) {
                    actions.extend(topo.squares().map(|to| Action::Move { from, to }));
                }
                for action in actions {
                    let why = |p: &Position| p.check(action).map_err(|e| e.to_string());
                    assert_eq!(
                        why(&pos),
                        why(&other),
                        "{board:?} {mode:?} {opts}: {action:?} with {} and {} swapped",
                        hidden[i],
                        hidden[j]
                    );
                    compared += 1;
                }
            }
        }
    }
    assert!(
        swaps > 50 && compared > 100_000,
        "{swaps} swaps, {compared} refusals"
    );
}
