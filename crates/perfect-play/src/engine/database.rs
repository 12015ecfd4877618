//! Solved tables on disk, and the checkpoints a long solve resumes from.
//!
//! # Database format (version 1)
//!
//! All integers little-endian.
//!
//! | bytes | content |
//! |---|---|
//! | 4 | magic `PPDB` |
//! | 4 | format version (1) |
//! | 4 | header length `h` |
//! | `h` | header: JSON `{"game", "variant", "indices", "positions", "block_records"}` |
//! | 8 | number of blocks `b` |
//! | `16 b` | block index: per block, offset of its data from the file start (8), compressed length (4), CRC-32 of its uncompressed records (4) |
//! | ... | blocks: each a zstd frame of up to `block_records` two-byte [`Record`]s, in index order |
//! | 4 | CRC-32 of every byte before it |
//!
//! A query reads the header and the index once ([`Database::open`]), then one block per record
//! asked for ([`Database::record`]); the last block read is kept.
//!
//! # Checkpoints
//!
//! A checkpoint file starts with `PPCK`, the length of an identity (4) and the identity (the
//! game, variant and table size, so that a checkpoint of another game is refused), then holds
//! the tiers a solve has finished, appended as each one finishes: per tier its number (8),
//! record count (8), compressed length (8), CRC-32 of the records (4) and a zstd frame. A tier cut short by a kill fails its length or checksum and is dropped, so the
//! solve resumes from the last tier written whole.

use super::{EngineError, Record};
use serde::{Deserialize, Serialize};
use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

const MAGIC: &[u8; 4] = b"PPDB";
const CHECKPOINT_MAGIC: &[u8; 4] = b"PPCK";
const VERSION: u32 = 1;

/// Records per compressed block: 64 Ki records, 128 KiB before compression.
pub const BLOCK_RECORDS: u64 = 1 << 16;

/// zstd level: the default's speed with most of its ratio on these tables.
const LEVEL: i32 = 3;

/// What a database holds: the game and variant it was solved for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Header {
    /// The game's name (`connect-four`).
    pub game: String,
    /// The variant (`5x4`).
    pub variant: String,
    /// Records in the table (indices, holes included).
    pub indices: u64,
    /// Positions (indices that are not holes).
    pub positions: u64,
    /// Records per block.
    pub block_records: u64,
}

fn io_error(path: &Path, why: impl std::fmt::Display) -> EngineError {
    EngineError::Database {
        path: path.display().to_string(),
        why: why.to_string(),
    }
}

fn bytes_of(records: &[Record]) -> Vec<u8> {
    records
        .iter()
        .flat_map(|r| r.bits().to_le_bytes())
        .collect()
}

fn records_of(bytes: &[u8]) -> Vec<Record> {
    bytes
        .chunks_exact(2)
        .map(|b| Record::from_bits(u16::from_le_bytes([b[0], b[1]])))
        .collect()
}

