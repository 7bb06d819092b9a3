//! `junqi.LsaGame`: one game of 陆海空三军棋 (board `land_sea_air`, `LANDSEAAIR.md`) through
//! the referee, with its record.
//!
//! The board has its own position, views and events (LANDSEAAIR §10), so it has its own class
//! with the names of `junqi.Game`: `legal_actions`, `step`, `is_over`, `outcome`,
//! `observation(seat)`, `to_json`, `from_json`, `record`, `from_record`, and integer action
//! ids in a fixed space (`from * 135 + to`, plus `135 * 135` for a look). `junqi.LsaBot` is a
//! built-in land-sea-air player that answers for the seat to move of an `LsaGame`.

use crate::bots::budget_arg;
use crate::{bad, json_arg, to_py};
use junqi_ai::lsa::{bot_by_spec, LsaBot as CoreLsaBot, LsaBotFactory};
use junqi_ai::Budget;
use junqi_core::lsa::board::SQUARES;
use junqi_core::lsa::json::{
    event_to_json, options_from_json, outcome_to_json, position_from_json, position_to_json,
    view_to_json,
};
use junqi_core::lsa::notation::action_from_text;
use junqi_core::lsa::record::{Record, Start};
use junqi_core::lsa::{
    events_for, Action, ActionList, Deployment, Event, Mode, Observer, Side, Square,
};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::Mutex;

/// The number of action ids of the land-sea-air board: every (from, to) pair, once for moves,
/// attacks, sailing, landing, flights and strikes and once for looks.
pub const ACTION_IDS: usize = 2 * SQUARES * SQUARES;

/// The id of an action: `from * 135 + to`, plus `135 * 135` for a look (`scout from at`).
pub fn action_id(a: Action) -> usize {
    let base = a.from().index() * SQUARES + a.to().index();
    match a {
        Action::Look { .. } => SQUARES * SQUARES + base,
        _ => base,
    }
}

/// One game of 陆海空三军棋: the referee's position and the record so far.
///
/// `LsaGame(mode="dark", options=None, seed=0, preset=None)` starts a game as `junqi selfplay --board
/// land_sea_air --seed s` starts its game 0: a ChaCha8 generator draws South's and North's
/// random deployments, South first. `LsaGame.from_json(position)` and
/// `LsaGame.from_record(record)` start from a JSON position or a record instead.
#[pyclass(module = "junqi._junqi")]
pub struct LsaGame {
    game: junqi_core::lsa::Game,
    rng: ChaCha8Rng,
    buf: ActionList,
    /// The events of the last step, for `last_events`.
    last: Vec<Event>,
    /// This game's identity, so that an `LsaBot` knows which game it follows.
    uid: u64,
}

impl LsaGame {
    fn wrap(game: junqi_core::lsa::Game, rng: ChaCha8Rng) -> LsaGame {
        LsaGame {
            game,
            rng,
            buf: ActionList::new(),
            last: Vec::new(),
            uid: crate::game::next_uid(),
        }
    }

    fn side_arg(&self, seat: Option<u8>) -> PyResult<Side> {
        match seat {
            None => Ok(self.game.position().to_move()),
            Some(0) => Ok(Side::South),
            Some(1) => Ok(Side::North),
            Some(s) => Err(bad(format!(
                "seat {s} does not exist on the land_sea_air board (0 South, 1 North)"
            ))),
        }
    }

    /// The action an argument names: its text (`"a6-a9"`, `"scout i1 i11"`) or its id.
    fn action_arg(&self, action: &Bound<'_, PyAny>) -> PyResult<Action> {
        let pos = self.game.position();
        if let Ok(s) = action.downcast::<PyString>() {
            return action_from_text(pos, &s.to_cow()?).map_err(bad);
        }
        let id: i64 = action.extract().map_err(|_| {
            bad("an action is its text (\"a6-a9\", \"scout i1 i11\") or an integer id")
        })?;
        let id = usize::try_from(id)
            .ok()
            .filter(|&i| i < ACTION_IDS)
            .ok_or_else(|| bad(format!("action id {id} is outside 0..{ACTION_IDS}")))?;
        // The id's action is the legal one with that id ([`action_id`] is the one definition);
        // if none is, the referee's reason for the action the id spells.
        if let Some(a) = pos.legal_actions().iter().find(|&a| action_id(a) == id) {
            return Ok(a);
        }
        let rest = id % (SQUARES * SQUARES);
        let square = |i: usize| Square::from_index(i as u8).expect("below 135").to_string();
        let (from, to) = (square(rest / SQUARES), square(rest % SQUARES));
        let text = if id >= SQUARES * SQUARES {
            format!("scout {from} {to}")
        } else {
            format!("{from}-{to}")
        };
        Err(bad(match action_from_text(pos, &text) {
            Err(e) => format!("action id {id} ({text}): {e}"),
            Ok(_) => format!("action id {id} ({text}) is not legal"),
        }))
    }

