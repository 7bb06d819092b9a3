//! Property tests over random games on both boards, every mode and many options:
//! - the move generator agrees with a slow reference generator written straight from RULES §4;
//! - every generated action is accepted by the checked `play`, and gives the same result as
//!   `play_unchecked`;
//! - an illegal action is refused and changes nothing;
//! - no observation ever carries an identity its observer may not know.

use junqi_core::combat::resolve;
use junqi_core::observation::find_leak;
use junqi_core::options::{LosingAttacks, RailTurns};
use junqi_core::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::json;
use std::collections::{BTreeSet, VecDeque};

fn configs() -> Vec<(BoardKind, Mode, serde_json::Value)> {
    use BoardKind::*;
    use Mode::*;
    vec![
        (TwoPlayer, Dark, json!({})),
        (TwoPlayer, Open, json!({})),
        (TwoPlayer, Flip, json!({})),
        (TwoPlayer, Flip, json!({"flip_colour": "first_engineer", "losing_attacks": "allowed", "flag_guarded_by_mines": false})),
        (TwoPlayer, Dark, json!({"middle_crossing": "road", "landmine": "both_die", "bomb_flies": true})),
        (TwoPlayer, Dark, json!({"rail_turns": "any", "hq_exit": "free", "engineer_scout": true})),
        (TwoPlayer, Dark, json!({"win_by_flag": "carry_home", "blocked": "skip", "losing_attacks": "forbidden", "quiet_plies": 40})),
        (TwoPlayer, Dark, json!({"flag_guarded_by_mines": true, "reveal_flag_on_marshal_loss": false, "max_plies": 120})),
        (FourPlayer, Dark, json!({})),
        (FourPlayer, HalfOpen, json!({})),
        (FourPlayer, Open, json!({"turn_order": "clockwise", "blocked": "lose"})),
        (FourPlayer, Dark, json!({"win_by_flag": "carry_home", "engineer_scout": true, "bomb_flies": true})),
        (FourPlayer, Dark, json!({"rail_turns": "any", "landmine": "both_die", "losing_attacks": "forbidden", "flag_guarded_by_mines": true})),
    ]
}

fn rules_of(board: BoardKind, mode: Mode, opts: &serde_json::Value) -> Rules {
    let o = Options::from_json(board, mode, Some(opts)).unwrap();
    Rules::new(board, mode, o).unwrap()
}

/// The legal actions of the seat to move, computed the slow way from the rule text.
fn reference_actions(pos: &Position) -> BTreeSet<Action> {
    let mut out = BTreeSet::new();
    if pos.is_over() {
        return out;
    }
    let t = pos.topology();
    let rules = *pos.rules();
    let seat = pos.to_move();
    if rules.is_flip() {
        for (sq, p) in pos.pieces() {
            if p.face_down {
                out.insert(Action::Flip(sq));
            }
        }
    }
    let Some(colour) = pos.colour_of(seat) else { return out };
    let four = rules.board == BoardKind::FourPlayer;
    let friendly = |s: Seat| s == colour || (four && s == colour ^ 2);
    let can_enter = |to: Square| match pos.piece_at(to) {
        None => true,
        Some(p) => !friendly(p.seat) && !p.face_down && t.kind(to) != SquareKind::Camp,
    };
    for (from, p) in pos.pieces() {
        if p.seat != colour || p.face_down || !p.role.is_movable() {
            continue;
        }
        if rules.hq_locked() && t.kind(from) == SquareKind::Headquarters {
            continue;
        }
        let mut dests = BTreeSet::new();
        for n in t.neighbours(from) {
            if can_enter(n) {
                dests.insert(n);
            }
        }
        if t.is_rail(from) {
            let turns = p.role == Role::Engineer
                || rules.options.rail_turns == RailTurns::Any
                || (rules.options.bomb_flies && p.role == Role::Bomb);
            if turns {
                let mut seen = BTreeSet::from([from]);
                let mut queue = VecDeque::from([from]);
                while let Some(u) = queue.pop_front() {
                    for n in t.rail_neighbours(u) {
                        if pos.piece_at(n).is_none() {
                            if seen.insert(n) {
                                dests.insert(n);
                                queue.push_back(n);
                            }
                        } else if can_enter(n) {
                            dests.insert(n);
                        }
                    }
                }
            } else {
                for line in t.lines() {
                    let line: Vec<Square> = line.collect();
                    let Some(i) = line.iter().position(|&s| s == from) else { continue };
                    let fwd: Vec<Square> = line[i + 1..].to_vec();
                    let back: Vec<Square> = line[..i].iter().rev().copied().collect();
                    for ray in [fwd, back] {
                        for s in ray {
                            if pos.piece_at(s).is_none() {
                                dests.insert(s);
                            } else {
                                if can_enter(s) {
                                    dests.insert(s);
                                }
                                break;
                            }
                        }
                    }
                }
            }
        }
        for to in dests {
            if let Some(d) = pos.piece_at(to) {
                if d.role == Role::Flag {
                    let mines = pos.pieces().filter(|(_, q)| q.seat == d.seat && q.role == Role::Landmine).count();
                    if rules.options.flag_guarded_by_mines && mines > 0 {
                        continue;
                    }
                    if rules.carry_home() && (0..4).any(|f| pos.carried_flag(f).is_some_and(|c| c.carrier == from)) {
                        continue;
                    }
                }
                if rules.options.losing_attacks == LosingAttacks::Forbidden
                    && resolve(&rules, p.role, d.role).result == AttackResult::DefenderWins
                {
                    continue;
                }
            }
            out.insert(Action::Move { from, to });
        }
    }
    out
}

fn observers(board: BoardKind) -> Vec<Observer> {
    let mut v = vec![Observer::Public];
    for s in 0..board.seats() as u8 {
        v.push(Observer::Seat(s));
    }
    v.push(Observer::Team(0));
    v.push(Observer::Team(1));
    v
}

#[test]
fn random_games_keep_every_property() {
    let mut rng = ChaCha8Rng::seed_from_u64(2024);
    let mut plies_checked = 0u64;
    for (board, mode, opts) in configs() {
        let rules = rules_of(board, mode, &opts);
        let games = if board == BoardKind::TwoPlayer { 30 } else { 10 };
        for _ in 0..games {
            let mut pos = Position::random_start(rules, &mut rng);
            let mut events = Vec::new();
            while !pos.is_over() {
                let actions = pos.legal_actions();
                let set: BTreeSet<Action> = actions.iter().copied().collect();
                assert_eq!(set.len(), actions.len(), "duplicate actions in {pos:?}");
                assert_eq!(set, reference_actions(&pos), "generator differs from reference in {pos:?}");
                assert!(!actions.is_empty() && pos.has_legal_action(pos.to_move()));
                for obs in observers(board) {
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
