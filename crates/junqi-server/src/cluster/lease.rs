//! Table leases in PostgreSQL: which node runs each table. Times are the database's own clock
//! (`clock_timestamp()`, ms), so the nodes' clocks never need to agree.
//!
//! - A node's process is a *run* ([`Run`]): it keeps one row in `junqi_runs` ahead of the clock,
//!   renewed every third of the lease time. A lease names the run holding it and lives as long
//!   as that row does, so renewing costs one row whatever the number of tables, and never
//!   waits on the row locks of the tables' writes.
//! - A lease is taken when there is none or its run's row has expired (or is gone); taking one
//!   raises its epoch (in one statement, so two nodes can never both take it).
//! - Every write of a table's entries carries its [`Fence`] (node and epoch), checked in the
//!   write's own transaction ([`crate::db::Db::write_fenced`]).
//! - A node lets a lease go when its table's actor ends.

use crate::db::{col_i64, col_str, Arg, Db, Fence};

/// The database's clock in ms, as SQL (a macro, for `concat!` into static statements).
macro_rules! now_ms {
    () => {
        "(EXTRACT(EPOCH FROM clock_timestamp()) * 1000)::BIGINT"
    };
}

/// One process of a node: its name and its incarnation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Run {
    pub node: String,
    pub run: i64,
}

impl Run {
    fn args(&self) -> [Arg; 2] {
        [Arg::from(self.node.as_str()), Arg::I(self.run)]
    }
}

/// SQL: the lease row `l`'s run is alive.
macro_rules! run_alive {
    () => {
        concat!(
            "EXISTS (SELECT 1 FROM junqi_runs r WHERE r.node = l.node AND r.run = l.run AND r.expires_ms >= ",
            now_ms!(),
            ")"
        )
    };
}

/// Who holds a table's lease.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Holder {
    pub node: String,
    pub epoch: i64,
    /// The lease has expired (its run's row is behind the database's clock, or gone).
    pub expired: bool,
}

/// The holder of `table`'s lease, if a lease row exists.
pub(crate) async fn holder(db: &Db, table: &str) -> Result<Option<Holder>, String> {
    let sql = concat!(
        "SELECT l.node, l.epoch, CASE WHEN ",
        run_alive!(),
        " THEN 0 ELSE 1 END FROM junqi_leases l WHERE l.table_id = $1"
    );
    Ok(db
        .fetch_opt(sql, vec![Arg::from(table)])
        .await?
        .map(|r| Holder {
            node: col_str(&r, 0),
            epoch: col_i64(&r, 1),
            expired: col_i64(&r, 2) == 1,
        }))
}

/// Take `table`'s lease for `run` if nobody holds it or its holder's run has expired: the
/// fence the node's writes carry, or `None` if another run holds it.
pub(crate) async fn acquire(db: &Db, table: &str, run: &Run) -> Result<Option<Fence>, String> {
    let sql = concat!(
        "INSERT INTO junqi_leases AS l (table_id, node, run, epoch) VALUES ($1, $2, $3, 1) \
         ON CONFLICT (table_id) DO UPDATE SET node = EXCLUDED.node, run = EXCLUDED.run, \
         epoch = l.epoch + 1 WHERE NOT ",
        run_alive!(),
        " RETURNING epoch"
    );
    take(db, sql, table, run).await
}

/// Run a statement that takes `table`'s lease for `run` (binding the table, the node and the
/// run, returning the epoch): the fence, or `None` if it took nothing.
async fn take(db: &Db, sql: &str, table: &str, run: &Run) -> Result<Option<Fence>, String> {
    let [node, r] = run.args();
    let row = db.fetch_opt(sql, vec![Arg::from(table), node, r]).await?;
    Ok(row.map(|row| Fence {
        table: table.to_string(),
        node: run.node.clone(),
        epoch: col_i64(&row, 0),
    }))
}

/// Take `table`'s lease again under a new epoch if `run`'s node holds it (its actor ended and
/// the table is wanted again, or the node restarted and this run takes over its last run's
/// tables at once): the new fence, or `None` if another node holds it now.
pub(crate) async fn retake(db: &Db, table: &str, run: &Run) -> Result<Option<Fence>, String> {
    let sql = "UPDATE junqi_leases SET epoch = epoch + 1, run = $3 \
               WHERE table_id = $1 AND node = $2 RETURNING epoch";
    take(db, sql, table, run).await
}

