//! Why the server refuses something: one enum whose variants carry the seat, the field or the
//! core's own reason. Every refusal has a stable `code` and JSON `args` (the client translates
//! by code), an English text (`Display`), and for HTTP a status. WebSocket `error` frames and
//! HTTP error bodies are both built from it, so the two never disagree.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::{json, Map, Value};
use std::fmt;

/// A refusal.
#[derive(Clone, Debug, PartialEq)]
pub enum Refusal {
    /// A frame or body that is not what the protocol says (the detail says what is wrong).
    BadRequest(String),
    /// A WebSocket frame over the size limit.
    FrameTooLarge {
        /// The limit in bytes.
        limit: usize,
    },
    /// An HTTP body over the size limit.
    BodyTooLarge {
        /// The limit in bytes.
        limit: usize,
    },
    /// A query parameter that is unknown, or whose value is not one the endpoint accepts.
    BadQuery {
        /// The parameter.
        param: String,
        /// The value given (empty for an unknown parameter's own name).
        value: String,
        /// What the endpoint accepts, in words.
        expected: String,
    },
    /// A binary WebSocket frame.
    BinaryFrame,
    /// Too many frames or requests.
    RateLimited {
        /// When to try again, in seconds.
        retry_after: u64,
    },
    /// The first frame was not `hello`.
    HelloFirst,
    /// `hello` a second time.
    HelloTwice,
    /// No table has this id.
    NoTable,
    /// The table exists but no server could run it just now (a cluster node taking it over
    /// from a dead one): try again shortly.
    TableUnavailable {
        /// Seconds to wait before trying again.
        retry_after: u64,
    },
    /// No table has this join code.
    NoCode,
    /// No finished game has this id.
    NoGame,
    /// `GET /api/boards/{board}` of a board that does not exist.
    NoBoard {
        /// The board asked for.
        board: String,
    },
    /// A record asked for before its game is over.
    RecordLater,
    /// A seat token that belongs to no seat of the table.
    UnknownSeatToken,
    /// A mode that the board does not have.
    NoMode {
        /// The mode.
        mode: String,
        /// The board.
        board: String,
    },
    /// A bad rule option or rule combination (the core's reason).
    BadRules(String),
    /// A value of the option `teams` that the board (and mode) does not play with (RULES §7.2,
    /// §9): unknown, `alternate`/`opposite` on the three-player board, `none` in half-open play.
    BadTeams {
        /// The value given (a JSON value that is not a string: its JSON text).
        teams: String,
        /// The board.
        board: &'static str,
        /// The mode.
        mode: &'static str,
        /// The values this board and mode play with.
        allowed: Vec<&'static str>,
    },
    /// A clock field outside its range.
    BadSeconds {
        /// The field.
        field: String,
    },
    /// A seat number outside the board.
    SeatMissing {
        /// The seat asked for.
        seat: u64,
        /// The seats the board has.
        seats: usize,
    },
    /// A bot name the server does not have.
    UnknownBot {
        /// The name asked for.
        name: String,
    },
    /// Too many open tables for this creator.
    TooManyTables {
        /// The limit.
        limit: usize,
    },
    /// A seat is empty at the start.
    SeatsEmpty,
    /// The game has not started.
    NotStarted,
    /// The game has started (seat changes, start).
    AlreadyStarted,
    /// The game is over.
    GameOver,
    /// Only the host may do that.
    HostOnly,
    /// A spectator tried to act.
    Watching,
    /// A seat is asked of a connection that has none.
    NoSeat,
    /// A connection that has a seat asked for another.
    HaveSeat,
    /// The seat is taken.
    SeatTaken {
        /// The seat.
        seat: u8,
    },
    /// The seat has no bot.
    NoBot {
        /// The seat.
        seat: u8,
    },
    /// Not this seat's turn.
    NotYourTurn {
        /// The seat to move.
        to_move: u8,
    },
    /// Resignation inside the opening window (RULES §10).
    ResignTooEarly {
        /// The window in seconds.
        seconds: u64,
    },
    /// The seat is out of the game.
    YouAreOut,
    /// The seat left the game for good (逃跑): it no longer talks at the table.
    SeatLeft,
    /// Leaving during deployment.
    NoLeaveDeploying,
    /// A layout outside the deployment phase.
    DeployClosed,
    /// A draw offer is already open.
    DrawOpen,
    /// No draw offer is open.
    NoDrawOffer,
    /// Accepting one's own draw offer.
    OwnDrawOffer,
    /// A layout the rules refuse (the core's reason, with its own code and args).
    Deployment(junqi_core::DeploymentError),
    /// An action the referee refuses (the core's reason, with its own code and args).
    Illegal(junqi_core::IllegalAction),
    /// An action text that names no action (`a2-a6`, `flip b3` are actions).
    BadAction(String),
    /// What the land-sea-air referee refuses (a layout or an entry), in its words.
    Rules(String),
    /// The database did not store it; nothing changed.
    StoreFailed,
    /// The server is busy (bounded queues are full).
    Busy,
    /// Something inside the server failed.
    Internal(String),
    /// A login with a wrong name or password (the same answer for an unknown name).
    WrongPassword,
    /// A name (or a look-alike of it) that a registered player has: `name` as asked, `owner`
    /// the registered player's name.
    NameTaken {
        /// The name asked for (as shown, NFKC).
        name: String,
        /// The registered player's name.
        owner: String,
    },
    /// A guest name that is (or looks like) a registered player's name.
    NameRegistered {
        /// The name asked for (as shown, NFKC).
        name: String,
        /// The registered player's name.
        owner: String,
    },
    /// A name the name policy refuses (its own `name.*` code and args).
    BadName(crate::names::NameError),
    /// A password not of [`PASSWORD_MIN`] to [`PASSWORD_MAX`] characters.
    BadPassword,
    /// Too many attempts of one kind (a login or registration throttle).
    Throttled {
        /// Which throttle.
        what: ThrottleKind,
        /// When to try again, in seconds.
        retry_after: u64,
    },
    /// The password hashing queue is full.
    HashingBusy {
        /// When to try again, in seconds.
        retry_after: u64,
    },
    /// A request that needs a session and has no `Authorization: Bearer` token.
    NoSession,
    /// A session token that is unknown or expired (or none).
    BadSession,
    /// No player has this name (or id).
    NoPlayer,
    /// A chat message longer than its limit (after hidden characters are removed).
    ChatTooLong {
        /// The most characters.
        max: usize,
    },
    /// A chat message with nothing to show.
    ChatEmpty,
    /// Chat messages faster than a connection's allowance.
    ChatRateLimited {
        /// When to try again, in seconds.
        retry_after: u64,
    },
    /// Chat is off at this table (a game against the computer).
    ChatOff,
    /// A quick phrase id the server does not have.
    ChatUnknownPhrase {
        /// The id asked for.
        phrase: String,
    },
    /// A rematch asked for before the game is over.
    RematchNotOver,
    /// This table already had its rematch.
    RematchDone,
    /// A person of the game is no longer at the table.
    RematchLeft {
        /// Their seat.
        seat: u8,
    },
}

