//! The saved state of a long Grundy computation: the values so far, from which a run goes on
//! exactly where the last one stopped (each method rebuilds its own bookkeeping from them).
//!
//! # File format
//!
//! All integers little-endian: `PPGV`, format version (4, now 1), the code's length (4) and
//! the code as written by its `Display`, the number of values (8), the compressed length (8),
//! the CRC-32 of the values' bytes (4), then a zstd frame of the values, two bytes each. A
//! save goes to a temporary file renamed over the last one, so a kill mid-save leaves the
//! previous save whole. Values are streamed both ways: a save or a read holds a buffer, never
//! a second copy of a long run's table.

use super::table::ValueTable;
use super::{OctalCode, OctalError};
use crate::durable;
use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

const MAGIC: &[u8; 4] = b"PPGV";
const VERSION: u32 = 1;

/// Bytes of values streamed at a time.
const CHUNK_BYTES: usize = 1 << 16;

/// A Grundy computation's checkpoint file, checked when opened.
#[derive(Debug)]
pub struct GrundyCheckpoint {
    path: PathBuf,
    code: String,
    /// How many values the file held when opened or last saved (0 for a new file).
    saved: usize,
    /// How often the values are saved while the computation runs: a minute by default.
    pub interval: Duration,
    last_saved: Instant,
    /// Held while the checkpoint is open: one computation at a time saves to a file.
    _lock: durable::Lock,
}

fn failed(path: &Path, why: impl std::fmt::Display) -> OctalError {
    OctalError::Checkpoint {
        path: path.display().to_string(),
        why: why.to_string(),
    }
}

/// Where a checkpoint's values are in its file.
struct Frame {
    count: u64,
    len: u64,
    crc: u32,
    /// Offset of the zstd frame.
    at: u64,
}

