//! What each observer of a land-sea-air game may see (LANDSEAAIR §6, §10.2): a seat's
//! [`View`] of the board, a spectator's (the public view), and which events each one receives.
//!
//! A view lists every piece with its square, side and arm (public by §6), `landed` on a landed
//! battleship or cruiser (public), and a role only where the observer may know it:
//! - the observer's own pieces;
//! - the enemy fort, while it stands on its harbour (public by the deployment rule);
//! - a piece whose identity was announced to everybody and that has not moved since
//!   ([`Position::is_announced`]: the anti-aircraft gun that shot a scout down, a flag
//!   revealed by its marshal's loss);
//! - every piece in open play ([`Mode::Open`]).
//!
//! A look's private result is in the scout's owner's events ([`Observer::receives`]), never in
//! a view of the board: the piece looked at stays hidden there (§6: "the viewed piece stays
//! hidden"; §10.2: "a seat's own looks are in its events, not in its view").
//!
//! # Where the rule book is silent
//! - In open play a spectator sees every role too (open play makes every identity public).
//! - A scout's owner's view of the board does not keep the roles its looks saw, even while
//!   the piece looked at has not moved: the events carry that knowledge, and a client that
//!   wants to show it keeps its own notes (§10.2 puts looks in the events only).

use super::board::{Board, Side, Square};
use super::combat::Combatant;
use super::movegen::Action;
use super::pieces::{Arm, Role, ROLES};
use super::position::{AttackKind, Event, Options, Piece, Position, Status};
use crate::event::AttackResult;
use std::collections::BTreeMap;

/// The mode of a land-sea-air game (§8): dark (default) or open. Flip and half-open play do
/// not exist on this board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Mode {
    /// 暗棋: identities hidden (§6).
    #[default]
    Dark,
    /// 明棋: every identity public.
    Open,
}

impl Mode {
    /// The interchange spelling: `dark`, `open`.
    pub const fn name(self) -> &'static str {
        match self {
            Mode::Dark => "dark",
            Mode::Open => "open",
        }
    }

    /// The mode named, or an error that says why (`flip` and `half_open` are named as modes
    /// of other boards).
    pub fn from_name(name: &str) -> Result<Mode, String> {
        match name {
            "dark" => Ok(Mode::Dark),
            "open" => Ok(Mode::Open),
            "flip" | "half_open" => Err(format!(
                "mode {name} is not played on the land_sea_air board (LANDSEAAIR §8: dark or open only)"
            )),
            other => Err(format!(
                "unknown mode {other:?} (the land_sea_air board is played dark or open)"
            )),
        }
    }
}

/// Who is looking.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Observer {
    /// A seat: its own pieces, public facts, its own looks.
    Seat(Side),
    /// A spectator: public facts only.
    Spectator,
    /// The referee (and the final record): everything.
    Referee,
}

impl Observer {
    /// Whether this observer receives the event (§10.3): the referee every event, a seat the
    /// public ones and its own `scouted_private`, a spectator the public ones.
    pub fn receives(self, e: &Event) -> bool {
        match (self, e) {
            (Observer::Referee, _) => true,
            (_, e) if e.is_public() => true,
            (Observer::Seat(me), Event::ScoutedPrivate { side, .. }) => *side == me,
            _ => false,
        }
    }
}

/// The events of a step that `observer` receives, in order.
pub fn events_for(observer: Observer, events: &[Event]) -> impl Iterator<Item = Event> + '_ {
    events.iter().copied().filter(move |e| observer.receives(e))
}

/// Whether `observer` may know the role of the piece on `sq` (§6, §10.2). `false` on an
/// empty square.
pub fn role_visible(pos: &Position, mode: Mode, observer: Observer, sq: Square) -> bool {
    let Some(p) = pos.at(sq) else { return false };
    match observer {
        Observer::Referee => true,
        _ if mode == Mode::Open => true,
        Observer::Seat(me) if p.side() == me => true,
        _ => {
            (p.role() == Role::Fort && sq == Board::get().harbour(p.side())) || pos.is_announced(sq)
        }
    }
}

/// One piece as an observer sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ViewPiece {
    /// Its square.
    pub at: Square,
    /// Its side.
    pub side: Side,
    /// Its arm (public; a landed ship is a land piece).
    pub arm: Arm,
    /// Whether a landed battleship or cruiser (public).
    pub landed: bool,
    /// Its role, where the observer may know it.
    pub role: Option<Role>,
}

