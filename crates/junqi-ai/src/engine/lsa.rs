//! The engine protocol on the board `land_sea_air` (陆海空三军棋, `LANDSEAAIR.md`): the same
//! commands as for 军棋, carrying this board's JSON (§10): `newgame board land_sea_air mode
//! <dark|open> seat <0|1> [seed <n>] [options <json>]`, `deployment <square=role …>`, events
//! and views of §10.3 and §10.2, and action texts of §10.1 (`a6-a9`, `scout i1 i11`).
//!
//! The engine plays it with the land-sea-air player of the same name as its `bot` option
//! (`random`, `heuristic`, `search`, `search@…`; see [`crate::lsa::bot_by_spec`]).

use super::catch;
use crate::lsa::{bot_by_spec, LsaBot, BOT_NAMES};
use crate::{BotError, Budget};
use junqi_core::lsa::json::{event_from_json, event_to_json, options_to_json, view_from_json};
use junqi_core::lsa::record::deployment_to_text;
use junqi_core::lsa::{Event, Mode, Observer, Options, Side, Status, View};
use serde_json::Value;

/// The board's name in `newgame`.
pub const BOARD: &str = "land_sea_air";

/// A `newgame` on this board, parsed: the rules, the side the engine plays, its seed.
#[derive(Clone, Debug, PartialEq)]
pub struct LsaNewGame {
    /// Dark or open play.
    pub mode: Mode,
    /// The rule options (§9).
    pub options: Options,
    /// The side the engine plays (seat 0 South, 1 North).
    pub side: Side,
    /// A seed for the engine's randomness.
    pub seed: u64,
}

impl LsaNewGame {
    /// Read the fields of a `newgame` naming this board.
    pub(super) fn parse(
        mode: &str,
        seat: u64,
        seed: u64,
        options: Option<&Value>,
    ) -> Result<LsaNewGame, String> {
        let mode = Mode::from_name(mode)?;
        let options = junqi_core::lsa::json::options_from_json(options)
            .map_err(|e| format!("options: {e}"))?;
        let side = match seat {
            0 => Side::South,
            1 => Side::North,
            _ => return Err(format!("seat {seat} does not exist on the {BOARD} board")),
        };
        Ok(LsaNewGame {
            mode,
            options,
            side,
            seed,
        })
    }

    /// The `newgame` line that [`LsaNewGame::parse`] reads back.
    pub fn line(&self) -> String {
        let mut s = format!(
            "newgame board {BOARD} mode {} seat {} seed {}",
            self.mode.name(),
            self.side as u8,
            self.seed
        );
        let opts = options_to_json(&self.options);
        if !opts.is_empty() {
            s += &format!(" options {}", Value::Object(opts));
        }
        s
    }
}

/// The `events` line for the announcements a seat receives (the draw announcement, which has
/// no event kind, is left out: the outcome carries it).
pub fn events_line(events: &[Event]) -> Option<String> {
    let list: Vec<Value> = events.iter().filter_map(event_to_json).collect();
    (!list.is_empty()).then(|| format!("events {}", Value::Array(list)))
}

/// The `observation` line for a view.
pub fn observation_line(view: &View) -> String {
    format!("observation {}", junqi_core::lsa::json::view_to_json(view))
}

/// The `gameover` line once a game is over (`None` while it goes on).
pub fn gameover_line(status: Status) -> Option<String> {
    (status != Status::Playing).then(|| {
        format!(
            "gameover {}",
            junqi_core::lsa::json::outcome_to_json(status)
        )
    })
}

/// A land-sea-air game the engine is playing.
pub(super) struct LsaGame {
    bot: Box<dyn LsaBot>,
    rules: LsaNewGame,
    deployed: bool,
    /// Events received since the last observation.
    events: Vec<Event>,
    view: Option<View>,
}

impl LsaGame {
    /// Start a game with the land-sea-air player named `bot_name`.
    pub(super) fn start(bot_name: &str, rules: LsaNewGame) -> Result<LsaGame, String> {
        let factory = bot_by_spec(bot_name).map_err(|_| {
            format!(
                "the bot {bot_name:?} does not play {BOARD} (those that do: {}; setoption name \
                 bot value <name> first)",
                BOT_NAMES.join(", ")
            )
        })?;
        let mut bot = catch(factory)?;
        catch(|| bot.new_game(&rules.options, rules.side, rules.seed))?;
        Ok(LsaGame {
            bot,
            rules,
            deployed: false,
            events: Vec::new(),
            view: None,
        })
    }

