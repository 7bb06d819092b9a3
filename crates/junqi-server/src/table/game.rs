//! The game a table runs: 军棋 on any board of RULES.md, or 陆海空三军棋 (LANDSEAAIR.md, board
//! `land_sea_air`). Each concept the table needs (rules, a layout, an action, an entry, the
//! game, its events for the bots, a bot, a bot's view) is one enum over the two games, so that
//! seats, clocks, storage, frames and pacing are written once for both; every method hands the
//! work to that game's own core, which stays the only referee.
//!
//! What differs, and is decided here:
//! - land-sea-air events can be private (a look's `scouted_private` result, §6): an applied
//!   entry keeps each event with the seat it is for, so a frame is built per receiver;
//! - a land-sea-air seat keeps [`LookNotes`] of what its looks saw, rebuilt from the record on
//!   a resume, and sent only to that seat;
//! - the land-sea-air bots are the `junqi_ai::lsa` players, named as the 军棋 levels are.

use crate::error::Refusal;
use junqi_ai::lsa::{bot_by_spec, guarded_layout, LsaBot, LsaRandomBot};
use junqi_ai::{Bot, Budget, RandomBot};
use junqi_core::event::Event;
use junqi_core::lsa::{self, LookNotes, Side};
use junqi_core::{
    action_from_text, Action, BoardKind, Deployment, Entry, Game, Mode, Observation, Observer,
    Options, Outcome, Preset, Record, Rules, Seat, TableRules, TeamMap,
};
use rand::Rng;
use serde_json::{json, Value};

/// The board name of 陆海空三军棋.
pub const LSA_BOARD: &str = lsa::board::BOARD_NAME;

fn side(seat: Seat) -> Side {
    if seat == 0 {
        Side::South
    } else {
        Side::North
    }
}

fn lsa_observer(o: Observer) -> lsa::Observer {
    match o {
        Observer::Seat(s) => lsa::Observer::Seat(side(s)),
        // A team's view is the public one here: land-sea-air has no teams.
        Observer::Public | Observer::Team(_) => lsa::Observer::Spectator,
        Observer::Referee => lsa::Observer::Referee,
    }
}

/// The rules of a land-sea-air table: the mode and the options of §8–§9.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LsaRules {
    /// Dark or open.
    pub mode: lsa::Mode,
    /// The rule options (piece set, combat, …).
    pub options: lsa::Options,
}

/// A table's rules: board, mode and options of one of the two games.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum GameRules {
    /// 军棋 on a RULES.md board.
    Junqi(Rules),
    /// 陆海空三军棋.
    Lsa(LsaRules),
}

impl GameRules {
    /// Read board, mode and options as a table's settings give them (the options object may be
    /// absent: the defaults).
    pub fn parse(board: &str, mode: &str, options: Option<&Value>) -> Result<GameRules, String> {
        if board == LSA_BOARD {
            let mode = lsa::Mode::from_name(mode)?;
            let options = lsa::json::options_from_json(options)?;
            return Ok(GameRules::Lsa(LsaRules { mode, options }));
        }
        let board: BoardKind = board.parse()?;
        let mode: Mode = mode.parse()?;
        let options = Options::from_json(board, mode, options)?;
        Ok(GameRules::Junqi(Rules::new(board, mode, options)?))
    }

    /// The preset (RULES §10.1) these rules and the table's rules resolve to, if any (`None`:
    /// custom, 自定义).
    pub fn preset(&self, table: &TableRules) -> Option<Preset> {
        match self {
            GameRules::Junqi(r) => Preset::of(r, table),
            GameRules::Lsa(r) => Preset::of_lsa(&r.options),
        }
    }

    /// How many seats.
    pub fn seats(&self) -> usize {
        match self {
            GameRules::Junqi(r) => r.seats(),
            GameRules::Lsa(_) => 2,
        }
    }

    /// Flip play (no deployment: the pieces are dealt face down).
    pub fn is_flip(&self) -> bool {
        matches!(self, GameRules::Junqi(r) if r.is_flip())
    }