/// What an observer may see of a position (§6, §10.2).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct View {
    /// Who looks.
    pub observer: Observer,
    /// The mode.
    pub mode: Mode,
    /// The rule options (public: part of the rule set).
    pub options: Options,
    /// The side to move.
    pub to_move: Side,
    /// Every piece on the board, lowest square first.
    pub pieces: Vec<ViewPiece>,
    /// Whether each side's fort has struck (public: strikes are announced).
    pub fort_struck: [bool; 2],
    /// Plies played.
    pub plies: u32,
    /// Plies since the last removal.
    pub quiet_plies: u32,
    /// Each side's skips.
    pub skips: [u8; 2],
    /// Where the game stands.
    pub status: Status,
    /// The observer's legal actions: a seat's when it is to move and the game goes on, else
    /// none (legality uses public facts and the mover's own pieces only, §6).
    pub legal_actions: Vec<Action>,
}

impl View {
    /// The piece on `sq`, as seen.
    pub fn at(&self, sq: Square) -> Option<&ViewPiece> {
        self.pieces.iter().find(|p| p.at == sq)
    }

    /// A full position this view could be a view of, for legality only: every piece where the
    /// view has it, with its role where the view shows one and otherwise the first role of its
    /// arm (a battleship or cruiser when landed) that its side still has to give, plus the
    /// view's counters and struck forts. The side to move's legal actions in it are the view's
    /// when the view is the mover's, since legality uses only public facts and the mover's own
    /// pieces (§6); engines that receive a view as JSON read its action texts against it.
    ///
    /// Errors when the view cannot be of any position: two pieces on a square, a piece on a
    /// square its arm never uses, more pieces of an arm or a role than the piece set has.
    pub fn stand_in(&self) -> Result<Position, String> {
        let set = self.options.piece_set;
        let mut left = [[0u8; ROLES]; 2];
        for side in [Side::South, Side::North] {
            for r in Role::ALL {
                left[side as usize][r as usize] = set.count(r);
            }
        }
        for p in &self.pieces {
            if let Some(r) = p.role {
                let n = &mut left[p.side as usize][r as usize];
                *n = n.checked_sub(1).ok_or_else(|| {
                    format!(
                        "seat {} has more {r} pieces than the piece set {}",
                        p.side as u8,
                        set.name()
                    )
                })?;
            }
        }
        let mut list = Vec::with_capacity(self.pieces.len());
        // Landed ships first: they can only be battleships or cruisers, which hidden ships at
        // sea would otherwise take.
        let landed_first = self.pieces.iter().filter(|p| p.landed);
        for p in landed_first.chain(self.pieces.iter().filter(|p| !p.landed)) {
            let role = match p.role {
                Some(r) => r,
                None => {
                    let fits = |r: &Role| {
                        // Never the fort: it is always shown while it stands (on its harbour).
                        *r != Role::Fort
                            && left[p.side as usize][*r as usize] > 0
                            && if p.landed {
                                r.landing_ship().is_some()
                            } else {
                                r.arm() == p.arm
                            }
                    };
                    let r = Role::ALL.into_iter().find(fits).ok_or_else(|| {
                        format!(
                            "{}: seat {} has more {} pieces than the piece set {}",
                            p.at,
                            p.side as u8,
                            if p.landed { "landed" } else { p.arm.name() },
                            set.name()
                        )
                    })?;
                    left[p.side as usize][r as usize] -= 1;
                    r
                }
            };
            let body = match (p.landed, role.landing_ship()) {
                (true, Some(ship)) => Combatant::Landed(ship),
                (true, None) => return Err(format!("{}: a landed {role}", p.at)),
                (false, _) => Combatant::Piece(role),
            };
            list.push((p.at, Piece::of(p.side, body)));
        }
        let mut pos =
            Position::from_pieces(self.options, self.to_move, &list).map_err(|e| e.to_string())?;
        pos.set_counters(self.plies, self.quiet_plies, self.skips);
        for side in [Side::South, Side::North] {
            pos.set_fort_struck(side, self.fort_struck[side as usize]);
        }
        Ok(pos)
    }
}

