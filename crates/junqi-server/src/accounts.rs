//! Accounts: guests, registration, login and logout, sessions, and their defences
//! (docs/server-protocol.md, "Accounts and security").
//!
//! - Names follow the policy of [`crate::names`]; the unique `name_key` column holds their
//!   confusable-skeleton key, so look-alike names are one name.
//! - Logins are throttled per account name and per client address, registrations per client
//!   address ([`Throttle`]: fixed windows in a bounded map). A throttled request gets 429 with
//!   `Retry-After`.
//! - Every login does one argon2 verification, against a fixed dummy hash when the name is
//!   unknown, so the answer's timing does not tell which names exist.
//! - Password hashing runs on [`AccountSettings::hash_threads`] dedicated threads, with at
//!   most [`AccountSettings::hash_queue`] requests waiting; beyond that: 503 with `Retry-After`.
//! - Session tokens are stored only as their SHA-256 (hex); a session expires after
//!   [`AccountSettings::session_idle_ms`] without use (sliding: each use moves it on).

use crate::app::{random_id, App, Player, ID_ALPHABET};
use crate::db::{col_i64, col_opt_str, col_str, Backend, Stmt};
use crate::error::{Refusal, ThrottleKind, PASSWORD_MAX, PASSWORD_MIN};
use crate::names;
use crate::secret::random_token;
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use tokio::sync::OnceCell;

const MINUTE_MS: u64 = 60 * 1000;
const HOUR_MS: u64 = 60 * MINUTE_MS;
const DAY_MS: u64 = 24 * HOUR_MS;

/// A session's last use is written again only when it is older than this (so that each request
/// does not write); idle time is measured to within this much.
pub const SESSION_TOUCH_MS: u64 = 10 * MINUTE_MS;
/// Expired sessions are deleted at most this often (and whenever one is looked up).
pub const SESSION_SWEEP_MS: u64 = HOUR_MS;

/// The argon2id hash (the crate's default parameters, as for real passwords) that a login for an
/// unknown name verifies against, so that it costs what a login for a known name costs. No
/// account has it; a login that reaches it fails whatever it verifies to.
const DUMMY_HASH: &str =
    "$argon2id$v=19$m=19456,t=2,p=1$Wn6ShmSRrWVOtdfkWTsk9Q$dPAcRN4KPQEtKACygT628Ba0E9AWuLOuFrzg2fCkVeA";

/// Limits of the account endpoints.
#[derive(Clone, Debug)]
pub struct AccountSettings {
    /// Failed logins for one account name within [`Self::login_window_ms`] before 429.
    pub login_failures_per_name: u32,
    /// Failed logins from one client address within [`Self::login_window_ms`] before 429.
    pub login_failures_per_address: u32,
    /// The window of the login throttles.
    pub login_window_ms: u64,
    /// Registration attempts from one client address within
    /// [`Self::registration_window_ms`] before 429.
    pub registrations_per_address: u32,
    /// The window of the registration throttle.
    pub registration_window_ms: u64,
    /// Guest players made for one client address (`POST /api/guest`, a table created or a seat
    /// taken without a session) within [`Self::guest_window_ms`] before 429.
    pub guests_per_address: u32,
    /// The window of the guest throttle.
    pub guest_window_ms: u64,
    /// A guest that has not played a game (none finished, no seat at a table still going) is
    /// deleted with its sessions once it is this old and none of its sessions was used for
    /// this long.
    pub unplayed_guest_ms: u64,
    /// The most keys each throttle remembers (older ones are forgotten first).
    pub throttle_capacity: usize,
    /// Threads that hash and verify passwords (so, hashes computed at once).
    pub hash_threads: usize,
    /// Requests that may wait for a hashing permit; beyond them: 503.
    pub hash_queue: usize,
    /// A session ends after this long without use.
    pub session_idle_ms: u64,
}

impl Default for AccountSettings {
    fn default() -> AccountSettings {
        AccountSettings {
            login_failures_per_name: 10,
            login_failures_per_address: 50,
            login_window_ms: 15 * MINUTE_MS,
            registrations_per_address: 20,
            registration_window_ms: HOUR_MS,
            guests_per_address: 60,
            guest_window_ms: HOUR_MS,
            unplayed_guest_ms: DAY_MS,
            throttle_capacity: 10_000,
            hash_threads: 2,
            hash_queue: 16,
            session_idle_ms: 30 * DAY_MS,
        }
    }
}

/// An internal failure of an account request (500).
fn internal(message: impl std::fmt::Display) -> Refusal {
    Refusal::Internal(message.to_string())
}

/// A throttled request (429 with `Retry-After`, in whole seconds, at least 1).
fn throttled(what: ThrottleKind, retry_ms: u64) -> Refusal {
    Refusal::Throttled {
        what,
        retry_after: retry_ms.div_ceil(1000).max(1),
    }
}

/// How much password work the server has done (tests and monitoring).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PasswordWork {
    /// Password verifications (logins), the dummy ones included.
    pub verifications: u64,
    /// Password hashes (registrations).
    pub hashes: u64,
    /// Hashes or verifications running now.
    pub in_flight: usize,
    /// The most that ever ran at once.
    pub peak_in_flight: usize,
    /// Requests refused because the wait queue was full.
    pub refused_busy: u64,
}

/// Counts of attempts per key in fixed windows, in a map of bounded size.
pub(crate) struct Throttle {
    limit: u32,
    window_ms: u64,
    capacity: usize,
    map: Mutex<HashMap<String, Window>>,
}