    /// The board's name (`two_player`, …, `land_sea_air`).
    pub fn board_name(&self) -> &'static str {
        match self {
            GameRules::Junqi(r) => r.board.name(),
            GameRules::Lsa(_) => LSA_BOARD,
        }
    }

    /// The mode's name.
    pub fn mode_name(&self) -> &'static str {
        match self {
            GameRules::Junqi(r) => r.mode.name(),
            GameRules::Lsa(r) => r.mode.name(),
        }
    }

    /// The options as JSON (those that differ from the defaults, as the formats write them).
    pub fn options_json(&self) -> Value {
        match self {
            GameRules::Junqi(r) => Value::Object(r.options.to_json(r.board, r.mode)),
            GameRules::Lsa(r) => Value::Object(lsa::json::options_to_json(&r.options)),
        }
    }

    /// The teams (land-sea-air: two seats, each its own team, as on the two-player board).
    pub fn teams(&self) -> TeamMap {
        match self {
            GameRules::Junqi(r) => r.teams(),
            GameRules::Lsa(_) => TeamMap::new(BoardKind::TwoPlayer, junqi_core::Teams::None),
        }
    }

    /// The board whose seat geometry the table's seats follow (land-sea-air: two seats facing
    /// each other, as on the two-player board).
    pub fn seat_board(&self) -> BoardKind {
        match self {
            GameRules::Junqi(r) => r.board,
            GameRules::Lsa(_) => BoardKind::TwoPlayer,
        }
    }

    /// The 军棋 rules, if the table plays 军棋.
    pub fn junqi(&self) -> Option<&Rules> {
        match self {
            GameRules::Junqi(r) => Some(r),
            GameRules::Lsa(_) => None,
        }
    }

    /// Whether a bot of this name plays this game.
    pub fn has_bot(&self, name: &str) -> bool {
        match self {
            GameRules::Junqi(_) => junqi_ai::bot_by_name(name).is_some(),
            GameRules::Lsa(_) => bot_by_spec(name).is_ok(),
        }
    }
}

/// A seat's layout (deployment).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Layout {
    /// A 军棋 layout.
    Junqi(Deployment),
    /// A land-sea-air layout.
    Lsa(lsa::Deployment),
}

impl Layout {
    /// Read a layout's text form for `seat` and check it against the rules.
    pub fn parse(rules: &GameRules, seat: Seat, text: &str) -> Result<Layout, Refusal> {
        match rules {
            GameRules::Junqi(r) => {
                let d = Deployment::from_text(text).map_err(Refusal::Deployment)?;
                d.validate(r.board, seat).map_err(Refusal::Deployment)?;
                Ok(Layout::Junqi(d))
            }
            GameRules::Lsa(r) => lsa::record::deployment_from_text(side(seat), text, &r.options)
                .map(Layout::Lsa)
                .map_err(Refusal::Rules),
        }
    }

    /// The text form.
    pub fn to_text(self) -> String {
        match self {
            Layout::Junqi(d) => d.to_string(),
            Layout::Lsa(d) => lsa::record::deployment_to_text(&d),
        }
    }

    /// Whether this layout may stand at `seat` under the rules (a bot's layout is checked).
    fn fits(&self, rules: &GameRules, seat: Seat) -> bool {
        match (self, rules) {
            (Layout::Junqi(d), GameRules::Junqi(r)) => d.validate(r.board, seat).is_ok(),
            (Layout::Lsa(d), GameRules::Lsa(r)) => {
                d.side() == side(seat) && d.validate(r.options.piece_set).is_ok()
            }
            _ => false,
        }
    }

    /// The layout a seat gets when its clock runs out (or its bot fails): 军棋 a random one,
    /// land-sea-air the computer's guarded one (a random land-sea-air layout leaves the flag
    /// open to the first plane, which no player would choose).
    pub fn fallback(rules: &GameRules, seat: Seat, rng: &mut impl Rng) -> Layout {
        match rules {
            GameRules::Junqi(_) => Layout::Junqi(Deployment::random(rng)),
            GameRules::Lsa(r) => Layout::Lsa(guarded_layout(side(seat), r.options.piece_set, rng)),
        }
    }

    /// A layout the editor starts from for a person (land-sea-air only: the 军棋 editor has its
    /// own).
    pub fn suggested(rules: &GameRules, seat: Seat, rng: &mut impl Rng) -> Option<Layout> {
        matches!(rules, GameRules::Lsa(_)).then(|| Layout::fallback(rules, seat, rng))
    }
}

