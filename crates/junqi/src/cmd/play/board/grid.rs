//! Drawing the board as text: one tile of five columns per square, one column of link (road `─`,
//! rail `═`) between neighbouring files, file letters and rank numbers.
//!
//! A tile is `t body`: `t` is the piece's seat letter (or a marker), `body` the piece in four
//! columns: its name, `??` for a hidden enemy, a guess such as `炸?` for a hidden enemy the
//! player marked (标记), `####` face down. A camp (行营) is framed `( )` and a headquarters
//! (大本营) `[ ]`, whether or not a piece stands there (a piece in a camp is safe, and the player
//! must see it): the frame takes the link columns on either side of the tile, which lose nothing,
//! since a camp or headquarters is always joined by road to its neighbours in the row.

use super::marks::Marks;
use super::words::{guess_tile, role_tile, seat_letter, Lang};
use junqi_core::{BoardKind, Observation, Seat, Square, SquareKind};

/// How one drawing of the board looks.
pub struct View<'a> {
    /// The display language.
    pub lang: Lang,
    /// The person's seat (North sees the two-player board turned round).
    pub me: Seat,
    /// The chosen piece, marked `>`.
    pub selected: Option<Square>,
    /// Highlighted squares (legal destinations), marked `*`.
    pub dests: &'a [Square],
    /// The person's guesses on hidden enemy pieces.
    pub guesses: &'a Marks,
}

/// Columns of one tile.
const TILE: usize = 5;

