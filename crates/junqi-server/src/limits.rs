//! Limits that keep a server bounded whatever its clients do: a rate limiter per key (table
//! creation per address, …) and a count of open connections per address. Both hold at most a
//! fixed number of keys, so a flood of new addresses cannot grow them without bound.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// At most `limit` events per key in each window (a fixed window per key).
pub struct Limiter {
    limit: u32,
    window: Duration,
    capacity: usize,
    keys: Mutex<HashMap<String, (Instant, u32)>>,
}

impl Limiter {
    /// `limit` events per `window` for each key; at most `capacity` keys are tracked (when full,
    /// the windows that have ended are swept, and if none has, the new key is refused: a flood
    /// of fresh keys is itself throttled).
    pub fn new(limit: u32, window: Duration, capacity: usize) -> Limiter {
        Limiter {
            limit,
            window,
            capacity,
            keys: Mutex::new(HashMap::new()),
        }
    }

    /// Count one event for `key`: `Ok`, or `Err(seconds until the key may try again)`.
    pub fn check(&self, key: &str) -> Result<(), u64> {
        let now = Instant::now();
        let Ok(mut keys) = self.keys.lock() else {
            return Ok(());
        };
        if !keys.contains_key(key) && keys.len() >= self.capacity {
            let window = self.window;
            keys.retain(|_, (start, _)| now.duration_since(*start) < window);
            if keys.len() >= self.capacity {
                return Err(self.window.as_secs().max(1));
            }
        }
        let e = keys.entry(key.to_string()).or_insert((now, 0));
        if now.duration_since(e.0) >= self.window {
            *e = (now, 0);
        }
        if e.1 >= self.limit {
            let left = self.window.saturating_sub(now.duration_since(e.0));
            return Err(left.as_secs().max(1));
        }
        e.1 += 1;
        Ok(())
    }

    /// How many keys are tracked.
    pub fn tracked(&self) -> usize {
        self.keys.lock().map(|k| k.len()).unwrap_or(0)
    }
}

/// Open connections per address.
#[derive(Clone)]
pub struct ConnCounter {
    max_per_address: usize,
    open: Arc<Mutex<HashMap<IpAddr, usize>>>,
}

/// An open connection, counted until dropped.
pub struct ConnGuard {
    ip: IpAddr,
    open: Arc<Mutex<HashMap<IpAddr, usize>>>,
}

impl ConnCounter {
    /// At most `max_per_address` open connections from one address.
    pub fn new(max_per_address: usize) -> ConnCounter {
        ConnCounter {
            max_per_address,
            open: Arc::new(Mutex::new(HashMap::new())),
        }
    }

    /// Count a new connection from `ip`, or `None` if that address has too many open.
    pub fn open(&self, ip: IpAddr) -> Option<ConnGuard> {
        let mut open = self.open.lock().ok()?;
        let n = open.entry(ip).or_insert(0);
        if *n >= self.max_per_address {
            return None;
        }
        *n += 1;
        Some(ConnGuard {
            ip,
            open: self.open.clone(),
        })
    }

    /// Open connections from `ip`.
    pub fn count(&self, ip: IpAddr) -> usize {
        self.open
            .lock()
            .map(|o| o.get(&ip).copied().unwrap_or(0))
            .unwrap_or(0)
    }
}

impl Drop for ConnGuard {
    fn drop(&mut self) {
        if let Ok(mut open) = self.open.lock() {
            if let Some(n) = open.get_mut(&self.ip) {
                *n -= 1;
                if *n == 0 {
                    open.remove(&self.ip);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limiter_counts_per_key_and_stays_bounded() {
        let l = Limiter::new(3, Duration::from_secs(60), 100);
        for _ in 0..3 {
            assert!(l.check("a").is_ok());
        }
        let retry = l.check("a").unwrap_err();
        assert!((1..=60).contains(&retry));
        assert!(l.check("b").is_ok(), "another key has its own count");
        for i in 0..1000 {
            let _ = l.check(&format!("k{i}"));
        }
        assert!(l.tracked() <= 100);
    }

    #[test]
    fn limiter_window_ends() {
        let l = Limiter::new(1, Duration::from_millis(30), 10);
        assert!(l.check("a").is_ok());
        assert!(l.check("a").is_err());
        std::thread::sleep(Duration::from_millis(40));
        assert!(l.check("a").is_ok());
    }

    #[test]
    fn connections_per_address() {
        let c = ConnCounter::new(2);
        let ip: IpAddr = "127.0.0.1".parse().unwrap();
        let a = c.open(ip).unwrap();
        let _b = c.open(ip).unwrap();
        assert!(c.open(ip).is_none());
        assert!(c.open("127.0.0.2".parse().unwrap()).is_some());
        drop(a);
        assert_eq!(c.count(ip), 1);
        assert!(c.open(ip).is_some());
    }
}
