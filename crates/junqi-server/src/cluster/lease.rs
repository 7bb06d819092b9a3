//! Table leases in PostgreSQL: which node runs each table. Times are the database's own clock
//! (`clock_timestamp()`, ms), so the nodes' clocks never need to agree.
//!
//! - A lease is taken when there is none or the one there has expired; taking one raises its
//!   epoch (in one statement, so two nodes can never both take it).
//! - Its node renews all its leases in one statement every third of the lease time.
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
const NOW_MS: &str = now_ms!();

/// Who holds a table's lease.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Holder {
    pub node: String,
    pub epoch: i64,
    /// The lease has expired (the database's clock is past it).
    pub expired: bool,
}

/// The holder of `table`'s lease, if a lease row exists.
pub(crate) async fn holder(db: &Db, table: &str) -> Result<Option<Holder>, String> {
    let sql = format!(
        "SELECT node, epoch, CASE WHEN expires_ms < {NOW_MS} THEN 1 ELSE 0 END FROM junqi_leases WHERE table_id = $1"
    );
    Ok(db
        .fetch_opt(&sql, vec![Arg::from(table)])
        .await?
        .map(|r| Holder {
            node: col_str(&r, 0),
            epoch: col_i64(&r, 1),
            expired: col_i64(&r, 2) == 1,
        }))
}

/// Take `table`'s lease for `node` if nobody holds it or its lease has expired: the fence the
/// node's writes carry, or `None` if another node holds it.
pub(crate) async fn acquire(
    db: &Db,
    table: &str,
    node: &str,
    lease_ms: u64,
) -> Result<Option<Fence>, String> {
    let sql = format!(
        "INSERT INTO junqi_leases (table_id, node, epoch, expires_ms) VALUES ($1, $2, 1, {NOW_MS} + $3) \
         ON CONFLICT (table_id) DO UPDATE SET node = EXCLUDED.node, epoch = junqi_leases.epoch + 1, \
         expires_ms = EXCLUDED.expires_ms WHERE junqi_leases.expires_ms < {NOW_MS} RETURNING epoch"
    );
    take(db, &sql, table, node, lease_ms).await
}

/// Run a statement that takes `table`'s lease for `node` (binding the table, the node and the
/// lease time, returning the epoch): the fence, or `None` if it took nothing.
async fn take(
    db: &Db,
    sql: &str,
    table: &str,
    node: &str,
    lease_ms: u64,
) -> Result<Option<Fence>, String> {
    let row = db
        .fetch_opt(
            sql,
            vec![Arg::from(table), Arg::from(node), Arg::I(lease_ms as i64)],
        )
        .await?;
    Ok(row.map(|r| Fence {
        table: table.to_string(),
        node: node.to_string(),
        epoch: col_i64(&r, 0),
    }))
}

/// Take `table`'s lease again under a new epoch if `node` holds it (its actor ended and the
/// table is wanted again): the new fence, or `None` if another node holds it now.
pub(crate) async fn retake(
    db: &Db,
    table: &str,
    node: &str,
    lease_ms: u64,
) -> Result<Option<Fence>, String> {
    let sql = format!(
        "UPDATE junqi_leases SET epoch = epoch + 1, expires_ms = {NOW_MS} + $3 \
         WHERE table_id = $1 AND node = $2 RETURNING epoch"
    );
    take(db, &sql, table, node, lease_ms).await
}

/// The statement that gives a new table's lease (epoch 1) to `node`, written with the table's
/// own row so that a table never exists unleased in cluster mode.
pub(crate) fn insert_stmt(table: &str, node: &str, lease_ms: u64) -> crate::db::Stmt {
    (
        concat!(
            "INSERT INTO junqi_leases (table_id, node, epoch, expires_ms) VALUES ($1, $2, 1, ",
            now_ms!(),
            " + $3)"
        ),
        vec![Arg::from(table), Arg::from(node), Arg::I(lease_ms as i64)],
    )
}

/// Renew every lease `node` holds; returns the tables whose lease it still holds.
pub(crate) async fn renew(db: &Db, node: &str, lease_ms: u64) -> Result<Vec<String>, String> {
    let sql = format!(
        "UPDATE junqi_leases SET expires_ms = {NOW_MS} + $2 WHERE node = $1 RETURNING table_id"
    );
    Ok(db
        .fetch(&sql, vec![Arg::from(node), Arg::I(lease_ms as i64)])
        .await?
        .iter()
        .map(|r| col_str(r, 0))
        .collect())
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
    let sql = format!(
        "SELECT t.id FROM junqi_tables t LEFT JOIN junqi_leases l ON l.table_id = t.id \
         WHERE t.status <> 'over' AND (l.table_id IS NULL OR l.expires_ms < {NOW_MS}) \
         ORDER BY random() LIMIT $1"
    );
    Ok(db
        .fetch(&sql, vec![Arg::I(limit)])
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
        let table = format!("lease-test-{}", rand::random::<u32>());
        let a = acquire(&db, &table, "a", 60_000)
            .await
            .unwrap()
            .expect("free");
        assert_eq!(a.epoch, 1);
        assert_eq!(acquire(&db, &table, "b", 60_000).await.unwrap(), None);
        let h = holder(&db, &table).await.unwrap().unwrap();
        assert_eq!((h.node.as_str(), h.epoch, h.expired), ("a", 1, false));
        // a's writes go through while it holds the lease.
        let probe = |n: i64| -> Vec<crate::db::Stmt> {
            vec![(
                "UPDATE junqi_leases SET expires_ms = expires_ms WHERE table_id = $1 AND $2 > 0",
                vec![Arg::from(table.as_str()), Arg::I(n)],
            )]
        };
        db.write_fenced(Some(a.clone()), probe(1)).await.unwrap();
        // The lease runs out (renewed for 0 ms): b takes it under epoch 2.
        assert_eq!(renew(&db, "a", 0).await.unwrap(), vec![table.clone()]);
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
        let b = acquire(&db, &table, "b", 60_000)
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
        assert!(!renew(&db, "a", 60_000).await.unwrap().contains(&table));
        release(&db, &a).await.unwrap();
        assert_eq!(holder(&db, &table).await.unwrap().unwrap().node, "b");
        // b takes it again under a new epoch; the old fence is then stale too.
        let b3 = retake(&db, &table, "b", 60_000).await.unwrap().unwrap();
        assert_eq!(b3.epoch, 3);
        assert!(db.write_fenced(Some(b), probe(4)).await.is_err());
        release(&db, &b3).await.unwrap();
        assert_eq!(holder(&db, &table).await.unwrap(), None);
    }
}
