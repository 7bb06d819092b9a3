//! `junqi.Bot` (the built-in bots) and `junqi.arena` (paired matches, a Python policy allowed
//! as one side).

use crate::game::Game;
use crate::{bad, parse_rules, to_py};
use junqi_ai::arena::{run_match, BotFactory, MatchConfig};
use junqi_ai::engine::parse_budget;
use junqi_ai::{bot_by_spec, Bot as CoreBot, BotError, Budget};
use junqi_core::notation::{action_from_text, action_to_text};
use junqi_core::{Action, Deployment, Event, Observation, Observer, Position, Rules, Seat};
use pyo3::prelude::*;
use pyo3::types::PyString;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::sync::{Arc, Mutex};

/// A budget argument: None (the bot's own default), an integer (nodes) or the command line's
/// text (`iterations:N`, `nodes:N`, `ms:N`).
pub(crate) fn budget_arg(b: Option<&Bound<'_, PyAny>>) -> PyResult<Budget> {
    match b {
        None => Ok(Budget::default()),
        Some(o) if o.is_none() => Ok(Budget::default()),
        Some(o) => {
            if let Ok(s) = o.downcast::<PyString>() {
                parse_budget(&s.to_cow()?).map_err(bad)
            } else {
                let n: u64 = o.extract().map_err(|_| {
                    bad("budget is None, an integer (nodes) or \"iterations:N\", \"nodes:N\", \"ms:N\"")
                })?;
                Ok(Budget::Nodes(n))
            }
        }
    }
}

/// Where a bot stands in the game it follows.
struct Follow {
    uid: u64,
    seat: Seat,
    pos: Position,
    applied: usize,
}

/// A built-in bot: `Bot("search", budget=None, seed=0)`, any name or tuned spec the command
/// line's `--bot` takes (`junqi.bot_names()`; `search@depth=3,nodes=300000`).
///
/// `bot.choose(game)` answers for the seat to move of `game`. The bot follows one game and one
/// seat at a time: the first call (or a call for another game or seat) starts it on that game
/// (`new_game`, then every step so far replayed to it as the referee's events and the seat's
/// observations); later calls feed it only the new steps. It sees only its seat's
/// observations, never the position. It plays the deployment the game has (not its own).
#[pyclass(module = "junqi._junqi")]
pub struct Bot {
    spec: String,
    factory: BotFactory,
    inner: Mutex<(Box<dyn CoreBot>, Option<Follow>)>,
    budget: Budget,
    seed: u64,
}

#[pymethods]
impl Bot {
    #[new]
    #[pyo3(signature = (name="normal", budget=None, seed=0))]
    fn new(name: &str, budget: Option<&Bound<'_, PyAny>>, seed: u64) -> PyResult<Bot> {
        let factory = bot_by_spec(name).map_err(bad)?;
        let bot = factory();
        Ok(Bot {
            spec: name.to_string(),
            factory,
            inner: Mutex::new((bot, None)),
            budget: budget_arg(budget)?,
            seed,
        })
    }

    /// The bot's name as the arena shows it.
    #[getter]
    fn name(&self) -> String {
        self.inner.lock().unwrap().0.name()
    }

    /// The bot's choice for the seat to move of `game`, as action text. The game is not
    /// changed: play it with `game.step(...)`.
    fn choose(&self, py: Python<'_>, game: PyRef<'_, Game>) -> PyResult<String> {
        let pos = game.pos();
        if pos.is_over() {
            return Err(bad("the game is over"));
        }
        let seat = pos.to_move();
        let record = game.game.record();
        let mut guard = self.inner.lock().unwrap();
        let (bot, follow) = &mut *guard;
        let fresh = !matches!(follow, Some(f) if f.uid == game.uid && f.seat == seat && f.applied <= record.entries.len());
        if fresh {
            *bot = (self.factory)();
            bot.new_game(pos.rules(), seat, self.seed);
            let start = record.start_position().map_err(bad)?;
            bot.observe(&[], &start.observe(Observer::Seat(seat)));
            *follow = Some(Follow {
                uid: game.uid,
                seat,
                pos: start,
                applied: 0,
            });
        }
        let f = follow.as_mut().expect("set");
        let mut events: Vec<Event> = Vec::new();
        for e in &record.entries[f.applied..] {
            events.clear();
            e.apply(&mut f.pos, &record.table, &mut events)
                .map_err(|e| bad(format!("replaying to the bot: {e}")))?;
            bot.observe(&events, &f.pos.observe(Observer::Seat(seat)));
        }
        f.applied = record.entries.len();
        let obs = f.pos.observe(Observer::Seat(seat));
        let budget = self.budget;
        let topo = pos.topology();
        let action = py
            .allow_threads(|| bot.choose(&obs, budget))
            .map_err(|e| bad(format!("bot {}: {e}", self.spec)))?;
        Ok(action_to_text(topo, action))
    }