/// Write `records` as a database at `path` (through a temporary file renamed into place, so
/// that a database file is always whole); returns its size in bytes.
///
/// # Errors
/// [`EngineError::Database`] when the file cannot be written.
pub fn write(path: &Path, header: &Header, records: &[Record]) -> Result<u64, EngineError> {
    let fail = |e: std::io::Error| io_error(path, e);
    let header_json = serde_json::to_vec(header).map_err(|e| io_error(path, e))?;
    let blocks: Vec<(Vec<u8>, u32)> = records
        .chunks(header.block_records.max(1) as usize)
        .map(|chunk| {
            let raw = bytes_of(chunk);
            let crc = crc32fast::hash(&raw);
            // A bulk compress keeps the worst case's capacity: 128 KB a block, 168 MB of
            // Quixo 4 x 4's 1,314 blocks, where the data is 6 MB.
            zstd::bulk::compress(&raw, LEVEL).map(|mut data| {
                data.shrink_to_fit();
                (data, crc)
            })
        })
        .collect::<Result<_, _>>()
        .map_err(fail)?;
    let mut out: Vec<u8> = Vec::new();
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&(header_json.len() as u32).to_le_bytes());
    out.extend_from_slice(&header_json);
    out.extend_from_slice(&(blocks.len() as u64).to_le_bytes());
    let mut offset = (out.len() + 16 * blocks.len()) as u64;
    for (data, crc) in &blocks {
        out.extend_from_slice(&offset.to_le_bytes());
        out.extend_from_slice(&(data.len() as u32).to_le_bytes());
        out.extend_from_slice(&crc.to_le_bytes());
        offset += data.len() as u64;
    }
    for (data, _) in &blocks {
        out.extend_from_slice(data);
    }
    let crc = crc32fast::hash(&out);
    out.extend_from_slice(&crc.to_le_bytes());
    let temporary = temporary_path(path);
    std::fs::write(&temporary, &out).map_err(fail)?;
    std::fs::rename(&temporary, path).map_err(fail)?;
    Ok(out.len() as u64)
}

fn temporary_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".tmp");
    PathBuf::from(name)
}

/// A database opened for queries.
#[derive(Debug)]
pub struct Database {
    path: PathBuf,
    file: BufReader<File>,
    /// What it holds.
    pub header: Header,
    /// Per block: offset, compressed length, CRC-32 of the records.
    index: Vec<(u64, u32, u32)>,
    /// Its size in bytes.
    pub bytes: u64,
    cached: Option<(usize, Vec<Record>)>,
}

impl Database {
    /// Open a database, reading its header and block index (not its records), and check the
    /// whole file's checksum when `verify`.
    ///
    /// # Errors
    /// [`EngineError::Database`] for a missing file, another format, or a damaged one.
    pub fn open(path: &Path, verify: bool) -> Result<Database, EngineError> {
        let fail = |e: std::io::Error| io_error(path, e);
        let file = File::open(path).map_err(fail)?;
        let bytes = file.metadata().map_err(fail)?.len();
        let mut file = BufReader::new(file);
        let mut word = [0u8; 4];
        file.read_exact(&mut word).map_err(fail)?;
        if &word != MAGIC {
            return Err(io_error(path, "not a perfect-play database"));
        }
        file.read_exact(&mut word).map_err(fail)?;
        let version = u32::from_le_bytes(word);
        if version != VERSION {
            return Err(io_error(
                path,
                format!("format version {version}, this build reads {VERSION}"),
            ));
        }
        file.read_exact(&mut word).map_err(fail)?;
        let header_len = u64::from(u32::from_le_bytes(word));
        if header_len > bytes {
            return Err(io_error(path, "damaged: the header runs past the end"));
        }
        let mut header_json = vec![0u8; header_len as usize];
        file.read_exact(&mut header_json).map_err(fail)?;
        let header: Header = serde_json::from_slice(&header_json)
            .map_err(|e| io_error(path, format!("damaged header: {e}")))?;
        let mut long = [0u8; 8];
        file.read_exact(&mut long).map_err(fail)?;
        let blocks = u64::from_le_bytes(long);
        if blocks.saturating_mul(16) > bytes
            || blocks != header.indices.div_ceil(header.block_records.max(1))
        {
            return Err(io_error(
                path,
                "damaged: the block index does not match the header",
            ));
        }
        let mut index = Vec::with_capacity(blocks as usize);
        for _ in 0..blocks {
            let mut entry = [0u8; 16];
            file.read_exact(&mut entry).map_err(fail)?;
            let offset = u64::from_le_bytes(entry[..8].try_into().unwrap_or_default());
            let len = u32::from_le_bytes(entry[8..12].try_into().unwrap_or_default());
            let crc = u32::from_le_bytes(entry[12..].try_into().unwrap_or_default());
            if offset.saturating_add(u64::from(len)) > bytes {
                return Err(io_error(path, "damaged: a block runs past the end"));
            }
            index.push((offset, len, crc));
        }
        let mut database = Database {
            path: path.to_path_buf(),
            file,
            header,
            index,
            bytes,
            cached: None,
        };
        if verify {
            database.verify()?;
        }
        Ok(database)
    }