/// An action of either game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Move {
    /// A 军棋 action.
    Junqi(Action),
    /// A land-sea-air action.
    Lsa(lsa::Action),
}

/// An entry the table commits.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TableEntry {
    /// The seat to move acts.
    Action {
        /// The acting seat.
        seat: Seat,
        /// What it does.
        action: Move,
    },
    /// The seat to move ran out of time.
    Timeout {
        /// That seat.
        seat: Seat,
    },
    /// A seat resigns.
    Resign(Seat),
    /// A seat left for good.
    Leave(Seat),
    /// Every seat still in the game agreed to a draw.
    Draw,
}

impl TableEntry {
    /// Whether it ends a pending draw offer (a move or a timeout does).
    pub fn cancels_draw(&self) -> bool {
        matches!(self, TableEntry::Action { .. } | TableEntry::Timeout { .. })
    }

    fn junqi(self) -> Result<Entry, Refusal> {
        Ok(match self {
            TableEntry::Action {
                seat,
                action: Move::Junqi(action),
            } => Entry::Action { seat, action },
            TableEntry::Action { .. } => return Err(wrong_game()),
            TableEntry::Timeout { seat } => Entry::Timeout { seat },
            TableEntry::Resign(s) => Entry::Resign(s),
            TableEntry::Leave(s) => Entry::Leave(s),
            TableEntry::Draw => Entry::Draw,
        })
    }

    fn lsa(self) -> Result<lsa::Entry, Refusal> {
        Ok(match self {
            TableEntry::Action {
                seat,
                action: Move::Lsa(action),
            } => lsa::Entry::Action {
                side: side(seat),
                action,
            },
            TableEntry::Action { .. } => return Err(wrong_game()),
            TableEntry::Timeout { seat } => lsa::Entry::Timeout { side: side(seat) },
            TableEntry::Resign(s) => lsa::Entry::Resign(side(s)),
            TableEntry::Leave(s) => lsa::Entry::Leave(side(s)),
            TableEntry::Draw => lsa::Entry::Draw,
        })
    }
}

fn wrong_game() -> Refusal {
    Refusal::Internal("an action of the other game".into())
}

/// The events of one step, as the bots are told them.
#[derive(Clone, Debug)]
pub enum Events {
    /// 军棋 events (public: every seat hears them all).
    Junqi(Vec<Event>),
    /// Land-sea-air events, each seat to hear those [`lsa::events_for`] gives it.
    Lsa(Vec<lsa::Event>),
}

impl Events {
    /// Several steps' events in order, as one batch.
    pub fn concat(batches: Vec<Events>) -> Option<Events> {
        let mut it = batches.into_iter();
        let mut all = it.next()?;
        for b in it {
            match (&mut all, b) {
                (Events::Junqi(a), Events::Junqi(b)) => a.extend(b),
                (Events::Lsa(a), Events::Lsa(b)) => a.extend(b),
                _ => {}
            }
        }
        Some(all)
    }
}

/// An entry the referee accepted: its text, its events as JSON each with the seat it is for
/// (`None`: everybody), and the events for the bots.
pub struct Applied {
    /// The entry's text form (as stored).
    pub entry_text: String,
    /// The events as JSON, with their receiver.
    pub events: Vec<(Option<Seat>, Value)>,
    /// The events for the bots.
    pub for_bots: Events,
}

impl Applied {
    /// The events a seat (or a spectator, `None`) is told.
    pub fn events_for(&self, seat: Option<Seat>) -> Vec<Value> {
        self.events
            .iter()
            .filter(|(to, _)| to.is_none() || *to == seat)
            .map(|(_, v)| v.clone())
            .collect()
    }

    /// Every event, private ones too (a finished game's replay shows all).
    pub fn all_events(&self) -> Vec<Value> {
        self.events.iter().map(|(_, v)| v.clone()).collect()
    }

    /// The one seat with events of its own in this step, if any (a look's owner).
    pub fn private_seat(&self) -> Option<Seat> {
        self.events.iter().find_map(|(to, _)| *to)
    }
}

/// A 军棋 entry the referee accepted in `g`: every event is public.
fn junqi_applied(g: &Game, entry: Entry, events: Vec<Event>) -> Applied {
    let topo = g.record().topology();
    Applied {
        entry_text: entry.to_text(topo),
        events: events
            .iter()
            .map(|e| (None, junqi_core::json::event_to_json(topo, e)))
            .collect(),
        for_bots: Events::Junqi(events),
    }
}

