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
    play_out(&mut pos, &mut bots, plies, Budget::Nodes(400));
}

/// Show `pos` to `bots` (one per seat, games already begun) and let them play it for up to
/// `plies` plies or to its end; every action must be legal.
fn play_out(pos: &mut Position, bots: &mut [Box<dyn Bot>], plies: u32, budget: Budget) {
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
        let bot = &mut bots[seat as usize];
        let a = bot.choose(&obs, budget).unwrap();
        ev.clear();
        pos.play(a, &mut ev).unwrap_or_else(|e| {
            panic!(
                "{} in {:?}: illegal {a:?}: {e}",
                bot.name(),
                pos.rules().mode
            )
        });
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

/// The deepest completed iteration of a search bot that starts deepening at depth 1, on its
/// first move in `text` (seat 0 to move), and the outcome once the standard search bot has
/// played the position out against the random bot.
fn search_plays_out(text: &str, plies: u32) -> (u32, Option<junqi_core::Outcome>) {
    use junqi_ai::{RandomBot, SearchBot, SearchConfig};
    let mut pos = junqi_core::text::position_from_text(text).unwrap();
    let rules = *pos.rules();
    let budget = Budget::Nodes(50_000);
    let mut probe = SearchBot::new(SearchConfig {
        depth: 1,
        ..SearchConfig::STANDARD
    });
    probe.new_game(&rules, 0, 1);
    let obs = pos.observe(Observer::Seat(0));
    probe.observe(&[], &obs);
    probe.choose(&obs, budget).unwrap();
    let mut bots: Vec<Box<dyn Bot>> = vec![
        Box::new(SearchBot::new(SearchConfig::STANDARD)),
        Box::new(RandomBot::default()),
    ];
    for (s, b) in bots.iter_mut().enumerate() {
        b.new_game(&rules, s as u8, s as u64 + 1);
    }
    play_out(&mut pos, &mut bots, plies, budget);
    (probe.last_depth, pos.outcome())
}

#[test]
fn with_nothing_hidden_the_search_deepens_and_finds_a_distant_flag() {
    // Open play: every identity is public. South's captain on d9 reaches North's flag on d12
    // (landmines beside it on c12 and e12) in three moves; North has a lone lieutenant parked
    // in a camp of South's half, which cannot stop it.
    let text = "two_player open 0 a1=0L b1=0F c1=0L b2=0L d9=03 c12=1L d12=1F e12=1L d3=12";
    let (depth, outcome) = search_plays_out(text, 12);
    // From depth 1 the search deepens until depth 3 and the flag-threat evasions in the
    // quiescence prove the win (it stops deepening there).
    assert!(depth >= 3, "deepening reached depth {depth} only");
    match outcome {
        Some(junqi_core::Outcome::Win { winners, .. }) => {
            assert_eq!(winners, junqi_core::SeatSet(1), "South wins")
        }
        other => panic!("South should have taken the flag: {other:?}"),
    }
    // In dark play North's pieces are hidden: sampled worlds, no deepening.
    let dark = text.replace(" open ", " dark ");
    let (depth, _) = search_plays_out(&dark, 1);
    assert_eq!(depth, 0);
}
