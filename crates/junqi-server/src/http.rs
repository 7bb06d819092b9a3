//! The HTTP API of `docs/server-protocol.md` and the router. Request bodies are typed structs
//! read by [`Body`] (unknown fields and wrong types are refused, naming them); every refusal is
//! a [`Refusal`], answered as `{"error", "code", "args"}` with its status.

// Handlers answer errors as ready responses; their size does not matter on this path.
#![allow(clippy::result_large_err)]

use crate::app::{App, Player};
use crate::error::Refusal;
use crate::table::{
    GameRules, LeaverRule, Table, TableConfig, TableGame, TableSpec, DEFAULT_DEPLOY_MS,
    DEFAULT_MOVE_MS, LSA_BOARD,
};
use axum::body::Bytes;
use axum::extract::{ConnectInfo, FromRequest, Path, Query, Request, State, WebSocketUpgrade};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use junqi_core::json::outcome_to_json;
use junqi_core::{
    BoardKind, Mode, Observer, Options, Preset, Rules, Seat, SquareKind, Teams, Topology,
};
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Arc;

/// The largest request body accepted, in bytes.
pub const MAX_BODY: usize = 64 * 1024;

/// A JSON request body read into `T` (an empty body is `{}`): too large, not JSON, an unknown
/// field or a wrong type is a [`Refusal`] that says which.
pub(crate) struct Body<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for Body<T> {
    type Rejection = Refusal;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let bytes = Bytes::from_request(req, state)
            .await
            .map_err(|e| Refusal::BadRequest(format!("cannot read the body: {e}")))?;
        if bytes.len() > MAX_BODY {
            return Err(Refusal::BodyTooLarge { limit: MAX_BODY });
        }
        let bytes: &[u8] = match bytes.iter().find(|b| !b.is_ascii_whitespace()) {
            None => b"{}",
            // Serde would read a struct from an array too: a body is an object.
            Some(b'{') => &bytes,
            Some(_) => {
                return Err(Refusal::BadRequest(
                    "bad request body: the body must be a JSON object".into(),
                ))
            }
        };
        serde_json::from_slice(bytes)
            .map(Body)
            .map_err(|e| Refusal::BadRequest(format!("bad request body: {e}")))
    }
}

/// The token of an `Authorization: Bearer <token>` header. The scheme's name is
/// case-insensitive (RFC 9110 §11.1): `bearer` and `BEARER` are read as `Bearer`.
fn bearer_token(headers: &HeaderMap) -> Option<&str> {
    let auth = headers.get(header::AUTHORIZATION)?.to_str().ok()?.trim();
    let (scheme, token) = auth.split_once([' ', '\t'])?;
    let token = token.trim();
    (scheme.eq_ignore_ascii_case("bearer") && !token.is_empty()).then_some(token)
}

async fn session_player(app: &App, headers: &HeaderMap) -> Option<Player> {
    app.player_by_session(bearer_token(headers)?).await
}

/// The router of the whole service (the body limit is enforced before a handler reads; every
/// response is counted by status class for the metrics).
pub fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/healthz", get(healthz))
        .route("/readyz", get(readyz))
        .route("/metrics", get(metrics))
        .route("/api/info", get(info))
        .route("/api/boards/{board}", get(board))
        .route("/api/layouts", get(layout_families))
        .route("/api/layouts/{family}", get(family_layout))
        .route("/api/tables", get(list_tables).post(create_table))
        .route("/api/tables/{id}", get(get_table))
        .route("/api/join/{code}", get(join_code))
        .route("/api/play-computer", post(play_computer))
        .route("/api/guest", post(guest))
        .route("/api/register", post(register))
        .route("/api/login", post(login))
        .route("/api/me", get(me))
        .route("/api/logout", post(logout))
        .route("/api/players/{name}", get(player_page))
        .route("/api/leaderboard", get(leaderboard))
        .route("/api/games", get(games))
        .route("/api/games/{id}/record", get(record))
        .route("/api/games/{id}/replay", get(replay))
        .route("/ws/{id}", get(ws))
        .fallback(crate::web::static_file)
        .layer(axum::extract::DefaultBodyLimit::max(MAX_BODY + 1))
        .layer(axum::middleware::from_fn_with_state(
            app.clone(),
            count_status,
        ))
        .layer(axum::middleware::map_response(security_headers))
        .with_state(app)
}