    /// Check the whole file's checksum.
    ///
    /// # Errors
    /// [`EngineError::Database`] when it does not match.
    pub fn verify(&mut self) -> Result<(), EngineError> {
        let fail = |e: std::io::Error| io_error(&self.path, e);
        self.file.seek(SeekFrom::Start(0)).map_err(fail)?;
        let mut hasher = crc32fast::Hasher::new();
        let mut left = self.bytes.saturating_sub(4);
        let mut buffer = vec![0u8; 1 << 16];
        while left > 0 {
            let take = left.min(buffer.len() as u64) as usize;
            self.file.read_exact(&mut buffer[..take]).map_err(fail)?;
            hasher.update(&buffer[..take]);
            left -= take as u64;
        }
        let mut word = [0u8; 4];
        self.file.read_exact(&mut word).map_err(fail)?;
        if hasher.finalize() != u32::from_le_bytes(word) {
            return Err(io_error(&self.path, "damaged: the checksum does not match"));
        }
        Ok(())
    }

    /// The record of one index, reading (and decompressing) only its block.
    ///
    /// # Errors
    /// [`EngineError::Database`] for an index past the table or a damaged block.
    pub fn record(&mut self, index: u64) -> Result<Record, EngineError> {
        if index >= self.header.indices {
            return Err(io_error(
                &self.path,
                format!("index {index} past the {} records", self.header.indices),
            ));
        }
        let block = (index / self.header.block_records) as usize;
        if self.cached.as_ref().is_none_or(|(b, _)| *b != block) {
            let (offset, len, crc) = self.index[block];
            let fail = |e: std::io::Error| io_error(&self.path, e);
            self.file.seek(SeekFrom::Start(offset)).map_err(fail)?;
            let mut data = vec![0u8; len as usize];
            self.file.read_exact(&mut data).map_err(fail)?;
            let capacity = (self.header.block_records * 2) as usize;
            let raw = zstd::bulk::decompress(&data, capacity).map_err(fail)?;
            if crc32fast::hash(&raw) != crc {
                return Err(io_error(&self.path, format!("damaged block {block}")));
            }
            self.cached = Some((block, records_of(&raw)));
        }
        let within = (index % self.header.block_records) as usize;
        self.cached
            .as_ref()
            .and_then(|(_, records)| records.get(within).copied())
            .ok_or_else(|| io_error(&self.path, format!("damaged block {block}")))
    }

    /// Every record, block by block (to load a whole table).
    ///
    /// # Errors
    /// As [`Database::record`].
    pub fn all_records(&mut self) -> Result<Vec<Record>, EngineError> {
        let mut records = Vec::with_capacity(self.header.indices as usize);
        let mut index = 0;
        while index < self.header.indices {
            self.record(index)?;
            if let Some((_, block)) = &self.cached {
                records.extend_from_slice(block);
            }
            index += self.header.block_records;
        }
        records.truncate(self.header.indices as usize);
        Ok(records)
    }
}

/// The finished tiers of an interrupted solve, kept in a file.
#[derive(Debug)]
pub struct Checkpoint {
    path: PathBuf,
    file: BufWriter<File>,
    /// The tiers read back when it was opened: (tier, its records).
    pub finished: Vec<(u64, Vec<Record>)>,
}

