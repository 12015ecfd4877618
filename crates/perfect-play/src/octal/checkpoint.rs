//! The saved state of a long Grundy computation: the values so far, from which a run goes on
//! exactly where the last one stopped (each method rebuilds its own bookkeeping from them).
//!
//! # File format
//!
//! All integers little-endian: `PPGV`, format version (4, now 1), the code's length (4) and
//! the code as written by its `Display`, the number of values (8), the compressed length (8),
//! the CRC-32 of the values' bytes (4), then a zstd frame of the values, two bytes each. A
//! save goes to a temporary file renamed over the last one, so a kill mid-save leaves the
//! previous save whole.

use super::{OctalCode, OctalError};
use crate::durable;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

const MAGIC: &[u8; 4] = b"PPGV";
const VERSION: u32 = 1;

/// A Grundy computation's checkpoint file, with the values it held when opened.
#[derive(Debug)]
pub struct GrundyCheckpoint {
    path: PathBuf,
    code: String,
    /// The values read back when it was opened (empty for a new file).
    pub values: Vec<u16>,
    /// How often the values are saved while the computation runs: a minute by default.
    pub interval: Duration,
    last_saved: Instant,
}

fn failed(path: &Path, why: impl std::fmt::Display) -> OctalError {
    OctalError::Checkpoint {
        path: path.display().to_string(),
        why: why.to_string(),
    }
}

impl GrundyCheckpoint {
    /// Open the checkpoint at `path` for `code`, reading the values saved there if any.
    ///
    /// # Errors
    /// [`OctalError::Checkpoint`] when the file is not a checkpoint of this code (it is left
    /// alone) or is damaged.
    pub fn open(path: &Path, code: &OctalCode) -> Result<GrundyCheckpoint, OctalError> {
        let code = code.to_string();
        let mut checkpoint = GrundyCheckpoint {
            path: path.to_path_buf(),
            code,
            values: Vec::new(),
            interval: Duration::from_secs(60),
            last_saved: Instant::now(),
        };
        match std::fs::read(path) {
            Ok(bytes) => checkpoint.values = checkpoint.parse(&bytes)?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(failed(path, e)),
        }
        Ok(checkpoint)
    }

    fn preamble(&self) -> Vec<u8> {
        let mut bytes = MAGIC.to_vec();
        bytes.extend_from_slice(&VERSION.to_le_bytes());
        bytes.extend_from_slice(&(self.code.len() as u32).to_le_bytes());
        bytes.extend_from_slice(self.code.as_bytes());
        bytes
    }

    fn parse(&self, bytes: &[u8]) -> Result<Vec<u16>, OctalError> {
        let preamble = self.preamble();
        if !bytes.starts_with(&preamble) {
            return Err(failed(
                &self.path,
                format!(
                    "not a checkpoint of the Grundy values of {}: remove it or name another file",
                    self.code
                ),
            ));
        }
        let damaged = || {
            failed(
                &self.path,
                "the checkpoint is damaged: remove it to start again",
            )
        };
        let rest = &bytes[preamble.len()..];
        let head = rest.get(..20).ok_or_else(damaged)?;
        let number = |at: usize, len: usize| durable::little_endian(&head[at..at + len]);
        let (count, len, crc) = (number(0, 8), number(8, 8), number(16, 4) as u32);
        let data = usize::try_from(len)
            .ok()
            .and_then(|len| rest.get(20..20usize.checked_add(len)?))
            .ok_or_else(damaged)?;
        let raw = zstd::bulk::decompress(data, (count as usize).saturating_mul(2))
            .map_err(|_| damaged())?;
        if raw.len() as u64 != count * 2 || crc32fast::hash(&raw) != crc {
            return Err(damaged());
        }
        Ok(raw
            .chunks_exact(2)
            .map(|b| u16::from_le_bytes([b[0], b[1]]))
            .collect())
    }

    /// The file.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Whether [`GrundyCheckpoint::interval`] has passed since the last save.
    #[must_use]
    pub fn due(&self) -> bool {
        self.last_saved.elapsed() >= self.interval
    }

    /// Save `values` (heaps `0..values.len()`), replacing the last save.
    ///
    /// # Errors
    /// [`OctalError::Checkpoint`] when the file cannot be written.
    pub fn save(&mut self, values: &[u16]) -> Result<(), OctalError> {
        let fail = |e: std::io::Error| failed(&self.path, e);
        let raw: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        let data = zstd::bulk::compress(&raw, 3).map_err(fail)?;
        let mut bytes = self.preamble();
        bytes.extend_from_slice(&(values.len() as u64).to_le_bytes());
        bytes.extend_from_slice(&(data.len() as u64).to_le_bytes());
        bytes.extend_from_slice(&crc32fast::hash(&raw).to_le_bytes());
        bytes.extend_from_slice(&data);
        durable::replace(&self.path, &bytes).map_err(fail)?;
        self.last_saved = Instant::now();
        Ok(())
    }
}