/// Draw the board as `obs` shows it.
pub fn render(obs: &Observation, v: &View<'_>) -> String {
    let topo = obs.topology();
    let board = obs.rules.board;
    let lang = v.lang;
    let (mut max_f, mut max_r) = (0u8, 0u8);
    for (f, r) in topo.squares().filter_map(|sq| topo.grid_coords(sq)) {
        max_f = max_f.max(f);
        max_r = max_r.max(r);
    }
    let turn = board == BoardKind::TwoPlayer && v.me == 1;
    let files: Vec<u8> = if turn {
        (0..=max_f).rev().collect()
    } else {
        (0..=max_f).collect()
    };
    let ranks: Vec<u8> = if turn {
        (1..=max_r).collect()
    } else {
        (1..=max_r).rev().collect()
    };
    let at = |f: u8, r: u8| topo.at(f, r);
    let my_colour = if obs.rules.is_flip() {
        obs.flip_colours.map(|c| c[v.me as usize])
    } else {
        Some(v.me)
    };
    // The frame of a square: `( )` camp, `[ ]` headquarters.
    let frame = |sq: Option<Square>| match sq.map(|s| topo.kind(s)) {
        Some(SquareKind::Camp) => Some(('(', ')')),
        Some(SquareKind::Headquarters) => Some(('[', ']')),
        _ => None,
    };
    let tile = |sq: Square| -> String {
        let kind = topo.kind(sq);
        let marked = v.dests.contains(&sq);
        match obs.piece_at(sq) {
            None => {
                if marked {
                    "  *  ".to_string()
                } else if kind == SquareKind::Station {
                    "  ·  ".to_string()
                } else {
                    " ".repeat(TILE)
                }
            }
            Some(p) => {
                let tag = if marked {
                    '*'
                } else if v.selected == Some(sq) {
                    '>'
                } else if obs.rules.is_flip() {
                    if p.face_down {
                        ' '
                    } else if my_colour.is_some() && p.seat == my_colour {
                        '+'
                    } else {
                        '-'
                    }
                } else {
                    p.seat.map_or(' ', |s| seat_letter(board, s))
                };
                let body = if p.face_down {
                    "####"
                } else {
                    match (p.role, v.guesses.get(sq)) {
                        (Some(r), _) => role_tile(r, lang),
                        (None, Some(g)) => guess_tile(g, lang),
                        (None, None) => " ?? ",
                    }
                };
                format!("{tag}{body}")
            }
        }
    };
    let rail = |a: Option<Square>, b: Option<Square>| match (a, b) {
        (Some(a), Some(b)) if topo.rail_adjacent(a, b) => 2,
        (Some(a), Some(b)) if topo.adjacent(a, b) => 1,
        _ => 0,
    };
    // A vertical link, centred in a tile's width.
    let vertical = |c: char| format!("  {c}  ");
    let mut out = String::new();
    let header = |out: &mut String| {
        out.push_str("    ");
        for &f in &files {
            out.push_str(&format!("  {}   ", (b'a' + f) as char));
        }
        out.push('\n');
    };
    header(&mut out);
    for (ri, &r) in ranks.iter().enumerate() {
        // The rank's squares and the links between neighbouring files; a framed square's
        // brackets stand in the link columns beside it.
        let first = files.first().and_then(|&f| frame(at(f, r)));
        out.push_str(&format!("{r:>3}{}", first.map_or(' ', |b| b.0)));
        for (fi, &f) in files.iter().enumerate() {
            match at(f, r) {
                Some(sq) => out.push_str(&tile(sq)),
                None => {
                    // A gap the rail crosses (the four-player centre).
                    let (l, rt) = (
                        fi.checked_sub(1).map(|i| files[i]),
                        files.get(fi + 1).copied(),
                    );
                    let h = match (l, rt) {
                        (Some(l), Some(rt)) => rail(at(l, r), at(rt, r)),
                        _ => 0,
                    };
                    let v = if r > 1 && r < max_r {
                        rail(at(f, r + 1), at(f, r - 1))
                    } else {
                        0
                    };
                    out.push_str(&if h == 2 {
                        "═".repeat(TILE)
                    } else if v == 2 {
                        vertical('║')
                    } else {
                        " ".repeat(TILE)
                    });
                }
            }
            if let Some(&g) = files.get(fi + 1) {
                let mut link = rail(at(f, r), at(g, r));
                if link == 0 && at(f, r).is_some() != at(g, r).is_some() {
                    // Next to a gap the rail crosses.
                    let gap = if at(f, r).is_none() { f } else { g };
                    let (a, b) = (gap.checked_sub(1), gap.checked_add(1));
                    if let (Some(a), Some(b)) = (a, b) {
                        if rail(at(a, r), at(b, r)) == 2 {
                            link = 2;
                        }
                    }
                }
                let bracket = frame(at(g, r))
                    .map(|b| b.0)
                    .or(frame(at(f, r)).map(|b| b.1));
                out.push(match (bracket, link) {
                    (Some(b), _) => b,
                    (None, 2) => '═',
                    (None, 1) => '─',
                    _ => ' ',
                });
            }
        }
        let last = files.last().and_then(|&f| frame(at(f, r)));
        out.push_str(&format!("{}{r}\n", last.map_or(' ', |b| b.1)));
        // Links to the next rank down the screen.
        let Some(&next) = ranks.get(ri + 1) else {
            continue;
        };
        out.push_str("    ");
        for (fi, &f) in files.iter().enumerate() {
            let mut v = rail(at(f, r), at(f, next));
            if v == 0 && (at(f, r).is_none() || at(f, next).is_none()) {
                // Through a gap: g7–g9 on the four-player board.
                let (a, b) = if r > next {
                    (r + 1, next)
                } else {
                    (r, next + 1)
                };
                let (a2, b2) = if r > next {
                    (r, next.wrapping_sub(1))
                } else {
                    (r.wrapping_sub(1), next)
                };
                if rail(at(f, a), at(f, b)) == 2 || rail(at(f, a2), at(f, b2)) == 2 {
                    v = 2;
                }
            }
            out.push_str(&match v {
                2 => vertical('║'),
                1 => vertical('│'),
                _ => " ".repeat(TILE),
            });
            if let Some(&g) = files.get(fi + 1) {
                let d1 = at(f, r)
                    .zip(at(g, next))
                    .is_some_and(|(a, b)| topo.adjacent(a, b));
                let d2 = at(g, r)
                    .zip(at(f, next))
                    .is_some_and(|(a, b)| topo.adjacent(a, b));
                out.push(match (d1, d2) {
                    (true, true) => '╳',
                    (true, false) => '╲',
                    (false, true) => '╱',
                    _ => ' ',
                });
            }
        }
        if board == BoardKind::TwoPlayer && r.min(next) == 6 {
            out.push_str(lang.t("  山界", "  mountain"));
        }
        out.push('\n');
    }
    header(&mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use junqi_core::{Deployment, Mode, Observer, Position, Rules};

    fn start() -> Position {
        let rules = Rules::defaults(BoardKind::TwoPlayer, Mode::Dark).unwrap();
        let d = Deployment::from_text("31537/1.5.4/2B.4B/2.7.9/1L6L2/6FL83").unwrap();
        Position::from_deployments(rules, &[d, d], 0).unwrap()
    }

    #[test]
    fn camps_and_headquarters_keep_their_marks_when_occupied() {
        let mut pos = start();
        // a5-b5: the engineer on a5 steps into the empty camp b5.
        let b5 = pos.topology().parse_square("b5").unwrap();
        let a5 = pos.topology().parse_square("a5").unwrap();
        pos.play(
            junqi_core::Action::Move { from: a5, to: b5 },
            &mut Vec::new(),
        )
        .unwrap();
        let obs = pos.observe(Observer::Seat(0));
        let marks = Marks::default();
        let b = render(
            &obs,
            &View {
                lang: Lang::Zh,
                me: 0,
                selected: None,
                dests: &[],
                guesses: &marks,
            },
        );
        let rank5 = b.lines().find(|l| l.starts_with("  5 ")).unwrap();
        // b5 holds the piece and keeps its ( ); d5 is empty and shows ( ).
        assert!(rank5.contains("(S"), "{rank5}");
        assert!(rank5.contains("(     )"), "{rank5}");
        // The HQs b1, d1 hold pieces (the flag on b1) and keep their [ ].
        let rank1 = b.lines().find(|l| l.starts_with("  1 ")).unwrap();
        assert_eq!(rank1.matches("[S").count(), 2, "{rank1}");
        assert!(rank1.contains("[S军旗]"), "{rank1}");
    }
}
