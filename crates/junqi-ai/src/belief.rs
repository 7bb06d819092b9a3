//! Belief tracking: for every piece whose identity the bot's seat does not know, a probability
//! distribution over roles, updated from everything public (RULES §6).
//!
//! Each tracked piece carries a *mask* of the roles it can still be, pruned only by hard facts:
//! deployment restrictions (landmines in the last two rows, the flag in an HQ, no bomb in the
//! front row), movement (a piece that moved is neither a landmine nor a flag; one that turned a
//! rail corner is an engineer, or a bomb under `bomb_flies`, or anything under `rail_turns =
//! any`), announced combat results (against our known pieces and between hidden pieces), flag
//! reveals (the marshal's loss names the dead piece a marshal; a death without a reveal says it
//! was not), scouts, flips, and the identities an observation shows. Because only facts prune a
//! mask, the true role is never excluded.
//!
//! Dead pieces stay in the table with the mask they had when they died, so the per-seat table
//! always holds exactly the 25 pieces of the seat and the counts of RULES §1 apply to it as a
//! whole. The probabilities are the masks weighted by a layout prior and balanced to the counts
//! by iterative proportional fitting (Sinkhorn): every row sums to one, every role column to its
//! count. Sampling a full assignment (for [`Observation::determinize`]) respects masks and
//! counts exactly.
//!
//! Flip play (翻棋) is different: the colour of a face-down piece is as hidden as its role (the
//! backs of the pieces are all alike), face-down pieces never move, are never attacked and
//! never leave the board, and a face-up piece is known to everybody. So nothing sets one
//! face-down piece apart from another: each is a (colour, role) pair drawn from the *pool* of
//! identities never seen face up (25 of each colour at the start, minus every piece turned up
//! so far — those on the board and those that died, all of which died face up). The belief
//! keeps that pool (from the flips announced and, for flips it was not told of, from the
//! squares that turned face up between two observations) and samples worlds by dealing the
//! pool to the face-down squares without replacement. It tracks no per-piece masks in flip
//! play ([`Belief::pieces`] stays empty).

#![allow(clippy::needless_range_loop)]

use crate::deploygen::layout_prior;
use junqi_core::combat::resolve;
use junqi_core::options::RailTurns;
use junqi_core::{
    AttackResult, Event, Observation, Position, Role, Rules, Seat, Square, SquareKind, Topology,
    MAX_SEATS,
};
use rand::Rng;

/// A set of roles as a bit mask (bit `role as usize`).
pub type RoleMask = u16;

/// Every role.
pub const ALL_ROLES: RoleMask = (1 << 12) - 1;
/// Roles that can move.
pub const MOVABLE: RoleMask = ALL_ROLES & !(1 << Role::Landmine as u16) & !(1 << Role::Flag as u16);

/// The mask of one role.
#[inline]
pub const fn bit(r: Role) -> RoleMask {
    1 << r as u16
}

/// Roles in a mask.
pub fn roles_in(mask: RoleMask) -> impl Iterator<Item = Role> {
    Role::ALL.into_iter().filter(move |&r| mask & bit(r) != 0)
}

/// One piece the belief follows.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tracked {
    /// Owning seat (flip play: colour).
    pub seat: Seat,
    /// Roles it can still be.
    pub mask: RoleMask,
    /// Whether it is on the board.
    pub alive: bool,
    /// Its square (the last one, once dead).
    pub at: Square,
    /// Its square when tracking began.
    pub origin: Square,
    /// Whether it has ever moved.
    pub moved: bool,
    /// How many attacks it made.
    pub attacks: u16,
    /// Prior weights by role (before the counts are applied).
    pub prior: [f64; 12],
}

/// What an observation shows of a piece: its seat (if shown), its role (if known), and whether
/// it is face down.
type Shown = (Option<Seat>, Option<Role>, bool);

/// What the seat believes about every piece it cannot see.
#[derive(Clone, Debug)]
pub struct Belief {
    rules: Rules,
    me: Seat,
    topo: &'static Topology,
    lines: Vec<Vec<Square>>,
    /// Tracked pieces: every piece not of the bot's seat (flip play: none, see the module
    /// documentation).
    pub pieces: Vec<Tracked>,
    /// Square → index into `pieces`, for tracked pieces on the board.
    at: Vec<Option<usize>>,
    /// Square → what the last observation showed there.
    last: Vec<Option<Shown>>,
    /// Flip play: how many pieces of each (colour, role) have been seen face up so far.
    up_seen: [[u8; 12]; 2],
    probs: Vec<[f64; 12]>,
    dirty: bool,
    started: bool,
    /// Times an observation contradicted the masks (a bug if ever non-zero).
    pub contradictions: u32,
}

impl Belief {
    /// A belief for `me` under `rules`; it starts tracking on the first observation.
    pub fn new(rules: Rules, me: Seat) -> Belief {
        let topo = Topology::get(rules.board, rules.middle_rail());
        let lines = topo.lines().map(|l| l.collect()).collect();
        Belief {
            rules,
            me,
            topo,
            lines,
            pieces: Vec::new(),
            at: vec![None; topo.len()],
            last: vec![None; topo.len()],
            up_seen: [[0; 12]; 2],
            probs: Vec::new(),
            dirty: true,
            started: false,
            contradictions: 0,
        }
    }

    /// The seat whose belief this is.
    pub fn seat(&self) -> Seat {
        self.me
    }

    /// Whether pieces of `seat` are tracked piece by piece (not the seat's own; nothing in flip
    /// play).
    fn tracks(&self, seat: Option<Seat>) -> bool {
        !self.rules.is_flip() && seat.is_some_and(|s| s != self.me)
    }

