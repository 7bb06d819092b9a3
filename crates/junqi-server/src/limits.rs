//! Limits that keep a server bounded whatever its clients do: rate budgets per key ([`RateBudget`]:
//! table creations per address, WebSocket frames per address and per account; several servers
//! share them by exchanging usage) and a count of open connections per address. Each holds at
//! most a fixed number of keys, so a flood of new addresses cannot grow them without bound.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Token buckets per key (a client address, an account), shared by every connection of this
/// server: a person with fifty connections has the budget of one. `rate` tokens a second refill
/// each key's bucket up to `burst`; each frame takes one token from every key it is counted
/// against.
///
/// Several servers in front of one set of tables share a key's budget by exchanging usage: each
/// periodically takes [`RateBudget::drain_local_usage`] (what its own clients used since the last
/// drain) and sends it to the others, which feed it to [`RateBudget::add_remote_usage`]. Usage
/// from elsewhere takes tokens here without being counted as local (it is never sent back), so
/// with usage exchanged every interval a key's clients get one budget over all servers, give or
/// take what each server lets through within one interval.
pub struct RateBudget {
    rate: f64,
    burst: f64,
    capacity: usize,
    keys: Mutex<HashMap<String, Bucket>>,
}

/// One key's bucket.
struct Bucket {
    /// May be negative: usage reported by other servers is debt that refills like any use.
    tokens: f64,
    /// When `tokens` was last brought up to date.
    last: Instant,
    /// Frames let through here since the last drain.
    local: u32,
}

/// Keys one drain reports at most: the busiest (a key that used little since the last drain
/// is far from its budget, and the message to the other servers stays small).
pub const MAX_DRAINED_KEYS: usize = 1024;

impl RateBudget {
    /// `rate` frames a second per key, bursts of `burst`; at most `capacity` keys tracked. When
    /// full, keys whose bucket has refilled (idle keys) are swept; if none has, a frame of a new
    /// key is refused (a flood of fresh keys is itself throttled).
    pub fn new(rate: f64, burst: f64, capacity: usize) -> RateBudget {
        RateBudget {
            rate: rate.max(0.0),
            burst: burst.max(1.0),
            capacity: capacity.max(1),
            keys: Mutex::new(HashMap::new()),
        }
    }

    /// Count one frame against every key of `keys`: `Ok` (a token taken from each), or, if any
    /// key's budget is spent, `Err(seconds until it may try again)` and nothing taken.
    pub fn take(&self, keys: &[&str]) -> Result<(), u64> {
        self.take_at(keys, Instant::now())
    }

    /// `per_minute` events a minute per key, all of which may come at once (creations of
    /// tables per address, …).
    pub fn per_minute(per_minute: u32, capacity: usize) -> RateBudget {
        RateBudget::new(per_minute as f64 / 60.0, per_minute as f64, capacity)
    }

    /// [`RateBudget::take`] at the moment `now` (tests).
    pub fn take_at(&self, keys: &[&str], now: Instant) -> Result<(), u64> {
        let Ok(mut map) = self.keys.lock() else {
            return Ok(());
        };
        for key in keys {
            match map.get_mut(*key) {
                Some(b) => self.refill(b, now),
                None => {
                    if !self.make_room(&mut map, now) {
                        return Err(self.wait_secs(0.0));
                    }
                    map.insert((*key).to_string(), self.full(now));
                }
            }
        }
        let lowest = keys
            .iter()
            .filter_map(|k| map.get(*k))
            .map(|b| b.tokens)
            .fold(f64::INFINITY, f64::min);
        if lowest < 1.0 {
            return Err(self.wait_secs(lowest));
        }
        for key in keys {
            if let Some(b) = map.get_mut(*key) {
                b.tokens -= 1.0;
                b.local = b.local.saturating_add(1);
            }
        }
        Ok(())
    }

    /// What this server's clients used since the last drain, per key (keys that used nothing are
    /// left out; at most [`MAX_DRAINED_KEYS`], the busiest), for the other servers'
    /// [`RateBudget::add_remote_usage`]. Also sweeps the keys whose bucket has refilled.
    pub fn drain_local_usage(&self) -> Vec<(String, u32)> {
        let now = Instant::now();
        let Ok(mut map) = self.keys.lock() else {
            return Vec::new();
        };
        let mut used: Vec<(String, u32)> = map
            .iter_mut()
            .filter(|(_, b)| b.local > 0)
            .map(|(k, b)| (k.clone(), std::mem::take(&mut b.local)))
            .collect();
        self.sweep(&mut map, now);
        used.sort_unstable_by_key(|u| std::cmp::Reverse(u.1));
        used.truncate(MAX_DRAINED_KEYS);
        used
    }

