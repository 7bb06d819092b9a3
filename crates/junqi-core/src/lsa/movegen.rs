//! Move generation of land-sea-air (LANDSEAAIR §4) without heap allocation: the [`Action`]s of
//! §4 and §10.1 (ground moves, sailing, landing, plane flights, missile flights, strikes,
//! looks) into a fixed-capacity [`ActionList`] whose capacity [`MAX_ACTIONS`] is a proven bound.
//!
//! Who may attack what is §4.1, decided from the defender's public facts only (arm, square,
//! landed or not): legality never depends on a hidden identity.
//!
//! # The capacity bound
//! Every action of one piece names a different target square (a missile's flight is only
//! generated where no ground move to the same square exists; a scout's looks aim at enemy
//! squares, its flights at empty ones; a gunboat's strikes at land squares, its sailing at sea
//! squares). So a piece has at most as many actions as squares it can aim at, bounded per role
//! by [`role_bound`]:
//! - a ground mover (officer, weapon but the fort, gas, bomb, landed ship): ≤ 8 road
//!   neighbours plus, on a rail square, ≤ 2 straight rail lines of at most 9 and 13 squares,
//!   so ≤ 8 + 8 + 12 = 28;
//! - an engineer: the 53 other rail squares plus ≤ 8 road neighbours ≤ 64;
//! - the missile: 28 on the ground plus ≤ 22 flight targets (two air lines: 14 + 8) = 50;
//! - a ship at sea: two sea lines (6 + 2 squares), one landing edge, two gunboat strike edges,
//!   ≤ 11 (a battleship or cruiser gets the ground mover's 28, for when it has landed);
//! - a plane: two air lines, ≤ 14 + 8 = 22;
//! - the fort: its 8 strike squares; flags, landmines and traps: none.
//!
//! [`MAX_ACTIONS`] sums the bound over the larger piece set; no position has more pieces of a
//! role than its set (the position's constructors check it), so the list never overflows.
//!
//! # Where the rule book is silent
//! - A slide that reaches a bridgehead stops there (empty or attacked), and an engineer's rail
//!   walk does not go on from one; a move that *starts* on a bridgehead is free (§4.3).
//! - A plane passes over its own pieces of any arm and over empty enemy airfields, but cannot
//!   stop on one; it never passes an enemy piece (§4.5).
//! - A gunboat's strike on a bridge square hits whatever enemy stands there, a plane
//!   included; on a coast square only a plane (§4.7, the board's strike edges).
//! - Camp protection covers planes stopped over a camp against ground attacks (the AA gun) and
//!   strikes; fighters and missiles in flight ignore it (§4.3).

use super::board::{Board, LineKind, Side, Square, SquareSet, SquareType, SQUARES};
use super::combat::Combatant;
use super::pieces::{Arm, PieceSet, Role, ROLES};
use super::position::{CampProtects, FortStrike, Piece, Position};
use std::fmt;
use std::sync::OnceLock;

/// One action of the side to move (§4, §10.1). `from` is always the acting piece's square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// A ground move of a land-arm piece (step, rail slide, engineer walk), an attack if `to`
    /// holds an enemy; also a missile's ground move.
    Move {
        /// The piece's square.
        from: Square,
        /// Where it goes or attacks.
        to: Square,
    },
    /// A ship sailing along a sea line, an attack if `to` holds an enemy (§4.4).
    Sail {
        /// The ship's square.
        from: Square,
        /// Where it goes or attacks.
        to: Square,
    },
    /// A battleship or cruiser landing on the enemy coast, a landing attack if `to` holds an
    /// enemy land-arm piece (§4.4).
    Land {
        /// The sea square.
        from: Square,
        /// The enemy coast square.
        to: Square,
    },
    /// A plane's flight along an air line, a fighter's attack if `to` holds an enemy (§4.5).
    Fly {
        /// The plane's square.
        from: Square,
        /// Where it stops or attacks.
        to: Square,
    },
    /// A missile's flight along an air line over every piece, always an attack (§4.6).
    MissileFlight {
        /// The missile's square.
        from: Square,
        /// The enemy it hits.
        to: Square,
    },
    /// A fort's or gunboat's strike: an attack in which the striker does not move (§4.7).
    Strike {
        /// The striker's square.
        from: Square,
        /// The defender's square.
        to: Square,
    },
    /// A scout plane's look at the first enemy piece along an air line (§4.8).
    Look {
        /// The scout's square.
        from: Square,
        /// The piece looked at.
        at: Square,
    },
}

impl Action {
    /// The acting piece's square.
    pub const fn from(self) -> Square {
        match self {
            Action::Move { from, .. }
            | Action::Sail { from, .. }
            | Action::Land { from, .. }
            | Action::Fly { from, .. }
            | Action::MissileFlight { from, .. }
            | Action::Strike { from, .. }
            | Action::Look { from, .. } => from,
        }
    }

