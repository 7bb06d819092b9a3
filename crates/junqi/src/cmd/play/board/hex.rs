//! The six-player board (RULES §2.5) as text.
//!
//! The board has no grid: every square's drawing point (`Topology::point`, one unit = one step
//! inside an arm, y up) is turned by −60° per seat so that the player's arm points down, then
//! projected onto the character grid at [`COLUMNS`] columns and [`ROWS`] rows per unit (a
//! terminal character is about twice as tall as it is wide). A tile is five columns wide and
//! one row high, centred on its point. At this scale no two tiles share a row closer than six
//! columns (a tile and a link column: the rows of an arm read as on the grid boards), every
//! point lies well away from a rounding boundary, and the drawing is 117 columns wide and 39
//! rows high, for a terminal of 120 columns.
//!
//! Links are drawn between the tiles where there is room: `═ ║` rail and `─ │` road across and
//! down, `╱ ╲` slanting (rail or road: the rails are the arms' rings and everything in the
//! centre). The camp diagonals are drawn in the player's arm and the one opposite, whose files
//! run straight down the screen; in the four slanting arms they would only clutter. Each arm is
//! labelled by its seat beside its headquarters row (`View::labels`).

use super::{char_width, frame, paint, seat_colour, text_width, tile, tile_colour, View, TILE};
use junqi_core::{Observation, Seat, Square, Topology};

/// Character columns per unit of the drawing points.
pub const COLUMNS: f64 = 6.0;
/// Character rows per unit of the drawing points.
pub const ROWS: f64 = 2.0;

/// Where each tile of the six-player board stands on the character grid for one seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// By square index: (first column of the tile, row), both from 0. Column 0 and the column
    /// after the widest tile are left free for the frames `( )` `[ ]`.
    pub at: Vec<(usize, usize)>,
    /// Columns of the drawing.
    pub width: usize,
    /// Rows of the drawing.
    pub height: usize,
}

/// The layout of the six-player board with seat `me`'s arm at the bottom.
pub fn layout(topo: &Topology, me: Seat) -> Layout {
    let angle = (-60.0 * me as f64).to_radians();
    let (sin, cos) = angle.sin_cos();
    let raw: Vec<(i64, i64)> = topo
        .squares()
        .map(|sq| {
            let (x, y) = topo.point(sq);
            let (x, y) = (x * cos - y * sin, x * sin + y * cos);
            let centre = (x * COLUMNS).round() as i64;
            (centre - (TILE as i64) / 2, (-y * ROWS).round() as i64)
        })
        .collect();
    let min_x = raw.iter().map(|p| p.0).min().unwrap_or(0) - 1;
    let min_y = raw.iter().map(|p| p.1).min().unwrap_or(0);
    let at: Vec<(usize, usize)> = raw
        .iter()
        .map(|&(x, y)| ((x - min_x) as usize, (y - min_y) as usize))
        .collect();
    let width = at.iter().map(|p| p.0 + TILE + 1).max().unwrap_or(0);
    let height = at.iter().map(|p| p.1 + 1).max().unwrap_or(0);
    Layout { at, width, height }
}

/// One character cell of the drawing.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Cell {
    /// Nothing drawn.
    Blank,
    /// A character, in its cell (and the next, if wide).
    Ch(char),
    /// The right half of a wide character.
    Rest,
}

/// The character grid being drawn.
struct Canvas {
    cells: Vec<Vec<Cell>>,
    /// The colour of each cell (ANSI 256), if painted.
    colours: Vec<Vec<Option<u8>>>,
    /// Cells a tile or its frame takes; links stay out of them.
    taken: Vec<Vec<bool>>,
}

impl Canvas {
    fn new(width: usize, height: usize) -> Canvas {
        Canvas {
            cells: vec![vec![Cell::Blank; width]; height],
            colours: vec![vec![None; width]; height],
            taken: vec![vec![false; width]; height],
        }
    }

    fn width(&self) -> usize {
        self.cells.first().map_or(0, Vec::len)
    }

    /// Write text from column `x` of row `y`; wide characters take two cells. What does not fit
    /// is cut.
    fn write(&mut self, x: usize, y: usize, text: &str, colour: Option<u8>) {
        let (Some(row), Some(paint)) = (self.cells.get_mut(y), self.colours.get_mut(y)) else {
            return;
        };
        let mut x = x;
        for c in text.chars() {
            let w = char_width(c);
            if x + w > row.len() {
                break;
            }
            row[x] = Cell::Ch(c);
            paint[x] = colour;
            if w == 2 {
                row[x + 1] = Cell::Rest;
                paint[x + 1] = colour;
            }
            x += w;
        }
    }

