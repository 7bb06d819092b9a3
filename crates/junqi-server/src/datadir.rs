//! The data directory of a SQLite server: created owner-only, checked writable, locked so that
//! one server at a time uses it, and its database file checked before the pool opens it (a
//! garbage or truncated file is named with what is wrong, at once, instead of a pool timeout).

use anyhow::{bail, Context};
use std::fs::{self, File, OpenOptions};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// The database file in a data directory.
pub fn database_path(dir: &Path) -> PathBuf {
    dir.join("junqi.sqlite3")
}

/// The lock held on a data directory while a server uses it (released when dropped, or when
/// the process dies: the operating system drops the lock with the file).
#[derive(Debug)]
pub struct DirLock {
    _file: File,
}

/// Make the data directory ready: create it (owner-only), refuse it if it cannot be written,
/// lock it (a second server on the same directory exits with a clear message), and check the
/// database file if there is one.
pub fn prepare(dir: &Path) -> anyhow::Result<DirLock> {
    fs::create_dir_all(dir)
        .with_context(|| format!("cannot create the data directory {}", dir.display()))?;
    owner_only(dir, 0o700);
    let probe = dir.join(".write-test");
    let wrote = File::create(&probe).and_then(|mut f| f.write_all(b"ok"));
    if wrote.is_ok() {
        let _ = fs::remove_file(&probe);
    }
    if let Err(e) = wrote {
        bail!(
            "the data directory {} is not writable ({e}): give a directory this user can write",
            dir.display()
        );
    }
    let lock_path = dir.join("junqi.lock");
    let file = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&lock_path)
        .with_context(|| format!("cannot open {}", lock_path.display()))?;
    owner_only(&lock_path, 0o600);
    match file.try_lock() {
        Ok(()) => {}
        Err(fs::TryLockError::WouldBlock) => bail!(
            "another junqi server is using the data directory {} (it holds {}): stop it, or give this one its own --data-dir",
            dir.display(),
            lock_path.display()
        ),
        Err(fs::TryLockError::Error(e)) => {
            bail!("cannot lock {}: {e}", lock_path.display())
        }
    }
    let db = database_path(dir);
    check_database_file(&db)?;
    if !db.exists() {
        // Created here owner-only; SQLite gives its -wal and -shm files the same mode.
        File::create(&db).with_context(|| format!("cannot create {}", db.display()))?;
    }
    owner_only(&db, 0o600);
    Ok(DirLock { _file: file })
}

/// A database file that exists must be a SQLite database: an empty file is fine (SQLite
/// formats it), anything else must start with SQLite's header.
pub fn check_database_file(path: &Path) -> anyhow::Result<()> {
    let mut f = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => bail!("cannot read the database {}: {e}", path.display()),
    };
    let mut header = [0u8; 100];
    let mut n = 0;
    while n < header.len() {
        match f.read(&mut header[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) => bail!("cannot read the database {}: {e}", path.display()),
        }
    }
    if n == 0 {
        return Ok(());
    }
    if n < 100 || &header[..16] != b"SQLite format 3\0" {
        bail!(
            "{} is not a SQLite database (its first bytes are not SQLite's header; it may be truncated or overwritten): move it away to start with a new database, or restore it from a backup",
            path.display()
        );
    }
    Ok(())
}

#[cfg(unix)]
fn owner_only(path: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    if let Err(e) = fs::set_permissions(path, fs::Permissions::from_mode(mode)) {
        tracing::warn!("cannot make {} owner-only: {e}", path.display());
    }
}

#[cfg(not(unix))]
fn owner_only(_path: &Path, _mode: u32) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn garbage_files_are_named() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("x.sqlite3");
        assert!(check_database_file(&p).is_ok(), "absent is fine");
        fs::write(&p, b"").unwrap();
        assert!(check_database_file(&p).is_ok(), "empty is fine");
        fs::write(&p, b"hello, this is not a database at all").unwrap();
        let e = check_database_file(&p).unwrap_err().to_string();
        assert!(
            e.contains("is not a SQLite database") && e.contains("x.sqlite3"),
            "{e}"
        );
        fs::write(&p, b"SQLite format 3\0").unwrap();
        assert!(check_database_file(&p).is_err(), "a truncated header");
    }

    #[test]
    fn one_server_per_directory() {
        let dir = tempfile::tempdir().unwrap();
        let first = prepare(dir.path()).unwrap();
        let e = prepare(dir.path()).unwrap_err().to_string();
        assert!(e.contains("another junqi server"), "{e}");
        drop(first);
        assert!(
            prepare(dir.path()).is_ok(),
            "free again once the first is gone"
        );
    }

    #[test]
    fn an_unwritable_directory_is_refused_at_start() {
        let dir = tempfile::tempdir().unwrap();
        // The write probe's place is taken by a directory, so the probe cannot be written (a
        // read-only directory does the same; tests run as root, who may write anywhere).
        fs::create_dir(dir.path().join(".write-test")).unwrap();
        let e = prepare(dir.path()).unwrap_err().to_string();
        assert!(e.contains("is not writable"), "{e}");
    }

    #[cfg(unix)]
    #[test]
    fn files_are_owner_only() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path().join("data");
        let _l = prepare(&d).unwrap();
        let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&d), 0o700);
        assert_eq!(mode(&database_path(&d)), 0o600);
    }
}
