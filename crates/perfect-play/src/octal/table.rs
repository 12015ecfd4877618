//! The table of Grundy values: two bytes a value, or, for long runs, one.
//!
//! A long run reads the table in two places only: its first heaps (the small parts of splits,
//! and the rare heaps, which are few and mostly small) and its last ones (the large parts). So
//! a *packed* table keeps heaps below [`Packing::from`] and the last [`Packing::window`] heaps
//! or more at two bytes, and every heap in between at one byte: a common heap's value (see
//! [`super::grundy::RareCommon`]) has one bit fixed by the others, since its class says the
//! parity of `2 g + n mod 2` under the mask; dropping that bit leaves eight for values below
//! 512. Byte 255 is an escape: the heap's value is in a side list (a rare heap, a value of 512
//! or more, or one whose byte would be 255). Officers (0.6) to 2^30 has 1,583 rare heaps, all
//! below 20,627, and values up to 325, so nearly every heap takes one byte.
//!
//! The class used to pack follows the method's: when it is re-chosen, the bytes are packed
//! again.

/// Where a table keeps two bytes a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Packing {
    /// Heaps below this keep two bytes each.
    pub from: usize,
    /// At least this many of the newest heaps keep two bytes each (at most twice as many).
    pub window: usize,
}

impl Default for Packing {
    /// Heaps below 2^22 and the last 2^20 or more at two bytes: 12 MiB at most.
    fn default() -> Packing {
        Packing {
            from: 1 << 22,
            window: 1 << 20,
        }
    }
}

impl Packing {
    /// The bytes a packed table of `heaps` values takes at most, escapes aside.
    #[must_use]
    pub fn bytes(&self, heaps: u64) -> u64 {
        let wide = (self.from as u64).min(heaps) + 2 * self.window as u64;
        heaps.saturating_sub(self.from as u64) + 2 * wide
    }
}

/// The byte that sends a lookup to the side list.
const ESCAPE: u8 = 255;

/// How a value is packed into a byte: by the class of common heaps when one fixes a bit of the
/// value, as the value itself otherwise.
#[derive(Clone, Debug)]
struct Codec {
    /// The bit of a value dropped in its byte, with the class fixing it; `None`: bytes are
    /// values.
    class: Option<(u32, u32, bool)>,
    /// The value each byte stands for, by the parity of the heap.
    decode: Box<[[u16; 256]; 2]>,
}

fn odd(x: u32) -> bool {
    x.count_ones() & 1 == 1
}

impl Codec {
    /// Bytes that are values.
    fn plain() -> Codec {
        let mut decode = Box::new([[0u16; 256]; 2]);
        for parity in 0..2 {
            for byte in 0..256 {
                decode[parity][byte] = byte as u16;
            }
        }
        Codec {
            class: None,
            decode,
        }
    }

    /// Bytes for the heaps common under `mask` and `common_odd` (see
    /// [`super::grundy::RareCommon::common_class`]): the lowest bit of the mask's value part
    /// is dropped. Plain if the mask has no value part.
    fn for_class(mask: u32, common_odd: bool) -> Codec {
        let value_mask = mask >> 1;
        if value_mask == 0 {
            return Codec::plain();
        }
        let dropped = value_mask.trailing_zeros();
        let mut decode = Box::new([[0u16; 256]; 2]);
        for parity in 0..2u32 {
            for byte in 0..256u32 {
                let low = byte & ((1 << dropped) - 1);
                let without = low | (byte >> dropped) << (dropped + 1);
                let bit =
                    u32::from(common_odd ^ odd(without & value_mask) ^ (parity & mask & 1 == 1));
                decode[parity as usize][byte as usize] = (without | bit << dropped) as u16;
            }
        }
        Codec {
            class: Some((mask, dropped, common_odd)),
            decode,
        }
    }

    /// Heap `n`'s value `v` as a byte, or `None` when it must be escaped.
    fn encode(&self, n: usize, v: u16) -> Option<u8> {
        let byte = match self.class {
            None => u8::try_from(v).ok()?,
            Some((mask, dropped, common_odd)) => {
                let e = u32::from(v) << 1 | (n as u32 & 1);
                if v >= 512 || odd(e & mask) != common_odd {
                    return None;
                }
                let v = u32::from(v);
                let byte = (v & ((1 << dropped) - 1)) | (v >> (dropped + 1)) << dropped;
                u8::try_from(byte).ok()?
            }
        };
        (byte != ESCAPE).then_some(byte)
    }

    #[inline]
    fn decode(&self, n: usize, byte: u8) -> u16 {
        self.decode[n & 1][usize::from(byte)]
    }
}

/// Grundy values of heaps `0..len()`.
#[derive(Clone, Debug)]
pub struct ValueTable {
    /// Heaps `0..low.len()`: every heap while the table is wide.
    low: Vec<u16>,
    /// Where packing starts; `None`: never (a wide table).
    packing: Option<Packing>,
    codec: Codec,
    /// Heaps `low.len()..low.len() + packed`, a byte each (empty in a copy that forgets them).
    bytes: Vec<u8>,
    /// Heaps packed so far.
    packed: usize,
    /// Whether packed heaps are kept (false in a helper's copy, which reads only the ends).
    keeps_packed: bool,
    /// The escaped heaps among the packed ones, in order, and their values.
    escaped_heaps: Vec<u64>,
    escaped_values: Vec<u16>,
    /// Heaps `low.len() + packed..len()`.
    recent: Vec<u16>,
}

