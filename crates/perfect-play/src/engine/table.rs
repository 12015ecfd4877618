//! The records of a solve in progress, two bytes a cell: one array over every index for one
//! process, or for a rank of a distributed solve one array per tier it works on, allocated
//! when it first needs the tier and cut down to its own part once nothing it solves reads the
//! rest, so that a rank holds its part of the table and the few tiers it reads.
//!
//! Every array is allocated zeroed ([`Record::OPEN`] is 0): the system hands out a page only
//! when it is written, so the parts of a tier a rank never writes cost it nothing.
//!
//! A rank solving its slice of a tier also reads the records its moves reach in other ranks'
//! parts of the child tiers: it borrows those alone ([`Table::borrow`]), packed behind a
//! bitmap of the tier, since they are scattered over all of it (a page of a whole-tier array
//! per record would cost as much as the whole tier).

use super::{EngineError, Record};
use std::ops::Range;
use std::sync::atomic::{AtomicU16, AtomicU64};

/// Cells for some ranges of indices.
pub(super) struct Table {
    /// Disjoint, in index order.
    segments: Vec<Segment>,
    /// Records copied from other ranks, for indices held by no segment; in index order.
    borrowed: Vec<Borrowed>,
    /// Indices in all (held or not).
    len: u64,
}

/// Words of a bitmap counted together (`Present::Bits::before`): 512 indices.
const BLOCK_WORDS: usize = 8;

/// Some records of one range of indices, copied from the ranks that own them.
struct Borrowed {
    range: Range<u64>,
    present: Present,
    cells: Vec<AtomicU16>,
}

/// Which indices of a [`Borrowed`] range are here, and where their cells are.
enum Present {
    /// Bit `i` of `words`: index `range.start + i` is here, its cell the one after the cells
    /// of the bits set before it; `before`, the bits set before each block of
    /// [`BLOCK_WORDS`] words. About 0.14 bytes an index of the range, and two bytes a record
    /// held: for records dense in their range.
    Bits { words: Vec<u64>, before: Vec<u64> },
    /// The indices here in order, the cell of the `k`-th the `k`-th: ten bytes a record
    /// held, whatever the range: for a few records scattered over a large range.
    Listed(Vec<u64>),
}

impl Borrowed {
    /// The cell of `index`, if it is here.
    #[inline]
    fn get(&self, index: u64) -> Option<&AtomicU16> {
        let offset = index.checked_sub(self.range.start)?;
        let slot = match &self.present {
            Present::Bits { words, before } => {
                let word = (offset / 64) as usize;
                let bits = *words.get(word)?;
                let bit = 1u64 << (offset % 64);
                if bits & bit == 0 {
                    return None;
                }
                let block = word / BLOCK_WORDS;
                let mut slot = before[block];
                for &w in &words[block * BLOCK_WORDS..word] {
                    slot += u64::from(w.count_ones());
                }
                (slot + u64::from((bits & (bit - 1)).count_ones())) as usize
            }
            Present::Listed(indices) => indices.binary_search(&index).ok()?,
        };
        self.cells.get(slot)
    }

    /// The indices here within `within`, in order.
    fn indices_in(&self, within: &Range<u64>) -> Box<dyn Iterator<Item = u64> + '_> {
        let from = within.start.max(self.range.start);
        let to = within.end.min(self.range.end).max(from);
        match &self.present {
            Present::Bits { words, .. } => {
                let start = self.range.start;
                let first = ((from - start) / 64) as usize;
                let last = (to - start).div_ceil(64) as usize;
                Box::new(
                    words[first..last]
                        .iter()
                        .enumerate()
                        .flat_map(move |(w, &bits)| {
                            let base = start + (first + w) as u64 * 64;
                            std::iter::successors((bits != 0).then_some(bits), |&rest| {
                                let rest = rest & (rest - 1);
                                (rest != 0).then_some(rest)
                            })
                            .map(move |rest| base + u64::from(rest.trailing_zeros()))
                        })
                        .filter(move |&index| index >= from && index < to),
                )
            }
            Present::Listed(indices) => {
                let lo = indices.partition_point(|&i| i < from);
                let hi = indices.partition_point(|&i| i < to);
                Box::new(indices[lo..hi].iter().copied())
            }
        }
    }
}

/// A zeroed bitmap of `len` indices, for [`Table::borrow`], refused as an error rather than
/// an abort.
pub(super) fn bitmap(len: u64) -> Result<Vec<AtomicU64>, EngineError> {
    let words = len.div_ceil(64);
    let bytes = words.saturating_mul(8);
    let words = usize::try_from(words).map_err(|_| EngineError::OutOfMemory { bytes })?;
    bytemuck::allocation::try_zeroed_vec::<AtomicU64>(words)
        .map_err(|()| EngineError::OutOfMemory { bytes })
}

