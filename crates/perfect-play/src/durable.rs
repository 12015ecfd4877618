//! The one way perfect-play writes a file: databases, opening books, checkpoints and partial
//! builds all come through here, so that a file a user hands us is never lost.
//!
//! - A file replaced whole is written under a fresh name in its own folder, created
//!   exclusively (`O_EXCL`: a link planted at that name is never followed), synced, and renamed
//!   over the target, so a kill leaves the old file or the new one, never part of one; a write
//!   that fails (a full disk) removes what it wrote.
//! - A target that is a symbolic link, or not a regular file (a folder, a FIFO, a device), is
//!   refused by name before anything is written; so is an existing file the writer does not
//!   recognise as its own of the same game (each writer says what it recognises).
//! - A file appended to in place (a checkpoint) is opened without following links.
//! - [`Lock`]: one process at a time writes a target; the second is told so at once.
//!
//! Readers check too ([`readable`]): a FIFO or a device named as a file is refused at once
//! instead of blocking forever.

use std::fs::{File, Metadata, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

/// A file that could not be read or written, or that perfect-play will not touch.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FileError {
    /// Writing failed (a full disk, a read-only folder): nothing was left behind.
    #[error("cannot write {path}: {why}")]
    Write {
        /// The file.
        path: String,
        /// What the system said.
        why: String,
        /// Its kind.
        kind: std::io::ErrorKind,
    },
    /// Reading failed.
    #[error("cannot read {path}: {why}")]
    Read {
        /// The file.
        path: String,
        /// What the system said.
        why: String,
        /// Its kind.
        kind: std::io::ErrorKind,
    },
    /// The target is a symbolic link: perfect-play never writes through one.
    #[error(
        "{path} is a symbolic link: perfect-play never writes through a link; name the file itself"
    )]
    Link {
        /// The file.
        path: String,
    },
    /// The path names a folder, a FIFO, a socket or a device.
    #[error("{path} is {kind}, not a regular file: name a file, or a path that does not exist yet")]
    NotRegular {
        /// The path.
        path: String,
        /// What it is ("a FIFO").
        kind: &'static str,
    },
    /// The path is a chain of symbolic links that never ends.
    #[error("{path} is a loop of symbolic links: name the file itself")]
    LinkLoop {
        /// The path.
        path: String,
    },
    /// An existing file that is not the writer's own of the same game.
    #[error(
        "{path} {what}: perfect-play replaces only its own file of the same game and variant; remove it or name another path"
    )]
    Foreign {
        /// The file.
        path: String,
        /// What it holds, said as a predicate ("holds dodgem 4x4, not connect-four 7x6").
        what: String,
    },
    /// Another process holds the target's lock.
    #[error(
        "{path} is being written by another perfect-play process ({lock} is locked): wait for it to finish, then run the command again"
    )]
    Locked {
        /// The target.
        path: String,
        /// The lock file.
        lock: String,
    },
}

impl FileError {
    /// Whether this is the system failing a write (status 1 at the command line), not a
    /// refusal of what was asked (status 2).
    #[must_use]
    pub fn is_write_failure(&self) -> bool {
        matches!(self, FileError::Write { .. })
    }
}

fn shown(path: &Path) -> String {
    crate::parse::one_line(&path.display().to_string())
}

/// A write that failed, as the error every writer reports it by (status 1 at the command
/// line).
#[must_use]
pub fn write_error(path: &Path, source: std::io::Error) -> FileError {
    FileError::Write {
        path: shown(path),
        why: source.to_string(),
        kind: source.kind(),
    }
}

pub(crate) fn read_error(path: &Path, source: std::io::Error) -> FileError {
    if source.raw_os_error() == Some(libc::ELOOP) {
        return FileError::LinkLoop { path: shown(path) };
    }
    FileError::Read {
        path: shown(path),
        why: source.to_string(),
        kind: source.kind(),
    }
}

/// What a non-regular file is, for the messages.
fn kind_of(metadata: &Metadata) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    let kind = metadata.file_type();
    if kind.is_dir() {
        "a folder"
    } else if kind.is_fifo() {
        "a FIFO"
    } else if kind.is_socket() {
        "a socket"
    } else if kind.is_char_device() || kind.is_block_device() {
        "a device"
    } else if kind.is_symlink() {
        "a symbolic link"
    } else {
        "not a regular file"
    }
}