    fn start(&mut self, obs: &Observation) {
        self.started = true;
        let fresh = obs.plies == 0 && !self.rules.is_flip();
        let prior = layout_prior();
        for p in &obs.pieces {
            if !self.tracks(p.seat) {
                continue;
            }
            let Some(seat) = p.seat else { continue };
            let mut mask = ALL_ROLES;
            let mut pr = [1.0; 12];
            if fresh {
                if let Some(l) = self.topo.home(p.at) {
                    if l.row < 4 {
                        mask &= !bit(Role::Landmine);
                    }
                    if l.row == 0 {
                        mask &= !bit(Role::Bomb);
                    }
                    if self.topo.kind(p.at) != SquareKind::Headquarters {
                        mask &= !bit(Role::Flag);
                    }
                    pr = prior[l.row as usize][l.col as usize];
                }
            }
            if let Some(r) = p.role {
                mask = bit(r);
            }
            self.at[p.at.index()] = Some(self.pieces.len());
            self.pieces.push(Tracked {
                seat,
                mask,
                alive: true,
                at: p.at,
                origin: p.at,
                moved: false,
                attacks: 0,
                prior: pr,
            });
        }
    }

    fn restrict(&mut self, i: usize, m: RoleMask) {
        let t = &mut self.pieces[i];
        let new = t.mask & m;
        if new == 0 {
            self.contradictions += 1;
        } else if new != t.mask {
            t.mask = new;
            self.dirty = true;
        }
    }

    /// Whether a move from `from` to `to` could be a step or a straight slide (through squares
    /// empty before the move).
    fn straight(&self, from: Square, to: Square) -> bool {
        if self.topo.adjacent(from, to) {
            return true;
        }
        for line in &self.lines {
            let (Some(i), Some(j)) = (
                line.iter().position(|&s| s == from),
                line.iter().position(|&s| s == to),
            ) else {
                continue;
            };
            let (lo, hi) = (i.min(j), i.max(j));
            if line[lo + 1..hi]
                .iter()
                .all(|s| self.last[s.index()].is_none())
            {
                return true;
            }
        }
        false
    }

    /// Roles that may reach a square off every straight line.
    fn turners(&self) -> RoleMask {
        if self.rules.options.rail_turns == RailTurns::Any {
            MOVABLE
        } else if self.rules.options.bomb_flies {
            bit(Role::Engineer) | bit(Role::Bomb)
        } else {
            bit(Role::Engineer)
        }
    }

    fn moved(&mut self, from: Square, to: Square) -> Option<usize> {
        let i = self.at[from.index()]?;
        let mut m = MOVABLE;
        if !self.straight(from, to) {
            m &= self.turners();
        }
        self.restrict(i, m);
        self.pieces[i].moved = true;
        Some(i)
    }

    fn kill(&mut self, sq: Square) -> Option<usize> {
        let i = self.at[sq.index()].take()?;
        self.pieces[i].alive = false;
        self.dirty = true;
        Some(i)
    }

    fn relocate(&mut self, from: Square, to: Square) {
        if let Some(i) = self.at[from.index()].take() {
            self.at[to.index()] = Some(i);
            self.pieces[i].at = to;
        }
    }

    /// The roles a square's piece may have: a tracked piece's mask, or the role we know.
    fn mask_at(&self, sq: Square) -> RoleMask {
        if let Some(i) = self.at[sq.index()] {
            return self.pieces[i].mask;
        }
        match self.last[sq.index()] {
            Some((_, Some(r), _)) => bit(r),
            _ => ALL_ROLES,
        }
    }

    /// Take in one referee step: its public `events` and the seat's observation after them.
    pub fn update(&mut self, events: &[Event], obs: &Observation) {
        if self.rules.is_flip() {
            self.update_flip(events, obs);
            return;
        }
        if !self.started {
            self.start(obs);
            self.sync(obs);
            return;
        }
        let mut dead: Vec<(usize, Seat)> = Vec::new();
        let mut revealed = [false; MAX_SEATS];
        let mut eliminated_now = [false; MAX_SEATS];
        for e in events {
            match *e {
                Event::Move { from, to, .. } => {
                    self.moved(from, to);
                    self.relocate(from, to);
                }
                Event::Attack {
                    from, to, result, ..
                } => {
                    let a_idx = self.moved(from, to);
                    if let Some(i) = a_idx {
                        self.pieces[i].attacks += 1;
                    }
                    let am = self.mask_at(from) & MOVABLE;
                    let dm = self.mask_at(to);
                    let a_seat = self.last[from.index()].and_then(|x| x.0);
                    let survived = result != AttackResult::FlagCaptured
                        || obs
                            .piece_at(to)
                            .is_some_and(|p| p.seat.is_some() && p.seat == a_seat);
                    let (mut ka, mut kd) = (0, 0);
                    for a in roles_in(am) {
                        for d in roles_in(dm) {
                            let r = resolve(&self.rules, a, d);
                            if r.result == result
                                && (result != AttackResult::FlagCaptured
                                    || r.attacker_survives == survived)
                            {
                                ka |= bit(a);
                                kd |= bit(d);
                            }
                        }
                    }
                    if let Some(i) = a_idx {
                        self.restrict(i, ka);
                    }
                    if let Some(i) = self.at[to.index()] {
                        self.restrict(i, kd);
                    }
                    let d_seat = self.last[to.index()].and_then(|x| x.0);
                    let (a_dies, d_dies) = match result {
                        AttackResult::AttackerWins => (false, true),
                        AttackResult::DefenderWins => (true, false),
                        AttackResult::BothRemoved => (true, true),
                        AttackResult::FlagCaptured => (!survived, true),
                    };
                    if d_dies {
                        if let (Some(i), Some(s)) = (self.kill(to), d_seat) {
                            dead.push((i, s));
                        }
                    }
                    if a_dies {
                        if let (Some(i), Some(s)) = (self.kill(from), a_seat) {
                            dead.push((i, s));
                        }
                    } else {
                        self.relocate(from, to);
                    }
                }
                Event::Flip { at, role, .. } | Event::Scouted { at, role } => {
                    if let Some(i) = self.at[at.index()] {
                        self.restrict(i, bit(role));
                    }
                }
                Event::FlagRevealed { seat, at } => {
                    revealed[seat as usize] = true;
                    if let Some(i) = self.at[at.index()] {
                        if self.pieces[i].seat == seat {
                            self.restrict(i, bit(Role::Flag));
                        }
                    }
                }
                Event::Eliminated { seat, .. } => {
                    eliminated_now[seat as usize] = true;
                    // Multi-seat: an eliminated seat's pieces leave the board together.
                    if self.rules.board.is_multi_seat() {
                        for sq in 0..self.at.len() {
                            if let Some(i) = self.at[sq] {
                                if self.pieces[i].seat == seat {
                                    self.kill(Square(sq as u8));
                                }
                            }
                        }
                    }
                }
                Event::Colours { .. } | Event::Skipped { .. } => {}
            }
        }
        // A marshal's loss reveals its flag (RULES §5): a dead piece is the marshal exactly
        // when its seat's flag was revealed in this step.
        if self.rules.options.reveal_flag_on_marshal_loss
            && !self.rules.carry_home()
            && !self.rules.is_flip()
        {
            for &(i, s) in &dead {
                if eliminated_now[s as usize] && !revealed[s as usize] {
                    continue;
                }
                if revealed[s as usize] {
                    self.restrict(i, bit(Role::Marshal));
                } else {
                    self.restrict(i, !bit(Role::Marshal));
                }
            }
        }
        self.sync(obs);
    }