    fn events_py(py: Python<'_>, events: &[Event]) -> PyObject {
        let items: Vec<PyObject> = events
            .iter()
            .filter_map(event_to_json)
            .map(|v| to_py(py, &v))
            .collect();
        PyList::new(py, items).unwrap().into_any().unbind()
    }

    fn play(&mut self, a: Action) -> PyResult<&[Event]> {
        let events = self
            .game
            .play(a)
            .map_err(|e| crate::IllegalActionError::new_err(format!("illegal action {a}: {e}")))?;
        self.last.clear();
        self.last.extend_from_slice(events.as_slice());
        Ok(&self.last)
    }
}

#[pymethods]
impl LsaGame {
    #[new]
    #[pyo3(signature = (mode="dark", options=None, seed=0, preset=None))]
    fn new(
        mode: &str,
        options: Option<&Bound<'_, PyAny>>,
        seed: u64,
        preset: Option<&str>,
    ) -> PyResult<LsaGame> {
        let mode = Mode::from_name(mode).map_err(bad)?;
        let opts = crate::options_arg(options, preset)?;
        let options = options_from_json(opts.as_ref()).map_err(bad)?;
        // As `junqi selfplay --board land_sea_air` draws a start (`random_start`).
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let south = Deployment::random(Side::South, options.piece_set, &mut rng);
        let north = Deployment::random(Side::North, options.piece_set, &mut rng);
        let game =
            junqi_core::lsa::Game::new(mode, options, south, north, options.first).map_err(bad)?;
        Ok(LsaGame::wrap(game, rng))
    }

    /// A game from a JSON position (LANDSEAAIR §10.2; a dict or a JSON string). `seed` seeds
    /// `random_action`.
    #[staticmethod]
    #[pyo3(signature = (position, seed=0))]
    fn from_json(position: &Bound<'_, PyAny>, seed: u64) -> PyResult<LsaGame> {
        let v = json_arg(position, "position")?;
        let (mode, pos) = position_from_json(&v).map_err(bad)?;
        let options = *pos.options();
        let game = junqi_core::lsa::Game::start(mode, Start::Position(Box::new(pos)), options)
            .map_err(bad)?;
        Ok(LsaGame::wrap(game, ChaCha8Rng::seed_from_u64(seed)))
    }

    /// A game that goes on from a record: its text form or its JSON form (a dict, or a string
    /// starting with `{`), every entry replayed through the referee.
    #[staticmethod]
    #[pyo3(signature = (record, seed=0))]
    fn from_record(record: &Bound<'_, PyAny>, seed: u64) -> PyResult<LsaGame> {
        let rec = match record.downcast::<PyString>() {
            Ok(s) if !s.to_cow()?.trim_start().starts_with('{') => {
                Record::from_text(&s.to_cow()?).map_err(bad)?
            }
            _ => Record::from_json(&json_arg(record, "record")?).map_err(bad)?,
        };
        let game = rec.replay().map_err(bad)?;
        Ok(LsaGame::wrap(game, ChaCha8Rng::seed_from_u64(seed)))
    }