/// The Content-Security-Policy of every response. The client is plain ES modules from this
/// server, styled by its own CSS files and by script (CSSOM, which the policy allows), drawing
/// with inline SVG and talking to this server alone (`'self'` covers its WebSocket); it is
/// never framed.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; \
style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; \
object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// Headers that keep a browser from sniffing content types, framing the site (clickjacking),
/// leaking table links in the referrer, or running script from anywhere but this server.
async fn security_headers(mut res: Response) -> Response {
    use axum::http::HeaderValue;
    let h = res.headers_mut();
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CONTENT_SECURITY_POLICY),
    );
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("same-origin"),
    );
    res
}

/// Counts each response by status class (`junqi_http_requests_total`).
async fn count_status(
    State(app): State<Arc<App>>,
    req: Request,
    next: axum::middleware::Next,
) -> Response {
    let res = next.run(req).await;
    app.metrics.http_response(res.status().as_u16());
    res
}

/// Liveness: answering at all is the check (the process runs and its event loop is free).
async fn healthz() -> Json<Value> {
    Json(json!({"ok": true}))
}

/// Readiness: 200 when every check passes and the server is not shutting down, else 503; the
/// body names each check and what failed (see [`crate::health`]).
async fn readyz(State(app): State<Arc<App>>) -> (StatusCode, Json<Value>) {
    let shutdown = |report: &mut crate::health::Report| {
        let error = app
            .shutdown
            .is_shutting_down()
            .then(|| "the server is shutting down".to_string());
        report.checks.insert(
            0,
            crate::health::CheckResult {
                name: "shutdown".into(),
                error,
            },
        );
    };
    let mut report = crate::health::Report { checks: Vec::new() };
    // A stopping server says so at once, without waiting on any check.
    if !app.shutdown.is_shutting_down() {
        let timeout = std::time::Duration::from_millis(app.settings.readiness_timeout_ms);
        report = app.readiness.run(timeout).await;
    }
    // Read after the checks: a shutdown that began meanwhile still turns the answer.
    shutdown(&mut report);
    let status = if report.ready() {
        StatusCode::OK
    } else {
        StatusCode::SERVICE_UNAVAILABLE
    };
    (status, Json(report.to_json()))
}

/// The Prometheus metrics, in the text format.
async fn metrics(State(app): State<Arc<App>>) -> Response {
    app.metrics.live_tables.set(app.live_tables() as i64);
    (
        [
            (header::CONTENT_TYPE, crate::metrics::CONTENT_TYPE),
            (header::CACHE_CONTROL, "no-store"),
        ],
        app.metrics.encode(),
    )
        .into_response()
}

async fn info(State(app): State<Arc<App>>) -> Json<Value> {
    Json(json!({
        "version": env!("CARGO_PKG_VERSION"),
        "bots": junqi_ai::bot_names(),
        "levels": junqi_ai::level_names(),
        "default_bot": app.settings.default_bot,
        "boards": ["two_player", "three_player", "four_player", "six_player", LSA_BOARD],
        "modes": {"two_player": ["dark", "open", "flip"], "three_player": ["dark", "open"],
                  "four_player": ["dark", "open", "half_open"], "six_player": ["dark", "open", "half_open"],
                  LSA_BOARD: ["dark", "open"]},
        "bots_of": {LSA_BOARD: junqi_ai::lsa::BOT_NAMES},
        "teams": {"three_player": ["none"], "four_player": ["alternate", "opposite", "none"],
                  "six_player": ["alternate", "opposite", "none"]},
        "seats": {"two_player": 2, "three_player": 3, "four_player": 4, "six_player": 6, LSA_BOARD: 2},
        "presets": presets_json(),
        "leaver": LeaverRule::NAMES,
        "defaults": {"move_seconds": DEFAULT_MOVE_MS / 1000, "deploy_seconds": DEFAULT_DEPLOY_MS / 1000,
                     "resign_after_seconds": crate::table::RESIGN_WINDOW_MS / 1000,
                     "return_seconds": crate::table::RETURN_WINDOW_MS / 1000},
    }))
}

/// Every board's rule presets (RULES §10.1) as the create form shows them: for each board, in
/// order, `{"name", "options", "leaver"}` with the options that differ from the board's dark-play
/// defaults and the table's leaving rule.
fn presets_json() -> Value {
    let mut boards = serde_json::Map::new();
    for board in BoardKind::ALL.iter().map(|b| b.name()).chain([LSA_BOARD]) {
        let list: Vec<Value> = Preset::for_board(board)
            .iter()
            .filter_map(|&p| {
                let options = if board == LSA_BOARD {
                    junqi_core::lsa::json::options_to_json(&p.lsa_options().ok()?)
                } else {
                    let kind: BoardKind = board.parse().ok()?;
                    p.options(kind, Mode::Dark).ok()?.to_json(kind, Mode::Dark)
                };
                let leaver = LeaverRule::from(p.table_rules().leaver);
                Some(json!({"name": p.name(), "options": options, "leaver": leaver.name()}))
            })
            .collect();
        boards.insert(board.to_string(), Value::Array(list));
    }
    Value::Object(boards)
}