/// The statement that gives a new table's lease (epoch 1) to `run`, written with the table's
/// own row so that a table never exists unleased in cluster mode.
pub(crate) fn insert_stmt(table: &str, run: &Run) -> crate::db::Stmt {
    let [node, r] = run.args();
    (
        "INSERT INTO junqi_leases (table_id, node, run, epoch) VALUES ($1, $2, $3, 1)",
        vec![Arg::from(table), node, r],
    )
}

/// Keep `run` alive for `lease_ms` more; returns the tables whose lease it still holds.
pub(crate) async fn renew(db: &Db, run: &Run, lease_ms: u64) -> Result<Vec<String>, String> {
    let [node, r] = run.args();
    let sql = concat!(
        "INSERT INTO junqi_runs (node, run, expires_ms) VALUES ($1, $2, ",
        now_ms!(),
        " + $3) ON CONFLICT (node, run) DO UPDATE SET expires_ms = EXCLUDED.expires_ms RETURNING run"
    );
    db.fetch(sql, vec![node.clone(), r.clone(), Arg::I(lease_ms as i64)])
        .await?;
    Ok(db
        .fetch(
            "SELECT table_id FROM junqi_leases WHERE node = $1 AND run = $2",
            vec![node, r],
        )
        .await?
        .iter()
        .map(|row| col_str(row, 0))
        .collect())
}

/// Forget the runs expired for more than a minute (their leases count as expired either way).
pub(crate) async fn sweep_runs(db: &Db) -> Result<(), String> {
    let sql = concat!(
        "DELETE FROM junqi_runs WHERE expires_ms < ",
        now_ms!(),
        " - 60000 RETURNING run"
    );
    db.fetch(sql, vec![]).await.map(|_| ())
}

/// Let a lease go (only if it is still this fence's).
pub(crate) async fn release(db: &Db, fence: &Fence) -> Result<(), String> {
    db.fetch(
        "DELETE FROM junqi_leases WHERE table_id = $1 AND node = $2 AND epoch = $3 RETURNING table_id",
        vec![
            Arg::from(fence.table.as_str()),
            Arg::from(fence.node.as_str()),
            Arg::I(fence.epoch),
        ],
    )
    .await
    .map(|_| ())
}

