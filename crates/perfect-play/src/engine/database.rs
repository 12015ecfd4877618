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
//! record count (8), compressed length (8), CRC-32 of the records (4) and a zstd frame. A tier
//! cut short by a kill fails its length or checksum and is dropped, so the solve resumes from
//! the last tier written whole.
//!
//! A tier solved by retrograde analysis is also saved while it runs, at the end of a level
//! every [`Checkpoint::level_interval`], in a second file beside the first (its name with
//! `.level` added): `PPCL`, the identity as above, then the tier (8), the last level done (4),
//! whether a tie is in reach (1), the record count (8), compressed length (8), CRC-32 (4) and
//! a zstd frame of the tier's records. It is written to a temporary file and renamed over the
//! last one, so a kill leaves the previous level whole; a finished tier removes it.

use super::{EngineError, Record};
use crate::durable;
use serde::{Deserialize, Serialize};
use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

const MAGIC: &[u8; 4] = b"PPDB";
const CHECKPOINT_MAGIC: &[u8; 4] = b"PPCK";
const LEVEL_MAGIC: &[u8; 4] = b"PPCL";
const VERSION: u32 = 1;

/// Records per compressed block: 64 Ki records, 128 KiB before compression.
pub const BLOCK_RECORDS: u64 = 1 << 16;

/// The most records per block a reader accepts (a header asking for more is damaged).
pub const MAX_BLOCK_RECORDS: u64 = 1 << 20;

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
    /// The registry's parameters that build this variant (`size` = `4`), so a reader can
    /// build the game again; empty in databases written before they were kept.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub params: Vec<(String, String)>,
    /// Set when the records are an opening book's, not a whole table's: one per position
    /// within some plies of the start, in the order of the search's keys.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub book: Option<BookHeader>,
}

/// What a book's reader needs to list its positions again and check them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BookHeader {
    /// The plies from the start it covers.
    pub plies: u32,
    /// CRC-32 of the positions' keys in order, little-endian 8 bytes each.
    pub keys_crc32: u32,
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
    let mut writer = Writer::new(path, header);
    for chunk in records.chunks(header.block_records.max(1) as usize) {
        writer.push(chunk)?;
    }
    writer.finish()
}

/// A database written from its records in index order, as they come (from the ranks of a
/// distributed solve, say): each block is compressed once it is full, and the file is
/// written at [`Writer::finish`], the same bytes as [`write()`] of the same records.
#[derive(Debug)]
pub struct Writer {
    path: PathBuf,
    header: Header,
    /// Records of the block being filled.
    filling: Vec<Record>,
    /// The blocks done: compressed data and the CRC-32 of the records.
    blocks: Vec<(Vec<u8>, u32)>,
}

impl Writer {
    /// A writer of the database `header` describes, to `path`.
    #[must_use]
    pub fn new(path: &Path, header: &Header) -> Writer {
        Writer {
            path: path.to_path_buf(),
            header: header.clone(),
            filling: Vec::new(),
            blocks: Vec::new(),
        }
    }

    fn block_records(&self) -> usize {
        self.header.block_records.max(1) as usize
    }

    /// Add the next records, in index order.
    ///
    /// # Errors
    /// [`EngineError::Database`] when a block cannot be compressed.
    pub fn push(&mut self, mut records: &[Record]) -> Result<(), EngineError> {
        while !records.is_empty() {
            let room = self.block_records() - self.filling.len();
            let (now, later) = records.split_at(room.min(records.len()));
            self.filling.extend_from_slice(now);
            records = later;
            if self.filling.len() == self.block_records() {
                self.compress()?;
            }
        }
        Ok(())
    }