    /// A link character, unless a tile or frame is there.
    fn link(&mut self, x: i64, y: usize, c: char) {
        if x >= 0 && (x as usize) < self.width() && !self.taken[y][x as usize] {
            self.cells[y][x as usize] = Cell::Ch(c);
        }
    }

    /// Whether the cells from `x` on row `y` are all free for a text of `width` columns.
    fn free(&self, x: usize, y: usize, width: usize) -> bool {
        y < self.cells.len()
            && x + width <= self.width()
            && (x..x + width).all(|i| !self.taken[y][i] && self.cells[y][i] == Cell::Blank)
    }

    fn text(&self) -> String {
        let mut out = String::new();
        for (row, colours) in self.cells.iter().zip(&self.colours) {
            let mut line = String::new();
            let mut run: Option<u8> = None;
            let mut text = String::new();
            // Up to the last cell that shows something: no trailing blanks, painted or not.
            let end = row
                .iter()
                .rposition(|c| !matches!(c, Cell::Blank | Cell::Ch(' ')))
                .map_or(0, |i| i + 1);
            let end = if row.get(end) == Some(&Cell::Rest) {
                end + 1
            } else {
                end
            };
            for (c, &colour) in row[..end].iter().zip(colours) {
                if colour != run {
                    line += &paint(&text, run);
                    text.clear();
                    run = colour;
                }
                match c {
                    Cell::Blank => text.push(' '),
                    Cell::Ch(c) => text.push(*c),
                    Cell::Rest => {}
                }
            }
            line += &paint(&text, run);
            out.push_str(&line);
            out.push('\n');
        }
        out
    }
}

/// Where an arm is drawn, counted counter-clockwise from the bottom (0 the player's, 3 the one
/// opposite).
fn place(arm: Seat, me: Seat) -> u8 {
    (arm + 6 - me) % 6
}

/// Draw the six-player board as `obs` shows it.
pub fn render(obs: &Observation, v: &View<'_>) -> String {
    let topo = obs.topology();
    let lay = layout(topo, v.me);
    let mut canvas = Canvas::new(lay.width, lay.height);
    let at = |sq: Square| lay.at[sq.index()];
    for sq in topo.squares() {
        let (x, y) = at(sq);
        let (from, to) = if frame(topo, sq).is_some() {
            (x - 1, x + TILE + 1)
        } else {
            (x, x + TILE)
        };
        for i in from..to {
            canvas.taken[y][i] = true;
        }
    }
    // Links: roads first, so that a rail drawn over the same cell wins.
    for rail in [false, true] {
        for a in topo.squares() {
            for b in topo.neighbours(a).filter(|&b| b > a) {
                if topo.rail_adjacent(a, b) != rail {
                    continue;
                }
                if !rail && slanting_camp_diagonal(topo, a, b, v.me) {
                    continue;
                }
                draw_link(&mut canvas, at(a), at(b), rail);
            }
        }
    }
    for sq in topo.squares() {
        let (x, y) = at(sq);
        if let Some((open, close)) = frame(topo, sq) {
            canvas.write(x - 1, y, &open.to_string(), None);
            canvas.write(x + TILE, y, &close.to_string(), None);
        }
        canvas.write(x, y, &tile(obs, v, sq), tile_colour(obs, v, sq));
    }
    for arm in 0..6u8 {
        write_label(&mut canvas, topo, &lay, arm, v);
    }
    canvas.text()
}

/// A camp's diagonal road in one of the four arms drawn slanting.
fn slanting_camp_diagonal(topo: &Topology, a: Square, b: Square, me: Seat) -> bool {
    match (topo.home(a), topo.home(b)) {
        (Some(p), Some(q)) => {
            p.row != q.row && p.col != q.col && !place(p.seat, me).is_multiple_of(3)
        }
        _ => false,
    }
}

/// A link from tile `a` to tile `b` (by their first columns and rows), through the free cells
/// between them.
fn draw_link(canvas: &mut Canvas, a: (usize, usize), b: (usize, usize), rail: bool) {
    let (a, b) = if a.1 <= b.1 { (a, b) } else { (b, a) };
    let half = (TILE / 2) as i64;
    let (x1, y1) = (a.0 as i64 + half, a.1 as i64);
    let (x2, y2) = (b.0 as i64 + half, b.1 as i64);
    let (dx, dy) = (x2 - x1, y2 - y1);
    if dy == 0 {
        let c = if rail { '═' } else { '─' };
        for x in x1.min(x2)..=x1.max(x2) {
            canvas.link(x, y1 as usize, c);
        }
        return;
    }
    // The slope as it looks, a row being about two columns tall: within some 22° of the
    // vertical (|dx| < tan 22° · 2·dy ≈ 0.8·dy) a line goes straight down.
    let steep = dx.abs() * 5 < dy * 4;
    let c = match (steep, rail, dx > 0) {
        (true, true, _) => '║',
        (true, false, _) => '│',
        (false, _, true) => '╲',
        (false, _, false) => '╱',
    };
    for y in y1 + 1..y2 {
        let x_at = |y: f64| x1 as f64 + dx as f64 * (y - y1 as f64) / dy as f64;
        if dx.abs() > 3 * dy {
            // Shallow: the whole stretch this row covers.
            let (p, q) = (x_at(y as f64 - 0.5), x_at(y as f64 + 0.5));
            for x in p.min(q).round() as i64..=p.max(q).round() as i64 {
                canvas.link(x, y as usize, c);
            }
        } else {
            canvas.link(x_at(y as f64).round() as i64, y as usize, c);
        }
    }
}