/// Unfinished tables that no live lease covers (their node died or let them go): at most
/// `limit`, for a node to take over.
pub(crate) async fn orphans(db: &Db, limit: i64) -> Result<Vec<String>, String> {
    let sql = concat!(
        "SELECT t.id FROM junqi_tables t LEFT JOIN junqi_leases l ON l.table_id = t.id \
         WHERE t.status <> 'over' AND (l.table_id IS NULL OR NOT ",
        run_alive!(),
        ") ORDER BY random() LIMIT $1"
    );
    Ok(db
        .fetch(sql, vec![Arg::I(limit)])
        .await?
        .iter()
        .map(|r| col_str(r, 0))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Leases against a real PostgreSQL (`JUNQI_TEST_POSTGRES_URL`): one holder at a time, an
    /// expired lease taken over under a higher epoch, and the old holder's writes refused.
    #[tokio::test]
    async fn a_lease_has_one_holder_and_fences_the_old_one() {
        let Ok(url) = std::env::var("JUNQI_TEST_POSTGRES_URL") else {
            println!("NOTICE: JUNQI_TEST_POSTGRES_URL is not set: the lease test is skipped");
            return;
        };
        let db = Db::open(&url).await.unwrap();
        let tag = rand::random::<u32>();
        let table = format!("lease-test-{tag}");
        let run_a = Run {
            node: format!("a-{tag}"),
            run: 1,
        };
        let run_b = Run {
            node: format!("b-{tag}"),
            run: 1,
        };
        renew(&db, &run_a, 60_000).await.unwrap();
        renew(&db, &run_b, 60_000).await.unwrap();
        let a = acquire(&db, &table, &run_a).await.unwrap().expect("free");
        assert_eq!(a.epoch, 1);
        assert_eq!(acquire(&db, &table, &run_b).await.unwrap(), None);
        let h = holder(&db, &table).await.unwrap().unwrap();
        assert_eq!(
            (h.node.as_str(), h.epoch, h.expired),
            (run_a.node.as_str(), 1, false)
        );
        // a's writes go through while it holds the lease.
        let probe = |n: i64| -> Vec<crate::db::Stmt> {
            vec![(
                "UPDATE junqi_leases SET run = run WHERE table_id = $1 AND $2 > 0",
                vec![Arg::from(table.as_str()), Arg::I(n)],
            )]
        };
        db.write_fenced(Some(a.clone()), probe(1)).await.unwrap();
        // a's run runs out (renewed for 0 ms): its lease has expired and b takes it under
        // epoch 2.
        assert_eq!(renew(&db, &run_a, 0).await.unwrap(), vec![table.clone()]);
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
        assert!(holder(&db, &table).await.unwrap().unwrap().expired);
        let b = acquire(&db, &table, &run_b)
            .await
            .unwrap()
            .expect("expired");
        assert_eq!(b.epoch, 2);
        // a can no longer write for the table, b can.
        let e = db
            .write_fenced(Some(a.clone()), probe(2))
            .await
            .unwrap_err();
        assert!(e.contains(crate::db::LEASE_LOST), "{e}");
        db.write_fenced(Some(b.clone()), probe(3)).await.unwrap();
        // a's renewal no longer covers it; a's release lets nothing go.
        assert!(!renew(&db, &run_a, 60_000).await.unwrap().contains(&table));
        release(&db, &a).await.unwrap();
        assert_eq!(holder(&db, &table).await.unwrap().unwrap().node, run_b.node);
        // b restarts (a new run under the same name): it takes its last run's table at once,
        // under a new epoch; the old fence is then stale.
        let run_b2 = Run {
            node: run_b.node.clone(),
            run: 2,
        };
        renew(&db, &run_b2, 60_000).await.unwrap();
        assert_eq!(acquire(&db, &table, &run_b2).await.unwrap(), None);
        let b3 = retake(&db, &table, &run_b2).await.unwrap().unwrap();
        assert_eq!(b3.epoch, 3);
        assert!(db.write_fenced(Some(b), probe(4)).await.is_err());
        assert_eq!(
            renew(&db, &run_b2, 60_000).await.unwrap(),
            vec![table.clone()]
        );
        release(&db, &b3).await.unwrap();
        assert_eq!(holder(&db, &table).await.unwrap(), None);
    }

    /// A node's renewal never waits on the row lock a table's write holds on its lease (the
    /// renewal of every lease row of a node used to deadlock with the fenced writes under load,
    /// and the live node's tables were taken over).
    #[tokio::test]
    async fn renewing_does_not_wait_for_a_tables_write() {
        use sqlx::{Connection, Executor};
        let Ok(url) = std::env::var("JUNQI_TEST_POSTGRES_URL") else {
            println!("NOTICE: JUNQI_TEST_POSTGRES_URL is not set: the lease test is skipped");
            return;
        };
        let db = Db::open(&url).await.unwrap();
        let tag = rand::random::<u32>();
        let table = format!("lease-lock-{tag}");
        let run = Run {
            node: format!("w-{tag}"),
            run: 1,
        };
        renew(&db, &run, 60_000).await.unwrap();
        let fence = acquire(&db, &table, &run).await.unwrap().expect("free");
        // A write of the table in flight: its transaction holds the lease row as the fenced
        // writes do (`Db::write_fenced`).
        let mut writer = sqlx::AnyConnection::connect(&url).await.unwrap();
        writer.execute("BEGIN").await.unwrap();
        let lock = format!("UPDATE junqi_leases SET epoch = epoch WHERE table_id = '{table}'");
        writer.execute(lock.as_str()).await.unwrap();
        let renewed =
            tokio::time::timeout(std::time::Duration::from_secs(10), renew(&db, &run, 60_000))
                .await
                .expect("the renewal waited for the table's write");
        assert_eq!(renewed.unwrap(), vec![table.clone()]);
        writer.execute("ROLLBACK").await.unwrap();
        release(&db, &fence).await.unwrap();
    }
}