/// The named layout families of the deployment editor (布阵方案; `junqi_ai::deploygen::FAMILIES`).
async fn layout_families() -> Json<Value> {
    Json(json!({"families": junqi_ai::deploygen::family_names()}))
}

/// A fresh layout of a named family, in the deployment text form (local squares: it fits any
/// seat of any 军棋 board); a new draw on every request.
async fn family_layout(Path(family): Path<String>) -> Result<Json<Value>, Refusal> {
    let mut rng = rand::thread_rng();
    let layout = junqi_ai::deploygen::family_layout(&family, &mut rng).ok_or_else(|| {
        Refusal::BadRequest(format!(
            "no layout family {family:?} (the families: {})",
            junqi_ai::deploygen::family_names().join(", ")
        ))
    })?;
    Ok(Json(
        json!({"family": family, "layout": layout.to_string()}),
    ))
}

async fn board(
    Path(board): Path<String>,
    Query(q): Query<HashMap<String, String>>,
) -> Result<Json<Value>, Refusal> {
    let kind: BoardKind = board.parse().map_err(|_| Refusal::NoBoard { board })?;
    let middle_rail = q.get("middle_crossing").map(|s| s.as_str()) != Some("road");
    let t = Topology::get(kind, middle_rail);
    let squares: Vec<Value> = t
        .squares()
        .map(|sq| {
            let (file, rank) = t.grid_coords(sq).unzip();
            let (x, y) = t.point(sq);
            let kind = match t.kind(sq) {
                SquareKind::Station => "station",
                SquareKind::Camp => "camp",
                SquareKind::Headquarters => "headquarters",
            };
            let home = t.home(sq).map(|h| json!({"seat": h.seat, "row": h.row, "col": h.col}));
            json!({"name": t.name(sq), "file": file, "rank": rank, "x": x, "y": y, "kind": kind, "rail": t.is_rail(sq), "home": home})
        })
        .collect();
    let mut edges = Vec::new();
    for a in t.squares() {
        for b in t.neighbours(a) {
            if a < b {
                edges.push(json!({"a": t.name(a), "b": t.name(b), "rail": t.rail_adjacent(a, b)}));
            }
        }
    }
    let (files, ranks) = match kind {
        BoardKind::TwoPlayer => (Some(5), Some(12)),
        BoardKind::ThreePlayer | BoardKind::FourPlayer => (Some(17), Some(17)),
        BoardKind::SixPlayer => (None, None),
    };
    Ok(Json(
        json!({"board": kind.name(), "files": files, "ranks": ranks, "squares": squares, "edges": edges}),
    ))
}

async fn list_tables(State(app): State<Arc<App>>) -> Result<Json<Value>, Refusal> {
    app.lobby().await.map(Json)
}

async fn get_table(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
) -> Result<Json<Value>, Refusal> {
    let h = app.table(&id).await?;
    let s = h.summary.lock().map(|s| s.clone()).unwrap_or(Value::Null);
    Ok(Json(s))
}

async fn join_code(
    State(app): State<Arc<App>>,
    Path(code): Path<String>,
) -> Result<Json<Value>, Refusal> {
    let id = app.id_of_code(&code).await.ok_or(Refusal::NoCode)?;
    get_table(State(app), Path(id)).await
}

/// A bot at a seat, in a create request.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct BotSeat {
    seat: u8,
    #[serde(default)]
    bot: Option<String>,
}

/// The body of `POST /api/tables` and `POST /api/play-computer`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct TableBody {
    #[serde(default)]
    board: Option<String>,
    #[serde(default)]
    mode: Option<String>,
    /// A rule preset (RULES §10.1): `standard`, `qq`, `taiwan`; `options` change it.
    #[serde(default)]
    preset: Option<String>,
    #[serde(default)]
    options: Option<serde_json::Map<String, Value>>,
    #[serde(default)]
    move_seconds: Option<u64>,
    #[serde(default)]
    deploy_seconds: Option<u64>,
    #[serde(default)]
    resign_after_seconds: Option<u64>,
    /// What leaving does (RULES §10): `abort`, `bot`, `partner_plays_on`; by default the
    /// preset's (QQ: the partner plays on), else `abort`.
    #[serde(default)]
    leaver: Option<String>,
    /// The older spelling of `leaver: "bot"`.
    #[serde(default)]
    leaver_replaced_by_bot: Option<bool>,
    #[serde(default)]
    private: Option<bool>,
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    seat: Option<u8>,
    /// `POST /api/tables`: bots to seat.
    #[serde(default)]
    bots: Option<Vec<BotSeat>>,
    /// `POST /api/play-computer`: the opponents' bot.
    #[serde(default)]
    bot: Option<String>,
}