    /// Compress the block being filled.
    fn compress(&mut self) -> Result<(), EngineError> {
        let raw = bytes_of(&self.filling);
        let crc = crc32fast::hash(&raw);
        // A bulk compress keeps the worst case's capacity: 128 KB a block, 168 MB of
        // Quixo 4 x 4's 1,314 blocks, where the data is 6 MB.
        let mut data = zstd::bulk::compress(&raw, LEVEL).map_err(|e| io_error(&self.path, e))?;
        data.shrink_to_fit();
        self.blocks.push((data, crc));
        self.filling.clear();
        Ok(())
    }

    /// Write the file; returns its size in bytes.
    ///
    /// # Errors
    /// [`EngineError::Database`] when the file cannot be written.
    pub fn finish(mut self) -> Result<u64, EngineError> {
        let path = self.path.clone();
        if !self.filling.is_empty() {
            self.compress()?;
        }
        let header_json = serde_json::to_vec(&self.header).map_err(|e| io_error(&path, e))?;
        let blocks = &self.blocks;
        let mut out: Vec<u8> = Vec::new();
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&(header_json.len() as u32).to_le_bytes());
        out.extend_from_slice(&header_json);
        out.extend_from_slice(&(blocks.len() as u64).to_le_bytes());
        let mut offset = (out.len() + 16 * blocks.len()) as u64;
        for (data, crc) in blocks {
            out.extend_from_slice(&offset.to_le_bytes());
            out.extend_from_slice(&(data.len() as u32).to_le_bytes());
            out.extend_from_slice(&crc.to_le_bytes());
            offset += data.len() as u64;
        }
        for (data, _) in blocks {
            out.extend_from_slice(data);
        }
        let crc = crc32fast::hash(&out);
        out.extend_from_slice(&crc.to_le_bytes());
        let header = &self.header;
        durable::replace(&path, &|existing| same_database(existing, header), &out)?;
        Ok(out.len() as u64)
    }
}

/// Check before a long solve or build that a database `header` describes may be written at
/// `path`: nothing there, or a database of the same game and variant (a link, a FIFO,
/// another game's table, another book or any other file is refused, and kept).
///
/// # Errors
/// [`EngineError::File`] saying what is there.
pub fn check_writable(path: &Path, header: &Header) -> Result<(), EngineError> {
    Ok(durable::check_target(path, &|existing| {
        same_database(existing, header)
    })?)
}

/// Whether the file at `path` is a database of the same game and variant as `header` (a
/// table or a book alike), which a new one may replace: else what it holds.
fn same_database(path: &Path, header: &Header) -> Result<(), String> {
    let held = match Database::open(path, false) {
        Ok(db) => db.header,
        Err(_) => return Err("is not a perfect-play database (or is a damaged one)".into()),
    };
    if held.game == header.game && held.variant == header.variant && held.book == header.book {
        return Ok(());
    }
    let kind = |h: &Header| {
        if h.book.is_some() {
            "the opening book"
        } else {
            "the table"
        }
    };
    Err(format!(
        "holds {} of {} {}, not {} of {} {}",
        kind(&held),
        held.game,
        held.variant,
        kind(header),
        header.game,
        header.variant
    ))
}

/// Where a database's bytes come from: a file, or bytes built into the program (the
/// opening book perfect-play ships).
#[derive(Debug)]
enum Source {
    File(BufReader<File>),
    Bytes(std::io::Cursor<&'static [u8]>),
}

impl Read for Source {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        match self {
            Source::File(file) => file.read(buf),
            Source::Bytes(bytes) => bytes.read(buf),
        }
    }
}

impl Seek for Source {
    fn seek(&mut self, to: SeekFrom) -> std::io::Result<u64> {
        match self {
            Source::File(file) => file.seek(to),
            Source::Bytes(bytes) => bytes.seek(to),
        }
    }
}

/// A database opened for queries.
#[derive(Debug)]
pub struct Database {
    path: PathBuf,
    file: Source,
    /// What it holds.
    pub header: Header,
    /// Per block: offset, compressed length, CRC-32 of the records.
    index: Vec<(u64, u32, u32)>,
    /// Its size in bytes.
    pub bytes: u64,
    /// The blocks read last, most recent first: a position's moves and its best line fall in
    /// a few dozen blocks, read again and again while a game is explored.
    cached: Vec<(usize, Vec<Record>)>,
}