    /// Reconcile with the observation: follow pieces that appeared or vanished in ways the
    /// events do not spell out, and apply every identity the observation shows.
    fn sync(&mut self, obs: &Observation) {
        let mut seen = vec![false; self.at.len()];
        for p in &obs.pieces {
            seen[p.at.index()] = true;
            if !self.tracks(p.seat) {
                continue;
            }
            let Some(seat) = p.seat else { continue };
            let idx = match self.at[p.at.index()] {
                Some(i) if self.pieces[i].seat == seat => i,
                other => {
                    if let Some(i) = other {
                        self.pieces[i].alive = false;
                    }
                    // A piece came back (a returned flag): revive a dead piece that can be it.
                    let want = p.role.map_or(ALL_ROLES, bit);
                    let found = self
                        .pieces
                        .iter()
                        .position(|t| !t.alive && t.seat == seat && t.mask == want)
                        .or_else(|| {
                            self.pieces
                                .iter()
                                .position(|t| !t.alive && t.seat == seat && t.mask & want != 0)
                        });
                    let i = match found {
                        Some(i) => i,
                        None => {
                            self.pieces.push(Tracked {
                                seat,
                                mask: want,
                                alive: true,
                                at: p.at,
                                origin: p.at,
                                moved: true,
                                attacks: 0,
                                prior: [1.0; 12],
                            });
                            self.pieces.len() - 1
                        }
                    };
                    self.pieces[i].alive = true;
                    self.pieces[i].at = p.at;
                    self.at[p.at.index()] = Some(i);
                    self.dirty = true;
                    i
                }
            };
            if let Some(r) = p.role {
                self.restrict(idx, bit(r));
            }
        }
        for sq in 0..self.at.len() {
            if !seen[sq] {
                if let Some(i) = self.at[sq].take() {
                    self.pieces[i].alive = false;
                    self.dirty = true;
                }
            }
        }
        self.remember(obs);
    }

    /// Keep what `obs` shows of every square, for the next step.
    fn remember(&mut self, obs: &Observation) {
        for s in self.last.iter_mut() {
            *s = None;
        }
        for p in &obs.pieces {
            self.last[p.at.index()] = Some((p.seat, p.role, p.face_down));
        }
    }

    /// Flip play: take in one step. A flip announces a (colour, role) leaving the pool; a
    /// square that was face down and shows a face-up piece now was turned up too (this catches
    /// flips whose events the bot was not given). Face-up pieces need no tracking: everybody
    /// sees them.
    fn update_flip(&mut self, events: &[Event], obs: &Observation) {
        if !self.started {
            // Everything face up now has left the pool. (Joining a game late, the pieces that
            // died before are unknown and stay in the pool: the pool is then a superset of the
            // face-down identities, which sampling tolerates.)
            self.started = true;
            for p in &obs.pieces {
                if let (false, Some(c), Some(r)) = (p.face_down, p.seat, p.role) {
                    self.see_up(c, r);
                }
            }
            self.remember(obs);
            return;
        }
        let mut flipped = vec![false; self.at.len()];
        for e in events {
            if let Event::Flip {
                at, role, colour, ..
            } = *e
            {
                if !flipped[at.index()] {
                    flipped[at.index()] = true;
                    self.see_up(colour, role);
                }
            }
        }
        for p in &obs.pieces {
            let was_down = matches!(self.last[p.at.index()], Some((_, _, true)));
            if was_down && !p.face_down && !flipped[p.at.index()] {
                if let (Some(c), Some(r)) = (p.seat, p.role) {
                    self.see_up(c, r);
                }
            }
        }
        self.remember(obs);
    }

    fn see_up(&mut self, colour: u8, role: Role) {
        let n = &mut self.up_seen[colour as usize & 1][role as usize];
        if *n < Role::COUNTS[role as usize] {
            *n += 1;
        } else {
            self.contradictions += 1;
        }
    }

    /// Flip play: the pool of identities a face-down piece may have, as counts by colour and
    /// role: those never seen face up. (All zero outside flip play.)
    pub fn flip_pool(&self) -> [[u8; 12]; 2] {
        let mut pool = [[0; 12]; 2];
        if self.rules.is_flip() {
            for c in 0..2 {
                for r in 0..12 {
                    pool[c][r] = Role::COUNTS[r].saturating_sub(self.up_seen[c][r]);
                }
            }
        }
        pool
    }