#[derive(Clone, Copy)]
struct Window {
    start_ms: u64,
    count: u32,
}

impl Throttle {
    pub(crate) fn new(limit: u32, window_ms: u64, capacity: usize) -> Throttle {
        Throttle {
            limit,
            window_ms,
            capacity: capacity.max(1),
            map: Mutex::new(HashMap::new()),
        }
    }

    /// Count one attempt for `key`, or refuse it with the milliseconds until its window ends.
    pub(crate) fn take(&self, key: &str, now: u64) -> Result<(), u64> {
        let Ok(mut map) = self.map.lock() else {
            return Ok(());
        };
        if let Some(w) = map.get_mut(key) {
            if now >= w.start_ms + self.window_ms {
                *w = Window {
                    start_ms: now,
                    count: 0,
                };
            }
            if w.count >= self.limit {
                return Err(w.start_ms + self.window_ms - now);
            }
            w.count += 1;
            return Ok(());
        }
        if self.limit == 0 {
            return Err(self.window_ms);
        }
        if map.len() >= self.capacity {
            self.evict(&mut map, now);
        }
        map.insert(
            key.to_string(),
            Window {
                start_ms: now,
                count: 1,
            },
        );
        Ok(())
    }

    /// Give back one attempt of `key` (it succeeded, or was not tried).
    pub(crate) fn refund(&self, key: &str) {
        if let Ok(mut map) = self.map.lock() {
            if let Some(w) = map.get_mut(key) {
                w.count = w.count.saturating_sub(1);
            }
        }
    }

    /// Forget `key` (a successful login clears its account's failures).
    pub(crate) fn clear(&self, key: &str) {
        if let Ok(mut map) = self.map.lock() {
            map.remove(key);
        }
    }

    /// Keys remembered now.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.map.lock().map(|m| m.len()).unwrap_or(0)
    }

    /// Make room: drop ended windows, then, if that is not enough, the oldest eighth.
    fn evict(&self, map: &mut HashMap<String, Window>, now: u64) {
        map.retain(|_, w| now < w.start_ms + self.window_ms);
        if map.len() < self.capacity {
            return;
        }
        let drop = (self.capacity / 8).max(1).min(map.len());
        let mut starts: Vec<u64> = map.values().map(|w| w.start_ms).collect();
        let (_, cut, _) = starts.select_nth_unstable(drop - 1);
        let cut = *cut;
        let mut removed = 0;
        map.retain(|_, w| {
            if removed < drop && w.start_ms <= cut {
                removed += 1;
                false
            } else {
                true
            }
        });
    }
}

/// A unit of password work for the hashing threads.
type Job = Box<dyn FnOnce() + Send>;

/// Bounds password hashing: a fixed set of threads does all of it (so at most that many argon2
/// memory blocks exist at once, and the memory each thread's allocator keeps stays bounded), and
/// at most `limit` requests are admitted (running or waiting).
struct HashGate {
    jobs: Mutex<std::sync::mpsc::Sender<Job>>,
    limit: usize,
    admitted: AtomicUsize,
    in_flight: AtomicUsize,
    peak: AtomicUsize,
    verifications: AtomicU64,
    hashes: AtomicU64,
    busy: AtomicU64,
}

/// One admission to the gate; leaving it (when the work is done) frees the place.
struct Admission(Arc<HashGate>);

impl Drop for Admission {
    fn drop(&mut self) {
        self.0.admitted.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Counts one piece of work in flight while it lives.
struct InFlight<'a>(&'a HashGate);

impl<'a> InFlight<'a> {
    fn start(gate: &'a HashGate) -> InFlight<'a> {
        let now = gate.in_flight.fetch_add(1, Ordering::SeqCst) + 1;
        gate.peak.fetch_max(now, Ordering::SeqCst);
        InFlight(gate)
    }
}

impl Drop for InFlight<'_> {
    fn drop(&mut self) {
        self.0.in_flight.fetch_sub(1, Ordering::SeqCst);
    }
}

impl HashGate {
    /// A gate with `threads` hashing threads and room for `queue` waiting requests. The threads
    /// end when the gate is dropped.
    fn new(threads: usize, queue: usize) -> Arc<HashGate> {
        let threads = threads.max(1);
        let (tx, rx) = std::sync::mpsc::channel::<Job>();
        let rx = Arc::new(Mutex::new(rx));
        for i in 0..threads {
            let rx = rx.clone();
            let started = std::thread::Builder::new()
                .name(format!("junqi-password-{i}"))
                .spawn(move || loop {
                    let job = match rx.lock() {
                        Ok(r) => r.recv(),
                        Err(_) => return,
                    };
                    match job {
                        Ok(job) => {
                            // A panic ends that job only (its request gets a 500), not the thread.
                            let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(job));
                        }
                        Err(_) => return,
                    }
                });
            if let Err(e) = started {
                tracing::error!("starting password hashing thread {i} failed: {e}");
            }
        }
        Arc::new(HashGate {
            jobs: Mutex::new(tx),
            limit: threads + queue,
            admitted: AtomicUsize::new(0),
            in_flight: AtomicUsize::new(0),
            peak: AtomicUsize::new(0),
            verifications: AtomicU64::new(0),
            hashes: AtomicU64::new(0),
            busy: AtomicU64::new(0),
        })
    }