/// The fewest characters of a password.
pub const PASSWORD_MIN: usize = 8;
/// The most bytes of a password.
pub const PASSWORD_MAX: usize = 256;

/// The account throttles ([`Refusal::Throttled`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ThrottleKind {
    /// Registration attempts from one network address.
    RegistrationsPerAddress,
    /// Failed logins from one network address.
    LoginsPerAddress,
    /// Failed logins for one account name.
    LoginsPerName,
    /// Guest players made for one network address.
    GuestsPerAddress,
}

impl ThrottleKind {
    /// The name in `args.what`.
    pub fn name(self) -> &'static str {
        match self {
            ThrottleKind::RegistrationsPerAddress => "registrations_per_address",
            ThrottleKind::LoginsPerAddress => "logins_per_address",
            ThrottleKind::LoginsPerName => "logins_per_name",
            ThrottleKind::GuestsPerAddress => "guests_per_address",
        }
    }

    fn words(self) -> &'static str {
        match self {
            ThrottleKind::RegistrationsPerAddress => "registrations from your network address",
            ThrottleKind::LoginsPerAddress => "failed logins from your network address",
            ThrottleKind::LoginsPerName => "failed logins for this name",
            ThrottleKind::GuestsPerAddress => "guest players made from your network address",
        }
    }
}

