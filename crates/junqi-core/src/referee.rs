//! The referee's step (RULES §7.1) and the table actions of §10 (timeouts, resignation, leaving,
//! draws by agreement).

use crate::bits::has_word;
use crate::combat::resolve;
use crate::event::{
    Action, AttackResult, DrawReason, EliminationReason, Event, EventSink, Outcome, SkipReason,
};
use crate::explain::MoveBlocked;
use crate::json::{object, outcome_to_json};
use crate::movegen::{for_each_action, for_each_action_from};
use crate::options::{Blocked, FlipColour, TurnOrder};
use crate::position::{Carry, Cell, Position};
use crate::preset::Leaver;
use crate::role::Role;
use crate::topology::Square;
use crate::types::{BoardKind, PerSeat, Seat, SeatSet, Team, Teams, MAX_SEATS};
use serde_json::{json, Map, Value};
use std::ops::ControlFlow;

/// The skip count at which a seat is eliminated (RULES §10).
pub const SKIP_LIMIT: u8 = 5;

/// Why an action or table action was refused. Nothing was changed. Squares are held by their
/// names on the board (e.g. `c3`). [`IllegalAction::code`] and [`IllegalAction::args`] give the
/// reason in a form clients can translate (the table "Error codes" of `docs/formats.md`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IllegalAction {
    /// The game has an outcome.
    #[error("the game is over ({outcome:?})")]
    GameOver {
        /// How it ended.
        outcome: Outcome,
    },
    /// A side is eliminated, so the game is over (no outcome recorded yet).
    #[error("the game is over: a side is eliminated")]
    SideEliminated,
    /// The action names a square index the board does not have.
    #[error("square index {index} is not on the board")]
    SquareOffBoard {
        /// The index.
        index: u8,
    },
    /// A flip outside flip play.
    #[error("flips exist only in flip play")]
    NoFlips,
    /// A flip of an empty square.
    #[error("there is no piece on {square} to flip")]
    NothingToFlip {
        /// The square.
        square: String,
    },
    /// A flip of a face-up piece.
    #[error("the piece on {square} is already face up")]
    AlreadyFaceUp {
        /// The square.
        square: String,
    },
    /// A move from an empty square.
    #[error("there is no piece on {square}")]
    NoPiece {
        /// The square.
        square: String,
    },
    /// Flip play before the colours are settled: only flips are legal.
    #[error("colours are not settled yet: only flips are legal")]
    ColoursNotSettled,
    /// A move of a face-down piece.
    #[error("the piece on {square} is face down")]
    FaceDown {
        /// The square.
        square: String,
    },
    /// A move of a piece that is not the mover's.
    #[error("the piece on {square} is not seat {seat}'s")]
    NotYourPiece {
        /// The square.
        square: String,
        /// The seat to move.
        seat: Seat,
    },
    /// A move of a landmine or a flag.
    #[error("the {role} on {square} never moves")]
    NeverMoves {
        /// The role of the piece.
        role: Role,
        /// Its square.
        square: String,
    },
    /// A move out of a headquarters under `hq_exit = locked`.
    #[error("the piece on {square} stands in a headquarters and may not leave it")]
    HeadquartersLocked {
        /// The headquarters.
        square: String,
    },
    /// A movable piece of the mover that cannot reach the destination; `why` says what stops
    /// it (the mountain, a friend there, a piece in a camp there, a rail corner …), in terms of
    /// what the mover sees ([`crate::explain`]).
    #[error("the {role} on {from} cannot move to {to}: {why}")]
    CannotMove {
        /// The role of the piece.
        role: Role,
        /// Its square.
        from: String,
        /// The destination.
        to: String,
        /// What stops it.
        why: MoveBlocked,
    },
    /// A table action names a seat the board does not have.
    #[error("seat {seat} does not exist")]
    NoSuchSeat {
        /// The seat.
        seat: Seat,
    },
    /// A table action names a seat that is out of the game.
    #[error("seat {seat} is already out of the game")]
    AlreadyOut {
        /// The seat.
        seat: Seat,
    },
    /// A record entry acts for a seat that is not to move.
    #[error("it is seat {to_move}'s turn, not seat {seat}'s")]
    NotYourTurn {
        /// The seat to move.
        to_move: Seat,
        /// The seat that tried to act.
        seat: Seat,
    },
}

