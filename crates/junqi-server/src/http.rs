//! The HTTP API of `docs/server-protocol.md` and the router.

// Handlers answer errors as ready responses; their size does not matter on this path.
#![allow(clippy::result_large_err)]

use crate::app::{App, Player};
use crate::db::{col_i64, col_opt_str, col_str};
use crate::table::{Table, TableConfig, TableSpec, DEFAULT_DEPLOY_MS, DEFAULT_MOVE_MS};
use axum::body::Bytes;
use axum::extract::{ConnectInfo, Path, Query, State, WebSocketUpgrade};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use junqi_core::json::{event_to_json, outcome_to_json};
use junqi_core::{
    BoardKind, Entry, Mode, Observer, Options, Record, Rules, Seat, SquareKind, Topology,
};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Arc;

type Reply = Result<Response, Response>;

fn err(status: u16, reason: impl Into<String>) -> Response {
    let code = StatusCode::from_u16(status).unwrap_or(StatusCode::BAD_REQUEST);
    (code, Json(json!({"error": reason.into()}))).into_response()
}

fn ok(v: Value) -> Reply {
    Ok(Json(v).into_response())
}

fn body_json(body: &Bytes) -> Result<Value, Response> {
    if body.is_empty() {
        return Ok(json!({}));
    }
    if body.len() > 64 * 1024 {
        return Err(err(413, "request too large"));
    }
    match serde_json::from_slice::<Value>(body) {
        Ok(v @ Value::Object(_)) => Ok(v),
        Ok(_) => Err(err(400, "the body must be a JSON object")),
        Err(e) => Err(err(400, format!("not JSON: {e}"))),
    }
}

async fn session_player(app: &App, headers: &HeaderMap) -> Option<Player> {
    let auth = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let token = auth.strip_prefix("Bearer ")?.trim();
    app.player_by_session(token).await
}

/// The router of the whole service.
pub fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/api/info", get(info))
        .route("/api/boards/{board}", get(board))
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
        .route("/api/games", get(games))
        .route("/api/games/{id}/record", get(record))
        .route("/api/games/{id}/replay", get(replay))
        .route("/ws/{id}", get(ws))
        .fallback(crate::web::static_file)
        .with_state(app)
}

async fn info() -> Reply {
    ok(json!({
        "version": env!("CARGO_PKG_VERSION"),
        "bots": junqi_ai::bot_names(),
        "default_bot": junqi_ai::default_bot(),
        "boards": ["two_player", "four_player"],
        "modes": {"two_player": ["dark", "open", "flip"], "four_player": ["dark", "open", "half_open"]},
        "defaults": {"move_seconds": DEFAULT_MOVE_MS / 1000, "deploy_seconds": DEFAULT_DEPLOY_MS / 1000,
                     "resign_after_seconds": crate::table::RESIGN_WINDOW_MS / 1000,
                     "return_seconds": crate::table::RETURN_WINDOW_MS / 1000},
    }))
}