impl Refusal {
    /// The stable code the client translates.
    pub fn code(&self) -> &'static str {
        use Refusal::*;
        match self {
            BadRequest(_) => "request.bad",
            FrameTooLarge { .. } => "request.frame_too_large",
            BodyTooLarge { .. } => "request.body_too_large",
            BadQuery { .. } => "request.bad_query",
            BinaryFrame => "request.binary_frame",
            RateLimited { .. } => "request.rate_limited",
            HelloFirst => "request.hello_first",
            HelloTwice => "request.hello_twice",
            NoTable => "table.not_found",
            TableUnavailable { .. } => "table.unavailable",
            NoCode => "table.code_not_found",
            NoGame => "game.not_found",
            NoBoard { .. } => "board.not_found",
            RecordLater => "game.record_later",
            UnknownSeatToken => "table.unknown_seat_token",
            NoMode { .. } => "setup.no_mode",
            BadRules(_) => "setup.bad_rules",
            BadTeams { .. } => "setup.bad_teams",
            BadSeconds { .. } => "setup.bad_seconds",
            SeatMissing { .. } => "setup.seat_missing",
            UnknownBot { .. } => "setup.unknown_bot",
            TooManyTables { .. } => "setup.too_many_tables",
            SeatsEmpty => "table.seats_empty",
            NotStarted => "table.not_started",
            AlreadyStarted => "table.already_started",
            GameOver => "table.game_over",
            HostOnly => "table.host_only",
            Watching => "table.watching",
            NoSeat => "table.no_seat",
            HaveSeat => "table.have_seat",
            SeatTaken { .. } => "table.seat_taken",
            NoBot { .. } => "table.no_bot",
            NotYourTurn { .. } => "table.not_your_turn",
            ResignTooEarly { .. } => "table.resign_too_early",
            YouAreOut => "table.out_of_game",
            SeatLeft => "table.seat_left",
            NoLeaveDeploying => "table.no_leave_deploying",
            DeployClosed => "table.deploy_closed",
            DrawOpen => "table.draw_open",
            NoDrawOffer => "table.no_draw_offer",
            OwnDrawOffer => "table.own_draw_offer",
            Deployment(e) => e.code(),
            Illegal(e) => e.code(),
            BadAction(_) => "action.bad_text",
            Rules(_) => "rules.refused",
            StoreFailed => "server.store_failed",
            Busy => "server.busy",
            Internal(_) => "server.internal",
            WrongPassword => "account.wrong_password",
            NameTaken { .. } => "account.name_taken",
            NameRegistered { .. } => "account.name_registered",
            BadName(e) => e.code(),
            BadPassword => "account.bad_password",
            Throttled { .. } => "account.throttled",
            HashingBusy { .. } => "account.hashing_busy",
            NoSession => "account.no_session",
            BadSession => "account.bad_session",
            NoPlayer => "player.not_found",
            ChatTooLong { .. } => "chat.too_long",
            ChatEmpty => "chat.empty",
            ChatRateLimited { .. } => "chat.rate_limited",
            ChatOff => "chat.off",
            ChatUnknownPhrase { .. } => "chat.unknown_phrase",
            RematchNotOver => "rematch.not_over",
            RematchDone => "rematch.done",
            RematchLeft { .. } => "rematch.left",
        }
    }

    /// The variant's data, as JSON.
    pub fn args(&self) -> Map<String, Value> {
        use Refusal::*;
        let v = match self {
            BadRequest(d) | BadRules(d) | BadAction(d) | Rules(d) | Internal(d) => {
                json!({"detail": d})
            }
            Deployment(e) => Value::Object(e.args()),
            Illegal(e) => Value::Object(e.args()),
            BadName(e) => Value::Object(e.args()),
            NameTaken { name, owner } | NameRegistered { name, owner } => {
                json!({"name": name, "owner": owner})
            }
            BadPassword => json!({"min": PASSWORD_MIN, "max": PASSWORD_MAX}),
            Throttled { what, retry_after } => {
                json!({"what": what.name(), "retry_after": retry_after})
            }
            HashingBusy { retry_after } => json!({"retry_after": retry_after}),
            FrameTooLarge { limit } | BodyTooLarge { limit } => json!({"limit": limit}),
            RateLimited { retry_after }
            | ChatRateLimited { retry_after }
            | TableUnavailable { retry_after } => {
                json!({"retry_after": retry_after})
            }
            ChatTooLong { max } => json!({"max": max}),
            ChatUnknownPhrase { phrase } => {
                json!({"phrase": phrase, "phrases": crate::table::CHAT_PHRASES})
            }
            RematchLeft { seat } => json!({"seat": seat}),
            BadQuery {
                param,
                value,
                expected,
            } => json!({"param": param, "value": value, "expected": expected}),
            NoMode { mode, board } => json!({"mode": mode, "board": board}),
            BadTeams {
                teams,
                board,
                mode,
                allowed,
            } => json!({"teams": teams, "board": board, "mode": mode, "allowed": allowed}),
            BadSeconds { field } => json!({"field": field}),
            NoBoard { board } => json!({"board": board}),
            SeatMissing { seat, seats } => json!({"seat": seat, "max": seats.saturating_sub(1)}),
            UnknownBot { name } => json!({"name": name, "bots": junqi_ai::bot_names()}),
            TooManyTables { limit } => json!({"limit": limit}),
            SeatTaken { seat } | NoBot { seat } => json!({"seat": seat}),
            NotYourTurn { to_move } => json!({"seat": to_move}),
            ResignTooEarly { seconds } => json!({"seconds": seconds}),
            _ => json!({}),
        };
        match v {
            Value::Object(m) => m,
            _ => Map::new(),
        }
    }

    /// The HTTP status of this refusal.
    pub fn status(&self) -> StatusCode {
        use Refusal::*;
        match self {
            NoTable | NoCode | NoGame | NoBoard { .. } | NoPlayer => StatusCode::NOT_FOUND,
            RecordLater | HostOnly | Watching | ChatOff => StatusCode::FORBIDDEN,
            WrongPassword | NoSession | BadSession => StatusCode::UNAUTHORIZED,
            NameTaken { .. } => StatusCode::CONFLICT,
            BodyTooLarge { .. } | FrameTooLarge { .. } => StatusCode::PAYLOAD_TOO_LARGE,
            RateLimited { .. }
            | TooManyTables { .. }
            | Throttled { .. }
            | ChatRateLimited { .. } => StatusCode::TOO_MANY_REQUESTS,
            Busy | HashingBusy { .. } | TableUnavailable { .. } => StatusCode::SERVICE_UNAVAILABLE,
            StoreFailed | Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
            _ => StatusCode::BAD_REQUEST,
        }
    }

    /// Seconds until a retry may succeed (the `Retry-After` header), for the refusals that say.
    pub fn retry_after(&self) -> Option<u64> {
        match self {
            Refusal::RateLimited { retry_after }
            | Refusal::Throttled { retry_after, .. }
            | Refusal::HashingBusy { retry_after }
            | Refusal::TableUnavailable { retry_after }
            | Refusal::ChatRateLimited { retry_after } => Some(*retry_after),
            _ => None,
        }
    }

    /// The JSON of this refusal: `{"reason" or "error": text, "code", "args"}` (`key` names
    /// the text's field: `reason` in WebSocket frames, `error` in HTTP bodies).
    pub fn to_json(&self, key: &str) -> Value {
        let mut v = json!({"code": self.code(), "args": Value::Object(self.args())});
        v[key] = Value::from(self.to_string());
        v
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Refusal::*;
        match self {
            BadRequest(d) => write!(f, "{d}"),
            FrameTooLarge { limit } => write!(f, "frame too large (the limit is {limit} bytes)"),
            BodyTooLarge { limit } => write!(f, "request too large (the limit is {limit} bytes)"),
            BadQuery {
                param,
                value,
                expected,
            } => write!(
                f,
                "bad query parameter {param}={value:?}: expected {expected}"
            ),
            BinaryFrame => write!(f, "binary frames are not accepted: send JSON text"),
            RateLimited { retry_after } => {
                write!(f, "rate limited: try again in {retry_after} s")
            }
            HelloFirst => write!(f, "send hello first"),
            HelloTwice => write!(f, "hello was already sent"),
            NoTable => write!(f, "no such table"),
            TableUnavailable { retry_after } => write!(
                f,
                "the table is moving to another server: try again in {retry_after} s"
            ),
            NoCode => write!(f, "no table has this code"),
            NoGame => write!(f, "no such game"),
            NoBoard { board } => write!(
                f,
                "unknown board {board:?} (expected two_player, three_player, four_player or six_player)"
            ),
            RecordLater => write!(f, "the record is published once the game is over"),
            UnknownSeatToken => write!(f, "unknown seat token: you are watching"),
            NoMode { mode, board } => write!(f, "mode {mode} does not exist on the {board} board"),
            BadRules(d) => write!(f, "{d}"),
            BadTeams {
                teams,
                board,
                mode,
                allowed,
            } => write!(
                f,
                "teams {teams:?} is not played on the {board} board in {mode} mode (expected {})",
                allowed.join(" or ")
            ),
            BadSeconds { field } => {
                write!(f, "{field} must be a number of seconds from 0 to 3600")
            }
            SeatMissing { seats, .. } => write!(
                f,
                "seat must be a seat number from 0 to {}",
                seats.saturating_sub(1)
            ),
            UnknownBot { name } => write!(
                f,
                "no bot named {name:?} (bots: {})",
                junqi_ai::bot_names().join(", ")
            ),
            TooManyTables { limit } => write!(
                f,
                "you already have {limit} open tables: play or leave one before creating another"
            ),
            SeatsEmpty => write!(
                f,
                "every seat must be taken (by a person or a bot) to start"
            ),
            NotStarted => write!(f, "the game has not started"),
            AlreadyStarted => write!(f, "the game has already started"),
            GameOver => write!(f, "the game is over"),
            HostOnly => write!(f, "only the host may do that"),
            Watching => write!(f, "you are watching: you have no seat at this table"),
            NoSeat => write!(f, "you have no seat at this table"),
            HaveSeat => write!(f, "you already have a seat"),
            SeatTaken { seat } => write!(f, "seat {seat} is taken"),
            NoBot { seat } => write!(f, "seat {seat} has no bot"),
            NotYourTurn { to_move } => write!(f, "it is seat {to_move}'s turn, not yours"),
            ResignTooEarly { seconds } => write!(
                f,
                "resignation is refused in the first {seconds} seconds of play"
            ),
            YouAreOut => write!(f, "you are out of the game"),
            SeatLeft => write!(f, "you left this game: you can watch it, not talk at it"),
            NoLeaveDeploying => write!(
                f,
                "you cannot leave during deployment (the deployment clock deploys for you)"
            ),
            DeployClosed => write!(
                f,
                "deployment is not open (it comes after the start and before play)"
            ),
            DrawOpen => write!(f, "a draw offer is already open"),
            NoDrawOffer => write!(f, "there is no draw offer"),
            OwnDrawOffer => write!(
                f,
                "this is your own draw offer: the other players must accept it"
            ),
            Deployment(e) => write!(f, "{e}"),
            Illegal(e) => write!(f, "{e}"),
            BadAction(d) => write!(f, "{d}"),
            Rules(d) => write!(f, "{d}"),
            StoreFailed => write!(f, "the server could not store this; try again"),
            Busy => write!(f, "the server is busy: try again in a moment"),
            Internal(d) => write!(f, "internal error: {d}"),
            WrongPassword => write!(f, "wrong name or password"),
            NameTaken { name, owner } if name == owner => write!(f, "the name {owner} is taken"),
            NameTaken { name, owner } => write!(
                f,
                "the name {name} is taken: it is the same name as {owner}"
            ),
            NameRegistered { name, owner } => write!(
                f,
                "the name {name} is the registered player {owner}'s name; choose another or log in"
            ),
            BadName(e) => write!(f, "{e}"),
            BadPassword => write!(
                f,
                "a password has {PASSWORD_MIN} to {PASSWORD_MAX} characters"
            ),
            Throttled { what, retry_after } => write!(
                f,
                "too many {}; try again in {retry_after} seconds",
                what.words()
            ),
            HashingBusy { .. } => write!(
                f,
                "the server is busy checking other passwords; try again in a few seconds"
            ),
            NoSession => write!(f, "no session"),
            BadSession => write!(f, "no valid session"),
            NoPlayer => write!(f, "no such player"),
            ChatTooLong { max } => write!(f, "a chat message has at most {max} characters"),
            ChatEmpty => write!(f, "the chat message is empty"),
            ChatRateLimited { retry_after } => write!(
                f,
                "you are chatting too fast; try again in {retry_after} seconds"
            ),
            ChatOff => write!(f, "chat is off at this table (a game against the computer)"),
            ChatUnknownPhrase { phrase } => write!(f, "there is no quick phrase {phrase:?}"),
            RematchNotOver => write!(f, "a rematch can be asked for once the game is over"),
            RematchDone => write!(f, "this game already had its rematch"),
            RematchLeft { seat } => write!(
                f,
                "the player at seat {seat} has left the table: no rematch"
            ),
        }
    }
}