/// A file to read: `Ok(None)` when nothing is there, its metadata when it is a regular file
/// (through links); anything else (a FIFO, whose open would block, a folder, a link loop) is
/// refused by name.
///
/// # Errors
/// [`FileError::NotRegular`], [`FileError::LinkLoop`] or [`FileError::Read`].
pub fn readable(path: &Path) -> Result<Option<Metadata>, FileError> {
    match std::fs::metadata(path) {
        Ok(metadata) if metadata.is_file() => Ok(Some(metadata)),
        Ok(metadata) => Err(FileError::NotRegular {
            path: shown(path),
            kind: kind_of(&metadata),
        }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            // A dangling link is something there all the same: not a file to read, and not
            // a place to write.
            match std::fs::symlink_metadata(path) {
                Ok(_) => Err(FileError::Link { path: shown(path) }),
                Err(_) => Ok(None),
            }
        }
        Err(e) => Err(read_error(path, e)),
    }
}

/// Open a file to read, refused as [`readable`] says when it is not a regular file.
///
/// # Errors
/// As [`readable`]; [`FileError::Read`] with `NotFound` when nothing is there.
pub fn open_to_read(path: &Path) -> Result<File, FileError> {
    match readable(path)? {
        Some(_) => File::open(path).map_err(|e| read_error(path, e)),
        None => Err(FileError::Read {
            path: shown(path),
            why: "there is no such file".into(),
            kind: std::io::ErrorKind::NotFound,
        }),
    }
}

/// Whether a file is at `path` as a place to write: `false` when nothing is there; `true`
/// for a regular file; a link (dangling or not), a folder, a FIFO or a device refused.
///
/// # Errors
/// [`FileError::Link`], [`FileError::NotRegular`] or [`FileError::Read`].
pub fn writable_target(path: &Path) -> Result<bool, FileError> {
    match std::fs::symlink_metadata(path) {
        Ok(metadata) if metadata.file_type().is_symlink() => {
            Err(FileError::Link { path: shown(path) })
        }
        Ok(metadata) if metadata.is_file() => Ok(true),
        Ok(metadata) => Err(FileError::NotRegular {
            path: shown(path),
            kind: kind_of(&metadata),
        }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(read_error(path, e)),
    }
}

/// What a writer recognises as its own: given an existing target, `Ok(())` when it may be
/// replaced, else what it holds ("holds dodgem 4x4, not connect-four 7x6").
pub type Ours<'a> = &'a dyn Fn(&Path) -> Result<(), String>;

/// Whether the file at `path` begins with `head` (a writer's magic and identity), else why
/// not, said as a predicate for [`FileError::Foreign`] ("is not ...": `what` names it).
///
/// # Errors
/// `is not {what}` when it does not begin so, or cannot be read.
pub fn begins_with(path: &Path, head: &[u8], what: &str) -> Result<(), String> {
    use std::io::Read;
    let mut found = Vec::with_capacity(head.len());
    File::open(path)
        .and_then(|f| f.take(head.len() as u64).read_to_end(&mut found))
        .map_err(|e| format!("cannot be read ({e})"))?;
    if found == head {
        Ok(())
    } else {
        Err(format!("is not {what}"))
    }
}

/// Any existing regular file may be replaced (for a file the writer itself created this run).
pub fn any_file(_: &Path) -> Result<(), String> {
    Ok(())
}

/// Check that `path` may be written: absent, or a regular file `ours` recognises.
///
/// # Errors
/// As [`writable_target`], or [`FileError::Foreign`].
pub fn check_target(path: &Path, ours: Ours<'_>) -> Result<(), FileError> {
    if writable_target(path)? {
        ours(path).map_err(|what| FileError::Foreign {
            path: shown(path),
            what,
        })?;
    }
    Ok(())
}

/// The folder a new version of `path` is written in.
fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    }
}

/// A new version of a file, written aside and not yet in place ([`Staged::commit`] puts it
/// there; dropping it removes it).
#[derive(Debug)]
pub struct Staged {
    temporary: tempfile::TempPath,
    target: PathBuf,
}

impl Staged {
    /// Rename the new version over the target (checked again: a link or a foreign file put
    /// there meanwhile is refused, and the new version removed).
    ///
    /// # Errors
    /// As [`check_target`], or [`FileError::Write`] when the rename fails.
    pub fn commit(self, ours: Ours<'_>) -> Result<(), FileError> {
        check_target(&self.target, ours)?;
        self.temporary
            .persist(&self.target)
            .map_err(|e| write_error(&self.target, e.error))?;
        // The rename itself made durable: the folder's entry synced (not every filesystem
        // can, so a refusal here loses nothing already written).
        if let Ok(folder) = File::open(folder_of(&self.target)) {
            let _ = folder.sync_all();
        }
        Ok(())
    }
}