impl Default for ValueTable {
    fn default() -> ValueTable {
        ValueTable::wide()
    }
}

impl PartialEq for ValueTable {
    fn eq(&self, other: &ValueTable) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl Eq for ValueTable {}

impl PartialEq<Vec<u16>> for ValueTable {
    fn eq(&self, other: &Vec<u16>) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter().copied())
    }
}

impl PartialEq<[u16]> for ValueTable {
    fn eq(&self, other: &[u16]) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter().copied())
    }
}

impl From<Vec<u16>> for ValueTable {
    fn from(low: Vec<u16>) -> ValueTable {
        ValueTable {
            low,
            ..ValueTable::wide()
        }
    }
}

impl ValueTable {
    /// An empty table of two bytes a value.
    #[must_use]
    pub fn wide() -> ValueTable {
        ValueTable {
            low: Vec::new(),
            packing: None,
            codec: Codec::plain(),
            bytes: Vec::new(),
            packed: 0,
            keeps_packed: true,
            escaped_heaps: Vec::new(),
            escaped_values: Vec::new(),
            recent: Vec::new(),
        }
    }

    /// An empty table that packs as `packing` says.
    #[must_use]
    pub fn packed(packing: Packing) -> ValueTable {
        ValueTable {
            packing: Some(Packing {
                from: packing.from.max(1),
                window: packing.window.max(1),
            }),
            ..ValueTable::wide()
        }
    }

    /// Whether the table packs values.
    #[must_use]
    pub fn is_packed(&self) -> bool {
        self.packing.is_some()
    }

    /// How many values it holds.
    #[must_use]
    pub fn len(&self) -> usize {
        self.recent_start() + self.recent.len()
    }

    /// Whether it holds none.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The first heap of the newest two-byte run.
    #[inline]
    fn recent_start(&self) -> usize {
        self.low.len() + self.packed
    }

    /// The value of heap `n`, if computed.
    #[must_use]
    pub fn get(&self, n: usize) -> Option<u16> {
        if n < self.low.len() {
            return Some(self.low[n]);
        }
        let start = self.recent_start();
        if n >= start {
            return self.recent.get(n - start).copied();
        }
        let byte = *self.bytes.get(n - self.low.len())?;
        if byte != ESCAPE {
            return Some(self.codec.decode(n, byte));
        }
        let i = self.escaped_heaps.binary_search(&(n as u64)).ok()?;
        Some(self.escaped_values[i])
    }

    /// The value of heap `n`, which must be computed (and, in a helper's copy, not forgotten).
    #[inline]
    pub(crate) fn at(&self, n: usize) -> u16 {
        self.get(n).expect("a value computed and kept")
    }

    /// The newest value.
    #[must_use]
    pub fn last(&self) -> Option<u16> {
        self.len().checked_sub(1).and_then(|n| self.get(n))
    }