async fn board(Path(board): Path<String>, Query(q): Query<HashMap<String, String>>) -> Reply {
    let kind: BoardKind = board.parse().map_err(|e: String| err(404, e))?;
    let middle_rail = q.get("middle_crossing").map(|s| s.as_str()) != Some("road");
    let t = Topology::get(kind, middle_rail);
    let squares: Vec<Value> = t
        .squares()
        .map(|sq| {
            let (file, rank) = t.coords(sq);
            let kind = match t.kind(sq) {
                SquareKind::Station => "station",
                SquareKind::Camp => "camp",
                SquareKind::Headquarters => "headquarters",
            };
            let home = t.home(sq).map(|h| json!({"seat": h.seat, "row": h.row, "col": h.col}));
            json!({"name": t.name(sq), "file": file, "rank": rank, "kind": kind, "rail": t.is_rail(sq), "home": home})
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
        BoardKind::TwoPlayer => (5, 12),
        BoardKind::FourPlayer => (17, 17),
    };
    ok(
        json!({"board": kind.name(), "files": files, "ranks": ranks, "squares": squares, "edges": edges}),
    )
}

async fn list_tables(State(app): State<Arc<App>>) -> Reply {
    ok(json!({"tables": app.lobby()}))
}

async fn get_table(State(app): State<Arc<App>>, Path(id): Path<String>) -> Reply {
    let h = app
        .table(&id)
        .await
        .ok_or_else(|| err(404, "no such table"))?;
    let s = h.summary.lock().map(|s| s.clone()).unwrap_or(Value::Null);
    ok(s)
}

async fn join_code(State(app): State<Arc<App>>, Path(code): Path<String>) -> Reply {
    let id = app
        .id_of_code(&code)
        .await
        .ok_or_else(|| err(404, "no table has this code"))?;
    get_table(State(app), Path(id)).await
}

fn parse_config(v: &Value, default_move_ms: u64) -> Result<TableConfig, Response> {
    let board: BoardKind = v["board"]
        .as_str()
        .unwrap_or("two_player")
        .parse()
        .map_err(|e: String| err(400, e))?;
    let mode: Mode = v["mode"]
        .as_str()
        .unwrap_or("dark")
        .parse()
        .map_err(|e: String| err(400, e))?;
    if !mode.allowed_on(board) {
        return Err(err(
            400,
            format!("mode {mode} does not exist on the {board} board"),
        ));
    }
    let options = match v.get("options") {
        None | Some(Value::Null) => Options::defaults(board, mode),
        Some(o) => Options::from_json(board, mode, Some(o)).map_err(|e| err(400, e))?,
    };
    let rules = Rules::new(board, mode, options).map_err(|e| err(400, e))?;
    let secs = |key: &str, default_ms: u64| -> Result<u64, Response> {
        match v.get(key) {
            None | Some(Value::Null) => Ok(default_ms),
            Some(x) => match x.as_u64() {
                Some(s) if s <= 3600 => Ok(s * 1000),
                _ => Err(err(
                    400,
                    format!("{key} must be a number of seconds from 0 to 3600"),
                )),
            },
        }
    };
    let name = v["name"]
        .as_str()
        .unwrap_or("")
        .chars()
        .filter(|c| !c.is_control())
        .take(48)
        .collect();
    Ok(TableConfig {
        rules,
        move_ms: secs("move_seconds", default_move_ms)?,
        deploy_ms: secs("deploy_seconds", DEFAULT_DEPLOY_MS)?,
        leaver_bot: v["leaver_replaced_by_bot"].as_bool().unwrap_or(false),
        private: v["private"].as_bool().unwrap_or(false),
        name,
        resign_ms: secs("resign_after_seconds", crate::table::RESIGN_WINDOW_MS)?,
    })
}

fn parse_seat(v: &Value, seats: usize) -> Result<Seat, Response> {
    match v.get("seat") {
        None | Some(Value::Null) => Ok(0),
        Some(x) => match x.as_u64() {
            Some(s) if (s as usize) < seats => Ok(s as Seat),
            _ => Err(err(
                400,
                format!("seat must be a seat number from 0 to {}", seats - 1),
            )),
        },
    }
}

fn check_bot(name: &str) -> Result<String, Response> {
    if junqi_ai::bot_by_name(name).is_some() {
        Ok(name.to_string())
    } else {
        Err(err(
            400,
            format!(
                "no bot named {name:?} (bots: {})",
                junqi_ai::bot_names().join(", ")
            ),
        ))
    }
}

async fn creator(app: &App, headers: &HeaderMap) -> Result<(Player, Option<String>), Response> {
    match session_player(app, headers).await {
        Some(p) => Ok((p, None)),
        None => {
            let (p, s) = app.new_guest(None).await.map_err(|e| err(500, e))?;
            Ok((p, Some(s)))
        }
    }
}

async fn create(app: Arc<App>, headers: HeaderMap, spec: TableSpec) -> Reply {
    let (player, session) = creator(&app, &headers).await?;
    let seat = spec.seat;
    let (_, summary, token) = Table::create(app.clone(), spec, player.clone())
        .await
        .map_err(|e| err(400, e))?;
    let id = summary["id"].as_str().unwrap_or("").to_string();
    let code = summary["code"].as_str().unwrap_or("").to_string();
    let mut v = json!({"table": summary, "seat": seat, "token": token, "join_url": format!("/#/join/{code}"),
        "ws_url": format!("/ws/{id}"), "player": player.to_json()});
    if let Some(s) = session {
        v["session"] = s.into();
    }
    Ok((StatusCode::CREATED, Json(v)).into_response())
}

async fn create_table(State(app): State<Arc<App>>, headers: HeaderMap, body: Bytes) -> Reply {
    let v = body_json(&body)?;
    let config = parse_config(&v, DEFAULT_MOVE_MS)?;
    let seats = config.rules.seats();
    let seat = parse_seat(&v, seats)?;
    let mut bots = Vec::new();
    if let Some(list) = v.get("bots").and_then(Value::as_array) {
        for b in list.iter().take(4) {
            let s = parse_seat(b, seats)?;
            bots.push((s, check_bot(b["bot"].as_str().unwrap_or("random"))?));
        }
    }
    create(
        app,
        headers,
        TableSpec {
            config,
            seat,
            bots,
            start: false,
        },
    )
    .await
}

async fn play_computer(State(app): State<Arc<App>>, headers: HeaderMap, body: Bytes) -> Reply {
    let v = body_json(&body)?;
    let mut config = parse_config(&v, 0)?;
    if config.name.is_empty() {
        config.name = "Play the computer".into();
    }
    config.private = v["private"].as_bool().unwrap_or(true);
    let seats = config.rules.seats();
    let seat = parse_seat(&v, seats)?;
    let bot = check_bot(v["bot"].as_str().unwrap_or(junqi_ai::default_bot()))?;
    let bots = (0..seats as Seat)
        .filter(|&s| s != seat)
        .map(|s| (s, bot.clone()))
        .collect();
    create(
        app,
        headers,
        TableSpec {
            config,
            seat,
            bots,
            start: true,
        },
    )
    .await
}

async fn guest(State(app): State<Arc<App>>, body: Bytes) -> Reply {
    let v = body_json(&body)?;
    let (p, s) = app
        .new_guest(v["name"].as_str())
        .await
        .map_err(IntoResponse::into_response)?;
    ok(json!({"player": p.to_json(), "session": s}))
}

async fn register(
    State(app): State<Arc<App>>,
    ConnectInfo(client): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    body: Bytes,
) -> Reply {
    let v = body_json(&body)?;
    let (name, pw) = (
        v["name"].as_str().unwrap_or(""),
        v["password"].as_str().unwrap_or(""),
    );
    // From a guest session the guest becomes the account (same id, games and ratings).
    let guest = session_player(&app, &headers).await.filter(|p| p.guest);
    let (p, s) = app
        .register(name, pw, guest.as_ref(), client.ip())
        .await
        .map_err(IntoResponse::into_response)?;
    ok(json!({"player": p.to_json(), "session": s}))
}

async fn login(
    State(app): State<Arc<App>>,
    ConnectInfo(client): ConnectInfo<SocketAddr>,
    body: Bytes,
) -> Reply {
    let v = body_json(&body)?;
    let (name, pw) = (
        v["name"].as_str().unwrap_or(""),
        v["password"].as_str().unwrap_or(""),
    );
    let (p, s) = app
        .login(name, pw, client.ip())
        .await
        .map_err(IntoResponse::into_response)?;
    ok(json!({"player": p.to_json(), "session": s}))
}

async fn logout(State(app): State<Arc<App>>, headers: HeaderMap) -> Reply {
    let token = headers
        .get(header::AUTHORIZATION)
        .and_then(|a| a.to_str().ok())
        .and_then(|a| a.strip_prefix("Bearer "))
        .map(|t| t.trim().to_string())
        .ok_or_else(|| err(401, "no session"))?;
    app.logout(&token)
        .await
        .map_err(IntoResponse::into_response)?;
    Ok(StatusCode::NO_CONTENT.into_response())
}

async fn me(State(app): State<Arc<App>>, headers: HeaderMap) -> Reply {
    let p = session_player(&app, &headers)
        .await
        .ok_or_else(|| err(401, "no valid session"))?;
    ok(json!({"player": p.to_json()}))
}

async fn player_page(State(app): State<Arc<App>>, Path(name): Path<String>) -> Reply {
    match app.player_page(&name).await {
        Ok(Some(v)) => ok(v),
        Ok(None) => Err(err(404, "no such player")),
        Err(e) => Err(err(500, e)),
    }
}

async fn games(State(app): State<Arc<App>>, Query(q): Query<HashMap<String, String>>) -> Reply {
    let name = q
        .get("player")
        .ok_or_else(|| err(400, "give ?player=<name>"))?;
    let page = app
        .player_page(name)
        .await
        .map_err(|e| err(500, e))?
        .ok_or_else(|| err(404, "no such player"))?;
    ok(json!({"games": page["recent_games"]}))
}

/// A finished game from the database: its record and seat names.
async fn finished_record(app: &App, id: &str) -> Result<(Record, Vec<Value>), Response> {
    let row = app
        .db
        .fetch_opt(
            "SELECT status, header, seats FROM junqi_tables WHERE id = $1",
            vec![id.into()],
        )
        .await
        .map_err(|e| err(500, e))?
        .ok_or_else(|| err(404, "no such game"))?;
    if col_str(&row, 0) != "over" {
        return Err(err(403, "the record is published once the game is over"));
    }
    let header = col_opt_str(&row, 1).unwrap_or_default();
    let seats: Value = serde_json::from_str(&col_str(&row, 2)).unwrap_or(Value::Null);
    let mut record = Record::from_text(&header).map_err(|e| err(500, e))?;
    let topo = record.topology();
    let rows = app
        .db
        .fetch(
            "SELECT seq, entry FROM junqi_entries WHERE table_id = $1 ORDER BY seq",
            vec![id.into()],
        )
        .await
        .map_err(|e| err(500, e))?;
    for r in &rows {
        let _ = col_i64(r, 0);
        record
            .entries
            .push(Entry::from_text(topo, &col_str(r, 1)).map_err(|e| err(500, e))?);
    }
    let pos = record.replay().map_err(|e| err(500, e))?;
    record.result = pos.outcome();
    Ok((record, crate::table::seat_names(&seats)))
}

async fn record(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    Query(q): Query<HashMap<String, String>>,
) -> Reply {
    let (record, _) = finished_record(&app, &id).await?;
    if q.get("format").map(String::as_str) == Some("json") {
        return ok(record.to_json());
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
        record.to_text(),
    )
        .into_response())
}

