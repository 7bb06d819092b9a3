//! `junqi.VecEnv`: a batch of games stepped in Rust, numpy in and out.

use crate::game::rewards_of;
use crate::planes::{self, History};
use crate::{bad, parse_rules};
use junqi_core::{Action, Position, Rules};
use numpy::{
    PyArray1, PyArray2, PyArray3, PyArrayMethods, PyReadonlyArray1, PyUntypedArrayMethods,
};
use pyo3::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use std::sync::atomic::{AtomicUsize, Ordering};

/// One game of the batch.
struct Slot {
    pos: Position,
    hist: History,
    rng: ChaCha8Rng,
    /// The legal actions of the position (the referee's order), written with the mask.
    buf: Vec<Action>,
    events: Vec<junqi_core::Event>,
    /// The ids set in this game's row of `mask`, cleared before the next write.
    mask_ones: Vec<u32>,
    /// Two-player: the planes of both seats (`2 · C · squares`; empty without observations and
    /// with more seats), kept up to date square by square; the row of `obs` is a copy of the
    /// seat to move's.
    views: Vec<u8>,
    /// The squares of the last step's action.
    touched: Vec<junqi_core::Square>,
}

impl Slot {
    fn reset(&mut self, rules: Rules) {
        self.pos = Position::random_start(rules, &mut self.rng);
        self.hist.clear();
    }
}

/// The per-game output slices of one chunk of the batch.
struct Out<'a> {
    obs: &'a mut [u8],
    mask: &'a mut [bool],
    rewards: &'a mut [f32],
    dones: &'a mut [bool],
    to_move: &'a mut [i64],
}

/// A batch of `n` games of one rule set, every seat played by the caller (self-play), stepped
/// together in Rust. Each game starts from a random start drawn from its own ChaCha8 generator
/// (game `i` seeded with `seed ^ i·0x9E3779B97F4A7C15`, as `junqi selfplay` seeds its game `i`)
/// and restarts from the next draw of that generator as soon as it ends (auto-reset).
///
/// After `reset()` and every `step(actions)` the arrays `obs` (`uint8 [n, C, squares]`, the
/// planes of the seat to move), `mask` (`bool [n, num_actions]`), `rewards` (`float32 [n,
/// seats]`: ±1 for the game that just ended, 0 otherwise), `dones` (`bool [n]`) and `to_move`
/// (`int64 [n]`) hold the new state. They are the same arrays every step, overwritten in place:
/// copy them to keep them, and do not write into `mask` (a step clears only the entries it set
/// before; actions are checked against the referee's list, never against `mask`).
#[pyclass(module = "junqi._junqi")]
pub struct VecEnv {
    rules: Rules,
    slots: Vec<Slot>,
    /// The batch's own threads (none for one thread: everything on the caller's), started
    /// with the batch so a step pays no thread start, and apart from any other pool.
    pool: Option<rayon::ThreadPool>,
    /// Games per item of work handed to the pool's threads.
    block: usize,
    with_obs: bool,
    squares: usize,
    planes: usize,
    actions: usize,
    obs: Py<PyArray3<u8>>,
    mask: Py<PyArray2<bool>>,
    rewards: Py<PyArray2<f32>>,
    dones: Py<PyArray1<bool>>,
    to_move: Py<PyArray1<i64>>,
}

/// Before a step with action `a`: note its squares in `Slot::touched` and, where the slot keeps
/// its seats' planes, clear those squares in them (written again after the step if it stayed
/// local, [`planes::step_is_local`]; otherwise everything is written afresh).
fn clear_action_squares(s: &mut Slot, with_obs: bool, a: Action) {
    planes::action_squares(a, &mut s.touched);
    if with_obs && s.pos.seats() <= INCREMENTAL_SEATS && !s.views.is_empty() {
        let c = s.views.len() / s.pos.seats();
        for (seat, view) in s.views.chunks_exact_mut(c).enumerate() {
            planes::clear_squares(&s.pos, &s.hist, seat as u8, &s.touched, view);
        }
    }
}

