//! [`LsaExternalBot`]: a land-sea-air player ([`LsaBot`]) played by another program over the
//! engine protocol (`docs/engine-protocol.md`, board `land_sea_air`), as `junqi arena --board
//! land_sea_air --bot cmd:…` runs it. Processes, time limits and failures are handled as for
//! [`super::ExternalBot`].

use super::connection::Connection;
use super::{lender, EngineProcess, PooledBot, DEFAULT_TIME_LIMIT};
use crate::engine::lsa::{events_line, gameover_line, observation_line, LsaNewGame};
use crate::lsa::{LsaBot, LsaBotFactory};
use crate::{BotError, Budget};
use junqi_core::lsa::notation::find_action;
use junqi_core::lsa::record::deployment_from_text;
use junqi_core::lsa::{Action, Deployment, Event, Mode, Options, Side, View};
use std::time::Duration;

/// A land-sea-air player played by an external program over the engine protocol.
pub struct LsaExternalBot {
    conn: Connection,
    mode: Mode,
    options: Options,
    side: Side,
}

impl LsaExternalBot {
    /// A bot that runs `command_line` in `mode` games (split as [`super::split_command_line`]
    /// says; no shell). Nothing is started yet.
    pub fn new(command_line: &str, mode: Mode) -> Result<LsaExternalBot, String> {
        Ok(LsaExternalBot {
            conn: Connection::new(command_line, DEFAULT_TIME_LIMIT)?,
            mode,
            options: Options::default(),
            side: Side::South,
        })
    }

    /// Set the limit on each answer (default [`DEFAULT_TIME_LIMIT`]).
    pub fn with_time_limit(mut self, limit: Duration) -> LsaExternalBot {
        self.conn.limit = limit;
        self
    }

    /// A factory of external land-sea-air players for the arena (see
    /// [`super::ExternalBot::factory_with`] for what `process` changes).
    pub fn factory_with(
        command_line: &str,
        mode: Mode,
        limit: Duration,
        process: EngineProcess,
    ) -> Result<LsaBotFactory, String> {
        let line = command_line.to_string();
        LsaExternalBot::new(&line, mode)?;
        let fresh = move || {
            LsaExternalBot::new(&line, mode)
                .expect("checked above")
                .with_time_limit(limit)
        };
        Ok(match process {
            EngineProcess::PerGame => Box::new(move || Box::new(fresh()) as Box<dyn LsaBot>),
            EngineProcess::PerMatch => {
                let lend = lender(fresh);
                Box::new(move || Box::new(lend()) as Box<dyn LsaBot>)
            }
        })
    }

    /// The name the engine gave (`id name`), once started.
    pub fn engine_name(&self) -> Option<&str> {
        self.conn.engine_name.as_deref()
    }
}

impl LsaBot for LsaExternalBot {
    fn name(&self) -> String {
        self.conn.label.clone()
    }

    fn new_game(&mut self, options: &Options, side: Side, seed: u64) {
        (self.options, self.side) = (*options, side);
        let line = LsaNewGame {
            mode: self.mode,
            options: *options,
            side,
            seed,
        }
        .line();
        self.conn.begin(&line);
    }

    fn deploy(&mut self) -> Result<Deployment, BotError> {
        let text = self.conn.deployment()?;
        deployment_from_text(self.side, &text, &self.options)
            .map_err(|e| self.conn.fail(format!("bad deployment {text:?}: {e}")))
    }

    fn observe(&mut self, events: &[Event], view: &View) {
        let lines = events_line(events)
            .into_iter()
            .chain([observation_line(view)])
            .chain(gameover_line(view.status));
        self.conn.tell(lines);
    }

    fn choose(&mut self, view: &View, budget: Budget) -> Result<Action, BotError> {
        let text = self.conn.bestmove(budget)?;
        match find_action(view.legal_actions.iter().copied(), &text) {
            Ok(Some(a)) => Ok(a),
            Ok(None) => Err(self
                .conn
                .fail(format!("illegal action {text} from the engine"))),
            Err(e) => Err(self.conn.fail(format!("bad bestmove {text:?}: {e}"))),
        }
    }
}

impl LsaBot for PooledBot<LsaExternalBot> {
    fn name(&self) -> String {
        self.bot.as_ref().map(|b| b.name()).unwrap_or_default()
    }

    fn new_game(&mut self, options: &Options, side: Side, seed: u64) {
        self.bot().new_game(options, side, seed)
    }

    fn deploy(&mut self) -> Result<Deployment, BotError> {
        self.bot().deploy()
    }

    fn observe(&mut self, events: &[Event], view: &View) {
        self.bot().observe(events, view)
    }

    fn choose(&mut self, view: &View, budget: Budget) -> Result<Action, BotError> {
        self.bot().choose(view, budget)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_program_is_a_bot_error() {
        let mut b = LsaExternalBot::new("/nonexistent/engine", Mode::Dark).unwrap();
        b.new_game(&Options::default(), Side::South, 1);
        let e = b.deploy().unwrap_err();
        assert!(e.0.contains("cannot start"), "{e}");
    }
}
