//! The grid boards (two, three and four seats) as text: one tile per square, one column of link
//! (road `─`, rail `═`) between neighbouring columns, a line of links (`│ ║ ╲ ╱`) between
//! neighbouring rows, file letters and rank numbers around.
//!
//! The drawing is turned so that the player's own half or arm is at the bottom: two-player North
//! sees the board turned round; on the three- and four-player boards East sees it turned a
//! quarter clockwise (the ranks then run along the top, the files down the side), North turned
//! round, West a quarter counter-clockwise. Columns and rows without any square (the missing
//! West arm of the three-player board) are left out.
//!
//! A camp's or headquarters' frame takes the link columns on either side of its tile, which lose
//! nothing, since a camp or headquarters is always joined by road to its neighbours in the row.

use super::{frame, paint, tile, tile_colour, View, TILE};
use junqi_core::{BoardKind, Observation, Seat, Square, Topology};

/// Quarter turns (clockwise) that bring the seat's own territory to the bottom.
pub fn quarter_turns(board: BoardKind, me: Seat) -> u8 {
    match board {
        BoardKind::TwoPlayer => {
            if me == 1 {
                2
            } else {
                0
            }
        }
        // South 0, East 1 (its arm is on the right: a quarter clockwise), North 2, West 3.
        _ => me % 4,
    }
}

/// The grid turned for one seat: display column `x` (left to right) and row `y` (top to bottom)
/// of every square, and what labels the columns and rows.
struct Screen<'t> {
    topo: &'t Topology,
    turns: u8,
    width: i32,
    height: i32,
    cells: Vec<Option<Square>>,
}

