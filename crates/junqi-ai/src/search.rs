//! The search bot: determinized alpha-beta (perfect-information Monte Carlo). For each decision
//! it samples full positions from its belief ([`Belief::sample_world`], which goes through
//! [`junqi_core::Observation::determinize`]), searches each with a depth-limited alpha-beta
//! over [`evaluate`] (four-player: our side maximises, the enemy side minimises), and plays
//! the action with the best average over the samples, blended with the one-ply heuristic's
//! score of the action (which knows only what the seat knows). The quiescence beyond the
//! depth searches attacks, and every reply for a side whose flag is threatened. When the
//! observation hides nothing, one world is searched by iterative deepening instead, and a move
//! back to a position seen since the last attack or flip is worth a draw (circling ends in the
//! quiet-plies draw); with [`SearchConfig::memory`] that search keeps a transposition table
//! and a history of the quiet moves that cut off (`crate::memory`).
//!
//! Flip play: what a flip turns up is chance, not choice. Below the root one flip stands for
//! all and turns up nothing (in a sampled world a side searching its flips would pick the one
//! hiding its marshal). At the root, with [`SearchConfig::chance`] (the levels), the moves are
//! searched once by iterative deepening and each flip over the identities it may turn up
//! (`chance`); without it, the root's flips are averaged over the sampled worlds.
//!
//! Budgets: [`Budget::Nodes`] caps the nodes searched per decision (reproducible);
//! [`Budget::Iterations`] sets the number of sampled worlds; [`Budget::Time`] searches worlds
//! until the time is up (interactive play). A deepening search spends a node budget or a time
//! budget the same way; under `Iterations(n)` it stops at about the nodes n worlds would cost.

