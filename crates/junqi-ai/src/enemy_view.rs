//! What an enemy knows of our pieces, for a search that does not hand the enemy our identities.
//!
//! A sampled world fixes every identity, ours included, and a plain alpha-beta over it lets the
//! enemy answer as if it saw our pieces: it never walks into our bomb, always finds our flag
//! and never fears a piece we have not shown. Against that imagined opponent the bot plays too
//! timidly (every threat is found) and its traps are worth nothing (none is walked into).
//!
//! [`Exposure`] follows, square by square, which pieces have moved and which have fought (made
//! or met an attack, whose announced result tells the enemy much of their identity).
//! [`Exposure::enemy_view`] turns a sampled world into the world as the enemy to move might
//! picture it: each of our team's pieces that has never fought and whose role the enemy has
//! not been shown is dealt a new role from the same seat's pool of such pieces, within what the
//! enemy can tell from the board (a piece that moved is no landmine and no flag; an unmoved one
//! obeys the deployment rules at its square). The search picks the enemy's reply in that
//! picture and plays it in the sampled world (see [`crate::search`]).

use junqi_core::{Event, Observer, Position, Role, Seat, Square, TeamMap, Topology};
use rand::seq::SliceRandom;
use rand::Rng;

/// Which pieces, square by square, have moved and which have fought, as every seat has seen.
#[derive(Debug, Default)]
pub struct Exposure {
    moved: Vec<bool>,
    fought: Vec<bool>,
}

impl Clone for Exposure {
    fn clone(&self) -> Exposure {
        Exposure {
            moved: self.moved.clone(),
            fought: self.fought.clone(),
        }
    }

    /// Copies into the storage already there (the search copies one per root action).
    fn clone_from(&mut self, source: &Exposure) {
        self.moved.clone_from(&source.moved);
        self.fought.clone_from(&source.fought);
    }
}

impl Exposure {
    /// Forget everything (a new game).
    pub fn clear(&mut self) {
        self.moved.clear();
        self.fought.clear();
    }

    /// Take in one referee step's public events on a board of `squares` squares.
    pub fn record(&mut self, events: &[Event], squares: usize) {
        if self.moved.len() != squares {
            self.moved = vec![false; squares];
            self.fought = vec![false; squares];
        }
        for e in events {
            match *e {
                Event::Move { from, to, .. } => {
                    self.relocate(from, to);
                    self.moved[to.index()] = true;
                }
                Event::Attack {
                    from, to, result, ..
                } => {
                    use junqi_core::AttackResult::*;
                    let (f, t) = (from.index(), to.index());
                    match result {
                        AttackerWins | FlagCaptured => {
                            self.relocate(from, to);
                            self.moved[t] = true;
                            self.fought[t] = true;
                        }
                        DefenderWins => {
                            self.fought[t] = true;
                            self.clear_square(f);
                        }
                        BothRemoved => {
                            self.clear_square(f);
                            self.clear_square(t);
                        }
                    }
                }
                _ => {}
            }
        }
    }

    fn relocate(&mut self, from: Square, to: Square) {
        let (f, t) = (from.index(), to.index());
        self.moved[t] = self.moved[f];
        self.fought[t] = self.fought[f];
        self.clear_square(f);
    }

    fn clear_square(&mut self, i: usize) {
        self.moved[i] = false;
        self.fought[i] = false;
    }

    /// Whether the piece on `sq` has moved.
    pub fn moved(&self, sq: Square) -> bool {
        self.moved.get(sq.index()).copied().unwrap_or(false)
    }

    /// Whether the piece on `sq` has fought.
    pub fn fought(&self, sq: Square) -> bool {
        self.fought.get(sq.index()).copied().unwrap_or(false)
    }

