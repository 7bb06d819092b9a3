//! The frozen generations (`search-2026`, `heuristic-2026`) must not move: every later bot is
//! measured against them. These seeded games pin what they play, move by move (a hash of every
//! action and every announcement). If one of these fails, something changed the frozen code or
//! the core under it: undo that change (or, if the core's rules changed on purpose, record the
//! new hashes and say so in the commit).

use junqi_ai::{bot_by_name, play_game_watched, Bot, Budget};
use junqi_core::{BoardKind, Mode, Rules};

/// FNV-1a: a hash that no toolchain update changes (std's `DefaultHasher` may).
struct Fnv(u64);

impl Fnv {
    fn eat(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ b as u64).wrapping_mul(0x100_0000_01b3);
        }
    }
}

fn game_hash(board: BoardKind, mode: Mode, names: &[&str], seed: u64) -> (u64, u32) {
    let rules = Rules::defaults(board, mode).unwrap();
    let mut bots: Vec<Box<dyn Bot>> = names.iter().map(|n| bot_by_name(n).unwrap()()).collect();
    let mut h = Fnv(0xcbf2_9ce4_8422_2325);
    let r = play_game_watched(
        rules,
        &mut bots,
        seed,
        Budget::Nodes(4_000),
        &mut |_, seat, events| {
            h.eat(&[seat]);
            h.eat(format!("{events:?}").as_bytes());
        },
    );
    (h.0, r.plies)
}

/// A pinned game: board, mode, the bots by seat, the seed, and its (hash, plies).
type Pinned = (BoardKind, Mode, &'static [&'static str], u64, (u64, u32));

#[test]
fn frozen_bots_play_the_same_games() {
    let cases: [Pinned; 3] = [
        (
            BoardKind::TwoPlayer,
            Mode::Dark,
            &["search-2026", "heuristic-2026"],
            1,
            (17691893202644537532, 77),
        ),
        (
            BoardKind::TwoPlayer,
            Mode::Flip,
            &["heuristic-2026", "search-2026"],
            2,
            (7442876685505047258, 58),
        ),
        (
            BoardKind::FourPlayer,
            Mode::Dark,
            &[
                "search-2026",
                "heuristic-2026",
                "search-2026",
                "heuristic-2026",
            ],
            3,
            (17854735540668010583, 305),
        ),
    ];
    let got: Vec<(u64, u32)> = cases
        .iter()
        .map(|&(board, mode, names, seed, _)| game_hash(board, mode, names, seed))
        .collect();
    let want: Vec<(u64, u32)> = cases.iter().map(|c| c.4).collect();
    assert_eq!(got, want, "(hash, plies) of each pinned game");
}
