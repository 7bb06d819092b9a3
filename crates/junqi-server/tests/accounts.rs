//! Accounts and security (docs/server-protocol.md, "Accounts and security"): the name policy
//! (look-alike names collide, reserved names, invisible characters and stacked marks, Chinese
//! names, guest display names), throttled logins and registrations, bounded password hashing,
//! session tokens stored only as hashes, sessions that expire, and the upgrade of a database
//! written by an earlier server.

mod common;
use common::*;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

const PW: &str = "correct horse 1";
const DAY_MS: u64 = 24 * 3600 * 1000;

/// Requests from `127.0.<n>.<m>`: a fresh client address for every call, so that tests of the name
/// policy never meet the per-address throttles.
fn fresh_src() -> String {
    use std::sync::atomic::{AtomicU32, Ordering};
    static NEXT: AtomicU32 = AtomicU32::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    format!("127.0.{}.{}", 100 + n / 250, 1 + n % 250)
}

async fn post_from(ts: &TestServer, src: &str, path: &str, body: Value) -> Reply {
    http_from(src, &ts.addr(), "POST", path, Some(&body), None).await
}

async fn register(ts: &TestServer, name: &str) -> Reply {
    post_from(
        ts,
        &fresh_src(),
        "/api/register",
        json!({"name": name, "password": PW}),
    )
    .await
}

async fn guest(ts: &TestServer, name: &str) -> Reply {
    post_from(ts, &fresh_src(), "/api/guest", json!({"name": name})).await
}

async fn me(ts: &TestServer, session: &str) -> u16 {
    http_from(
        &fresh_src(),
        &ts.addr(),
        "GET",
        "/api/me",
        None,
        Some(session),
    )
    .await
    .status
}

fn error_of(r: &Reply) -> String {
    r.body["error"].as_str().unwrap_or("").to_string()
}