impl Position {
    /// What `observer` may see of this position in `mode` (§6, §10.2).
    pub fn view(&self, mode: Mode, observer: Observer) -> View {
        let pieces = self
            .pieces()
            .map(|(at, p)| ViewPiece {
                at,
                side: p.side(),
                arm: p.arm(),
                landed: p.landed(),
                role: role_visible(self, mode, observer, at).then(|| p.role()),
            })
            .collect();
        let legal_actions = match observer {
            Observer::Seat(me) if me == self.to_move() => self.legal_actions().iter().collect(),
            _ => Vec::new(),
        };
        View {
            observer,
            mode,
            options: *self.options(),
            to_move: self.to_move(),
            pieces,
            fort_struck: [self.fort_struck(Side::South), self.fort_struck(Side::North)],
            plies: self.plies(),
            quiet_plies: self.quiet_plies(),
            skips: [self.skips(Side::South), self.skips(Side::North)],
            status: self.status(),
            legal_actions,
        }
    }
}

/// What a seat's own scout looks have seen, kept on the pieces looked at (§7.6): a noted piece
/// that moves takes its note along, one that falls loses it, and a scout plane shot down loses
/// the notes on its own square (none: it is the looker's own piece). A view never carries these
/// (module doc); the terminal and the server keep them from the seat's own events.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LookNotes(BTreeMap<Square, Role>);

impl LookNotes {
    /// Follow one step's events as the noting seat received them ([`events_for`]).
    pub fn follow(&mut self, events: &[Event]) {
        let notes = &mut self.0;
        for e in events {
            match *e {
                Event::Moved { from, to, .. } | Event::Landed { from, to, .. } => {
                    if let Some(r) = notes.remove(&from) {
                        notes.insert(to, r);
                    }
                }
                Event::Attack {
                    from,
                    to,
                    result,
                    kind,
                    ..
                } => {
                    let attacker = notes.remove(&from);
                    notes.remove(&to);
                    let Some(r) = attacker else { continue };
                    match result {
                        // A strike (fort, gunboat) hits from where it stands: the striker stays.
                        AttackResult::AttackerWins | AttackResult::FlagCaptured
                            if kind == AttackKind::Strike =>
                        {
                            notes.insert(from, r);
                        }
                        AttackResult::AttackerWins | AttackResult::FlagCaptured => {
                            notes.insert(to, r);
                        }
                        AttackResult::DefenderWins | AttackResult::BothRemoved => {}
                    }
                }
                Event::Scout {
                    from, shot_down, ..
                } if shot_down => {
                    notes.remove(&from);
                }
                Event::ScoutedPrivate { at, role, .. } => {
                    notes.insert(at, role);
                }
                _ => {}
            }
        }
    }

    /// The role noted on `sq`.
    pub fn get(&self, sq: Square) -> Option<Role> {
        self.0.get(&sq).copied()
    }