    /// Admit one request or refuse it (503) when `limit` are already admitted.
    fn admit(self: &Arc<Self>) -> Result<Admission, Refusal> {
        if self.admitted.fetch_add(1, Ordering::SeqCst) >= self.limit {
            self.admitted.fetch_sub(1, Ordering::SeqCst);
            self.busy.fetch_add(1, Ordering::Relaxed);
            return Err(Refusal::HashingBusy { retry_after: 2 });
        }
        Ok(Admission(self.clone()))
    }

    /// Run `work` on a hashing thread once one is free. The admission travels with the work, so
    /// a request that goes away does not free its place before the work ends.
    async fn run<T: Send + 'static>(
        self: &Arc<Self>,
        work: impl FnOnce(&HashGate) -> T + Send + 'static,
    ) -> Result<T, Refusal> {
        let admission = self.admit()?;
        let (tx, rx) = tokio::sync::oneshot::channel();
        let job: Job = Box::new(move || {
            let gate = admission.0.clone();
            let out = {
                let _counted = InFlight::start(&gate);
                work(&gate)
            };
            // The place is free before the answer goes out.
            drop(admission);
            let _ = tx.send(out);
        });
        self.jobs
            .lock()
            .map_err(internal)?
            .send(job)
            .map_err(|_| internal("the password hashing threads stopped"))?;
        rx.await
            .map_err(|_| internal("a password hashing job failed"))
    }

    fn work(&self) -> PasswordWork {
        PasswordWork {
            verifications: self.verifications.load(Ordering::SeqCst),
            hashes: self.hashes.load(Ordering::SeqCst),
            in_flight: self.in_flight.load(Ordering::SeqCst),
            peak_in_flight: self.peak.load(Ordering::SeqCst),
            refused_busy: self.busy.load(Ordering::SeqCst),
        }
    }
}

/// The most argon2 memory (KiB) a stored hash may ask for: four times the default.
const MAX_M_COST: u32 = 4 * argon2::Params::DEFAULT_M_COST;

thread_local! {
    /// The argon2 memory of this hashing thread, allocated once and reused by every hash. With a
    /// fresh 19 MiB buffer per hash, glibc keeps the freed buffers (its mmap threshold rises
    /// past their size), and a process grew by about 16 MB per login, never returned.
    static BLOCKS: std::cell::RefCell<Vec<argon2::Block>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Run `f` on this thread's argon2 memory of at least `count` blocks.
fn with_blocks<T>(count: usize, f: impl FnOnce(&mut [argon2::Block]) -> T) -> T {
    BLOCKS.with(|b| {
        let mut b = b.borrow_mut();
        if b.len() < count {
            b.resize(count, argon2::Block::default());
        }
        f(&mut b[..count])
    })
}

/// Whether `password` matches the PHC string `phc` (argon2 of any variant and version the
/// crate knows, at most [`MAX_M_COST`]), computed in this thread's reused memory and compared in
/// constant time.
fn argon2_verify(phc: &str, password: &str) -> bool {
    use argon2::password_hash::{Output, PasswordHash};
    let Ok(hash) = PasswordHash::new(phc) else {
        return false;
    };
    let (Ok(algorithm), Ok(params)) = (
        argon2::Algorithm::try_from(hash.algorithm),
        argon2::Params::try_from(&hash),
    ) else {
        return false;
    };
    let version = match hash.version.map(argon2::Version::try_from) {
        None => argon2::Version::default(),
        Some(Ok(v)) => v,
        Some(Err(_)) => return false,
    };
    let (Some(salt), Some(expected)) = (hash.salt, hash.hash) else {
        return false;
    };
    if params.m_cost() > MAX_M_COST {
        return false;
    }
    let mut salt_buf = [0u8; 64];
    let Ok(salt) = salt.decode_b64(&mut salt_buf) else {
        return false;
    };
    let count = params.block_count();
    let ctx = argon2::Argon2::new(algorithm, version, params);
    let mut out = [0u8; 64];
    let out = &mut out[..expected.len()];
    let computed = with_blocks(count, |blocks| {
        ctx.hash_password_into_with_memory(password.as_bytes(), salt, out, blocks)
    });
    computed.is_ok() && Output::new(out).is_ok_and(|o| o == expected)
}

/// An argon2id PHC string of `password` with the crate's default parameters and a random salt,
/// computed in this thread's reused memory.
fn argon2_hash(password: &str) -> Result<String, String> {
    use argon2::password_hash::{rand_core::OsRng, Output, ParamsString, PasswordHash, SaltString};
    let salt = SaltString::generate(&mut OsRng);
    let params = argon2::Params::default();
    let (algorithm, version) = (argon2::Algorithm::default(), argon2::Version::default());
    let ctx = argon2::Argon2::new(algorithm, version, params.clone());
    let mut salt_buf = [0u8; 64];
    let salt_bytes = salt
        .as_salt()
        .decode_b64(&mut salt_buf)
        .map_err(|e| e.to_string())?;
    let mut out = [0u8; argon2::Params::DEFAULT_OUTPUT_LEN];
    with_blocks(params.block_count(), |blocks| {
        ctx.hash_password_into_with_memory(password.as_bytes(), salt_bytes, &mut out, blocks)
    })
    .map_err(|e| e.to_string())?;
    let phc = PasswordHash {
        algorithm: algorithm.ident(),
        version: Some(version.into()),
        params: ParamsString::try_from(&params).map_err(|e| e.to_string())?,
        salt: Some(salt.as_salt()),
        hash: Some(Output::new(&out).map_err(|e| e.to_string())?),
    };
    Ok(phc.to_string())
}

/// Verify `password` against `stored`, or against the dummy hash when there is no account: the
/// one function every login calls, so both paths do the same work. True only for a real account
/// whose hash matches.
fn check_password(gate: &HashGate, stored: Option<&str>, password: &str) -> bool {
    gate.verifications.fetch_add(1, Ordering::SeqCst);
    let ok = argon2_verify(stored.unwrap_or(DUMMY_HASH), password);
    ok && stored.is_some()
}

fn hash_password(gate: &HashGate, password: &str) -> Result<String, String> {
    gate.hashes.fetch_add(1, Ordering::SeqCst);
    argon2_hash(password)
}

/// The SHA-256 of a session token in hex: what the database keeps instead of the token.
pub use crate::secret::hash_token as token_hash;

/// The throttle key of a client address: IPv4 addresses one by one, IPv6 by /64 network (one
/// machine usually has a whole /64).
pub fn address_key(ip: IpAddr) -> String {
    match ip {
        IpAddr::V4(v4) => v4.to_string(),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => v4.to_string(),
            None => {
                let s = v6.segments();
                format!("{:x}:{:x}:{:x}:{:x}::/64", s[0], s[1], s[2], s[3])
            }
        },
    }
}