    fn __repr__(&self) -> String {
        format!("Bot({:?})", self.spec)
    }
}

/// A Python callable as an arena bot: `policy(observation) -> action`, where the observation
/// is the seat's observation JSON as a dict (with its `legal_actions`) and the action is its
/// text or id. It deploys at random (from the game's seed).
struct PolicyBot {
    policy: Py<PyAny>,
    name: String,
    rng: ChaCha8Rng,
}

impl CoreBot for PolicyBot {
    fn name(&self) -> String {
        self.name.clone()
    }
    fn new_game(&mut self, _rules: &Rules, _seat: Seat, seed: u64) {
        self.rng = ChaCha8Rng::seed_from_u64(seed);
    }
    fn deploy(&mut self) -> Result<Deployment, BotError> {
        Ok(Deployment::random(&mut self.rng))
    }
    fn observe(&mut self, _events: &[Event], _obs: &Observation) {}
    fn choose(&mut self, obs: &Observation, _budget: Budget) -> Result<Action, BotError> {
        let topo = obs.topology();
        Python::with_gil(|py| {
            let d = to_py(py, &obs.to_json());
            let r = self
                .policy
                .call1(py, (d,))
                .map_err(|e| BotError(format!("the Python policy raised {e}")))?;
            let r = r.bind(py);
            if let Ok(s) = r.downcast::<PyString>() {
                let s = s.to_cow().map_err(|e| BotError(e.to_string()))?;
                action_from_text(topo, &s).map_err(BotError)
            } else {
                let id: usize = r.extract().map_err(|_| {
                    BotError("the Python policy must return an action's text or id".into())
                })?;
                crate::planes::action_of_id(topo.len(), id)
                    .ok_or_else(|| BotError(format!("action id {id} is out of range")))
            }
        })
    }
}

/// A side of a match: a bot spec or a Python callable.
fn side(x: &Bound<'_, PyAny>) -> PyResult<BotFactory> {
    if let Ok(s) = x.downcast::<PyString>() {
        return bot_by_spec(&s.to_cow()?).map_err(bad);
    }
    if !x.is_callable() {
        return Err(bad(
            "a side is a bot name or a callable policy(observation) -> action",
        ));
    }
    let name: String = x
        .getattr("__name__")
        .and_then(|n| n.extract())
        .unwrap_or_else(|_| "python".into());
    let policy = Arc::new(x.clone().unbind());
    Ok(Arc::new(move || {
        let policy = Python::with_gil(|py| policy.clone_ref(py));
        Box::new(PolicyBot {
            policy,
            name: format!("py:{name}"),
            rng: ChaCha8Rng::seed_from_u64(0),
        }) as Box<dyn CoreBot>
    }))
}

/// Play a paired match as `junqi arena` does (each deal once per team, sides swapped) and
/// return its report as a dict (the arena's JSON report, `docs/engine-protocol.md`). `a` and
/// `b` are bot names (or tuned specs) or Python callables `policy(observation) -> action`
/// (the observation as `Game.observation` gives it); a policy that raises or answers an illegal
/// action forfeits that game, and the report says why.
#[pyfunction]
#[pyo3(signature = (a, b, games=2, board="two_player", mode="dark", options=None, seed=0, budget=None, threads=1, preset=None))]
#[allow(clippy::too_many_arguments)]
pub fn arena(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    games: u64,
    board: &str,
    mode: &str,
    options: Option<&Bound<'_, PyAny>>,
    seed: u64,
    budget: Option<&Bound<'_, PyAny>>,
    threads: usize,
    preset: Option<&str>,
) -> PyResult<PyObject> {
    let rules = parse_rules(board, mode, options, preset)?;
    let cfg = MatchConfig {
        rules,
        games,
        seed,
        budget: budget_arg(budget)?,
        threads: threads.max(1),
    };
    let (fa, fb) = (side(a)?, side(b)?);
    let report = py.allow_threads(|| run_match(cfg, fa, fb));
    Ok(to_py(py, &report.to_json()))
}