/// A land-sea-air game at a table, with each seat's look notes.
#[derive(Clone, Debug)]
pub struct LsaTable {
    game: lsa::Game,
    notes: [LookNotes; 2],
}

impl LsaTable {
    /// Replay a record, following each seat's notes.
    fn from_record(record: lsa::Record) -> Result<LsaTable, String> {
        let mut t = LsaTable {
            game: lsa::Game::start(record.mode, record.start.clone(), record.options)?,
            notes: Default::default(),
        };
        for e in record.entries {
            t.apply(e).map_err(|x| x.to_string())?;
        }
        Ok(t)
    }

    fn apply(&mut self, entry: lsa::Entry) -> Result<Vec<lsa::Event>, lsa::GameError> {
        let events = self.game.apply(entry)?;
        let events: Vec<lsa::Event> = events.iter().collect();
        for s in [Side::South, Side::North] {
            let mine: Vec<lsa::Event> = lsa::events_for(lsa::Observer::Seat(s), &events).collect();
            self.notes[s as usize].follow(&mine);
        }
        Ok(events)
    }

    fn applied(&self, entry: lsa::Entry, events: Vec<lsa::Event>) -> Applied {
        let receiver = |e: &lsa::Event| {
            if lsa::Observer::Spectator.receives(e) {
                None
            } else {
                [0, 1]
                    .into_iter()
                    .find(|&s| lsa::Observer::Seat(side(s)).receives(e))
            }
        };
        Applied {
            entry_text: entry.to_text(),
            events: events
                .iter()
                .filter_map(|e| lsa::json::event_to_json(e).map(|v| (receiver(e), v)))
                .collect(),
            for_bots: Events::Lsa(events),
        }
    }
}

/// The game at a table.
#[derive(Clone, Debug)]
pub enum TableGame {
    /// 军棋.
    Junqi(Box<Game>),
    /// 陆海空三军棋.
    Lsa(Box<LsaTable>),
}

impl TableGame {
    /// A game from the seats' layouts (flip: dealt, the layouts unused); `first` moves first.
    /// A 军棋 game's record keeps `table`, the table rules the referee needs (RULES §10).
    pub fn start(
        rules: &GameRules,
        table: TableRules,
        layouts: &[Layout],
        first: Seat,
        rng: &mut impl Rng,
    ) -> Result<TableGame, String> {
        let junqi = |g: Game| {
            g.with_table_rules(table)
                .map(|g| TableGame::Junqi(Box::new(g)))
        };
        match rules {
            GameRules::Junqi(r) if r.is_flip() => Game::new_dealt(*r, first, rng)
                .map_err(|e| e.to_string())
                .and_then(junqi),
            GameRules::Junqi(r) => {
                let ds: Vec<Deployment> = layouts
                    .iter()
                    .filter_map(|l| match l {
                        Layout::Junqi(d) => Some(*d),
                        Layout::Lsa(_) => None,
                    })
                    .collect();
                Game::new_from_deployments(*r, &ds, first)
                    .map_err(|e| e.to_string())
                    .and_then(junqi)
            }
            GameRules::Lsa(r) => {
                let [Layout::Lsa(south), Layout::Lsa(north)] = layouts else {
                    return Err("a land-sea-air game needs two land-sea-air layouts".into());
                };
                let game = lsa::Game::new(r.mode, r.options, *south, *north, side(first))?;
                Ok(TableGame::Lsa(Box::new(LsaTable {
                    game,
                    notes: Default::default(),
                })))
            }
        }
    }

    /// The game a stored record header (the record before any entry) starts.
    pub fn from_header(rules: &GameRules, header: &str) -> Result<TableGame, String> {
        match rules {
            GameRules::Junqi(_) => {
                Game::from_record(Record::from_text(header)?).map(|g| TableGame::Junqi(Box::new(g)))
            }
            GameRules::Lsa(_) => LsaTable::from_record(lsa::Record::from_text(header)?)
                .map(|t| TableGame::Lsa(Box::new(t))),
        }
    }

    /// The record as text (with the result once the game is over).
    pub fn record_text(&self) -> String {
        match self {
            TableGame::Junqi(g) => g.record().to_text(),
            TableGame::Lsa(t) => t.game.record().to_text(),
        }
    }