    /// Flip play: the probability that the face-down piece on `sq` has each (colour, role), or
    /// `None` if no face-down piece stands there (as of the last observation).
    pub fn flip_dist_at(&self, sq: Square) -> Option<[[f64; 12]; 2]> {
        if !self.rules.is_flip() || !matches!(self.last[sq.index()], Some((_, _, true))) {
            return None;
        }
        let pool = self.flip_pool();
        let total: u32 = pool.iter().flatten().map(|&n| n as u32).sum();
        let mut d = [[0.0; 12]; 2];
        for c in 0..2 {
            for r in 0..12 {
                d[c][r] = if total > 0 {
                    pool[c][r] as f64 / total as f64
                } else {
                    1.0 / 24.0
                };
            }
        }
        Some(d)
    }

    /// Multiply the prior weight of `role` for the tracked piece on `sq` by `factor` (what a
    /// bot learns of how people lay out: bombs behind the front corners, landmines round the
    /// flag); the masks and counts still rule. Returns whether a tracked piece stands there.
    pub fn weigh_prior(&mut self, sq: Square, role: Role, factor: f64) -> bool {
        let Some(i) = self.at[sq.index()] else {
            return false;
        };
        self.pieces[i].prior[role as usize] *= factor;
        self.dirty = true;
        true
    }

    /// The tracked piece on a square, if any.
    pub fn tracked_at(&self, sq: Square) -> Option<&Tracked> {
        self.at[sq.index()].map(|i| &self.pieces[i])
    }

    /// The probability distribution over roles of the tracked piece on `sq` (indexed by
    /// `role as usize`), or `None` if no tracked piece stands there.
    ///
    /// Flip play: for a face-down piece, the distribution of its role over both colours.
    pub fn dist_at(&mut self, sq: Square) -> Option<[f64; 12]> {
        if let Some(d) = self.flip_dist_at(sq) {
            return Some(std::array::from_fn(|r| d[0][r] + d[1][r]));
        }
        let i = self.at[sq.index()]?;
        self.refresh();
        Some(self.probs[i])
    }

    /// Distributions of every tracked piece (indexed like [`Belief::pieces`]).
    pub fn distributions(&mut self) -> &[[f64; 12]] {
        self.refresh();
        &self.probs
    }

    fn groups(&self) -> Vec<Seat> {
        let mut g: Vec<Seat> = self.pieces.iter().map(|t| t.seat).collect();
        g.sort_unstable();
        g.dedup();
        g
    }

    fn refresh(&mut self) {
        if !self.dirty && self.probs.len() == self.pieces.len() {
            return;
        }
        self.dirty = false;
        self.probs = vec![[0.0; 12]; self.pieces.len()];
        for g in self.groups() {
            let rows: Vec<usize> = (0..self.pieces.len())
                .filter(|&i| self.pieces[i].seat == g)
                .collect();
            self.prune_by_counts(&rows);
            for &i in &rows {
                let t = &self.pieces[i];
                for r in 0..12 {
                    self.probs[i][r] = if t.mask >> r & 1 != 0 {
                        t.prior[r].max(1e-3)
                    } else {
                        0.0
                    };
                }
            }
            for it in 0..80 {
                // Columns to the counts (skip on the last round: rows must sum to one).
                if it > 0 {
                    for r in 0..12 {
                        let s: f64 = rows.iter().map(|&i| self.probs[i][r]).sum();
                        if s > 0.0 {
                            let f = Role::COUNTS[r] as f64 / s;
                            rows.iter().for_each(|&i| self.probs[i][r] *= f);
                        }
                    }
                }
                for &i in &rows {
                    let s: f64 = self.probs[i].iter().sum();
                    if s > 0.0 {
                        self.probs[i].iter_mut().for_each(|x| *x /= s);
                    }
                }
            }
            // Never exactly zero where the mask allows a role.
            for &i in &rows {
                let m = self.pieces[i].mask;
                for r in 0..12 {
                    if m >> r & 1 != 0 && self.probs[i][r] < 1e-12 {
                        self.probs[i][r] = 1e-12;
                    }
                }
            }
        }
    }