use crate::belief::Belief;
use crate::bot::{Bot, BotError, Budget};
use crate::deploygen::layout_for_bot;
use crate::enemy_view::Exposure;
use crate::eval::{evaluate, flag_threatened, value, WIN};
use crate::heuristic::score_actions;
use crate::memory::Memory;
use crate::threats::{root_adjustments, BlastMemory};
use chance::FlipChance;
use junqi_core::combat::resolve;
use junqi_core::{
    Action, AttackResult, BoardKind, Deployment, Event, Observation, Position, Rules, Seat,
    TeamMap, Teams,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::time::{Duration, Instant};

mod chance;

/// Settings of a search bot.
#[derive(Clone, Copy, Debug)]
pub struct SearchConfig {
    /// The bot's name.
    pub name: &'static str,
    /// Search depth in plies (including the root move); when deepening, the first iteration.
    pub depth: u32,
    /// The budget used when the driver's budget is the default `Iterations(1000)` (see
    /// [`Budget::default`]), so that a bot picked by name plays at its level.
    pub default_budget: Budget,
    /// Weight of the one-ply heuristic score added to the sampled search value.
    pub heuristic_weight: f64,
    /// Plies of capture-only search (quiescence) beyond `depth`.
    pub quiescence: u32,
    /// Weight of the root's tactical pricing from what the seat knows ([`root_adjustments`]:
    /// flag safety with the decoy HQ, risky attacks on unmoved pieces, locked captures); 0
    /// leaves it out (the `search` bots as they were).
    pub threat_weight: f64,
    /// A wall-clock limit per decision on top of a node or iteration budget (the levels' "at
    /// most so long a move" on slow boards and machines); `None`: none.
    pub time_cap: Option<Duration>,
    /// Scale of the squash applied to each sampled world's value before the average
    /// (`clip · tanh(v / clip)`; 0: none; never in flip play: [`SearchConfig::squash`]). A
    /// world in which a flag falls is worth ±[`WIN`]/2 or more against a few points of
    /// material: averaged raw over the handful of worlds a decision affords, one such world
    /// outweighs everything else, and which worlds were drawn decides the move. Squashed, a
    /// flag still counts for many pieces, and the others count.
    pub clip: f64,
    /// Whether the squash is taken about each world's median action value instead of about
    /// zero: a world in which we stand far ahead (or behind) whatever we play keeps the
    /// differences between actions, which a squash about zero flattens.
    pub clip_center: bool,
    /// Whether the enemy's reply to each root action is chosen without knowing our pieces:
    /// searched in the world as the enemy might picture it ([`Exposure::enemy_view`]), then
    /// played in the sampled world. Off: the enemy answers every sampled world as if it saw
    /// our identities.
    pub blind_replies: bool,
    /// Racing at the root (0: off): once every root action has been searched in
    /// [`RACE_MIN_WORLDS`] worlds, an action stops being searched when, paired world by world
    /// with the current leader, its deficit (search value plus weighted heuristic score) is
    /// more than `prune` standard errors of that difference. The worlds sampled afterwards
    /// are spent on the actions still in the race, so that a budget buys more worlds where
    /// the choice is close instead of confirming that a blunder is a blunder.
    pub prune: f64,
    /// Whether the deepening search (a world with nothing hidden, and flip play's chance
    /// root) remembers what it searched (`crate::memory`: a transposition table and a history
    /// of the quiet moves that cut off), so that a budget reaches deeper in flip play and in
    /// dark endgames with every enemy piece known.
    pub memory: bool,
    /// Flip play's chance root (0: off, sampled worlds as in the other modes): while pieces are
    /// face down, the root's moves are searched once and each root flip over the identities it
    /// may turn up, by iterative deepening (`chance`: at most about this many identity
    /// searches per iteration over all the flips, at least four a flip; every identity when
    /// they fit).
    pub chance: u32,
}

/// Worlds every root action is searched in before racing may drop it ([`SearchConfig::prune`]).
pub const RACE_MIN_WORLDS: u32 = 4;

impl SearchConfig {
    /// The squash ([`SearchConfig::clip`]) under `rules`: none in flip play. A sampled world
    /// there is a deal of the face-down pieces, true chance rather than a guess at a layout,
    /// and its value goes into the average as it is (measured: the levels scored 0.38 against
    /// `search-2026` in flip squashed at 15, 0.50 without; STRENGTH.md).
    pub fn squash(&self, rules: &Rules) -> f64 {
        if rules.is_flip() {
            0.0
        } else {
            self.clip
        }
    }

    /// The standard level: about 100 ms per two-player move on one core.
    pub const STANDARD: SearchConfig = SearchConfig {
        name: "search",
        depth: 3,
        default_budget: Budget::Nodes(190_000),
        heuristic_weight: 0.5,
        quiescence: 4,
        threat_weight: 0.0,
        time_cap: None,
        clip: 0.0,
        clip_center: false,
        blind_replies: false,
        prune: 0.0,
        memory: false,
        chance: 0,
    };
    /// The playing levels' search (see [`crate::Level`]): the standard search with the root's
    /// tactical pricing from what the seat knows ([`root_adjustments`]).
    pub const LEVEL: SearchConfig = SearchConfig {
        name: "level",
        threat_weight: 1.0,
        clip: 15.0,
        // Measured worse (0.52 against 0.64 versus `search-2026` over 200 games, STRENGTH.md).
        blind_replies: false,
        memory: true,
        chance: 240,
        ..SearchConfig::STANDARD
    };
    /// The strongest level for interactive play (about 1 s per move).
    pub const STRONG: SearchConfig = SearchConfig {
        name: "search-strong",
        depth: 3,
        default_budget: Budget::Nodes(1_500_000),
        heuristic_weight: 0.5,
        quiescence: 4,
        threat_weight: 0.0,
        time_cap: None,
        clip: 0.0,
        clip_center: false,
        blind_replies: false,
        prune: 0.0,
        memory: false,
        chance: 0,
    };
}

/// The determinized alpha-beta bot.
pub struct SearchBot {
    cfg: SearchConfig,
    seat: Seat,
    rng: ChaCha8Rng,
    belief: Option<Belief>,
    buf: Vec<Vec<Action>>,
    nodes: u64,
    /// Past this many nodes the quiescence stands pat (a node budget must not be overrun
    /// far by one large world).
    node_cap: u64,
    /// Set when a deepening search runs out of budget mid-iteration (its values are then void).
    aborted: bool,
    /// The node count or the deadline at which a deepening search stops.
    stop_at: Option<(u64, Option<Instant>)>,
    /// Nodes searched in the last decision.
    pub last_nodes: u64,
    /// Worlds sampled in the last decision.
    pub last_worlds: u32,
    /// Depth of the last full iteration of a deepening search (0: sampled worlds instead).
    pub last_depth: u32,
    /// Keys of the positions seen since the last attack or flip, while nothing was hidden.
    seen: Vec<u64>,
    /// The game's teams (worked out once: `Rules::teams` derives them on every call).
    teams: TeamMap,
    /// Where the enemies' unmoved pieces blew up ours (bomb squares learnt in this game).
    memory: BlastMemory,
    /// Which pieces have moved and fought (what the enemy knows of ours beyond the board).
    exposure: Exposure,
    /// `exposure` after a root action, and that action's events (reused storage).
    root_exposure: Exposure,
    root_events: Vec<Event>,
    /// The transposition table and move history of the certain world's search
    /// ([`SearchConfig::memory`]).
    recall: Memory,
    /// Whether `recall` is in use (set by the deepening search for its duration).
    recalling: bool,
}

impl SearchBot {
    /// A search bot with these settings.
    pub fn new(cfg: SearchConfig) -> SearchBot {
        SearchBot {
            cfg,
            seat: 0,
            rng: ChaCha8Rng::seed_from_u64(0),
            belief: None,
            buf: Vec::new(),
            nodes: 0,
            node_cap: u64::MAX,
            aborted: false,
            stop_at: None,
            last_nodes: 0,
            last_worlds: 0,
            last_depth: 0,
            seen: Vec::new(),
            teams: TeamMap::new(BoardKind::TwoPlayer, Teams::None),
            memory: BlastMemory::default(),
            exposure: Exposure::default(),
            root_exposure: Exposure::default(),
            root_events: Vec::new(),
            recall: Memory::new(),
            recalling: false,
        }
    }

    /// Remember the position `obs` shows (if it hides nothing), forgetting those before the
    /// last attack or flip: no position from before one can come back.
    fn remember(&mut self, obs: &Observation) {
        if obs.quiet_plies == 0 {
            self.seen.clear();
        }
        if is_certain(obs) {
            let pieces = obs.pieces.iter().map(|p| {
                let piece = junqi_core::Piece {
                    role: p.role.expect("certain"),
                    seat: p.seat.expect("certain"),
                    face_down: false,
                };
                (p.at, piece)
            });
            self.seen.push(board_key(pieces, obs.to_move));
        }
    }

    fn alphabeta(&mut self, pos: &Position, depth: u32, alpha: f64, beta: f64, ply: usize) -> f64 {
        self.nodes += 1;
        if self.out_of_budget() {
            self.aborted = true;
            return 0.0;
        }
        if pos.is_over() || self.out_of_game(pos) {
            return evaluate(pos, self.seat);
        }
        if depth == 0 {
            return self.quiesce(pos, self.cfg.quiescence, alpha, beta, ply);
        }
        let recalling = self.recalling;
        let (key, remembered) = if recalling {
            let key = position_key(pos);
            let probe = self.recall.probe(key, depth, alpha, beta);
            if let Some(v) = probe.value {
                return v;
            }
            (key, probe.best)
        } else {
            (0, None)
        };
        let maximize = self.maximizing(pos);
        let mut actions = self.take_actions(pos, ply);
        order(
            pos,
            &mut actions,
            recalling.then_some((&self.recall, remembered, ply)),
        );
        let init = if maximize {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        };
        let mut w = Window {
            maximize,
            alpha,
            beta,
            best: init,
        };
        let mut best_action = None;
        for &a in &actions {
            let next = play_in_tree(pos, a);
            let v = self.alphabeta(&next, depth - 1, w.alpha, w.beta, ply + 1);
            if self.aborted {
                break;
            }
            let before = w.best;
            let cut = w.update(v);
            if w.best != before {
                best_action = Some(a);
            }
            if cut {
                if recalling && is_quiet(pos, a) {
                    self.recall.reward(a, depth, ply);
                }
                break;
            }
        }
        self.buf[ply] = actions;
        let value = if w.best.is_infinite() {
            evaluate(pos, self.seat)
        } else {
            w.best
        };
        if recalling && !self.aborted {
            self.recall
                .store(key, depth, (alpha, beta), value, best_action);
        }
        value
    }

    /// Whether a deepening search must stop now (checked at every node; the clock only every
    /// 1024 nodes, as reading it costs more than a node).
    fn out_of_budget(&self) -> bool {
        match self.stop_at {
            None => false,
            Some((max_nodes, deadline)) => {
                self.nodes >= max_nodes
                    || (self.nodes.is_multiple_of(1024)
                        && deadline.is_some_and(|d| Instant::now() >= d))
            }
        }
    }

    /// Whether our team is out of a game that goes on without it (more than two teams): our
    /// placing is settled, so the node is a leaf.
    fn out_of_game(&self, pos: &Position) -> bool {
        let teams = &self.teams;
        teams.count() > 2 && teams.mates(self.seat).minus(pos.eliminated()).is_empty()
    }

    /// Whether the side to move in `pos` is ours (the maximizing side).
    fn maximizing(&self, pos: &Position) -> bool {
        self.teams.same_team(pos.to_move(), self.seat)
    }

    /// The actions searched below the root in `pos`, in the reusable buffer of search depth
    /// `ply` (give it back with `self.buf[ply] = actions` when done): the legal moves, and of
    /// the flips only one, which [`play_in_tree`] plays as a flip that reveals nothing. In a
    /// sampled world every face-down piece's identity is fixed, so a side searching its flips
    /// there would pick the one that turns up its marshal (or the enemy's bomb next to our
    /// general): knowledge no player has when flipping. Which piece a flip turns up is chance;
    /// the root's flips are averaged over the sampled worlds, which is that chance, and below
    /// the root a flip keeps what it is worth to either side whatever it reveals: the turn
    /// spent, and a reset of the quiet count.
    fn take_actions(&mut self, pos: &Position, ply: usize) -> Vec<Action> {
        if self.buf.len() <= ply {
            self.buf.resize_with(ply + 1, Vec::new);
        }
        let mut actions = std::mem::take(&mut self.buf[ply]);
        actions.clear();
        pos.legal_actions_into(&mut actions);
        if !pos.rules().is_flip() {
            return actions; // (this runs at every node: other modes have no flips to fold)
        }
        if let Some(first) = actions.iter().position(|a| matches!(a, Action::Flip(_))) {
            let flip = actions[first];
            actions.retain(|a| !matches!(a, Action::Flip(_)));
            actions.push(flip);
        }
        actions
    }
}

/// The position after `a` below the search's root: a flip reveals nothing there (see
/// [`SearchBot::take_actions`]).
fn play_in_tree(pos: &Position, a: Action) -> Position {
    let mut next = pos.clone();
    match a {
        Action::Flip(_) => next.pass_as_flip_unchecked(&mut ()),
        _ => next.play_unchecked(a, &mut ()),
    }
    next
}

/// The alpha-beta window of one node and the best value found there.
struct Window {
    maximize: bool,
    alpha: f64,
    beta: f64,
    best: f64,
}

impl Window {
    /// Take a child's value; returns whether the remaining children can be cut off.
    fn update(&mut self, v: f64) -> bool {
        if self.maximize {
            self.best = self.best.max(v);
            self.alpha = self.alpha.max(v);
        } else {
            self.best = self.best.min(v);
            self.beta = self.beta.min(v);
        }
        self.alpha >= self.beta
    }
}

impl SearchBot {
    /// Capture-only search at the horizon: the side to move may stand pat (the static
    /// evaluation) or make an attack, up to `qdepth` more plies, so that an exchange under way
    /// is not cut off in the middle.
    fn quiesce(
        &mut self,
        pos: &Position,
        qdepth: u32,
        mut alpha: f64,
        mut beta: f64,
        ply: usize,
    ) -> f64 {
        let stand = evaluate(pos, self.seat);
        if self.out_of_budget() {
            self.aborted = true;
        }
        if qdepth == 0
            || pos.is_over()
            || self.aborted
            || self.nodes >= self.node_cap
            || self.out_of_game(pos)
        {
            return stand;
        }
        let maximize = self.maximizing(pos);
        // A side whose flag the other side could take next move may not stand pat nor only
        // capture: every reply is searched (like check evasions in chess), so a threat one
        // move beyond the horizon is not mistaken for a quiet position.
        // With more than two teams the search's enemies play against us (paranoid search):
        // an enemy seat to move need not answer another enemy's threat to its flag, which
        // that enemy would not carry out; ours it must.
        let mover_team = self.teams.team_of(pos.to_move()).0;
        let my_team = self.teams.team_of(self.seat).0;
        let threatened = if maximize {
            flag_threatened(pos, mover_team, |_| true)
        } else {
            flag_threatened(pos, mover_team, |t| t == my_team)
        };
        if threatened {
            return self.evade(pos, qdepth, alpha, beta, ply, maximize);
        }
        if maximize {
            if stand >= beta {
                return stand;
            }
            alpha = alpha.max(stand);
        } else {
            if stand <= alpha {
                return stand;
            }
            beta = beta.min(stand);
        }
        let w = Window {
            maximize,
            alpha,
            beta,
            best: stand,
        };
        self.quiesce_actions(pos, qdepth, w, ply, true)
    }

    /// Search the legal actions of `pos` (only its attacks if `attacks_only`) one quiescence
    /// ply deeper, within and updating `w`; returns the best value (`w.best` if none).
    fn quiesce_actions(
        &mut self,
        pos: &Position,
        qdepth: u32,
        mut w: Window,
        ply: usize,
        attacks_only: bool,
    ) -> f64 {
        let mut actions = self.take_actions(pos, ply);
        if attacks_only {
            actions.retain(|a| matches!(*a, Action::Move { to, .. } if pos.piece_at(to).is_some()));
        }
        order(pos, &mut actions, None);
        for &a in &actions {
            self.nodes += 1;
            let next = play_in_tree(pos, a);
            let v = self.quiesce(&next, qdepth - 1, w.alpha, w.beta, ply + 1);
            if w.update(v) {
                break;
            }
        }
        self.buf[ply] = actions;
        w.best
    }
}

impl SearchBot {
    /// Quiescence at a node whose mover's flag is threatened: every legal action is tried
    /// (quiescence goes on below), and the best is the node's value.
    fn evade(
        &mut self,
        pos: &Position,
        qdepth: u32,
        alpha: f64,
        beta: f64,
        ply: usize,
        maximize: bool,
    ) -> f64 {
        let w = Window {
            maximize,
            alpha,
            beta,
            best: if maximize {
                f64::NEG_INFINITY
            } else {
                f64::INFINITY
            },
        };
        let best = self.quiesce_actions(pos, qdepth, w, ply, false);
        if best.is_infinite() {
            evaluate(pos, self.seat)
        } else {
            best
        }
    }
}

impl SearchBot {
    /// The value of `pos` (an enemy to move, `depth` plies left) when the enemy picks its reply
    /// in `view`, the same board as it pictures our pieces: each reply is searched there as
    /// usual (the enemy minimises our value), and the one it finds best is played and searched
    /// in `pos`, the sampled world. The enemy's bomb-dodging and flag-finding are then only as
    /// good as what it knows.
    fn blind_reply(&mut self, pos: &Position, view: &Position, depth: u32, ply: usize) -> f64 {
        self.nodes += 1;
        let mut replies = self.take_actions(pos, ply);
        order(view, &mut replies, None);
        let mut chosen = None;
        let mut best = 2.0 * WIN;
        for &r in &replies {
            let v = self.alphabeta(&play_in_tree(view, r), depth - 1, -2.0 * WIN, best, ply + 1);
            if self.aborted {
                break;
            }
            if v < best || chosen.is_none() {
                best = v;
                chosen = Some(r);
            }
        }
        self.buf[ply] = replies;
        match chosen {
            Some(r) if !self.aborted => self.alphabeta(
                &play_in_tree(pos, r),
                depth - 1,
                -2.0 * WIN,
                2.0 * WIN,
                ply + 1,
            ),
            _ => evaluate(pos, self.seat),
        }
    }
}

/// A key of a board and the seat to move (order-independent over the pieces, so an
/// observation and a position give the same key for the same board).
fn board_key(
    pieces: impl Iterator<Item = (junqi_core::Square, junqi_core::Piece)>,
    to_move: Seat,
) -> u64 {
    let mix = |mut x: u64| {
        // splitmix64's finaliser: spreads every input bit over the whole word.
        x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        x ^ (x >> 31)
    };
    let mut key = mix(0x1000 + to_move as u64);
    for (sq, p) in pieces {
        let code =
            (sq.0 as u64) << 8 | (p.seat as u64) << 5 | (p.face_down as u64) << 4 | p.role as u64;
        key = key.wrapping_add(mix(code));
    }
    key
}

/// Whether the observation leaves nothing hidden (every piece's owner and role known, none
/// face down): flip play once every piece is turned up, open play, or a dark endgame where
/// every enemy piece has been identified. Then every sampled world is the same one.
fn is_certain(obs: &Observation) -> bool {
    obs.pieces
        .iter()
        .all(|p| p.role.is_some() && p.seat.is_some() && !p.face_down)
}

impl SearchBot {
    /// The value of playing the move `a` in `world` at the deepening search's root, searched
    /// `depth` plies deep; only a value above `bar` (the best total so far less the move's
    /// heuristic score) can matter.
    fn root_move(&mut self, world: &Position, a: Action, depth: u32, bar: f64) -> f64 {
        let mut next = world.clone();
        next.play_unchecked(a, &mut ());
        // A move back to a position seen since the last attack or flip makes no progress:
        // going round in circles ends in the quiet-plies draw, so it is worth the draw (0).
        // Ahead, the search looks for a new way forward; behind, it is glad of the circle.
        if !next.is_over()
            && next.quiet_plies() > 0
            && self
                .seen
                .contains(&board_key(next.pieces(), next.to_move()))
        {
            return 0.0;
        }
        // Once a best move is in hand the others are first searched with a null window, which
        // only asks whether they beat it (cheap when they do not, as most do not), and
        // searched again with the full window when they do.
        let alpha = bar.max(-2.0 * WIN);
        if bar.is_finite() {
            let v = self.alphabeta(&next, depth - 1, alpha, alpha + NULL_WINDOW, 1);
            if v <= alpha || self.aborted {
                return v;
            }
        }
        self.alphabeta(&next, depth - 1, alpha, 2.0 * WIN, 1)
    }

    /// The search when nothing is hidden: one world, searched by iterative deepening (depth
    /// 2, 3, …) until the budget is spent, instead of the same world sampled again and again.
    /// Flip play's chance root ([`SearchConfig::chance`]) is this search too while pieces are
    /// face down (from depth 1): the moves in one sampled world, whose deal they do not
    /// depend on, and each flip as the mean over the identities it may turn up
    /// ([`FlipChance`]).
    /// The root keeps exact values of `search value + heuristic_weight × heuristic score`: each
    /// action is searched with the window that could still make it the best. An iteration cut
    /// short by the budget keeps the values of the actions it finished (the previous best is
    /// searched first, so its move is never worse than the last full iteration's).
    fn deepen(
        &mut self,
        obs: &Observation,
        actions: &[Action],
        heur: &[(Action, f64)],
        max_nodes: u64,
        deadline: Option<Instant>,
    ) -> Action {
        let mut rng = ChaCha8Rng::seed_from_u64(self.rng.gen());
        let world = self
            .belief
            .as_mut()
            .and_then(|b| b.sample_world(obs, &mut rng));
        let Some(world) = world else {
            return actions[0];
        };
        // Flip play with pieces face down: each root flip is searched over what it may turn up
        // (none when nothing is face down).
        let chance = FlipChance::new(&self.cfg, obs, &world, actions, &mut rng);
        let h: Vec<f64> = actions
            .iter()
            .map(|&a| {
                self.cfg.heuristic_weight * heur.iter().find(|x| x.0 == a).map_or(0.0, |x| x.1)
            })
            .collect();
        // Root order: best total of the last iteration first (heuristic score at first).
        let mut order_idx: Vec<usize> = (0..actions.len()).collect();
        order_idx.sort_by(|&a, &b| h[b].total_cmp(&h[a]));
        self.nodes = 0;
        self.node_cap = max_nodes;
        self.aborted = false;
        self.stop_at = Some((max_nodes, deadline));
        self.recalling = self.cfg.memory;
        if self.recalling {
            self.recall.start(max_nodes);
        }
        let mut best = order_idx[0];
        // The chance root's searches cost a flip's identities each: from depth 1, so that a
        // budget too small for the level's first depth still compares every action.
        let mut depth = if chance.is_some() {
            1
        } else {
            self.cfg.depth.max(1)
        };
        let mut completed = 0;
        while depth <= MAX_DEPTH {
            let mut totals: Vec<(usize, f64)> = Vec::with_capacity(actions.len());
            let mut best_total = f64::NEG_INFINITY;
            for &i in &order_idx {
                let flip_after = chance.as_ref().map_or(&[][..], |c| c.after(i));
                let v = if !flip_after.is_empty() {
                    // A root flip: the mean over what it may turn up, each searched in full
                    // (a bound on one identity's value says little about the mean).
                    let mut mean = 0.0;
                    for (child, w) in flip_after {
                        mean += w * self.alphabeta(child, depth - 1, -2.0 * WIN, 2.0 * WIN, 1);
                        if self.aborted {
                            break;
                        }
                    }
                    mean
                } else {
                    self.root_move(&world, actions[i], depth, best_total - h[i])
                };
                if self.aborted || self.out_of_budget() {
                    break;
                }
                let total = v + h[i];
                if total > best_total {
                    best_total = total;
                }
                totals.push((i, total));
            }
            let full = totals.len() == actions.len();
            if let Some(&(i, _)) = totals.iter().max_by(|a, b| a.1.total_cmp(&b.1)) {
                // A partial iteration counts only if it finished the previous best (searched
                // first); a move that beats it at this depth is then a real improvement.
                if full || totals[0].0 == best {
                    best = i;
                }
            }
            if !full {
                break;
            }
            completed = depth;
            // Next iteration: this one's best first, the others by total.
            totals.sort_by(|a, b| b.1.total_cmp(&a.1));
            order_idx = totals.iter().map(|t| t.0).collect();
            if best_total.abs() >= 0.75 * WIN {
                break; // the game's end is in sight: deeper search will not change it
            }
            depth += 1;
        }
        self.stop_at = None;
        if self.recalling {
            self.recall.release();
        }
        self.recalling = false;
        self.aborted = false;
        self.last_nodes = self.nodes;
        self.last_worlds = 1;
        self.last_depth = completed;
        actions[best]
    }
}

/// The root's race ([`SearchConfig::prune`]): which actions are still searched, and each
/// world's (squashed) values, for the paired comparison with the leader.
struct Race {
    prune: f64,
    /// Whether each root action is still searched.
    active: Vec<bool>,
    /// Per world, the value of each action searched there (NaN: not searched).
    history: Vec<Vec<f64>>,
}

impl Race {
    fn new(n: usize, prune: f64) -> Race {
        Race {
            prune,
            active: vec![true; n],
            history: Vec::new(),
        }
    }

    /// Take one world's values (and the actions' weighted heuristic scores, `h`) and drop the
    /// actions that have clearly lost to the leader.
    fn world(&mut self, values: &[(usize, f64)], h: &[f64]) {
        if self.prune <= 0.0 {
            return;
        }
        let mut row = vec![f64::NAN; self.active.len()];
        for &(i, v) in values {
            row[i] = v;
        }
        self.history.push(row);
        if self.history.len() < RACE_MIN_WORLDS as usize {
            return;
        }
        let mean = |i: usize| {
            let (s, n) = self
                .history
                .iter()
                .filter(|r| !r[i].is_nan())
                .fold((0.0, 0u32), |(s, n), r| (s + r[i], n + 1));
            if n == 0 {
                f64::NEG_INFINITY
            } else {
                s / n as f64 + h[i]
            }
        };
        let live: Vec<usize> = (0..self.active.len()).filter(|&i| self.active[i]).collect();
        let Some(&leader) = live.iter().max_by(|&&a, &&b| mean(a).total_cmp(&mean(b))) else {
            return;
        };
        let mut left = live.len();
        for &i in &live {
            if i == leader || left <= 2 {
                continue;
            }
            // Paired differences over the worlds where both were searched: the same world
            // weighs on both alike, so the difference is far less noisy than either mean.
            let d: Vec<f64> = self
                .history
                .iter()
                .filter(|r| !r[i].is_nan() && !r[leader].is_nan())
                .map(|r| r[leader] - r[i])
                .collect();
            if d.len() < RACE_MIN_WORLDS as usize {
                continue;
            }
            let n = d.len() as f64;
            let m = d.iter().sum::<f64>() / n + h[leader] - h[i];
            let var = d
                .iter()
                .map(|x| (x - (m - h[leader] + h[i])).powi(2))
                .sum::<f64>()
                / (n - 1.0);
            // A floor on the spread: identical values in a few worlds prove little.
            let se = (var.max(1.0) / n).sqrt();
            if m > self.prune * se {
                self.active[i] = false;
                left -= 1;
            }
        }
    }
}

/// Width of the deepening search's null window at the root: a value this much above the best
/// so far counts as beating it.
const NULL_WINDOW: f64 = 1e-6;

/// Deepest iteration of the deepening search.
const MAX_DEPTH: u32 = 12;

/// [`order`]'s class of the quiet moves (after every attack, before the flips).
const QUIET: i32 = 100;

/// Whether `a` is a quiet move in `pos` (neither an attack nor a flip).
fn is_quiet(pos: &Position, a: Action) -> bool {
    matches!(a, Action::Move { to, .. } if pos.piece_at(to).is_none())
}

/// The key of a position for the transposition table: its board and side to move
/// ([`board_key`]), and its quiet-plies count, which the evaluation reads (a value shrinks
/// towards the draw as the limit nears).
fn position_key(pos: &Position) -> u64 {
    // A face-down piece is keyed by its square alone: below the root nothing depends on what
    // it is (see [`SearchBot::take_actions`]), so positions that differ only in the deal of
    // the face-down pieces (the chance root's, [`chance`]) share their entries.
    let pieces = pos.pieces().map(|(sq, p)| {
        let p = if p.face_down {
            junqi_core::Piece {
                role: junqi_core::Role::Flag,
                seat: 0,
                face_down: true,
            }
        } else {
            p
        };
        (sq, p)
    });
    board_key(pieces, pos.to_move())
        ^ (pos.quiet_plies() as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

/// Move ordering: attacks first, winning ones (in this determinized world the outcome is
/// known) by the value taken minus the value lost, then quiet moves, then flips. With the
/// search's memory (`crate::memory`) the move it remembers as this position's best comes
/// first, and the quiet moves that last cut the search off at this ply (`ply`) before the
/// other quiet moves, which go by how often they cut it off.
fn order(pos: &Position, actions: &mut [Action], memory: Option<(&Memory, Option<Action>, usize)>) {
    let rules = *pos.rules();
    let class = |a: &Action| match *a {
        Action::Move { from, to } => match (pos.piece_at(from), pos.piece_at(to)) {
            (Some(att), Some(def)) => {
                let r = resolve(&rules, att.role, def.role);
                let mut gain = 0.0;
                if !r.defender_survives {
                    gain += value(def.role);
                }
                if !r.attacker_survives {
                    gain -= value(att.role);
                }
                if r.result == AttackResult::FlagCaptured {
                    gain += 1000.0;
                }
                -(gain * 10.0) as i32
            }
            _ => QUIET,
        },
        Action::Flip(_) => 101,
    };
    match memory {
        None => actions.sort_by_cached_key(class),
        Some((m, best, ply)) => {
            actions.sort_by_cached_key(|a| {
                let c = class(a);
                let quiet = c == QUIET;
                let killer = quiet && m.is_killer(*a, ply);
                let history = if quiet { m.history(*a) } else { 0 };
                (c, !killer, u32::MAX - history)
            });
            if let Some(i) = best.and_then(|b| actions.iter().position(|&a| a == b)) {
                actions[..=i].rotate_right(1);
            }
        }
    }
}

impl Bot for SearchBot {
    fn name(&self) -> String {
        self.cfg.name.into()
    }

    fn new_game(&mut self, rules: &Rules, seat: Seat, seed: u64) {
        self.seat = seat;
        self.teams = rules.teams();
        self.rng = ChaCha8Rng::seed_from_u64(seed);
        self.belief = Some(Belief::new(*rules, seat));
        self.seen.clear();
        self.memory.clear();
        self.exposure.clear();
    }

    fn deploy(&mut self) -> Result<Deployment, BotError> {
        Ok(layout_for_bot(&mut self.rng))
    }

    fn observe(&mut self, events: &[Event], obs: &Observation) {
        if self.cfg.blind_replies {
            // Only the blind replies read what the enemy has seen of our pieces.
            self.exposure.record(events, obs.topology().len());
        }
        self.memory
            .record(events, self.seat, self.belief.as_ref(), obs.topology());
        if let Some(b) = self.belief.as_mut() {
            b.update(events, obs);
            if self.cfg.threat_weight != 0.0 {
                self.memory.shape_belief(obs, self.seat, b);
            }
        }
        self.remember(obs);
    }

    fn choose(&mut self, obs: &Observation, budget: Budget) -> Result<Action, BotError> {
        let actions = obs.legal_actions.clone();
        if actions.is_empty() {
            return Err(BotError("asked to move with no legal action".into()));
        }
        self.teams = obs.rules.teams();
        if self.belief.is_none() || self.seat != obs.to_move {
            self.seat = obs.to_move;
            let mut b = Belief::new(obs.rules, obs.to_move);
            b.update(&[], obs);
            self.belief = Some(b);
        }
        if actions.len() == 1 {
            return Ok(actions[0]);
        }
        let budget = if budget == Budget::default() {
            self.cfg.default_budget
        } else {
            budget
        };
        let mut heur = score_actions(obs, self.belief.as_mut().expect("belief"), self.seat);
        if self.cfg.threat_weight != 0.0 {
            // The tactical pricing joins the heuristic's score (`heur` is weighted by
            // `heuristic_weight` below, so it is divided by that weight here).
            let adj = root_adjustments(
                obs,
                self.belief.as_mut().expect("belief"),
                self.seat,
                &self.memory,
            );
            let scale = self.cfg.threat_weight / self.cfg.heuristic_weight.max(1e-9);
            for (i, &a) in actions.iter().enumerate() {
                match heur.iter_mut().find(|x| x.0 == a) {
                    Some(x) => x.1 += scale * adj[i],
                    None => heur.push((a, scale * adj[i])),
                }
            }
        }
        let start = Instant::now();
        let (max_worlds, max_nodes, deadline): (u64, u64, Option<Duration>) = match budget {
            Budget::Iterations(n) => (n.max(1), u64::MAX, None),
            Budget::Nodes(n) => (u64::MAX, n.max(1), None),
            Budget::Time(t) => (u64::MAX, u64::MAX, Some(t)),
        };
        let deadline = match (deadline, self.cfg.time_cap) {
            (Some(d), Some(c)) => Some(d.min(c)),
            (d, c) => d.or(c),
        };
        if is_certain(obs) || (self.cfg.chance > 0 && obs.rules.is_flip()) {
            let deadline = deadline.map(|d| start + d);
            // With `Iterations(n)` (no node cap) deepen up to the node count the same number of
            // worlds would cost at depth 2, roughly, so the budget still bounds the work.
            let max_nodes = if max_nodes == u64::MAX && deadline.is_none() {
                max_worlds.saturating_mul(2_000)
            } else {
                max_nodes
            };
            return Ok(self.deepen(obs, &actions, &heur, max_nodes, deadline));
        }
        let mut sum = vec![0.0f64; actions.len()];
        let mut cnt = vec![0u32; actions.len()];
        self.nodes = 0;
        self.node_cap = max_nodes.saturating_mul(2);
        let mut worlds = 0u64;
        let depth = self.cfg.depth.max(1);
        // A time limit is also checked inside a world (one six-player world can take longer
        // than a level's whole time): a world cut short is left out of the averages.
        self.aborted = false;
        self.stop_at = deadline.map(|d| (u64::MAX, Some(start + d)));
        let mut values: Vec<(usize, f64)> = Vec::with_capacity(actions.len());
        let hw = self.cfg.heuristic_weight;
        let h_of: Vec<f64> = actions
            .iter()
            .map(|&a| hw * heur.iter().find(|x| x.0 == a).map_or(0.0, |x| x.1))
            .collect();
        let mut race = Race::new(actions.len(), self.cfg.prune);
        let clip = self.cfg.squash(&obs.rules);
        while worlds < max_worlds
            && self.nodes < max_nodes
            && deadline.is_none_or(|d| start.elapsed() < d)
        {
            let mut rng = ChaCha8Rng::seed_from_u64(self.rng.gen());
            let Some(world) = self
                .belief
                .as_mut()
                .expect("belief")
                .sample_world(obs, &mut rng)
            else {
                break;
            };
            worlds += 1;
            let mut legal = Vec::new();
            world.legal_actions_into(&mut legal);
            values.clear();
            let view_seed: u64 = rng.gen();
            for (i, &a) in actions.iter().enumerate() {
                if !race.active[i] || !legal.contains(&a) {
                    continue;
                }
                let mut next = world.clone();
                let v = if self.cfg.blind_replies && depth >= 2 {
                    self.root_events.clear();
                    next.play_unchecked(a, &mut self.root_events);
                    self.root_exposure.clone_from(&self.exposure);
                    self.root_exposure
                        .record(&self.root_events, world.topology().len());
                    // The same seed for every root action: the enemy's picture of our pieces
                    // differs between actions only by what the action shows it.
                    let mut view_rng = ChaCha8Rng::seed_from_u64(view_seed);
                    let view = if next.is_over() {
                        None
                    } else {
                        self.root_exposure
                            .enemy_view(&next, &self.teams, self.seat, &mut view_rng)
                    };
                    match view {
                        Some(view) => self.blind_reply(&next, &view, depth - 1, 1),
                        _ => self.alphabeta(&next, depth - 1, -2.0 * WIN, 2.0 * WIN, 1),
                    }
                } else {
                    next.play_unchecked(a, &mut ());
                    self.alphabeta(&next, depth - 1, -2.0 * WIN, 2.0 * WIN, 1)
                };
                if self.aborted {
                    break;
                }
                values.push((i, v));
            }
            if self.aborted {
                break;
            }
            let centre = if clip > 0.0 && self.cfg.clip_center && !values.is_empty() {
                let mut vs: Vec<f64> = values.iter().map(|x| x.1).collect();
                vs.sort_by(f64::total_cmp);
                vs[vs.len() / 2]
            } else {
                0.0
            };
            for (i, v) in values.iter_mut() {
                if clip > 0.0 {
                    *v = clip * ((*v - centre) / clip).tanh();
                }
                sum[*i] += *v;
                cnt[*i] += 1;
            }
            race.world(&values, &h_of);
        }
        self.stop_at = None;
        self.aborted = false;
        self.last_nodes = self.nodes;
        self.last_worlds = worlds as u32;
        self.last_depth = 0;
        let mut best = actions[0];
        let mut best_s = f64::NEG_INFINITY;
        for (i, &a) in actions.iter().enumerate() {
            let h = heur.iter().find(|x| x.0 == a).map_or(0.0, |x| x.1);
            let mean = if cnt[i] > 0 {
                sum[i] / cnt[i] as f64
            } else if clip > 0.0 {
                -clip
            } else {
                -WIN
            };
            let s = mean + self.cfg.heuristic_weight * h + self.rng.gen_range(0.0..0.01);
            if s > best_s {
                best_s = s;
                best = a;
            }
        }
        Ok(best)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use junqi_core::text::position_from_text;

    #[test]
    fn racing_drops_a_clearly_worse_root_action_and_keeps_two() {
        // Four actions over worlds whose values move together (the world's luck) while action 3
        // is always 8 worse than the leader, action 2 only a little worse with noise.
        let h = [0.0, 0.0, 0.0, 0.0];
        let mut race = Race::new(4, 2.0);
        let mut off = Race::new(4, 0.0);
        for w in 0..12 {
            let luck = [5.0, -7.0, 3.0, 11.0, -2.0, 0.0][w % 6];
            let noise = if w % 2 == 0 { 1.5 } else { -1.5 };
            let vals = [
                (0, luck),
                (1, luck - 0.2 + noise),
                (2, luck - 0.5 - noise),
                (3, luck - 8.0),
            ];
            let searched: Vec<(usize, f64)> = vals
                .iter()
                .copied()
                .filter(|&(i, _)| race.active[i])
                .collect();
            race.world(&searched, &h);
            off.world(&vals, &h);
            if w + 1 < RACE_MIN_WORLDS as usize {
                assert!(
                    race.active.iter().all(|&a| a),
                    "no action dropped before the minimum"
                );
            }
        }
        assert!(
            !race.active[3],
            "the action 8 worse in every world is dropped"
        );
        assert!(race.active[0], "the leader stays");
        assert!(race.active.iter().filter(|&&a| a).count() >= 2);
        assert!(off.active.iter().all(|&a| a), "prune = 0 drops nothing");
        // The heuristic's score counts in the race: a bonus of 10 keeps action 3 ahead.
        let mut race = Race::new(2, 2.0);
        for _ in 0..8 {
            race.world(&[(0, 1.0), (1, -7.0)], &[0.0, 10.0]);
        }
        assert_eq!(
            race.active,
            vec![true, true],
            "two actions are never raced down to one"
        );
    }

    #[test]
    fn below_the_root_the_flips_are_one_action_that_reveals_nothing() {
        let p = position_from_text(
            "two_player flip 0 colours=0,1 a1=0F* b2=1L* c4=09* c3=05 d12=1F* e9=13 e10=1L*",
        )
        .unwrap();
        let mut all = Vec::new();
        p.legal_actions_into(&mut all);
        let flips = |v: &[Action]| v.iter().filter(|a| matches!(a, Action::Flip(_))).count();
        assert_eq!(flips(&all), 5);
        let mut bot = SearchBot::new(SearchConfig::STANDARD);
        let tree = bot.take_actions(&p, 1);
        assert_eq!(flips(&tree), 1);
        let moves: Vec<Action> = all
            .iter()
            .copied()
            .filter(|a| !matches!(a, Action::Flip(_)))
            .collect();
        assert_eq!(tree.len(), moves.len() + 1);
        assert!(moves.iter().all(|m| tree.contains(m)));
        // The flip turns nothing up: the face-down marshal next to the major stays hidden.
        let flip = *tree.iter().find(|a| matches!(a, Action::Flip(_))).unwrap();
        let next = play_in_tree(&p, flip);
        assert_eq!(next.pieces().filter(|(_, q)| q.face_down).count(), 5);
        assert_eq!((next.to_move(), next.quiet_plies()), (1, 0));
    }

    /// A flip game between two heuristic bots (the arena's game `seed`), up to the first time
    /// at most `down` pieces are face down with seat 0 to move: the observations seat 0
    /// received after each action.
    fn flip_game(seed: u64, down: usize) -> Vec<Observation> {
        let rules = Rules::defaults(BoardKind::TwoPlayer, junqi_core::Mode::Flip).unwrap();
        let mut bots: Vec<Box<dyn Bot>> = (0..2)
            .map(|_| Box::new(crate::HeuristicBot::named("heuristic")) as Box<dyn Bot>)
            .collect();
        let mut seen = Vec::new();
        let mut there = false;
        let mut watch = |pos: &Position, _: Seat, _: &[Event]| {
            if !there {
                let obs = pos.observe(junqi_core::Observer::Seat(0));
                let hidden = obs.pieces.iter().filter(|p| p.face_down).count();
                there = pos.is_over() || (hidden <= down && pos.to_move() == 0);
                seen.push(obs);
            }
        };
        crate::play_game_watched(rules, &mut bots, seed, Budget::default(), &mut watch);
        seen
    }

    /// The actions bots with `cfg` choose (seat 0, shown `game`), one bot per seed.
    fn choices(cfg: SearchConfig, game: &[Observation], seeds: u64, nodes: u64) -> Vec<Action> {
        (0..seeds)
            .map(|seed| {
                let mut bot = SearchBot::new(cfg);
                bot.new_game(&game[0].rules, 0, seed);
                for obs in game {
                    bot.observe(&[], obs);
                }
                bot.choose(game.last().unwrap(), Budget::Nodes(nodes))
                    .unwrap()
            })
            .collect()
    }

    #[test]
    fn the_chance_root_judges_flips_by_what_they_may_turn_up_not_by_the_deal() {
        // Mid-way through the flip phase: which identities the flips may turn up decides
        // between flipping beside the enemy's pieces, flipping elsewhere and moving. With the
        // chance root every bot (every deal of the face-down pieces) makes the same choice;
        // judged by sampled deals, the choice follows the deals.
        for (deal, down) in [(1, 16), (2, 16), (3, 10), (6, 10)] {
            let game = flip_game(deal, down);
            let chance = choices(SearchConfig::LEVEL, &game, 6, 20_000);
            let sampled = SearchConfig {
                chance: 0,
                ..SearchConfig::LEVEL
            };
            let sampled = choices(sampled, &game, 6, 20_000);
            assert!(
                chance.iter().all(|&a| a == chance[0]),
                "deal {deal}: {chance:?}"
            );
            assert!(
                sampled.iter().any(|&a| a != sampled[0]),
                "deal {deal}: {sampled:?}"
            );
        }
    }

    #[test]
    fn ahead_the_search_does_not_go_back_to_a_position_it_has_seen() {
        // Everything face up (one world, searched by deepening); colour 0 is far ahead but no
        // capture is in reach (colour 1's landmines shut its flag, its major sits far off).
        let text = "two_player flip 0 colours=0,1 quiet=5 a1=0F b1=0L a4=09 c3=08 e2=07 \
                    c12=1F b12=1L d12=1L e11=1L d10=15";
        let p = position_from_text(text).unwrap();
        let mut bot = SearchBot::new(SearchConfig::STANDARD);
        bot.new_game(p.rules(), 0, 7);
        let obs = p.observe(junqi_core::Observer::Seat(0));
        bot.observe(&[], &obs);
        let first = bot.choose(&obs, Budget::Nodes(20_000)).unwrap();
        // The game went on from there and came back: the position after `first` was seen.
        let mut after = p.clone();
        after.play(first, &mut Vec::new()).unwrap();
        assert!(after.quiet_plies() > 0, "a quiet move, which can come back");
        bot.observe(&[], &after.observe(junqi_core::Observer::Seat(0)));
        bot.observe(&[], &obs);
        let again = bot.choose(&obs, Budget::Nodes(20_000)).unwrap();
        assert_ne!(again, first);
        // A new bot, which has not seen it, plays the same first move (the choice is
        // deterministic, so the difference comes from the memory).
        let mut fresh = SearchBot::new(SearchConfig::STANDARD);
        fresh.new_game(p.rules(), 0, 7);
        fresh.observe(&[], &obs);
        assert_eq!(fresh.choose(&obs, Budget::Nodes(20_000)).unwrap(), first);
    }

    #[test]
    fn with_memory_the_certain_search_reaches_deeper_on_the_same_nodes() {
        // Everything face up: a flip endgame with a handful of movers a side, which the
        // deepening search searches as one world. Same budget, same seed: the transposition
        // table and the history must buy whole iterations.
        let text = "two_player flip 0 colours=0,1 quiet=4 a1=0F b1=0L c1=0L a4=09 c3=08 e2=07 \
                    b5=02 d6=04 a6=03 c12=1F b12=1L d12=1L e11=1L d10=15 b9=13 c8=01 e7=05";
        let p = position_from_text(text).unwrap();
        let obs = p.observe(junqi_core::Observer::Seat(0));
        let depth_with = |memory: bool| {
            let mut bot = SearchBot::new(SearchConfig {
                memory,
                ..SearchConfig::LEVEL
            });
            bot.new_game(p.rules(), 0, 7);
            bot.observe(&[], &obs);
            bot.choose(&obs, Budget::Nodes(20_000)).unwrap();
            assert_eq!(bot.last_worlds, 1, "searched as one certain world");
            bot.last_depth
        };
        let (without, with) = (depth_with(false), depth_with(true));
        assert!(
            with > without,
            "memory: depth {with}, without it: {without}"
        );
    }

    /// Whether `bot`, to move in `pos`, takes the flag within `moves` of its moves whatever
    /// the enemy answers.
    fn takes_the_flag_within(bot: &mut SearchBot, pos: &Position, moves: u32) -> bool {
        let obs = pos.observe(junqi_core::Observer::Seat(0));
        bot.observe(&[], &obs);
        let a = bot.choose(&obs, Budget::Nodes(30_000)).unwrap();
        let mut next = pos.clone();
        next.play(a, &mut Vec::new()).unwrap();
        if next.is_over() {
            return next.outcome().is_some_and(|o| o.winners() == vec![0]);
        }
        moves > 1
            && next.legal_actions().into_iter().all(|reply| {
                let mut after = next.clone();
                after.play(reply, &mut Vec::new()).unwrap();
                !after.is_over() && takes_the_flag_within(bot, &after, moves - 1)
            })
    }

    #[test]
    fn with_memory_the_certain_search_still_takes_the_flag() {
        // The flag (its landmines gone) is an engineer's run and a step or two away, and the
        // enemy's last piece cannot stop it: the table must not hide the win.
        let text = "two_player flip 0 colours=0,1 quiet=9 a1=0F b1=0L a2=08 e4=01 \
                    c12=1F e7=13";
        let p = position_from_text(text).unwrap();
        let mut bot = SearchBot::new(SearchConfig::LEVEL);
        bot.new_game(p.rules(), 0, 3);
        assert!(takes_the_flag_within(&mut bot, &p, 3));
    }

    #[test]
    fn flip_play_is_never_squashed() {
        use junqi_core::Mode;
        let rules = |mode| Rules::defaults(BoardKind::TwoPlayer, mode).unwrap();
        assert_eq!(SearchConfig::LEVEL.squash(&rules(Mode::Dark)), 15.0);
        assert_eq!(SearchConfig::LEVEL.squash(&rules(Mode::Flip)), 0.0);
        assert_eq!(SearchConfig::STANDARD.squash(&rules(Mode::Dark)), 0.0);
    }

    #[test]
    fn an_observation_and_its_position_have_the_same_key() {
        let p = position_from_text("two_player flip 1 colours=0,1 a1=0F b1=0L a4=09 c12=1F a10=15")
            .unwrap();
        let obs = p.observe(junqi_core::Observer::Seat(0));
        let mut bot = SearchBot::new(SearchConfig::STANDARD);
        bot.remember(&obs);
        assert_eq!(bot.seen, vec![board_key(p.pieces(), p.to_move())]);
        let other =
            position_from_text("two_player flip 0 colours=0,1 a1=0F b1=0L a4=09 c12=1F a10=15")
                .unwrap();
        assert_ne!(bot.seen[0], board_key(other.pieces(), other.to_move()));
    }
}