/// Board, mode and options of a table to create: 陆海空三军棋 (`land_sea_air`, LANDSEAAIR.md) or
/// a 军棋 board (RULES.md, with its checks of mode and teams).
/// `options` is the request's, with its preset put in ([`options_with_preset`]).
fn parse_rules(
    b: &TableBody,
    options: Option<&serde_json::Map<String, Value>>,
) -> Result<GameRules, Refusal> {
    let board = b.board.as_deref().unwrap_or("two_player");
    if board == LSA_BOARD {
        let mode = b.mode.as_deref().unwrap_or("dark");
        if junqi_core::lsa::Mode::from_name(mode).is_err() {
            return Err(Refusal::NoMode {
                mode: mode.to_string(),
                board: board.to_string(),
            });
        }
        let options = options.cloned().map(Value::Object);
        return GameRules::parse(board, mode, options.as_ref()).map_err(Refusal::BadRules);
    }
    let board: BoardKind = board.parse().map_err(Refusal::BadRequest)?;
    let mode: Mode = b
        .mode
        .as_deref()
        .unwrap_or("dark")
        .parse()
        .map_err(Refusal::BadRequest)?;
    if !mode.allowed_on(board) {
        return Err(Refusal::NoMode {
            mode: mode.to_string(),
            board: board.to_string(),
        });
    }
    if let Some(v) = options.and_then(|o| o.get("teams")) {
        check_teams(board, mode, v)?;
    }
    let options = match options {
        None => Options::defaults(board, mode),
        Some(o) => Options::from_json(board, mode, Some(&Value::Object(o.clone())))
            .map_err(Refusal::BadRules)?,
    };
    Rules::new(board, mode, options)
        .map(GameRules::Junqi)
        .map_err(Refusal::BadRules)
}

/// The options object of a create request with the top-level `preset` put in it (the options'
/// readers start from a preset they name); both naming different presets is refused.
fn options_with_preset(b: &TableBody) -> Result<Option<serde_json::Map<String, Value>>, Refusal> {
    let Some(preset) = &b.preset else {
        return Ok(b.options.clone());
    };
    let options = b.options.clone().map(Value::Object);
    match junqi_core::preset::with_preset(options.as_ref(), preset) {
        Ok(Value::Object(m)) => Ok(Some(m)),
        Ok(_) => unreachable!("with_preset gives an object"),
        Err(e) => Err(Refusal::BadRules(e)),
    }
}

/// What leaving does at the table: `leaver` (or the older `leaver_replaced_by_bot`), else the
/// rule of the preset the options name (QQ: the partner plays on), else the rule book's abort.
/// Called once the rules parsed, so a preset named there is one of the board's.
fn parse_leaver(
    b: &TableBody,
    board: &str,
    options: Option<&serde_json::Map<String, Value>>,
) -> Result<LeaverRule, Refusal> {
    let named = match (&b.leaver, b.leaver_replaced_by_bot) {
        (Some(l), Some(bot)) if (l == "bot") != bot => {
            return Err(Refusal::BadRequest(format!(
                "leaver {l} and leaver_replaced_by_bot {bot} disagree"
            )))
        }
        (Some(l), _) => Some(LeaverRule::from_name(l).map_err(Refusal::BadRequest)?),
        (None, Some(true)) => Some(LeaverRule::Bot),
        (None, _) => None,
    };
    if let Some(l) = named {
        return Ok(l);
    }
    let preset = options
        .and_then(|o| o.get("preset"))
        .and_then(Value::as_str)
        .and_then(|p| Preset::from_name(p, board).ok());
    Ok(preset.map_or(LeaverRule::Abort, |p| p.table_rules().leaver.into()))
}

fn parse_config(b: &TableBody, default_move_ms: u64) -> Result<TableConfig, Refusal> {
    let options = options_with_preset(b)?;
    let rules = parse_rules(b, options.as_ref())?;
    let leaver = parse_leaver(b, rules.board_name(), options.as_ref())?;
    let secs = |field: &str, v: Option<u64>, default_ms: u64| -> Result<u64, Refusal> {
        match v {
            None => Ok(default_ms),
            Some(s) if s <= 3600 => Ok(s * 1000),
            Some(_) => Err(Refusal::BadSeconds {
                field: field.into(),
            }),
        }
    };
    let name: String = b
        .name
        .as_deref()
        .unwrap_or("")
        .chars()
        .filter(|c| !c.is_control())
        .take(48)
        .collect();
    Ok(TableConfig {
        rules,
        move_ms: secs("move_seconds", b.move_seconds, default_move_ms)?,
        deploy_ms: secs("deploy_seconds", b.deploy_seconds, DEFAULT_DEPLOY_MS)?,
        leaver,
        private: b.private.unwrap_or(false),
        name: name.trim().to_string(),
        resign_ms: secs(
            "resign_after_seconds",
            b.resign_after_seconds,
            crate::table::RESIGN_WINDOW_MS,
        )?,
    })
}

