//! The records of a solve in progress, two bytes a cell: one array over every index for one
//! process, or for a rank of a distributed solve one array per tier it works on, allocated
//! when it first needs the tier and cut down to its own part once nothing it solves reads the
//! rest, so that a rank holds its part of the table and the few tiers it reads.
//!
//! Every array is allocated zeroed ([`Record::OPEN`] is 0): the system hands out a page only
//! when it is written, so the parts of a tier a rank never writes cost it nothing.

use super::{EngineError, Record};
use std::ops::Range;
use std::sync::atomic::AtomicU16;

/// Cells for some ranges of indices.
pub(super) struct Table {
    /// Disjoint, in index order.
    segments: Vec<Segment>,
    /// Indices in all (held or not).
    len: u64,
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
            len,
        })
    }

    /// No cells yet, for indices `0..len` (a rank, which holds ranges as it needs them).
    pub(super) fn sparse(len: u64) -> Table {
        Table {
            segments: Vec::new(),
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

    /// The cell of `index`, if it is held.
    #[inline]
    pub(super) fn get(&self, index: u64) -> Option<&AtomicU16> {
        let segment = self.segment(index)?;
        segment.cells.get((index - segment.range.start) as usize)
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

    /// Of the segment starting at `tier.start`, keep only the cells of `part` (within it), and
    /// give the rest back to the system.
    ///
    /// # Errors
    /// [`EngineError::OutOfMemory`] when the smaller copy cannot be allocated.
    pub(super) fn keep_only(
        &mut self,
        tier: &Range<u64>,
        part: &Range<u64>,
    ) -> Result<(), EngineError> {
        let Some(at) = self.segments.iter().position(|s| s.range == *tier) else {
            return Ok(());
        };
        if part.is_empty() {
            self.segments.remove(at);
            return Ok(());
        }
        if part == tier {
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
        table.keep_only(&(0..40), &(0..0)).unwrap();
        assert_eq!(table.held(), 2);
        assert!(table.get(0).is_none());
        assert!(table.cells(&(3..3)).is_empty());
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