/// Decompressed blocks a database keeps (128 KiB each at the default block size: 8 MiB).
pub const CACHED_BLOCKS: usize = 64;

impl Database {
    /// Open a database, reading its header and block index (not its records), and check the
    /// whole file's checksum when `verify`.
    ///
    /// # Errors
    /// [`EngineError::Database`] for a missing file, another format, or a damaged one.
    pub fn open(path: &Path, verify: bool) -> Result<Database, EngineError> {
        let file = durable::open_to_read(path)?;
        let bytes = file.metadata().map_err(|e| io_error(path, e))?.len();
        Database::read(path, Source::File(BufReader::new(file)), bytes, verify)
    }

    /// A database held in `bytes` (built into the program), named `path` in errors.
    ///
    /// # Errors
    /// As [`Database::open`].
    pub fn from_static(
        path: &Path,
        bytes: &'static [u8],
        verify: bool,
    ) -> Result<Database, EngineError> {
        let source = Source::Bytes(std::io::Cursor::new(bytes));
        Database::read(path, source, bytes.len() as u64, verify)
    }

    fn read(
        path: &Path,
        mut file: Source,
        bytes: u64,
        verify: bool,
    ) -> Result<Database, EngineError> {
        // A file that ends inside the header is one cut short (or no database at all).
        let fail = |e: std::io::Error| {
            if e.kind() == std::io::ErrorKind::UnexpectedEof {
                io_error(
                    path,
                    format!(
                        "ends after {bytes} bytes, inside a database's header: not a perfect-play database, or one cut short"
                    ),
                )
            } else {
                io_error(path, e)
            }
        };
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
        if header.block_records == 0 || header.block_records > MAX_BLOCK_RECORDS {
            // A block is decompressed into a buffer of its size: a header cannot ask for more.
            return Err(io_error(
                path,
                format!(
                    "damaged header: {} records a block (at most {MAX_BLOCK_RECORDS})",
                    header.block_records
                ),
            ));
        }
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
            cached: Vec::new(),
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
        let within = (index % self.header.block_records) as usize;
        if let Some(at) = self.cached.iter().position(|(b, _)| *b == block) {
            // Most recent first: the block moves to the front.
            self.cached[..=at].rotate_right(1);
        } else {
            let records = self.read_block(block)?;
            if self.cached.len() == CACHED_BLOCKS {
                self.cached.pop();
            }
            self.cached.insert(0, (block, records));
        }
        self.cached
            .first()
            .and_then(|(_, records)| records.get(within).copied())
            .ok_or_else(|| io_error(&self.path, format!("damaged block {block}")))
    }

    /// One block's records, read and decompressed, its checksum checked.
    fn read_block(&mut self, block: usize) -> Result<Vec<Record>, EngineError> {
        let (offset, len, crc) = self.index[block];
        let fail = |e: std::io::Error| io_error(&self.path, e);
        self.file.seek(SeekFrom::Start(offset)).map_err(fail)?;
        let mut data = vec![0u8; len as usize];
        self.file.read_exact(&mut data).map_err(fail)?;
        let capacity = (self.header.block_records * 2) as usize;
        let raw = zstd::bulk::decompress(&data, capacity).map_err(fail)?;
        // Every block is whole but the last, which holds the rest of the records.
        let first = block as u64 * self.header.block_records;
        let records = self
            .header
            .block_records
            .min(self.header.indices.saturating_sub(first));
        if crc32fast::hash(&raw) != crc || raw.len() as u64 != records * 2 {
            return Err(io_error(&self.path, format!("damaged block {block}")));
        }
        Ok(records_of(&raw))
    }

