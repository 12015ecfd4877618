//! Files replaced whole (databases, checkpoints): written beside their path, made durable and
//! renamed over it, so a kill leaves the old file or the new one, never part of one.

use std::io::Write;
use std::path::{Path, PathBuf};

/// Where the new version of `path` is written before it is renamed: `path` with `.tmp` added.
pub(crate) fn temporary_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".tmp");
    PathBuf::from(name)
}

/// Replace the file at `path` with `bytes`.
pub(crate) fn replace(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let temporary = temporary_path(path);
    let mut file = std::fs::File::create(&temporary)?;
    file.write_all(bytes)?;
    file.sync_data()?;
    std::fs::rename(&temporary, path)
}

/// Replace the file at `path` with what `write` writes into a new file (which it may seek in).
pub(crate) fn replace_with(
    path: &Path,
    write: impl FnOnce(&mut std::fs::File) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let temporary = temporary_path(path);
    let mut file = std::fs::File::create(&temporary)?;
    write(&mut file)?;
    file.sync_data()?;
    std::fs::rename(&temporary, path)
}

/// The number a file stores little-endian in `bytes` (up to eight).
pub(crate) fn little_endian(bytes: &[u8]) -> u64 {
    bytes.iter().rev().fold(0u64, |n, &b| n << 8 | u64::from(b))
}
