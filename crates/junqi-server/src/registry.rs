//! The live tables of this server: a map from table id (and from join code) to the handle of
//! its actor, and the lobby list built from the tables' published summaries. Tables register
//! themselves when their actor starts and leave when it ends; nothing here awaits.

use crate::table::TableHandle;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::sync::Mutex;

/// The live tables.
#[derive(Default)]
pub struct Registry {
    tables: Mutex<HashMap<String, TableHandle>>,
    codes: Mutex<HashMap<String, String>>,
}

impl Registry {
    pub(crate) fn register(&self, id: &str, code: &str, handle: TableHandle) {
        if let Ok(mut t) = self.tables.lock() {
            t.insert(id.to_string(), handle);
        }
        if let Ok(mut c) = self.codes.lock() {
            c.insert(code.to_string(), id.to_string());
        }
    }

    pub(crate) fn unregister(&self, id: &str, code: &str) {
        if let Ok(mut t) = self.tables.lock() {
            t.remove(id);
        }
        if let Ok(mut c) = self.codes.lock() {
            c.remove(code);
        }
    }

    /// The handle of a live table whose actor is still running.
    pub(crate) fn get(&self, id: &str) -> Option<TableHandle> {
        self.tables
            .lock()
            .ok()
            .and_then(|t| t.get(id).cloned())
            .filter(|h| !h.tx.is_closed())
    }

    /// Forget a table whose actor ended (so that the next use reloads it).
    pub(crate) fn forget(&self, id: &str) {
        if let Ok(mut t) = self.tables.lock() {
            t.remove(id);
        }
    }

    /// The table id of a live table's join code.
    pub(crate) fn id_of_code(&self, code: &str) -> Option<String> {
        self.codes.lock().ok().and_then(|c| c.get(code).cloned())
    }

    /// Summaries of the public live tables, newest first (at most `limit`).
    pub fn lobby(&self, limit: usize) -> Vec<Value> {
        let handles: Vec<TableHandle> = self
            .tables
            .lock()
            .map(|t| t.values().cloned().collect())
            .unwrap_or_default();
        let mut list: Vec<Value> = handles
            .iter()
            .filter_map(|h| h.summary.lock().ok().map(|s| s.clone()))
            .filter(|s| s["private"] != json!(true) && s["status"] != json!("over"))
            .collect();
        list.sort_by_key(|s| std::cmp::Reverse(s["created_ms"].as_u64().unwrap_or(0)));
        list.truncate(limit);
        list
    }

    /// Every live table's handle, by id.
    pub(crate) fn handles(&self) -> Vec<(String, TableHandle)> {
        self.tables
            .lock()
            .map(|t| t.iter().map(|(id, h)| (id.clone(), h.clone())).collect())
            .unwrap_or_default()
    }

    /// How many tables are live.
    pub fn len(&self) -> usize {
        self.tables.lock().map(|t| t.len()).unwrap_or(0)
    }

    /// No table is live.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// How many live tables are still open to players (waiting for seats), by creator key.
    pub(crate) fn open_tables_of(&self, creator: &str) -> usize {
        let handles: Vec<TableHandle> = self
            .tables
            .lock()
            .map(|t| t.values().cloned().collect())
            .unwrap_or_default();
        handles
            .iter()
            .filter(|h| h.creator == creator)
            .filter(|h| {
                h.summary
                    .lock()
                    .map(|s| s["status"] == json!("waiting") || s["status"] == json!("deploying"))
                    .unwrap_or(false)
            })
            .count()
    }
}