/// An arm's label beside its headquarters row: the player's arm and the opposite one to the
/// left of the row, the slanting arms above (upper arms) or below (lower arms) their far end,
/// against the edge of the drawing. A label that does not fit in free cells is left out.
fn write_label(canvas: &mut Canvas, topo: &Topology, lay: &Layout, arm: Seat, v: &View<'_>) {
    let (me, Some(t)) = (v.me, v.labels.get(arm as usize)) else {
        return;
    };
    let w = text_width(t);
    let squares: Vec<(usize, usize)> = (0..6)
        .flat_map(|r| (0..5).map(move |c| (r, c)))
        .map(|(r, c)| lay.at[topo.local(arm, r, c).index()])
        .collect();
    let left = squares.iter().map(|p| p.0).min().unwrap_or(0);
    let top = squares.iter().map(|p| p.1).min().unwrap_or(0);
    let bottom = squares.iter().map(|p| p.1).max().unwrap_or(0);
    let (x, y) = match place(arm, me) {
        0 => (left.saturating_sub(w + 3), bottom),
        3 => (left.saturating_sub(w + 3), top),
        1 => (lay.width.saturating_sub(w), bottom + 2),
        2 => (lay.width.saturating_sub(w), top.saturating_sub(2)),
        4 => (0, top.saturating_sub(2)),
        _ => (0, bottom + 2),
    };
    if canvas.free(x, y, w) {
        let colour = v.colour.then(|| seat_colour(arm));
        canvas.write(x, y, t, colour);
    }
}

#[cfg(test)]
mod tests {
    use super::super::Lang;
    use super::*;
    use crate::cmd::play::marks::Marks;
    use junqi_core::{BoardKind, Deployment, Mode, Observer, Position, Rules};