    /// Every record, block by block (to load a whole table).
    ///
    /// # Errors
    /// As [`Database::record`].
    pub fn all_records(&mut self) -> Result<Vec<Record>, EngineError> {
        let mut records = Vec::new();
        usize::try_from(self.header.indices)
            .ok()
            .and_then(|n| records.try_reserve_exact(n).ok())
            .ok_or_else(|| {
                io_error(
                    &self.path,
                    format!(
                        "its {} records do not fit in this machine's memory",
                        self.header.indices
                    ),
                )
            })?;
        let mut index = 0;
        while index < self.header.indices {
            let block = self.read_block((index / self.header.block_records) as usize)?;
            records.extend_from_slice(&block);
            index += self.header.block_records;
        }
        records.truncate(self.header.indices as usize);
        Ok(records)
    }
}

/// The finished tiers of an interrupted solve, kept in a file, and the tier in progress at
/// its last saved level (see the module).
#[derive(Debug)]
pub struct Checkpoint {
    path: PathBuf,
    file: BufWriter<File>,
    identity: String,
    /// The tiers read back when it was opened: (tier, its records).
    pub finished: Vec<(u64, Vec<Record>)>,
    /// The tier in progress read back when it was opened, if one was saved.
    pub in_progress: Option<TierInProgress>,
    /// How often a tier in progress is saved (at the end of a level once this long has
    /// passed since the last save): five minutes by default, zero for every level.
    pub level_interval: std::time::Duration,
    last_saved: std::time::Instant,
    /// Where each tier written whole starts in the file, in the order written.
    saved_at: Vec<(u64, u64)>,
    /// The file's length.
    end: u64,
    /// A level written by [`Checkpoint::stage_level`], not yet put in place.
    staged: Option<durable::Staged>,
}

/// A tier part-solved by retrograde analysis: its records once level `level` was done.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TierInProgress {
    /// The tier.
    pub tier: u64,
    /// The last level whose parents were all visited.
    pub level: u32,
    /// Whether a tie is in reach in the tier (the passes after the levels need it).
    pub ties: bool,
    /// The tier's records.
    pub records: Vec<Record>,
}

/// The level file beside checkpoint `path`.
fn level_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".level");
    PathBuf::from(name)
}

/// The level file's first bytes for a game's identity.
fn level_preamble(identity: &str) -> Vec<u8> {
    let mut preamble = LEVEL_MAGIC.to_vec();
    preamble.extend_from_slice(&(identity.len() as u32).to_le_bytes());
    preamble.extend_from_slice(identity.as_bytes());
    preamble
}