    /// The target square (`to`, or `at` of a look).
    pub const fn to(self) -> Square {
        match self {
            Action::Move { to, .. }
            | Action::Sail { to, .. }
            | Action::Land { to, .. }
            | Action::Fly { to, .. }
            | Action::MissileFlight { to, .. }
            | Action::Strike { to, .. }
            | Action::Look { at: to, .. } => to,
        }
    }

    /// The kind's name, for messages: `move`, `sail`, `land`, `fly`, `missile flight`,
    /// `strike`, `look`.
    pub const fn kind(self) -> &'static str {
        match self {
            Action::Move { .. } => "move",
            Action::Sail { .. } => "sail",
            Action::Land { .. } => "land",
            Action::Fly { .. } => "fly",
            Action::MissileFlight { .. } => "missile flight",
            Action::Strike { .. } => "strike",
            Action::Look { .. } => "look",
        }
    }
}

impl fmt::Display for Action {
    /// The text of §10.1: `<from>-<to>`, or `scout <from> <at>`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Action::Look { from, at } => write!(f, "scout {from} {at}"),
            a => write!(f, "{}-{}", a.from(), a.to()),
        }
    }
}

/// The most actions one piece of a role can have in any position (see the module doc).
pub const fn role_bound(role: Role) -> usize {
    match role {
        Role::Flag | Role::Landmine | Role::Trap => 0,
        Role::Fort => 8,
        Role::Engineer => 64,
        Role::Missile => 50,
        Role::Battleship | Role::Cruiser => 28,
        Role::Gunboat | Role::Destroyer | Role::Submarine => 11,
        Role::Fighter | Role::ScoutPlane => 22,
        _ => 28,
    }
}

const fn set_bound(set: PieceSet) -> usize {
    let mut n = 0;
    let mut i = 0;
    while i < ROLES {
        n += set.count(Role::ALL[i]) as usize * role_bound(Role::ALL[i]);
        i += 1;
    }
    n
}

/// The capacity of an [`ActionList`]: the most legal actions a side can ever have (the larger
/// of the two piece sets' sums of [`role_bound`]).
pub const MAX_ACTIONS: usize = {
    let (a, b) = (set_bound(PieceSet::Seed), set_bound(PieceSet::Taiwan));
    if a > b {
        a
    } else {
        b
    }
};

/// The most actions one piece can have: the largest [`role_bound`].
pub const MAX_PIECE_ACTIONS: usize = {
    let mut n = 0;
    let mut i = 0;
    while i < ROLES {
        if role_bound(Role::ALL[i]) > n {
            n = role_bound(Role::ALL[i]);
        }
        i += 1;
    }
    n
};

/// A fixed-capacity list of at most `N` actions, filled without heap allocation. Generation
/// writes into [`ActionList`] (a side's actions) or [`PieceActionList`] (one piece's).
#[derive(Clone)]
pub struct Actions<const N: usize> {
    buf: [Action; N],
    len: usize,
}

/// The actions of a side: capacity [`MAX_ACTIONS`].
pub type ActionList = Actions<MAX_ACTIONS>;

/// The actions of one piece: capacity [`MAX_PIECE_ACTIONS`].
pub type PieceActionList = Actions<MAX_PIECE_ACTIONS>;

impl<const N: usize> Default for Actions<N> {
    fn default() -> Actions<N> {
        Actions::new()
    }
}

impl<const N: usize> fmt::Debug for Actions<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<const N: usize> Actions<N> {
    /// An empty list.
    pub fn new() -> Actions<N> {
        let a1 = Square::from_index(0).expect("a1");
        Actions {
            buf: [Action::Move { from: a1, to: a1 }; N],
            len: 0,
        }
    }

    /// Empty the list.
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Number of actions.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the list is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The actions.
    pub fn as_slice(&self) -> &[Action] {
        &self.buf[..self.len]
    }

    /// The actions, in generation order.
    pub fn iter(&self) -> impl Iterator<Item = Action> + '_ {
        self.as_slice().iter().copied()
    }

    /// Whether the action is in the list.
    pub fn contains(&self, a: Action) -> bool {
        self.as_slice().contains(&a)
    }

    #[inline]
    fn push(&mut self, a: Action) {
        // The capacity is a proven bound (module doc); an overflow is a bug, so it panics.
        self.buf[self.len] = a;
        self.len += 1;
    }
}

impl<const N: usize> std::ops::Index<usize> for Actions<N> {
    type Output = Action;
    fn index(&self, i: usize) -> &Action {
        &self.as_slice()[i]
    }
}

/// The squares of a set, lowest first, as a plain loop over its words (faster in the hot
/// loops than [`SquareSet::iter`]).
#[inline(always)]
fn each(set: SquareSet, mut f: impl FnMut(Square)) {
    for (i, mut w) in set.words().into_iter().enumerate() {
        while w != 0 {
            let b = w.trailing_zeros() as u8 + 64 * i as u8;
            w &= w - 1;
            f(Square::from_index(b).expect("a square of the set"));
        }
    }
}