impl GrundyCheckpoint {
    /// Open the checkpoint at `path` for `code`, checking the values saved there if any (one
    /// pass over them, nothing kept).
    ///
    /// # Errors
    /// [`OctalError::Checkpoint`] when the file is not a checkpoint of this code (it is left
    /// alone) or is damaged.
    pub fn open(path: &Path, code: &OctalCode) -> Result<GrundyCheckpoint, OctalError> {
        let exists = durable::writable_target(path)?;
        let mut checkpoint = GrundyCheckpoint {
            path: path.to_path_buf(),
            code: code.to_string(),
            saved: 0,
            interval: Duration::from_secs(60),
            last_saved: Instant::now(),
            _lock: durable::Lock::take(path)?,
        };
        if exists {
            checkpoint.saved = checkpoint.read(&mut |_| true)?;
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

    fn damaged(&self) -> OctalError {
        failed(
            &self.path,
            "the checkpoint is damaged: remove it to start again",
        )
    }

    /// The header of the file, checked against this code and the file's length.
    fn frame(&self, file: &mut File) -> Result<Frame, OctalError> {
        let preamble = self.preamble();
        let size = file.metadata().map_err(|e| failed(&self.path, e))?.len();
        let mut head = Vec::with_capacity(preamble.len() + 20);
        (&mut *file)
            .take(preamble.len() as u64)
            .read_to_end(&mut head)
            .map_err(|e| failed(&self.path, e))?;
        if head != preamble {
            return Err(failed(
                &self.path,
                format!(
                    "not a checkpoint of the Grundy values of {}: remove it or name another file",
                    self.code
                ),
            ));
        }
        head.resize(preamble.len() + 20, 0);
        if file.read_exact(&mut head[preamble.len()..]).is_err() {
            return Err(self.damaged());
        }
        let number = |at: usize, len: usize| {
            durable::little_endian(&head[preamble.len() + at..preamble.len() + at + len])
        };
        let frame = Frame {
            count: number(0, 8),
            len: number(8, 8),
            crc: number(16, 4) as u32,
            at: head.len() as u64,
        };
        if frame.at.checked_add(frame.len) != Some(size) {
            return Err(self.damaged());
        }
        Ok(frame)
    }

    /// Stream the saved values, heap 0 first, to `each` until it returns false; returns how
    /// many it was given. The whole file is checked only when every value is read.
    ///
    /// # Errors
    /// [`OctalError::Checkpoint`] when the file cannot be read or is damaged.
    pub fn read(&self, each: &mut dyn FnMut(u16) -> bool) -> Result<usize, OctalError> {
        if durable::readable(&self.path)?.is_none() {
            return Ok(0);
        }
        let mut file = File::open(&self.path).map_err(|e| failed(&self.path, e))?;
        let frame = self.frame(&mut file)?;
        let data = BufReader::new(file).take(frame.len);
        let mut decoder = zstd::stream::read::Decoder::new(data).map_err(|_| self.damaged())?;
        let mut crc = crc32fast::Hasher::new();
        let mut chunk = vec![0u8; CHUNK_BYTES];
        let mut given = 0u64;
        let mut pending: Option<u8> = None;
        loop {
            let got = match decoder.read(&mut chunk) {
                Ok(0) => break,
                Ok(got) => got,
                Err(_) => return Err(self.damaged()),
            };
            crc.update(&chunk[..got]);
            let mut bytes = &chunk[..got];
            if let Some(first) = pending.take() {
                let v = u16::from_le_bytes([first, bytes[0]]);
                bytes = &bytes[1..];
                given += 1;
                if given > frame.count {
                    return Err(self.damaged());
                }
                if !each(v) {
                    return Ok(given as usize);
                }
            }
            let mut pairs = bytes.chunks_exact(2);
            for pair in &mut pairs {
                given += 1;
                if given > frame.count {
                    return Err(self.damaged());
                }
                if !each(u16::from_le_bytes([pair[0], pair[1]])) {
                    return Ok(given as usize);
                }
            }
            pending = pairs.remainder().first().copied();
        }
        if pending.is_some() || given != frame.count || crc.finalize() != frame.crc {
            return Err(self.damaged());
        }
        Ok(given as usize)
    }

    /// Every saved value (a convenience for short runs: a long run streams them with
    /// [`GrundyCheckpoint::read`]).
    ///
    /// # Errors
    /// As [`GrundyCheckpoint::read`].
    pub fn values(&self) -> Result<Vec<u16>, OctalError> {
        let mut values = Vec::with_capacity(self.saved);
        self.read(&mut |v| {
            values.push(v);
            true
        })?;
        Ok(values)
    }

    /// How many values the file holds.
    #[must_use]
    pub fn saved(&self) -> usize {
        self.saved
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

    /// Save `values` (heaps `0..values.len()`), replacing the last save; fewer values than
    /// the file holds (a smaller run that went on from it) leave it as it is.
    ///
    /// # Errors
    /// [`OctalError::Checkpoint`] when the file cannot be written.
    pub fn save(&mut self, values: &ValueTable) -> Result<(), OctalError> {
        if values.len() <= self.saved {
            return Ok(());
        }
        let preamble = self.preamble();
        let what = format!("a checkpoint of the Grundy values of {}", self.code);
        let ours = |existing: &Path| durable::begins_with(existing, &preamble, &what);
        durable::replace_with(&self.path, &ours, |file| {
            file.write_all(&preamble)?;
            file.write_all(&(values.len() as u64).to_le_bytes())?;
            file.write_all(&[0u8; 12])?; // length and CRC, written once known
            let mut encoder = zstd::stream::write::Encoder::new(BufWriter::new(&mut *file), 3)?;
            let mut crc = crc32fast::Hasher::new();
            let mut chunk = Vec::with_capacity(CHUNK_BYTES);
            for v in values.iter() {
                chunk.extend_from_slice(&v.to_le_bytes());
                if chunk.len() == CHUNK_BYTES {
                    crc.update(&chunk);
                    encoder.write_all(&chunk)?;
                    chunk.clear();
                }
            }
            crc.update(&chunk);
            encoder.write_all(&chunk)?;
            encoder.finish()?.flush()?;
            let end = file.stream_position()?;
            let at = preamble.len() as u64 + 20;
            file.seek(SeekFrom::Start(at - 12))?;
            file.write_all(&(end - at).to_le_bytes())?;
            file.write_all(&crc.finalize().to_le_bytes())?;
            Ok(())
        })?;
        self.saved = values.len();
        self.last_saved = Instant::now();
        Ok(())
    }
}