/// The account state of a running server: throttles, the hashing gate, and whether the database
/// rows of an earlier server were brought up to date.
pub(crate) struct Accounts {
    settings: AccountSettings,
    login_by_name: Throttle,
    login_by_address: Throttle,
    register_by_address: Throttle,
    guest_by_address: Throttle,
    gate: Arc<HashGate>,
    upgraded: OnceCell<()>,
    next_sweep_ms: AtomicU64,
}

impl Accounts {
    pub(crate) fn new(settings: &AccountSettings) -> Accounts {
        let s = settings.clone();
        Accounts {
            login_by_name: Throttle::new(
                s.login_failures_per_name,
                s.login_window_ms,
                s.throttle_capacity,
            ),
            login_by_address: Throttle::new(
                s.login_failures_per_address,
                s.login_window_ms,
                s.throttle_capacity,
            ),
            register_by_address: Throttle::new(
                s.registrations_per_address,
                s.registration_window_ms,
                s.throttle_capacity,
            ),
            guest_by_address: Throttle::new(
                s.guests_per_address,
                s.guest_window_ms,
                s.throttle_capacity,
            ),
            gate: HashGate::new(s.hash_threads, s.hash_queue),
            upgraded: OnceCell::new(),
            next_sweep_ms: AtomicU64::new(0),
            settings: s,
        }
    }
}

/// A registered player row found for a login or a player page.
struct Found {
    id: String,
    name: String,
    guest: bool,
    hash: Option<String>,
}

fn found(row: &sqlx::any::AnyRow) -> Found {
    Found {
        id: col_str(row, 0),
        name: col_str(row, 1),
        guest: col_i64(row, 2) != 0,
        hash: col_opt_str(row, 3),
    }
}

/// The guests made at or before `$1` that never played and have not been used since: no
/// finished game, no seat at (nor creation of) a table still going (whose stored seats list
/// holds the player's id), and no session used after `$1`.
macro_rules! unplayed_guests {
    () => {
        "SELECT p.id FROM junqi_players p WHERE p.guest = 1 AND p.created_ms <= $1 \
         AND NOT EXISTS (SELECT 1 FROM junqi_game_players g WHERE g.player_id = p.id) \
         AND NOT EXISTS (SELECT 1 FROM junqi_sessions s WHERE s.player_id = p.id \
         AND s.last_used_ms > $1) \
         AND NOT EXISTS (SELECT 1 FROM junqi_tables t WHERE t.status <> 'over' \
         AND (t.seats LIKE '%' || p.id || '%' OR t.creator = 'player:' || p.id))"
    };
}
/// Guests a sweep deletes in one write, oldest first. The sweep shares the database's one
/// writer with the tables: in batches, the tables' entries are committed in between.
const UNPLAYED_BATCH: usize = 1000;
/// The most batches one sweep deletes.
const UNPLAYED_BATCHES: usize = 10;
const COUNT_UNPLAYED: &str = concat!(
    "SELECT COUNT(*) FROM (",
    unplayed_guests!(),
    " LIMIT 10000) u"
);
// The sessions' statement and the players' pick the same guests: the oldest of one order.
const DELETE_UNPLAYED_SESSIONS: &str = concat!(
    "DELETE FROM junqi_sessions WHERE player_id IN (",
    unplayed_guests!(),
    " ORDER BY p.created_ms, p.id LIMIT 1000)"
);
const DELETE_UNPLAYED_GUESTS: &str = concat!(
    "DELETE FROM junqi_players WHERE id IN (",
    unplayed_guests!(),
    " ORDER BY p.created_ms, p.id LIMIT 1000)"
);

const INSERT_SESSION: &str = "INSERT INTO junqi_sessions (token_hash, player_id, created_ms, last_used_ms) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING";

impl App {
    /// Bring rows written by a server before migration 2 up to date, once per process: hash the
    /// session tokens kept in clear (`junqi_sessions_legacy`), and give registered players the
    /// key of the name policy, oldest first. A player whose new key an older player already has
    /// keeps `legacy:<id>` as its key and logs in by its exact name (see [`App::login`]).
    async fn accounts_ready(&self) -> Result<(), Refusal> {
        self.accounts
            .upgraded
            .get_or_try_init(|| async {
                self.upgrade_accounts()
                    .await
                    .map_err(|e| internal(format!("bringing accounts up to date: {e}")))
            })
            .await
            .map(|_| ())
    }