    /// The record as JSON (the formats' record object).
    pub fn record_json(&self) -> Value {
        match self {
            TableGame::Junqi(g) => g.record().to_json(),
            TableGame::Lsa(t) => t.game.record().to_json(),
        }
    }

    /// How many entries the record holds.
    pub fn entries(&self) -> usize {
        match self {
            TableGame::Junqi(g) => g.record().entries.len(),
            TableGame::Lsa(t) => t.game.record().entries.len(),
        }
    }

    /// Apply an entry through the referee; on a refusal nothing changes.
    pub fn apply(&mut self, entry: TableEntry) -> Result<Applied, Refusal> {
        match self {
            TableGame::Junqi(g) => {
                let entry = entry.junqi()?;
                let events = g.apply(entry).map_err(Refusal::Illegal)?;
                Ok(junqi_applied(g, entry, events))
            }
            TableGame::Lsa(t) => {
                let entry = entry.lsa()?;
                let events = t.apply(entry).map_err(|e| Refusal::Rules(e.to_string()))?;
                Ok(t.applied(entry, events))
            }
        }
    }

    /// Apply a stored entry (its text form).
    pub fn apply_text(&mut self, text: &str) -> Result<Applied, String> {
        match self {
            TableGame::Junqi(g) => {
                let entry = Entry::from_text(g.record().topology(), text)?;
                let events = g.apply(entry).map_err(|e| e.to_string())?;
                Ok(junqi_applied(g, entry, events))
            }
            TableGame::Lsa(t) => {
                let entry = lsa::Entry::from_text(t.game.position(), text)?;
                let events = t.apply(entry).map_err(|e| e.to_string())?;
                Ok(t.applied(entry, events))
            }
        }
    }

    /// Take back the last entry (it could not be stored).
    pub fn undo_last(&mut self) -> Result<(), String> {
        *self = match self {
            TableGame::Junqi(g) => {
                let mut record = g.record().clone();
                record.entries.pop();
                record.result = None;
                TableGame::Junqi(Box::new(Game::from_record(record)?))
            }
            TableGame::Lsa(t) => {
                let mut record = t.game.record();
                record.entries.pop();
                record.result = None;
                TableGame::Lsa(Box::new(LsaTable::from_record(record)?))
            }
        };
        Ok(())
    }

    /// An action text of the seat to move, read against the position.
    pub fn parse_action(&self, text: &str) -> Result<Move, Refusal> {
        match self {
            TableGame::Junqi(g) => action_from_text(g.record().topology(), text)
                .map(Move::Junqi)
                .map_err(Refusal::BadAction),
            TableGame::Lsa(t) => lsa::notation::action_from_text(t.game.position(), text)
                .map(Move::Lsa)
                .map_err(Refusal::BadAction),
        }
    }

    /// Whether the action is legal now.
    pub fn is_legal(&self, m: Move) -> bool {
        match (self, m) {
            (TableGame::Junqi(g), Move::Junqi(a)) => g.position().legal_actions().contains(&a),
            (TableGame::Lsa(t), Move::Lsa(a)) => t.game.position().is_legal(a),
            _ => false,
        }
    }

    /// The first legal action (what a failed bot plays).
    pub fn first_legal(&self) -> Option<Move> {
        match self {
            TableGame::Junqi(g) => g
                .position()
                .legal_actions()
                .first()
                .copied()
                .map(Move::Junqi),
            TableGame::Lsa(t) => t
                .game
                .position()
                .legal_actions()
                .iter()
                .next()
                .map(Move::Lsa),
        }
    }

    /// The seat to move.
    pub fn to_move(&self) -> Seat {
        match self {
            TableGame::Junqi(g) => g.position().to_move(),
            TableGame::Lsa(t) => t.game.position().to_move() as Seat,
        }
    }

    /// Plies played.
    pub fn plies(&self) -> u32 {
        match self {
            TableGame::Junqi(g) => g.position().plies(),
            TableGame::Lsa(t) => t.game.position().plies(),
        }
    }