    /// The board's name, `land_sea_air`.
    #[getter]
    fn board(&self) -> &'static str {
        junqi_core::lsa::board::BOARD_NAME
    }

    /// The mode, `dark` or `open`.
    #[getter]
    fn mode(&self) -> &'static str {
        self.game.mode().name()
    }

    /// The preset (`standard`, `taiwan`; RULES §10.1) the options are, or None (custom).
    #[getter]
    fn preset(&self) -> Option<&'static str> {
        junqi_core::Preset::of_lsa(self.game.position().options()).map(|p| p.name())
    }

    /// The seat to move: 0 South, 1 North.
    #[getter]
    fn to_move(&self) -> u8 {
        self.game.position().to_move() as u8
    }

    /// Plies played.
    #[getter]
    fn plies(&self) -> u32 {
        self.game.position().plies()
    }

    /// The size of the action-id space (`2 * 135 * 135`).
    #[getter]
    fn num_actions(&self) -> usize {
        ACTION_IDS
    }

    /// The seat to move's legal actions as text (`"a6-a9"`, `"scout i1 i11"`), in the
    /// referee's order; empty once the game is over.
    fn legal_actions(&self) -> Vec<String> {
        self.game
            .position()
            .legal_actions()
            .iter()
            .map(|a| a.to_string())
            .collect()
    }

    /// The legal actions as integer ids, in the same order as `legal_actions`.
    fn legal_action_ids(&self) -> Vec<usize> {
        self.game
            .position()
            .legal_actions()
            .iter()
            .map(action_id)
            .collect()
    }

    /// The id of an action (text or id).
    fn action_id(&self, action: &Bound<'_, PyAny>) -> PyResult<usize> {
        Ok(action_id(self.action_arg(action)?))
    }

    /// The seat to move plays `action` (text or id). Returns the events the mover receives
    /// (LANDSEAAIR §10.3, as dicts): every event of the step, since a look's private result
    /// (`scouted_private`) goes to the scout's owner, who is the mover; `last_events(seat)`
    /// gives what the other seat receives. An illegal action raises `IllegalActionError` and
    /// changes nothing.
    fn step(&mut self, py: Python<'_>, action: &Bound<'_, PyAny>) -> PyResult<PyObject> {
        let a = self.action_arg(action)?;
        let events = self.play(a)?;
        Ok(Self::events_py(py, events))
    }

    /// The events of the last step that `seat` receives: the public ones and its own looks'
    /// results, never the other seat's.
    fn last_events(&self, py: Python<'_>, seat: u8) -> PyResult<PyObject> {
        let who = Observer::Seat(self.side_arg(Some(seat))?);
        let mine: Vec<Event> = events_for(who, &self.last).collect();
        Ok(Self::events_py(py, &mine))
    }

    /// The seat to move plays a uniformly random legal action from the game's generator.
    /// Returns the action's text.
    fn random_action(&mut self) -> PyResult<String> {
        self.buf.clear();
        self.game.position().legal_actions_into(&mut self.buf);
        if self.buf.is_empty() {
            return Err(bad("the game is over"));
        }
        let a = self.buf[self.rng.gen_range(0..self.buf.len())];
        self.play(a)?;
        Ok(a.to_string())
    }

    /// Play uniformly random legal actions to the end, drawing from the game's generator as
    /// `junqi selfplay --board land_sea_air` does (a `LsaGame(seed=s)` played out is selfplay's
    /// game 0 of seed `s`). Returns the plies played.
    fn random_playout(&mut self) -> PyResult<u32> {
        let start = self.game.position().plies();
        while !self.game.is_over() {
            self.buf.clear();
            self.game.position().legal_actions_into(&mut self.buf);
            if self.buf.is_empty() {
                break;
            }
            let a = self.buf[self.rng.gen_range(0..self.buf.len())];
            self.play(a)?;
        }
        Ok(self.game.position().plies() - start)
    }

    /// Whether the game is over.
    fn is_over(&self) -> bool {
        self.game.is_over()
    }

    /// The outcome (`{"result": "win", "winners": [0], "reason": …}`), or None while the game
    /// goes on.
    fn outcome(&self, py: Python<'_>) -> PyObject {
        if self.game.is_over() {
            to_py(py, &outcome_to_json(self.game.position().status()))
        } else {
            py.None()
        }
    }

    /// Each seat's reward: +1 the winner, −1 the loser, 0 in a draw or while the game goes on.
    fn rewards(&self) -> Vec<f32> {
        crate::game::rewards_of(self.game.outcome(), 2)
    }

    /// The view of `seat` (default: the seat to move) as LANDSEAAIR §10.2 JSON: every piece's
    /// arm, its role only where the seat may know it, the seat's legal actions when it is to
    /// move. `seat="public"` gives a spectator's view.
    #[pyo3(signature = (seat=None))]
    fn observation(&self, py: Python<'_>, seat: Option<&Bound<'_, PyAny>>) -> PyResult<PyObject> {
        let observer = match seat {
            Some(s) if s.extract::<String>().is_ok_and(|t| t == "public") => Observer::Spectator,
            Some(s) => Observer::Seat(
                self.side_arg(Some(
                    s.extract::<u8>()
                        .map_err(|_| bad("seat is 0 (South), 1 (North) or \"public\""))?,
                ))?,
            ),
            None => Observer::Seat(self.game.position().to_move()),
        };
        let view = self.game.position().view(self.game.mode(), observer);
        Ok(to_py(py, &view_to_json(&view)))
    }

    /// The referee's full position as JSON (every role shown: never show it to a player).
    fn to_json(&self, py: Python<'_>) -> PyObject {
        to_py(
            py,
            &position_to_json(self.game.mode(), self.game.position()),
        )
    }

    /// The record so far in its text form (`docs/formats.md`).
    fn record(&self) -> String {
        self.game.record().to_text()
    }

    /// The record so far in its JSON form (a dict).
    fn record_json(&self, py: Python<'_>) -> PyObject {
        to_py(py, &self.game.record().to_json())
    }

    /// An independent copy (same position, record and generator state).
    fn copy(&self) -> LsaGame {
        LsaGame::wrap(self.game.clone(), self.rng.clone())
    }

    fn __copy__(&self) -> LsaGame {
        self.copy()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> LsaGame {
        self.copy()
    }

    fn __repr__(&self) -> String {
        format!(
            "LsaGame(mode={:?}, plies={}, to_move={}, over={})",
            self.mode(),
            self.plies(),
            self.to_move(),
            self.is_over()
        )
    }
}