async fn replay(State(app): State<Arc<App>>, Path(id): Path<String>) -> Reply {
    let (record, players) = finished_record(&app, &id).await?;
    let topo = record.topology();
    let mut pos = record.start_position().map_err(|e| err(500, e))?;
    let start = pos.observe(Observer::Referee).to_json();
    let mut steps = Vec::with_capacity(record.entries.len());
    for (i, e) in record.entries.iter().enumerate() {
        let mut events = Vec::new();
        e.apply(&mut pos, &mut events).map_err(|x| err(500, x.0))?;
        steps.push(json!({
            "v": i + 1, "entry": e.to_text(topo),
            "events": events.iter().map(|x| event_to_json(topo, x)).collect::<Vec<_>>(),
            "position": pos.observe(Observer::Referee).to_json(),
        }));
    }
    ok(
        json!({"id": id, "players": players, "record": record.to_text(), "outcome": outcome_to_json(pos.outcome()),
              "start": start, "steps": steps}),
    )
}

async fn ws(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    upgrade: WebSocketUpgrade,
) -> Response {
    upgrade
        .max_message_size(crate::protocol::MAX_FRAME)
        .max_frame_size(crate::protocol::MAX_FRAME)
        .on_upgrade(move |socket| crate::ws::serve(app, id, socket))
}