/// How the planes of a slot are brought up to date.
#[derive(Clone, Copy)]
enum Planes {
    /// Written afresh for every seat (a reset, or a step whose effects reach beyond its
    /// squares).
    Fresh,
    /// Only the squares in `Slot::touched` changed; the last action before the step.
    Touched(Option<(junqi_core::Square, junqi_core::Square)>),
}

/// The most seats for which a slot keeps every seat's planes and updates them square by square.
/// Beyond two the views cost more than they save: four-player, 4 × 63 × 129 bytes a game (33 MB
/// for 1 024 games) fall out of the caches, and the to-move's planes are written afresh.
const INCREMENTAL_SEATS: usize = 2;

/// Write what a slot shows after a step or a reset. Only the mask entries of the last write
/// are cleared (a row of the mask is all zeros but for them), so the 3 660 bytes (two-player)
/// of a mask row are not swept each step. Two-player, the planes of both seats are kept in the
/// slot and updated only at the squares a step touched (the same planes as a fresh write: the
/// tests check it); the seat to move's are copied out. With `listed`, `Slot::buf` already holds
/// the position's legal actions ([`Position::play_unchecked_collect`]); otherwise they are
/// generated here.
fn write_slot(
    s: &mut Slot,
    with_obs: bool,
    how: Planes,
    listed: bool,
    obs: &mut [u8],
    mask: &mut [bool],
    to_move: &mut i64,
) {
    *to_move = s.pos.to_move() as i64;
    if with_obs && s.pos.seats() > INCREMENTAL_SEATS {
        planes::write_planes(&s.pos, &s.hist, s.pos.to_move(), obs);
    } else if with_obs {
        let c = obs.len();
        let seats = s.pos.seats();
        if s.views.len() != seats * c {
            s.views = vec![0; seats * c];
        }
        for (seat, view) in s.views.chunks_exact_mut(c).enumerate() {
            match how {
                Planes::Fresh => planes::write_planes(&s.pos, &s.hist, seat as u8, view),
                Planes::Touched(old_last) => {
                    planes::update_planes(&s.pos, &s.hist, seat as u8, &s.touched, old_last, view)
                }
            }
        }
        let m = s.pos.to_move() as usize;
        obs.copy_from_slice(&s.views[m * c..(m + 1) * c]);
    }
    for &i in &s.mask_ones {
        mask[i as usize] = false;
    }
    s.mask_ones.clear();
    if !listed {
        s.buf.clear();
        s.pos.legal_actions_into(&mut s.buf);
    }
    let n = s.pos.topology().len();
    for &a in &s.buf {
        let id = planes::action_id(n, a);
        mask[id] = true;
        s.mask_ones.push(id as u32);
    }
}

/// One item of work: a block of consecutive games with their output rows.
struct Block<'a> {
    first: usize,
    slots: &'a mut [Slot],
    obs: &'a mut [u8],
    mask: &'a mut [bool],
    rewards: &'a mut [f32],
    dones: &'a mut [bool],
    to_move: &'a mut [i64],
}

/// Games per block of work: small enough that the threads share a batch evenly however
/// late one of them starts, large enough that taking a block costs nothing in comparison.
fn block_size(n: usize, threads: usize) -> usize {
    (n / (threads * 8)).clamp(1, 32)
}

/// Run `f` on every item, on the batch's pool (each thread taking the next item as it finishes
/// one, so a thread slowed by other work on the machine takes fewer) or, without one, here.
fn run_each<T: Send>(pool: Option<&rayon::ThreadPool>, items: &mut [T], f: impl Fn(&mut T) + Sync) {
    match pool {
        Some(pool) => pool.install(|| items.par_iter_mut().with_max_len(1).for_each(&f)),
        None => items.iter_mut().for_each(f),
    }
}