/// A ray: the squares beyond a square along one line in one direction, nearest first.
#[derive(Clone, Copy)]
struct Ray {
    squares: [Square; RAY_MAX],
    len: u8,
}

impl Ray {
    #[inline(always)]
    fn squares(&self) -> &[Square] {
        &self.squares[..self.len as usize]
    }
}

/// The longest line has 15 squares, so a ray has at most 14.
const RAY_MAX: usize = 14;

/// Every square's rays along the rail, sea and air lines through it (at most two lines of a
/// kind through a square, so at most four rays), built once from the board's lines.
struct Rays {
    rays: [[[Ray; 4]; SQUARES]; 3],
    count: [[u8; SQUARES]; 3],
}

impl Rays {
    fn get() -> &'static Rays {
        static RAYS: OnceLock<Box<Rays>> = OnceLock::new();
        RAYS.get_or_init(|| {
            let b = Board::get();
            let a1 = Square::from_index(0).expect("a1");
            let empty = Ray {
                squares: [a1; RAY_MAX],
                len: 0,
            };
            let mut r = Box::new(Rays {
                rays: [[[empty; 4]; SQUARES]; 3],
                count: [[0; SQUARES]; 3],
            });
            for (k, kind) in [LineKind::Rail, LineKind::Sea, LineKind::Air]
                .into_iter()
                .enumerate()
            {
                for line in b.lines(kind) {
                    for &from in line.squares() {
                        for forward in [true, false] {
                            let mut ray = empty;
                            for t in line.ray(from, forward) {
                                ray.squares[ray.len as usize] = t;
                                ray.len += 1;
                            }
                            if ray.len > 0 {
                                let n = &mut r.count[k][from.index()];
                                r.rays[k][from.index()][*n as usize] = ray;
                                *n += 1;
                            }
                        }
                    }
                }
            }
            r
        })
    }

    /// The rays of a kind from a square.
    #[inline(always)]
    fn from(&self, kind: LineKind, sq: Square) -> &[Ray] {
        let k = match kind {
            LineKind::Rail => 0,
            LineKind::Sea => 1,
            LineKind::Air => 2,
        };
        &self.rays[k][sq.index()][..self.count[k][sq.index()] as usize]
    }
}

impl Position {
    /// Whether the enemy `defender` on `sq` is protected by a camp from ground attacks and
    /// strikes (§4.3).
    fn camp_protected(&self, sq: Square, defender: Piece) -> bool {
        let b = Board::get();
        b.square_type(sq) == SquareType::Camp
            && match self.options().camp_protects {
                CampProtects::Owner => b.side(sq) == Some(defender.side()),
                CampProtects::Anyone => true,
            }
    }

    /// The squares a ground move of `mover` may end on, as far as their contents go (§4.1,
    /// §4.3): empty land squares, enemy land-arm pieces not protected by a camp, and for the
    /// anti-aircraft gun and the missile enemy planes not protected by a camp. Also the
    /// squares holding any piece (which stop a slide).
    #[inline]
    fn ground_targets(&self, mover: Piece) -> (SquareSet, SquareSet) {
        let b = Board::get();
        let (own, enemy) = (mover.side(), mover.side().other());
        let all = self.occupied(own).union(self.occupied(enemy));
        let protected = match self.options().camp_protects {
            CampProtects::Owner => b.of_side(enemy, SquareType::Camp),
            CampProtects::Anyone => b.of_type(SquareType::Camp),
        };
        let mut targets = b
            .land()
            .difference(all)
            .union(self.occupied_by(enemy, Arm::Land).difference(protected));
        if matches!(
            mover.combatant(),
            Combatant::Piece(Role::AntiAircraftGun | Role::Missile)
        ) {
            targets = targets.union(self.occupied_by(enemy, Arm::Air).difference(protected));
        }
        (all, targets)
    }

    /// Append the legal actions of the side to move (none once the game is over) to `out`.
    pub fn legal_actions_into(&self, out: &mut ActionList) {
        if !self.is_over() {
            self.side_actions(self.to_move(), out);
        }
    }

    /// The legal actions of the side to move (none once the game is over).
    pub fn legal_actions(&self) -> ActionList {
        let mut out = ActionList::new();
        self.legal_actions_into(&mut out);
        out
    }

    /// Every action `side` could take if it were to move (game state aside).
    pub(super) fn side_actions(&self, side: Side, out: &mut ActionList) {
        each(self.occupied(side), |sq| self.piece_actions(sq, out));
    }

    /// Whether `side` has at least one action in this position.
    pub(super) fn has_action(&self, side: Side) -> bool {
        let mut out = PieceActionList::new();
        for sq in self.occupied(side).iter() {
            self.piece_actions(sq, &mut out);
            if !out.is_empty() {
                return true;
            }
        }
        false
    }