    async fn upgrade_accounts(&self) -> Result<(), String> {
        let now = self.now() as i64;
        loop {
            let rows = self
                .db
                .fetch(
                    "SELECT token, player_id, created_ms FROM junqi_sessions_legacy LIMIT 500",
                    vec![],
                )
                .await?;
            if rows.is_empty() {
                break;
            }
            let mut stmts: Vec<Stmt> = Vec::with_capacity(rows.len() * 2 + 2);
            // SQLite overwrites what it deletes with zeros, so that the old tokens leave the file.
            let sqlite = self.db.backend() == Backend::Sqlite;
            if sqlite {
                stmts.push(("PRAGMA secure_delete = ON", vec![]));
            }
            for r in &rows {
                let token = col_str(r, 0);
                stmts.push((
                    INSERT_SESSION,
                    vec![
                        token_hash(&token).into(),
                        col_str(r, 1).into(),
                        col_i64(r, 2).into(),
                        now.into(),
                    ],
                ));
                stmts.push((
                    "DELETE FROM junqi_sessions_legacy WHERE token = $1",
                    vec![token.into()],
                ));
            }
            if sqlite {
                stmts.push(("PRAGMA secure_delete = OFF", vec![]));
            }
            self.db.write(stmts).await?;
        }
        let rows = self
            .db
            .fetch(
                "SELECT id, name FROM junqi_players WHERE name_key_version = 1 AND guest = 0 \
                 AND id NOT LIKE 'bot:%' ORDER BY created_ms, id",
                vec![],
            )
            .await?;
        for r in &rows {
            let (id, name) = (col_str(r, 0), col_str(r, 1));
            let key = names::name_key(&name);
            if let Err(e) = self
                .db
                .write1(
                    "UPDATE junqi_players SET name_key = $1, name_key_version = 2 WHERE id = $2 AND name_key_version = 1",
                    vec![key.into(), id.as_str().into()],
                )
                .await
            {
                tracing::warn!(
                    "player {id} ({name:?}) keeps its old key: an older player's name is the same name ({e})"
                );
            }
        }
        self.sweep_sessions(true).await;
        Ok(())
    }

    /// Delete expired sessions and the guests that never played (see
    /// [`AccountSettings::unplayed_guest_ms`]), at most every [`SESSION_SWEEP_MS`] unless
    /// `force`.
    async fn sweep_sessions(&self, force: bool) {
        let now = self.now();
        let next = self.accounts.next_sweep_ms.load(Ordering::SeqCst);
        if !force && now < next {
            return;
        }
        if self
            .accounts
            .next_sweep_ms
            .compare_exchange(
                next,
                now + SESSION_SWEEP_MS,
                Ordering::SeqCst,
                Ordering::SeqCst,
            )
            .is_err()
        {
            return;
        }
        let oldest = now.saturating_sub(self.accounts.settings.session_idle_ms) as i64;
        if let Err(e) = self
            .db
            .write1(
                "DELETE FROM junqi_sessions WHERE last_used_ms <= $1",
                vec![oldest.into()],
            )
            .await
        {
            tracing::warn!("deleting expired sessions failed: {e}");
        }
        let made_before = now.saturating_sub(self.accounts.settings.unplayed_guest_ms) as i64;
        let unplayed = self
            .db
            .fetch_opt(COUNT_UNPLAYED, vec![made_before.into()])
            .await
            .map(|r| r.map_or(0, |r| col_i64(&r, 0).max(0) as usize));
        let batches = match unplayed {
            Ok(n) => n.div_ceil(UNPLAYED_BATCH).min(UNPLAYED_BATCHES),
            Err(e) => {
                tracing::warn!("counting the guests that never played failed: {e}");
                0
            }
        };
        for _ in 0..batches {
            let deleted = self
                .db
                .write(vec![
                    (DELETE_UNPLAYED_SESSIONS, vec![made_before.into()]),
                    (DELETE_UNPLAYED_GUESTS, vec![made_before.into()]),
                ])
                .await;
            if let Err(e) = deleted {
                tracing::warn!("deleting the guests that never played failed: {e}");
                break;
            }
        }
    }

    /// The player of a session token, if the session exists and has not expired; a use moves
    /// its expiry on.
    pub async fn player_by_session(&self, token: &str) -> Option<Player> {
        if token.len() > 128 || self.accounts_ready().await.is_err() {
            return None;
        }
        self.sweep_sessions(false).await;
        let hash = token_hash(token);
        let row = self
            .db
            .fetch_opt(
                "SELECT p.id, p.name, p.guest, s.last_used_ms FROM junqi_sessions s JOIN junqi_players p ON p.id = s.player_id WHERE s.token_hash = $1",
                vec![hash.as_str().into()],
            )
            .await
            .ok()??;
        let now = self.now();
        let last_used = col_i64(&row, 3).max(0) as u64;
        if now >= last_used + self.accounts.settings.session_idle_ms {
            let _ = self
                .db
                .write1(
                    "DELETE FROM junqi_sessions WHERE token_hash = $1",
                    vec![hash.into()],
                )
                .await;
            return None;
        }
        if now >= last_used + SESSION_TOUCH_MS {
            let _ = self
                .db
                .write1(
                    "UPDATE junqi_sessions SET last_used_ms = $1 WHERE token_hash = $2",
                    vec![(now as i64).into(), hash.into()],
                )
                .await;
        }
        Some(Player {
            id: col_str(&row, 0),
            name: col_str(&row, 1),
            guest: col_i64(&row, 2) != 0,
        })
    }