/// The tier in progress the level file at `path` holds: `Ok(None)` for no file or one cut
/// short; an error for a file that is not a level file of this game.
fn read_level(path: &Path, identity: &str) -> Result<Option<TierInProgress>, EngineError> {
    if !durable::writable_target(path)? {
        return Ok(None);
    }
    let Ok(bytes) = std::fs::read(path) else {
        return Ok(None);
    };
    let preamble = level_preamble(identity);
    if !bytes.starts_with(&preamble) {
        return Err(io_error(
            path,
            format!("not a saved level of {identity}: remove it to start the tier again"),
        ));
    }
    let rest = &bytes[preamble.len()..];
    let Some(head) = rest.get(..33) else {
        return Ok(None);
    };
    let number = |range: std::ops::Range<usize>| durable::little_endian(&head[range]);
    let (tier, level, ties) = (number(0..8), number(8..12) as u32, head[12] == 1);
    let (count, len, crc) = (number(13..21), number(21..29), number(29..33) as u32);
    let Some(data) = usize::try_from(len)
        .ok()
        .and_then(|len| rest.get(33..33usize.checked_add(len)?))
    else {
        return Ok(None);
    };
    let Ok(raw) = zstd::bulk::decompress(data, (count as usize).saturating_mul(2)) else {
        return Ok(None);
    };
    if crc32fast::hash(&raw) != crc || raw.len() as u64 != count * 2 {
        return Ok(None);
    }
    Ok(Some(TierInProgress {
        tier,
        level,
        ties,
        records: records_of(&raw),
    }))
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
        let mut saved_at = Vec::new();
        let mut whole = 0u64;
        // A link, a FIFO or a folder at the checkpoint's name is refused before anything is
        // read or written (a dangling link would otherwise be created through).
        let exists = durable::writable_target(path)?;
        if exists
            && let Ok(bytes) = std::fs::read(path)
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
                saved_at.push((tier, at as u64));
                at += 28 + data.len();
                whole = at as u64;
            }
        }
        let file = durable::open_in_place(path)?;
        let in_progress = read_level(&level_path(path), identity)?;
        // Drop whatever follows the last tier written whole.
        file.set_len(whole).map_err(fail)?;
        let mut file = BufWriter::new(file);
        file.seek(SeekFrom::Start(whole)).map_err(fail)?;
        if whole == 0 {
            file.write_all(&preamble).map_err(fail)?;
            file.flush().map_err(fail)?;
            whole = preamble.len() as u64;
        }
        Ok(Checkpoint {
            path: path.to_path_buf(),
            file,
            identity: identity.to_string(),
            finished,
            in_progress,
            level_interval: std::time::Duration::from_secs(300),
            last_saved: std::time::Instant::now(),
            saved_at,
            end: whole,
            staged: None,
        })
    }

    /// Whether a tier in progress is due to be saved ([`Checkpoint::level_interval`] since
    /// the last save).
    #[must_use]
    pub fn level_due(&self) -> bool {
        self.last_saved.elapsed() >= self.level_interval
    }

    /// Save a tier in progress once `level` is done, replacing the last one saved. The
    /// records are compressed as they come, so the save holds no copy of the tier.
    ///
    /// # Errors
    /// [`EngineError::Database`] when it cannot be written.
    pub fn save_level(
        &mut self,
        tier: u64,
        level: u32,
        ties: bool,
        records: impl Iterator<Item = Record>,
    ) -> Result<(), EngineError> {
        self.stage_level(tier, level, ties, records)?;
        self.commit_level()
    }

    /// Put the saved level written by [`Checkpoint::stage_level`] in place of the last one.
    /// The ranks of a distributed solve all stage a level before any commits it, so that a
    /// rank killed while writing leaves every rank's last level the same.
    ///
    /// # Errors
    /// [`EngineError::Database`] when it cannot be renamed.
    pub fn commit_level(&mut self) -> Result<(), EngineError> {
        let path = level_path(&self.path);
        let staged = self
            .staged
            .take()
            .ok_or_else(|| io_error(&path, "no level was staged to put in place"))?;
        let preamble = level_preamble(&self.identity);
        staged.commit(&|existing| {
            durable::begins_with(existing, &preamble, "a saved level of this game")
        })?;
        self.last_saved = std::time::Instant::now();
        Ok(())
    }

    /// Write a tier in progress once `level` is done beside the last one saved, to be put in
    /// its place by [`Checkpoint::commit_level`].
    ///
    /// # Errors
    /// [`EngineError::Database`] when it cannot be written.
    pub fn stage_level(
        &mut self,
        tier: u64,
        level: u32,
        ties: bool,
        records: impl Iterator<Item = Record>,
    ) -> Result<(), EngineError> {
        let path = level_path(&self.path);
        let preamble = level_preamble(&self.identity);
        let ours = |existing: &Path| {
            durable::begins_with(existing, &preamble, "a saved level of this game")
        };
        let staged = durable::stage(&path, &ours, |file| {
            let mut file = BufWriter::new(file);
            file.write_all(&preamble)?;
            file.write_all(&tier.to_le_bytes())?;
            file.write_all(&level.to_le_bytes())?;
            file.write_all(&[u8::from(ties)])?;
            // The count, length and checksum are known at the end: written there, then
            // here.
            let fields_at = file.stream_position()?;
            file.write_all(&[0; 20])?;
            let mut encoder = zstd::stream::Encoder::new(file, LEVEL)?;
            let (mut hasher, mut count) = (crc32fast::Hasher::new(), 0u64);
            let mut chunk = Vec::with_capacity(1 << 17);
            let mut records = records.peekable();
            while records.peek().is_some() {
                chunk.clear();
                chunk.extend(
                    records
                        .by_ref()
                        .take(1 << 16)
                        .flat_map(|r| r.bits().to_le_bytes()),
                );
                hasher.update(&chunk);
                count += chunk.len() as u64 / 2;
                encoder.write_all(&chunk)?;
            }
            let mut file = encoder.finish()?;
            let end = file.stream_position()?;
            let len = end - fields_at - 20;
            file.seek(SeekFrom::Start(fields_at))?;
            file.write_all(&count.to_le_bytes())?;
            file.write_all(&len.to_le_bytes())?;
            file.write_all(&hasher.finalize().to_le_bytes())?;
            file.flush()
        })?;
        self.staged = Some(staged);
        Ok(())
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
        let fail = |e: std::io::Error| durable::write_error(&self.path, e);
        // The tier's bytes once, and the compressed data grown as it comes (a bulk compress
        // reserves the worst case, the tier's size again).
        let raw: Vec<u8> = records.flat_map(|r| r.bits().to_le_bytes()).collect();
        let data = zstd::stream::encode_all(raw.as_slice(), LEVEL).map_err(fail)?;
        let at = self.end;
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
        self.file.get_ref().sync_data().map_err(fail)?;
        self.end = at + 28 + data.len() as u64;
        self.saved_at.push((tier, at));
        // The tier is whole: its saved level is done with.
        self.in_progress = None;
        remove_if_present(&level_path(&self.path))
    }

    /// The records of tier `tier` as last written whole to the file (read back from it:
    /// a rank of a distributed solve lets go of its finished parts once they are saved),
    /// or `None` when it was not.
    ///
    /// # Errors
    /// [`EngineError::Database`] when the file cannot be read or the tier is damaged.
    pub fn read_saved(&self, tier: u64) -> Result<Option<Vec<Record>>, EngineError> {
        let Some(&(_, at)) = self.saved_at.iter().rev().find(|(t, _)| *t == tier) else {
            return Ok(None);
        };
        let damaged = || io_error(&self.path, format!("tier {tier} cannot be read back"));
        let mut file = File::open(&self.path).map_err(|e| io_error(&self.path, e))?;
        file.seek(SeekFrom::Start(at))
            .map_err(|e| io_error(&self.path, e))?;
        let mut head = [0u8; 28];
        file.read_exact(&mut head).map_err(|_| damaged())?;
        let number = |range: std::ops::Range<usize>| durable::little_endian(&head[range]);
        let (count, len, crc) = (number(8..16), number(16..24), number(24..28) as u32);
        let mut data = Vec::new();
        (&mut file)
            .take(len)
            .read_to_end(&mut data)
            .map_err(|_| damaged())?;
        let raw = zstd::bulk::decompress(&data, (count as usize).saturating_mul(2))
            .map_err(|_| damaged())?;
        if number(0..8) != tier || crc32fast::hash(&raw) != crc || raw.len() as u64 != count * 2 {
            return Err(damaged());
        }
        Ok(Some(records_of(&raw)))
    }

    /// Remove the checkpoint (the solve is finished and saved).
    ///
    /// # Errors
    /// [`EngineError::Database`] when it cannot be removed.
    pub fn remove(self) -> Result<(), EngineError> {
        let path = self.path.clone();
        drop(self.file);
        remove_if_present(&level_path(&path))?;
        std::fs::remove_file(&path).map_err(|e| io_error(&path, e))
    }
}

fn remove_if_present(path: &Path) -> Result<(), EngineError> {
    Ok(durable::remove_if_present(path)?)
}