    /// `deploy`: the bot's layout, checked against the piece set.
    pub(super) fn deploy(&mut self) -> Result<Vec<String>, String> {
        if self.deployed {
            return Err("already deployed in this game".into());
        }
        if self.view.is_some() {
            return Err("deploy after play started".into());
        }
        let d =
            catch(|| self.bot.deploy())?.map_err(|BotError(e)| format!("no deployment: {e}"))?;
        if d.side() != self.rules.side {
            return Err("the bot's deployment is for the other side".into());
        }
        d.validate(self.rules.options.piece_set)
            .map_err(|e| format!("the bot's deployment is illegal: {e}"))?;
        self.deployed = true;
        Ok(vec![format!("deployment {}", deployment_to_text(&d))])
    }

    /// `events <json>`: kept for the next observation; all or nothing.
    pub(super) fn events(&mut self, list: &[Value]) -> Result<Vec<String>, String> {
        let evs = list
            .iter()
            .enumerate()
            .map(|(i, e)| event_from_json(e).map_err(|m| format!("events[{i}]: {m}")))
            .collect::<Result<Vec<_>, _>>()?;
        let me = Observer::Seat(self.rules.side);
        if let Some(i) = evs.iter().position(|e| !me.receives(e)) {
            return Err(format!(
                "events[{i}]: seat {} never receives another seat's look (scouted_private)",
                self.rules.side as u8
            ));
        }
        self.events.extend(evs);
        Ok(Vec::new())
    }

    /// `observation <json>`: the seat's view, handed to the bot with the events since the last.
    pub(super) fn observation(&mut self, v: &Value) -> Result<Vec<String>, String> {
        let view = view_from_json(v).map_err(|e| format!("observation: {e}"))?;
        if view.mode != self.rules.mode || view.options != self.rules.options {
            return Err("observation: its rules are not the rules of this game".into());
        }
        if view.observer != Observer::Seat(self.rules.side) {
            return Err(format!(
                "observation: it must be seat {}'s observation",
                self.rules.side as u8
            ));
        }
        let events = std::mem::take(&mut self.events);
        if let Err(e) = catch(|| self.bot.observe(&events, &view)) {
            self.events = events;
            return Err(e);
        }
        self.view = Some(view);
        Ok(Vec::new())
    }

    /// `go`: the bot's action, checked against the view's legal actions.
    pub(super) fn go(&mut self, budget: Budget) -> Result<Vec<String>, String> {
        let Some(view) = self.view.clone() else {
            return Err("go before any observation".into());
        };
        if view.status != Status::Playing {
            return Err("go: the game is over".into());
        }
        let me = self.rules.side;
        if view.to_move != me {
            return Err(format!(
                "go: seat {} is to move, not this engine's seat {}",
                view.to_move as u8, me as u8
            ));
        }
        if view.legal_actions.is_empty() {
            return Err("go: the observation lists no legal action".into());
        }
        let a = catch(|| self.bot.choose(&view, budget))?.map_err(|BotError(e)| e)?;
        if !view.legal_actions.contains(&a) {
            return Err(format!("the bot chose {a}, which is not a legal action"));
        }
        Ok(vec![format!("bestmove {a}")])
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Engine, Reply};
    use super::*;
    use crate::bot_by_name;
    use junqi_core::lsa::record::deployment_from_text;
    use junqi_core::lsa::{events_for, Position, Role, Square};

    fn engine(bot: &str) -> Engine {
        let mut e = Engine::new(bot_by_name("random").unwrap()());
        assert_eq!(
            say(&mut e, &format!("setoption name bot value {bot}")),
            [""; 0]
        );
        e
    }

    fn say(e: &mut Engine, line: &str) -> Vec<String> {
        match e.handle(line) {
            Reply::Lines(l) => l,
            Reply::Quit => vec!["quit".into()],
        }
    }

    fn error(e: &mut Engine, line: &str) -> String {
        let got = say(e, line);
        assert!(
            got.len() == 1 && got[0].starts_with("error "),
            "{line:?} should be refused, got {got:?}"
        );
        got[0].clone()
    }