    /// Append the actions of the piece on `from` (none if the square is empty) to `out`, a
    /// [`PieceActionList`] or an [`ActionList`].
    pub fn piece_actions<const N: usize>(&self, from: Square, out: &mut Actions<N>) {
        let Some(p) = self.at(from) else { return };
        match p.combatant() {
            Combatant::Piece(Role::Fort) => self.fort_strikes(from, p, out),
            Combatant::Piece(r) if r.is_plane() => self.flights(from, p, out),
            Combatant::Piece(r) if r.is_ship() => self.ship_actions(from, p, r, out),
            Combatant::Piece(r) if !r.is_movable() => {}
            _ => self.ground_actions(from, p, out),
        }
    }

    /// Steps, rail slides, engineer walks and, for the missile, flights (§4.2, §4.3, §4.6).
    fn ground_actions<const N: usize>(&self, from: Square, p: Piece, out: &mut Actions<N>) {
        let b = Board::get();
        let (all, targets) = self.ground_targets(p);
        let mut dest = b.road_neighbours(from).intersection(targets);
        if b.is_rail(from) {
            let limit = match self.options().rail_max {
                0 => usize::MAX,
                n => n as usize,
            };
            if p.combatant() == Combatant::Piece(Role::Engineer) {
                // Any path of rail edges through empty squares, never through a bridgehead.
                let empty = b.land().difference(all);
                let mut seen = SquareSet::EMPTY.with(from);
                let mut frontier = seen;
                let mut depth = 0;
                while !frontier.is_empty() && depth < limit {
                    depth += 1;
                    let mut next = SquareSet::EMPTY;
                    each(frontier, |f| next = next.union(b.rail_neighbours(f)));
                    next = next.difference(seen);
                    seen = seen.union(next);
                    dest = dest.union(next.intersection(targets));
                    frontier = next.intersection(empty).difference(b.bridgeheads());
                }
            } else {
                for ray in Rays::get().from(LineKind::Rail, from) {
                    for (k, &t) in ray.squares().iter().enumerate() {
                        if k >= limit {
                            break;
                        }
                        if all.contains(t) {
                            if targets.contains(t) {
                                dest.insert(t);
                            }
                            break;
                        }
                        dest.insert(t);
                        if b.is_bridgehead(t) {
                            break;
                        }
                    }
                }
            }
        }
        each(dest, |to| out.push(Action::Move { from, to }));
        if p.combatant() == Combatant::Piece(Role::Missile) && b.is_air(from) {
            let airfields = b.of_type(SquareType::Airfield);
            let enemies = self.occupied(p.side().other());
            for ray in Rays::get().from(LineKind::Air, from) {
                for &to in ray.squares() {
                    if enemies.contains(to) && !airfields.contains(to) && !dest.contains(to) {
                        out.push(Action::MissileFlight { from, to });
                    }
                }
            }
        }
    }

    /// Sailing, landing and the gunboat's strikes (§4.4, §4.7).
    fn ship_actions<const N: usize>(
        &self,
        from: Square,
        p: Piece,
        role: Role,
        out: &mut Actions<N>,
    ) {
        let b = Board::get();
        for ray in Rays::get().from(LineKind::Sea, from) {
            for &to in ray.squares() {
                match self.at(to) {
                    None => out.push(Action::Sail { from, to }),
                    Some(q) => {
                        let attackable = q.side() != p.side()
                            && match q.arm() {
                                Arm::Sea => true,
                                Arm::Air => role == Role::Gunboat,
                                Arm::Land => false,
                            };
                        if attackable {
                            out.push(Action::Sail { from, to });
                        }
                        break;
                    }
                }
            }
        }
        if role.landing_ship().is_some() {
            if let Some(to) = b.landing(p.side(), from) {
                match self.at(to) {
                    None => out.push(Action::Land { from, to }),
                    Some(q) if q.side() != p.side() && q.arm() == Arm::Land => {
                        out.push(Action::Land { from, to })
                    }
                    Some(_) => {}
                }
            }
        }
        if role == Role::Gunboat {
            for to in b.gunboat_strikes(from).iter() {
                if let Some(q) = self.at(to) {
                    let bridge = b.square_type(to) == SquareType::Bridge;
                    if q.side() != p.side() && (bridge || q.arm() == Arm::Air) {
                        out.push(Action::Strike { from, to });
                    }
                }
            }
        }
    }

    /// A plane's flights, a fighter's attacks and a scout's looks (§4.5, §4.8).
    fn flights<const N: usize>(&self, from: Square, p: Piece, out: &mut Actions<N>) {
        let b = Board::get();
        let enemy_airfields = b.of_side(p.side().other(), SquareType::Airfield);
        let fighter = p.role() == Role::Fighter;
        for ray in Rays::get().from(LineKind::Air, from) {
            for &to in ray.squares() {
                match self.at(to) {
                    None => {
                        if !enemy_airfields.contains(to) {
                            out.push(Action::Fly { from, to });
                        }
                    }
                    Some(q) if q.side() == p.side() => {}
                    Some(_) => {
                        out.push(if fighter {
                            Action::Fly { from, to }
                        } else {
                            Action::Look { from, at: to }
                        });
                        break;
                    }
                }
            }
        }
    }

