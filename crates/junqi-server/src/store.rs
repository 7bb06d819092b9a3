//! The SQL of tables, games and ratings: every statement the table actors, the lobby and the
//! record endpoints run lives here, over [`Db`] (one code path for SQLite and PostgreSQL).
//! Writes are returned as [`Stmt`]s where a caller commits several in one transaction (an entry
//! and the end of the game it causes are stored together or not at all).

use crate::db::{col_f64, col_i64, col_opt_i64, col_opt_str, col_str, Arg, Db, Stmt};
use crate::rating::Rating;
use serde_json::Value;

/// A table as stored.
#[derive(Clone, Debug)]
pub(crate) struct StoredTable {
    pub id: String,
    pub code: String,
    pub config: String,
    pub host_seat: i64,
    pub status: String,
    pub seats: String,
    pub header: Option<String>,
    pub created_ms: i64,
    pub started_ms: Option<i64>,
    pub state: Option<String>,
    pub creator: Option<String>,
    /// Stored as played on with nobody left at it (see [`open_tables_of`]).
    pub unattended: bool,
}

const TABLE_COLUMNS: &str = "id, code, config, host_seat, status, seats, header, created_ms, \
     started_ms, state, creator, unattended";

fn stored_table(r: &sqlx::any::AnyRow) -> StoredTable {
    StoredTable {
        id: col_str(r, 0),
        code: col_str(r, 1),
        config: col_str(r, 2),
        host_seat: col_i64(r, 3),
        status: col_str(r, 4),
        seats: col_str(r, 5),
        header: col_opt_str(r, 6),
        created_ms: col_i64(r, 7),
        started_ms: col_opt_i64(r, 8),
        state: col_opt_str(r, 9),
        creator: col_opt_str(r, 10),
        unattended: col_i64(r, 11) != 0,
    }
}

/// A new table.
#[allow(clippy::too_many_arguments)]
pub(crate) fn insert_table(
    id: &str,
    code: &str,
    name: &str,
    config: &str,
    host_seat: i64,
    status: &str,
    seats: &str,
    created_ms: i64,
    creator: &str,
    summary: Option<String>,
) -> Stmt {
    (
        "INSERT INTO junqi_tables (id, code, name, config, host_seat, status, seats, created_ms, creator, summary) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
        vec![
            id.into(),
            code.into(),
            name.into(),
            config.into(),
            host_seat.into(),
            status.into(),
            seats.into(),
            created_ms.into(),
            creator.into(),
            summary.into(),
        ],
    )
}

/// A table's seats and status.
pub(crate) fn save_seats(id: &str, seats: &str, status: &str) -> Stmt {
    (
        "UPDATE junqi_tables SET seats = $1, status = $2 WHERE id = $3",
        vec![seats.into(), status.into(), id.into()],
    )
}

/// A table's lobby entry (JSON; `None`: not listed).
pub(crate) fn save_summary(id: &str, summary: Option<String>) -> Stmt {
    (
        "UPDATE junqi_tables SET summary = $1 WHERE id = $2",
        vec![summary.into(), id.into()],
    )
}

/// The clocks' deadlines and the draw offer (see `table::persist::TableState`).
pub(crate) fn save_state(id: &str, state: &str) -> Stmt {
    (
        "UPDATE junqi_tables SET state = $1 WHERE id = $2",
        vec![state.into(), id.into()],
    )
}

/// The start of play: the record's header (the layouts) and the seats.
pub(crate) fn start_play(id: &str, header: &str, started_ms: i64, seats: &str) -> Stmt {
    (
        "UPDATE junqi_tables SET status = 'playing', header = $1, started_ms = $2, seats = $3 WHERE id = $4",
        vec![header.into(), started_ms.into(), seats.into(), id.into()],
    )
}

/// One record entry.
/// Store an entry of a table's record, with the client's id of the action that made it.
pub(crate) fn insert_entry(
    id: &str,
    seq: i64,
    entry: &str,
    at_ms: i64,
    action_id: Option<&str>,
) -> Stmt {
    (
        "INSERT INTO junqi_entries (table_id, seq, entry, at_ms, action_id) VALUES ($1, $2, $3, $4, $5)",
        vec![
            id.into(),
            seq.into(),
            entry.into(),
            at_ms.into(),
            action_id.map(str::to_string).into(),
        ],
    )
}

