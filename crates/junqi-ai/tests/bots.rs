//! Every bot plays only legal actions, in every mode on both boards, and a small match runs.

use junqi_ai::{bot_by_name, bot_names, run_match, Bot, Budget, MatchConfig};
use junqi_core::{BoardKind, Deployment, Mode, Observer, Position, Rules};
use rand::SeedableRng;

fn play_some(rules: Rules, names: &[&str], plies: u32, seed: u64) {
    let mut bots: Vec<Box<dyn Bot>> = (0..rules.seats())
        .map(|s| bot_by_name(names[s % names.len()]).unwrap()())
        .collect();
    for (s, b) in bots.iter_mut().enumerate() {
        b.new_game(&rules, s as u8, seed + s as u64);
    }
    let mut pos = if rules.is_flip() {
        Position::deal(rules, 0, &mut rand_chacha::ChaCha8Rng::seed_from_u64(seed)).unwrap()
    } else {
        let ds: Vec<Deployment> = bots.iter_mut().map(|b| b.deploy().unwrap()).collect();
        Position::from_deployments(rules, &ds, 0).unwrap()
    };
    for (s, b) in bots.iter_mut().enumerate() {
        b.observe(&[], &pos.observe(Observer::Seat(s as u8)));
    }
    let mut ev = Vec::new();
    for _ in 0..plies {
        if pos.is_over() {
            break;
        }
        let seat = pos.to_move();
        let obs = pos.observe(Observer::Seat(seat));
        let a = bots[seat as usize]
            .choose(&obs, Budget::Nodes(400))
            .unwrap();
        ev.clear();
        pos.play(a, &mut ev)
            .unwrap_or_else(|e| panic!("{names:?} in {:?}: illegal {a:?}: {e}", rules.mode));
        for (s, b) in bots.iter_mut().enumerate() {
            b.observe(&ev, &pos.observe(Observer::Seat(s as u8)));
        }
    }
}

#[test]
fn bots_play_legal_actions_everywhere() {
    for board in [BoardKind::TwoPlayer, BoardKind::FourPlayer] {
        for mode in Mode::ALL {
            if !mode.allowed_on(board) {
                continue;
            }
            let rules = Rules::defaults(board, mode).unwrap();
            for name in bot_names() {
                play_some(rules, &[name, "random"], 40, 7);
            }
            play_some(rules, &["search", "heuristic"], 30, 8);
        }
    }
    let mut rules = Rules::defaults(BoardKind::TwoPlayer, Mode::Dark).unwrap();
    rules.options.win_by_flag = junqi_core::options::WinByFlag::CarryHome;
    rules.options.engineer_scout = true;
    play_some(rules, &["search", "heuristic"], 40, 9);
}

#[test]
fn small_smoke_match() {
    let rules = Rules::defaults(BoardKind::TwoPlayer, Mode::Dark).unwrap();
    let cfg = MatchConfig {
        rules,
        games: 4,
        seed: 1,
        budget: Budget::Nodes(200),
        threads: 2,
    };
    let r = run_match(
        cfg,
        bot_by_name("heuristic").unwrap(),
        bot_by_name("random").unwrap(),
    );
    assert_eq!(r.games, 4);
    assert!(r.forfeits.is_empty(), "{:?}", r.forfeits);
    assert!(r.score >= 0.5, "{}", r.to_text());
}