    async fn new_session(&self, player_id: &str) -> Result<String, Refusal> {
        let token = random_token(24);
        let now = self.now() as i64;
        self.db
            .write1(
                INSERT_SESSION,
                vec![
                    token_hash(&token).into(),
                    player_id.into(),
                    now.into(),
                    now.into(),
                ],
            )
            .await
            .map_err(internal)?;
        Ok(token)
    }

    /// Whether a registered player has this name key.
    async fn key_taken(&self, key: &str) -> Result<Option<String>, Refusal> {
        Ok(self
            .db
            .fetch_opt(
                "SELECT name FROM junqi_players WHERE name_key = $1 AND guest = 0",
                vec![key.into()],
            )
            .await
            .map_err(internal)?
            .map(|r| col_str(&r, 0)))
    }

    /// A new guest player and its session, made for a client at address `client`. A chosen
    /// name follows the name policy and may not be a registered player's name (400 with the
    /// reason); without one the guest is `Guest-NNNN`. Errors: 429 when the address has made
    /// [`AccountSettings::guests_per_address`] guests within the window.
    pub async fn new_guest(
        &self,
        name: Option<&str>,
        client: IpAddr,
    ) -> Result<(Player, String), Refusal> {
        self.accounts_ready().await?;
        let by_address = address_key(client);
        self.accounts
            .guest_by_address
            .take(&by_address, self.now())
            .map_err(|ms| throttled(ThrottleKind::GuestsPerAddress, ms))?;
        let shown = match name.map(str::trim).filter(|n| !n.is_empty()) {
            None => format!("Guest-{}", random_id(4, b"0123456789")),
            Some(n) => {
                let checked = names::check(n)?;
                if let Some(owner) = self.key_taken(&checked.key).await? {
                    return Err(Refusal::NameRegistered {
                        name: checked.display,
                        owner,
                    });
                }
                checked.display
            }
        };
        let id = format!("p_{}", random_id(12, ID_ALPHABET));
        let key = format!("guest:{id}");
        self.db
            .write1(
                "INSERT INTO junqi_players (id, name, name_key, password_hash, guest, created_ms) VALUES ($1, $2, $3, NULL, 1, $4)",
                vec![id.clone().into(), shown.clone().into(), key.into(), (self.now() as i64).into()],
            )
            .await
            .map_err(internal)?;
        let session = self.new_session(&id).await?;
        Ok((
            Player {
                id,
                name: shown,
                guest: true,
            },
            session,
        ))
    }

    /// Register an account (argon2-hashed password) from the client address `client`; with a
    /// guest's player the guest becomes the account. Errors: 429 (too many registrations from
    /// that address), 400 (the name policy, or a password not of 8 to 256 characters), 409 (the
    /// name, or a look-alike of it, is taken), 503 (hashing busy).
    pub async fn register(
        &self,
        name: &str,
        password: &str,
        from_guest: Option<&Player>,
        client: IpAddr,
    ) -> Result<(Player, String), Refusal> {
        self.accounts_ready().await?;
        let acc = &self.accounts;
        acc.register_by_address
            .take(&address_key(client), self.now())
            .map_err(|ms| throttled(ThrottleKind::RegistrationsPerAddress, ms))?;
        let checked = names::check(name)?;
        if password.chars().count() < PASSWORD_MIN || password.len() > PASSWORD_MAX {
            return Err(Refusal::BadPassword);
        }
        let taken = |owner: &str| Refusal::NameTaken {
            name: checked.display.clone(),
            owner: owner.to_string(),
        };
        if let Some(owner) = self.key_taken(&checked.key).await? {
            return Err(taken(&owner));
        }
        let pw = password.to_string();
        let hash = acc
            .gate
            .run(move |g| hash_password(g, &pw))
            .await?
            .map_err(internal)?;
        let display = checked.display.clone();
        let id = match from_guest {
            Some(g) => {
                self.db
                    .write1(
                        "UPDATE junqi_players SET name = $1, name_key = $2, password_hash = $3, guest = 0, name_key_version = 2 WHERE id = $4 AND guest = 1",
                        vec![display.as_str().into(), checked.key.as_str().into(), hash.into(), g.id.as_str().into()],
                    )
                    .await
                    .map_err(|_| taken(&display))?;
                g.id.clone()
            }
            None => {
                let id = format!("p_{}", random_id(12, ID_ALPHABET));
                self.db
                    .write1(
                        "INSERT INTO junqi_players (id, name, name_key, password_hash, guest, created_ms, name_key_version) VALUES ($1, $2, $3, $4, 0, $5, 2)",
                        vec![id.clone().into(), display.as_str().into(), checked.key.as_str().into(), hash.into(), (self.now() as i64).into()],
                    )
                    .await
                    .map_err(|_| taken(&display))?;
                id
            }
        };
        let session = self.new_session(&id).await?;
        Ok((
            Player {
                id,
                name: display,
                guest: false,
            },
            session,
        ))
    }

    /// End a session (its row is deleted by the token's hash).
    pub async fn logout(&self, token: &str) -> Result<(), Refusal> {
        self.accounts_ready().await?;
        self.db
            .write1(
                "DELETE FROM junqi_sessions WHERE token_hash = $1",
                vec![token_hash(token).into()],
            )
            .await
            .map_err(internal)
    }