    /// Remove from the masks of `rows` (one seat's pieces) every role that no assignment
    /// within the counts can give them (e.g. once three pieces are known landmines, nothing
    /// else is one).
    fn prune_by_counts(&mut self, rows: &[usize]) {
        if rows.len() != 25 {
            return;
        }
        let masks: Vec<RoleMask> = rows.iter().map(|&i| self.pieces[i].mask).collect();
        let Some(assign) = matching(&masks, &Role::COUNTS) else {
            self.contradictions += 1;
            return;
        };
        // Every slot is full (25 pieces, 25 slots). Piece k may take role r iff the pieces
        // holding r can shift along a chain of roles that ends in the slot k frees: a path
        // r → … → assign[k] in the graph "some piece holding r1 may be r2".
        let mut reach = [0u16; 12];
        for (k, &r1) in assign.iter().enumerate() {
            reach[r1] |= masks[k];
        }
        for r in 0..12 {
            reach[r] |= 1 << r;
        }
        loop {
            let mut changed = false;
            for r in 0..12 {
                let mut acc = reach[r];
                for r2 in 0..12 {
                    if reach[r] >> r2 & 1 != 0 {
                        acc |= reach[r2];
                    }
                }
                if acc != reach[r] {
                    reach[r] = acc;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        for (k, &i) in rows.iter().enumerate() {
            let home = assign[k];
            let keep = roles_in(masks[k])
                .filter(|&r| reach[r as usize] >> home & 1 != 0)
                .fold(0, |m, r| m | bit(r));
            if keep != 0 {
                self.pieces[i].mask = keep;
            }
        }
    }

    /// Sample a role for every tracked piece (dead ones included) consistent with the masks
    /// and with the counts of each seat, guided by the probabilities. `None` only if the masks
    /// admit no assignment (which would be a bug).
    pub fn sample_roles(&mut self, rng: &mut impl Rng) -> Option<Vec<Role>> {
        self.refresh();
        let mut out = vec![Role::Flag; self.pieces.len()];
        for g in self.groups() {
            let mut rows: Vec<usize> = (0..self.pieces.len())
                .filter(|&i| self.pieces[i].seat == g)
                .collect();
            // Most constrained first; alive pieces before dead ones at equal constraint.
            let mut keyed: Vec<(u32, bool, u32, usize)> = rows
                .iter()
                .map(|&i| {
                    (
                        self.pieces[i].mask.count_ones(),
                        !self.pieces[i].alive,
                        rng.gen::<u32>(),
                        i,
                    )
                })
                .collect();
            keyed.sort_unstable();
            rows = keyed.into_iter().map(|k| k.3).collect();
            let mut caps = Role::COUNTS;
            if rows.len() > 25 {
                // Tracking lost count somewhere; give slack rather than fail.
                caps.iter_mut().for_each(|c| *c += (rows.len() - 25) as u8);
            }
            for (k, &i) in rows.iter().enumerate() {
                let mut w = [0.0f64; 12];
                for r in 0..12 {
                    if self.pieces[i].mask >> r & 1 != 0 && caps[r] > 0 {
                        w[r] = self.probs[i][r].max(1e-9);
                    }
                }
                loop {
                    let total: f64 = w.iter().sum();
                    if total <= 0.0 {
                        return None;
                    }
                    let mut x = rng.gen_range(0.0..total);
                    let mut pick = 11;
                    for (r, &wr) in w.iter().enumerate() {
                        if wr > 0.0 {
                            pick = r;
                            if x < wr {
                                break;
                            }
                            x -= wr;
                        }
                    }
                    caps[pick] -= 1;
                    let rest: Vec<RoleMask> =
                        rows[k + 1..].iter().map(|&j| self.pieces[j].mask).collect();
                    if feasible(&rest, &caps) {
                        out[i] = Role::ALL[pick];
                        break;
                    }
                    caps[pick] += 1;
                    w[pick] = 0.0;
                }
            }
        }
        Some(out)
    }

    /// A full position consistent with the observation, with hidden identities sampled from
    /// the belief (flip play: the pool dealt to the face-down pieces without replacement).
    pub fn sample_world(&mut self, obs: &Observation, rng: &mut impl Rng) -> Option<Position> {
        if self.rules.is_flip() {
            let mut deal = self.deal_flip(obs, rng)?.into_iter();
            return obs
                .determinize(|_| deal.next().unwrap_or((0, Role::Flag)))
                .ok();
        }
        let roles = self.sample_roles(rng)?;
        let at = &self.at;
        let mut fallback = [[0u8; 12]; MAX_SEATS];
        obs.determinize(|p| {
            let s = p.seat.unwrap_or(0);
            match at[p.at.index()] {
                Some(i) => (s, roles[i]),
                None => {
                    // Untracked hidden piece (should not happen): a role the counts still allow.
                    let r = (0..12)
                        .find(|&r| fallback[s as usize][r] < Role::COUNTS[r])
                        .unwrap_or(8);
                    fallback[s as usize][r] += 1;
                    (s, Role::ALL[r])
                }
            }
        })
        .ok()
    }

    /// Flip play: a (colour, role) for every piece of `obs` whose role is hidden, in square
    /// order, drawn from the pool without replacement. If the pool is short (a bug), it is
    /// topped up with identities the counts still allow beside the face-up pieces.
    fn deal_flip(&mut self, obs: &Observation, rng: &mut impl Rng) -> Option<Vec<(Seat, Role)>> {
        let hidden = obs.pieces.iter().filter(|p| p.role.is_none()).count();
        let pool = self.flip_pool();
        let mut bag: Vec<(Seat, Role)> = Vec::with_capacity(50);
        for c in 0..2 {
            for r in 0..12 {
                for _ in 0..pool[c][r] {
                    bag.push((c as Seat, Role::ALL[r]));
                }
            }
        }
        if bag.len() < hidden {
            self.contradictions += 1;
            let mut avail = [Role::COUNTS; 2];
            for p in &obs.pieces {
                if let (Some(c), Some(r)) = (p.seat, p.role) {
                    let n = &mut avail[c as usize & 1][r as usize];
                    *n = n.saturating_sub(1);
                }
            }
            for &(c, r) in &bag {
                let n = &mut avail[c as usize][r as usize];
                *n = n.saturating_sub(1);
            }
            for c in 0..2 {
                for r in 0..12 {
                    for _ in 0..avail[c][r] {
                        bag.push((c as Seat, Role::ALL[r]));
                    }
                }
            }
            if bag.len() < hidden {
                return None;
            }
        }
        let mut out = Vec::with_capacity(hidden);
        for _ in 0..hidden {
            let j = rng.gen_range(0..bag.len());
            out.push(bag.swap_remove(j));
        }
        Some(out)
    }

    /// Check the belief against the referee's position (for tests): every tracked piece on the
    /// board has its true role in its mask and a positive probability for it. Returns the first
    /// failure.
    ///
    /// Flip play: every face-down piece's true (colour, role) is in the pool (as many of each
    /// as stand face down) and has a positive probability.
    pub fn check_against(&mut self, pos: &Position) -> Result<(), String> {
        self.refresh();
        let t = pos.topology();
        if self.rules.is_flip() {
            let pool = self.flip_pool();
            let mut down = [[0u8; 12]; 2];
            for (sq, p) in pos.pieces() {
                if !p.face_down {
                    continue;
                }
                down[p.seat as usize][p.role as usize] += 1;
                let d = self
                    .flip_dist_at(sq)
                    .ok_or_else(|| format!("face-down {} not known as such", t.name(sq)))?;
                if d[p.seat as usize][p.role as usize] <= 0.0 {
                    return Err(format!(
                        "colour {} {} face down on {} has probability zero",
                        p.seat,
                        p.role,
                        t.name(sq)
                    ));
                }
            }
            for c in 0..2 {
                for r in Role::ALL {
                    let (n, m) = (down[c][r as usize], pool[c][r as usize]);
                    if n > m {
                        return Err(format!(
                            "{n} of colour {c} {r} face down, the pool holds {m}"
                        ));
                    }
                }
            }
            return Ok(());
        }
        for (i, p) in self.pieces.iter().enumerate() {
            if !p.alive {
                continue;
            }
            let Some(truth) = pos.piece_at(p.at) else {
                return Err(format!("tracked piece on empty {}", t.name(p.at)));
            };
            if truth.seat != p.seat {
                return Err(format!(
                    "tracked piece on {} has the wrong seat",
                    t.name(p.at)
                ));
            }
            if p.mask & bit(truth.role) == 0 {
                return Err(format!(
                    "{} on {} excluded (mask {:012b})",
                    truth.role,
                    t.name(p.at),
                    p.mask
                ));
            }
            if self.probs[i][truth.role as usize] <= 0.0 {
                return Err(format!(
                    "{} on {} has probability zero",
                    truth.role,
                    t.name(p.at)
                ));
            }
        }
        for g in self.groups() {
            let rows: Vec<usize> = (0..self.pieces.len())
                .filter(|&i| self.pieces[i].seat == g)
                .collect();
            if rows.len() != 25 {
                return Err(format!("seat {g} has {} tracked pieces", rows.len()));
            }
            let masks: Vec<RoleMask> = rows.iter().map(|&i| self.pieces[i].mask).collect();
            if !feasible(&masks, &Role::COUNTS) {
                return Err(format!("seat {g}: masks admit no assignment"));
            }
        }
        Ok(())
    }

    /// Expected number of pieces of `role` still alive among the tracked pieces of `seat`.
    /// Flip play: among all the pieces of colour `seat` on the board as of the last
    /// observation, face up (known) and face down (from the pool).
    pub fn expected_alive(&mut self, seat: Seat, role: Role) -> f64 {
        if self.rules.is_flip() {
            let up = self
                .last
                .iter()
                .flatten()
                .filter(|&&(c, r, down)| !down && c == Some(seat) && r == Some(role))
                .count() as f64;
            let down = self.last.iter().flatten().filter(|x| x.2).count() as f64;
            let pool = self.flip_pool();
            let total: u32 = pool.iter().flatten().map(|&n| n as u32).sum();
            let share = if total > 0 {
                pool[seat as usize & 1][role as usize] as f64 / total as f64
            } else {
                0.0
            };
            return up + down * share;
        }
        self.refresh();
        (0..self.pieces.len())
            .filter(|&i| self.pieces[i].alive && self.pieces[i].seat == seat)
            .map(|i| self.probs[i][role as usize])
            .sum()
    }
}

/// Whether `masks` (one per piece) admit an assignment of roles within `caps` (a b-matching,
/// found by augmenting paths).
pub fn feasible(masks: &[RoleMask], caps: &[u8; 12]) -> bool {
    matching(masks, caps).is_some()
}

/// An assignment of roles (by index) to `masks` within `caps`, if one exists.
pub fn matching(masks: &[RoleMask], caps: &[u8; 12]) -> Option<Vec<usize>> {
    if masks.contains(&0) {
        return None;
    }
    let total: usize = caps.iter().map(|&c| c as usize).sum();
    if masks.len() > total {
        return None;
    }
    let n = masks.len();
    let mut assign: Vec<usize> = vec![usize::MAX; n];
    let mut load = [0u8; 12];
    fn augment(
        p: usize,
        masks: &[RoleMask],
        caps: &[u8; 12],
        assign: &mut [usize],
        load: &mut [u8; 12],
        seen: &mut [bool; 12],
    ) -> bool {
        for r in 0..12 {
            if masks[p] >> r & 1 == 0 || seen[r] {
                continue;
            }
            seen[r] = true;
            if load[r] < caps[r] {
                load[r] += 1;
                assign[p] = r;
                return true;
            }
            for q in 0..masks.len() {
                if assign[q] == r && augment(q, masks, caps, assign, load, seen) {
                    // q moved to another role; p takes its slot in r.
                    assign[p] = r;
                    return true;
                }
            }
        }
        false
    }
    // Cheap pass first: most pieces fit greedily.
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&i| masks[i].count_ones());
    for &p in &order {
        let mut seen = [false; 12];
        if !augment(p, masks, caps, &mut assign, &mut load, &mut seen) {
            return None;
        }
    }
    Some(assign)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::{Bot, RandomBot};
    use junqi_core::{Action, BoardKind, Mode, Observer, Position, Teams};
    use rand::SeedableRng;

    #[test]
    fn feasibility() {
        let caps = Role::COUNTS;
        assert!(feasible(&[bit(Role::Flag), ALL_ROLES], &caps));
        assert!(!feasible(&[bit(Role::Flag), bit(Role::Flag)], &caps));
        let m = bit(Role::Marshal) | bit(Role::General);
        assert!(feasible(&[m, m], &caps));
        assert!(!feasible(&[m, m, m], &caps));
        assert!(feasible(&[bit(Role::Marshal), m], &caps));
    }

    /// Play random games and check every seat's belief against the referee at every step.
    pub(crate) fn run_games(rules: Rules, games: u64, seed: u64, prob_every: u32) {
        for g in 0..games {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed + g);
            let mut pos = if rules.is_flip() {
                Position::deal(rules, 0, &mut rng).unwrap()
            } else {
                let ds: Vec<_> = (0..rules.seats())
                    .map(|_| {
                        if rng.gen_bool(0.5) {
                            crate::deploygen::generate(&mut rng)
                        } else {
                            junqi_core::Deployment::random(&mut rng)
                        }
                    })
                    .collect();
                Position::from_deployments(rules, &ds, 0).unwrap()
            };
            let seats = rules.seats() as Seat;
            let mut beliefs: Vec<Belief> = (0..seats).map(|s| Belief::new(rules, s)).collect();
            for (s, b) in beliefs.iter_mut().enumerate() {
                b.update(&[], &pos.observe(Observer::Seat(s as Seat)));
            }
            let mut bot = RandomBot::default();
            bot.new_game(&rules, 0, seed ^ g);
            let mut ev = Vec::new();
            let mut ply = 0u32;
            while !pos.is_over() && ply < 600 {
                let obs = pos.observe(Observer::Seat(pos.to_move()));
                let a = bot.choose(&obs, crate::bot::Budget::Iterations(1)).unwrap();
                ev.clear();
                pos.play(a, &mut ev).unwrap();
                ply += 1;
                for (s, b) in beliefs.iter_mut().enumerate() {
                    b.update(&ev, &pos.observe(Observer::Seat(s as Seat)));
                    assert_eq!(
                        b.contradictions, 0,
                        "game {g} ply {ply} seat {s}: contradiction"
                    );
                    for t in b.pieces.iter().filter(|t| t.alive) {
                        let truth = pos.piece_at(t.at).expect("tracked piece exists");
                        assert!(
                            t.mask & bit(truth.role) != 0,
                            "game {g} ply {ply} seat {s}: {} excluded at {}",
                            truth.role,
                            pos.topology().name(t.at)
                        );
                    }
                    if ply.is_multiple_of(prob_every) || pos.is_over() {
                        b.check_against(&pos)
                            .unwrap_or_else(|e| panic!("game {g} ply {ply} seat {s}: {e}"));
                        let probs = b.distributions().to_vec();
                        for grp in b.groups() {
                            for r in 0..12 {
                                let col: f64 = (0..b.pieces.len())
                                    .filter(|&i| b.pieces[i].seat == grp)
                                    .map(|i| probs[i][r])
                                    .sum();
                                assert!(
                                    (col - Role::COUNTS[r] as f64).abs() < 0.05,
                                    "game {g} seat {s}: column {r} sums to {col}"
                                );
                            }
                        }
                        if rules.is_flip() {
                            // Every flip was seen: the pool is exactly the face-down pieces.
                            let mut down = [[0u8; 12]; 2];
                            for (_, p) in pos.pieces().filter(|(_, p)| p.face_down) {
                                down[p.seat as usize][p.role as usize] += 1;
                            }
                            assert_eq!(b.flip_pool(), down, "game {g} ply {ply} seat {s}: pool");
                        }
                        if ply.is_multiple_of(prob_every * 4) && !pos.is_over() {
                            let o = pos.observe(Observer::Seat(s as Seat));
                            let w = b.sample_world(&o, &mut rng).unwrap_or_else(|| {
                                panic!("game {g} ply {ply} seat {s}: sampling failed")
                            });
                            // The sampled world looks, to the seat, like the real one.
                            assert_eq!(
                                w.observe(Observer::Seat(s as Seat)).pieces,
                                o.pieces,
                                "game {g} ply {ply} seat {s}: sampled world differs"
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn true_role_never_excluded_two_player() {
        let rules = Rules::defaults(BoardKind::TwoPlayer, Mode::Dark).unwrap();
        run_games(rules, 60, 1, 7);
        let mut r = rules;
        r.options.bomb_flies = true;
        r.options.landmine = junqi_core::options::LandmineRule::BothDie;
        r.options.engineer_scout = true;
        run_games(r, 30, 100, 9);
        let mut r = rules;
        r.options.rail_turns = RailTurns::Any;
        r.options.win_by_flag = junqi_core::options::WinByFlag::CarryHome;
        run_games(r, 30, 200, 9);
    }

    #[test]
    fn true_role_never_excluded_four_player_and_flip() {
        let rules = Rules::defaults(BoardKind::FourPlayer, Mode::Dark).unwrap();
        run_games(rules, 15, 300, 11);
        let rules = Rules::defaults(BoardKind::FourPlayer, Mode::HalfOpen).unwrap();
        run_games(rules, 10, 400, 11);
        let rules = Rules::defaults(BoardKind::TwoPlayer, Mode::Flip).unwrap();
        run_games(rules, 30, 500, 9);
    }

    #[test]
    fn true_role_never_excluded_three_and_six_player() {
        let three = Rules::defaults(BoardKind::ThreePlayer, Mode::Dark).unwrap();
        run_games(three, 4, 600, 13);
        let six = Rules::defaults(BoardKind::SixPlayer, Mode::Dark).unwrap();
        run_games(six, 2, 700, 17);
        let half = Rules::defaults(BoardKind::SixPlayer, Mode::HalfOpen).unwrap();
        run_games(half, 2, 800, 17);
        let mut ffa = six;
        ffa.options.teams = Teams::None;
        run_games(ffa, 2, 900, 17);
    }

    /// Six-player: up to five enemies tracked piece by piece, teammates' pieces known under
    /// half-open play, and an eliminated seat's pieces gone from the board (and from the belief)
    /// at once.
    #[test]
    fn six_player_belief_follows_every_seat() {
        let rules = Rules::defaults(BoardKind::SixPlayer, Mode::HalfOpen).unwrap();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(21);
        let mut pos = Position::random_start(rules, &mut rng);
        let me: Seat = 3;
        let mut b = Belief::new(rules, me);
        b.update(&[], &pos.observe(Observer::Seat(me)));
        // Every other seat's 25 pieces are tracked; teammates 1 and 5 with their roles known.
        assert_eq!(b.pieces.len(), 5 * 25);
        for t in &b.pieces {
            let truth = pos.piece_at(t.at).unwrap();
            assert_eq!(t.seat, truth.seat);
            if rules.teams().same_team(t.seat, me) {
                assert_eq!(t.mask, bit(truth.role), "teammate's piece known");
            } else {
                assert!(t.mask.count_ones() > 1, "enemy piece hidden");
            }
        }
        // Seat 4 resigns: its pieces leave the board and the belief.
        let mut ev = Vec::new();
        pos.resign(4, &mut ev).unwrap();
        assert!(ev
            .iter()
            .any(|e| matches!(e, Event::Eliminated { seat: 4, .. })));
        b.update(&ev, &pos.observe(Observer::Seat(me)));
        assert!(b.pieces.iter().filter(|t| t.seat == 4).all(|t| !t.alive));
        assert_eq!(b.pieces.iter().filter(|t| t.alive).count(), 4 * 25);
        assert_eq!(b.contradictions, 0);
        b.check_against(&pos).unwrap();
        let obs = pos.observe(Observer::Seat(me));
        let w = b.sample_world(&obs, &mut rng).expect("a world");
        assert_eq!(w.observe(Observer::Seat(me)).pieces, obs.pieces);
    }

    /// Thousands of games (release: `cargo test --release -p junqi-ai --lib belief -- --ignored`).
    #[test]
    #[ignore]
    fn true_role_never_excluded_thousands_of_games() {
        let two = Rules::defaults(BoardKind::TwoPlayer, Mode::Dark).unwrap();
        run_games(two, 2000, 10_000, 5);
        let four = Rules::defaults(BoardKind::FourPlayer, Mode::Dark).unwrap();
        run_games(four, 300, 20_000, 5);
        let flip = Rules::defaults(BoardKind::TwoPlayer, Mode::Flip).unwrap();
        run_games(flip, 1000, 30_000, 5);
        let mut opt = two;
        opt.options.bomb_flies = true;
        opt.options.engineer_scout = true;
        opt.options.win_by_flag = junqi_core::options::WinByFlag::CarryHome;
        run_games(opt, 500, 40_000, 5);
    }

    #[test]
    fn flip_pool_is_what_was_never_seen_face_up() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        let rules = Rules::defaults(BoardKind::TwoPlayer, Mode::Flip).unwrap();
        let mut pos = Position::deal(rules, 0, &mut rng).unwrap();
        let o0 = pos.observe(Observer::Seat(0));
        let mut b = Belief::new(rules, 0);
        b.update(&[], &o0);
        assert_eq!(b.flip_pool(), [Role::COUNTS; 2]);
        assert!(b.pieces.is_empty());
        let Some(Action::Flip(at)) = pos.legal_actions().into_iter().next() else {
            panic!("flip play starts with flips");
        };
        let mut ev = Vec::new();
        pos.play(Action::Flip(at), &mut ev).unwrap();
        let o1 = pos.observe(Observer::Seat(0));
        b.update(&ev, &o1);
        let up = pos.piece_at(at).unwrap();
        let mut want = [Role::COUNTS; 2];
        want[up.seat as usize][up.role as usize] -= 1;
        assert_eq!(b.flip_pool(), want);
        // Without the events, the observations alone tell the same.
        let mut quiet = Belief::new(rules, 0);
        quiet.update(&[], &o0);
        quiet.update(&[], &o1);
        assert_eq!(quiet.flip_pool(), want);
        b.check_against(&pos).unwrap();
        // A face-down piece is of either colour in the sampled worlds (its colour is hidden),
        // and every world deals exactly the pool.
        let down = o1.pieces.iter().find(|p| p.face_down).unwrap().at;
        let mut colours = [0; 2];
        for _ in 0..100 {
            let w = b.sample_world(&o1, &mut rng).expect("a world");
            colours[w.piece_at(down).unwrap().seat as usize] += 1;
            let mut dealt = [[0u8; 12]; 2];
            for (_, p) in w.pieces().filter(|(_, p)| p.face_down) {
                dealt[p.seat as usize][p.role as usize] += 1;
            }
            assert_eq!(dealt, want);
        }
        assert!(colours[0] > 0 && colours[1] > 0, "{colours:?}");
        let d = b.dist_at(down).unwrap();
        assert!((d.iter().sum::<f64>() - 1.0).abs() < 1e-9);
    }

    #[test]
    fn combat_against_known_piece_prunes() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(2);
        let rules = Rules::defaults(BoardKind::TwoPlayer, Mode::Dark).unwrap();
        let pos = Position::random_start(rules, &mut rng);
        let mut b = Belief::new(rules, 0);
        b.update(&[], &pos.observe(Observer::Seat(0)));
        let t = pos.topology();
        // Every North piece starts tracked, landmines only in its last two rows.
        assert_eq!(b.pieces.len(), 25);
        let front = t.parse_square("a7").unwrap();
        assert_eq!(b.tracked_at(front).unwrap().mask & bit(Role::Landmine), 0);
        assert_eq!(b.tracked_at(front).unwrap().mask & bit(Role::Bomb), 0);
        let d = b.dist_at(t.parse_square("b12").unwrap()).unwrap();
        assert!(d[Role::Flag as usize] > 0.2, "{d:?}");
        let total: f64 = (0..25)
            .map(|i| b.distributions()[i][Role::Flag as usize])
            .sum();
        assert!((total - 1.0).abs() < 1e-6);
    }
}