    /// Two engines play a whole game against the referee, told only what their seats receive
    /// by the driver's own lines; every answer is legal, and the game ends.
    #[test]
    fn two_engines_play_a_game_to_its_end_over_the_protocol() {
        for (bot, mode) in [
            ("heuristic", Mode::Dark),
            ("random", Mode::Open),
            ("search", Mode::Dark),
        ] {
            let options = Options::default();
            let sides = [Side::South, Side::North];
            let mut engines = [engine(bot), engine(bot)];
            let mut layouts = Vec::new();
            for (i, e) in engines.iter_mut().enumerate() {
                let ng = LsaNewGame {
                    mode,
                    options,
                    side: sides[i],
                    seed: 11 + i as u64,
                };
                assert_eq!(say(e, &ng.line()), [""; 0]);
                let d = say(e, "deploy");
                let text = d[0].strip_prefix("deployment ").expect("a deployment");
                layouts.push(deployment_from_text(sides[i], text, &options).unwrap());
                error(e, "deploy");
            }
            let mut pos = Position::new(options, &layouts[0], &layouts[1]).unwrap();
            for (i, e) in engines.iter_mut().enumerate() {
                let obs = observation_line(&pos.view(mode, Observer::Seat(sides[i])));
                assert_eq!(say(e, &obs), [""; 0]);
            }
            while !pos.is_over() && pos.plies() < 400 {
                let me = pos.to_move() as usize;
                let other = 1 - me;
                error(&mut engines[other], "go");
                let answer = say(&mut engines[me], "go nodes 200");
                let text = answer[0].strip_prefix("bestmove ").expect("bestmove");
                let a = junqi_core::lsa::notation::action_from_text(&pos, text).unwrap();
                let step = pos.apply(a).unwrap();
                for (i, e) in engines.iter_mut().enumerate() {
                    let obs = Observer::Seat(sides[i]);
                    let events: Vec<Event> = events_for(obs, step.events.as_slice()).collect();
                    for l in events_line(&events)
                        .into_iter()
                        .chain([observation_line(&pos.view(mode, obs))])
                        .chain(gameover_line(pos.status()))
                    {
                        assert_eq!(say(e, &l), [""; 0], "{l}");
                    }
                }
            }
            if pos.is_over() {
                // gameover ended the game: play commands are now refused.
                error(&mut engines[0], "go");
            }
            assert!(pos.plies() > 10, "{bot}: the game was played");
        }
    }

    #[test]
    fn bad_land_sea_air_commands_are_refused_and_change_nothing() {
        let mut e = engine("heuristic");
        for (line, why) in [
            (
                "newgame board land_sea_air mode flip seat 0",
                "dark or open",
            ),
            ("newgame board land_sea_air mode dark seat 2", "seat 2"),
            (
                r#"newgame board land_sea_air mode dark seat 0 options {"rail_max":-1}"#,
                "rail_max",
            ),
        ] {
            let got = error(&mut e, line);
            assert!(got.contains(why), "{line}: {got}");
        }
        // A bot of the 军棋 boards only.
        let mut strong = Engine::new(bot_by_name("random").unwrap()());
        say(&mut strong, "setoption name bot value search-strong");
        let got = error(&mut strong, "newgame board land_sea_air mode dark seat 0");
        assert!(got.contains("does not play land_sea_air"), "{got}");

        let options = Options::default();
        let ng = LsaNewGame {
            mode: Mode::Dark,
            options,
            side: Side::North,
            seed: 3,
        };
        say(&mut e, &ng.line());
        assert!(error(&mut e, "go").contains("before any observation"));
        error(&mut e, "setoption name bot value random");
        let d = say(&mut e, "deploy");
        let north = deployment_from_text(Side::North, &d[0][11..], &options).unwrap();
        let south = junqi_core::lsa::Deployment::random(
            Side::South,
            options.piece_set,
            &mut <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(1),
        );
        let pos = Position::new(options, &south, &north).unwrap();
        // South's view, or the open mode's, is not this engine's.
        let wrong_seat = observation_line(&pos.view(Mode::Dark, Observer::Seat(Side::South)));
        assert!(error(&mut e, &wrong_seat).contains("seat 1"));
        let wrong_mode = observation_line(&pos.view(Mode::Open, Observer::Seat(Side::North)));
        assert!(error(&mut e, &wrong_mode).contains("rules"));
        // Another seat's look never reaches this one.
        let foreign = Event::ScoutedPrivate {
            side: Side::South,
            at: Square::new(4, 12).unwrap(),
            role: Role::Flag,
            landed: false,
        };
        let line = events_line(&[foreign]).unwrap();
        assert!(error(&mut e, &line).contains("never receives"));
        assert!(error(&mut e, "events [{\"kind\":\"move\"}]").contains("events[0]"));
        // Nothing of that changed the game: its own view is taken, South is to move.
        let mine = observation_line(&pos.view(Mode::Dark, Observer::Seat(Side::North)));
        assert_eq!(say(&mut e, &mine), [""; 0]);
        assert!(error(&mut e, "go").contains("seat 0 is to move"));
        assert!(error(&mut e, "gameover null").contains("not null"));
        // A 军棋 game after it replaces it.
        say(&mut e, "newgame board two_player mode dark seat 0");
        assert!(say(&mut e, "deploy")[0].starts_with("deployment "));
    }
}