    /// Usage of `key` observed on another server: `n` tokens taken from its bucket here (down to
    /// at most one burst of debt, so that no report can lock a key out for long).
    pub fn add_remote_usage(&self, key: &str, n: u32) {
        self.add_remote_usage_at(key, n, Instant::now())
    }

    /// [`RateBudget::add_remote_usage`] at the moment `now` (tests).
    pub fn add_remote_usage_at(&self, key: &str, n: u32, now: Instant) {
        if n == 0 {
            return;
        }
        let Ok(mut map) = self.keys.lock() else {
            return;
        };
        if !map.contains_key(key) {
            if !self.make_room(&mut map, now) {
                // Full of busy keys: this server cannot track one more; its own frames of a
                // new key are refused meanwhile anyway.
                return;
            }
            map.insert(key.to_string(), self.full(now));
        }
        if let Some(b) = map.get_mut(key) {
            self.refill(b, now);
            b.tokens = (b.tokens - n as f64).max(-self.burst);
        }
    }

    /// How many keys are tracked.
    pub fn tracked(&self) -> usize {
        self.keys.lock().map(|k| k.len()).unwrap_or(0)
    }

    /// A new key's bucket: full.
    fn full(&self, now: Instant) -> Bucket {
        Bucket {
            tokens: self.burst,
            last: now,
            local: 0,
        }
    }

    fn refill(&self, b: &mut Bucket, now: Instant) {
        let dt = now.saturating_duration_since(b.last).as_secs_f64();
        b.tokens = (b.tokens + dt * self.rate).min(self.burst);
        b.last = now;
    }

    /// Room for one more key: true if there is (after sweeping idle keys if full).
    fn make_room(&self, map: &mut HashMap<String, Bucket>, now: Instant) -> bool {
        if map.len() < self.capacity {
            return true;
        }
        self.sweep(map, now);
        map.len() < self.capacity
    }

    /// Forget the keys whose bucket is full again: a new bucket starts full, so nothing is lost
    /// but a count of local use not yet drained, which the refill has made up for anyway.
    fn sweep(&self, map: &mut HashMap<String, Bucket>, now: Instant) {
        let (rate, burst) = (self.rate, self.burst);
        map.retain(|_, b| {
            b.tokens + now.saturating_duration_since(b.last).as_secs_f64() * rate < burst
        });
    }