    /// The world `pos` as the enemy to move might picture it (see the module documentation):
    /// the pieces of `us` (our team) it knows nothing about beyond the board are dealt again.
    /// `None` when nothing is hidden from it (nothing to deal), or when no deal fits the rules.
    pub fn enemy_view(
        &self,
        pos: &Position,
        us: &TeamMap,
        me: Seat,
        rng: &mut impl Rng,
    ) -> Option<Position> {
        let viewer = pos.to_move();
        if us.same_team(viewer, me) || pos.rules().is_flip() {
            return None;
        }
        let mut setup = pos.to_setup();
        // Per seat of our team: the indices (into `setup.pieces`) of its pieces hidden from
        // the viewer and unfought.
        let mut hidden: Vec<(Seat, Vec<usize>)> = Vec::new();
        for (i, p) in setup.pieces.iter().enumerate() {
            if !us.same_team(p.seat, me)
                || self.fought(p.at)
                || pos.identity_known(Observer::Seat(viewer), p.at)
            {
                continue;
            }
            match hidden.iter_mut().find(|h| h.0 == p.seat) {
                Some(h) => h.1.push(i),
                None => hidden.push((p.seat, vec![i])),
            }
        }
        if hidden.iter().all(|h| h.1.len() < 2) {
            return None;
        }
        for (seat, pieces) in &hidden {
            let squares: Vec<Square> = pieces.iter().map(|&i| setup.pieces[i].at).collect();
            let roles: Vec<Role> = pieces.iter().map(|&i| setup.pieces[i].role).collect();
            let dealt = self.deal(*seat, &squares, roles, pos.topology(), rng)?;
            for (k, role) in dealt {
                setup.pieces[pieces[k]].role = role;
            }
        }
        Position::from_setup(&setup).ok()
    }

    /// Deal `roles` to `squares` of `seat` at random within what the board shows (the flag, the
    /// landmines and the bombs first, as the most constrained): the index into `squares` and
    /// the role dealt there; `None` if a role finds no square.
    fn deal(
        &self,
        seat: Seat,
        squares: &[Square],
        mut roles: Vec<Role>,
        topo: &Topology,
        rng: &mut impl Rng,
    ) -> Option<Vec<(usize, Role)>> {
        roles.sort_by_key(|r| match r {
            Role::Flag => 0,
            Role::Landmine => 1,
            Role::Bomb => 2,
            _ => 3,
        });
        let mut free: Vec<usize> = (0..squares.len()).collect();
        free.shuffle(rng);
        let mut out = Vec::with_capacity(roles.len());
        for role in roles {
            let k = free
                .iter()
                .position(|&i| self.may_stand(role, squares[i], seat, topo))?;
            out.push((free.swap_remove(k), role));
        }
        Some(out)
    }