    /// The registered player a login name means: the player with its key, unless a player kept
    /// from before the name policy (whose key was another's) has exactly this name.
    async fn login_candidate(&self, name: &str) -> Result<Option<Found>, Refusal> {
        let key = names::name_key(name);
        let typed = names::normalise(name).to_lowercase();
        let by_key = self
            .db
            .fetch_opt(
                "SELECT id, name, guest, password_hash FROM junqi_players WHERE name_key = $1 AND guest = 0",
                vec![key.into()],
            )
            .await
            .map_err(internal)?
            .map(|r| found(&r));
        let kept = self
            .db
            .fetch(
                "SELECT id, name, guest, password_hash FROM junqi_players WHERE name_key_version = 1 \
                 AND guest = 0 AND id NOT LIKE 'bot:%'",
                vec![],
            )
            .await
            .map_err(internal)?;
        let exact = kept
            .iter()
            .map(found)
            .find(|f| names::normalise(&f.name).to_lowercase() == typed);
        Ok(match (exact, by_key) {
            (Some(e), Some(k)) if names::normalise(&k.name).to_lowercase() != typed => Some(e),
            (_, Some(k)) => Some(k),
            (e, None) => e,
        })
    }

    /// Log in with a name (any spelling of its key) and password from the client address
    /// `client`. Errors: 401 (wrong name or password, the same for an unknown name, which costs
    /// the same argon2 verification), 429 (too many failures for this name or from this
    /// address), 503 (hashing busy).
    pub async fn login(
        &self,
        name: &str,
        password: &str,
        client: IpAddr,
    ) -> Result<(Player, String), Refusal> {
        let bad = || Refusal::WrongPassword;
        if name.len() > 64 || password.len() > 256 {
            return Err(bad());
        }
        self.accounts_ready().await?;
        let acc = &self.accounts;
        let now = self.now();
        let address = address_key(client);
        let account = names::name_key(name);
        acc.login_by_address
            .take(&address, now)
            .map_err(|ms| throttled(ThrottleKind::LoginsPerAddress, ms))?;
        if let Err(ms) = acc.login_by_name.take(&account, now) {
            acc.login_by_address.refund(&address);
            return Err(throttled(ThrottleKind::LoginsPerName, ms));
        }
        let refund = || {
            acc.login_by_address.refund(&address);
            acc.login_by_name.refund(&account);
        };
        let candidate = match self.login_candidate(name).await {
            Ok(c) => c,
            Err(e) => {
                refund();
                return Err(e);
            }
        };
        let stored = candidate.as_ref().and_then(|f| f.hash.clone());
        let pw = password.to_string();
        let ok = match acc
            .gate
            .run(move |g| check_password(g, stored.as_deref(), &pw))
            .await
        {
            Ok(ok) => ok,
            Err(e) => {
                refund();
                return Err(e);
            }
        };
        let Some(f) = candidate.filter(|_| ok) else {
            return Err(bad());
        };
        acc.login_by_address.refund(&address);
        acc.login_by_name.clear(&account);
        let session = self.new_session(&f.id).await?;
        Ok((
            Player {
                id: f.id,
                name: f.name,
                guest: false,
            },
            session,
        ))
    }

    /// The player a page name means: a registered player by any spelling of its name, a guest or
    /// a bot by id.
    pub async fn player_by_name(&self, name: &str) -> Result<Option<Player>, String> {
        if name.len() > 64 {
            return Ok(None);
        }
        self.accounts_ready().await.map_err(|e| e.to_string())?;
        let by_id = self
            .db
            .fetch_opt(
                "SELECT id, name, guest, password_hash FROM junqi_players WHERE id = $1",
                vec![name.into()],
            )
            .await?
            .map(|r| found(&r));
        let f = match by_id {
            Some(f) => Some(f),
            None => self
                .login_candidate(name)
                .await
                .map_err(|e| e.to_string())?,
        };
        Ok(f.map(|f| Player {
            id: f.id,
            name: f.name,
            guest: f.guest,
        }))
    }

    /// How much password work this server has done.
    pub fn password_work(&self) -> PasswordWork {
        self.accounts.gate.work()
    }