/// Whether a game is being played with nobody left at it (see `open_tables_of`).
pub(crate) fn set_unattended(id: &str, unattended: bool) -> Stmt {
    (
        "UPDATE junqi_tables SET unattended = $1 WHERE id = $2",
        vec![(unattended as i64).into(), id.into()],
    )
}

/// The end of a game: its result. The table leaves the lobby (its entry is cleared).
pub(crate) fn finish_table(id: &str, result: &str, finished_ms: i64) -> Stmt {
    (
        "UPDATE junqi_tables SET status = 'over', result = $1, finished_ms = $2, state = NULL, summary = NULL \
         WHERE id = $3",
        vec![result.into(), finished_ms.into(), id.into()],
    )
}

/// Who played a seat of a finished game (for player pages and ratings).
pub(crate) fn insert_game_player(id: &str, seat: i64, player_id: &str, finished_ms: i64) -> Stmt {
    (
        "INSERT INTO junqi_game_players (table_id, seat, player_id, finished_ms) VALUES ($1, $2, $3, $4)",
        vec![id.into(), seat.into(), player_id.into(), finished_ms.into()],
    )
}

/// Remove a table that never reached play (it expired): its row goes, nothing else exists.
pub(crate) fn delete_unplayed(id: &str) -> Stmt {
    (
        "DELETE FROM junqi_tables WHERE id = $1 AND header IS NULL",
        vec![id.into()],
    )
}

/// A table by id.
pub(crate) async fn table(db: &Db, id: &str) -> Result<Option<StoredTable>, String> {
    let sql = format!("SELECT {TABLE_COLUMNS} FROM junqi_tables WHERE id = $1");
    Ok(db
        .fetch_opt(&sql, vec![id.into()])
        .await?
        .map(|r| stored_table(&r)))
}

/// Every table whose game is not over (server start).
pub(crate) async fn unfinished_tables(db: &Db) -> Result<Vec<StoredTable>, String> {
    let sql = format!("SELECT {TABLE_COLUMNS} FROM junqi_tables WHERE status <> 'over'");
    Ok(db
        .fetch(&sql, vec![])
        .await?
        .iter()
        .map(stored_table)
        .collect())
}

/// One stored entry of a table's record.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct StoredEntry {
    /// Its place in the record (1, 2, …: the event version it made).
    pub seq: i64,
    /// The entry in the record's text form.
    pub text: String,
    /// The client's id of the action that made it, if it sent one.
    pub action_id: Option<String>,
}

/// The stored entries of a table's record, in order.
pub(crate) async fn entries(db: &Db, id: &str) -> Result<Vec<StoredEntry>, String> {
    Ok(db
        .fetch(
            "SELECT seq, entry, action_id FROM junqi_entries WHERE table_id = $1 ORDER BY seq",
            vec![id.into()],
        )
        .await?
        .iter()
        .map(|r| StoredEntry {
            seq: col_i64(r, 0),
            text: col_str(r, 1),
            action_id: col_opt_str(r, 2),
        })
        .collect())
}

/// The table id of a join code.
pub(crate) async fn id_of_code(db: &Db, code: &str) -> Result<Option<String>, String> {
    Ok(db
        .fetch_opt(
            "SELECT id FROM junqi_tables WHERE code = $1",
            vec![code.into()],
        )
        .await?
        .map(|r| col_str(&r, 0)))
}

/// The lobby: the stored entries of the public tables not over, newest first (at most
/// `limit`). Whichever server runs a table writes its entry; any server lists them all. The
/// `status` column is the one the game's own writes keep, so it wins over the entry's copy (an
/// entry written a moment before the status changed never shows a stale status).
pub(crate) async fn lobby(db: &Db, limit: i64) -> Result<Vec<Value>, String> {
    Ok(db
        .fetch(
            "SELECT summary, status FROM junqi_tables WHERE summary IS NOT NULL AND status <> 'over' \
             ORDER BY created_ms DESC LIMIT $1",
            vec![limit.into()],
        )
        .await?
        .iter()
        .filter_map(|r| {
            let mut v: Value = serde_json::from_str(&col_opt_str(r, 0)?).ok()?;
            v.as_object_mut()?
                .insert("status".into(), Value::from(col_str(r, 1)));
            Some(v)
        })
        .collect())
}