    /// The outcome, once the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        match self {
            TableGame::Junqi(g) => g.position().outcome(),
            TableGame::Lsa(t) => t.game.outcome(),
        }
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.outcome().is_some()
    }

    /// Whether a seat is out of the game (land-sea-air: the loser of a won game).
    pub fn is_eliminated(&self, seat: Seat) -> bool {
        match self {
            TableGame::Junqi(g) => g.position().is_eliminated(seat),
            TableGame::Lsa(t) => matches!(t.game.position().status(),
                lsa::Status::Won { winner, .. } if winner != side(seat)),
        }
    }

    /// Whether a seat left the game for good (逃跑: a `leave` entry in the record).
    pub fn has_left(&self, seat: Seat) -> bool {
        match self {
            TableGame::Junqi(g) => g.record().entries.contains(&Entry::Leave(seat)),
            TableGame::Lsa(t) => t
                .game
                .record()
                .entries
                .contains(&lsa::Entry::Leave(side(seat))),
        }
    }

    /// The view of an observer as JSON (the core's redaction).
    pub fn observation_json(&self, observer: Observer) -> Value {
        match self {
            TableGame::Junqi(g) => g.position().observe(observer).to_json(),
            TableGame::Lsa(t) => lsa::json::view_to_json(
                &t.game
                    .position()
                    .view(t.game.mode(), lsa_observer(observer)),
            ),
        }
    }

    /// What a land-sea-air seat's looks have seen, where those pieces stand now
    /// (`[{"at", "role"}]`); `None` for a 军棋 game.
    pub fn notes_json(&self, seat: Seat) -> Option<Value> {
        match self {
            TableGame::Junqi(_) => None,
            TableGame::Lsa(t) => Some(Value::Array(
                t.notes[side(seat) as usize]
                    .iter()
                    .map(|(at, role)| json!({"at": at.to_string(), "role": role.name()}))
                    .collect(),
            )),
        }
    }

    /// A seat's view as its bot reads it.
    pub fn bot_view(&self, seat: Seat) -> BotView {
        match self {
            TableGame::Junqi(g) => BotView::Junqi(g.position().observe(Observer::Seat(seat))),
            TableGame::Lsa(t) => BotView::Lsa(Box::new(
                t.game
                    .position()
                    .view(t.game.mode(), lsa::Observer::Seat(side(seat))),
            )),
        }
    }

    /// The rating placings of a finished game (one per team, 0 best), `None` if it is not rated
    /// (aborted, or not over).
    pub fn placings(&self) -> Result<Option<Vec<u32>>, String> {
        match self {
            TableGame::Junqi(g) => crate::rating::placings(g.record()),
            TableGame::Lsa(t) => Ok(match t.game.outcome() {
                Some(o @ Outcome::Win { .. }) => Some(if o.winners().contains(&0) {
                    vec![0, 1]
                } else {
                    vec![1, 0]
                }),
                Some(Outcome::Draw { .. }) => Some(vec![0, 0]),
                Some(Outcome::Aborted) | None => None,
            }),
        }
    }
}

/// A seat's view as a bot reads it.
pub enum BotView {
    /// A 军棋 observation.
    Junqi(Observation),
    /// A land-sea-air view.
    Lsa(Box<lsa::View>),
}

/// A bot of either game.
pub enum TableBot {
    /// A 军棋 bot.
    Junqi(Box<dyn Bot>),
    /// A land-sea-air player.
    Lsa(Box<dyn LsaBot>),
}

impl TableBot {
    /// The bot `name` names for this game, starting a game at `seat`; `None` if no bot of that
    /// name plays it.
    pub fn make(name: &str, rules: &GameRules, seat: Seat, seed: u64) -> Option<TableBot> {
        match rules {
            GameRules::Junqi(r) => {
                let mut b = junqi_ai::bot_by_name(name)?();
                b.new_game(r, seat, seed);
                Some(TableBot::Junqi(b))
            }
            GameRules::Lsa(r) => {
                let mut b = bot_by_spec(name).ok()?();
                b.new_game(&r.options, side(seat), seed);
                Some(TableBot::Lsa(b))
            }
        }
    }