impl IllegalAction {
    /// The stable code of the reason, e.g. `action.not_your_turn`.
    pub fn code(&self) -> &'static str {
        match self {
            IllegalAction::GameOver { .. } => "action.game_over",
            IllegalAction::SideEliminated => "action.side_eliminated",
            IllegalAction::SquareOffBoard { .. } => "action.square_off_board",
            IllegalAction::NoFlips => "action.no_flips",
            IllegalAction::NothingToFlip { .. } => "action.nothing_to_flip",
            IllegalAction::AlreadyFaceUp { .. } => "action.already_face_up",
            IllegalAction::NoPiece { .. } => "action.no_piece",
            IllegalAction::ColoursNotSettled => "action.colours_not_settled",
            IllegalAction::FaceDown { .. } => "action.face_down",
            IllegalAction::NotYourPiece { .. } => "action.not_your_piece",
            IllegalAction::NeverMoves { .. } => "action.never_moves",
            IllegalAction::HeadquartersLocked { .. } => "action.headquarters_locked",
            IllegalAction::CannotMove { .. } => "action.cannot_move",
            IllegalAction::NoSuchSeat { .. } => "action.no_such_seat",
            IllegalAction::AlreadyOut { .. } => "action.already_out",
            IllegalAction::NotYourTurn { .. } => "action.not_your_turn",
        }
    }

    /// The data of the reason as JSON: squares by name, roles by their interchange name
    /// ([`Role::name`]), seats as numbers, an outcome as in RULES §11.2
    /// ([`outcome_to_json`]).
    pub fn args(&self) -> Map<String, Value> {
        object(match self {
            IllegalAction::GameOver { outcome } => {
                json!({"outcome": outcome_to_json(Some(*outcome))})
            }
            IllegalAction::SideEliminated
            | IllegalAction::NoFlips
            | IllegalAction::ColoursNotSettled => json!({}),
            IllegalAction::SquareOffBoard { index } => json!({"index": index}),
            IllegalAction::NothingToFlip { square }
            | IllegalAction::AlreadyFaceUp { square }
            | IllegalAction::NoPiece { square }
            | IllegalAction::FaceDown { square }
            | IllegalAction::HeadquartersLocked { square } => json!({"square": square}),
            IllegalAction::NotYourPiece { square, seat } => json!({"square": square, "seat": seat}),
            IllegalAction::NeverMoves { role, square } => {
                json!({"role": role.name(), "square": square})
            }
            IllegalAction::CannotMove {
                role,
                from,
                to,
                why,
            } => {
                let mut o = json!({"role": role.name(), "from": from, "to": to, "why": why.code()});
                if let MoveBlocked::PathBlocked { at } = why {
                    o["at"] = json!(at);
                }
                o
            }
            IllegalAction::NoSuchSeat { seat } | IllegalAction::AlreadyOut { seat } => {
                json!({"seat": seat})
            }
            IllegalAction::NotYourTurn { to_move, seat } => {
                json!({"to_move": to_move, "seat": seat})
            }
        })
    }
}

/// A reusable buffer of actions.
pub type ActionList = Vec<Action>;

impl Position {
    /// Every legal action of the seat to move (none once the game is over), appended to `out`.
    pub fn legal_actions_into(&self, out: &mut ActionList) {
        if self.is_over() || self.is_eliminated(self.to_move) {
            return;
        }
        let _ = for_each_action(self, self.to_move, &mut |a| {
            out.push(a);
            ControlFlow::Continue(())
        });
    }

    /// Every legal action of the seat to move.
    pub fn legal_actions(&self) -> ActionList {
        let mut v = Vec::with_capacity(64);
        self.legal_actions_into(&mut v);
        v
    }

    /// Whether a seat (in the game) has at least one legal action now.
    pub fn has_legal_action(&self, seat: Seat) -> bool {
        crate::movegen::has_action(self, seat)
    }

