//! Cluster mode: several `junqi serve` nodes on one PostgreSQL database, with NATS between them
//! (`docs/deploy.md`). Any node takes any client; each table is run by exactly one node at a
//! time, the holder of its lease ([`lease`]).
//!
//! - A client's WebSocket stays on the node it reached. If its table runs elsewhere, the node
//!   forwards the connection's commands to the table's node and the table's frames come back,
//!   in order, over NATS ([`wire`]); the table sees it as one more connection.
//! - Each node renews its run (one row that keeps all its leases) every third of the lease time
//!   and says it is alive every [`wire::HEARTBEAT_MS`]. A node that stops doing either (killed,
//!   cut off) loses its tables: the connections forwarded to it are let go (their clients
//!   reconnect), and once its leases expire any node takes its unfinished tables over, loading
//!   them from the stored events (clocks from their stored deadlines, bots' beliefs by
//!   replaying what they were told).
//! - A node that lost a lease cannot store another entry for the table (every write is fenced),
//!   so an action it accepted after losing it is refused, never stored twice or out of order.

pub mod lease;
pub mod wire;

use crate::app::{random_id, App, ID_ALPHABET};
use crate::db::{Fence, Stmt};
use crate::error::Refusal;
use crate::table::{self, Cmd, Out, TableHandle};
use axum::extract::ws::Utf8Bytes;
use futures_util::StreamExt;
use prometheus_client::metrics::counter::Counter;
use serde_json::Value;
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, MutexGuard, Weak};
use std::time::{Duration, Instant};
use tokio::sync::mpsc;
use wire::{HelloReply, ToTable, What};

/// How to join a cluster.
#[derive(Clone, Debug)]
pub struct ClusterConfig {
    /// The NATS server (`nats://host:4222`).
    pub nats_url: String,
    /// This node's name (letters, digits, `-`, `_`); a random one if `None`.
    pub node: Option<String>,
    /// How long a lease lasts without renewal, in ms: a dead node's tables move after about
    /// this long.
    pub lease_ms: u64,
}

impl ClusterConfig {
    /// A configuration with the default lease time (4 s).
    pub fn new(nats_url: impl Into<String>) -> ClusterConfig {
        ClusterConfig {
            nats_url: nats_url.into(),
            node: None,
            lease_ms: 4_000,
        }
    }
}

/// Commands queued for one forwarded connection on the table's node.
const INGRESS_QUEUE: usize = 256;
/// How long a node waits for another to answer a request.
const REQUEST_MS: u64 = 2_000;

/// Where a table is, as a node finds it (see [`Cluster::local`]).
enum Local {
    /// Run here.
    Here(TableHandle),
    /// Run by this other node.
    Elsewhere(String),
    /// No such table.
    NoTable,
    /// It exists, but could not be taken or read just now: look again.
    Unavailable,
}