/// Where an `LsaBot` stands in the game it follows: its own replay of the game, from which it
/// is told each step's events as its seat receives them.
struct Follow {
    uid: u64,
    side: Side,
    game: junqi_core::lsa::Game,
    applied: usize,
}

/// A built-in land-sea-air player: `LsaBot("heuristic", budget=None, seed=0)`, with `random`,
/// `heuristic`, `search`, a level (`入门`/`beginner` … `大师`/`master`) or a tuned
/// `search@depth=…,candidates=…`.
///
/// `bot.choose(game)` answers for the seat to move of an `LsaGame`. The bot follows one game
/// and one seat at a time: the first call (or one for another game or seat) starts it on that
/// game and replays every step so far to it as the seat's events and views; later calls feed
/// it only the new steps. It sees its seat's view and events only (its own looks' results,
/// never the other seat's), never the position.
#[pyclass(module = "junqi._junqi")]
pub struct LsaBot {
    spec: String,
    factory: LsaBotFactory,
    inner: Mutex<(Box<dyn CoreLsaBot>, Option<Follow>)>,
    budget: Budget,
    seed: u64,
}

#[pymethods]
impl LsaBot {
    #[new]
    #[pyo3(signature = (name="heuristic", budget=None, seed=0))]
    fn new(name: &str, budget: Option<&Bound<'_, PyAny>>, seed: u64) -> PyResult<LsaBot> {
        let factory = bot_by_spec(name).map_err(bad)?;
        let bot = factory();
        Ok(LsaBot {
            spec: name.to_string(),
            factory,
            inner: Mutex::new((bot, None)),
            budget: budget_arg(budget)?,
            seed,
        })
    }

    /// The player's name (`random`, `heuristic`, `search`).
    #[getter]
    fn name(&self) -> String {
        self.inner.lock().unwrap().0.name()
    }

    /// The player's choice for the seat to move of `game`, as action text. The game is not
    /// changed: play it with `game.step(...)`.
    fn choose(&self, py: Python<'_>, game: PyRef<'_, LsaGame>) -> PyResult<String> {
        if game.game.is_over() {
            return Err(bad("the game is over"));
        }
        let side = game.game.position().to_move();
        let record = game.game.record();
        let mode = record.mode;
        let me = Observer::Seat(side);
        let mut guard = self.inner.lock().unwrap();
        let (bot, follow) = &mut *guard;
        let fresh = !matches!(follow, Some(f) if f.uid == game.uid && f.side == side
            && f.applied <= record.entries.len());
        if fresh {
            let start = junqi_core::lsa::Game::start(mode, record.start.clone(), record.options)
                .map_err(bad)?;
            *bot = (self.factory)();
            bot.new_game(start.position().options(), side, self.seed);
            bot.observe(&[], &start.position().view(mode, me));
            *follow = Some(Follow {
                uid: game.uid,
                side,
                game: start,
                applied: 0,
            });
        }
        let f = follow.as_mut().expect("set above");
        for e in &record.entries[f.applied..] {
            let events = f
                .game
                .apply(*e)
                .map_err(|e| bad(format!("replaying to the bot: {e}")))?;
            let mine: Vec<Event> = events_for(me, events.as_slice()).collect();
            bot.observe(&mine, &f.game.position().view(mode, me));
        }
        f.applied = record.entries.len();
        let view = f.game.position().view(mode, me);
        let budget = self.budget;
        let action = py
            .allow_threads(|| bot.choose(&view, budget))
            .map_err(|e| bad(format!("bot {}: {e}", self.spec)))?;
        Ok(action.to_string())
    }

    fn __repr__(&self) -> String {
        format!("LsaBot({:?})", self.spec)
    }
}
