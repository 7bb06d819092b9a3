//! Where `junqi play` saves the game record (the text form of `docs/formats.md`, "Game
//! records"): `--record PATH`, or by default a new file under the user's data directory,
//! `$XDG_DATA_HOME/junqi/games/` (else `~/.local/share/junqi/games/`, else the current
//! directory), named by the game's start time (UTC) and seed.

use anyhow::{Context, Result};
use junqi_core::Record;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

/// The directory records go to by default.
fn default_dir() -> PathBuf {
    let var = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty());
    if let Some(d) = var("XDG_DATA_HOME") {
        return PathBuf::from(d).join("junqi").join("games");
    }
    if let Some(h) = var("HOME") {
        return PathBuf::from(h).join(".local/share/junqi/games");
    }
    PathBuf::from(".")
}

/// The default path of a game started at `start` with `seed`, e.g.
/// `…/junqi/games/play-20261201-213005-seed42.txt`.
pub fn default_path(start: SystemTime, seed: u64) -> PathBuf {
    let secs = start.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    default_dir().join(format!("play-{}-seed{seed}.txt", utc_stamp(secs)))
}

/// Write the record to `path`, creating its directory.
pub fn save(record: &Record, path: &Path) -> Result<()> {
    save_text(&record.to_text(), path)
}

/// Write a record's text form (any board's) to `path`, creating its directory.
pub fn save_text(text: &str, path: &Path) -> Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    std::fs::write(path, text).with_context(|| format!("writing {}", path.display()))
}

/// `YYYYMMDD-HHMMSS` of a Unix time, in UTC.
fn utc_stamp(secs: u64) -> String {
    let (days, rest) = (secs / 86_400, secs % 86_400);
    // Civil date from days since 1970-01-01 (H. Hinnant's algorithm).
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}{month:02}{day:02}-{:02}{:02}{:02}",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stamps_are_utc_dates() {
        assert_eq!(utc_stamp(0), "19700101-000000");
        // 2026-12-01 21:30:05 UTC.
        assert_eq!(utc_stamp(1_796_160_605), "20261201-213005");
        assert_eq!(utc_stamp(951_782_400), "20000229-000000");
    }
}