/// The cells of one range of indices.
struct Segment {
    range: Range<u64>,
    cells: Vec<AtomicU16>,
}

/// Zeroed cells for `len` indices, refused as an error rather than an abort.
fn zeroed(len: u64) -> Result<Vec<AtomicU16>, EngineError> {
    let bytes = len.saturating_mul(std::mem::size_of::<AtomicU16>() as u64);
    let len = usize::try_from(len).map_err(|_| EngineError::OutOfMemory { bytes })?;
    const _: () = assert!(Record::OPEN.bits() == 0);
    bytemuck::allocation::try_zeroed_vec::<AtomicU16>(len)
        .map_err(|()| EngineError::OutOfMemory { bytes })
}

impl Table {
    /// Cells for every index of `0..len` (one process).
    pub(super) fn whole(len: u64) -> Result<Table, EngineError> {
        Ok(Table {
            segments: vec![Segment {
                range: 0..len,
                cells: zeroed(len)?,
            }],
            borrowed: Vec::new(),
            len,
        })
    }

    /// No cells yet, for indices `0..len` (a rank, which holds ranges as it needs them).
    pub(super) fn sparse(len: u64) -> Table {
        Table {
            segments: Vec::new(),
            borrowed: Vec::new(),
            len,
        }
    }

    /// Indices in all, held or not.
    pub(super) fn len(&self) -> u64 {
        self.len
    }

    /// Cells held now.
    pub(super) fn held(&self) -> u64 {
        self.segments
            .iter()
            .map(|s| s.range.end - s.range.start)
            .sum()
    }

    /// The segment holding `index`.
    #[inline]
    fn segment(&self, index: u64) -> Option<&Segment> {
        let segment = match self.segments.as_slice() {
            [only] => only,
            segments => {
                let after = segments.partition_point(|s| s.range.start <= index);
                segments.get(after.checked_sub(1)?)?
            }
        };
        segment.range.contains(&index).then_some(segment)
    }

    /// The cell of `index`, if it is held or borrowed.
    #[inline]
    pub(super) fn get(&self, index: u64) -> Option<&AtomicU16> {
        match self.segment(index) {
            Some(segment) => segment.cells.get((index - segment.range.start) as usize),
            None => self.borrowed(index),
        }
    }

    /// The borrowed cell of `index`, if any.
    fn borrowed(&self, index: u64) -> Option<&AtomicU16> {
        let after = self.borrowed.partition_point(|b| b.range.start <= index);
        let borrowed = self.borrowed.get(after.checked_sub(1)?)?;
        if index >= borrowed.range.end {
            return None;
        }
        borrowed.get(index)
    }

    /// Make room, zeroed, for the records of `range` whose bits are set in `present` (one bit
    /// an index, from [`bitmap`]; indices no segment holds, and of a range not borrowed
    /// already): the cells [`Table::get`] then gives for them, to fill with what their owners
    /// send. Returns how many. Borrowed records stay until [`Table::give_back`].
    ///
    /// # Errors
    /// [`EngineError::OutOfMemory`] when the system refuses the cells.
    pub(super) fn borrow(
        &mut self,
        range: &Range<u64>,
        present: Vec<AtomicU64>,
    ) -> Result<u64, EngineError> {
        let mut present: Vec<u64> = present.into_iter().map(AtomicU64::into_inner).collect();
        let len = range.end - range.start;
        // Bits past the range's end are not indices.
        if !len.is_multiple_of(64)
            && let Some(last) = present.last_mut()
        {
            *last &= (1u64 << (len % 64)) - 1;
        }
        let mut before = Vec::with_capacity(present.len().div_ceil(BLOCK_WORDS));
        let mut count = 0u64;
        for block in present.chunks(BLOCK_WORDS) {
            before.push(count);
            count += block.iter().map(|w| u64::from(w.count_ones())).sum::<u64>();
        }
        let cells = zeroed(count)?;
        self.lend(Borrowed {
            range: range.clone(),
            present: Present::Bits {
                words: present,
                before,
            },
            cells,
        });
        Ok(count)
    }

    /// Make room, zeroed, for the records of `indices` (in order, without repeats; held by
    /// no segment and borrowed nowhere else): as [`Table::borrow`], listed rather than by
    /// bit, for a few records over a large range. Returns how many.
    ///
    /// # Errors
    /// [`EngineError::OutOfMemory`] when the system refuses the cells.
    pub(super) fn borrow_listed(&mut self, indices: Vec<u64>) -> Result<u64, EngineError> {
        let (Some(&first), Some(&last)) = (indices.first(), indices.last()) else {
            return Ok(0);
        };
        let count = indices.len() as u64;
        let cells = zeroed(count)?;
        self.lend(Borrowed {
            range: first..last + 1,
            present: Present::Listed(indices),
            cells,
        });
        Ok(count)
    }

