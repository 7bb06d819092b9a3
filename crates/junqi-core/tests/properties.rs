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