    /// Whole seconds until a bucket holding `tokens` has one token (at least 1, at most 60).
    fn wait_secs(&self, tokens: f64) -> u64 {
        if self.rate <= 0.0 {
            return 60;
        }
        (((1.0 - tokens) / self.rate).ceil() as u64).clamp(1, 60)
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

/// The count a request's connection holds (none behind a trusted proxy), for a handler whose
/// work outlives the HTTP connection: a WebSocket keeps it until it closes.
#[derive(Clone)]
pub struct Counted(pub Option<Arc<ConnGuard>>);

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
    use std::time::Duration;

    #[test]
    fn per_minute_budget_allows_a_minutes_worth_at_once_then_refills() {
        let b = RateBudget::per_minute(3, 100);
        let t = Instant::now();
        for _ in 0..3 {
            assert!(b.take_at(&["a"], t).is_ok());
        }
        let retry = b.take_at(&["a"], t).unwrap_err();
        assert_eq!(retry, 20, "one of three a minute comes back in 20 s");
        assert!(
            b.take_at(&["b"], t).is_ok(),
            "another key has its own budget"
        );
        assert!(b.take_at(&["a"], t + Duration::from_secs(21)).is_ok());
        for i in 0..1000 {
            let _ = b.take_at(&[format!("k{i}").as_str()], t);
        }
        assert!(b.tracked() <= 100);
    }

    #[test]
    fn budget_is_per_key_not_per_caller() {
        let b = RateBudget::new(1.0, 5.0, 100);
        let t = Instant::now();
        // Two "connections" of one address share its five tokens.
        for i in 0..5 {
            let keys: &[&str] = if i % 2 == 0 {
                &["addr:a"]
            } else {
                &["addr:a", "player:p"]
            };
            assert!(b.take_at(keys, t).is_ok());
        }
        assert_eq!(b.take_at(&["addr:a"], t), Err(1));
        // The account's own bucket still has tokens, but a frame needs both.
        assert!(b.take_at(&["addr:a", "player:p"], t).is_err());
        assert!(b.take_at(&["addr:b", "player:p"], t).is_ok());
        // A refused frame takes nothing: after one second there is exactly one token.
        let later = t + Duration::from_secs(1);
        assert!(b.take_at(&["addr:a"], later).is_ok());
        assert!(b.take_at(&["addr:a"], later).is_err());
    }

    #[test]
    fn budget_keys_are_bounded_and_idle_ones_swept() {
        let b = RateBudget::new(10.0, 2.0, 50);
        let t = Instant::now();
        for i in 0..50 {
            assert!(b.take_at(&[&format!("k{i}")], t).is_ok());
        }
        // Full of keys that are still refilling: a new key is refused, not tracked.
        assert!(b.take_at(&["new"], t).is_err());
        assert_eq!(b.tracked(), 50);
        // A second later they have all refilled and are swept for the new key.
        assert!(b.take_at(&["new"], t + Duration::from_secs(1)).is_ok());
        assert_eq!(b.tracked(), 1);
        for i in 0..10_000 {
            b.add_remote_usage_at(&format!("r{i}"), 1, t + Duration::from_secs(1));
        }
        assert!(b.tracked() <= 50);
    }

    /// Two servers that exchange their usage enforce one budget: a client spending on both is
    /// refused once the two together have let its burst through, and the drains report only
    /// what each let through itself.
    #[test]
    fn two_budgets_exchanging_usage_enforce_one_budget() {
        let a = RateBudget::new(10.0, 20.0, 100);
        let b = RateBudget::new(10.0, 20.0, 100);
        let t = Instant::now();
        let key = "addr:203.0.113.9";
        let exchange = |now: Instant| {
            let from_a = a.drain_local_usage();
            let from_b = b.drain_local_usage();
            for (k, n) in from_a {
                b.add_remote_usage_at(&k, n, now);
            }
            for (k, n) in from_b {
                a.add_remote_usage_at(&k, n, now);
            }
        };
        // 12 frames on each server: alone each would allow them all (burst 20).
        for _ in 0..12 {
            assert!(a.take_at(&[key], t).is_ok());
            assert!(b.take_at(&[key], t).is_ok());
        }
        exchange(t);
        // Usage from elsewhere is not reported back as this server's own.
        assert!(a.drain_local_usage().is_empty());
        // Together they let 24 through, more than the burst: both now refuse.
        assert!(a.take_at(&[key], t).is_err());
        assert!(b.take_at(&[key], t).is_err());
        // Over the next ten seconds the client sends as fast as it may, alternating servers,
        // with usage exchanged every half second: about rate x time frames in all.
        let mut passed = 0u32;
        for step in 1..=100u64 {
            let now = t + Duration::from_millis(100 * step);
            for s in [&a, &b] {
                for _ in 0..5 {
                    if s.take_at(&[key], now).is_ok() {
                        passed += 1;
                    }
                }
            }
            if step % 5 == 0 {
                exchange(now);
            }
        }
        // Ten seconds at 10 a second, less the 4 frames of debt, plus what each let through
        // within one exchange interval; two unshared budgets would have let 200 through.
        assert!((96..=110).contains(&passed), "{passed} frames let through");
    }

    #[test]
    fn drained_usage_lists_the_busiest_keys_only() {
        let b = RateBudget::new(1.0, 1_000.0, 10_000);
        let t = Instant::now();
        for i in 0..(MAX_DRAINED_KEYS + 10) {
            assert!(b.take_at(&[&format!("k{i}")], t).is_ok());
        }
        for _ in 0..5 {
            assert!(b.take_at(&["hot"], t).is_ok());
        }
        let used = b.drain_local_usage();
        assert_eq!(used.len(), MAX_DRAINED_KEYS);
        assert_eq!(used[0], ("hot".to_string(), 5));
        assert!(
            b.drain_local_usage().is_empty(),
            "a drain resets the counts"
        );
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