impl std::error::Error for Refusal {}

/// A refusal answered over HTTP: the status and `{"error", "code", "args"}`; a rate limit, a
/// throttle and a full hashing queue also get `Retry-After`.
impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        let status = self.status();
        let body = axum::Json(self.to_json("error"));
        match self.retry_after() {
            Some(secs) => (
                status,
                [(axum::http::header::RETRY_AFTER, secs.to_string())],
                body,
            )
                .into_response(),
            None => (status, body).into_response(),
        }
    }
}

impl From<crate::names::NameError> for Refusal {
    fn from(e: crate::names::NameError) -> Refusal {
        Refusal::BadName(e)
    }
}

/// An `error` frame (with the client's request id, if any).
pub fn error_frame(r: &Refusal, id: Option<&Value>) -> String {
    let mut v = r.to_json("reason");
    v["type"] = Value::from("error");
    if let Some(id) = id {
        v["id"] = id.clone();
    }
    v.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_carry_code_args_and_text() {
        let f: Value = serde_json::from_str(&error_frame(
            &Refusal::NotYourTurn { to_move: 2 },
            Some(&json!(7)),
        ))
        .unwrap();
        assert_eq!(f["type"], "error");
        assert_eq!(f["code"], "table.not_your_turn");
        assert_eq!(f["args"]["seat"], 2);
        assert_eq!(f["reason"], "it is seat 2's turn, not yours");
        assert_eq!(f["id"], 7);
    }

    #[test]
    fn account_refusals_keep_their_texts_and_say_when_to_retry() {
        let t = Refusal::Throttled {
            what: ThrottleKind::LoginsPerName,
            retry_after: 9,
        };
        assert_eq!(t.code(), "account.throttled");
        assert_eq!(
            t.to_json("error"),
            json!({"error": "too many failed logins for this name; try again in 9 seconds",
                   "code": "account.throttled", "args": {"what": "logins_per_name", "retry_after": 9}})
        );
        let r = t.into_response();
        assert_eq!(r.status(), StatusCode::TOO_MANY_REQUESTS);
        assert_eq!(r.headers()[axum::http::header::RETRY_AFTER], "9");
        let taken = |name: &str| Refusal::NameTaken {
            name: name.into(),
            owner: "alice".into(),
        };
        assert_eq!(taken("alice").to_string(), "the name alice is taken");
        assert_eq!(
            taken("ALICE").to_string(),
            "the name ALICE is taken: it is the same name as alice"
        );
        assert_eq!(taken("ALICE").status(), StatusCode::CONFLICT);
        let bad = Refusal::from(crate::names::NameError::Length(1));
        assert_eq!(bad.code(), "name.length");
        assert_eq!(bad.args()["max"], 24);
        assert_eq!(bad.status(), StatusCode::BAD_REQUEST);
        assert_eq!(Refusal::WrongPassword.status(), StatusCode::UNAUTHORIZED);
        let busy = Refusal::HashingBusy { retry_after: 2 }.into_response();
        assert_eq!(busy.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(busy.headers()[axum::http::header::RETRY_AFTER], "2");
    }

    #[test]
    fn http_status_by_kind() {
        assert_eq!(Refusal::NoTable.status(), StatusCode::NOT_FOUND);
        assert_eq!(
            Refusal::RateLimited { retry_after: 3 }.status(),
            StatusCode::TOO_MANY_REQUESTS
        );
        let r = Refusal::RateLimited { retry_after: 3 }.into_response();
        assert_eq!(r.headers()[axum::http::header::RETRY_AFTER], "3");
    }
}