/// How many tables of a creator key are still open (waiting for seats or deploying), or being
/// played on by computers alone with nobody left at them (unattended), on every server of the
/// database.
pub(crate) async fn open_tables_of(db: &Db, creator: &str) -> Result<usize, String> {
    Ok(db
        .fetch_opt(
            "SELECT COUNT(*) FROM junqi_tables WHERE creator = $1 AND (status IN ('waiting', 'deploying') \
             OR (status = 'playing' AND unattended = 1))",
            vec![creator.into()],
        )
        .await?
        .map_or(0, |r| col_i64(&r, 0).max(0) as usize))
}

/// A finished game's list entry, as the lobby and player pages show it.
#[derive(Clone, Debug)]
pub(crate) struct FinishedGame {
    pub id: String,
    pub config: Value,
    pub seats: Value,
    pub result: String,
    pub finished_ms: i64,
    /// The seat of the player asked about (player pages).
    pub seat: Option<i64>,
}

fn finished_game(r: &sqlx::any::AnyRow, with_seat: bool) -> FinishedGame {
    FinishedGame {
        id: col_str(r, 0),
        config: serde_json::from_str(&col_str(r, 1)).unwrap_or(Value::Null),
        seats: serde_json::from_str(&col_str(r, 2)).unwrap_or(Value::Null),
        result: col_opt_str(r, 3).unwrap_or_default(),
        finished_ms: col_i64(r, 4),
        seat: with_seat.then(|| col_i64(r, 5)),
    }
}

/// The most recent finished public games.
pub(crate) async fn recent_finished(db: &Db, limit: i64) -> Result<Vec<FinishedGame>, String> {
    // The public flag lives in the config JSON; a private game stays off the lobby.
    Ok(db
        .fetch(
            "SELECT id, config, seats, result, finished_ms FROM junqi_tables \
             WHERE status = 'over' AND finished_ms IS NOT NULL AND config NOT LIKE '%\"private\":true%' \
             ORDER BY finished_ms DESC LIMIT $1",
            vec![limit.into()],
        )
        .await?
        .iter()
        .map(|r| finished_game(r, false))
        .collect())
}

/// A player's most recent finished games.
pub(crate) async fn player_games(
    db: &Db,
    player_id: &str,
    limit: i64,
) -> Result<Vec<FinishedGame>, String> {
    Ok(db
        .fetch(
            "SELECT t.id, t.config, t.seats, t.result, t.finished_ms, g.seat FROM junqi_game_players g \
             JOIN junqi_tables t ON t.id = g.table_id WHERE g.player_id = $1 ORDER BY g.finished_ms DESC LIMIT $2",
            vec![player_id.into(), limit.into()],
        )
        .await?
        .iter()
        .map(|r| finished_game(r, true))
        .collect())
}

/// A game's status, record header and seats (the record endpoints).
pub(crate) async fn game_header(db: &Db, id: &str) -> Result<Option<GameHeader>, String> {
    Ok(db
        .fetch_opt(
            "SELECT status, header, seats, config FROM junqi_tables WHERE id = $1",
            vec![id.into()],
        )
        .await?
        .map(|r| GameHeader {
            status: col_str(&r, 0),
            header: col_opt_str(&r, 1),
            seats: col_str(&r, 2),
            config: col_str(&r, 3),
        }))
}

/// What a stored game starts from: its table's status, record header (once play began), seats
/// and settings (JSON text).
pub(crate) struct GameHeader {
    pub status: String,
    pub header: Option<String>,
    pub seats: String,
    pub config: String,
}

/// The player row of a bot (`bot:<name>`), created on first use.
pub(crate) fn ensure_bot_player(id: &str, now_ms: i64) -> Stmt {
    (
        "INSERT INTO junqi_players (id, name, name_key, password_hash, guest, created_ms) \
         VALUES ($1, $2, $3, NULL, 0, $4) ON CONFLICT DO NOTHING",
        vec![id.into(), id.into(), id.into(), now_ms.into()],
    )
}