impl VecEnv {
    /// Run `f` over every slot with its output slices, on the pool's threads (blocks of
    /// `self.block` games, each thread taking the next block as it finishes one).
    fn for_chunks<F>(&mut self, py: Python<'_>, f: F)
    where
        F: Fn(usize, &mut Slot, Out<'_>) + Sync,
    {
        let (c, a) = (self.planes * self.squares, self.actions);
        let seats = self.rules.seats();
        let with_obs = self.with_obs;
        let mut obs_rw = self.obs.bind(py).readwrite();
        let mut mask_rw = self.mask.bind(py).readwrite();
        let mut rew_rw = self.rewards.bind(py).readwrite();
        let mut done_rw = self.dones.bind(py).readwrite();
        let mut tm_rw = self.to_move.bind(py).readwrite();
        let obs = obs_rw.as_slice_mut().unwrap();
        let mask = mask_rw.as_slice_mut().unwrap();
        let rewards = rew_rw.as_slice_mut().unwrap();
        let dones = done_rw.as_slice_mut().unwrap();
        let to_move = tm_rw.as_slice_mut().unwrap();
        let k = self.block;
        let oc = if with_obs { k * c } else { 0 };
        let mut blocks: Vec<Block<'_>> = self
            .slots
            .chunks_mut(k)
            .zip(mask.chunks_mut(k * a))
            .zip(rewards.chunks_mut(k * seats))
            .zip(dones.chunks_mut(k))
            .zip(to_move.chunks_mut(k))
            .enumerate()
            .map(|(b, ((((slots, mask), rewards), dones), to_move))| Block {
                first: b * k,
                slots,
                obs: &mut [],
                mask,
                rewards,
                dones,
                to_move,
            })
            .collect();
        if with_obs {
            for (blk, o) in blocks.iter_mut().zip(obs.chunks_mut(oc)) {
                blk.obs = o;
            }
        }
        let pool = self.pool.as_ref();
        let f = &f;
        py.allow_threads(move || {
            run_each(pool, &mut blocks, |blk| {
                for (j, s) in blk.slots.iter_mut().enumerate() {
                    let o = if with_obs {
                        &mut blk.obs[j * c..(j + 1) * c]
                    } else {
                        &mut []
                    };
                    f(
                        blk.first + j,
                        s,
                        Out {
                            obs: o,
                            mask: &mut blk.mask[j * a..(j + 1) * a],
                            rewards: &mut blk.rewards[j * seats..(j + 1) * seats],
                            dones: &mut blk.dones[j..j + 1],
                            to_move: &mut blk.to_move[j..j + 1],
                        },
                    );
                }
            });
        });
    }
}

#[pymethods]
impl VecEnv {
    /// `VecEnv(n, board="two_player", mode="dark", options=None, seed=0, threads=1,
    /// observations=True)`: `observations=False` skips the planes (`obs` is then empty) for
    /// loops that need only masks and rewards.
    #[new]
    #[pyo3(signature = (n, board="two_player", mode="dark", options=None, seed=0, threads=1, observations=true, preset=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        n: usize,
        board: &str,
        mode: &str,
        options: Option<&Bound<'_, PyAny>>,
        seed: u64,
        threads: usize,
        observations: bool,
        preset: Option<&str>,
    ) -> PyResult<VecEnv> {
        if n == 0 {
            return Err(bad("a VecEnv needs at least one game"));
        }
        let rules = parse_rules(board, mode, options, preset)?;
        let squares = Position::empty(rules).topology().len();
        let seats = rules.seats();
        let slots = (0..n as u64)
            .map(|i| {
                let mut rng =
                    ChaCha8Rng::seed_from_u64(seed ^ i.wrapping_mul(0x9E37_79B9_7F4A_7C15));
                Slot {
                    pos: Position::random_start(rules, &mut rng),
                    hist: History::new(squares),
                    rng,
                    buf: Vec::with_capacity(128),
                    events: Vec::with_capacity(8),
                    mask_ones: Vec::with_capacity(128),
                    views: Vec::new(),
                    touched: Vec::with_capacity(4),
                }
            })
            .collect();
        let planes = planes::plane_count(seats);
        let actions = planes::action_count(squares);
        let obs_n = if observations { n } else { 0 };
        let threads = threads.clamp(1, n);
        let mut env = VecEnv {
            rules,
            slots,
            pool: (threads > 1).then(|| {
                rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .thread_name(|k| format!("junqi-vecenv-{k}"))
                    .build()
                    .expect("start the VecEnv threads")
            }),
            block: block_size(n, threads),
            with_obs: observations,
            squares,
            planes,
            actions,
            obs: PyArray3::<u8>::zeros(py, [obs_n, planes, squares], false).unbind(),
            mask: PyArray2::<bool>::zeros(py, [n, actions], false).unbind(),
            rewards: PyArray2::<f32>::zeros(py, [n, seats], false).unbind(),
            dones: PyArray1::<bool>::zeros(py, n, false).unbind(),
            to_move: PyArray1::<i64>::zeros(py, n, false).unbind(),
        };
        env.refresh(py);
        Ok(env)
    }

    /// Number of games.
    #[getter]
    fn num_envs(&self) -> usize {
        self.slots.len()
    }

    /// The size of the action-id space.
    #[getter]
    fn num_actions(&self) -> usize {
        self.actions
    }

    /// Number of seats.
    #[getter]
    fn seats(&self) -> usize {
        self.rules.seats()
    }

    /// The planes of the seat to move, `uint8 [n, C, squares]` (overwritten by every step).
    #[getter]
    fn obs(&self, py: Python<'_>) -> Py<PyArray3<u8>> {
        self.obs.clone_ref(py)
    }

    /// The legal-action masks, `bool [n, num_actions]`.
    #[getter]
    fn mask(&self, py: Python<'_>) -> Py<PyArray2<bool>> {
        self.mask.clone_ref(py)
    }

    /// Each seat's reward from the last step, `float32 [n, seats]`.
    #[getter]
    fn rewards(&self, py: Python<'_>) -> Py<PyArray2<f32>> {
        self.rewards.clone_ref(py)
    }

    /// Which games ended in the last step (and were restarted), `bool [n]`.
    #[getter]
    fn dones(&self, py: Python<'_>) -> Py<PyArray1<bool>> {
        self.dones.clone_ref(py)
    }

    /// The seat to move in each game, `int64 [n]`.
    #[getter]
    fn to_move(&self, py: Python<'_>) -> Py<PyArray1<i64>> {
        self.to_move.clone_ref(py)
    }

    /// Restart every game from the next random start of its generator. Returns `(obs, mask)`.
    #[allow(clippy::type_complexity)]
    fn reset(&mut self, py: Python<'_>) -> (Py<PyArray3<u8>>, Py<PyArray2<bool>>) {
        let rules = self.rules;
        let with_obs = self.with_obs;
        self.for_chunks(py, move |_, s, out| {
            s.reset(rules);
            out.rewards.fill(0.0);
            out.dones[0] = false;
            write_slot(
                s,
                with_obs,
                Planes::Fresh,
                false,
                out.obs,
                out.mask,
                &mut out.to_move[0],
            );
        });
        (self.obs.clone_ref(py), self.mask.clone_ref(py))
    }

    fn refresh(&mut self, py: Python<'_>) {
        let with_obs = self.with_obs;
        self.for_chunks(py, move |_, s, out| {
            write_slot(
                s,
                with_obs,
                Planes::Fresh,
                false,
                out.obs,
                out.mask,
                &mut out.to_move[0],
            );
        });
    }

    /// Step every game with one action id each (an integer array of `n`). Every action is
    /// checked first: an illegal one raises `IllegalActionError` naming the game, and no game
    /// moves. Returns `(obs, mask, rewards, dones)`; finished games restart at once.
    #[allow(clippy::type_complexity)]
    fn step(
        &mut self,
        py: Python<'_>,
        actions: PyReadonlyArray1<'_, i64>,
    ) -> PyResult<(
        Py<PyArray3<u8>>,
        Py<PyArray2<bool>>,
        Py<PyArray2<f32>>,
        Py<PyArray1<bool>>,
    )> {
        let n = self.slots.len();
        if actions.len() != n {
            return Err(bad(format!(
                "step needs {n} action ids, got {}",
                actions.len()
            )));
        }
        let ids: Vec<i64> = actions.as_array().iter().copied().collect();
        let squares = self.squares;
        // Check every action against the referee's list (the ids of each slot's legal actions,
        // `Slot::mask_ones`, written with the mask), not against the numpy mask, which the
        // caller may have changed; on the pool's threads, before any game moves. The first
        // illegal one is reported.
        let first_bad = AtomicUsize::new(usize::MAX);
        {
            let mut blocks: Vec<(usize, &[Slot])> = self
                .slots
                .chunks(self.block)
                .enumerate()
                .map(|(b, slots)| (b * self.block, slots))
                .collect();
            let (ids, first_bad, pool) = (&ids, &first_bad, self.pool.as_ref());
            py.allow_threads(|| {
                run_each(pool, &mut blocks, |(first, slots)| {
                    for (i, s) in (*first..).zip(slots.iter()) {
                        let ok = u32::try_from(ids[i]).is_ok_and(|u| s.mask_ones.contains(&u));
                        if !ok {
                            first_bad.fetch_min(i, Ordering::Relaxed);
                            break;
                        }
                    }
                })
            });
        }
        let i = first_bad.into_inner();
        if i != usize::MAX {
            let id = ids[i];
            let action = usize::try_from(id)
                .ok()
                .and_then(|u| planes::action_of_id(squares, u));
            let what = action
                .map(|a| junqi_core::action_to_text(self.slots[i].pos.topology(), a))
                .unwrap_or_else(|| "outside the action space".into());
            let err = crate::IllegalActionError::new_err(format!(
                "game {i}: action id {id} ({what}) is not a legal action"
            ));
            let _ = err.value(py).setattr("code", "action.not_legal");
            let _ = err.value(py).setattr("game", i);
            return Err(err);
        }
        let rules = self.rules;
        let with_obs = self.with_obs;
        let seats = rules.seats();
        let ids = &ids;
        self.for_chunks(py, move |i, s, out| {
            let a = planes::action_of_id(squares, ids[i] as usize).expect("checked");
            let old_last = s.hist.last;
            clear_action_squares(s, with_obs, a);
            s.events.clear();
            // The legal actions of the new position come with the step, into `s.buf`.
            s.pos.play_unchecked_collect(a, &mut s.events, &mut s.buf);
            s.hist.update(&s.events);
            let mut how = if planes::step_is_local(&s.events, &s.touched) {
                Planes::Touched(old_last)
            } else {
                Planes::Fresh
            };
            let mut listed = true;
            if s.pos.is_over() {
                out.rewards
                    .copy_from_slice(&rewards_of(s.pos.outcome(), seats));
                out.dones[0] = true;
                s.reset(rules);
                how = Planes::Fresh;
                listed = false;
            } else {
                out.rewards.fill(0.0);
                out.dones[0] = false;
            }
            write_slot(
                s,
                with_obs,
                how,
                listed,
                out.obs,
                out.mask,
                &mut out.to_move[0],
            );
        });
        Ok((
            self.obs.clone_ref(py),
            self.mask.clone_ref(py),
            self.rewards.clone_ref(py),
            self.dones.clone_ref(py),
        ))
    }

    /// A uniformly random legal action id per game (drawn from each game's generator), as an
    /// `int64` array of `n`.
    fn sample_actions<'py>(&mut self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        let squares = self.squares;
        let k = self.block;
        let mut out = vec![0i64; self.slots.len()];
        let mut blocks: Vec<(&mut [Slot], &mut [i64])> =
            self.slots.chunks_mut(k).zip(out.chunks_mut(k)).collect();
        let pool = self.pool.as_ref();
        py.allow_threads(|| {
            run_each(pool, &mut blocks, |(slots, ids)| {
                for (s, id) in slots.iter_mut().zip(ids.iter_mut()) {
                    // The buffer holds the position's legal actions (written with the mask).
                    let a = s.buf[s.rng.gen_range(0..s.buf.len())];
                    *id = planes::action_id(squares, a) as i64;
                }
            })
        });
        drop(blocks);
        PyArray1::from_vec(py, out)
    }

