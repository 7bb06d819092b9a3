//! What the search remembers within one decision of its deepening search (one world with
//! nothing hidden, or flip play's chance root, [`crate::search`]): a transposition table of
//! the positions already searched, and the quiet moves that cut the search off (the last two
//! at each ply, and a history over all plies).
//!
//! Flip games turn their last piece up around ply 90 and go on for 150 to 450 plies: most of a
//! flip game (and the end of many dark ones) is searched in one certain world. There, moving
//! pieces back and forth reaches the same position by many orders of moves, and alpha-beta
//! is only as good as its move order; without memory every transposition is searched again
//! and the quiet moves (most of an endgame's moves) come in board order. The table gives each
//! iteration of the deepening the previous one's best move first and skips positions already
//! searched deep enough; the history puts first the quiet moves that refuted other lines.

use junqi_core::Action;

/// What a stored value says about the position's true value (fail-soft alpha-beta).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    /// The value itself: it fell inside the window searched.
    Exact,
    /// At least the value: the search failed high (the value reached beta).
    Lower,
    /// At most the value: the search failed low (the value stayed at or below alpha).
    Upper,
}

/// One stored position.
#[derive(Clone, Copy, Debug)]
struct Entry {
    /// The position's key (0: an empty slot; a position whose key is 0 would match it, as
    /// unlikely as any other collision of 64-bit keys, which a table accepts).
    key: u64,
    /// Plies searched below the position.
    depth: u32,
    bound: Bound,
    value: f64,
    /// The move that gave the value (searched first when the position comes again).
    best: Option<Action>,
}

const EMPTY: Entry = Entry {
    key: 0,
    depth: 0,
    bound: Bound::Exact,
    value: 0.0,
    best: None,
};

/// Entries of the table at most: 2^16 (32 bytes each: 2 MB, for a 大师 decision's 1.5 million
/// nodes), at least 2^10; in between, one entry for every two nodes of the decision's budget.
/// A deeper entry is kept over a shallower one, so the entries that save the most work
/// survive. The table lives only while a decision is searched ([`Memory::release`]): a server
/// keeps a bot per computer seat for a whole game, and idle bots should hold nothing.
const MAX_BITS: u32 = 16;
const MIN_BITS: u32 = 10;

/// Squares a history entry is indexed by (a [`junqi_core::Square`] is a byte).
const SQUARES: usize = 256;

/// The transposition table and the quiet-move history of one search.
pub(crate) struct Memory {
    entries: Vec<Entry>,
    /// log2 of `entries.len()`.
    bits: u32,
    /// Per (from, to), the cut-offs that quiet move caused, weighted by depth².
    history: Vec<u32>,
    /// Per ply below the root, the last two quiet moves that cut the search off there
    /// ("killers": a refutation of one line often refutes its neighbours).
    killers: Vec<[Option<Action>; 2]>,
}

/// What the table knows of a position before it is searched.
pub(crate) struct Probe {
    /// The position's value, when a deep enough search settles it in the window.
    pub value: Option<f64>,
    /// The best move of the last search of the position, to be searched first.
    pub best: Option<Action>,
}

impl Memory {
    /// An empty memory (allocated on the first [`Memory::start`]).
    pub(crate) fn new() -> Memory {
        Memory {
            entries: Vec::new(),
            bits: 0,
            history: Vec::new(),
            killers: Vec::new(),
        }
    }

    /// Start a new decision of about `nodes` nodes: everything stored before is forgotten
    /// (the table, the history and the killers are allocated afresh).
    pub(crate) fn start(&mut self, nodes: u64) {
        let wanted = (nodes / 2).max(1).next_power_of_two().trailing_zeros();
        self.bits = wanted.clamp(MIN_BITS, MAX_BITS);
        self.entries = vec![EMPTY; 1 << self.bits];
        self.history = vec![0; SQUARES * SQUARES];
        self.killers.clear();
    }

    /// The decision is made: give the table's memory back.
    pub(crate) fn release(&mut self) {
        self.entries = Vec::new();
        self.history = Vec::new();
        self.killers = Vec::new();
    }

    fn slot(&self, key: u64) -> usize {
        (key >> (64 - self.bits)) as usize
    }

    /// What the table knows of the position `key`, searched `depth` plies deep within
    /// (`alpha`, `beta`).
    pub(crate) fn probe(&self, key: u64, depth: u32, alpha: f64, beta: f64) -> Probe {
        let e = match self.entries.get(self.slot(key)) {
            Some(e) if e.key == key => e,
            _ => {
                return Probe {
                    value: None,
                    best: None,
                }
            }
        };
        let settled = e.depth >= depth
            && match e.bound {
                Bound::Exact => true,
                Bound::Lower => e.value >= beta,
                Bound::Upper => e.value <= alpha,
            };
        Probe {
            value: settled.then_some(e.value),
            best: e.best,
        }
    }

    /// Store the value `value` of the position `key`, searched `depth` plies deep within
    /// (`alpha`, `beta`), and the move that gave it. A deeper entry of the same position in
    /// this decision is kept.
    pub(crate) fn store(
        &mut self,
        key: u64,
        depth: u32,
        (alpha, beta): (f64, f64),
        value: f64,
        best: Option<Action>,
    ) {
        let slot = self.slot(key);
        let Some(e) = self.entries.get_mut(slot) else {
            return;
        };
        if e.key == key && e.depth > depth {
            return;
        }
        let bound = if value <= alpha {
            Bound::Upper
        } else if value >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        *e = Entry {
            key,
            depth,
            bound,
            value,
            best,
        };
    }