/// A player's rating in a category and the number of rated games (a new player: the default).
pub(crate) async fn rating(db: &Db, player: &str, category: &str) -> (Rating, i64) {
    match db
        .fetch_opt(
            "SELECT rating, rd, vol, games FROM junqi_ratings WHERE player_id = $1 AND category = $2",
            vec![player.into(), category.into()],
        )
        .await
    {
        Ok(Some(r)) => (
            Rating {
                rating: col_f64(&r, 0),
                rd: col_f64(&r, 1),
                vol: col_f64(&r, 2),
            },
            col_i64(&r, 3),
        ),
        _ => (Rating::default(), 0),
    }
}

/// Replace a player's rating in a category. One upsert, not a delete and an insert: two
/// servers on one PostgreSQL database may rate the same player (a bot) at once, and under read
/// committed the second delete-then-insert would find nothing to delete and then fail on the key,
/// losing every rating of its game.
pub(crate) fn set_rating(player: &str, category: &str, r: Rating, games: i64) -> [Stmt; 1] {
    [(
        "INSERT INTO junqi_ratings (player_id, category, rating, rd, vol, games) VALUES ($1, $2, $3, $4, $5, $6) \
         ON CONFLICT (player_id, category) DO UPDATE SET rating = excluded.rating, rd = excluded.rd, \
         vol = excluded.vol, games = excluded.games",
        vec![
            player.into(),
            category.into(),
            r.rating.into(),
            r.rd.into(),
            r.vol.into(),
            games.into(),
        ],
    )]
}

/// A player's ratings: (category, rating, rd, games).
pub(crate) async fn ratings_of(
    db: &Db,
    player: &str,
) -> Result<Vec<(String, f64, f64, i64)>, String> {
    Ok(db
        .fetch(
            "SELECT category, rating, rd, games FROM junqi_ratings WHERE player_id = $1 ORDER BY category",
            vec![player.into()],
        )
        .await?
        .iter()
        .map(|r| (col_str(r, 0), col_f64(r, 1), col_f64(r, 2), col_i64(r, 3)))
        .collect())
}

/// One row of a leaderboard: a rated player of a category.
#[derive(Clone, Debug)]
pub(crate) struct LeaderRow {
    pub id: String,
    pub name: String,
    pub rating: f64,
    pub rd: f64,
    pub games: i64,
}

/// Who a leaderboard lists: registered players and bots. Guests are rated too (a guest who
/// registers keeps its ratings) but are not listed: their names are not unique and they have no
/// page by name.
const LISTED: &str = "p.guest = 0";

/// A page of a category's leaderboard, best first (ties: more games first, then by id, so that
/// pages never overlap), and the number of players listed in all.
pub(crate) async fn leaderboard(
    db: &Db,
    category: &str,
    limit: i64,
    offset: i64,
) -> Result<(Vec<LeaderRow>, i64), String> {
    let rows = db
        .fetch(
            &format!(
                "SELECT r.player_id, p.name, r.rating, r.rd, r.games FROM junqi_ratings r \
                 JOIN junqi_players p ON p.id = r.player_id WHERE r.category = $1 AND {LISTED} \
                 ORDER BY r.rating DESC, r.games DESC, r.player_id LIMIT $2 OFFSET $3"
            ),
            vec![category.into(), limit.into(), offset.into()],
        )
        .await?
        .iter()
        .map(|r| LeaderRow {
            id: col_str(r, 0),
            name: col_str(r, 1),
            rating: col_f64(r, 2),
            rd: col_f64(r, 3),
            games: col_i64(r, 4),
        })
        .collect();
    let total = db
        .fetch_opt(
            &format!(
                "SELECT COUNT(*) FROM junqi_ratings r JOIN junqi_players p ON p.id = r.player_id \
                 WHERE r.category = $1 AND {LISTED}"
            ),
            vec![category.into()],
        )
        .await?
        .map_or(0, |r| col_i64(&r, 0));
    Ok((rows, total))
}