/// The refusal's code (`{"error", "code", "args"}`, docs/server-protocol.md "Error codes").
fn code_of(r: &Reply) -> &str {
    r.body["code"].as_str().unwrap_or("")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn look_alikes_of_a_registered_name_are_refused() {
    let ts = start().await;
    let r = register(&ts, "alice").await;
    assert_eq!(r.status, 200, "{}", r.body);
    // Case, full-width forms (NFKC), capital I for l, digit 1 for l: the same key, so taken.
    for name in [
        "ALICE",
        "Alice",
        "ａｌｉｃｅ",
        "ＡＬＩＣＥ",
        "aIice",
        "al1ce",
    ] {
        let r = register(&ts, name).await;
        assert_eq!(r.status, 409, "{name}: {}", r.body);
        assert!(error_of(&r).contains("taken"), "{name}: {}", r.body);
        assert_eq!(code_of(&r), "account.name_taken", "{name}: {}", r.body);
        assert_eq!(r.body["args"]["owner"], "alice", "{name}: {}", r.body);
        assert_eq!(
            r.body["args"]["name"],
            junqi_server::names::normalise(name),
            "{name}: {}",
            r.body
        );
    }
    // A Cyrillic а among Latin letters: refused (mixed scripts), never registered beside alice.
    let r = register(&ts, "\u{430}lice").await;
    assert!(r.status == 400 || r.status == 409, "аlice: {}", r.body);
    assert!(!error_of(&r).is_empty());
    assert_eq!(code_of(&r), "name.mixed_scripts", "{}", r.body);
    assert_eq!(r.body["args"]["scripts"], json!(["Cyrillic", "Latin"]));
    // A name written wholly in Cyrillic letters that look Latin collides with the Latin name.
    assert_eq!(register(&ts, "ace").await.status, 200);
    let r = register(&ts, "\u{430}\u{441}\u{435}").await;
    assert_eq!(r.status, 409, "асе: {}", r.body);
    // Logging in under another spelling of the same key reaches the same account.
    let r = post_from(
        &ts,
        &fresh_src(),
        "/api/login",
        json!({"name": "ＡＬＩＣＥ", "password": PW}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["player"]["name"], "alice");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reserved_names_are_refused() {
    let ts = start().await;
    for name in [
        "Guest-1234",
        "guest-1234",
        "guest_7",
        "GUEST",
        "游客1234",
        "bot",
        "bot-search",
        "bot_1",
        "Bot2",
        "电脑",
        "电脑玩家",
        "computer",
        "Computer-1",
        "admin",
        "Administrator",
        "system",
        "junqi",
        "军棋",
    ] {
        let r = register(&ts, name).await;
        assert_eq!(r.status, 400, "{name}: {}", r.body);
        assert!(error_of(&r).contains("reserved"), "{name}: {}", r.body);
        assert_eq!(code_of(&r), "name.reserved", "{name}: {}", r.body);
        assert_eq!(r.body["args"]["name"], name, "{name}: {}", r.body);
        let g = guest(&ts, name).await;
        assert_eq!(g.status, 400, "guest {name}: {}", g.body);
        assert!(
            error_of(&g).contains("reserved"),
            "guest {name}: {}",
            g.body
        );
    }
    // Names that only begin like a reserved word's letters are fine.
    for name in ["botany", "bottle"] {
        assert_eq!(register(&ts, name).await.status, 200, "{name}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn invisible_characters_and_stacked_marks_are_refused() {
    let ts = start().await;
    for (name, why, code, point) in [
        ("ali\u{202E}ecila", "U+202E", "name.format", "U+202E"), // right-to-left override
        ("ali\u{200B}ce", "U+200B", "name.format", "U+200B"),    // zero-width space
        ("ali\u{200D}ce", "U+200D", "name.format", "U+200D"),    // zero-width joiner
        ("ali\u{FEFF}ce", "U+FEFF", "name.format", "U+FEFF"),    // zero-width no-break space
        ("\u{E000}bob", "U+E000", "name.private_use", "U+E000"), // private use
        ("bob\u{0007}", "U+0007", "name.control", "U+0007"),     // control
        ("bo\u{0378}b", "U+0378", "name.unassigned", "U+0378"),  // unassigned
        (
            "a\u{301}\u{302}\u{303}lice",
            "combining",
            "name.stacked_marks",
            "U+0302",
        ),
    ] {
        let g = guest(&ts, name).await;
        assert_eq!(g.status, 400, "guest {name:?}: {}", g.body);
        assert!(error_of(&g).contains(why), "guest {name:?}: {}", g.body);
        assert_eq!(code_of(&g), code, "guest {name:?}: {}", g.body);
        assert_eq!(
            g.body["args"]["code_point"], point,
            "guest {name:?}: {}",
            g.body
        );
        let r = register(&ts, name).await;
        assert_eq!(r.status, 400, "{name:?}: {}", r.body);
        assert!(error_of(&r).contains(why), "{name:?}: {}", r.body);
    }
    // One accent on a letter is fine (NFKC composes it).
    let r = register(&ts, "Zoe\u{301}").await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["player"]["name"], "Zoé");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chinese_names_are_accepted() {
    let ts = start().await;
    for name in ["张三", "司令王", "小明2024", "Li小龙", "欧阳_娜娜"] {
        let r = register(&ts, name).await;
        assert_eq!(r.status, 200, "{name}: {}", r.body);
        assert_eq!(r.body["player"]["name"], name);
        let r = post_from(
            &ts,
            &fresh_src(),
            "/api/login",
            json!({"name": name, "password": PW}),
        )
        .await;
        assert_eq!(r.status, 200, "login {name}: {}", r.body);
    }
    let g = guest(&ts, "李四").await;
    assert_eq!(g.status, 200, "{}", g.body);
    assert_eq!(g.body["player"]["name"], "李四");
    assert_eq!(g.body["player"]["guest"], true);
    // Lengths: 2 to 24 characters.
    for name in ["张", "a", &"长".repeat(25)] {
        let r = register(&ts, name).await;
        assert_eq!(r.status, 400, "{name}: {}", r.body);
        assert!(error_of(&r).contains("2 to 24"), "{name}: {}", r.body);
        assert_eq!(code_of(&r), "name.length", "{name}: {}", r.body);
        assert_eq!(
            r.body["args"],
            json!({"count": name.chars().count(), "min": 2, "max": 24})
        );
    }
    assert_eq!(register(&ts, &"长".repeat(24)).await.status, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn guest_names_follow_the_policy() {
    let ts = start().await;
    assert_eq!(register(&ts, "alice").await.status, 200);
    for name in ["alice", "ALICE", "ａｌｉｃｅ", "aIice"] {
        let g = guest(&ts, name).await;
        assert_eq!(g.status, 400, "guest {name}: {}", g.body);
        assert!(
            error_of(&g).contains("registered player"),
            "guest {name}: {}",
            g.body
        );
        assert_eq!(code_of(&g), "account.name_registered", "{}", g.body);
        assert_eq!(g.body["args"]["owner"], "alice", "{}", g.body);
    }
    for name in ["bot:search-strong", "x", ""] {
        let g = guest(&ts, name).await;
        if name.is_empty() {
            // No name: the server's own Guest-NNNN.
            assert_eq!(g.status, 200, "{}", g.body);
            assert!(g.body["player"]["name"]
                .as_str()
                .unwrap()
                .starts_with("Guest-"));
        } else {
            assert_eq!(g.status, 400, "guest {name}: {}", g.body);
            assert!(!error_of(&g).is_empty());
            let code = if name == "x" {
                "name.length"
            } else {
                "name.character"
            };
            assert_eq!(code_of(&g), code, "guest {name}: {}", g.body);
        }
    }
    let g = guest(&ts, "小红").await;
    assert_eq!(g.status, 200, "{}", g.body);
    assert_eq!(g.body["player"]["name"], "小红");
    // Two guests may share a display name (guests are told apart by a badge and their id).
    assert_eq!(guest(&ts, "小红").await.status, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn login_is_throttled_per_account() {
    let ts = start().await;
    assert_eq!(register(&ts, "carol").await.status, 200);
    let limit = ts.server.app.settings.accounts.login_failures_per_name;
    assert_eq!(limit, 10, "the documented default");
    let wrong = json!({"name": "carol", "password": "not the password"});
    for i in 0..limit {
        // Each from another address: the per-account limit holds whatever the address.
        let r = post_from(
            &ts,
            &format!("127.0.0.{}", 10 + i),
            "/api/login",
            wrong.clone(),
        )
        .await;
        assert_eq!(r.status, 401, "attempt {i}: {}", r.body);
    }
    let r = post_from(&ts, "127.0.0.40", "/api/login", wrong.clone()).await;
    assert_eq!(r.status, 429, "{}", r.body);
    let retry: u64 = r
        .header("retry-after")
        .expect("a Retry-After header")
        .parse()
        .expect("Retry-After in seconds");
    assert!(retry > 0);
    assert!(error_of(&r).contains("too many"), "{}", r.body);
    assert_eq!(code_of(&r), "account.throttled", "{}", r.body);
    assert_eq!(r.body["args"]["what"], "logins_per_name", "{}", r.body);
    assert_eq!(r.body["args"]["retry_after"], retry, "{}", r.body);
    // Another spelling of the same name is the same account.
    let r = post_from(
        &ts,
        "127.0.0.41",
        "/api/login",
        json!({"name": "CAROL", "password": PW}),
    )
    .await;
    assert_eq!(r.status, 429, "even the right password waits: {}", r.body);
    // Another account is not locked.
    assert_eq!(register(&ts, "dave").await.status, 200);
    let r = post_from(
        &ts,
        "127.0.0.42",
        "/api/login",
        json!({"name": "dave", "password": PW}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    // Once the window has passed, the right password works again.
    ts.clock.advance(retry * 1000 + 1000);
    let r = post_from(
        &ts,
        "127.0.0.43",
        "/api/login",
        json!({"name": "carol", "password": PW}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn login_is_throttled_per_address() {
    let ts = start().await;
    let limit = ts.server.app.settings.accounts.login_failures_per_address;
    assert_eq!(limit, 50, "the documented default");
    for i in 0..limit {
        let r = post_from(
            &ts,
            "127.0.0.3",
            "/api/login",
            json!({"name": format!("nobody{i}"), "password": "guessing away"}),
        )
        .await;
        assert_eq!(r.status, 401, "attempt {i}: {}", r.body);
        assert_eq!(code_of(&r), "account.wrong_password", "{}", r.body);
    }
    let r = post_from(
        &ts,
        "127.0.0.3",
        "/api/login",
        json!({"name": "someone", "password": "guessing away"}),
    )
    .await;
    assert_eq!(r.status, 429, "{}", r.body);
    assert!(r.header("retry-after").is_some());
    assert!(error_of(&r).contains("too many"), "{}", r.body);
    assert_eq!(code_of(&r), "account.throttled", "{}", r.body);
    assert_eq!(r.body["args"]["what"], "logins_per_address", "{}", r.body);
    // Another address is not throttled.
    let r = post_from(
        &ts,
        "127.0.0.5",
        "/api/login",
        json!({"name": "someone", "password": "guessing away"}),
    )
    .await;
    assert_eq!(r.status, 401, "{}", r.body);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn registration_is_throttled_per_address() {
    let ts = start().await;
    let limit = ts.server.app.settings.accounts.registrations_per_address;
    assert_eq!(limit, 20, "the documented default");
    for i in 0..limit {
        // Too short a password: refused, but still an attempt.
        let r = post_from(
            &ts,
            "127.0.0.4",
            "/api/register",
            json!({"name": format!("erin{i}"), "password": "short"}),
        )
        .await;
        assert_eq!(r.status, 400, "attempt {i}: {}", r.body);
        assert_eq!(code_of(&r), "account.bad_password", "{}", r.body);
        assert_eq!(r.body["args"], json!({"min": 8, "max": 256}));
    }
    let r = post_from(
        &ts,
        "127.0.0.4",
        "/api/register",
        json!({"name": "erin", "password": PW}),
    )
    .await;
    assert_eq!(r.status, 429, "{}", r.body);
    assert!(r.header("retry-after").is_some());
    assert!(error_of(&r).contains("too many"), "{}", r.body);
    assert_eq!(code_of(&r), "account.throttled", "{}", r.body);
    assert_eq!(
        r.body["args"]["what"], "registrations_per_address",
        "{}",
        r.body
    );
    let r = post_from(
        &ts,
        "127.0.0.6",
        "/api/register",
        json!({"name": "erin", "password": PW}),
    )
    .await;
    assert_eq!(r.status, 200, "another address: {}", r.body);
}

fn sha256_hex(token: &str) -> String {
    Sha256::digest(token.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Every byte the SQLite database holds on disk (the file and its write-ahead log).
fn database_bytes(ts: &TestServer) -> Vec<u8> {
    let dir = ts.dir.as_ref().expect("a data directory").path();
    let mut all = Vec::new();
    for f in ["junqi.sqlite3", "junqi.sqlite3-wal"] {
        if let Ok(b) = std::fs::read(dir.join(f)) {
            all.extend(b);
        }
    }
    assert!(!all.is_empty(), "the database files are there");
    all
}

fn contains(hay: &[u8], needle: &str) -> bool {
    hay.windows(needle.len()).any(|w| w == needle.as_bytes())
}

async fn open_db(ts: &TestServer) -> junqi_server::db::Db {
    let dir = ts.dir.as_ref().expect("a data directory").path();
    junqi_server::db::Db::open(&format!("sqlite://{}", dir.join("junqi.sqlite3").display()))
        .await
        .expect("open the test database")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn session_tokens_are_stored_only_as_hashes() {
    let ts = start().await;
    let g = guest(&ts, "").await;
    let r = register(&ts, "frank").await;
    let l = post_from(
        &ts,
        &fresh_src(),
        "/api/login",
        json!({"name": "frank", "password": PW}),
    )
    .await;
    let tokens: Vec<String> = [&g, &r, &l]
        .iter()
        .map(|x| x.body["session"].as_str().expect("a session").to_string())
        .collect();
    for t in &tokens {
        assert_eq!(me(&ts, t).await, 200);
    }
    let bytes = database_bytes(&ts);
    let db = open_db(&ts).await;
    for t in &tokens {
        assert!(!contains(&bytes, t), "the raw token {t} is on disk");
        let rows = db
            .fetch(
                "SELECT player_id FROM junqi_sessions WHERE token_hash = $1",
                vec![sha256_hex(t).into()],
            )
            .await
            .expect("sessions are looked up by hash");
        assert_eq!(rows.len(), 1, "one session row by the token's SHA-256");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sessions_expire_after_30_idle_days() {
    let ts = start().await;
    let s = register(&ts, "ivy").await.body["session"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(me(&ts, &s).await, 200);
    // Used every 20 days: the lifetime slides.
    ts.clock.advance(20 * DAY_MS);
    assert_eq!(me(&ts, &s).await, 200);
    ts.clock.advance(20 * DAY_MS);
    assert_eq!(me(&ts, &s).await, 200, "40 days old but used 20 days ago");
    // 30 idle days: refused, and the row is gone.
    ts.clock.advance(30 * DAY_MS + 60_000);
    assert_eq!(me(&ts, &s).await, 401, "expired after 30 idle days");
    let db = open_db(&ts).await;
    let rows = db
        .fetch(
            "SELECT player_id FROM junqi_sessions WHERE token_hash = $1",
            vec![sha256_hex(&s).into()],
        )
        .await
        .unwrap();
    assert!(rows.is_empty(), "the expired session is deleted");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn logout_deletes_the_session_by_hash() {
    let ts = start().await;
    let r = register(&ts, "grace").await;
    let s = r.body["session"].as_str().unwrap().to_string();
    let db = open_db(&ts).await;
    let count = |db: &junqi_server::db::Db, s: String| {
        let db = db.clone();
        async move {
            db.fetch(
                "SELECT player_id FROM junqi_sessions WHERE token_hash = $1",
                vec![sha256_hex(&s).into()],
            )
            .await
            .unwrap()
            .len()
        }
    };
    assert_eq!(count(&db, s.clone()).await, 1);
    let out = http_from(
        &fresh_src(),
        &ts.addr(),
        "POST",
        "/api/logout",
        None,
        Some(&s),
    )
    .await;
    assert_eq!(out.status, 204);
    assert_eq!(me(&ts, &s).await, 401);
    assert_eq!(count(&db, s).await, 0);
}

async fn login_from(ts: &TestServer, src: &str, name: &str, password: &str) -> Reply {
    post_from(
        ts,
        src,
        "/api/login",
        json!({"name": name, "password": password}),
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_login_does_one_password_verification() {
    let ts = start().await;
    assert_eq!(register(&ts, "heidi").await.status, 200);
    let app = &ts.server.app;
    let start = app.password_work();
    assert_eq!(start.hashes, 1, "the registration hashed once");
    let mut expected = start.verifications;
    for (name, pw, status) in [
        ("heidi", "not her password", 401),
        ("nobody_here", "not her password", 401), // unknown: verified against the dummy hash
        ("x!", "whatever it is", 401),            // no account can have this name
        ("HEIDI", PW, 200),
    ] {
        let r = login_from(&ts, &fresh_src(), name, pw).await;
        assert_eq!(r.status, status, "{name}: {}", r.body);
        if status == 401 {
            assert_eq!(error_of(&r), "wrong name or password");
        }
        expected += 1;
        assert_eq!(
            app.password_work().verifications,
            expected,
            "{name}: one argon2 verification"
        );
    }
}

/// `n` logins with wrong passwords for unknown names at once, each from its own address in
/// 127.0.`net`.0/24 (so that no address throttle stops them).
fn concurrent_wrong_logins(
    ts: &TestServer,
    n: usize,
    net: u8,
) -> Vec<tokio::task::JoinHandle<Reply>> {
    let addr = ts.addr();
    (0..n)
        .map(|i| {
            let addr = addr.clone();
            tokio::spawn(async move {
                http_from(
                    &format!("127.0.{net}.{}", i + 1),
                    &addr,
                    "POST",
                    "/api/login",
                    Some(&json!({"name": format!("nobody{i}"), "password": "guessing away"})),
                    None,
                )
                .await
            })
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn password_hashing_runs_on_a_bounded_number_of_threads() {
    let ts = start_with(|c| {
        c.settings.accounts.hash_threads = 2;
        c.settings.accounts.hash_queue = 64;
    })
    .await;
    let runs = concurrent_wrong_logins(&ts, 24, 1);
    for r in runs {
        let r = r.await.unwrap();
        assert_eq!(r.status, 401, "{}", r.body);
    }
    let work = ts.server.app.password_work();
    assert_eq!(work.verifications, 24);
    assert!(
        (1..=2).contains(&work.peak_in_flight),
        "at most 2 at once: {work:?}"
    );
    assert_eq!(work.in_flight, 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_hashing_queue_answers_503() {
    let ts = start_with(|c| {
        c.settings.accounts.hash_threads = 1;
        c.settings.accounts.hash_queue = 1;
    })
    .await;
    let runs = concurrent_wrong_logins(&ts, 32, 2);
    let mut busy = 0;
    for r in runs {
        let r = r.await.unwrap();
        match r.status {
            401 => {}
            503 => {
                busy += 1;
                assert_eq!(r.header("retry-after"), Some("2"));
                assert!(error_of(&r).contains("busy"), "{}", r.body);
                assert_eq!(code_of(&r), "account.hashing_busy", "{}", r.body);
                assert_eq!(r.body["args"]["retry_after"], 2, "{}", r.body);
            }
            s => panic!("unexpected {s}: {}", r.body),
        }
    }
    let work = ts.server.app.password_work();
    assert!(
        busy > 0,
        "32 logins at once overflow a queue of 1: {work:?}"
    );
    assert_eq!(work.refused_busy, busy);
    assert_eq!(work.verifications + busy, 32);
    assert_eq!(work.peak_in_flight, 1);
    // A refused login is not counted as a failure: it may be tried again at once.
    let r = login_from(&ts, "127.0.2.1", "nobody0", "guessing away").await;
    assert_eq!(r.status, 401, "{}", r.body);
}

/// A database as a server before the name policy and hashed sessions left it (migration 1).
async fn legacy_database(dir: &std::path::Path, rows: &[(&str, &str, &str, i64, Option<&str>)]) {
    use sqlx::Executor;
    let url = format!("sqlite://{}?mode=rwc", dir.join("junqi.sqlite3").display());
    let pool = sqlx::SqlitePool::connect(&url).await.unwrap();
    for stmt in include_str!("../migrations/sqlite/0001_init.sql").split(';') {
        let body: String = stmt
            .lines()
            .filter(|l| !l.trim_start().starts_with("--"))
            .collect::<Vec<_>>()
            .join("\n");
        if !body.trim().is_empty() {
            pool.execute(body.as_str()).await.unwrap();
        }
    }
    pool.execute(
        "CREATE TABLE junqi_migrations (version BIGINT PRIMARY KEY, applied_ms BIGINT NOT NULL)",
    )
    .await
    .unwrap();
    pool.execute("INSERT INTO junqi_migrations VALUES (1, 0)")
        .await
        .unwrap();
    for &(id, name, key, created, password) in rows {
        let hash = password.map(|pw| {
            use argon2::password_hash::{rand_core::OsRng, PasswordHasher, SaltString};
            argon2::Argon2::default()
                .hash_password(pw.as_bytes(), &SaltString::generate(&mut OsRng))
                .unwrap()
                .to_string()
        });
        let guest = i64::from(key.starts_with("guest:"));
        sqlx::query("INSERT INTO junqi_players (id, name, name_key, password_hash, guest, created_ms) VALUES ($1, $2, $3, $4, $5, $6)")
            .bind(id)
            .bind(name)
            .bind(key)
            .bind(hash)
            .bind(guest)
            .bind(created)
            .execute(&pool)
            .await
            .unwrap();
    }
    for (token, player) in [
        ("legacytokenbob0123456789abcdef", "p_bob"),
        ("legacytokenguest0123456789abcd", "p_guest"),
    ] {
        sqlx::query(
            "INSERT INTO junqi_sessions (token, player_id, created_ms) VALUES ($1, $2, $3)",
        )
        .bind(token)
        .bind(player)
        .bind(T0 as i64 - 5 * DAY_MS as i64)
        .execute(&pool)
        .await
        .unwrap();
    }
    pool.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_earlier_servers_players_and_sessions_are_brought_up_to_date() {
    let dir = tempfile::tempdir().unwrap();
    // Before the policy `аlice` (Cyrillic а) could register beside `alice`: the older keeps the
    // name, the newer keeps its account and logs in by its exact name.
    legacy_database(
        dir.path(),
        &[
            ("p_alice", "alice", "alice", 1, Some("alice password")),
            (
                "p_alice2",
                "\u{430}lice",
                "\u{430}lice",
                2,
                Some("other password"),
            ),
            ("p_bob", "Bob", "bob", 3, Some("bob password")),
            ("p_guest", "Guest-1111", "guest:p_guest", 4, None),
            ("bot:random", "bot:random", "bot:random", 5, None),
        ],
    )
    .await;
    let mut ts = start_at(None, Some(dir), junqi_server::ManualClock::new(T0)).await;
    // The sessions in clear still work, now by hash.
    let r = http_from(
        &fresh_src(),
        &ts.addr(),
        "GET",
        "/api/me",
        None,
        Some("legacytokenbob0123456789abcdef"),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["player"]["name"], "Bob");
    assert_eq!(me(&ts, "legacytokenguest0123456789abcd").await, 200);
    let db = open_db(&ts).await;
    let legacy = db
        .fetch("SELECT token FROM junqi_sessions_legacy", vec![])
        .await
        .unwrap();
    assert!(legacy.is_empty(), "no token is kept in clear");
    // Every player logs in as before.
    for (name, pw, id) in [
        ("alice", "alice password", "p_alice"),
        ("ALICE", "alice password", "p_alice"),
        ("\u{430}lice", "other password", "p_alice2"),
        ("bob", "bob password", "p_bob"),
    ] {
        let r = login_from(&ts, &fresh_src(), name, pw).await;
        assert_eq!(r.status, 200, "{name}: {}", r.body);
        assert_eq!(r.body["player"]["id"], id, "{name}");
    }
    let r = login_from(&ts, &fresh_src(), "\u{430}lice", "alice password").await;
    assert_eq!(r.status, 401, "аlice is its own account: {}", r.body);
    // Keys: the policy's for the oldest, a placeholder for the newer look-alike.
    let keys: Vec<(String, String, i64)> = db
        .fetch(
            "SELECT id, name_key, name_key_version FROM junqi_players ORDER BY created_ms",
            vec![],
        )
        .await
        .unwrap()
        .iter()
        .map(|r| {
            (
                junqi_server::db::col_str(r, 0),
                junqi_server::db::col_str(r, 1),
                junqi_server::db::col_i64(r, 2),
            )
        })
        .collect();
    let key = junqi_server::names::name_key;
    assert_eq!(
        keys,
        vec![
            ("p_alice".into(), key("alice"), 2),
            ("p_alice2".into(), "legacy:p_alice2".into(), 1),
            ("p_bob".into(), key("Bob"), 2),
            ("p_guest".into(), "guest:p_guest".into(), 2),
            ("bot:random".into(), "bot:random".into(), 2),
        ]
    );
    // The name is taken in every spelling; player pages find both players.
    assert_eq!(register(&ts, "Alice").await.status, 409);
    assert_eq!(register(&ts, "BOB").await.status, 409);
    let (st, page) = ts.get("/api/players/ALICE").await;
    assert_eq!((st, page["player"]["id"].as_str()), (200, Some("p_alice")));
    let (st, page) = ts.get("/api/players/%D0%B0lice").await;
    assert_eq!((st, page["player"]["id"].as_str()), (200, Some("p_alice2")));
    // The old tokens are wiped from the file too (deleted with secure_delete, then checkpointed).
    let mut wiped = false;
    for _ in 0..50 {
        let bytes = database_bytes(&ts);
        if !contains(&bytes, "legacytokenbob") && !contains(&bytes, "legacytokenguest") {
            wiped = true;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
    assert!(wiped, "the old tokens are no longer in the database files");
    // A second start on the same database changes nothing.
    ts.server.abort();
    let ts2 = start_at(None, ts.dir.take(), junqi_server::ManualClock::new(T0)).await;
    for (name, pw, id) in [
        ("alice", "alice password", "p_alice"),
        ("\u{430}lice", "other password", "p_alice2"),
    ] {
        let r = login_from(&ts2, &fresh_src(), name, pw).await;
        assert_eq!(r.status, 200, "{name}: {}", r.body);
        assert_eq!(r.body["player"]["id"], id, "{name}");
    }
    let again = db
        .fetch(
            "SELECT id, name_key, name_key_version FROM junqi_players ORDER BY created_ms",
            vec![],
        )
        .await
        .unwrap()
        .len();
    assert_eq!(again, keys.len());
}

/// The same defences on PostgreSQL, when `JUNQI_TEST_POSTGRES_URL` is set (`.ci/run` sets it):
/// look-alike names, reserved names, hashed sessions, expiry and logout.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_names_and_sessions() {
    let Ok(url) = std::env::var("JUNQI_TEST_POSTGRES_URL") else {
        eprintln!("JUNQI_TEST_POSTGRES_URL is not set: skipped");
        return;
    };
    let ts = start_at(Some(url.clone()), None, junqi_server::ManualClock::new(T0)).await;
    // Letters only (digits would fold into letters of the key): a name no earlier run took.
    let tag: String = (0..8)
        .map(|_| (b'a' + rand::random::<u8>() % 26) as char)
        .collect();
    let name = format!("pg{tag}");
    let r = register(&ts, &name).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let fullwidth: String = name
        .chars()
        .map(|c| char::from_u32(c as u32 - 'a' as u32 + 'ａ' as u32).unwrap())
        .collect();
    for n in [name.to_uppercase(), fullwidth] {
        let r = register(&ts, &n).await;
        assert_eq!(r.status, 409, "{n}: {}", r.body);
    }
    assert_eq!(guest(&ts, &name).await.status, 400);
    assert_eq!(register(&ts, "Guest-1234").await.status, 400);
    let session = r.body["session"].as_str().unwrap().to_string();
    let db = junqi_server::db::Db::open(&url).await.unwrap();
    let rows = |db: junqi_server::db::Db, sql: &'static str, arg: String| async move {
        db.fetch(sql, vec![arg.into()]).await.unwrap().len()
    };
    assert_eq!(
        rows(
            db.clone(),
            "SELECT player_id FROM junqi_sessions WHERE token_hash = $1",
            sha256_hex(&session)
        )
        .await,
        1
    );
    assert_eq!(
        rows(
            db.clone(),
            "SELECT player_id FROM junqi_sessions WHERE token_hash = $1",
            session.clone()
        )
        .await,
        0,
        "no row holds the raw token"
    );
    let l = login_from(&ts, &fresh_src(), &name.to_uppercase(), PW).await;
    assert_eq!(l.status, 200, "{}", l.body);
    let second = l.body["session"].as_str().unwrap().to_string();
    let out = http_from(
        &fresh_src(),
        &ts.addr(),
        "POST",
        "/api/logout",
        None,
        Some(&second),
    )
    .await;
    assert_eq!(out.status, 204);
    assert_eq!(me(&ts, &second).await, 401);
    assert_eq!(me(&ts, &session).await, 200);
    ts.clock.advance(30 * DAY_MS + 60_000);
    assert_eq!(me(&ts, &session).await, 401, "expired after 30 idle days");
    assert_eq!(
        rows(
            db,
            "SELECT player_id FROM junqi_sessions WHERE token_hash = $1",
            sha256_hex(&session)
        )
        .await,
        0
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn account_refusals_carry_codes_and_typed_bodies() {
    let ts = start().await;
    let addr = ts.addr();
    let call = |method: &'static str, path: &'static str, body: Option<Value>| {
        let addr = addr.clone();
        async move { http_from(&fresh_src(), &addr, method, path, body.as_ref(), None).await }
    };
    // Sessions: none at all for logout, none valid for me.
    let r = call("POST", "/api/logout", None).await;
    assert_eq!(
        (r.status, code_of(&r)),
        (401, "account.no_session"),
        "{}",
        r.body
    );
    assert_eq!(error_of(&r), "no session");
    let r = call("GET", "/api/me", None).await;
    assert_eq!(
        (r.status, code_of(&r)),
        (401, "account.bad_session"),
        "{}",
        r.body
    );
    assert_eq!(error_of(&r), "no valid session");
    // Players and their games.
    let r = call("GET", "/api/players/nobody-here", None).await;
    assert_eq!(
        (r.status, code_of(&r)),
        (404, "player.not_found"),
        "{}",
        r.body
    );
    assert_eq!(error_of(&r), "no such player");
    assert_eq!(r.body["args"], json!({}));
    let r = call("GET", "/api/games?player=nobody-here", None).await;
    assert_eq!(
        (r.status, code_of(&r)),
        (404, "player.not_found"),
        "{}",
        r.body
    );
    let r = call("GET", "/api/games", None).await;
    assert_eq!((r.status, code_of(&r)), (400, "request.bad"), "{}", r.body);
    assert_eq!(r.body["args"]["detail"], "give ?player=<name>");
    let r = call("GET", "/api/boards/hexagonal", None).await;
    assert_eq!(
        (r.status, code_of(&r)),
        (404, "board.not_found"),
        "{}",
        r.body
    );
    assert_eq!(r.body["args"]["board"], "hexagonal");
    // Bodies are typed: unknown fields, wrong types, missing fields and non-objects are refused,
    // naming what is wrong.
    for (path, body, says) in [
        ("/api/guest", json!({"nick": "x"}), "nick"),
        ("/api/guest", json!({"name": 7}), "invalid type"),
        ("/api/guest", json!(["alice"]), "JSON object"),
        ("/api/login", json!({"name": "alice"}), "password"),
        (
            "/api/login",
            json!({"name": "alice", "password": 12345678}),
            "invalid type",
        ),
        (
            "/api/login",
            json!({"name": "alice", "password": PW, "remember": true}),
            "remember",
        ),
        ("/api/register", json!({"password": PW}), "name"),
        (
            "/api/register",
            json!({"name": ["alice"], "password": PW}),
            "invalid type",
        ),
    ] {
        let r = call("POST", path, Some(body.clone())).await;
        assert_eq!(
            (r.status, code_of(&r)),
            (400, "request.bad"),
            "{path} {body}: {}",
            r.body
        );
        let detail = r.body["args"]["detail"].as_str().unwrap_or("");
        assert!(detail.contains(says), "{path} {body}: {}", r.body);
        assert_eq!(error_of(&r), detail);
    }
    // A wrong password: the one answer, with its code.
    let r = call(
        "POST",
        "/api/login",
        Some(json!({"name": "nobody-here", "password": PW})),
    )
    .await;
    assert_eq!(
        (r.status, code_of(&r)),
        (401, "account.wrong_password"),
        "{}",
        r.body
    );
    assert_eq!(error_of(&r), "wrong name or password");
    // An empty guest body is `{}`: a guest with the server's name.
    let r = call("POST", "/api/guest", None).await;
    assert_eq!(r.status, 200, "{}", r.body);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn guests_are_throttled_per_address_on_every_path() {
    let ts = start_with(|c| c.settings.accounts.guests_per_address = 3).await;
    // Three guests from one address: by POST /api/guest, by a table created without a session,
    // and by a seat taken on a WebSocket without one.
    let r = post_from(&ts, "127.0.0.9", "/api/guest", json!({})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let t = post_from(
        &ts,
        "127.0.0.9",
        "/api/tables",
        json!({"board": "two_player"}),
    )
    .await;
    assert_eq!(t.status, 201, "{}", t.body);
    let id = t.body["table"]["id"].as_str().unwrap().to_string();
    let mut c =
        junqi_server::client::WsClient::connect_from("127.0.0.9".parse().unwrap(), &ts.ws_url(&id))
            .await
            .unwrap();
    c.send(&json!({"type": "hello"})).await.unwrap();
    c.recv_type("welcome").await.unwrap();
    c.send(&json!({"type": "take_seat", "seat": 1, "id": 1}))
        .await
        .unwrap();
    let ack = c.recv_type("ack").await.unwrap();
    assert_eq!(ack["id"], 1);
    // The fourth is refused on every path, with the throttle's code and a wait.
    let r = post_from(&ts, "127.0.0.9", "/api/guest", json!({})).await;
    assert_eq!(r.status, 429, "{}", r.body);
    assert_eq!(code_of(&r), "account.throttled", "{}", r.body);
    assert_eq!(r.body["args"]["what"], "guests_per_address", "{}", r.body);
    assert!(r.header("retry-after").is_some());
    let t = post_from(&ts, "127.0.0.9", "/api/play-computer", json!({})).await;
    assert_eq!(t.status, 429, "{}", t.body);
    assert_eq!(code_of(&t), "account.throttled", "{}", t.body);
    // Another address has its own allowance; the window ends after an hour.
    let r = post_from(&ts, "127.0.0.10", "/api/guest", json!({})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    ts.clock.advance(3600 * 1000 + 1000);
    let r = post_from(&ts, "127.0.0.9", "/api/guest", json!({})).await;
    assert_eq!(r.status, 200, "after the window: {}", r.body);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn guests_that_never_played_are_deleted_after_an_idle_day() {
    let ts = start().await;
    let session = |r: &Reply| r.body["session"].as_str().unwrap().to_string();
    let id = |r: &Reply| r.body["player"]["id"].as_str().unwrap().to_string();
    let idle = guest(&ts, "").await;
    let played = guest(&ts, "").await;
    let active = guest(&ts, "").await;
    let db = open_db(&ts).await;
    // `played` finished a game.
    db.write1(
        "INSERT INTO junqi_game_players (table_id, seat, player_id, finished_ms) VALUES ('t_x', 0, $1, 1)",
        vec![id(&played).into()],
    )
    .await
    .unwrap();
    let players = |db: junqi_server::db::Db, p: String| async move {
        db.fetch("SELECT id FROM junqi_players WHERE id = $1", vec![p.into()])
            .await
            .unwrap()
            .len()
    };
    // Half a day: `active` uses its session; nothing is deleted yet.
    ts.clock.advance(DAY_MS / 2);
    assert_eq!(me(&ts, &session(&active)).await, 200);
    assert_eq!(players(db.clone(), id(&idle)).await, 1);
    // A day and an hour after they were made: the idle guest that never played is gone with
    // its session; the one that played and the one used half a day ago stay.
    ts.clock.advance(DAY_MS / 2 + 3600 * 1000 + 1000);
    assert_eq!(me(&ts, &session(&active)).await, 200, "used half a day ago");
    assert_eq!(
        me(&ts, &session(&idle)).await,
        401,
        "never played, idle a day"
    );
    assert_eq!(
        players(db.clone(), id(&idle)).await,
        0,
        "its row is deleted"
    );
    assert_eq!(me(&ts, &session(&played)).await, 200, "it played a game");
    assert_eq!(players(db.clone(), id(&played)).await, 1);
    assert_eq!(players(db.clone(), id(&active)).await, 1);
}