    /// Every note, lowest square first.
    pub fn iter(&self) -> impl Iterator<Item = (Square, Role)> + '_ {
        self.0.iter().map(|(&s, &r)| (s, r))
    }

    /// Whether nothing is noted.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::super::movegen::ActionList;
    use super::super::pieces::PieceSet;
    use super::super::playout::random_start;
    use super::super::position::test_util::{build, sq};
    use super::*;
    use crate::event::AttackResult;
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};
    use std::collections::BTreeSet;

    #[test]
    fn lsa_view_shows_own_roles_the_fort_and_public_facts() {
        let p = build(
            Options::default(),
            Side::South,
            &[
                ("e1", "S flag"),
                ("e6", "S fort"),
                ("i1", "S scout_plane"),
                ("c10", "S landed battleship"),
                ("e10", "N fort"),
                ("i11", "N tank"),
                ("d9", "N submarine"),
                ("a15", "N fighter"),
                ("e15", "N flag"),
            ],
        );
        let v = p.view(Mode::Dark, Observer::Seat(Side::South));
        assert_eq!(v.at(sq("e1")).unwrap().role, Some(Role::Flag));
        assert_eq!(v.at(sq("c10")).unwrap().role, Some(Role::Battleship));
        assert!(v.at(sq("c10")).unwrap().landed);
        assert_eq!(v.at(sq("e10")).unwrap().role, Some(Role::Fort));
        assert_eq!(v.at(sq("i11")).unwrap().role, None);
        assert_eq!(v.at(sq("d9")).unwrap().arm, Arm::Sea);
        assert_eq!(v.at(sq("a15")).unwrap().arm, Arm::Air);
        assert!(!v.legal_actions.is_empty());
        let north = p.view(Mode::Dark, Observer::Seat(Side::North));
        assert_eq!(north.at(sq("c10")).unwrap().role, None);
        assert!(north.at(sq("c10")).unwrap().landed);
        assert!(north.legal_actions.is_empty(), "not North's turn");
        let public = p.view(Mode::Dark, Observer::Spectator);
        assert_eq!(public.at(sq("e6")).unwrap().role, Some(Role::Fort));
        assert_eq!(public.at(sq("e1")).unwrap().role, None);
        let open = p.view(Mode::Open, Observer::Spectator);
        assert!(open.pieces.iter().all(|q| q.role.is_some()));
    }

    #[test]
    fn lsa_looks_stay_private_and_announcements_show() {
        let list = [
            ("e1", "S flag"),
            ("c1", "S marshal"),
            ("i11", "N tank"),
            ("a11", "N anti_aircraft_gun"),
            ("e15", "N flag"),
            ("c15", "N marshal"),
        ];
        let mut l = list.to_vec();
        l.push(("i1", "S scout_plane"));
        let mut p = build(Options::default(), Side::South, &l);
        let step = p
            .apply(Action::Look {
                from: sq("i1"),
                at: sq("i11"),
            })
            .unwrap();
        let events = step.events.as_slice();
        let north: Vec<Event> = events_for(Observer::Seat(Side::North), events).collect();
        let south: Vec<Event> = events_for(Observer::Seat(Side::South), events).collect();
        let spectator: Vec<Event> = events_for(Observer::Spectator, events).collect();
        assert!(south.iter().any(|e| matches!(
            e,
            Event::ScoutedPrivate {
                role: Role::Tank,
                ..
            }
        )));
        assert!(north.iter().all(|e| e.is_public()));
        assert_eq!(north, spectator);
        assert_eq!(north.len() + 1, south.len());
        // The look does not show in the scout's owner's view of the board.
        let v = p.view(Mode::Dark, Observer::Seat(Side::South));
        assert_eq!(v.at(sq("i11")).unwrap().role, None);
        // A look at the AA gun shoots the scout down and announces the gun to everybody.
        let mut l = list.to_vec();
        l.push(("a1", "S scout_plane"));
        let mut p = build(Options::default(), Side::South, &l);
        p.apply(Action::Look {
            from: sq("a1"),
            at: sq("a11"),
        })
        .unwrap();
        assert!(p.at(sq("a1")).is_none());
        for who in [Observer::Seat(Side::South), Observer::Spectator] {
            let v = p.view(Mode::Dark, who);
            assert_eq!(v.at(sq("a11")).unwrap().role, Some(Role::AntiAircraftGun));
        }
        // Once it moves, the gun is hidden again.
        p.apply(Action::Move {
            from: sq("a11"),
            to: sq("a12"),
        })
        .unwrap();
        let v = p.view(Mode::Dark, Observer::Spectator);
        assert_eq!(v.at(sq("a12")).unwrap().role, None);
    }

    /// What a public record of the game lets anybody know: the squares whose identity was
    /// announced and whose piece has not moved since, followed from the public events alone.
    #[derive(Default)]
    struct PublicNotes {
        announced: BTreeSet<Square>,
    }

    impl PublicNotes {
        fn follow(&mut self, e: &Event) {
            match *e {
                Event::Moved { from, to, .. } | Event::Landed { from, to, .. } => {
                    self.announced.remove(&from);
                    self.announced.remove(&to);
                }
                Event::Attack {
                    from, to, result, ..
                } => {
                    // A defender that wins stays where it was, still announced; otherwise
                    // `to` is emptied or taken by the attacker. The attacker's square is left
                    // (a striker that stays holds no announced piece: forts are public by rule,
                    // gunboats never announced).
                    self.announced.remove(&from);
                    if result != AttackResult::DefenderWins {
                        self.announced.remove(&to);
                    }
                }
                Event::Scout {
                    from,
                    at,
                    shot_down: true,
                    ..
                } => {
                    self.announced.remove(&from);
                    self.announced.insert(at);
                }
                Event::FlagRevealed { at, .. } => {
                    self.announced.insert(at);
                }
                _ => {}
            }
        }
    }

    /// Check one observer's view against what §6 allows, from the position and the public
    /// notes only.
    fn check_view(p: &Position, notes: &PublicNotes, mode: Mode, who: Observer) {
        let b = Board::get();
        let v = p.view(mode, who);
        assert_eq!(v.pieces.len(), p.pieces().count());
        for q in &v.pieces {
            let real = p.at(q.at).expect("a viewed piece is on the board");
            assert_eq!(
                (q.side, q.arm, q.landed),
                (real.side(), real.arm(), real.landed())
            );
            let allowed = mode == Mode::Open
                || who == Observer::Seat(real.side())
                || (real.role() == Role::Fort && q.at == b.harbour(real.side()))
                || notes.announced.contains(&q.at);
            if allowed {
                assert_eq!(q.role, Some(real.role()), "{who:?} should see {}", q.at);
            } else {
                assert_eq!(
                    q.role,
                    None,
                    "{who:?} sees {} on {}: a leak",
                    real.role(),
                    q.at
                );
            }
        }
    }

    fn leak_game(seed: u64, set: PieceSet, mode: Mode, cap: u32) {
        let mut rng = SmallRng::seed_from_u64(seed);
        let opts = Options {
            piece_set: set,
            ..Options::default()
        };
        let mut p = random_start(opts, &mut rng);
        let mut notes = PublicNotes::default();
        let mut list = ActionList::new();
        while !p.is_over() && p.plies() < cap {
            for who in [
                Observer::Seat(Side::South),
                Observer::Seat(Side::North),
                Observer::Spectator,
            ] {
                check_view(&p, &notes, mode, who);
            }
            list.clear();
            p.legal_actions_into(&mut list);
            let a = list[rng.gen_range(0..list.len())];
            let step = p.apply(a).unwrap();
            for e in step.events.iter() {
                notes.follow(&e);
                for side in Side::BOTH {
                    let seat = Observer::Seat(side);
                    if let Event::ScoutedPrivate { side: owner, .. } = e {
                        assert_eq!(seat.receives(&e), owner == side, "{e:?}");
                    } else {
                        assert!(seat.receives(&e));
                    }
                }
                assert_eq!(Observer::Spectator.receives(&e), e.is_public());
                assert!(Observer::Referee.receives(&e));
            }
        }
    }

    #[test]
    fn lsa_views_never_leak_over_long_games() {
        for seed in 0..6 {
            leak_game(seed, PieceSet::Seed, Mode::Dark, 3000);
        }
        leak_game(7, PieceSet::Taiwan, Mode::Open, 400);
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(24))]
        #[test]
        fn lsa_views_never_leak(
            seed in proptest::prelude::any::<u64>(),
            taiwan in proptest::prelude::any::<bool>(),
            open in proptest::prelude::any::<bool>(),
        ) {
            let set = if taiwan { PieceSet::Taiwan } else { PieceSet::Seed };
            let mode = if open { Mode::Open } else { Mode::Dark };
            leak_game(seed, set, mode, 600);
        }
    }

    #[test]
    fn lsa_mode_names() {
        assert_eq!(Mode::from_name("open"), Ok(Mode::Open));
        assert_eq!(Mode::from_name("dark").map(Mode::name), Ok("dark"));
        let e = Mode::from_name("flip").unwrap_err();
        assert!(e.contains("dark or open"), "{e}");
        assert!(Mode::from_name("half_open").is_err());
        assert!(Mode::from_name("murky").unwrap_err().contains("murky"));
    }

    #[test]
    fn notes_follow_the_piece_and_fall_with_it() {
        let sq = |s: &str| crate::lsa::notation::parse_square(s).unwrap();
        let mut notes = LookNotes::default();
        notes.follow(&[Event::ScoutedPrivate {
            side: Side::South,
            at: sq("c10"),
            role: Role::Tank,
            landed: false,
        }]);
        notes.follow(&[Event::Moved {
            side: Side::North,
            from: sq("c10"),
            to: sq("c9"),
        }]);
        assert_eq!(notes.get(sq("c9")), Some(Role::Tank));
        notes.follow(&[Event::Attack {
            side: Side::North,
            from: sq("c9"),
            to: sq("c8"),
            result: AttackResult::AttackerWins,
            kind: AttackKind::Plain,
        }]);
        assert_eq!(notes.get(sq("c8")), Some(Role::Tank));
        notes.follow(&[Event::Attack {
            side: Side::South,
            from: sq("c7"),
            to: sq("c8"),
            result: AttackResult::AttackerWins,
            kind: AttackKind::Plain,
        }]);
        assert!(notes.is_empty());
    }
}