impl<'t> Screen<'t> {
    fn new(topo: &'t Topology, turns: u8) -> Screen<'t> {
        let turn = |f: i32, r: i32| -> (i32, i32) {
            match turns {
                0 => (f, -r),
                1 => (r, f),
                2 => (-f, r),
                _ => (-r, -f),
            }
        };
        let placed: Vec<(Square, (i32, i32))> = topo
            .squares()
            .filter_map(|sq| {
                let (f, r) = topo.grid_coords(sq)?;
                Some((sq, turn(f as i32, r as i32)))
            })
            .collect();
        let min_x = placed.iter().map(|p| p.1 .0).min().unwrap_or(0);
        let min_y = placed.iter().map(|p| p.1 .1).min().unwrap_or(0);
        let width = placed.iter().map(|p| p.1 .0 - min_x + 1).max().unwrap_or(0);
        let height = placed.iter().map(|p| p.1 .1 - min_y + 1).max().unwrap_or(0);
        let mut cells = vec![None; (width * height) as usize];
        for (sq, (x, y)) in placed {
            cells[((y - min_y) * width + x - min_x) as usize] = Some(sq);
        }
        Screen {
            topo,
            turns,
            width,
            height,
            cells,
        }
    }

    fn at(&self, x: i32, y: i32) -> Option<Square> {
        if (0..self.width).contains(&x) && (0..self.height).contains(&y) {
            self.cells[(y * self.width + x) as usize]
        } else {
            None
        }
    }

    /// The file letter or rank number of a column: files run across when the board is upright
    /// or turned round, ranks when it is turned a quarter.
    fn column_label(&self, x: i32) -> String {
        let sq = (0..self.height).find_map(|y| self.at(x, y));
        self.label(sq, self.turns.is_multiple_of(2))
    }

    fn row_label(&self, y: i32) -> String {
        let sq = (0..self.width).find_map(|x| self.at(x, y));
        self.label(sq, !self.turns.is_multiple_of(2))
    }

    fn label(&self, sq: Option<Square>, file: bool) -> String {
        match sq.and_then(|s| self.topo.grid_coords(s)) {
            Some((f, _)) if file => ((b'a' + f) as char).to_string(),
            Some((_, r)) => r.to_string(),
            None => String::new(),
        }
    }

    /// The rank of a row (upright or turned round), for the mountain of the two-player board.
    fn row_rank(&self, y: i32) -> Option<u8> {
        (0..self.width)
            .find_map(|x| self.at(x, y))
            .and_then(|s| self.topo.grid_coords(s))
            .map(|c| c.1)
    }

    /// 2 if a rail edge joins the two squares, 1 if a road, 0 if nothing.
    fn link(&self, a: Option<Square>, b: Option<Square>) -> u8 {
        match (a, b) {
            (Some(a), Some(b)) if self.topo.rail_adjacent(a, b) => 2,
            (Some(a), Some(b)) if self.topo.adjacent(a, b) => 1,
            _ => 0,
        }
    }
}

/// Draw a grid board as `obs` shows it.
pub fn render(obs: &Observation, v: &View<'_>) -> String {
    let topo = obs.topology();
    let board = obs.rules.board;
    let s = Screen::new(topo, quarter_turns(board, v.me));
    let (w, h) = (s.width, s.height);
    let at = |x: i32, y: i32| s.at(x, y);
    let frame_at = |x: i32, y: i32| at(x, y).and_then(|sq| frame(topo, sq));
    // A vertical link, centred in a tile's width.
    let vertical = |c: char| format!("  {c}  ");
    let mut out = String::new();
    let header = |out: &mut String| {
        out.push_str("    ");
        for x in 0..w {
            out.push_str(&format!("{:^5} ", s.column_label(x)));
        }
        out.push('\n');
    };
    header(&mut out);
    for y in 0..h {
        // The row's squares and the links between neighbouring columns; a framed square's
        // brackets stand in the link columns beside it.
        let label = s.row_label(y);
        out.push_str(&format!(
            "{label:>3}{}",
            frame_at(0, y).map_or(' ', |b| b.0)
        ));
        for x in 0..w {
            match at(x, y) {
                Some(sq) => out.push_str(&paint(&tile(obs, v, sq), tile_colour(obs, v, sq))),
                None => {
                    // A gap the rail crosses (the centre of the three- and four-player boards).
                    let across = s.link(at(x - 1, y), at(x + 1, y));
                    let down = s.link(at(x, y - 1), at(x, y + 1));
                    out.push_str(&if across == 2 {
                        "═".repeat(TILE)
                    } else if down == 2 {
                        vertical('║')
                    } else {
                        " ".repeat(TILE)
                    });
                }
            }
            if x + 1 < w {
                let mut link = s.link(at(x, y), at(x + 1, y));
                if link == 0 && at(x, y).is_some() != at(x + 1, y).is_some() {
                    // Next to a gap the rail crosses.
                    let gap = if at(x, y).is_none() { x } else { x + 1 };
                    if s.link(at(gap - 1, y), at(gap + 1, y)) == 2 {
                        link = 2;
                    }
                }
                let bracket = frame_at(x + 1, y)
                    .map(|b| b.0)
                    .or(frame_at(x, y).map(|b| b.1));
                out.push(match (bracket, link) {
                    (Some(b), _) => b,
                    (None, 2) => '═',
                    (None, 1) => '─',
                    _ => ' ',
                });
            }
        }
        out.push_str(&format!(
            "{}{label}\n",
            frame_at(w - 1, y).map_or(' ', |b| b.1)
        ));
        // Links to the next row down the screen.
        if y + 1 >= h {
            continue;
        }
        out.push_str("    ");
        for x in 0..w {
            let mut link = s.link(at(x, y), at(x, y + 1));
            if link == 0
                && (at(x, y).is_none() || at(x, y + 1).is_none())
                && (s.link(at(x, y - 1), at(x, y + 1)) == 2 || s.link(at(x, y), at(x, y + 2)) == 2)
            {
                // Through a gap: g7–g9 on the four-player board.
                link = 2;
            }
            out.push_str(&match link {
                2 => vertical('║'),
                1 => vertical('│'),
                _ => " ".repeat(TILE),
            });
            if x + 1 < w {
                let d1 = s.link(at(x, y), at(x + 1, y + 1)) > 0;
                let d2 = s.link(at(x + 1, y), at(x, y + 1)) > 0;
                out.push(match (d1, d2) {
                    (true, true) => '╳',
                    (true, false) => '╲',
                    (false, true) => '╱',
                    _ => ' ',
                });
            }
        }
        let ranks = (s.row_rank(y), s.row_rank(y + 1));
        if board == BoardKind::TwoPlayer && matches!(ranks, (Some(6), Some(7)) | (Some(7), Some(6)))
        {
            out.push_str(v.lang.t("  山界", "  mountain"));
        }
        out.push('\n');
    }
    header(&mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::super::Lang;
    use super::*;
    use crate::cmd::play::marks::Marks;
    use junqi_core::{Deployment, Mode, Observer, Position, Rules};

    const LAYOUT: &str = "31537/1.5.4/2B.4B/2.7.9/1L6L2/6FL83";

    fn start(board: BoardKind) -> Position {
        let rules = Rules::defaults(board, Mode::Dark).unwrap();
        let d = Deployment::from_text(LAYOUT).unwrap();
        Position::from_deployments(rules, &vec![d; board.seats()], 0).unwrap()
    }

    fn draw(pos: &Position, me: Seat, names: bool) -> String {
        let marks = Marks::default();
        super::super::render(
            &pos.observe(Observer::Seat(me)),
            &View {
                lang: Lang::Zh,
                me,
                selected: None,
                dests: &[],
                guesses: &marks,
                names,
                labels: &[],
                colour: false,
            },
        )
    }

    #[test]
    fn camps_and_headquarters_keep_their_marks_when_occupied() {
        let mut pos = start(BoardKind::TwoPlayer);
        // a5-b5: the engineer on a5 steps into the empty camp b5.
        let b5 = pos.topology().parse_square("b5").unwrap();
        let a5 = pos.topology().parse_square("a5").unwrap();
        pos.play(
            junqi_core::Action::Move { from: a5, to: b5 },
            &mut Vec::new(),
        )
        .unwrap();
        let b = draw(&pos, 0, false);
        let rank5 = b.lines().find(|l| l.starts_with("  5 ")).unwrap();
        // b5 holds the piece and keeps its ( ); d5 is empty and shows ( ).
        assert!(rank5.contains("(S"), "{rank5}");
        assert!(rank5.contains("(     )"), "{rank5}");
        // The HQs b1, d1 hold pieces (the flag on b1) and keep their [ ].
        let rank1 = b.lines().find(|l| l.starts_with("  1 ")).unwrap();
        assert_eq!(rank1.matches("[S").count(), 2, "{rank1}");
        assert!(rank1.contains("[S军旗]"), "{rank1}");
    }

    /// The labels of the rows, top to bottom, and of the columns, left to right.
    fn labels(b: &str) -> (Vec<String>, Vec<String>) {
        let mut lines = b.lines();
        let columns = lines
            .next()
            .unwrap()
            .split_whitespace()
            .map(str::to_string)
            .collect();
        let rows = lines
            .filter(|l| l.len() > 3 && !l[..3].trim().is_empty())
            .map(|l| l[..3].trim().to_string())
            .collect();
        (rows, columns)
    }

    #[test]
    fn the_players_arm_is_at_the_bottom_on_the_three_player_board() {
        let pos = start(BoardKind::ThreePlayer);
        let topo = pos.topology();
        for me in 0..3 {
            let b = draw(&pos, me, true);
            // Every square's name once.
            for sq in topo.squares() {
                let name = format!(" {} ", topo.name(sq));
                assert!(
                    b.contains(&name),
                    "seat {me}: {} missing:\n{b}",
                    topo.name(sq)
                );
            }
            // The bottom row of squares is the seat's HQ row: its local (5, c), c = 0 … 4 from
            // the left.
            let rows: Vec<&str> = b.lines().filter(|l| l.contains('[')).collect();
            let bottom = rows.last().unwrap();
            let hq_row: Vec<String> = (0..5)
                .map(|c| topo.name(topo.local(me, 5, c)).to_string())
                .collect();
            let found: Vec<&str> = bottom
                .split(|c: char| " []()─═".contains(c))
                .filter(|t| hq_row.iter().any(|n| n == t))
                .collect();
            assert_eq!(found, hq_row, "seat {me}:\n{b}");
            // No file of the missing West arm is drawn: 11 files (g–q), 17 ranks.
            let (rows, columns) = labels(&b);
            let (files, ranks) = if me == 1 {
                (rows, columns)
            } else {
                (columns, rows)
            };
            assert_eq!(files.len(), 11, "{files:?}");
            assert_eq!(ranks.len(), 17, "{ranks:?}");
        }
        let (rows, columns) = labels(&draw(&pos, 1, false));
        // East: the ranks across, the files down with East's back file q at the bottom.
        assert_eq!(columns.first().map(String::as_str), Some("1"));
        assert_eq!(rows.first().map(String::as_str), Some("g"));
        assert_eq!(rows.last().map(String::as_str), Some("q"));
        let (rows, columns) = labels(&draw(&pos, 2, false));
        assert_eq!(columns.first().map(String::as_str), Some("q"));
        assert_eq!(rows.first().map(String::as_str), Some("1"));
    }

    #[test]
    fn colours_paint_the_pieces_only() {
        let pos = start(BoardKind::ThreePlayer);
        let marks = Marks::default();
        let view = |colour| View {
            lang: Lang::Zh,
            me: 2,
            selected: None,
            dests: &[],
            guesses: &marks,
            names: false,
            labels: &[],
            colour,
        };
        let obs = pos.observe(Observer::Seat(2));
        let plain = super::super::render(&obs, &view(false));
        let painted = super::super::render(&obs, &view(true));
        assert!(!plain.contains('\x1b'));
        assert_eq!(super::super::unpainted(&painted), plain);
        // Red South, blue East, orange North (the player: pieces named).
        assert!(
            painted.contains("\x1b[1;38;5;160mS ?? \x1b[0m"),
            "{painted}"
        );
        assert!(painted.contains("\x1b[1;38;5;26mE ?? \x1b[0m"), "{painted}");
        assert!(
            painted.contains("\x1b[1;38;5;172mN军旗\x1b[0m"),
            "{painted}"
        );
        assert_eq!(painted.matches("\x1b[0m").count(), 75);
    }

    #[test]
    fn upright_drawings_are_unchanged_by_the_turning() {
        // South sees the four-player board upright, with the centre's rails across the gaps.
        let b = draw(&start(BoardKind::FourPlayer), 0, false);
        let rank9 = b.lines().find(|l| l.starts_with("  9 ")).unwrap();
        assert!(rank9.contains("·  ═══════  ·  ═══════  ·"), "{rank9}");
        assert!(b.lines().next().unwrap().starts_with("      a     b"));
        // Two-player North sees the board turned round, the mountain still marked.
        let b = draw(&start(BoardKind::TwoPlayer), 1, false);
        assert!(b.lines().next().unwrap().starts_with("      e     d"));
        assert!(b.lines().nth(1).unwrap().starts_with("  1 "));
        assert!(b.contains("山界"));
    }
}