    /// Put `borrowed` in its place among the others, in index order.
    fn lend(&mut self, borrowed: Borrowed) {
        let at = self
            .borrowed
            .partition_point(|b| b.range.start < borrowed.range.start);
        self.borrowed.insert(at, borrowed);
    }

    /// The borrowed indices within `within`, in order.
    pub(super) fn borrowed_in(&self, within: &Range<u64>) -> impl Iterator<Item = u64> + '_ {
        let within = within.clone();
        self.borrowed
            .iter()
            .filter(move |b| b.range.start < within.end && within.start < b.range.end)
            .flat_map(move |b| b.indices_in(&within))
    }

    /// Whether one segment holds every index of `range`.
    pub(super) fn holds_all(&self, range: &Range<u64>) -> bool {
        range.is_empty()
            || self
                .segment(range.start)
                .is_some_and(|s| range.end <= s.range.end)
    }

    /// Let go of every borrowed record.
    pub(super) fn give_back(&mut self) {
        self.borrowed.clear();
    }

    /// Records borrowed now.
    #[cfg(test)]
    pub(super) fn borrowed_records(&self) -> u64 {
        self.borrowed.iter().map(|b| b.cells.len() as u64).sum()
    }

    /// The cells of `range`, all in one segment held (the caller held it: a tier, or a part of
    /// one). An empty range gives no cells.
    ///
    /// # Panics
    /// When `range` is not held: a bug of the solve's bookkeeping, not of its input.
    pub(super) fn cells(&self, range: &Range<u64>) -> &[AtomicU16] {
        if range.is_empty() {
            return &[];
        }
        let segment = self
            .segment(range.start)
            .filter(|s| range.end <= s.range.end)
            .unwrap_or_else(|| panic!("indices {range:?} are not held"));
        let from = (range.start - segment.range.start) as usize;
        &segment.cells[from..from + (range.end - range.start) as usize]
    }

    /// Hold cells for `range` (a whole tier), zeroed, unless some are held there already.
    ///
    /// # Errors
    /// [`EngineError::OutOfMemory`] when the system refuses them.
    pub(super) fn hold(&mut self, range: &Range<u64>) -> Result<(), EngineError> {
        if range.is_empty() || self.segment(range.start).is_some() {
            return Ok(());
        }
        let at = self
            .segments
            .partition_point(|s| s.range.start < range.start);
        let cells = zeroed(range.end - range.start)?;
        self.segments.insert(
            at,
            Segment {
                range: range.clone(),
                cells,
            },
        );
        Ok(())
    }

    /// Of the segment held within `tier` (the tier, or a part of it kept before), keep only
    /// the cells of `part` (within it), and give the rest back to the system.
    ///
    /// # Errors
    /// [`EngineError::OutOfMemory`] when the smaller copy cannot be allocated.
    pub(super) fn keep_only(
        &mut self,
        tier: &Range<u64>,
        part: &Range<u64>,
    ) -> Result<(), EngineError> {
        // The tier whole, or cut down to a part already.
        let Some(at) = self
            .segments
            .iter()
            .position(|s| tier.start <= s.range.start && s.range.end <= tier.end)
        else {
            return Ok(());
        };
        if part.is_empty() {
            self.segments.remove(at);
            return Ok(());
        }
        if *part == self.segments[at].range {
            return Ok(());
        }
        let kept = zeroed(part.end - part.start)?;
        for (to, from) in kept.iter().zip(self.cells(part)) {
            to.store(
                from.load(std::sync::atomic::Ordering::Relaxed),
                std::sync::atomic::Ordering::Relaxed,
            );
        }
        self.segments[at] = Segment {
            range: part.clone(),
            cells: kept,
        };
        Ok(())
    }

    /// Every record held, in index order (every index, for a table made [`Table::whole`]).
    pub(super) fn into_records(mut self) -> Vec<Record> {
        let record = |cell: AtomicU16| Record::from_bits(cell.into_inner());
        if self.segments.len() == 1 {
            // One array: turned into records in place, without a second table's memory.
            let only = self.segments.remove(0);
            return only.cells.into_iter().map(record).collect();
        }
        self.segments
            .into_iter()
            .flat_map(|s| s.cells.into_iter())
            .map(record)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::Ordering;

    #[test]
    fn a_sparse_table_holds_tiers_and_keeps_parts_of_them() {
        let mut table = Table::sparse(100);
        assert!(table.get(5).is_none());
        table.hold(&(40..70)).unwrap();
        table.hold(&(0..40)).unwrap();
        table.hold(&(40..70)).unwrap(); // held already: kept as it is
        assert_eq!(table.held(), 70);
        table.cells(&(45..50))[2].store(7, Ordering::Relaxed);
        assert_eq!(table.get(47).unwrap().load(Ordering::Relaxed), 7);
        assert!(table.get(70).is_none());
        table.keep_only(&(40..70), &(46..48)).unwrap();
        assert_eq!(table.held(), 42);
        assert_eq!(table.get(47).unwrap().load(Ordering::Relaxed), 7);
        assert!(table.get(45).is_none() && table.get(48).is_none());
        assert_eq!(table.get(39).unwrap().load(Ordering::Relaxed), 0);
        // Cut down already: kept as it is, and let go of once its part is none.
        table.keep_only(&(40..70), &(46..48)).unwrap();
        assert_eq!(table.get(47).unwrap().load(Ordering::Relaxed), 7);
        table.keep_only(&(0..40), &(0..0)).unwrap();
        assert_eq!(table.held(), 2);
        table.hold(&(0..40)).unwrap();
        table.keep_only(&(40..70), &(70..70)).unwrap();
        assert_eq!(table.held(), 40);
        table.keep_only(&(0..40), &(0..0)).unwrap();
        assert!(table.get(0).is_none());
        assert!(table.cells(&(3..3)).is_empty());
    }

    #[test]
    fn borrowed_records_are_found_by_their_bits_and_given_back() {
        let mut table = Table::sparse(3000);
        table.hold(&(0..1000)).unwrap();
        // Scattered over a tier of 1,900 indices: across words and blocks of words, the
        // tier's first and last index.
        let tier = 1000..2900;
        let wanted: Vec<u64> = vec![1000, 1001, 1063, 1064, 1500, 1511, 1512, 2047, 2600, 2899];
        let present = bitmap(tier.end - tier.start).unwrap();
        for &index in &wanted {
            let offset = index - tier.start;
            present[(offset / 64) as usize].fetch_or(1 << (offset % 64), Ordering::Relaxed);
        }
        assert_eq!(table.borrow(&tier, present).unwrap(), wanted.len() as u64);
        assert_eq!(table.borrowed_records(), wanted.len() as u64);
        let listed: Vec<u64> = table.borrowed_in(&(0..3000)).collect();
        assert_eq!(listed, wanted);
        let listed: Vec<u64> = table.borrowed_in(&(1064..2048)).collect();
        assert_eq!(listed, vec![1064, 1500, 1511, 1512, 2047]);
        assert_eq!(table.borrowed_in(&(1065..1065)).count(), 0);
        for (n, &index) in wanted.iter().enumerate() {
            table
                .get(index)
                .unwrap()
                .store(n as u16 + 1, Ordering::Relaxed);
        }
        for index in 0..3000 {
            let expected = match wanted.iter().position(|&w| w == index) {
                Some(n) => Some(n as u16 + 1),
                None if index < 1000 => Some(0),
                None => None,
            };
            assert_eq!(
                table.get(index).map(|c| c.load(Ordering::Relaxed)),
                expected,
                "{index}"
            );
        }
        // Held cells are still the segments'.
        assert_eq!(table.held(), 1000);
        table.give_back();
        assert!(table.get(1500).is_none());
        assert_eq!(table.borrowed_records(), 0);
        // The same records listed: the same cells found.
        assert_eq!(table.borrow_listed(wanted.clone()).unwrap(), 10);
        assert_eq!(table.borrowed_in(&(1064..2048)).count(), 5);
        for (n, &index) in wanted.iter().enumerate() {
            table
                .get(index)
                .unwrap()
                .store(n as u16 + 1, Ordering::Relaxed);
        }
        for index in 1000..3000 {
            let expected = wanted
                .iter()
                .position(|&w| w == index)
                .map(|n| n as u16 + 1);
            assert_eq!(
                table.get(index).map(|c| c.load(Ordering::Relaxed)),
                expected
            );
        }
        table.give_back();
        assert_eq!(table.borrow_listed(Vec::new()).unwrap(), 0);
        assert!(table.get(2899).is_none());
    }

    #[test]
    fn a_whole_table_reads_back_in_index_order() {
        let table = Table::whole(10).unwrap();
        table
            .get(3)
            .unwrap()
            .store(Record::DRAW.bits(), Ordering::Relaxed);
        let records = table.into_records();
        assert_eq!(records.len(), 10);
        assert_eq!(records[3], Record::DRAW);
        assert_eq!(records[4], Record::OPEN);
    }
}