impl Checkpoint {
    /// Open (or create) the checkpoint of the game and variant `identity`, reading the tiers
    /// written whole and dropping a tier cut short.
    ///
    /// # Errors
    /// [`EngineError::Database`] when the file cannot be read or written.
    pub fn open(path: &Path, identity: &str) -> Result<Checkpoint, EngineError> {
        let fail = |e: std::io::Error| io_error(path, e);
        let mut preamble = CHECKPOINT_MAGIC.to_vec();
        preamble.extend_from_slice(&(identity.len() as u32).to_le_bytes());
        preamble.extend_from_slice(identity.as_bytes());
        let mut finished = Vec::new();
        let mut whole = 0u64;
        if let Ok(bytes) = std::fs::read(path)
            && !preamble.starts_with(&bytes)
        {
            // Anything but a checkpoint of this game (or the start of one) is left alone.
            if !bytes.starts_with(&preamble) {
                return Err(io_error(
                    path,
                    format!(
                        "a checkpoint of another game or variant, not of {identity}: remove it to start again"
                    ),
                ));
            }
            let mut at = preamble.len();
            whole = at as u64;
            while let Some(head) = bytes.get(at..at + 28) {
                let tier = u64::from_le_bytes(head[..8].try_into().unwrap_or_default());
                let count = u64::from_le_bytes(head[8..16].try_into().unwrap_or_default());
                let len = u64::from_le_bytes(head[16..24].try_into().unwrap_or_default());
                let crc = u32::from_le_bytes(head[24..28].try_into().unwrap_or_default());
                let Some(data) = usize::try_from(len)
                    .ok()
                    .and_then(|len| bytes.get(at + 28..(at + 28).checked_add(len)?))
                else {
                    break;
                };
                let Ok(raw) = zstd::bulk::decompress(data, (count as usize).saturating_mul(2))
                else {
                    break;
                };
                if crc32fast::hash(&raw) != crc || raw.len() as u64 != count * 2 {
                    break;
                }
                finished.push((tier, records_of(&raw)));
                at += 28 + data.len();
                whole = at as u64;
            }
        }
        let file = std::fs::OpenOptions::new()
            .create(true)
            .write(true)
            .truncate(false)
            .open(path)
            .map_err(fail)?;
        // Drop whatever follows the last tier written whole.
        file.set_len(whole).map_err(fail)?;
        let mut file = BufWriter::new(file);
        file.seek(SeekFrom::Start(whole)).map_err(fail)?;
        if whole == 0 {
            file.write_all(&preamble).map_err(fail)?;
            file.flush().map_err(fail)?;
        }
        Ok(Checkpoint {
            path: path.to_path_buf(),
            file,
            finished,
        })
    }

    /// Append a finished tier and make it durable.
    ///
    /// # Errors
    /// [`EngineError::Database`] when it cannot be written.
    pub fn save(
        &mut self,
        tier: u64,
        records: impl Iterator<Item = Record>,
    ) -> Result<(), EngineError> {
        let fail = |e: std::io::Error| io_error(&self.path, e);
        // The tier's bytes once, and the compressed data grown as it comes (a bulk compress
        // reserves the worst case, the tier's size again).
        let raw: Vec<u8> = records.flat_map(|r| r.bits().to_le_bytes()).collect();
        let data = zstd::stream::encode_all(raw.as_slice(), LEVEL).map_err(fail)?;
        self.file.write_all(&tier.to_le_bytes()).map_err(fail)?;
        self.file
            .write_all(&(raw.len() as u64 / 2).to_le_bytes())
            .map_err(fail)?;
        self.file
            .write_all(&(data.len() as u64).to_le_bytes())
            .map_err(fail)?;
        self.file
            .write_all(&crc32fast::hash(&raw).to_le_bytes())
            .map_err(fail)?;
        self.file.write_all(&data).map_err(fail)?;
        self.file.flush().map_err(fail)?;
        self.file.get_ref().sync_data().map_err(fail)
    }

    /// Remove the checkpoint (the solve is finished and saved).
    ///
    /// # Errors
    /// [`EngineError::Database`] when it cannot be removed.
    pub fn remove(self) -> Result<(), EngineError> {
        let path = self.path.clone();
        drop(self.file);
        std::fs::remove_file(&path).map_err(|e| io_error(&path, e))
    }
}