    /// Whether a piece of `seat` on `sq` could be `role` as far as the board shows.
    fn may_stand(&self, role: Role, sq: Square, seat: Seat, topo: &Topology) -> bool {
        let moved = self.moved(sq);
        let home = topo.home(sq).filter(|l| l.seat == seat);
        match role {
            Role::Flag => !moved && home.is_some_and(|l| l.row == 5 && (l.col == 1 || l.col == 3)),
            Role::Landmine => {
                !moved && home.is_some_and(|l| junqi_core::deploy::LANDMINE_ROWS.contains(&l.row))
            }
            Role::Bomb => moved || home.is_some_and(|l| l.row != 0),
            _ => true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use junqi_core::{Action, BoardKind, Mode, Rules, Teams};
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    /// A dark two-player game after a few random plies, with seat 1 to move, and the exposure
    /// seen so far.
    fn game(seed: u64) -> (Position, Exposure) {
        let rules = Rules::defaults(BoardKind::TwoPlayer, Mode::Dark).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut pos = Position::random_start(rules, &mut rng);
        let mut exposure = Exposure::default();
        let mut legal: Vec<Action> = Vec::new();
        for _ in 0..200 {
            if pos.is_over() || (pos.plies() >= 30 && pos.to_move() == 1) {
                break;
            }
            legal.clear();
            pos.legal_actions_into(&mut legal);
            // Prefer attacks, so that some pieces have fought.
            let pick = legal
                .iter()
                .copied()
                .find(|a| matches!(*a, Action::Move { to, .. } if pos.piece_at(to).is_some()))
                .filter(|_| rng.gen_bool(0.5))
                .unwrap_or(legal[rng.gen_range(0..legal.len())]);
            let mut events = Vec::new();
            pos.play(pick, &mut events).unwrap();
            exposure.record(&events, pos.topology().len());
        }
        (pos, exposure)
    }

    #[test]
    fn the_enemy_sees_our_unfought_pieces_dealt_again_within_the_rules() {
        let teams = TeamMap::new(BoardKind::TwoPlayer, Teams::None);
        let mut changed = 0;
        let mut fought = 0;
        for seed in 0..20 {
            let (pos, exposure) = game(seed);
            if pos.is_over() || pos.to_move() != 1 {
                continue;
            }
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let view = exposure
                .enemy_view(&pos, &teams, 0, &mut rng)
                .expect("a view");
            let topo = pos.topology();
            let mut ours = ([0u8; 12], [0u8; 12]);
            for (sq, p) in pos.pieces() {
                let q = view.piece_at(sq).expect("the same squares");
                assert_eq!(q.seat, p.seat);
                if p.seat == 1 || exposure.fought(sq) {
                    assert_eq!(q.role, p.role, "what the enemy knows stays");
                    fought += usize::from(p.seat == 0);
                    continue;
                }
                ours.0[p.role as usize] += 1;
                ours.1[q.role as usize] += 1;
                changed += usize::from(q.role != p.role);
                if exposure.moved(sq) {
                    assert!(!matches!(q.role, Role::Landmine | Role::Flag));
                }
                let l = topo.home(sq).filter(|l| l.seat == 0);
                match q.role {
                    Role::Flag => assert!(l.is_some_and(|l| l.row == 5)),
                    Role::Landmine => assert!(l.is_some_and(|l| l.row >= 4)),
                    Role::Bomb if !exposure.moved(sq) => {
                        assert!(l.is_some_and(|l| l.row != 0))
                    }
                    _ => {}
                }
            }
            assert_eq!(ours.0, ours.1, "the same pieces, dealt again");
            assert_eq!(view.pieces().count(), pos.pieces().count());
            assert_eq!((view.to_move(), view.plies()), (pos.to_move(), pos.plies()));
            // Our own side to move: the enemy's picture is not asked for.
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            assert!(exposure.enemy_view(&pos, &teams, 1, &mut rng).is_none());
        }
        assert!(changed > 100, "pieces are dealt again ({changed})");
        assert!(fought > 0, "some pieces fought");
    }

    #[test]
    fn exposure_follows_moves_and_fights() {
        let sq = |i: u8| Square(i);
        let mut e = Exposure::default();
        let mv = |from, to| Event::Move {
            seat: 0,
            from: sq(from),
            to: sq(to),
        };
        let attack = |from, to, result| Event::Attack {
            seat: 0,
            from: sq(from),
            to: sq(to),
            result,
        };
        use junqi_core::AttackResult::*;
        e.record(&[mv(1, 2)], 60);
        assert!(e.moved(sq(2)) && !e.moved(sq(1)) && !e.fought(sq(2)));
        e.record(&[attack(2, 3, DefenderWins)], 60);
        assert!(e.fought(sq(3)) && !e.moved(sq(3)) && !e.moved(sq(2)));
        e.record(&[attack(4, 3, AttackerWins)], 60);
        assert!(e.fought(sq(3)) && e.moved(sq(3)) && !e.fought(sq(4)));
        e.record(&[mv(3, 5), attack(6, 5, BothRemoved)], 60);
        assert!(!e.fought(sq(5)) && !e.moved(sq(5)) && !e.fought(sq(6)));
    }
}