/// Write a new version of `path` with `write` (which may seek in the file) under a fresh name
/// beside it, synced, without putting it in place yet.
///
/// # Errors
/// As [`check_target`], or [`FileError::Write`] (nothing left behind).
pub fn stage(
    path: &Path,
    ours: Ours<'_>,
    write: impl FnOnce(&mut File) -> std::io::Result<()>,
) -> Result<Staged, FileError> {
    check_target(path, ours)?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let fail = |e| write_error(path, e);
    let mut temporary = tempfile::Builder::new()
        .prefix(&format!(".{name}."))
        .suffix(".tmp")
        .tempfile_in(folder_of(path))
        .map_err(fail)?;
    write(temporary.as_file_mut()).map_err(fail)?;
    temporary.as_file_mut().flush().map_err(fail)?;
    temporary.as_file().sync_all().map_err(fail)?;
    Ok(Staged {
        temporary: temporary.into_temp_path(),
        target: path.to_path_buf(),
    })
}

/// Replace (or create) the file at `path` with what `write` writes.
///
/// # Errors
/// As [`stage`] and [`Staged::commit`].
pub fn replace_with(
    path: &Path,
    ours: Ours<'_>,
    write: impl FnOnce(&mut File) -> std::io::Result<()>,
) -> Result<(), FileError> {
    stage(path, ours, write)?.commit(ours)
}

/// Replace (or create) the file at `path` with `bytes`.
///
/// # Errors
/// As [`replace_with`].
pub fn replace(path: &Path, ours: Ours<'_>, bytes: &[u8]) -> Result<(), FileError> {
    replace_with(path, ours, |file| file.write_all(bytes))
}

/// Options that never follow a link at the last step of the path.
fn no_follow() -> OpenOptions {
    let mut options = OpenOptions::new();
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NOFOLLOW);
    }
    options
}

/// Open a file written in place (a checkpoint appended to): an existing regular file for
/// reading and writing, not truncated, or a new one created exclusively. Links and anything
/// but a regular file are refused.
///
/// # Errors
/// As [`writable_target`], or [`FileError::Write`].
pub fn open_in_place(path: &Path) -> Result<File, FileError> {
    let exists = writable_target(path)?;
    let mut options = no_follow();
    options.read(true).write(true);
    if exists {
        options.truncate(false);
    } else {
        options.create_new(true);
    }
    options.open(path).map_err(|e| {
        if e.raw_os_error() == Some(libc::ELOOP) {
            FileError::Link { path: shown(path) }
        } else {
            write_error(path, e)
        }
    })
}

/// Remove a file of ours if it is there.
///
/// # Errors
/// [`FileError::Write`] when it cannot be removed.
pub fn remove_if_present(path: &Path) -> Result<(), FileError> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(write_error(path, e)),
        _ => Ok(()),
    }
}

/// The lock file of a target: `PATH.lock`.
#[must_use]
pub fn lock_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".lock");
    PathBuf::from(name)
}

/// A target's lock, held while a process writes it (a solve into a database, a book, a
/// checkpointed computation): a second process is refused at once, saying so. The lock file
/// is removed when the lock is let go of.
#[derive(Debug)]
pub struct Lock {
    file: File,
    path: PathBuf,
}

impl Lock {
    /// Take the lock of `target`, or refuse when another process holds it.
    ///
    /// # Errors
    /// [`FileError::Locked`], or as [`open_in_place`] for the lock file.
    pub fn take(target: &Path) -> Result<Lock, FileError> {
        let path = lock_path(target);
        // A holder removes the file as it lets go: a lock taken on a file removed meanwhile
        // locks nothing, so the file is opened again until the one locked is the one there.
        for _ in 0..100 {
            let file = match open_in_place(&path) {
                Ok(file) => file,
                // Created by another process between the look and the create.
                Err(FileError::Write {
                    kind: std::io::ErrorKind::AlreadyExists | std::io::ErrorKind::NotFound,
                    ..
                }) => {
                    continue;
                }
                Err(e) => return Err(e),
            };
            match file.try_lock() {
                Ok(()) => {}
                Err(std::fs::TryLockError::WouldBlock) => {
                    return Err(FileError::Locked {
                        path: shown(target),
                        lock: shown(&path),
                    });
                }
                Err(std::fs::TryLockError::Error(e)) => return Err(write_error(&path, e)),
            }
            if same_file(&file, &path) {
                return Ok(Lock { file, path });
            }
        }
        Err(FileError::Locked {
            path: shown(target),
            lock: shown(&path),
        })
    }
}