    /// The random player, which cannot fail: it stands in for a bot that failed, told the game
    /// so far as `view` shows it.
    pub fn stand_in(rules: &GameRules, seat: Seat, view: Option<&BotView>) -> TableBot {
        let mut b = match rules {
            GameRules::Junqi(r) => {
                let mut b: Box<dyn Bot> = Box::new(RandomBot::default());
                b.new_game(r, seat, rand::random());
                TableBot::Junqi(b)
            }
            GameRules::Lsa(r) => {
                let mut b: Box<dyn LsaBot> = Box::new(LsaRandomBot::default());
                b.new_game(&r.options, side(seat), rand::random());
                TableBot::Lsa(b)
            }
        };
        if let Some(v) = view {
            b.observe(None, v);
        }
        b
    }

    /// The bot's name.
    pub fn name(&self) -> String {
        match self {
            TableBot::Junqi(b) => b.name(),
            TableBot::Lsa(b) => b.name(),
        }
    }

    /// The bot's layout for `seat`, checked against the rules.
    pub fn deploy(&mut self, rules: &GameRules, seat: Seat) -> Result<Layout, String> {
        let layout = match self {
            TableBot::Junqi(b) => b.deploy().map(Layout::Junqi),
            TableBot::Lsa(b) => b.deploy().map(Layout::Lsa),
        }
        .map_err(|e| e.0)?;
        if layout.fits(rules, seat) {
            Ok(layout)
        } else {
            Err(format!("the bot's layout does not fit seat {seat}"))
        }
    }

    /// Tell the bot of a step (`None`: no step, just the view) and its seat's view after it.
    /// A land-sea-air bot hears only what its seat receives.
    pub fn observe(&mut self, events: Option<&Events>, view: &BotView) {
        match (self, view) {
            (TableBot::Junqi(b), BotView::Junqi(obs)) => {
                let events = match events {
                    Some(Events::Junqi(e)) => e.as_slice(),
                    _ => &[],
                };
                b.observe(events, obs);
            }
            (TableBot::Lsa(b), BotView::Lsa(view)) => {
                let lsa::Observer::Seat(me) = view.observer else {
                    return;
                };
                let mine: Vec<lsa::Event> = match events {
                    Some(Events::Lsa(e)) => lsa::events_for(lsa::Observer::Seat(me), e).collect(),
                    _ => Vec::new(),
                };
                b.observe(&mine, view);
            }
            _ => {}
        }
    }