    /// A quiet move cut the search off at `ply` below the root, `depth` plies above the
    /// horizon.
    pub(crate) fn reward(&mut self, a: Action, depth: u32, ply: usize) {
        if let Some(h) = history_index(a).and_then(|i| self.history.get_mut(i)) {
            *h = h.saturating_add(depth * depth);
        }
        if self.killers.len() <= ply {
            self.killers.resize(ply + 1, [None; 2]);
        }
        let k = &mut self.killers[ply];
        if k[0] != Some(a) {
            k[1] = k[0];
            k[0] = Some(a);
        }
    }

    /// Whether the quiet move `a` is one of the last two that cut the search off at `ply`.
    pub(crate) fn is_killer(&self, a: Action, ply: usize) -> bool {
        self.killers.get(ply).is_some_and(|k| k.contains(&Some(a)))
    }

    /// How often (weighted) the quiet move `a` has cut the search off in this decision.
    pub(crate) fn history(&self, a: Action) -> u32 {
        history_index(a)
            .and_then(|i| self.history.get(i))
            .copied()
            .unwrap_or(0)
    }
}

/// Where the history keeps a move (flips have no history).
fn history_index(a: Action) -> Option<usize> {
    match a {
        Action::Move { from, to } => Some(from.0 as usize * SQUARES + to.0 as usize),
        Action::Flip(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use junqi_core::Square;

    fn mv(from: u8, to: u8) -> Action {
        Action::Move {
            from: Square(from),
            to: Square(to),
        }
    }

    #[test]
    fn a_stored_value_settles_only_what_its_bound_and_depth_allow() {
        let mut m = Memory::new();
        m.start(100_000);
        let key = 0x1234_5678_9abc_def0;
        // Failed high at 5 within (0, 3): at least 5.
        m.store(key, 4, (0.0, 3.0), 5.0, Some(mv(1, 2)));
        let p = m.probe(key, 4, 0.0, 4.0);
        assert_eq!(
            p.value,
            Some(5.0),
            "a lower bound at or above beta cuts off"
        );
        assert_eq!(p.best, Some(mv(1, 2)));
        assert_eq!(
            m.probe(key, 4, 0.0, 6.0).value,
            None,
            "beta above the bound"
        );
        assert_eq!(
            m.probe(key, 5, 0.0, 4.0).value,
            None,
            "not searched deep enough"
        );
        assert_eq!(
            m.probe(key, 5, 0.0, 4.0).best,
            Some(mv(1, 2)),
            "the move still orders"
        );
        // Failed low: at most -2.
        m.store(key ^ 1, 3, (0.0, 3.0), -2.0, None);
        assert_eq!(m.probe(key ^ 1, 3, -1.0, 3.0).value, Some(-2.0));
        assert_eq!(m.probe(key ^ 1, 3, -3.0, 3.0).value, None);
        // Exact.
        m.store(key ^ 2, 3, (0.0, 3.0), 1.5, None);
        assert_eq!(m.probe(key ^ 2, 2, -9.0, 9.0).value, Some(1.5));
    }

    #[test]
    fn a_new_decision_forgets_the_last_one() {
        let mut m = Memory::new();
        m.start(100_000);
        m.store(42 << 40, 3, (-1.0, 1.0), 0.5, Some(mv(3, 4)));
        m.reward(mv(3, 4), 3, 2);
        assert_eq!(m.history(mv(3, 4)), 9);
        assert!(m.is_killer(mv(3, 4), 2));
        assert!(!m.is_killer(mv(3, 4), 1), "a killer belongs to its ply");
        assert_eq!(m.probe(42 << 40, 3, -1.0, 1.0).value, Some(0.5));
        m.start(100_000);
        assert_eq!(m.probe(42 << 40, 3, -1.0, 1.0).value, None);
        m.release();
        m.start(1 << 30);
        assert_eq!(
            m.entries.len(),
            1 << MAX_BITS,
            "the table's size is bounded"
        );
        m.start(10);
        assert_eq!(m.entries.len(), 1 << MIN_BITS);
        assert_eq!(m.probe(42 << 40, 3, -1.0, 1.0).best, None);
        assert_eq!(m.history(mv(3, 4)), 0);
        assert!(!m.is_killer(mv(3, 4), 2));
    }

    #[test]
    fn a_ply_keeps_its_last_two_killers() {
        let mut m = Memory::new();
        m.start(100_000);
        for (a, b) in [(1, 2), (3, 4), (5, 6)] {
            m.reward(mv(a, b), 2, 4);
        }
        assert!(!m.is_killer(mv(1, 2), 4));
        assert!(m.is_killer(mv(3, 4), 4) && m.is_killer(mv(5, 6), 4));
        // The same killer again does not push the other one out.
        m.reward(mv(5, 6), 2, 4);
        assert!(m.is_killer(mv(3, 4), 4));
    }

    #[test]
    fn a_shallower_search_does_not_overwrite_a_deeper_one() {
        let mut m = Memory::new();
        m.start(100_000);
        let key = 7 << 50;
        m.store(key, 5, (-1.0, 1.0), 0.25, Some(mv(5, 6)));
        m.store(key, 2, (-1.0, 1.0), -0.75, Some(mv(6, 7)));
        let p = m.probe(key, 5, -1.0, 1.0);
        assert_eq!(p.value, Some(0.25));
        assert_eq!(p.best, Some(mv(5, 6)));
    }
}