/// The values of the option `teams` a board plays with in a mode (RULES §7.2, §9): `none` only
/// on the three-player board, not `none` in half-open play; on the two-player board the option
/// is ignored, so any value.
pub(crate) fn teams_allowed(board: BoardKind, mode: Mode) -> Vec<&'static str> {
    Teams::ALL
        .iter()
        .filter(|t| t.allowed_on(board) && !(mode == Mode::HalfOpen && **t == Teams::None))
        .map(|t| t.name())
        .collect()
}

/// The option `teams` of a create request: a value the board and mode play with, or
/// `setup.bad_teams` saying which values they do.
fn check_teams(board: BoardKind, mode: Mode, v: &Value) -> Result<(), Refusal> {
    let allowed = teams_allowed(board, mode);
    match v.as_str() {
        Some(t) if allowed.contains(&t) => Ok(()),
        _ => Err(Refusal::BadTeams {
            teams: v.as_str().map_or_else(|| v.to_string(), String::from),
            board: board.name(),
            mode: mode.name(),
            allowed,
        }),
    }
}

fn check_seat(seat: Option<u8>, seats: usize) -> Result<Seat, Refusal> {
    match seat {
        None => Ok(0),
        Some(s) if (s as usize) < seats => Ok(s),
        Some(s) => Err(Refusal::SeatMissing {
            seat: s as u64,
            seats,
        }),
    }
}

fn check_bot(rules: &GameRules, name: &str) -> Result<String, Refusal> {
    if rules.has_bot(name) {
        Ok(name.to_string())
    } else {
        Err(Refusal::UnknownBot { name: name.into() })
    }
}

/// Create a table for the caller: limits first (per address and per creator), then the table.
async fn create(
    app: Arc<App>,
    headers: HeaderMap,
    addr: SocketAddr,
    spec: TableSpec,
) -> Result<Response, Refusal> {
    app.table_budget
        .take(&[format!("tables:{}", addr.ip()).as_str()])
        .map_err(|retry_after| Refusal::RateLimited { retry_after })?;
    let (player, session) = match session_player(&app, &headers).await {
        Some(p) => (p, None),
        None => {
            let (p, s) = app.new_guest(None, addr.ip()).await?;
            (p, Some(s))
        }
    };
    // An open table is one not yet playing. A person, or an address, may have only so many.
    let limit = app.settings.max_open_tables_per_creator;
    let creator = format!("player:{}", player.id);
    let by_addr = format!("addr:{}", addr.ip());
    // Counted in the database: the tables may run on any server of it.
    let db = &app.db;
    let open = |key: String| async move {
        crate::store::open_tables_of(db, &key)
            .await
            .map_err(Refusal::Internal)
    };
    if open(creator.clone()).await? >= limit || open(by_addr.clone()).await? >= limit * 2 {
        return Err(Refusal::TooManyTables { limit });
    }
    let key = if session.is_some() { by_addr } else { creator };
    let seat = spec.seat;
    let (_, summary, token) = Table::create(app.env().clone(), spec, player.clone(), key).await?;
    let id = summary["id"].as_str().unwrap_or("").to_string();
    let code = summary["code"].as_str().unwrap_or("").to_string();
    let mut v = json!({"table": summary, "seat": seat, "token": token, "join_url": format!("/#/join/{code}"),
        "ws_url": format!("/ws/{id}"), "player": player.to_json()});
    if let Some(s) = session {
        v["session"] = s.into();
    }
    Ok((StatusCode::CREATED, Json(v)).into_response())
}