    /// Every value, heap 0 first.
    pub fn iter(&self) -> impl Iterator<Item = u16> + '_ {
        (0..self.len()).map(|n| self.at(n))
    }

    /// Every value, as a vector.
    #[must_use]
    pub fn to_vec(&self) -> Vec<u16> {
        self.iter().collect()
    }

    /// The values of heaps `range` as one slice, if they are all kept two bytes each in one
    /// run: the loops read the table this way, and fall back to [`ValueTable::at`] elsewhere.
    #[inline]
    pub(crate) fn run(&self, start: usize, end: usize) -> Option<&[u16]> {
        if end <= self.low.len() {
            return self.low.get(start..end);
        }
        let first = self.recent_start();
        if start >= first {
            return self.recent.get(start - first..end - first);
        }
        None
    }

    /// The two-byte run from heap 0 (all of a wide table).
    #[inline]
    pub(crate) fn low(&self) -> &[u16] {
        &self.low
    }

    /// The newest two-byte run and its first heap (empty in a wide table).
    #[inline]
    pub(crate) fn recent(&self) -> (&[u16], usize) {
        (&self.recent, self.recent_start())
    }

    /// How many of the splits `(a, rest - a)`, `a = 1, 2, ...`, have both parts in two-byte
    /// runs, small part from [`ValueTable::low`], of those whose parts are computed.
    #[inline]
    pub(crate) fn fast_splits(&self, rest: usize) -> usize {
        if rest <= self.wide_below() {
            rest
        } else {
            (self.low.len().saturating_sub(1)).min(rest.saturating_sub(self.recent_start()))
        }
    }

    /// Heaps below this are kept two bytes each, in [`ValueTable::low`], once computed.
    #[inline]
    fn wide_below(&self) -> usize {
        self.packing.map_or(usize::MAX, |p| p.from)
    }

    /// The two-byte run that holds the large parts `rest - a` of the splits
    /// [`ValueTable::fast_splits`] counts, and its first heap.
    #[inline]
    pub(crate) fn large_run(&self, rest: usize) -> (&[u16], usize) {
        if rest <= self.wide_below() {
            (&self.low, 0)
        } else {
            self.recent()
        }
    }

    /// The small parts `1..=count` and the large parts `rest - count..rest` of the first
    /// `count` splits of `rest`, `count` at most [`ValueTable::fast_splits`].
    #[inline]
    pub(crate) fn split_runs(&self, rest: usize, count: usize) -> (&[u16], &[u16]) {
        if count == 0 {
            return (&[], &[]);
        }
        let (large, base) = self.large_run(rest);
        (
            &self.low[1..=count],
            &large[rest - count - base..rest - base],
        )
    }

    /// How many of `rare` (sorted heaps, each below `rest`, whose other part `rest - r` is
    /// below [`ValueTable::len`]) split `rest` with both parts in two-byte runs: a prefix.
    #[inline]
    pub(crate) fn fast_rare(&self, rare: &[usize], rest: usize) -> usize {
        if rest <= self.wide_below() {
            return rare.len();
        }
        let limit = self.fast_splits(rest);
        rare.partition_point(|&r| r <= limit)
    }

    /// Room for heaps up to `upto` at once, so that a huge table does not pass through a copy
    /// of itself while it grows. Only a hint.
    pub(crate) fn reserve_upto(&mut self, upto: usize) {
        let total = upto.saturating_add(1);
        match self.packing {
            None => {
                let _ = self.low.try_reserve(total.saturating_sub(self.low.len()));
            }
            Some(p) => {
                let _ = self
                    .low
                    .try_reserve(p.from.min(total) - self.low.len().min(p.from));
                if self.keeps_packed {
                    let _ = self.bytes.try_reserve_exact(
                        total
                            .saturating_sub(p.from + p.window)
                            .saturating_sub(self.bytes.len()),
                    );
                }
                let _ = self.recent.try_reserve(2 * p.window);
            }
        }
    }

    /// Pack by the class of common heaps in force (see
    /// [`super::grundy::RareCommon::common_class`]): the bytes packed so far are packed again
    /// if it changed (the method re-chooses it when the heaps double, so this costs a pass
    /// over the bytes at most once each doubling).
    pub(crate) fn prefer_class(&mut self, mask: u32, common_odd: bool) {
        if self.packing.is_none()
            || self
                .codec
                .class
                .is_some_and(|c| (c.0, c.2) == (mask, common_odd))
        {
            return;
        }
        let codec = Codec::for_class(mask, common_odd);
        if self.keeps_packed {
            let first = self.low.len();
            let mut old_escapes = self
                .escaped_values
                .drain(..)
                .collect::<Vec<_>>()
                .into_iter();
            self.escaped_heaps.clear();
            for (i, byte) in self.bytes.iter_mut().enumerate() {
                let n = first + i;
                let v = if *byte == ESCAPE {
                    old_escapes.next().expect("an escaped value")
                } else {
                    self.codec.decode(n, *byte)
                };
                *byte = codec.encode(n, v).unwrap_or_else(|| {
                    self.escaped_heaps.push(n as u64);
                    self.escaped_values.push(v);
                    ESCAPE
                });
            }
        }
        self.codec = codec;
    }

    /// Heaps whose values are in the side list.
    #[must_use]
    pub fn escaped(&self) -> usize {
        self.escaped_heaps.len()
    }

    /// The bytes the values take (their allocations' capacity).
    #[must_use]
    pub fn bytes_used(&self) -> usize {
        2 * (self.low.capacity() + self.recent.capacity())
            + self.bytes.capacity()
            + 10 * self.escaped_heaps.capacity()
    }

    /// Append the next heap's value.
    #[inline]
    pub fn push(&mut self, v: u16) {
        match self.packing {
            Some(p) if self.low.len() >= p.from => {
                self.recent.push(v);
                if self.recent.len() >= 2 * p.window {
                    self.pack(p.window);
                }
            }
            _ => self.low.push(v),
        }
    }

    /// Move the oldest `count` two-byte values of the newest run into bytes.
    fn pack(&mut self, count: usize) {
        let first = self.recent_start();
        if self.keeps_packed {
            for (i, &v) in self.recent[..count].iter().enumerate() {
                let n = first + i;
                let byte = self.codec.encode(n, v).unwrap_or_else(|| {
                    self.escaped_heaps.push(n as u64);
                    self.escaped_values.push(v);
                    ESCAPE
                });
                self.bytes.push(byte);
            }
        }
        self.packed += count;
        self.recent.drain(..count);
    }

    /// A copy for a helper thread that reads only the two-byte runs: the packed bytes are
    /// left out (and, as it grows, forgotten).
    pub(crate) fn ends_only(&self) -> ValueTable {
        ValueTable {
            low: self.low.clone(),
            packing: self.packing,
            codec: Codec::plain(),
            bytes: Vec::new(),
            packed: self.packed,
            keeps_packed: false,
            escaped_heaps: Vec::new(),
            escaped_values: Vec::new(),
            recent: self.recent.clone(),
        }
    }
}
