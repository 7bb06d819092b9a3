//! The live tables of this server: a map from table id (and from join code) to the handle of
//! its actor. Tables register themselves when their actor starts and leave when it ends; nothing
//! here awaits. The lobby and the per-creator count of open tables are not built from here but
//! from the database (`store::lobby`, `store::open_tables_of`): with several servers on one
//! database, each holds only the tables it runs.

use crate::table::TableHandle;
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

    /// A table's actor ended: forget it, unless a new actor for the table registered since.
    pub(crate) fn unregister(
        &self,
        id: &str,
        code: &str,
        tx: &tokio::sync::mpsc::Sender<crate::table::Cmd>,
    ) {
        if let Ok(mut t) = self.tables.lock() {
            if t.get(id).is_some_and(|h| h.tx.same_channel(tx)) {
                t.remove(id);
            }
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
}