async fn create_table(
    State(app): State<Arc<App>>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    Body(b): Body<TableBody>,
) -> Result<Response, Refusal> {
    if b.bot.is_some() {
        return Err(Refusal::BadRequest(
            "field \"bot\" is for /api/play-computer: give \"bots\": [{\"seat\", \"bot\"}] here"
                .into(),
        ));
    }
    let config = parse_config(&b, DEFAULT_MOVE_MS)?;
    let seats = config.rules.seats();
    let seat = check_seat(b.seat, seats)?;
    let mut bots = Vec::new();
    for bs in b.bots.iter().flatten() {
        if bots.len() >= seats {
            return Err(Refusal::BadRequest(format!("at most {seats} bots")));
        }
        let s = check_seat(Some(bs.seat), seats)?;
        bots.push((
            s,
            check_bot(&config.rules, bs.bot.as_deref().unwrap_or("random"))?,
        ));
    }
    let spec = TableSpec {
        config,
        seat,
        bots,
        start: false,
    };
    create(app, headers, addr, spec).await
}

async fn play_computer(
    State(app): State<Arc<App>>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    Body(b): Body<TableBody>,
) -> Result<Response, Refusal> {
    if b.bots.is_some() {
        return Err(Refusal::BadRequest(
            "field \"bots\" is for /api/tables: give \"bot\" (the opponents' bot) here".into(),
        ));
    }
    let mut config = parse_config(&b, 0)?;
    if config.name.is_empty() {
        config.name = "Play the computer".into();
    }
    config.private = b.private.unwrap_or(true);
    let seats = config.rules.seats();
    let seat = check_seat(b.seat, seats)?;
    let bot = check_bot(
        &config.rules,
        b.bot.as_deref().unwrap_or(&app.settings.default_bot),
    )?;
    let bots = (0..seats as Seat)
        .filter(|&s| s != seat)
        .map(|s| (s, bot.clone()))
        .collect();
    let spec = TableSpec {
        config,
        seat,
        bots,
        start: true,
    };
    create(app, headers, addr, spec).await
}

/// The body of `POST /api/guest`: an optional display name.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct GuestBody {
    #[serde(default)]
    name: Option<String>,
}

/// The body of `POST /api/register` and `POST /api/login`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Credentials {
    name: String,
    password: String,
}

async fn guest(
    State(app): State<Arc<App>>,
    ConnectInfo(client): ConnectInfo<SocketAddr>,
    Body(b): Body<GuestBody>,
) -> Result<Json<Value>, Refusal> {
    let (p, s) = app.new_guest(b.name.as_deref(), client.ip()).await?;
    Ok(Json(json!({"player": p.to_json(), "session": s})))
}

async fn register(
    State(app): State<Arc<App>>,
    ConnectInfo(client): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    Body(b): Body<Credentials>,
) -> Result<Json<Value>, Refusal> {
    // From a guest session the guest becomes the account (same id, games and ratings).
    let guest = session_player(&app, &headers).await.filter(|p| p.guest);
    let (p, s) = app
        .register(&b.name, &b.password, guest.as_ref(), client.ip())
        .await?;
    Ok(Json(json!({"player": p.to_json(), "session": s})))
}

async fn login(
    State(app): State<Arc<App>>,
    ConnectInfo(client): ConnectInfo<SocketAddr>,
    Body(b): Body<Credentials>,
) -> Result<Json<Value>, Refusal> {
    let (p, s) = app.login(&b.name, &b.password, client.ip()).await?;
    Ok(Json(json!({"player": p.to_json(), "session": s})))
}

async fn logout(State(app): State<Arc<App>>, headers: HeaderMap) -> Result<StatusCode, Refusal> {
    let token = bearer_token(&headers).ok_or(Refusal::NoSession)?;
    app.logout(token).await?;
    Ok(StatusCode::NO_CONTENT)
}

async fn me(State(app): State<Arc<App>>, headers: HeaderMap) -> Result<Json<Value>, Refusal> {
    let p = session_player(&app, &headers)
        .await
        .ok_or(Refusal::BadSession)?;
    Ok(Json(json!({"player": p.to_json()})))
}

async fn player_page(
    State(app): State<Arc<App>>,
    Path(name): Path<String>,
) -> Result<Json<Value>, Refusal> {
    app.player_page(&name)
        .await
        .map_err(Refusal::Internal)?
        .map(Json)
        .ok_or(Refusal::NoPlayer)
}

/// The largest page of `GET /api/leaderboard`, and the page it gives when `limit` is absent.
const LEADERBOARD_MAX: i64 = 100;
const LEADERBOARD_DEFAULT: i64 = 50;