    /// The legal action ids of the games `games` (an integer array; default every game), flat:
    /// `(game, id)`, two `int64` arrays with one entry per legal action, grouped by game in the
    /// order of `games` (each game's ids in the referee's order). The same facts as the rows of
    /// `mask`, without scanning them.
    #[pyo3(signature = (games=None))]
    #[allow(clippy::type_complexity)]
    fn legal_action_ids<'py>(
        &self,
        py: Python<'py>,
        games: Option<PyReadonlyArray1<'_, i64>>,
    ) -> PyResult<(Bound<'py, PyArray1<i64>>, Bound<'py, PyArray1<i64>>)> {
        let n = self.slots.len();
        let list: Vec<usize> = match &games {
            None => (0..n).collect(),
            Some(g) => g
                .as_array()
                .iter()
                .map(|&i| {
                    usize::try_from(i)
                        .ok()
                        .filter(|&u| u < n)
                        .ok_or_else(|| bad(format!("no game {i}")))
                })
                .collect::<PyResult<_>>()?,
        };
        let total: usize = list.iter().map(|&i| self.slots[i].buf.len()).sum();
        let (mut gs, mut ids) = (Vec::with_capacity(total), Vec::with_capacity(total));
        for &i in &list {
            // The buffer holds the position's legal actions (written with the mask).
            for &a in &self.slots[i].buf {
                gs.push(i as i64);
                ids.push(planes::action_id(self.squares, a) as i64);
            }
        }
        Ok((PyArray1::from_vec(py, gs), PyArray1::from_vec(py, ids)))
    }

    /// The referee's position of game `i` as JSON (hidden identities included).
    fn position_json(&self, py: Python<'_>, i: usize) -> PyResult<PyObject> {
        let s = self
            .slots
            .get(i)
            .ok_or_else(|| bad(format!("no game {i}")))?;
        Ok(crate::to_py(
            py,
            &junqi_core::json::position_to_json(&s.pos),
        ))
    }
}