    /// Why an action is not legal for the seat to move, or `Ok` if it is.
    pub fn check(&self, action: Action) -> Result<(), IllegalAction> {
        let t = self.topo;
        self.ensure_running()?;
        let seat = self.to_move;
        let sq = match action {
            Action::Move { from, .. } | Action::Flip(from) => from,
        };
        for s in [
            Some(sq),
            if let Action::Move { to, .. } = action {
                Some(to)
            } else {
                None
            },
        ]
        .into_iter()
        .flatten()
        {
            if s.index() >= t.len() {
                return Err(IllegalAction::SquareOffBoard { index: s.0 });
            }
        }
        let found = for_each_action_from(self, seat, sq, &mut |a| {
            if a == action {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        if found.is_break() {
            return Ok(());
        }
        Err(self.explain_illegal(action))
    }

    /// Apply a legal action of the seat to move (RULES §7.1); an illegal one changes nothing and
    /// is answered with the reason.
    pub fn play(
        &mut self,
        action: Action,
        events: &mut impl EventSink,
    ) -> Result<(), IllegalAction> {
        self.check(action)?;
        self.play_unchecked(action, events);
        Ok(())
    }

    /// Apply an action known to be legal (one from [`Position::legal_actions`]). Allocates
    /// nothing; events go to `events` (`&mut ()` drops them).
    pub fn play_unchecked(&mut self, action: Action, ev: &mut impl EventSink) {
        self.play_unchecked_into(action, ev, None);
    }

    /// [`Position::play_unchecked`], and `legal` (cleared first) then holds the legal actions of
    /// the new position, as [`Position::legal_actions_into`] lists them (none once the game is
    /// over). The referee looks for a legal action of the next seat anyway (to pass the turn,
    /// RULES §7.1 step 5): here that search lists them all, so they are generated once.
    pub fn play_unchecked_collect(
        &mut self,
        action: Action,
        ev: &mut impl EventSink,
        legal: &mut ActionList,
    ) {
        legal.clear();
        self.play_unchecked_into(action, ev, Some(legal));
        if self.outcome.is_some() {
            legal.clear();
        }
    }

    fn play_unchecked_into(
        &mut self,
        action: Action,
        ev: &mut impl EventSink,
        legal: Option<&mut ActionList>,
    ) {
        let mover = self.to_move;
        let mut step = Step::default();
        let reset_quiet = match action {
            Action::Flip(at) => {
                self.flip(mover, at, ev);
                true
            }
            Action::Move { from, to } => self.move_piece(mover, from, to, ev, &mut step),
        };
        self.finish_ply(mover, reset_quiet, ev, &mut step, legal);
    }

    /// Steps 2 to 5 of the referee's step, once the action of `mover` is resolved: count the
    /// ply (an attack or a flip resets the quiet count), eliminate every seat left with no
    /// movable piece, end the game or pass the turn.
    fn finish_ply(
        &mut self,
        mover: Seat,
        reset_quiet: bool,
        ev: &mut impl EventSink,
        step: &mut Step,
        legal: Option<&mut ActionList>,
    ) {
        // Step 2: count the ply.
        // Saturating: a hand-written position may start with counters near the limit of u32.
        self.plies = self.plies.saturating_add(1);
        self.quiet = if reset_quiet {
            0
        } else {
            self.quiet.saturating_add(1)
        };
        // Step 3: every seat left with no movable piece (and, QQ, every blocked seat).
        self.eliminate_immobile(mover, ev, step);
        // Steps 4 and 5.
        if !self.end_check(Some(mover), true, step) {
            self.pass_turn(mover, ev, step, legal);
        }
    }

    /// Not a rule: for searches over flip play. The seat to move turns up a piece that changes
    /// nothing on the board: the ply is counted, the quiet count reset (as by any flip) and the
    /// turn passed on, but no piece is revealed. A search stands this in for the flips it cannot
    /// see the outcome of (which piece a face-down square holds is a chance event, not a
    /// choice). Only for a running game.
    pub fn pass_as_flip_unchecked(&mut self, ev: &mut impl EventSink) {
        self.finish_ply(self.to_move, true, ev, &mut Step::default(), None);
    }

    fn flip(&mut self, mover: Seat, at: Square, ev: &mut impl EventSink) {
        let c = self.cells[at.index()].turned_up();
        self.cells[at.index()] = c;
        crate::bits::set_word(&mut self.face_down, at.0, false);
        ev.push(Event::Flip {
            seat: mover,
            at,
            role: c.role(),
            colour: c.seat(),
        });
        if self.flip_colours.is_none() {
            let settle = match self.rules.options.flip_colour {
                FlipColour::FirstFlip => true,
                FlipColour::FirstEngineer => c.role() == Role::Engineer,
            };
            if settle {
                let mut colours = [0u8; 2];
                colours[mover as usize] = c.seat();
                colours[1 - mover as usize] = 1 - c.seat();
                self.flip_colours = Some(colours);
                ev.push(Event::Colours { colours });
            }
        }
    }

    /// Resolve a move or attack (step 1). Returns whether it was an attack.
    fn move_piece(
        &mut self,
        mover: Seat,
        from: Square,
        to: Square,
        ev: &mut impl EventSink,
        step: &mut Step,
    ) -> bool {
        let carry = self.rules.carry_home();
        let defender = self.cells[to.index()];
        if defender.is_empty() {
            let c = self.take(from);
            self.put(to, c);
            ev.push(Event::Move {
                seat: mover,
                from,
                to,
            });
            if carry {
                self.follow_carrier(from, to);
                self.check_carried_home(to, ev, step);
            }
            return false;
        }
        let attacker = self.cells[from.index()];
        let res = resolve(&self.rules, attacker.role(), defender.role());
        ev.push(Event::Attack {
            seat: mover,
            from,
            to,
            result: res.result,
        });
        if res.scouted {
            self.cells[to.index()] = defender.with_public();
            ev.push(Event::Scouted {
                at: to,
                role: defender.role(),
            });
        }
        let mut lost_marshals = [None::<u8>; 2];
        let mut returns = [None::<Seat>; 2];
        let attacker_carried = if carry { self.carried_by(from) } else { None };
        let defender_carried = if carry { self.carried_by(to) } else { None };
        self.take(from);
        if !res.attacker_survives {
            if attacker.role() == Role::Marshal {
                lost_marshals[0] = Some(attacker.seat());
            }
            returns[0] = attacker_carried;
        }
        if !res.defender_survives {
            self.take(to);
            if defender.role() == Role::Marshal {
                lost_marshals[1] = Some(defender.seat());
            }
            returns[1] = defender_carried;
        }
        if res.attacker_survives {
            // Every result that keeps the attacker removes the defender.
            self.put(to, attacker);
        }
        let mut flag_loser = None;
        if res.result == AttackResult::FlagCaptured {
            let flag_seat = defender.seat();
            if carry {
                // The capturer takes the square and carries the flag.
                self.carries[flag_seat as usize] = Some(Carry {
                    carrier: to,
                    captured_at: to,
                });
            } else {
                flag_loser = Some(self.seat_of_colour(flag_seat).unwrap_or(flag_seat));
            }
        } else if carry && res.attacker_survives {
            self.follow_carrier(from, to);
        }
        for f in returns.into_iter().flatten() {
            self.return_flag(f);
        }
        // Announcements first (marshal losses reveal flags, the attacker's first), then the
        // eliminations that end step 1.
        if self.rules.options.reveal_flag_on_marshal_loss {
            for seat in lost_marshals.into_iter().flatten() {
                self.reveal_flag(seat, ev);
            }
        }
        if let Some(loser) = flag_loser {
            self.eliminate(loser, EliminationReason::FlagCaptured, ev, step);
        }
        if carry && res.attacker_survives {
            self.check_carried_home(to, ev, step);
        }
        true
    }

    /// The seat whose flag the piece on `sq` carries.
    fn carried_by(&self, sq: Square) -> Option<Seat> {
        (0..MAX_SEATS as u8).find(|&f| self.carries[f as usize].is_some_and(|c| c.carrier == sq))
    }

    /// Under `carry_home`: a carrier that moved from `from` to `to` takes its flag along.
    fn follow_carrier(&mut self, from: Square, to: Square) {
        for c in self.carries.iter_mut().flatten() {
            if c.carrier == from {
                c.carrier = to;
            }
        }
    }

    /// Under `carry_home`: the flag's seat is eliminated once its carrier stands on one of the
    /// carrier's own HQs.
    fn check_carried_home(&mut self, at: Square, ev: &mut impl EventSink, step: &mut Step) {
        let Some(f) = self.carried_by(at) else { return };
        let owner = self.cells[at.index()].seat();
        if has_word(&self.topo.seat_hqs[owner as usize], at.0) {
            self.carries[f as usize] = None;
            self.eliminate(f, EliminationReason::FlagCaptured, ev, step);
        }
    }

    /// §9.1: a carried flag goes back onto the board for its seat.
    fn return_flag(&mut self, flag_seat: Seat) {
        let Some(carry) = self.carries[flag_seat as usize].take() else {
            return;
        };
        let t = self.topo;
        let mut candidates = [carry.captured_at; 13];
        let mut n = 1;
        for (r, c) in [(5u8, 1u8), (5, 3)] {
            candidates[n] = t.local(flag_seat, r, c);
            n += 1;
        }
        for r in [5u8, 4] {
            for c in 0..5u8 {
                candidates[n] = t.local(flag_seat, r, c);
                n += 1;
            }
        }
        if let Some(&sq) = candidates[..n]
            .iter()
            .find(|s| self.cells[s.index()].is_empty())
        {
            let flag = Cell::new(
                crate::position::Piece {
                    role: Role::Flag,
                    seat: flag_seat,
                    face_down: false,
                },
                true,
            );
            self.put(sq, flag);
        }
    }

    /// Announce a seat's (colour's) flag square on its marshal's loss.
    fn reveal_flag(&mut self, colour: u8, ev: &mut impl EventSink) {
        if let Some(c) = self.carries[colour as usize] {
            ev.push(Event::FlagRevealed {
                seat: colour,
                at: c.carrier,
            });
            return;
        }
        let mut own = crate::bits::iter_words(self.occ[colour as usize]);
        if let Some(sq) = own.find(|&s| self.cells[s as usize].role() == Role::Flag) {
            let c = self.cells[sq as usize];
            if c.face_down() {
                return;
            }
            self.cells[sq as usize] = c.with_public();
            ev.push(Event::FlagRevealed {
                seat: colour,
                at: Square(sq),
            });
        }
    }

    /// Eliminate a seat: on a multi-seat board its pieces leave the board (a flag one of them
    /// carried goes back); a flag of its own being carried disappears.
    fn eliminate(
        &mut self,
        seat: Seat,
        reason: EliminationReason,
        ev: &mut impl EventSink,
        step: &mut Step,
    ) {
        if self.is_eliminated(seat) {
            return;
        }
        self.eliminated.insert(seat);
        ev.push(Event::Eliminated { seat, reason });
        self.carries[seat as usize] = None;
        if self.rules.board.is_multi_seat() {
            // Its pieces leave together; a flag one of them carried goes back afterwards.
            let mut carried = SeatSet::EMPTY;
            for sq in crate::bits::iter_words(self.occ[seat as usize]) {
                if let Some(f) = self.carried_by(Square(sq)) {
                    carried.insert(f);
                }
                self.take(Square(sq));
            }
            for f in carried.iter() {
                self.return_flag(f);
            }
        }
        let team = self.rules.teams().team_of(seat);
        if self.team_out(team) {
            step.team_out(team, reason);
        }
    }

    /// Step 3: eliminate every seat with no movable piece, repeating until none is left; under
    /// `blocked = out_at_once` also every seat but the one that acted (`mover`) that has movable
    /// pieces but no legal action, in turn order from the seat after the mover, each checked
    /// when its turn in the pass comes (an earlier removal may have freed it).
    fn eliminate_immobile(&mut self, mover: Seat, ev: &mut impl EventSink, step: &mut Step) {
        if self.rules.is_flip() && self.flip_colours.is_none() {
            return;
        }
        if self.rules.options.blocked == Blocked::OutAtOnce {
            return self.eliminate_immobile_or_blocked(mover, ev, step);
        }
        loop {
            let mut any = false;
            for seat in 0..self.seats() as u8 {
                if !self.is_eliminated(seat) && !self.has_movable_piece(seat) {
                    self.eliminate(seat, EliminationReason::NoMovablePieces, ev, step);
                    any = true;
                }
            }
            if !any {
                break;
            }
        }
    }

    /// Step 3 under `blocked = out_at_once` (QQ): see [`Position::eliminate_immobile`].
    fn eliminate_immobile_or_blocked(
        &mut self,
        mover: Seat,
        ev: &mut impl EventSink,
        step: &mut Step,
    ) {
        loop {
            let mut any = false;
            let mut seat = mover;
            for _ in 0..self.seats() {
                seat = self.next_seat(seat);
                if self.is_eliminated(seat) {
                    continue;
                }
                let reason = if !self.has_movable_piece(seat) {
                    EliminationReason::NoMovablePieces
                } else if seat != mover && !self.can_still_act(seat) {
                    EliminationReason::Blocked
                } else {
                    continue;
                };
                self.eliminate(seat, reason, ev, step);
                any = true;
            }
            // Repeat until a pass puts nobody out (§7.1): a removal mostly frees squares, but
            // under `carry_home` a flag its carrier dropped goes back onto the board and may
            // wall a piece in.
            if !any {
                break;
            }
        }
    }

    /// Whether `seat` has a legal action, as [`Position::has_legal_action`] answers, asked
    /// after every action for every seat under `blocked = out_at_once`: the one-square step that
    /// proved it last time is tried first (a few bit tests), and only when that piece or square
    /// has changed is a new one looked for (and kept).
    fn can_still_act(&mut self, seat: Seat) -> bool {
        if let Some((from, to)) = self.witness[seat as usize] {
            if crate::movegen::step_still_legal(self, seat, from, to) {
                return true;
            }
        }
        match crate::movegen::first_step(self, seat) {
            Some(step) => {
                self.witness[seat as usize] = step;
                step.is_some()
            }
            None => self.has_legal_action(seat),
        }
    }

    /// Step 4: end the game on a side's elimination (a win) or, after an action, on a draw
    /// limit. Returns whether the game is over.
    fn end_check(&mut self, mover: Option<Seat>, after_action: bool, step: &Step) -> bool {
        let teams = self.rules.teams();
        let mut left = teams.teams().filter(|&t| !self.team_out(t));
        let (first, second) = (left.next(), left.next());
        if second.is_none() {
            // One team left wins; if one move left none, the moving seat's team wins.
            let winner = first.unwrap_or_else(|| teams.team_of(mover.unwrap_or(self.to_move)));
            let reason = step
                .last_out_except(winner)
                .unwrap_or(EliminationReason::NoMovablePieces);
            self.outcome = Some(Outcome::Win {
                winners: teams.members(winner),
                reason,
            });
            return true;
        }
        if after_action {
            let o = &self.rules.options;
            if self.quiet >= o.quiet_plies {
                self.outcome = Some(Outcome::Draw {
                    reason: DrawReason::QuietPlies,
                });
                return true;
            }
            if self.plies >= o.max_plies {
                self.outcome = Some(Outcome::Draw {
                    reason: DrawReason::MaxPlies,
                });
                return true;
            }
        }
        false
    }

    /// The seat after `seat` in turn order.
    fn next_seat(&self, seat: Seat) -> Seat {
        let n = self.seats() as Seat;
        match self.rules.options.turn_order {
            TurnOrder::CounterClockwise => (seat + 1) % n,
            TurnOrder::Clockwise => (seat + n - 1) % n,
        }
    }

    /// Step 5: pass the turn to the next seat still in the game that can act, eliminating or
    /// skipping blocked seats on the way (and ending the game if that decides it). With
    /// `legal`, the search for the next seat's action lists them all there (empty if none).
    fn pass_turn(
        &mut self,
        from: Seat,
        ev: &mut impl EventSink,
        step: &mut Step,
        mut legal: Option<&mut ActionList>,
    ) {
        let mut cur = from;
        loop {
            let mut next = self.next_seat(cur);
            while self.is_eliminated(next) {
                next = self.next_seat(next);
            }
            let can_act = match legal.as_deref_mut() {
                Some(list) => {
                    list.clear();
                    let _ = for_each_action(self, next, &mut |a| {
                        list.push(a);
                        ControlFlow::Continue(())
                    });
                    !list.is_empty()
                }
                None => self.has_legal_action(next),
            };
            if can_act {
                self.to_move = next;
                return;
            }
            match self.rules.options.blocked {
                // Under `out_at_once` step 3 has put out every blocked seat but the last to act;
                // this is that seat's turn come round again (or a turn passed on by a timeout,
                // a resignation or a leave): it goes out as under `lose`.
                Blocked::Lose | Blocked::OutAtOnce => {
                    self.eliminate(next, EliminationReason::Blocked, ev, step)
                }
                Blocked::Skip => self.skip(next, SkipReason::Blocked, ev, step),
            }
            if self.end_check(None, false, step) {
                return;
            }
            cur = next;
        }
    }

    fn skip(&mut self, seat: Seat, reason: SkipReason, ev: &mut impl EventSink, step: &mut Step) {
        ev.push(Event::Skipped { seat, reason });
        self.skips[seat as usize] = self.skips[seat as usize].saturating_add(1);
        if self.skips[seat as usize] >= SKIP_LIMIT {
            self.eliminate(seat, EliminationReason::Skips, ev, step);
        }
    }

    /// The seat to move ran out of time (RULES §10): its turn is skipped (eliminated at the skip
    /// limit) and the turn passes as in step 5.
    pub fn timeout(&mut self, ev: &mut impl EventSink) -> Result<(), IllegalAction> {
        self.ensure_running()?;
        let seat = self.to_move;
        let mut step = Step::default();
        self.skip(seat, SkipReason::Timeout, ev, &mut step);
        if !self.end_check(None, false, &step) {
            self.pass_turn(seat, ev, &mut step, None);
        }
        Ok(())
    }

    /// A seat resigns (RULES §10; the table enforces the 90-second window). Multi-seat: the seat
    /// is eliminated and its team loses when all its seats are out.
    pub fn resign(&mut self, seat: Seat, ev: &mut impl EventSink) -> Result<(), IllegalAction> {
        self.remove_seat(seat, EliminationReason::Resigned, ev)
    }

    /// A seat leaves for good (RULES §10). Two-player: it loses. Four-player with teams: if its
    /// partner is already out the other side wins; otherwise the game is aborted, or, under the
    /// table rule [`Leaver::PartnerPlaysOn`] (QQ), the seat is eliminated and its partner plays
    /// on. Three- and six-player, and any board with `teams = none`: the seat is eliminated and
    /// the game goes on unless the seats left all belong to one team.
    pub fn leave(
        &mut self,
        seat: Seat,
        leaver: Leaver,
        ev: &mut impl EventSink,
    ) -> Result<(), IllegalAction> {
        self.ensure_seat(seat)?;
        let partners_in = self
            .rules
            .teams()
            .mates(seat)
            .minus(SeatSet::one(seat))
            .minus(self.eliminated);
        if self.rules.board == BoardKind::FourPlayer
            && self.rules.options.teams != Teams::None
            && !partners_in.is_empty()
            && leaver == Leaver::Abort
        {
            self.ensure_running()?;
            self.outcome = Some(Outcome::Aborted);
            return Ok(());
        }
        self.remove_seat(seat, EliminationReason::Left, ev)
    }

    /// Every remaining seat agreed to a draw.
    pub fn agree_draw(&mut self) -> Result<(), IllegalAction> {
        self.ensure_running()?;
        self.outcome = Some(Outcome::Draw {
            reason: DrawReason::Agreement,
        });
        Ok(())
    }

    /// Abort the game with no winner.
    pub fn abort(&mut self) -> Result<(), IllegalAction> {
        self.ensure_running()?;
        self.outcome = Some(Outcome::Aborted);
        Ok(())
    }

    fn remove_seat(
        &mut self,
        seat: Seat,
        reason: EliminationReason,
        ev: &mut impl EventSink,
    ) -> Result<(), IllegalAction> {
        self.ensure_seat(seat)?;
        self.ensure_running()?;
        let mut step = Step::default();
        self.eliminate(seat, reason, ev, &mut step);
        if !self.end_check(None, false, &step) && self.to_move == seat {
            self.pass_turn(seat, ev, &mut step, None);
        }
        Ok(())
    }

    fn ensure_running(&self) -> Result<(), IllegalAction> {
        match self.outcome {
            Some(outcome) => Err(IllegalAction::GameOver { outcome }),
            None if self.is_over() => Err(IllegalAction::SideEliminated),
            None => Ok(()),
        }
    }

    fn ensure_seat(&self, seat: Seat) -> Result<(), IllegalAction> {
        if seat as usize >= self.seats() {
            return Err(IllegalAction::NoSuchSeat { seat });
        }
        if self.is_eliminated(seat) {
            return Err(IllegalAction::AlreadyOut { seat });
        }
        Ok(())
    }
}

/// Facts gathered during one step.
#[derive(Default)]
struct Step {
    /// For each team that went out in this step: when (1 = first) and the reason of the
    /// elimination that completed it.
    team_out: PerSeat<Option<(u8, EliminationReason)>>,
    /// Teams that went out in this step.
    out_count: u8,
}

impl Step {
    /// A team's last seat was eliminated, for this reason.
    fn team_out(&mut self, team: Team, reason: EliminationReason) {
        if self.team_out[team.index()].is_none() {
            self.out_count += 1;
            self.team_out[team.index()] = Some((self.out_count, reason));
        }
    }

    /// The reason that completed the last team to go out in this step, the winner excepted
    /// (the reason of a win, §7.1).
    fn last_out_except(&self, winner: Team) -> Option<EliminationReason> {
        self.team_out
            .iter()
            .enumerate()
            .filter(|&(t, _)| t != winner.index())
            .filter_map(|(_, o)| *o)
            .max_by_key(|&(order, _)| order)
            .map(|(_, reason)| reason)
    }
}

#[cfg(test)]
mod tests {
    use crate::options::{Options, Rules};
    use crate::position::Position;
    use crate::types::{BoardKind, Mode};
    use rand::{Rng, SeedableRng};
    use serde_json::json;

    /// `play_unchecked_collect` plays as `play_unchecked` does and lists what
    /// `legal_actions_into` lists afterwards, on every board and mode and under the options that
    /// change who may act (blocked seats, carried flags, forbidden attacks, short games).
    #[test]
    fn collect_lists_the_legal_actions() {
        let extra: [&[(&str, serde_json::Value)]; 4] = [
            &[],
            &[("blocked", json!("skip")), ("landmine", json!("both_die"))],
            &[
                ("win_by_flag", json!("carry_home")),
                ("engineer_scout", json!(true)),
            ],
            &[
                ("losing_attacks", json!("forbidden")),
                ("rail_turns", json!("any")),
                ("quiet_plies", json!(12)),
            ],
        ];
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        let (mut legal, mut events_a, mut events_b) = (Vec::new(), Vec::new(), Vec::new());
        for board in BoardKind::ALL {
            for mode in Mode::ALL {
                for opts in extra {
                    let mut options = Options::defaults(board, mode);
                    if opts.iter().any(|(k, v)| options.set(k, v).is_err()) {
                        continue;
                    }
                    let Ok(rules) = Rules::new(board, mode, options) else {
                        continue;
                    };
                    for _ in 0..3 {
                        let mut a = Position::random_start(rules, &mut rng);
                        let mut b = a.clone();
                        let mut list = a.legal_actions();
                        while !list.is_empty() {
                            let act = list[rng.gen_range(0..list.len())];
                            events_a.clear();
                            events_b.clear();
                            a.play_unchecked(act, &mut events_a);
                            b.play_unchecked_collect(act, &mut events_b, &mut legal);
                            assert_eq!(a, b);
                            assert_eq!(events_a, events_b);
                            list = a.legal_actions();
                            assert_eq!(legal, list, "{board} {mode}");
                        }
                        assert!(a.is_over());
                    }
                }
            }
        }
    }
}