/// This node's part of the cluster.
pub struct Cluster {
    /// This node's name.
    pub node: String,
    nats: async_nats::Client,
    lease_ms: u64,
    /// Connections held here whose table runs elsewhere: id → (the table's node, frame queue).
    remote: Mutex<HashMap<u64, (String, Out)>>,
    /// Connections held elsewhere to tables run here: (node, id) → their commands.
    ingress: Mutex<HashMap<(String, u64), mpsc::Sender<What>>>,
    /// When each other node was last heard from, and its incarnation if it said one.
    seen: Mutex<HashMap<String, (Instant, Option<u64>)>>,
    /// This process's incarnation, in its heartbeats: a node restarted under the same name
    /// says a new one, so that the others let go of what they held for the old process even
    /// if it came back before they noticed its silence.
    incarnation: u64,
    /// The leases this node holds: table → (fence, when taken).
    held: Mutex<HashMap<String, (Fence, Instant)>>,
    /// When the leases were last renewed.
    renewed: Mutex<Instant>,
    /// One gate per table being taken here: a table is leased and loaded by one task at a
    /// time (a hello, a request and the orphan sweep all want the same dead node's tables at
    /// once), and whoever comes second finds it running.
    gates: Mutex<HashMap<String, Weak<tokio::sync::Mutex<()>>>>,
    /// Tables being loaded here now.
    loading: Mutex<HashSet<String>>,
    /// Tables loaded here (`junqi_cluster_takes_total`).
    takes: Counter,
    /// Loads of a table already running or loading here (`junqi_cluster_double_takes_total`):
    /// the gates keep it at zero.
    double_takes: Counter,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Cluster {
    /// Connect to NATS (an unreachable server is an error at start).
    pub async fn connect(config: &ClusterConfig) -> anyhow::Result<Arc<Cluster>> {
        let node = match &config.node {
            Some(n) => {
                if n.is_empty()
                    || n.len() > 64
                    || !n
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
                {
                    anyhow::bail!(
                        "node name {n:?}: use 1 to 64 letters, digits, '-' or '_' (it is part of NATS subjects)"
                    );
                }
                n.clone()
            }
            None => format!("n-{}", random_id(8, ID_ALPHABET)),
        };
        if config.lease_ms < 500 {
            anyhow::bail!("lease time {} ms: at least 500 ms", config.lease_ms);
        }
        let nats = async_nats::ConnectOptions::new()
            .name(format!("junqi {node}"))
            .connect(config.nats_url.as_str())
            .await
            .map_err(|e| anyhow::anyhow!("cannot reach NATS at {}: {e}", config.nats_url))?;
        Ok(Arc::new(Cluster {
            node,
            nats,
            lease_ms: config.lease_ms,
            remote: Mutex::default(),
            ingress: Mutex::default(),
            seen: Mutex::default(),
            incarnation: rand::random(),
            held: Mutex::default(),
            renewed: Mutex::new(Instant::now()),
            gates: Mutex::default(),
            loading: Mutex::default(),
            takes: Counter::default(),
            double_takes: Counter::default(),
        }))
    }

    /// Start this node's part: subscriptions, heartbeat, lease renewal and the takeover of
    /// orphaned tables.
    pub async fn start(self: &Arc<Self>, app: &Arc<App>) -> anyhow::Result<()> {
        // This run is alive before it takes or creates any table.
        lease::renew(&app.db, &self.run(), self.lease_ms)
            .await
            .map_err(|e| anyhow::anyhow!("cannot register this node's run: {e}"))?;
        app.metrics.register(
            "junqi_cluster_takes",
            "Tables this node took over or loaded under a fresh lease",
            self.takes.clone(),
        );
        app.metrics.register(
            "junqi_cluster_double_takes",
            "Loads of a table already running or loading on this node (should stay 0)",
            self.double_takes.clone(),
        );
        let tables = self.nats.subscribe(wire::table_subject(&self.node)).await?;
        let frames = self.nats.subscribe(wire::conn_subject(&self.node)).await?;
        let alive = self.nats.subscribe(wire::ALIVE_ALL).await?;
        let usage = self.nats.subscribe(wire::USAGE).await?;
        tokio::spawn(self.clone().serve_tables(app.clone(), tables));
        tokio::spawn(self.clone().deliver_frames(frames));
        tokio::spawn(self.clone().watch_nodes(alive));
        tokio::spawn(self.clone().heartbeat());
        tokio::spawn(self.clone().share_usage(app.clone(), usage));
        tokio::spawn(self.clone().renew_leases(app.clone()));
        tokio::spawn(self.clone().take_orphans(app.clone()));
        Ok(())
    }

    /// This process as a lease holder: the node's name and this run's incarnation.
    fn run(&self) -> lease::Run {
        lease::Run {
            node: self.node.clone(),
            run: self.incarnation as i64,
        }
    }

    /// The NATS connection is up.
    pub fn connected(&self) -> bool {
        self.nats.connection_state() == async_nats::connection::State::Connected
    }

    /// How many table leases this node holds.
    pub fn leases(&self) -> usize {
        lock(&self.held).len()
    }

    /// The statement that leases a new table to this node and the fence its writes carry.
    pub(crate) fn lease_new(&self, table: &str) -> (Stmt, Fence) {
        let fence = Fence {
            table: table.to_string(),
            node: self.node.clone(),
            epoch: 1,
        };
        (lease::insert_stmt(table, &self.run()), fence)
    }

    /// A new table's lease is stored: count it as held.
    pub(crate) fn hold(&self, fence: &Fence) {
        lock(&self.held).insert(fence.table.clone(), (fence.clone(), Instant::now()));
    }

    /// A table's actor ended: let its lease go.
    pub(crate) async fn release(&self, app_db: &crate::db::Db, fence: &Fence) {
        {
            let mut held = lock(&self.held);
            if held.get(&fence.table).is_some_and(|(f, _)| f == fence) {
                held.remove(&fence.table);
            }
        }
        if let Err(e) = lease::release(app_db, fence).await {
            tracing::warn!(table = %fence.table, "cannot let the lease go: {e}");
        }
    }

    /// The table `id` for a connection or request on this node: run here (loaded under a
    /// fresh lease if need be) or a forwarding handle to the node that runs it. Waits out a
    /// dead node's lease. Refused with [`Refusal::NoTable`] only when the table does not exist;
    /// a table no node could run in time is [`Refusal::TableUnavailable`] (try again).
    pub(crate) async fn resolve(
        self: &Arc<Self>,
        app: &App,
        id: &str,
    ) -> Result<TableHandle, Refusal> {
        let deadline = Instant::now() + Duration::from_millis(self.lease_ms + 3_000);
        loop {
            match self.local(app, id).await {
                Local::Here(h) => return Ok(h),
                Local::NoTable => return Err(Refusal::NoTable),
                Local::Unavailable => {}
                Local::Elsewhere(owner) => match self.ask(id, &owner, 0, What::Summary).await {
                    Some(HelloReply::Here { summary }) => {
                        return Ok(self.forwarder(id, &owner, summary));
                    }
                    Some(HelloReply::NoTable) => return Err(Refusal::NoTable),
                    // Moved, or its node is gone: look again (its lease expires in time).
                    Some(HelloReply::NotHere) | None => {}
                },
            }
            if Instant::now() > deadline {
                tracing::warn!(table = %id, "no node runs the table and its lease did not expire in time");
                return Err(Refusal::TableUnavailable { retry_after: 1 });
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }

    /// The gate of table `id` (see [`Cluster::gates`]).
    fn gate(&self, id: &str) -> Arc<tokio::sync::Mutex<()>> {
        let mut gates = lock(&self.gates);
        if let Some(g) = gates.get(id).and_then(Weak::upgrade) {
            return g;
        }
        if gates.len() >= 1024 {
            gates.retain(|_, g| g.strong_count() > 0);
        }
        let g = Arc::new(tokio::sync::Mutex::new(()));
        gates.insert(id.to_string(), Arc::downgrade(&g));
        g
    }

    /// The table `id` run here, loaded under a lease taken now if nobody holds one. A table
    /// being taken here by another task is waited for (its gate), then found running.
    async fn local(&self, app: &App, id: &str) -> Local {
        if let Some(h) = app.registry.get(id) {
            return Local::Here(h);
        }
        let gate = self.gate(id);
        let _taking = gate.lock().await;
        if let Some(h) = app.registry.get(id) {
            return Local::Here(h);
        }
        let db = &app.db;
        let fence = match lease::holder(db, id).await {
            Err(e) => {
                tracing::warn!(table = %id, "cannot read the lease: {e}");
                return Local::Unavailable;
            }
            Ok(Some(h)) if !h.expired && h.node != self.node => return Local::Elsewhere(h.node),
            // Ours but not loaded (its actor just ended): take it again under a new epoch, so
            // that the ended actor's release, if still on its way, lets nothing go.
            Ok(Some(h)) if !h.expired => lease::retake(db, id, &self.run()).await,
            Ok(_) => {
                match crate::store::table(db, id).await {
                    Ok(Some(_)) => {}
                    Ok(None) => return Local::NoTable,
                    Err(e) => {
                        tracing::warn!(table = %id, "cannot read the table: {e}");
                        return Local::Unavailable;
                    }
                }
                lease::acquire(db, id, &self.run()).await
            }
        };
        match fence {
            Ok(Some(f)) => match self.load(app, f).await {
                Some(h) => Local::Here(h),
                // Stored but not loadable (finished meanwhile, or unreadable): as if gone.
                None => Local::NoTable,
            },
            // Another node took it meanwhile.
            Ok(None) => match lease::holder(db, id).await {
                Ok(Some(h)) if h.node != self.node => Local::Elsewhere(h.node),
                _ => Local::Unavailable,
            },
            Err(e) => {
                tracing::warn!(table = %id, "cannot take the lease: {e}");
                Local::Unavailable
            }
        }
    }

    /// Load a table under a lease this node just took (its gate held).
    async fn load(&self, app: &App, fence: Fence) -> Option<TableHandle> {
        let id = fence.table.clone();
        let first = lock(&self.loading).insert(id.clone());
        if !first || app.registry.get(&id).is_some() {
            self.double_takes.inc();
            tracing::error!(table = %id, epoch = fence.epoch, "the table was taken twice on this node");
        }
        self.takes.inc();
        self.hold(&fence);
        let h = table::load_leased(app.env(), &id, Some(fence.clone())).await;
        if first {
            lock(&self.loading).remove(&id);
        }
        if h.is_none() {
            self.release(&app.db, &fence).await;
        } else {
            tracing::info!(table = %id, epoch = fence.epoch, "running the table here");
        }
        h
    }

    /// A handle whose commands go to table `id` on `owner`.
    fn forwarder(self: &Arc<Self>, id: &str, owner: &str, summary: Value) -> TableHandle {
        lock(&self.seen)
            .entry(owner.to_string())
            .or_insert_with(|| (Instant::now(), None));
        let (tx, rx) = mpsc::channel(64);
        tokio::spawn(self.clone().forward(id.to_string(), owner.to_string(), rx));
        TableHandle {
            tx,
            summary: Arc::new(Mutex::new(summary)),
        }
    }

    /// Send one connection's commands to its table's node, in order.
    async fn forward(self: Arc<Self>, table: String, owner: String, mut rx: mpsc::Receiver<Cmd>) {
        let subject = wire::table_subject(&owner);
        while let Some(cmd) = rx.recv().await {
            let (conn, what) = match cmd {
                Cmd::Hello {
                    conn,
                    tx,
                    player,
                    token,
                    last_v,
                } => {
                    lock(&self.remote).insert(conn, (owner.clone(), tx));
                    let hello = What::Hello {
                        player,
                        token,
                        last_v,
                    };
                    let reply = self.ask(&table, &owner, conn, hello).await;
                    if !matches!(reply, Some(HelloReply::Here { .. })) {
                        // Its node is gone or no longer runs it: the client reconnects and
                        // finds where the table is now.
                        lock(&self.remote).remove(&conn);
                    }
                    continue;
                }
                Cmd::Identify { conn, player } => (conn, What::Identify { player }),
                Cmd::Msg { conn, msg, id } => (conn, What::Msg { msg, id }),
                Cmd::Closed { conn } => {
                    lock(&self.remote).remove(&conn);
                    (conn, What::Closed)
                }
                // Only a table's own node sends these.
                Cmd::BotDone { .. } | Cmd::Stop { .. } => continue,
            };
            let msg = ToTable {
                table: table.clone(),
                from: self.node.clone(),
                conn,
                what,
            };
            let Ok(body) = serde_json::to_vec(&msg) else {
                continue;
            };
            if self
                .nats
                .publish(subject.clone(), body.into())
                .await
                .is_err()
            {
                lock(&self.remote).remove(&conn);
            }
        }
    }

    /// Ask `node` about table `id` for connection `conn` (0: for no connection); `None` if it
    /// does not answer in time.
    async fn ask(&self, id: &str, node: &str, conn: u64, what: What) -> Option<HelloReply> {
        let msg = ToTable {
            table: id.to_string(),
            from: self.node.clone(),
            conn,
            what,
        };
        let body = serde_json::to_vec(&msg).ok()?;
        let reply = tokio::time::timeout(
            Duration::from_millis(REQUEST_MS),
            self.nats.request(wire::table_subject(node), body.into()),
        )
        .await
        .ok()?
        .ok()?;
        serde_json::from_slice(&reply.payload).ok()
    }

    /// Frames from other nodes' tables, to the connections held here.
    async fn deliver_frames(self: Arc<Self>, mut sub: async_nats::Subscriber) {
        while let Some(m) = sub.next().await {
            let Some((conn, frame)) = wire::parse_conn_payload(&m.payload) else {
                continue;
            };
            let mut remote = lock(&self.remote);
            let keep = match (remote.get(&conn), frame) {
                (Some((_, tx)), Some(f)) => tx.try_send(Utf8Bytes::from(f)).is_ok(),
                // The table let the connection go (or it does not read): it ends, and its
                // client reconnects.
                _ => false,
            };
            if !keep {
                remote.remove(&conn);
            }
        }
    }

    /// Commands for the tables run here, from connections held by other nodes.
    async fn serve_tables(self: Arc<Self>, app: Arc<App>, mut sub: async_nats::Subscriber) {
        while let Some(m) = sub.next().await {
            let Ok(msg) = serde_json::from_slice::<ToTable>(&m.payload) else {
                tracing::warn!("a malformed table command on NATS");
                continue;
            };
            let key = (msg.from.clone(), msg.conn);
            match msg.what {
                What::Hello { .. } => {
                    let (tx, rx) = mpsc::channel(INGRESS_QUEUE);
                    lock(&self.ingress).insert(key, tx);
                    tokio::spawn(self.clone().serve_remote(app.clone(), msg, m.reply, rx));
                }
                What::Summary => {
                    let (me, app) = (self.clone(), app.clone());
                    tokio::spawn(async move {
                        let reply = match me.local(&app, &msg.table).await {
                            Local::Here(h) => HelloReply::Here {
                                summary: h.summary.lock().map(|s| s.clone()).unwrap_or_default(),
                            },
                            Local::NoTable => HelloReply::NoTable,
                            Local::Elsewhere(_) | Local::Unavailable => HelloReply::NotHere,
                        };
                        me.reply(m.reply, &reply).await;
                    });
                }
                what => {
                    let closed = matches!(what, What::Closed);
                    let known = {
                        let mut ingress = lock(&self.ingress);
                        match ingress.get(&key).map(|tx| tx.try_send(what)) {
                            Some(Ok(())) => true,
                            Some(Err(_)) => {
                                // A connection that floods its table is let go.
                                ingress.remove(&key);
                                true
                            }
                            None => false,
                        }
                    };
                    if !known && !closed {
                        // Not joined here (it joined an earlier run of this node, or its table
                        // moved): its node lets it go, and the client reconnects.
                        let _ = self
                            .nats
                            .publish(
                                wire::conn_subject(&msg.from),
                                wire::conn_payload(msg.conn, None),
                            )
                            .await;
                    }
                }
            }
        }
    }

    async fn reply(&self, to: Option<async_nats::Subject>, reply: &HelloReply) {
        if let (Some(to), Ok(body)) = (to, serde_json::to_vec(reply)) {
            let _ = self.nats.publish(to, body.into()).await;
        }
    }

    /// One connection held by another node, at a table run here: it joins the table as a
    /// connection of this node whose frames go back over NATS.
    async fn serve_remote(
        self: Arc<Self>,
        app: Arc<App>,
        hello: ToTable,
        reply_to: Option<async_nats::Subject>,
        mut rx: mpsc::Receiver<What>,
    ) {
        let key = (hello.from.clone(), hello.conn);
        let What::Hello {
            player,
            token,
            last_v,
        } = hello.what
        else {
            return;
        };
        let h = match self.local(&app, &hello.table).await {
            Local::Here(h) => h,
            other => {
                let reply = match other {
                    Local::NoTable => HelloReply::NoTable,
                    _ => HelloReply::NotHere,
                };
                self.reply(reply_to, &reply).await;
                lock(&self.ingress).remove(&key);
                return;
            }
        };
        let conn = app.next_conn_id();
        let (out_tx, mut out_rx) = mpsc::channel::<Utf8Bytes>(1024);
        let (nats, subject, rconn) = (
            self.nats.clone(),
            wire::conn_subject(&hello.from),
            hello.conn,
        );
        tokio::spawn(async move {
            while let Some(f) = out_rx.recv().await {
                if nats
                    .publish(subject.clone(), wire::conn_payload(rconn, Some(f.as_str())))
                    .await
                    .is_err()
                {
                    break;
                }
            }
            let _ = nats.publish(subject, wire::conn_payload(rconn, None)).await;
        });
        let joined =
            h.tx.send(Cmd::Hello {
                conn,
                tx: out_tx,
                player,
                token,
                last_v,
            })
            .await
            .is_ok();
        let reply = if joined {
            HelloReply::Here {
                summary: h.summary.lock().map(|s| s.clone()).unwrap_or_default(),
            }
        } else {
            HelloReply::NotHere
        };
        self.reply(reply_to, &reply).await;
        if joined {
            while let Some(what) = rx.recv().await {
                let cmd = match what {
                    What::Identify { player } => Cmd::Identify { conn, player },
                    What::Msg { msg, id } => Cmd::Msg { conn, msg, id },
                    What::Closed => break,
                    What::Hello { .. } | What::Summary => continue,
                };
                if h.tx.send(cmd).await.is_err() {
                    break;
                }
            }
            let _ = h.tx.send(Cmd::Closed { conn }).await;
        }
        // Let the entry go unless a new connection took the key meanwhile (its queue is open).
        drop(rx);
        let mut ingress = lock(&self.ingress);
        if ingress.get(&key).is_some_and(|tx| tx.is_closed()) {
            ingress.remove(&key);
        }
    }

    /// Say this node is alive.
    async fn heartbeat(self: Arc<Self>) {
        let subject = wire::alive_subject(&self.node);
        let mut tick = tokio::time::interval(Duration::from_millis(wire::HEARTBEAT_MS));
        loop {
            tick.tick().await;
            let _ = self
                .nats
                .publish(subject.clone(), wire::alive_payload(self.incarnation))
                .await;
        }
    }

    /// Tell the other nodes what this node's clients used of the rate budgets, and count what
    /// theirs used: a person's budget is one over the whole cluster.
    async fn share_usage(self: Arc<Self>, app: Arc<App>, mut sub: async_nats::Subscriber) {
        let mut tick = tokio::time::interval(Duration::from_millis(wire::USAGE_MS));
        loop {
            tokio::select! {
                m = sub.next() => {
                    let Some(m) = m else { return };
                    match serde_json::from_slice::<wire::Usage>(&m.payload) {
                        Ok(u) if u.from != self.node => {
                            for (key, n) in u.frames {
                                app.frame_budget.add_remote_usage(&key, n);
                            }
                            for (key, n) in u.tables {
                                app.table_budget.add_remote_usage(&key, n);
                            }
                        }
                        Ok(_) => {}
                        Err(e) => tracing::warn!(error = %e, "unreadable usage report"),
                    }
                }
                _ = tick.tick() => {
                    let usage = wire::Usage {
                        from: self.node.clone(),
                        frames: app.frame_budget.drain_local_usage(),
                        tables: app.table_budget.drain_local_usage(),
                    };
                    if usage.frames.is_empty() && usage.tables.is_empty() {
                        continue;
                    }
                    if let Ok(body) = serde_json::to_vec(&usage) {
                        let _ = self.nats.publish(wire::USAGE, body.into()).await;
                    }
                }
            }
        }
    }

    /// Let go of what this node holds for `node`'s process, which is gone: the connections
    /// held here whose table ran there (they close, and their clients reconnect to find the
    /// table where it runs now), and its connections to the tables run here.
    fn forget(&self, node: &str) {
        lock(&self.remote).retain(|_, (owner, _)| owner != node);
        lock(&self.ingress).retain(|(from, _), _| from != node);
    }

    /// Hear the other nodes, and let the connections of a node gone silent (or restarted) go.
    async fn watch_nodes(self: Arc<Self>, mut sub: async_nats::Subscriber) {
        let mut tick = tokio::time::interval(Duration::from_millis(wire::HEARTBEAT_MS));
        loop {
            tokio::select! {
                m = sub.next() => {
                    let Some(m) = m else { return };
                    if let Some(node) = m.subject.as_str().strip_prefix("junqi.alive.") {
                        if node != self.node {
                            let now = wire::parse_alive_payload(&m.payload);
                            let before = lock(&self.seen)
                                .insert(node.to_string(), (Instant::now(), now))
                                .and_then(|(_, i)| i);
                            if matches!((before, now), (Some(a), Some(b)) if a != b) {
                                tracing::warn!(node = %node, "node restarted: the connections of its last run are let go (or two nodes share this name)");
                                self.forget(node);
                            }
                        }
                    }
                }
                _ = tick.tick() => {
                    let dead: Vec<String> = {
                        let mut seen = lock(&self.seen);
                        let dead: Vec<String> = seen
                            .iter()
                            .filter(|(_, (t, _))| t.elapsed() > Duration::from_millis(wire::DEAD_AFTER_MS))
                            .map(|(n, _)| n.clone())
                            .collect();
                        for n in &dead {
                            seen.remove(n);
                        }
                        dead
                    };
                    for node in dead {
                        tracing::warn!(node = %node, "node silent: its connections are let go");
                        self.forget(&node);
                    }
                }
            }
        }
    }

    /// Renew this node's leases; stop the tables whose lease it lost, and all of them if the
    /// database has not answered for a whole lease time.
    async fn renew_leases(self: Arc<Self>, app: Arc<App>) {
        let mut tick = tokio::time::interval(Duration::from_millis(self.lease_ms / 3));
        for n in 0u64.. {
            tick.tick().await;
            // At start and now and then, forget long-dead runs (any node may; deleting twice is
            // harmless): a node restarted often still sweeps.
            if n % 100 == 0 {
                if let Err(e) = lease::sweep_runs(&app.db).await {
                    tracing::warn!("cannot forget the dead runs: {e}");
                }
            }
            let started = Instant::now();
            match lease::renew(&app.db, &self.run(), self.lease_ms).await {
                Ok(kept) => {
                    *lock(&self.renewed) = started;
                    let kept: std::collections::HashSet<String> = kept.into_iter().collect();
                    let lost: Vec<String> = {
                        let mut held = lock(&self.held);
                        let lost: Vec<String> = held
                            .iter()
                            .filter(|(t, (_, at))| *at < started && !kept.contains(*t))
                            .map(|(t, _)| t.clone())
                            .collect();
                        for t in &lost {
                            held.remove(t);
                        }
                        lost
                    };
                    for t in lost {
                        tracing::warn!(table = %t, "lease lost: the table stops here");
                        stop(&app, &t).await;
                    }
                }
                Err(e) => {
                    tracing::warn!("cannot renew the leases: {e}");
                    if lock(&self.renewed).elapsed() > Duration::from_millis(self.lease_ms) {
                        let all: Vec<String> = lock(&self.held).drain().map(|(t, _)| t).collect();
                        for t in all {
                            stop(&app, &t).await;
                        }
                    }
                }
            }
        }
    }

    /// Take over unfinished tables no live lease covers (a dead node's, or at the first start).
    async fn take_orphans(self: Arc<Self>, app: Arc<App>) {
        loop {
            match lease::orphans(&app.db, 200).await {
                Ok(ids) => {
                    for id in ids {
                        let gate = self.gate(&id);
                        let _taking = gate.lock().await;
                        if app.registry.get(&id).is_some() {
                            continue;
                        }
                        match lease::acquire(&app.db, &id, &self.run()).await {
                            Ok(Some(f)) => {
                                self.load(&app, f).await;
                            }
                            Ok(None) => {}
                            Err(e) => tracing::warn!(table = %id, "cannot take the lease: {e}"),
                        }
                    }
                }
                Err(e) => tracing::warn!("cannot look for orphaned tables: {e}"),
            }
            let jitter = rand::random::<u64>() % 500;
            tokio::time::sleep(Duration::from_millis(750 + jitter)).await;
        }
    }
}

/// Stop the table `id` if it runs here.
async fn stop(app: &App, id: &str) {
    if let Some(h) = app.registry.get(id) {
        let _ = h.tx.send(Cmd::Stop { done: None }).await;
    }
}