/// The finished games of some players on one board in one mode: (player id, seat, result text).
/// The board and mode live in the config JSON; the LIKE filters narrow the rows (a table's name
/// cannot contain an unescaped `"`) and the caller checks the parsed config.
pub(crate) async fn results_of(
    db: &Db,
    players: &[String],
    board: &str,
    mode: &str,
) -> Result<Vec<(String, i64, Value, String)>, String> {
    if players.is_empty() {
        return Ok(Vec::new());
    }
    let marks: Vec<String> = (0..players.len()).map(|i| format!("${}", i + 3)).collect();
    let sql = format!(
        "SELECT g.player_id, g.seat, t.config, t.result FROM junqi_game_players g \
         JOIN junqi_tables t ON t.id = g.table_id \
         WHERE t.config LIKE $1 AND t.config LIKE $2 AND g.player_id IN ({})",
        marks.join(", ")
    );
    let mut args: Vec<Arg> = vec![
        format!("%\"board\":\"{board}\"%").into(),
        format!("%\"mode\":\"{mode}\"%").into(),
    ];
    args.extend(players.iter().map(|p| Arg::from(p.as_str())));
    Ok(db
        .fetch(&sql, args)
        .await?
        .iter()
        .map(|r| {
            (
                col_str(r, 0),
                col_i64(r, 1),
                serde_json::from_str(&col_str(r, 2)).unwrap_or(Value::Null),
                col_opt_str(r, 3).unwrap_or_default(),
            )
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two servers on one database rate the same player at the same time, many times over:
    /// every update must land (none may fail on the key), and the row ends up as one of them.
    async fn concurrent_rating_updates(url: &str) {
        let a = Db::open(url).await.unwrap();
        let b = Db::open(url).await.unwrap();
        let player = format!("bot:race{}", rand::random::<u32>());
        for round in 0..20i64 {
            let category = format!("two_player/dark/{round}");
            let r = |x: f64| Rating {
                rating: x,
                rd: 100.0,
                vol: 0.06,
            };
            let (ra, rb) = tokio::join!(
                a.write(set_rating(&player, &category, r(1600.0), 1).to_vec()),
                b.write(set_rating(&player, &category, r(1400.0), 2).to_vec()),
            );
            assert_eq!(ra, Ok(()), "round {round}");
            assert_eq!(rb, Ok(()), "round {round}");
            let (got, games) = rating(&a, &player, &category).await;
            assert!(
                (got.rating, games) == (1600.0, 1) || (got.rating, games) == (1400.0, 2),
                "round {round}: {got:?} {games}"
            );
        }
        assert_eq!(ratings_of(&a, &player).await.unwrap().len(), 20);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn sqlite_concurrent_rating_updates() {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}?mode=rwc", dir.path().join("r.db").display());
        concurrent_rating_updates(&url).await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn postgres_concurrent_rating_updates() {
        let Ok(url) = std::env::var("JUNQI_TEST_POSTGRES_URL") else {
            println!("NOTICE: JUNQI_TEST_POSTGRES_URL is not set: the PostgreSQL rating race test is skipped");
            return;
        };
        concurrent_rating_updates(&url).await;
    }

    /// A creator's open tables: those waiting or deploying, and those played on by computers
    /// alone with nobody left at them; not those people play, nor finished ones.
    #[tokio::test]
    async fn open_tables_count_unattended_games() {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}?mode=rwc", dir.path().join("o.db").display());
        let db = Db::open(&url).await.unwrap();
        for (i, status) in ["waiting", "deploying", "playing", "playing", "over"]
            .iter()
            .enumerate()
        {
            let id = format!("t{i}");
            let stmt = insert_table(&id, &id, "x", "{}", 0, status, "[]", 1, "player:p", None);
            db.write(vec![stmt]).await.unwrap();
        }
        assert_eq!(open_tables_of(&db, "player:p").await, Ok(2));
        db.write(vec![set_unattended("t3", true)]).await.unwrap();
        assert_eq!(open_tables_of(&db, "player:p").await, Ok(3));
        db.write(vec![finish_table("t3", "draw", 2)]).await.unwrap();
        assert_eq!(open_tables_of(&db, "player:p").await, Ok(2), "over");
        db.write(vec![
            set_unattended("t2", true),
            set_unattended("t2", false),
        ])
        .await
        .unwrap();
        assert_eq!(
            open_tables_of(&db, "player:p").await,
            Ok(2),
            "attended again"
        );
        assert_eq!(open_tables_of(&db, "player:q").await, Ok(0));
    }
}
