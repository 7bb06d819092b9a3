//! Drawing the board as text, one tile of five columns per square.
//!
//! A tile is `t body`: `t` is the piece's seat letter (or a marker), `body` the piece in four
//! columns: its name, `??` for a hidden enemy, a guess such as `炸?` for a hidden enemy the
//! player marked (标记), `####` face down. A camp (行营) is framed `( )` and a headquarters
//! (大本营) `[ ]`, whether or not a piece stands there (a piece in a camp is safe, and the player
//! must see it). The map (`View::names`) shows each square's name in its tile instead.
//!
//! The grid boards (two, three and four seats) are drawn on their grid with file letters and
//! rank numbers, turned so that the player's own half or arm is at the bottom ([`grid`]); the
//! six-player board, which has no grid, is drawn from its drawing points (RULES §2.5) projected
//! onto a character grid ([`hex`]).

mod grid;
pub mod hex;

use super::marks::Marks;
use super::words::{guess_tile, role_tile, seat_letter, Lang};
use junqi_core::{BoardKind, Observation, Seat, Square, SquareKind, Topology};

#[cfg(test)]
/// Text without its colour codes.
pub fn unpainted(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find('\x1b') {
        out.push_str(&rest[..i]);
        rest = &rest[i..];
        rest = rest.find('m').map_or("", |j| &rest[j + 1..]);
    }
    out + rest
}

/// How one drawing of the board looks.
pub struct View<'a> {
    /// The display language.
    pub lang: Lang,
    /// The person's seat: their own half or arm is drawn at the bottom.
    pub me: Seat,
    /// The chosen piece, marked `>`.
    pub selected: Option<Square>,
    /// Highlighted squares (legal destinations), marked `*`.
    pub dests: &'a [Square],
    /// The person's guesses on hidden enemy pieces.
    pub guesses: &'a Marks,
    /// Draw the squares' names instead of the pieces (the map).
    pub names: bool,
    /// A label per seat, written beside its arm on the six-player board (`0 红方（你）`); seats
    /// without one get none.
    pub labels: &'a [String],
    /// Paint pieces (and the six-player arm labels) in their seat's colour (ANSI 256 colours).
    pub colour: bool,
}

/// The seats' colours as ANSI 256-colour indices: the web client's red, blue, orange, green
/// (the two-, three- and four-player seats take the first ones), purple and, for black, a grey
/// that shows on dark and light terminals alike. Flip play paints by colour 0 and 1.
pub fn seat_colour(seat: Seat) -> u8 {
    const COLOURS: [u8; 6] = [160, 26, 172, 28, 97, 244];
    COLOURS[(seat as usize).min(COLOURS.len() - 1)]
}

/// Text in a colour (bold), or as it is.
pub fn paint(text: &str, colour: Option<u8>) -> String {
    match colour {
        Some(c) => format!("\x1b[1;38;5;{c}m{text}\x1b[0m"),
        None => text.to_string(),
    }
}

/// The colour of a square's tile: its piece's seat (or flip colour), when colours are on.
fn tile_colour(obs: &Observation, v: &View<'_>, sq: Square) -> Option<u8> {
    if !v.colour || v.names {
        return None;
    }
    let p = obs.piece_at(sq)?;
    if p.face_down {
        return None;
    }
    p.seat.map(seat_colour)
}

/// Columns of one tile.
pub const TILE: usize = 5;

/// Draw the board as `obs` shows it.
pub fn render(obs: &Observation, v: &View<'_>) -> String {
    match obs.rules.board {
        BoardKind::SixPlayer => hex::render(obs, v),
        _ => grid::render(obs, v),
    }
}

/// The frame of a square: `( )` camp, `[ ]` headquarters.
fn frame(topo: &Topology, sq: Square) -> Option<(char, char)> {
    match topo.kind(sq) {
        SquareKind::Camp => Some(('(', ')')),
        SquareKind::Headquarters => Some(('[', ']')),
        SquareKind::Station => None,
    }
}

/// The five display columns of a square's tile.
fn tile(obs: &Observation, v: &View<'_>, sq: Square) -> String {
    let topo = obs.topology();
    let board = obs.rules.board;
    if v.names {
        return format!("{:^5}", topo.name(sq));
    }
    let kind = topo.kind(sq);
    let marked = v.dests.contains(&sq);
    let my_colour = if obs.rules.is_flip() {
        obs.flip_colours.map(|c| c[v.me as usize])
    } else {
        Some(v.me)
    };
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
                    (Some(r), _) => role_tile(r, v.lang),
                    (None, Some(g)) => guess_tile(g, v.lang),
                    (None, None) => " ?? ",
                }
            };
            format!("{tag}{body}")
        }
    }
}

/// How many terminal columns a character takes: two for CJK ideographs and full-width forms,
/// one for everything else the drawings use (box drawing, Latin, `·`).
pub fn char_width(c: char) -> usize {
    match c as u32 {
        0x1100..=0x115F
        | 0x2E80..=0x303E
        | 0x3041..=0xA4CF
        | 0xAC00..=0xD7A3
        | 0xF900..=0xFAFF
        | 0xFE30..=0xFE4F
        | 0xFF00..=0xFF60
        | 0xFFE0..=0xFFE6 => 2,
        _ => 1,
    }
}

/// How many terminal columns a text takes.
pub fn text_width(s: &str) -> usize {
    s.chars().map(char_width).sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use junqi_core::Role;

    #[test]
    fn tiles_are_five_columns_wide() {
        for lang in [Lang::Zh, Lang::En] {
            for r in Role::ALL {
                assert_eq!(text_width(&format!("S{}", role_tile(r, lang))), TILE);
                assert_eq!(text_width(&format!("S{}", guess_tile(r, lang))), TILE);
            }
        }
        assert_eq!(text_width("（你）"), 6);
        assert_eq!(text_width("═║·"), 3);
        let red = paint("S司令", Some(seat_colour(0)));
        assert_eq!(red, "\x1b[1;38;5;160mS司令\x1b[0m");
        assert_eq!(unpainted(&red), "S司令");
        assert_eq!(paint("x", None), "x");
    }
}