#[cfg(test)]
mod timing {
    use super::*;

    /// The batch's step without Python, `N` games (default 1024):
    /// `cargo test --release --lib -- --ignored --nocapture time_batch_step`.
    #[test]
    #[ignore]
    fn time_batch_step() {
        let rules =
            Rules::defaults(junqi_core::BoardKind::TwoPlayer, junqi_core::Mode::Dark).unwrap();
        let n: usize = std::env::var("N")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(1024);
        let (squares, planes) = (60, planes::plane_count(2));
        let actions = planes::action_count(squares);
        let mut slots: Vec<Slot> = (0..n as u64)
            .map(|i| {
                let mut rng = ChaCha8Rng::seed_from_u64(i);
                Slot {
                    pos: Position::random_start(rules, &mut rng),
                    hist: History::new(squares),
                    rng,
                    buf: Vec::new(),
                    events: Vec::new(),
                    mask_ones: Vec::new(),
                    views: Vec::new(),
                    touched: Vec::new(),
                }
            })
            .collect();
        let mut obs = vec![0u8; n * planes * squares];
        let mut mask = vec![false; n * actions];
        let mut tm = 0i64;
        for with_obs in [true, false] {
            for (j, s) in slots.iter_mut().enumerate() {
                let o = &mut obs[j * planes * squares..(j + 1) * planes * squares];
                write_slot(
                    s,
                    with_obs,
                    Planes::Fresh,
                    false,
                    o,
                    &mut mask[j * actions..(j + 1) * actions],
                    &mut tm,
                );
            }
            let t = std::time::Instant::now();
            let rounds = 200;
            for _ in 0..rounds {
                for (j, s) in slots.iter_mut().enumerate() {
                    let a = s.buf[s.rng.gen_range(0..s.buf.len())];
                    let old_last = s.hist.last;
                    clear_action_squares(s, with_obs, a);
                    s.events.clear();
                    s.pos.play_unchecked_collect(a, &mut s.events, &mut s.buf);
                    s.hist.update(&s.events);
                    let mut how = if planes::step_is_local(&s.events, &s.touched) {
                        Planes::Touched(old_last)
                    } else {
                        Planes::Fresh
                    };
                    let mut listed = true;
                    if s.pos.is_over() {
                        s.reset(rules);
                        how = Planes::Fresh;
                        listed = false;
                    }
                    let o = &mut obs[j * planes * squares..(j + 1) * planes * squares];
                    write_slot(
                        s,
                        with_obs,
                        how,
                        listed,
                        o,
                        &mut mask[j * actions..(j + 1) * actions],
                        &mut tm,
                    );
                }
            }
            let per = t.elapsed() / (rounds * n as u32);
            println!("with_obs {with_obs}: {per:?} per game step");
        }
    }
}