/// Whether the open `file` is the one now at `path`.
fn same_file(file: &File, path: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (file.metadata(), std::fs::symlink_metadata(path)) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

impl Drop for Lock {
    fn drop(&mut self) {
        // Removed while still locked, so no process takes a lock on the file being removed
        // (see Lock::take).
        let _ = std::fs::remove_file(&self.path);
        let _ = self.file.unlock();
    }
}

/// The number a file stores little-endian in `bytes` (up to eight).
pub(crate) fn little_endian(bytes: &[u8]) -> u64 {
    bytes.iter().rev().fold(0u64, |n, &b| n << 8 | u64::from(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch() -> tempfile::TempDir {
        tempfile::tempdir().expect("a scratch folder")
    }

    fn leftovers(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_link_at_the_target_or_beside_it_is_never_written_through() {
        let dir = scratch();
        let precious = dir.path().join("V");
        std::fs::write(&precious, "precious").unwrap();
        // The old fixed temporary name, and the target itself.
        let target = dir.path().join("Z");
        std::os::unix::fs::symlink(&precious, dir.path().join("Z.tmp")).unwrap();
        replace(&target, &any_file, b"database bytes").unwrap();
        assert_eq!(std::fs::read(&precious).unwrap(), b"precious");
        assert_eq!(std::fs::read(&target).unwrap(), b"database bytes");
        let linked = dir.path().join("L");
        std::os::unix::fs::symlink(&precious, &linked).unwrap();
        let refused = replace(&linked, &any_file, b"x").unwrap_err();
        assert!(matches!(refused, FileError::Link { .. }), "{refused}");
        // A dangling link too.
        let dangling = dir.path().join("D");
        std::os::unix::fs::symlink(dir.path().join("nowhere"), &dangling).unwrap();
        assert!(matches!(
            open_in_place(&dangling),
            Err(FileError::Link { .. })
        ));
        assert!(!dir.path().join("nowhere").exists());
        assert_eq!(std::fs::read(&precious).unwrap(), b"precious");
    }

    #[test]
    fn a_foreign_file_is_refused_and_kept() {
        let dir = scratch();
        let target = dir.path().join("notes.txt");
        std::fs::write(&target, "my notes").unwrap();
        let ours = |p: &Path| {
            let bytes = std::fs::read(p).map_err(|e| e.to_string())?;
            if bytes.starts_with(b"PPDB") {
                Ok(())
            } else {
                Err("is not a perfect-play database".to_string())
            }
        };
        let refused = replace(&target, &ours, b"PPDB...").unwrap_err();
        assert!(matches!(refused, FileError::Foreign { .. }), "{refused}");
        assert_eq!(std::fs::read(&target).unwrap(), b"my notes");
        std::fs::write(&target, "PPDB old").unwrap();
        replace(&target, &ours, b"PPDB new").unwrap();
        assert_eq!(std::fs::read(&target).unwrap(), b"PPDB new");
        assert_eq!(leftovers(dir.path()), ["notes.txt"]);
    }

    #[test]
    fn a_failed_write_leaves_nothing_behind_and_the_old_file_whole() {
        let dir = scratch();
        let target = dir.path().join("db");
        std::fs::write(&target, "old").unwrap();
        let failed = replace_with(&target, &any_file, |file| {
            file.write_all(b"half")?;
            Err(std::io::Error::from_raw_os_error(libc::ENOSPC))
        })
        .unwrap_err();
        assert!(failed.is_write_failure(), "{failed}");
        assert_eq!(std::fs::read(&target).unwrap(), b"old");
        assert_eq!(leftovers(dir.path()), ["db"]);
    }

    #[test]
    fn special_files_are_refused_by_name() {
        let dir = scratch();
        let fifo = dir.path().join("fifo");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if made.map(|s| s.success()).unwrap_or(false) {
            for refused in [
                readable(&fifo).unwrap_err(),
                open_in_place(&fifo).unwrap_err(),
                replace(&fifo, &any_file, b"x").unwrap_err(),
            ] {
                assert!(refused.to_string().contains("a FIFO"), "{refused}");
            }
        }
        let folder = readable(dir.path()).unwrap_err();
        assert!(folder.to_string().contains("a folder"), "{folder}");
        let a = dir.path().join("a");
        let b = dir.path().join("b");
        std::os::unix::fs::symlink(&b, &a).unwrap();
        std::os::unix::fs::symlink(&a, &b).unwrap();
        let looped = readable(&a).unwrap_err();
        assert!(matches!(looped, FileError::LinkLoop { .. }), "{looped}");
        assert!(readable(&dir.path().join("absent")).unwrap().is_none());
    }

    #[test]
    fn a_second_lock_is_refused_until_the_first_is_let_go_of() {
        let dir = scratch();
        let target = dir.path().join("db");
        let first = Lock::take(&target).unwrap();
        let second = Lock::take(&target).unwrap_err();
        assert!(matches!(second, FileError::Locked { .. }), "{second}");
        assert!(second.to_string().contains("db.lock"), "{second}");
        drop(first);
        assert!(leftovers(dir.path()).is_empty());
        let again = Lock::take(&target).unwrap();
        drop(again);
    }
}