    /// The fort's strikes (§4.7) under `fort_strike`.
    fn fort_strikes<const N: usize>(&self, from: Square, p: Piece, out: &mut Actions<N>) {
        let b = Board::get();
        let allowed = match self.options().fort_strike {
            FortStrike::Repeat => true,
            FortStrike::Once => !self.fort_struck(p.side()),
            FortStrike::Never => false,
        };
        if !allowed || from != b.harbour(p.side()) {
            return;
        }
        for to in b.fort_strike_squares(p.side()).iter() {
            if let Some(q) = self.at(to) {
                if q.side() != p.side() && q.arm() != Arm::Air && !self.camp_protected(to, q) {
                    out.push(Action::Strike { from, to });
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::position::test_util::*;
    use super::super::position::{CampProtects, FortStrike, Options};
    use super::*;

    fn opts(f: impl FnOnce(&mut Options)) -> Options {
        let mut o = Options::default();
        f(&mut o);
        o
    }

    #[test]
    fn lsa_capacity_bound() {
        // 24 ground movers × 28 + 3 engineers × 64 + missile 50 + fort 8 + 2 × 28 + 3 × 11
        // + 2 planes × 22 under `seed`.
        assert_eq!(
            MAX_ACTIONS,
            24 * 28 + 3 * 64 + 50 + 8 + 2 * 28 + 3 * 11 + 2 * 22
        );
        assert!(std::mem::size_of::<Action>() <= 3);
    }

    #[test]
    fn lsa_capacity_bound_crowded_lines() {
        // A missile on the crossing a8 with enemies along both air lines, unlimited rail.
        let o = opts(|o| o.rail_max = 0);
        let mut list = vec![("a8", "S missile")];
        let enemies = [
            ("a3", "N major"),
            ("a5", "N captain"),
            ("a11", "N colonel"),
            ("a13", "N lieutenant"),
            ("b8", "N destroyer"),
            ("c8", "N fighter"),
            ("e8", "N submarine"),
            ("g8", "N cruiser"),
            ("i8", "N general"),
            ("a2", "N major"),
            ("a12", "N engineer"),
            ("a14", "N lieutenant"),
        ];
        list.extend(enemies);
        let p = build(o, Side::South, &list);
        let n = actions_of(&p, "a8").len();
        assert!(n <= role_bound(Role::Missile), "{n}");
        assert_eq!(
            targets(&p, "a8", "missile flight").split(' ').count(),
            12,
            "every enemy on both lines"
        );
        // An engineer alone on the rail, no limit: every South rail square up to the bridgeheads.
        let p = build(o, Side::South, &[("e5", "S engineer")]);
        let n = actions_of(&p, "e5").len();
        assert!(n <= role_bound(Role::Engineer), "{n}");
        assert_eq!(
            n,
            2 * 9 + 2 * 2 + 2 + 1,
            "ranks 2 and 5, a3 a4 i3 i4, a6 i6, e4 but e5"
        );
    }

    #[test]
    fn lsa_rule_4_2_step_along_road_and_camp_diagonals() {
        let p = south(&[("c4", "S major"), ("c3", "S colonel")]);
        assert_eq!(targets(&p, "c4", "move"), names("b4 d4 c5"));
        assert_eq!(
            targets(&p, "c3", "move"),
            names("b2 c2 d2 b3 d3 b4 d4"),
            "a camp has 8 neighbours (c4 is taken by its own side)"
        );
    }

    #[test]
    fn lsa_rule_4_2_rail_slide_capped_by_rail_max() {
        let list = [("a2", "S major")];
        let p = south(&list);
        assert_eq!(targets(&p, "a2", "move"), names("b2 c2 d2 a3 a4 a5"));
        let p = build(opts(|o| o.rail_max = 1), Side::South, &list);
        assert_eq!(targets(&p, "a2", "move"), names("b2 a3"));
        let p = build(opts(|o| o.rail_max = 0), Side::South, &list);
        assert_eq!(
            targets(&p, "a2", "move"),
            names("b2 c2 d2 e2 f2 g2 h2 i2 a3 a4 a5 a6"),
            "no limit: up to the bridgehead"
        );
    }

    #[test]
    fn lsa_rule_4_2_rail_slide_stops_at_first_piece() {
        let p = south(&[("a2", "S major"), ("c2", "S captain"), ("a4", "N tank")]);
        assert_eq!(targets(&p, "a2", "move"), names("b2 a3 a4"));
    }

    #[test]
    fn lsa_rule_4_2_planes_block_slides() {
        let p = south(&[("a2", "S major"), ("c2", "S fighter"), ("a4", "N fighter")]);
        assert_eq!(
            targets(&p, "a2", "move"),
            names("b2 a3"),
            "own and enemy planes block"
        );
        let p = south(&[("a2", "S anti_aircraft_gun"), ("a4", "N fighter")]);
        assert!(
            targets(&p, "a2", "move").contains("a4"),
            "the AA gun slides onto a plane"
        );
    }

    #[test]
    fn lsa_rule_4_2_engineer_turns_on_the_rail() {
        let p = south(&[("b2", "S engineer"), ("h2", "S major")]);
        assert_eq!(
            targets(&p, "b2", "move"),
            names("a2 c2 d2 e2 a3 a4 b1 b3 c3"),
            "three rail edges, turning at a2"
        );
        let p = south(&[("b2", "S captain")]);
        assert_eq!(targets(&p, "b2", "move"), names("a2 c2 d2 e2 b1 b3 c3"));
        // With no limit the engineer reaches the whole South rail network up to the bridgeheads.
        let p = build(
            opts(|o| o.rail_max = 0),
            Side::South,
            &[("b2", "S engineer")],
        );
        let t = targets(&p, "b2", "move");
        assert!(
            t.contains("i5") && t.contains("a6") && t.contains("i6"),
            "{t}"
        );
        assert!(
            !t.contains("a7") && !t.contains("i7"),
            "never through a bridgehead: {t}"
        );
    }

    #[test]
    fn lsa_rule_4_3_bridgeheads_are_never_passed() {
        let o0 = opts(|o| o.rail_max = 0);
        let p = build(o0, Side::South, &[("a5", "S major")]);
        let t = targets(&p, "a5", "move");
        assert!(
            t.contains("a6") && !t.contains("a7"),
            "a5-a6-a7 is illegal: {t}"
        );
        let p = build(o0, Side::South, &[("a6", "S major")]);
        assert_eq!(
            targets(&p, "a6", "move"),
            names("a2 a3 a4 a5 b6 a7 a8 a9 a10"),
            "from a bridgehead: on to the other bridgehead, which ends the move"
        );
        let p = south(&[("a9", "S major")]);
        assert_eq!(targets(&p, "a9", "move"), names("a10 a8 a7 a6"));
        let p = south(&[("a9", "S engineer")]);
        assert_eq!(targets(&p, "a9", "move"), names("a10 a8 a7 a6"));
    }

    #[test]
    fn lsa_rule_4_3_camp_protects_owner() {
        let list = [
            ("c12", "S major"),
            ("c13", "N captain"),
            ("g12", "S major"),
            ("g13", "S colonel"),
            ("g14", "N general"),
        ];
        let p = south(&list);
        assert!(
            !targets(&p, "c12", "move").contains("c13"),
            "North in its own camp"
        );
        let n = build(Options::default(), Side::North, &list);
        assert!(
            targets(&n, "g14", "move").contains("g13"),
            "South in North's camp"
        );
        let o = opts(|o| o.camp_protects = CampProtects::Anyone);
        let n = build(o, Side::North, &list);
        assert!(
            !targets(&n, "g14", "move").contains("g13"),
            "anyone: protected"
        );
        let p = build(o, Side::South, &list);
        assert!(!targets(&p, "c12", "move").contains("c13"));
        // Empty camps are entered by a step, never by a slide.
        let p = south(&[("c2", "S major")]);
        assert!(targets(&p, "c2", "move").contains("c3"));
        let p = south(&[("a2", "S major")]);
        assert!(!targets(&p, "a2", "move").contains("c3"));
    }

    #[test]
    fn lsa_rule_4_3_planes_and_missiles_attack_into_camps() {
        let p = south(&[
            ("c2", "S fighter"),
            ("c13", "N captain"),
            ("c5", "S missile"),
        ]);
        assert!(
            targets(&p, "c2", "fly").contains("c13"),
            "fighter: air raid"
        );
        assert!(targets(&p, "c5", "missile flight").contains("c13"));
        // A plane stopped over its own camp is protected from the AA gun's ground move.
        let p = south(&[("c12", "S anti_aircraft_gun"), ("c13", "N fighter")]);
        assert!(!targets(&p, "c12", "move").contains("c13"));
        // A fighter may stop over an empty camp.
        let p = south(&[("c2", "S fighter")]);
        assert!(targets(&p, "c2", "fly").contains("c3"));
    }

    #[test]
    fn lsa_rule_4_3_land_pieces_never_on_airfields_or_sea() {
        let p = south(&[("a2", "S major"), ("b6", "S tank"), ("d10", "S general")]);
        assert!(!targets(&p, "a2", "move").contains("a1"));
        assert_eq!(targets(&p, "b6", "move"), names("a6 c6 b5"));
        assert_eq!(targets(&p, "d10", "move"), names("c10 e10 d11"));
    }

    #[test]
    fn lsa_rule_4_1_ground_attacks_on_planes_only_aa_gun_and_missile() {
        for (role, ok) in [
            ("major", false),
            ("tank", false),
            ("bomb", false),
            ("anti_aircraft_gun", true),
            ("missile", true),
        ] {
            let p = south(&[("c4", &format!("S {role}")), ("c5", "N fighter")]);
            assert_eq!(targets(&p, "c4", "move").contains("c5"), ok, "{role}");
        }
        // Ground pieces never reach ships.
        let p = south(&[("b6", "S marshal"), ("b7", "N destroyer")]);
        assert!(!targets(&p, "b6", "move").contains("b7"));
    }

    #[test]
    fn lsa_rule_4_4_sailing() {
        let p = south(&[
            ("d7", "S destroyer"),
            ("f7", "N submarine"),
            ("c7", "S cruiser"),
        ]);
        assert_eq!(targets(&p, "d7", "sail"), names("e7 f7 d8 d9"));
        // Planes block ships; only the gunboat attacks them.
        let list = [("d7", "S destroyer"), ("d8", "N fighter")];
        assert!(!targets(&south(&list), "d7", "sail").contains("d8"));
        let list = [("d7", "S gunboat"), ("d8", "N fighter")];
        assert!(targets(&south(&list), "d7", "sail").contains("d8"));
        // Submarine and destroyer attack ships only; ships never enter land otherwise.
        let p = south(&[("b7", "S submarine")]);
        assert_eq!(targets(&p, "b7", "sail"), names("c7 d7 e7 f7 g7 h7 b8 b9"));
        assert_eq!(targets(&p, "b7", "land"), "");
        assert_eq!(targets(&p, "b7", "strike"), "");
    }

    #[test]
    fn lsa_rule_4_4_landing() {
        let p = south(&[("c9", "S battleship")]);
        assert_eq!(targets(&p, "c9", "land"), "c10");
        let p = south(&[("c9", "S cruiser"), ("c10", "N major")]);
        assert_eq!(targets(&p, "c9", "land"), "c10", "a landing attack");
        let p = south(&[("c9", "S battleship"), ("c10", "N fighter")]);
        assert_eq!(targets(&p, "c9", "land"), "", "never onto a plane");
        let p = south(&[("c9", "S battleship"), ("c10", "S major")]);
        assert_eq!(targets(&p, "c9", "land"), "");
        let p = south(&[("c7", "S battleship")]);
        assert_eq!(targets(&p, "c7", "land"), "", "never on its own coast");
        for role in ["destroyer", "submarine", "gunboat"] {
            let p = south(&[("c9", &format!("S {role}"))]);
            assert_eq!(targets(&p, "c9", "land"), "", "{role}");
        }
        let p = south(&[("e9", "S battleship"), ("e10", "N fort")]);
        assert_eq!(
            targets(&p, "e9", "land"),
            "e10",
            "the harbour: attacks the fort"
        );
    }

    #[test]
    fn lsa_rule_4_4_landed_ship_moves_on_the_ground() {
        let p = south(&[("c10", "S landed battleship")]);
        assert_eq!(actions_of(&p, "c10").len(), 3);
        assert_eq!(targets(&p, "c10", "move"), names("b10 d10 c11"));
        let p = south(&[("c11", "S landed cruiser")]);
        assert_eq!(
            targets(&p, "c11", "move"),
            names("a11 b11 d11 e11 f11 c10 c12"),
            "slides like an officer, never turns"
        );
    }

    #[test]
    fn lsa_rule_4_5_plane_flight() {
        let p = south(&[("a1", "S fighter"), ("a3", "S major"), ("a9", "N major")]);
        assert_eq!(
            targets(&p, "a1", "fly"),
            names("a2 a4 a5 a6 a7 a8 a9"),
            "over its own piece, up to the first enemy"
        );
        let p = south(&[("a14", "S fighter")]);
        assert!(
            !targets(&p, "a14", "fly").contains("a15"),
            "no empty enemy airfield"
        );
        let p = south(&[("a14", "S fighter"), ("a15", "N scout_plane")]);
        assert!(
            targets(&p, "a14", "fly").contains("a15"),
            "attack a parked plane"
        );
        let p = south(&[("c8", "S fighter")]);
        let t = targets(&p, "c8", "fly");
        assert_eq!(
            t.split(' ').count(),
            12 + 8,
            "two lines through a crossing: {t}"
        );
        assert!(!t.contains("d7"), "straight lines only");
        let p = south(&[("i1", "S scout_plane"), ("i5", "N major")]);
        assert_eq!(targets(&p, "i1", "fly"), names("i2 i3 i4"));
        assert_eq!(targets(&p, "i1", "look"), "i5");
    }

    #[test]
    fn lsa_rule_4_5_fighter_attacks_the_first_enemy_anywhere() {
        let p = south(&[
            ("e2", "S fighter"),
            ("e7", "N submarine"),
            ("e12", "N flag"),
        ]);
        assert!(targets(&p, "e2", "fly").contains("e7"));
        assert!(!targets(&p, "e2", "fly").contains("e8"));
        let p = south(&[("g5", "S fighter"), ("g6", "N tank")]);
        assert!(targets(&p, "g5", "fly").contains("g6"));
    }

    #[test]
    fn lsa_rule_4_6_missile_flight() {
        let p = south(&[
            ("c4", "S missile"),
            ("c5", "S major"),
            ("c6", "N tank"),
            ("c13", "N captain"),
            ("c3", "N colonel"),
        ]);
        assert_eq!(
            targets(&p, "c4", "missile flight"),
            names("c6 c13"),
            "over every piece, camps included; c3 is a ground attack"
        );
        assert!(targets(&p, "c4", "move").contains("c3"));
        let p = south(&[("a4", "S missile"), ("a15", "N fighter")]);
        assert_eq!(
            targets(&p, "a4", "missile flight"),
            "",
            "never onto an airfield"
        );
        let p = south(&[("b4", "S missile"), ("b12", "N tank")]);
        assert_eq!(
            targets(&p, "b4", "missile flight"),
            "",
            "flies only from an air square"
        );
        let p = south(&[
            ("e4", "S missile"),
            ("e8", "N fighter"),
            ("e9", "N destroyer"),
        ]);
        assert_eq!(targets(&p, "e4", "missile flight"), names("e8 e9"));
    }

    #[test]
    fn lsa_rule_4_7_fort_strike() {
        let list = [
            ("e6", "S fort"),
            ("d6", "N landed battleship"),
            ("e7", "N destroyer"),
            ("e5", "N fighter"),
            ("f5", "S major"),
            ("c6", "N major"),
        ];
        let p = south(&list);
        assert_eq!(
            targets(&p, "e6", "strike"),
            names("d6 e7"),
            "not planes, not out of reach"
        );
        assert_eq!(targets(&p, "e6", "move"), "", "the fort never moves");
        let mut once = build(
            opts(|o| o.fort_strike = FortStrike::Once),
            Side::South,
            &list,
        );
        assert_eq!(targets(&once, "e6", "strike"), names("d6 e7"));
        once.set_fort_struck(Side::South, true);
        assert_eq!(targets(&once, "e6", "strike"), "");
        let never = build(
            opts(|o| o.fort_strike = FortStrike::Never),
            Side::South,
            &list,
        );
        assert_eq!(targets(&never, "e6", "strike"), "");
    }

    #[test]
    fn lsa_rule_4_7_gunboat_strike() {
        let p = south(&[("b8", "S gunboat"), ("a8", "N major")]);
        assert_eq!(targets(&p, "b8", "strike"), "a8", "a bridge piece");
        let p = south(&[("b8", "S gunboat"), ("a8", "N fighter")]);
        assert_eq!(targets(&p, "b8", "strike"), "a8", "a plane over a bridge");
        let p = south(&[("c9", "S gunboat"), ("c10", "N fighter")]);
        assert_eq!(targets(&p, "c9", "strike"), "c10", "a plane over the coast");
        let p = south(&[("c9", "S gunboat"), ("c10", "N major")]);
        assert_eq!(
            targets(&p, "c9", "strike"),
            "",
            "not a land piece on the coast"
        );
        let p = south(&[
            ("c7", "S destroyer"),
            ("b8", "S cruiser"),
            ("a8", "N major"),
        ]);
        assert_eq!(
            targets(&p, "b8", "strike"),
            "",
            "only the gunboat strikes from the sea"
        );
    }

    #[test]
    fn lsa_rule_4_8_scout_looks_at_the_first_enemy() {
        let p = south(&[
            ("i1", "S scout_plane"),
            ("i4", "S major"),
            ("i11", "N tank"),
        ]);
        assert_eq!(targets(&p, "i1", "look"), "i11");
        assert_eq!(targets(&p, "i1", "fly"), names("i2 i3 i5 i6 i7 i8 i9 i10"));
        let p = south(&[
            ("i1", "S scout_plane"),
            ("i11", "N tank"),
            ("i12", "N major"),
        ]);
        assert_eq!(targets(&p, "i1", "look"), "i11", "only the first enemy");
    }

    #[test]
    fn lsa_rule_4_static_pieces_never_act() {
        let p = south(&[
            ("b2", "S landmine"),
            ("c2", "S trap"),
            ("c1", "S flag"),
            ("e6", "S fort"),
        ]);
        for s in ["b2", "c2", "c1", "e6"] {
            assert!(actions_of(&p, s).is_empty(), "{s}");
        }
    }

    #[test]
    fn lsa_action_text() {
        let a = Action::Look {
            from: sq("i1"),
            at: sq("i11"),
        };
        assert_eq!(a.to_string(), "scout i1 i11");
        let m = Action::Land {
            from: sq("c9"),
            to: sq("c10"),
        };
        assert_eq!(m.to_string(), "c9-c10");
    }
}
