//! `junqi.Game`: one game through the referee, with its record and public history.

use crate::planes::{self, History};
use crate::{bad, illegal, json_arg, parse_rules, to_py};
use junqi_core::json::{event_to_json, outcome_to_json, position_from_json, position_to_json};
use junqi_core::notation::{action_from_text, action_to_text};
use junqi_core::record::{Entry, Record};
use junqi_core::{
    Action, Deployment, Event, Observer, Outcome, Position, Preset, Seat, TableRules,
};
use numpy::{PyArray1, PyArray2, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::atomic::{AtomicU64, Ordering};

/// Game identities, so that a bot knows which game it follows.
static NEXT_UID: AtomicU64 = AtomicU64::new(1);

/// A new game identity (for `Game` and `LsaGame` alike).
pub(crate) fn next_uid() -> u64 {
    NEXT_UID.fetch_add(1, Ordering::Relaxed)
}

/// One game of junqi: the referee's position, the record so far and the public history.
///
/// `Game(board="two_player", mode="dark", options=None, seed=0, preset=None)` starts a game as the command
/// line's `selfplay` starts game 0 of a seed: a ChaCha8 generator seeded with `seed` draws a
/// random deployment per seat (flip play: the deal), seat 0 first. `Game.from_json(position)`
/// and `Game.from_record(record)` start from a JSON position or a record instead.
#[pyclass(module = "junqi._junqi")]
pub struct Game {
    pub(crate) game: junqi_core::Game,
    rng: ChaCha8Rng,
    pub(crate) hist: History,
    buf: Vec<Action>,
    pub(crate) uid: u64,
}

impl Game {
    fn wrap(game: junqi_core::Game, seed: u64) -> Game {
        let n = game.position().topology().len();
        Game {
            game,
            rng: ChaCha8Rng::seed_from_u64(seed),
            hist: History::new(n),
            buf: Vec::with_capacity(128),
            uid: next_uid(),
        }
    }

    pub(crate) fn pos(&self) -> &Position {
        self.game.position()
    }

    fn n(&self) -> usize {
        self.pos().topology().len()
    }

    fn seat_arg(&self, seat: Option<Seat>) -> PyResult<Seat> {
        let s = seat.unwrap_or(self.pos().to_move());
        if (s as usize) < self.pos().seats() {
            Ok(s)
        } else {
            Err(bad(format!(
                "seat {s} does not exist on the {} board (seats 0 to {})",
                self.pos().rules().board,
                self.pos().seats() - 1
            )))
        }
    }

    /// The action an argument names: action text (`"a5-a6"`, `"flip b3"`) or an action id.
    fn action_arg(&self, action: &Bound<'_, PyAny>) -> PyResult<Action> {
        let topo = self.pos().topology();
        if let Ok(s) = action.downcast::<PyString>() {
            return action_from_text(topo, &s.to_cow()?).map_err(bad);
        }
        let id: i64 = action
            .extract()
            .map_err(|_| bad("an action is its text (\"a5-a6\", \"flip b3\") or an integer id"))?;
        usize::try_from(id)
            .ok()
            .and_then(|i| planes::action_of_id(self.n(), i))
            .ok_or_else(|| {
                bad(format!(
                    "action id {id} is outside 0..{}",
                    planes::action_count(self.n())
                ))
            })
    }

    fn events_py(&self, py: Python<'_>, events: &[Event]) -> PyObject {
        let topo = self.pos().topology();
        let items: Vec<PyObject> = events
            .iter()
            .map(|e| to_py(py, &event_to_json(topo, e)))
            .collect();
        PyList::new(py, items).unwrap().into_any().unbind()
    }

    /// Apply an action; the events on success.
    pub(crate) fn play(&mut self, py: Python<'_>, action: Action) -> PyResult<Vec<Event>> {
        match self.game.play(action) {
            Ok(events) => {
                self.hist.update(&events);
                Ok(events)
            }
            Err(e) => Err(illegal(
                py,
                &action_to_text(self.pos().topology(), action),
                &e,
            )),
        }
    }

    /// Rebuild the public history by replaying the record from its start.
    fn replay_history(&mut self) -> Result<(), String> {
        let record = self.game.record();
        let mut pos = record.start_position()?;
        let mut events = Vec::new();
        for e in &record.entries {
            events.clear();
            e.apply(&mut pos, &record.table, &mut events)
                .map_err(|e| e.to_string())?;
            self.hist.update(&events);
        }
        Ok(())
    }
}

/// Each seat's reward at the end of a game: +1 for the winning team, −1 for the others, 0 for
/// everybody in a draw, an aborted game or a game still going.
pub(crate) fn rewards_of(outcome: Option<Outcome>, seats: usize) -> Vec<f32> {
    match outcome {
        Some(Outcome::Win { winners, .. }) => (0..seats)
            .map(|s| {
                if winners.contains(s as Seat) {
                    1.0
                } else {
                    -1.0
                }
            })
            .collect(),
        _ => vec![0.0; seats],
    }
}

#[pymethods]
impl Game {
    #[new]
    #[pyo3(signature = (board="two_player", mode="dark", options=None, seed=0, preset=None))]
    fn new(
        board: &str,
        mode: &str,
        options: Option<&Bound<'_, PyAny>>,
        seed: u64,
        preset: Option<&str>,
    ) -> PyResult<Game> {
        let rules = parse_rules(board, mode, options, preset)?;
        // The preset's table rules (QQ: a four-player leaver's partner plays on) go into the
        // record with its options.
        let table = match preset {
            Some(p) => Preset::from_name(p, board).map_err(bad)?.table_rules(),
            None => TableRules::default(),
        };
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        // As Position::random_start draws it, so that the start is the command line's.
        let game = if rules.is_flip() {
            junqi_core::Game::new_dealt(rules, 0, &mut rng)
        } else {
            let ds: Vec<Deployment> = (0..rules.seats())
                .map(|_| Deployment::random(&mut rng))
                .collect();
            junqi_core::Game::new_from_deployments(rules, &ds, 0)
        }
        .map_err(|e| bad(e.to_string()))?
        .with_table_rules(table)
        .map_err(bad)?;
        let mut g = Game::wrap(game, 0);
        g.rng = rng;
        Ok(g)
    }

    /// A game from a JSON position (RULES §11.1; a dict or a JSON string). The public history
    /// starts empty. `seed` seeds `random_action`.
    #[staticmethod]
    #[pyo3(signature = (position, seed=0))]
    fn from_json(position: &Bound<'_, PyAny>, seed: u64) -> PyResult<Game> {
        let v = json_arg(position, "position")?;
        let pos = position_from_json(&v).map_err(bad)?;
        let game =
            junqi_core::Game::new_from_setup(&pos.to_setup()).map_err(|e| bad(e.to_string()))?;
        Ok(Game::wrap(game, seed))
    }

    /// A game that goes on from a record: its text form (`docs/formats.md`) or its JSON form
    /// (a dict, or a string starting with `{`). Every entry is replayed through the referee.
    #[staticmethod]
    #[pyo3(signature = (record, seed=0))]
    fn from_record(record: &Bound<'_, PyAny>, seed: u64) -> PyResult<Game> {
        let rec = match record.downcast::<PyString>() {
            Ok(s) if !s.to_cow()?.trim_start().starts_with('{') => {
                Record::from_text(&s.to_cow()?).map_err(bad)?
            }
            _ => Record::from_json(&json_arg(record, "record")?).map_err(bad)?,
        };
        let game = junqi_core::Game::from_record(rec).map_err(bad)?;
        let mut g = Game::wrap(game, seed);
        g.replay_history().map_err(bad)?;
        Ok(g)
    }

    /// The board's name (`two_player` …).
    #[getter]
    fn board(&self) -> &'static str {
        self.pos().rules().board.name()
    }

    /// The mode's name (`dark`, `open`, `half_open`, `flip`).
    #[getter]
    fn mode(&self) -> &'static str {
        self.pos().rules().mode.name()
    }

    /// The preset (RULES §10.1: `standard`, `qq`) the game's options and table rules are, or
    /// None when they match none (custom).
    #[getter]
    fn preset(&self) -> Option<&'static str> {
        let r = self.game.record();
        Preset::of(&r.rules, &r.table).map(|p| p.name())
    }

    /// The table rules the record keeps (RULES §10), as a dict: `{"leaver": "abort"}` or
    /// `{"leaver": "partner_plays_on"}`.
    #[getter]
    fn table_rules(&self, py: Python<'_>) -> PyObject {
        let t = self.game.record().table;
        to_py(py, &serde_json::json!({"leaver": t.leaver.name()}))
    }

    /// Every rule option as a dict (the defaults included).
    #[getter]
    fn options(&self, py: Python<'_>) -> PyObject {
        let r = self.pos().rules();
        let all: serde_json::Map<String, serde_json::Value> = junqi_core::options::OPTION_NAMES
            .iter()
            .filter_map(|&name| r.options.get(name).map(|v| (name.to_string(), v)))
            .collect();
        to_py(py, &serde_json::Value::Object(all))
    }

    /// Number of seats.
    #[getter]
    fn seats(&self) -> usize {
        self.pos().seats()
    }

    /// The seat to move.
    #[getter]
    fn to_move(&self) -> Seat {
        self.pos().to_move()
    }

    /// Plies played.
    #[getter]
    fn plies(&self) -> u32 {
        self.pos().plies()
    }

    /// The seats out of the game (eliminated), in ascending order.
    #[getter]
    fn eliminated(&self) -> Vec<u32> {
        (0..self.pos().seats() as Seat)
            .filter(|&s| self.pos().is_eliminated(s))
            .map(u32::from)
            .collect()
    }

    /// The teams (RULES §7.2) as lists of seats, team 0 first (every seat its own team on the
    /// three-player board and under `teams = none`).
    #[getter]
    fn teams(&self) -> Vec<Vec<u32>> {
        let t = self.pos().rules().teams();
        t.teams()
            .map(|team| t.members(team).iter().map(u32::from).collect())
            .collect()
    }

    /// The size of the board's action-id space (`n·n + n` for `n` squares).
    #[getter]
    fn num_actions(&self) -> usize {
        planes::action_count(self.n())
    }

    /// The shape `(C, n)` of `observation_planes`.
    #[getter]
    fn planes_shape(&self) -> (usize, usize) {
        (planes::plane_count(self.pos().seats()), self.n())
    }

    /// The legal actions of the seat to move, as text, in the referee's order (empty once the
    /// game is over).
    fn legal_actions(&mut self) -> Vec<String> {
        self.buf.clear();
        self.game.position().legal_actions_into(&mut self.buf);
        let topo = self.game.position().topology();
        self.buf.iter().map(|&a| action_to_text(topo, a)).collect()
    }

    /// The legal actions of the seat to move as action ids, in the referee's order.
    fn legal_action_ids(&mut self) -> Vec<usize> {
        self.buf.clear();
        self.game.position().legal_actions_into(&mut self.buf);
        let n = self.n();
        self.buf.iter().map(|&a| planes::action_id(n, a)).collect()
    }

    /// The legal-action mask: a numpy bool array of `num_actions`.
    fn legal_action_mask<'py>(&mut self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        let arr = PyArray1::<bool>::zeros(py, planes::action_count(self.n()), false);
        {
            let mut w = arr.readwrite();
            planes::write_mask(
                self.game.position(),
                &mut self.buf,
                w.as_slice_mut().unwrap(),
            );
        }
        arr
    }

    /// The id of an action given as text.
    fn action_id(&self, action: &Bound<'_, PyAny>) -> PyResult<usize> {
        Ok(planes::action_id(self.n(), self.action_arg(action)?))
    }

    /// The text of an action given as an id (or as text, normalised).
    fn action_text(&self, action: &Bound<'_, PyAny>) -> PyResult<String> {
        Ok(action_to_text(
            self.pos().topology(),
            self.action_arg(action)?,
        ))
    }

    /// The seat to move plays `action` (text or id). Returns the referee's events as dicts
    /// (RULES §11.2: `{"kind": "move", "seat": 0, "from": "a5", "to": "a6"}` …). An illegal
    /// action raises `IllegalActionError` and changes nothing.
    fn step(&mut self, py: Python<'_>, action: &Bound<'_, PyAny>) -> PyResult<PyObject> {
        let a = self.action_arg(action)?;
        let events = self.play(py, a)?;
        Ok(self.events_py(py, &events))
    }

    /// `step` without building the events: returns the number of events (for fast loops).
    fn step_fast(&mut self, py: Python<'_>, action: &Bound<'_, PyAny>) -> PyResult<usize> {
        let a = self.action_arg(action)?;
        Ok(self.play(py, a)?.len())
    }

    /// The seat to move plays a uniformly random legal action drawn from the game's own
    /// generator (seeded as the start). Returns the action's text.
    fn random_action(&mut self, py: Python<'_>) -> PyResult<String> {
        self.buf.clear();
        self.game.position().legal_actions_into(&mut self.buf);
        if self.buf.is_empty() {
            return Err(bad("the game is over"));
        }
        let a = self.buf[self.rng.gen_range(0..self.buf.len())];
        self.play(py, a)?;
        Ok(action_to_text(self.pos().topology(), a))
    }

    /// Play uniformly random legal actions to the end, drawing from the game's generator as
    /// `junqi selfplay` does (so a `Game(seed=s)` played out gives selfplay's game 0 of seed
    /// `s`). Returns the plies played.
    fn random_playout(&mut self, py: Python<'_>) -> PyResult<u32> {
        let start = self.pos().plies();
        while !self.pos().is_over() {
            self.buf.clear();
            self.game.position().legal_actions_into(&mut self.buf);
            let a = self.buf[self.rng.gen_range(0..self.buf.len())];
            self.play(py, a)?;
        }
        Ok(self.pos().plies() - start)
    }

    /// A table action: `"timeout"` (the seat to move's clock ran out), `"resign"` or `"leave"`
    /// (of `seat`), `"draw"` (agreed) or `"abort"`. Returns the events.
    #[pyo3(signature = (kind, seat=None))]
    fn table_action(
        &mut self,
        py: Python<'_>,
        kind: &str,
        seat: Option<Seat>,
    ) -> PyResult<PyObject> {
        let seat = self.seat_arg(seat)?;
        let entry = match kind {
            "timeout" => Entry::Timeout {
                seat: self.pos().to_move(),
            },
            "resign" => Entry::Resign(seat),
            "leave" => Entry::Leave(seat),
            "draw" => Entry::Draw,
            "abort" => Entry::Abort,
            _ => {
                return Err(bad(format!(
                    "unknown table action {kind:?} (timeout, resign, leave, draw, abort)"
                )))
            }
        };
        match self.game.apply(entry) {
            Ok(events) => {
                self.hist.update(&events);
                Ok(self.events_py(py, &events))
            }
            Err(e) => Err(illegal(py, kind, &e)),
        }
    }

    /// Whether the game is over.
    fn is_over(&self) -> bool {
        self.pos().is_over()
    }

    /// The outcome as in RULES §11.2 (`{"result": "win", "winners": [0], "reason": …}`), or
    /// None while the game goes on.
    fn outcome(&self, py: Python<'_>) -> PyObject {
        match self.pos().outcome() {
            Some(o) => to_py(py, &outcome_to_json(Some(o))),
            None => py.None(),
        }
    }

    /// Each seat's reward: +1 the winning team, −1 the others, 0 in a draw or while the game
    /// goes on.
    fn rewards(&self) -> Vec<f32> {
        rewards_of(self.pos().outcome(), self.pos().seats())
    }

    /// The observation of `seat` (default: the seat to move) as the core's observation JSON
    /// (`Observation::to_json`: pieces with `"role": null` where the seat may not know them,
    /// the seat's legal actions when it is to move).
    #[pyo3(signature = (seat=None))]
    fn observation(&self, py: Python<'_>, seat: Option<Seat>) -> PyResult<PyObject> {
        let s = self.seat_arg(seat)?;
        Ok(to_py(py, &self.pos().observe(Observer::Seat(s)).to_json()))
    }

    /// The observation of `seat` (default: the seat to move) as numpy `uint8` planes of shape
    /// `planes_shape` (see `docs/python.md` for the planes).
    #[pyo3(signature = (seat=None))]
    fn observation_planes<'py>(
        &self,
        py: Python<'py>,
        seat: Option<Seat>,
    ) -> PyResult<Bound<'py, PyArray2<u8>>> {
        let s = self.seat_arg(seat)?;
        let (c, n) = self.planes_shape();
        let arr = PyArray2::<u8>::zeros(py, [c, n], false);
        {
            let mut w = arr.readwrite();
            planes::write_planes(self.pos(), &self.hist, s, w.as_slice_mut().unwrap());
        }
        Ok(arr)
    }

    /// `(planes, mask)` of `seat` in one call, for environments' per-step observations: the
    /// planes as `observation_planes(seat)`, and an `int8` mask of `num_actions` with ones on
    /// the legal action ids if `active` and `seat` is to move in a game not over (all zeros
    /// otherwise).
    #[allow(clippy::type_complexity)]
    fn observe_with_mask<'py>(
        &mut self,
        py: Python<'py>,
        seat: Seat,
        active: bool,
    ) -> PyResult<(Bound<'py, PyArray2<u8>>, Bound<'py, PyArray1<i8>>)> {
        let planes = self.observation_planes(py, Some(seat))?;
        let n = self.n();
        let mask = PyArray1::<i8>::zeros(py, planes::action_count(n), false);
        let pos = self.game.position();
        if active && seat == pos.to_move() && !pos.is_over() {
            let mut w = mask.readwrite();
            let out = w.as_slice_mut().unwrap();
            self.buf.clear();
            pos.legal_actions_into(&mut self.buf);
            for &a in &self.buf {
                out[planes::action_id(n, a)] = 1;
            }
        }
        Ok((planes, mask))
    }

    /// The referee's full position as JSON (RULES §11.1, a dict): hidden identities included,
    /// so never show it to a player.
    fn to_json(&self, py: Python<'_>) -> PyObject {
        to_py(py, &position_to_json(self.pos()))
    }

    /// The record so far in its text form (`docs/formats.md`).
    fn record(&self) -> String {
        self.game.record().to_text()
    }

    /// The record so far in its JSON form (a dict).
    fn record_json(&self, py: Python<'_>) -> PyObject {
        to_py(py, &self.game.record().to_json())
    }

    /// An independent copy (same position, record, history and generator state).
    fn copy(&self) -> Game {
        Game {
            game: self.game.clone(),
            rng: self.rng.clone(),
            hist: self.hist.clone(),
            buf: Vec::with_capacity(128),
            uid: next_uid(),
        }
    }

    fn __copy__(&self) -> Game {
        self.copy()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Game {
        self.copy()
    }

    fn __repr__(&self) -> String {
        format!(
            "Game(board={:?}, mode={:?}, plies={}, to_move={}, over={})",
            self.board(),
            self.mode(),
            self.plies(),
            self.to_move(),
            self.is_over()
        )
    }
}