/// The query of `GET /api/leaderboard`, checked strictly: an unknown parameter, an unknown board,
/// a mode the board does not have, a `limit` outside 1..=100 or a negative `offset` is a 400
/// that names the parameter.
fn leaderboard_query(
    q: &HashMap<String, String>,
) -> Result<(&'static str, &'static str, i64, i64), Refusal> {
    let bad = |param: &str, value: &str, expected: &str| Refusal::BadQuery {
        param: param.into(),
        value: value.into(),
        expected: expected.into(),
    };
    let mut unknown: Vec<&String> = q
        .keys()
        .filter(|k| !["board", "mode", "limit", "offset"].contains(&k.as_str()))
        .collect();
    unknown.sort();
    if let Some(k) = unknown.first() {
        return Err(bad(k, "", "one of board, mode, limit, offset"));
    }
    let board_text = q.get("board").map_or("two_player", String::as_str);
    let mode_text = q.get("mode").map_or("dark", String::as_str);
    let (board, mode) = if board_text == LSA_BOARD {
        let mode = junqi_core::lsa::Mode::from_name(mode_text)
            .map_err(|_| bad("mode", mode_text, "dark or open"))?;
        (LSA_BOARD, mode.name())
    } else {
        let board: BoardKind = board_text.parse().map_err(|_| {
            bad(
                "board",
                board_text,
                "two_player, three_player, four_player, six_player or land_sea_air",
            )
        })?;
        let modes = match board {
            BoardKind::TwoPlayer => "dark, open or flip",
            BoardKind::ThreePlayer => "dark or open",
            BoardKind::FourPlayer | BoardKind::SixPlayer => "dark, open or half_open",
        };
        let mode: Mode = mode_text
            .parse()
            .ok()
            .filter(|m: &Mode| m.allowed_on(board))
            .ok_or_else(|| bad("mode", mode_text, modes))?;
        (board.name(), mode.name())
    };
    let number =
        |param: &str, default: i64, range: std::ops::RangeInclusive<i64>, words: &str| match q
            .get(param)
        {
            None => Ok(default),
            Some(v) => v
                .parse::<i64>()
                .ok()
                .filter(|n| range.contains(n))
                .ok_or_else(|| bad(param, v, words)),
        };
    let limit = number(
        "limit",
        LEADERBOARD_DEFAULT,
        1..=LEADERBOARD_MAX,
        "an integer from 1 to 100",
    )?;
    let offset = number("offset", 0, 0..=i64::MAX / 2, "an integer of 0 or more")?;
    Ok((board, mode, limit, offset))
}

/// `GET /api/leaderboard`: the rated players of one board and mode, best first, with their rank
/// (军衔, [`crate::rating::title`]) and their wins, losses and draws there.
async fn leaderboard(
    State(app): State<Arc<App>>,
    Query(q): Query<HashMap<String, String>>,
) -> Result<Json<Value>, Refusal> {
    use crate::rating::{provisional, title};
    let (board, mode, limit, offset) = leaderboard_query(&q)?;
    let category = format!("{board}/{mode}");
    let internal = |e: String| Refusal::Internal(e);
    let (rows, total) = crate::store::leaderboard(&app.db, &category, limit, offset)
        .await
        .map_err(internal)?;
    // Wins, losses and draws from the finished games (aborted ones count for nothing).
    let ids: Vec<String> = rows.iter().map(|r| r.id.clone()).collect();
    let mut tally: HashMap<String, [i64; 3]> = HashMap::new();
    for (pid, seat, config, result) in crate::store::results_of(&app.db, &ids, board, mode)
        .await
        .map_err(internal)?
    {
        if config["board"] != board || config["mode"] != mode {
            continue;
        }
        let Ok(outcome) = junqi_core::record::outcome_from_text(&result) else {
            continue;
        };
        let slot = match outcome {
            junqi_core::Outcome::Win { .. } if outcome.winners().contains(&(seat as Seat)) => 0,
            junqi_core::Outcome::Win { .. } => 1,
            junqi_core::Outcome::Draw { .. } => 2,
            junqi_core::Outcome::Aborted => continue,
        };
        tally.entry(pid).or_default()[slot] += 1;
    }
    let round = |x: f64| (x * 10.0).round() / 10.0;
    let players: Vec<Value> = rows
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let [wins, losses, draws] = tally.get(&r.id).copied().unwrap_or_default();
            json!({
                "rank": offset + i as i64 + 1, "id": r.id, "name": r.name,
                "rating": round(r.rating), "rd": round(r.rd), "games": r.games,
                "wins": wins, "losses": losses, "draws": draws,
                "title": title(r.rating), "provisional": provisional(r.rd),
                "bot": r.id.starts_with("bot:"),
            })
        })
        .collect();
    Ok(Json(json!({
        "board": board, "mode": mode, "total": total,
        "limit": limit, "offset": offset, "players": players,
    })))
}