    fn six() -> &'static Topology {
        Topology::six_player()
    }

    #[test]
    fn no_two_tiles_share_a_cell_for_any_seat() {
        let topo = six();
        for me in 0..6 {
            let lay = layout(topo, me);
            assert_eq!((lay.width, lay.height), (117, 39), "seat {me}");
            let mut seen = vec![vec![None; lay.width]; lay.height];
            for sq in topo.squares() {
                let (x, y) = lay.at[sq.index()];
                // The tile and the link or frame column on either side.
                for (i, cell) in seen[y][x - 1..x + TILE + 1].iter_mut().enumerate() {
                    let edge = i == 0 || i == TILE + 1;
                    match *cell {
                        None => *cell = Some((sq, edge)),
                        // Two tiles may share the column between them, as on the grid boards.
                        Some((other, true)) if edge => *cell = Some((other, true)),
                        Some((other, _)) => panic!(
                            "seat {me}: {} and {} overlap on row {y}",
                            topo.name(sq),
                            topo.name(other)
                        ),
                    }
                }
            }
        }
    }

    #[test]
    fn frames_never_fall_on_another_tile() {
        let topo = six();
        let lay = layout(topo, 0);
        for a in topo.squares().filter(|&s| frame(topo, s).is_some()) {
            let (x, y) = lay.at[a.index()];
            for b in topo.squares().filter(|&b| b != a) {
                let (bx, by) = lay.at[b.index()];
                if by == y {
                    let tile = bx..bx + TILE;
                    assert!(
                        !tile.contains(&(x - 1)) && !tile.contains(&(x + TILE)),
                        "{} {}",
                        topo.name(a),
                        topo.name(b)
                    );
                    if frame(topo, b).is_some() {
                        assert!(
                            bx.abs_diff(x) > TILE + 1,
                            "{} {}",
                            topo.name(a),
                            topo.name(b)
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn the_players_arm_is_at_the_bottom_upright() {
        let topo = six();
        for me in 0..6 {
            let lay = layout(topo, me);
            let pos = |r, c| lay.at[topo.local(me, r, c).index()];
            // The arm's HQ row is the lowest row of the drawing, the front row five rows of
            // links above it, the files left to right from the player's left.
            for c in 0..5 {
                assert_eq!(pos(5, c).1, lay.height - 1, "seat {me}");
                assert_eq!(pos(0, c).1, lay.height - 11, "seat {me}");
                assert_eq!(
                    pos(5, c).0,
                    pos(0, c).0,
                    "seat {me}: a file runs straight down"
                );
                if c > 0 {
                    assert_eq!(pos(5, c).0, pos(5, c - 1).0 + 6, "seat {me}");
                }
            }
            // Nothing else is as low as the player's headquarters row, and the arm opposite is
            // at the top.
            for sq in topo.squares() {
                if topo.home(sq).is_none_or(|h| h.seat != me) {
                    assert!(lay.at[sq.index()].1 < lay.height - 1, "{}", topo.name(sq));
                }
            }
            let opposite = (me + 3) % 6;
            assert_eq!(lay.at[topo.local(opposite, 5, 2).index()].1, 0, "seat {me}");
            // Centred: x straight above the middle file.
            let x = topo.parse_square("x").unwrap();
            assert_eq!(lay.at[x.index()].0, pos(0, 2).0, "seat {me}");
        }
    }

    #[test]
    fn each_seat_sees_the_same_picture_with_the_arms_turned() {
        // Turning by 60° maps the board onto itself: seat s's layout is seat 0's with every
        // arm, inner corner and star point renamed s places on.
        let topo = six();
        let base = layout(topo, 0);
        let turn = |name: &str, s: u8| -> String {
            let mut cs = name.chars();
            let first = cs.next().unwrap();
            let rest: String = cs.collect();
            match first {
                'x' => name.to_string(),
                'n' | 't' => format!("{first}{}", (rest.parse::<u8>().unwrap() + s) % 6),
                d => format!("{}{rest}", (d.to_digit(10).unwrap() as u8 + s) % 6),
            }
        };
        for s in 1..6 {
            let lay = layout(topo, s);
            for sq in topo.squares() {
                let name = topo.name(sq);
                let other = topo.parse_square(&turn(name, s)).unwrap();
                assert_eq!(
                    base.at[sq.index()],
                    lay.at[other.index()],
                    "{name} seat {s}"
                );
            }
        }
    }

    #[test]
    fn the_drawing_has_every_square_once_and_fits_120_columns() {
        let rules = Rules::defaults(BoardKind::SixPlayer, Mode::Dark).unwrap();
        let d = Deployment::from_text("31537/1.5.4/2B.4B/2.7.9/1L6L2/6FL83").unwrap();
        let pos = Position::from_deployments(rules, &[d; 6], 0).unwrap();
        let marks = Marks::default();
        let labels: Vec<String> = (0..6).map(|s| format!("{s} 第{s}方（队友）")).collect();
        for me in [0, 4] {
            let view = |names| View {
                lang: Lang::Zh,
                me,
                selected: None,
                dests: &[],
                guesses: &marks,
                names,
                labels: &labels,
                colour: false,
            };
            let map = render(&pos.observe(Observer::Seat(me)), &view(true));
            let topo = six();
            let words: Vec<&str> = map
                .split(|c: char| c.is_whitespace() || "[]()".contains(c))
                .collect();
            for sq in topo.squares() {
                let n = topo.name(sq);
                assert_eq!(
                    words.iter().filter(|w| **w == n).count(),
                    1,
                    "{n} in\n{map}"
                );
            }
            for l in &labels {
                assert!(map.contains(l.as_str()), "{l} missing:\n{map}");
            }
            let board = render(&pos.observe(Observer::Seat(me)), &view(false));
            for text in [&map, &board] {
                assert!(text.lines().all(|l| text_width(l) <= 117), "{text}");
                assert_eq!(text.lines().count(), 39);
            }
            // In colour: the same drawing once the colour codes are taken out, each seat's
            // pieces and label in its colour.
            let painted = render(
                &pos.observe(Observer::Seat(me)),
                &View {
                    colour: true,
                    ..view(false)
                },
            );
            assert_eq!(super::super::unpainted(&painted), board);
            for s in 0..6 {
                let code = format!("\x1b[1;38;5;{}m", seat_colour(s));
                assert!(painted.contains(&format!("{code}{s} ??")) || s == me, "{s}");
                assert!(painted.contains(&format!("{code}{}", labels[s as usize])));
            }
            // The player's own pieces by name on the bottom row (the HQ row: 军旗 on b1), the
            // others hidden.
            let last = board.lines().last().unwrap();
            assert!(last.contains(&format!("[{me}军旗]")), "{last}");
            assert_eq!(board.matches("军旗").count(), 1, "{board}");
            assert_eq!(board.matches("??").count(), 25 * 5, "{board}");
        }
    }
}