    /// The player record of a bot (created on first use).
    pub async fn bot_player(&self, bot: &str) -> Player {
        let id = format!("bot:{bot}");
        let _ = self
            .db
            .write1(
                "INSERT INTO junqi_players (id, name, name_key, password_hash, guest, created_ms) VALUES ($1, $2, $3, NULL, 0, $4) ON CONFLICT DO NOTHING",
                vec![id.clone().into(), id.clone().into(), id.clone().into(), (self.now() as i64).into()],
            )
            .await;
        Player {
            id: id.clone(),
            name: id,
            guest: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_guest_sweep_deletes_batches_of_its_size() {
        let limit = format!(" LIMIT {UNPLAYED_BATCH})");
        assert!(DELETE_UNPLAYED_SESSIONS.ends_with(&limit));
        assert!(DELETE_UNPLAYED_GUESTS.ends_with(&limit));
        assert!(COUNT_UNPLAYED.contains(&format!("LIMIT {}", UNPLAYED_BATCH * UNPLAYED_BATCHES)));
    }

    #[test]
    fn a_throttle_refuses_past_its_limit_until_the_window_ends() {
        let t = Throttle::new(3, 1000, 100);
        for _ in 0..3 {
            assert_eq!(t.take("a", 10), Ok(()));
        }
        assert_eq!(t.take("a", 10), Err(1000));
        assert_eq!(t.take("a", 500), Err(510));
        assert_eq!(t.take("b", 500), Ok(()), "another key is not throttled");
        t.refund("a");
        assert_eq!(t.take("a", 600), Ok(()));
        assert!(t.take("a", 600).is_err());
        assert_eq!(t.take("a", 1010), Ok(()), "a new window");
        t.clear("a");
        assert_eq!(t.take("a", 1020), Ok(()));
    }

    #[test]
    fn a_throttle_stays_bounded_whatever_keys_come() {
        let t = Throttle::new(5, 60_000, 1000);
        for i in 0..100_000u64 {
            let _ = t.take(&format!("key{i}"), i / 10);
            assert!(t.len() <= 1000, "{} keys after {i}", t.len());
        }
        // The newest keys are the ones kept: taking the last one again adds no key.
        let before = t.len();
        assert!(before > 800, "it keeps most keys ({before})");
        assert!(t.take("key99999", 10_000).is_ok());
        assert_eq!(t.len(), before);
        // A map of one key holds one key.
        let one = Throttle::new(1, 60_000, 1);
        for i in 0..10 {
            let _ = one.take(&format!("k{i}"), i);
            assert_eq!(one.len(), 1);
        }
    }

    #[test]
    fn the_dummy_hash_costs_what_a_real_one_costs() {
        use argon2::password_hash::PasswordHash;
        let h = PasswordHash::new(DUMMY_HASH).unwrap();
        let defaults = argon2::Params::default();
        let params = argon2::Params::try_from(&h).unwrap();
        assert_eq!(h.algorithm, argon2::Algorithm::default().ident());
        assert_eq!(
            (params.m_cost(), params.t_cost(), params.p_cost()),
            (defaults.m_cost(), defaults.t_cost(), defaults.p_cost())
        );
        let gate = HashGate::new(1, 0);
        assert!(!check_password(
            &gate,
            None,
            "junqi dummy password: never a real one"
        ));
        assert_eq!(gate.work().verifications, 1);
    }

    #[tokio::test]
    async fn the_gate_refuses_beyond_its_queue() {
        let gate = HashGate::new(1, 2);
        // Three admitted (one running, two waiting): the fourth is refused at once.
        let held: Vec<Admission> = (0..3).map(|_| gate.admit().unwrap()).collect();
        let e = gate.admit().err().expect("refused");
        assert_eq!(e.status(), axum::http::StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(e.code(), "account.hashing_busy");
        assert_eq!(e.retry_after(), Some(2));
        assert_eq!(gate.work().refused_busy, 1);
        drop(held);
        assert!(gate.admit().is_ok(), "room again once they are done");
        // Work runs one at a time with one permit.
        let runs: Vec<_> = (0..3)
            .map(|_| {
                let g = gate.clone();
                tokio::spawn(async move {
                    g.run(|_| std::thread::sleep(std::time::Duration::from_millis(20)))
                        .await
                })
            })
            .collect();
        for r in runs {
            r.await.unwrap().unwrap();
        }
        assert_eq!(gate.work().peak_in_flight, 1);
    }

    #[test]
    fn hashes_agree_with_the_argon2_crate() {
        use argon2::password_hash::{
            rand_core::OsRng, PasswordHash, PasswordHasher, PasswordVerifier, SaltString,
        };
        let ours = argon2_hash("correct horse 1").unwrap();
        assert!(
            ours.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"),
            "{ours}"
        );
        let parsed = PasswordHash::new(&ours).unwrap();
        assert!(argon2::Argon2::default()
            .verify_password(b"correct horse 1", &parsed)
            .is_ok());
        assert!(argon2::Argon2::default()
            .verify_password(b"correct horse 2", &parsed)
            .is_err());
        let theirs = argon2::Argon2::default()
            .hash_password(b"battery staple", &SaltString::generate(&mut OsRng))
            .unwrap()
            .to_string();
        assert!(argon2_verify(&theirs, "battery staple"));
        assert!(!argon2_verify(&theirs, "battery stapler"));
        assert!(!argon2_verify("not a hash", "x"));
        // A stored hash asking for more memory than allowed is refused, not computed.
        let greedy = argon2::Argon2::new(
            argon2::Algorithm::Argon2id,
            argon2::Version::V0x13,
            argon2::Params::new(MAX_M_COST + 8, 1, 1, None).unwrap(),
        );
        let big = PasswordHash::generate(greedy, "x", &SaltString::generate(&mut OsRng))
            .unwrap()
            .to_string();
        assert!(!argon2_verify(&big, "x"));
    }

    #[test]
    fn a_thread_reuses_its_argon2_memory() {
        std::thread::spawn(|| {
            let count = argon2::Params::default().block_count();
            let first = with_blocks(count, |b| b.as_ptr() as usize);
            for _ in 0..3 {
                assert!(!argon2_verify(DUMMY_HASH, "x"));
                let _ = argon2_hash("correct horse 1").unwrap();
                assert_eq!(with_blocks(count, |b| b.as_ptr() as usize), first);
            }
        })
        .join()
        .unwrap();
    }

    #[test]
    fn addresses_key_by_host_or_ipv6_network() {
        assert_eq!(address_key("127.0.0.3".parse().unwrap()), "127.0.0.3");
        assert_eq!(address_key("::ffff:10.1.2.3".parse().unwrap()), "10.1.2.3");
        assert_eq!(
            address_key("2001:db8:1:2:aaaa::1".parse().unwrap()),
            address_key("2001:db8:1:2:bbbb::9".parse().unwrap())
        );
        assert_ne!(
            address_key("2001:db8:1:2::1".parse().unwrap()),
            address_key("2001:db8:1:3::1".parse().unwrap())
        );
    }
}