async fn games(
    State(app): State<Arc<App>>,
    Query(q): Query<HashMap<String, String>>,
) -> Result<Json<Value>, Refusal> {
    let name = q
        .get("player")
        .ok_or_else(|| Refusal::BadRequest("give ?player=<name>".into()))?;
    let page = app
        .player_page(name)
        .await
        .map_err(Refusal::Internal)?
        .ok_or(Refusal::NoPlayer)?;
    Ok(Json(json!({"games": page["recent_games"]})))
}

/// A finished game from the database, replayed (either game): the game at its start, the
/// replayed steps, and the seat names.
async fn finished_game(app: &App, id: &str) -> Result<FinishedGame, Refusal> {
    let internal = |e: String| Refusal::Internal(e);
    let stored = crate::store::game_header(&app.db, id)
        .await
        .map_err(internal)?
        .ok_or(Refusal::NoGame)?;
    if stored.status != "over" {
        return Err(Refusal::RecordLater);
    }
    let seats: Value = serde_json::from_str(&stored.seats).unwrap_or(Value::Null);
    let config = serde_json::from_str::<Value>(&stored.config)
        .map_err(|e| e.to_string())
        .and_then(|v| TableConfig::from_json(&v))
        .map_err(internal)?;
    let header = stored.header.unwrap_or_default();
    let mut game = TableGame::from_header(&config.rules, &header).map_err(internal)?;
    let start = game.observation_json(Observer::Referee);
    let mut steps = Vec::new();
    for crate::store::StoredEntry { text, .. } in
        crate::store::entries(&app.db, id).await.map_err(internal)?
    {
        let applied = game.apply_text(&text).map_err(internal)?;
        steps.push(json!({
            "v": steps.len() + 1, "entry": applied.entry_text, "events": applied.all_events(),
            "position": game.observation_json(Observer::Referee),
        }));
    }
    Ok(FinishedGame {
        game,
        start,
        steps,
        players: crate::table::seat_names(&seats),
    })
}

/// A finished game as [`finished_game`] replays it.
struct FinishedGame {
    game: TableGame,
    /// The start, as the referee sees it.
    start: Value,
    /// Each entry with its events and the position after it (the referee's view).
    steps: Vec<Value>,
    players: Vec<Value>,
}

async fn record(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    Query(q): Query<HashMap<String, String>>,
) -> Result<Response, Refusal> {
    let game = finished_game(&app, &id).await?.game;
    if q.get("format").map(String::as_str) == Some("json") {
        return Ok(Json(game.record_json()).into_response());
    }
    let safe: String = id.chars().filter(|c| c.is_ascii_alphanumeric()).collect();
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "text/plain; charset=utf-8".to_string(),
            ),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"junqi-{safe}.txt\""),
            ),
        ],
        game.record_text(),
    )
        .into_response())
}

async fn replay(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
) -> Result<Json<Value>, Refusal> {
    let f = finished_game(&app, &id).await?;
    Ok(Json(
        json!({"id": id, "players": f.players, "record": f.game.record_text(),
              "outcome": outcome_to_json(f.game.outcome()), "start": f.start, "steps": f.steps}),
    ))
}

async fn ws(
    State(app): State<Arc<App>>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    Path(id): Path<String>,
    counted: Option<axum::Extension<crate::limits::Counted>>,
    upgrade: WebSocketUpgrade,
) -> Response {
    // The connection stays counted against its address for as long as the WebSocket is open.
    let counted = counted.map(|c| c.0);
    upgrade
        // Frames are a few KiB: small buffers (the defaults are 128 KiB each) keep an idle
        // connection at a few KiB of memory; a larger message still goes through.
        .read_buffer_size(crate::protocol::WS_BUFFER)
        .write_buffer_size(crate::protocol::WS_BUFFER)
        .max_message_size(crate::protocol::MAX_WS_MESSAGE)
        .max_frame_size(crate::protocol::MAX_WS_MESSAGE)
        .on_upgrade(move |socket| async move {
            let _counted = counted;
            crate::ws::serve(app, id, addr.ip(), socket).await
        })
}

#[cfg(test)]
mod bearer_tests {
    use super::*;

    #[test]
    fn the_bearer_scheme_is_case_insensitive() {
        let with = |v: &str| {
            let mut h = HeaderMap::new();
            h.insert(header::AUTHORIZATION, v.parse().unwrap());
            bearer_token(&h).map(str::to_string)
        };
        for v in ["Bearer tok", "bearer tok", "BEARER  tok ", "bEaReR\ttok"] {
            assert_eq!(with(v).as_deref(), Some("tok"), "{v:?}");
        }
        for v in ["Basic tok", "Bearer", "Bearer ", "Bearertok", "tok"] {
            assert_eq!(with(v), None, "{v:?}");
        }
        assert_eq!(bearer_token(&HeaderMap::new()), None);
    }
}