    /// The bot's choice for its seat, to move in `view`.
    pub fn choose(&mut self, view: &BotView, budget: Budget) -> Result<Move, String> {
        match (self, view) {
            (TableBot::Junqi(b), BotView::Junqi(obs)) => {
                b.choose(obs, budget).map(Move::Junqi).map_err(|e| e.0)
            }
            (TableBot::Lsa(b), BotView::Lsa(view)) => {
                b.choose(view, budget).map(Move::Lsa).map_err(|e| e.0)
            }
            _ => Err("a view of the other game".into()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    fn lsa_rules() -> GameRules {
        GameRules::parse(LSA_BOARD, "dark", None).unwrap()
    }

    #[test]
    fn rules_read_both_games_and_refuse_what_neither_has() {
        let r = lsa_rules();
        assert_eq!(
            (r.seats(), r.board_name(), r.mode_name()),
            (2, LSA_BOARD, "dark")
        );
        assert!(r.has_bot("普通") && r.has_bot("search") && !r.has_bot("search-2026"));
        let t = GameRules::parse(LSA_BOARD, "open", Some(&json!({"piece_set": "taiwan"}))).unwrap();
        assert_eq!(t.options_json(), json!({"piece_set": "taiwan"}));
        assert!(GameRules::parse(LSA_BOARD, "flip", None).is_err());
        assert!(GameRules::parse(LSA_BOARD, "dark", Some(&json!({"bogus": 1}))).is_err());
        let four = GameRules::parse("four_player", "dark", None).unwrap();
        assert_eq!(four.seats(), 4);
        assert!(GameRules::parse("nine_player", "dark", None).is_err());
    }

    #[test]
    fn a_look_is_told_to_its_owner_only_and_stays_in_its_notes() {
        let rules = lsa_rules();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        let layouts: Vec<Layout> = (0..2)
            .map(|s| Layout::fallback(&rules, s, &mut rng))
            .collect();
        let mut game =
            TableGame::start(&rules, TableRules::default(), &layouts, 0, &mut rng).unwrap();
        let header = game.record_text();
        let mut looked = false;
        let mut texts = Vec::new();
        while !game.is_over() && game.plies() < 400 {
            let TableGame::Lsa(t) = &game else {
                unreachable!()
            };
            let legal = t.game.position().legal_actions();
            let pick = legal
                .iter()
                .find(|a| a.to_string().starts_with("scout"))
                .unwrap_or_else(|| legal.as_slice()[rng.gen_range(0..legal.as_slice().len())]);
            let seat = game.to_move();
            // As a client sends it: the action's text, read back against the position.
            let action = game.parse_action(&pick.to_string()).unwrap();
            assert_eq!(action, Move::Lsa(pick), "{pick}");
            let applied = game.apply(TableEntry::Action { seat, action }).unwrap();
            texts.push(applied.entry_text.clone());
            if let Some(owner) = applied.private_seat() {
                looked = true;
                assert_eq!(owner, seat, "a look's result is its scout's owner's");
                let other = applied.events_for(Some(1 - seat));
                assert!(
                    other.iter().all(|e| e["kind"] != "scouted_private"),
                    "{other:?}"
                );
                assert!(applied
                    .events_for(None)
                    .iter()
                    .all(|e| e["kind"] != "scouted_private"));
                let seen = applied
                    .events_for(Some(seat))
                    .into_iter()
                    .find(|e| e["kind"] == "scouted_private")
                    .unwrap();
                let notes = game.notes_json(seat).unwrap();
                assert!(
                    notes
                        .as_array()
                        .unwrap()
                        .iter()
                        .any(|n| n["at"] == seen["at"]),
                    "{notes}"
                );
            }
        }
        assert!(looked, "the game had a look");
        // A resume from the stored header and entries has the same notes and position.
        let mut again = TableGame::from_header(&rules, &header).unwrap();
        for t in &texts {
            again.apply_text(t).unwrap();
        }
        for s in 0..2 {
            assert_eq!(again.notes_json(s), game.notes_json(s));
            assert_eq!(
                again.observation_json(Observer::Seat(s)),
                game.observation_json(Observer::Seat(s))
            );
        }
        let before = game.observation_json(Observer::Referee);
        if !game.is_over() {
            let seat = game.to_move();
            game.apply(TableEntry::Resign(seat)).unwrap();
            game.undo_last().unwrap();
            assert_eq!(game.observation_json(Observer::Referee), before, "undone");
        }
    }

    #[test]
    fn layouts_are_checked_for_their_seat_and_the_board() {
        let rules = lsa_rules();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(2);
        let south = Layout::fallback(&rules, 0, &mut rng);
        let text = south.to_text();
        assert_eq!(Layout::parse(&rules, 0, &text).unwrap(), south);
        assert!(
            Layout::parse(&rules, 1, &text).is_err(),
            "South's squares are not North's"
        );
        assert!(Layout::parse(&rules, 0, "e1=flag").is_err());
        assert!(!south.fits(&rules, 1));
        let junqi = GameRules::parse("two_player", "dark", None).unwrap();
        assert!(!south.fits(&junqi, 0));
        assert!(Layout::suggested(&junqi, 0, &mut rng).is_none());
        assert!(Layout::suggested(&rules, 1, &mut rng)
            .unwrap()
            .fits(&rules, 1));
    }

    #[test]
    fn bots_play_their_own_game_and_a_stand_in_takes_over() {
        let rules = lsa_rules();
        let mut bot = TableBot::make("heuristic", &rules, 1, 3).unwrap();
        assert!(TableBot::make("search-2026", &rules, 1, 3).is_none());
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(4);
        let north = bot.deploy(&rules, 1).unwrap();
        let south = Layout::fallback(&rules, 0, &mut rng);
        let mut game =
            TableGame::start(&rules, TableRules::default(), &[south, north], 1, &mut rng).unwrap();
        bot.observe(None, &game.bot_view(1));
        let m = bot.choose(&game.bot_view(1), Budget::default()).unwrap();
        assert!(game.is_legal(m));
        game.apply(TableEntry::Action { seat: 1, action: m })
            .unwrap();
        let mut stand_in = TableBot::stand_in(&rules, 0, Some(&game.bot_view(0)));
        assert_eq!(stand_in.name(), "random");
        let m = stand_in
            .choose(&game.bot_view(0), Budget::default())
            .unwrap();
        assert!(game.is_legal(m));
    }
}
