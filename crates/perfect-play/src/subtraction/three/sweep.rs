//! Jumping over a long preperiod: follow only the piles whose value differs from the one a
//! lag earlier.
//!
//! Long preperiods of `{1, x, y}` (near `y^2 / x`, hundreds of millions of piles) drift
//! slowly towards a period of `y + x` or `y + 1`: a stretch of `y` values differs from the one
//! a period earlier in a few thousand places, fewer each time. Call those places defects at
//! lag `L`. As every value is the same function of the values 1, `x` and `y` before it, a
//! pile whose three inputs are not defects is not one either, so defects arise only 1, `x` or
//! `y` after a defect. Keeping the last `L` values in a ring, where a pile that is not a
//! defect needs no writing, the sweep visits only those candidates, in order; once no
//! candidate is left, the values repeat with period `L` after the last defect. That costs
//! the number of defects rather than the number of piles, and gives way to the general search
//! when defects are too many.

use super::{Catch, Stream, below_pile, differing, differing_marks, from_pile, last_pile};
use crate::budget::Cancel;
use crate::subtraction::Rule;

/// What the sweep proved: `g(m) = ring[m % lag]` for every `m >= preperiod`.
pub(super) struct Swept {
    /// A multiple of the period.
    pub lag: usize,
    /// One period's worth of values, by pile modulo `lag`.
    pub ring: Vec<u8>,
    /// The first pile from which `g(m) = g(m + lag)` always holds.
    pub preperiod: usize,
    /// The same for the win/loss marks.
    pub outcome_preperiod: usize,
    /// Values generated before the sweep plus candidates it visited.
    pub generated: usize,
    /// The values of the piles asked for, by pile.
    pub caught: Vec<(u64, u8)>,
}

/// Defects allowed before the sweep gives way: this many, plus one in every
/// `SPARSE` piles swept. Denser than that, a word at a time is faster.
const ALLOWANCE: usize = 100_000;
const SPARSE: usize = 32;

/// Sweep at the lags `y + x` and `y + 1` side by side (the period is often one of them, and
/// at a lag that is no multiple of it the defects can stay few forever), taking the first to
/// finish; `None` when neither is sparse, both grow too many defects, or the search passes
/// `limit` piles or `cancel` is raised.
pub(super) fn sweep(
    x: usize,
    y: usize,
    rule: Rule,
    limit: usize,
    wanted: &Catch,
    cancel: &Cancel,
) -> Option<Swept> {
    let lags = if x == y {
        vec![y + 1]
    } else {
        vec![y + x, y + 1]
    };
    let longest = lags[0];
    // Generate up to `start`. From it on every pile and the pile a lag before it have every
    // move, as the argument needs; the y piles before it, compared exactly, are the probe
    // and seed the candidates.
    let start = (longest + y).next_multiple_of(64);
    if start >= limit {
        return None;
    }
    let mut stream = Stream::new(x, y, rule, longest + 64);
    let mut catch = wanted.clone();
    let mut mismatches = vec![Mismatches::default(); lags.len()];
    let mut w = 0;
    while 64 * w < start {
        if w % 1024 == 0 && cancel.is_cancelled() {
            return None;
        }
        if w > 0 {
            stream.advance();
        }
        catch.below(stream.len(), |n| stream.value(n));
        let pile = 64 * w;
        let now = stream.word(w);
        for (lag, seen) in lags.iter().zip(mismatches.iter_mut()) {
            let before = stream.bits(pile as isize - *lag as isize);
            let from = from_pile(pile, *lag);
            let diff = differing(now, before) & from;
            let outcome_diff = differing_marks(now, before) & from;
            seen.note(pile, diff, outcome_diff, start - y, y / SPARSE);
        }
        w += 1;
    }
    let mut sweeps: Vec<Sweeper> = lags
        .iter()
        .zip(&mismatches)
        .filter(|(_, seen)| seen.probe <= y / SPARSE)
        .map(|(&lag, seen)| Sweeper::new(&stream, [x, y], lag, start, seen, catch.clone(), cancel))
        .collect::<Option<Vec<_>>>()?;
    let mut bound = start;
    let mut rounds = 0usize;
    while !sweeps.is_empty() {
        if cancel.is_cancelled() {
            return None;
        }
        bound = bound.saturating_add(y).min(limit);
        rounds += 1;
        let mut i = 0;
        while i < sweeps.len() {
            if sweeps[i].paused {
                i += 1;
                continue;
            }
            match sweeps[i].run_to(bound) {
                Progress::Done => {
                    let visited: usize = sweeps.iter().map(|s| s.visited).sum();
                    return Some(sweeps.swap_remove(i).finish(start + visited));
                }
                Progress::Running => i += 1,
                Progress::TooMany => {
                    sweeps.swap_remove(i);
                }
            }
        }
        if rounds.is_multiple_of(BLOCK) {
            pace(&mut sweeps);
        }
        if bound >= limit {
            return None;
        }
    }
    None
}

/// Rounds (of `y` piles) per block of the defect counts that pace the two lags.
const BLOCK: usize = 16;

/// Pause the lag projected to finish later, or resume the paused one when the other stops
/// shrinking.
///
/// At the period the defects per block fall steadily to none; at another lag they may fall
/// for a while too (both lags above do, at first) but then stall. Projecting each lag's
/// finish from its last two blocks and sweeping only the nearer one took {1, 1228, 999213}
/// from 37 to 24 ms and {1, 1624, 949230} from 33 to 17 ms; a paused lag keeps its state, so
/// resuming it when the other stalls loses nothing but time.
fn pace(sweeps: &mut [Sweeper]) {
    for sweep in sweeps.iter_mut().filter(|s| !s.paused) {
        sweep.marks = [sweep.marks[1], sweep.marks[2], sweep.defects];
    }
    let projection = |s: &Sweeper| {
        let [a, b, c] = s.marks;
        let (before, last) = (b - a, c - b);
        (before > last && a > 0).then(|| last / (before - last))
    };
    match sweeps {
        [one, other] if !one.paused && !other.paused => {
            if let (Some(p), Some(q)) = (projection(one), projection(other)) {
                if p > q {
                    one.paused = true;
                } else if q > p {
                    other.paused = true;
                }
            }
        }
        [one, other] => {
            let (running, waiting) = if one.paused {
                (other, one)
            } else {
                (one, other)
            };
            if projection(running).is_none() {
                waiting.paused = false;
            }
        }
        [alone] => alone.paused = false,
        _ => {}
    }
}

/// How far a [`Sweeper`] got.
enum Progress {
    /// No candidate is left: the values repeat with the lag after the last defect.
    Done,
    /// Candidates remain past the bound.
    Running,
    /// The defects outgrew their allowance.
    TooMany,
}

/// The sweep at one lag.
struct Sweeper {
    moves: [usize; 2],
    lag: usize,
    start: usize,
    ring: Vec<u8>,
    candidates: Candidates,
    last: Option<usize>,
    last_outcome: Option<usize>,
    defects: usize,
    visited: usize,
    from: usize,
    /// `from % lag`, kept up to date without dividing.
    from_slot: usize,
    catch: Catch,
    /// The pile up to which candidates have been visited.
    reached: usize,
    /// Paused by [`pace`].
    paused: bool,
    /// Defects at the ends of the last three blocks it swept.
    marks: [usize; 3],
}

impl Sweeper {
    /// The sweep from `start`, with the values before it from `stream`; `None` once `cancel`
    /// is raised (filling the ring reads a lag of piles: 0.6 s near 10^8).
    fn new(
        stream: &Stream,
        moves: [usize; 2],
        lag: usize,
        start: usize,
        seen: &Mismatches,
        catch: Catch,
        cancel: &Cancel,
    ) -> Option<Sweeper> {
        let [x, y] = moves;
        // Slot n % lag holds pile n: the piles [start - lag, start) from the stream, whole
        // words at a time (`start` is a word boundary).
        let mut ring = vec![0u8; lag];
        let first = start - lag;
        let mut n = first;
        while n < start {
            if (n - first).is_multiple_of(1 << 20) && cancel.is_cancelled() {
                return None;
            }
            let (lo, hi) = stream.bits(n as isize);
            let count = (start - n).min(64);
            let slot = n % lag;
            for i in 0..count {
                let value = (lo >> i & 1) | (hi >> i & 1) << 1;
                let at = slot + i;
                ring[if at >= lag { at - lag } else { at }] = value as u8;
            }
            n += count;
        }
        // The defects of the last y piles seed the candidates.
        let mut candidates = Candidates::new(y);
        for &d in &seen.probed {
            for s in [1, x, y] {
                if d + s >= start {
                    candidates.insert(d + s);
                }
            }
        }
        Some(Sweeper {
            moves,
            lag,
            start,
            ring,
            candidates,
            last: seen.last,
            last_outcome: seen.last_outcome,
            defects: 0,
            visited: 0,
            from: start,
            from_slot: start % lag,
            catch,
            reached: start,
            paused: false,
            marks: [0; 3],
        })
    }

    /// Visit the candidates below `bound`, `y` piles at a time at most (a lag paused for a
    /// while catches up): the ring must still hold every pile of a step when its values are
    /// caught.
    fn run_to(&mut self, bound: usize) -> Progress {
        while self.reached < bound {
            let step = (self.reached + self.moves[1]).min(bound);
            match self.run_step(step) {
                Progress::Running => self.reached = step,
                finished => return finished,
            }
        }
        Progress::Running
    }

    /// Visit the candidates below `bound`, at most `y` past the last bound.
    fn run_step(&mut self, bound: usize) -> Progress {
        let ([x, y], lag) = (self.moves, self.lag);
        // Ring slots by subtraction: candidates are less than a lag apart.
        let back = |slot: usize, by: usize| {
            if slot >= by {
                slot - by
            } else {
                slot + lag - by
            }
        };
        while let Some(n) = self.candidates.pop_from(self.from, bound) {
            self.visited += 1;
            if self.defects > ALLOWANCE + (n - self.start) / SPARSE {
                return Progress::TooMany;
            }
            let mut slot = self.from_slot + (n - self.from);
            if slot >= lag {
                slot -= lag;
            }
            let ring = &mut self.ring;
            let seen =
                1u8 << ring[back(slot, 1)] | 1 << ring[back(slot, x)] | 1 << ring[back(slot, y)];
            let value = (!seen).trailing_zeros() as u8;
            let before = ring[slot];
            if value != before {
                ring[slot] = value;
                self.defects += 1;
                self.last = Some(n);
                if (value == 0) != (before == 0) {
                    self.last_outcome = Some(n);
                }
                for s in [1, x, y] {
                    self.candidates.insert(n + s);
                }
            }
            self.from = n + 1;
            self.from_slot = if slot + 1 == lag { 0 } else { slot + 1 };
        }
        // Every pile below the bound has its value in the ring now (a round is shorter than
        // the lag, so none has been overwritten yet); once no candidate is left, every later
        // pile repeats the ring.
        let ring = &self.ring;
        if self.candidates.pending == 0 {
            self.catch.below(usize::MAX, |n| ring[n % lag]);
            Progress::Done
        } else {
            self.catch.below(bound, |n| ring[n % lag]);
            if bound > self.from {
                self.from_slot = (self.from_slot + (bound - self.from)) % lag;
                self.from = bound;
            }
            Progress::Running
        }
    }

    fn finish(self, generated: usize) -> Swept {
        // A mismatch at n pairs n - lag with n: the repeat holds from n - lag + 1.
        let after = |n: Option<usize>| n.map_or(0, |n| n + 1 - self.lag);
        Swept {
            lag: self.lag,
            preperiod: after(self.last),
            outcome_preperiod: after(self.last_outcome),
            ring: self.ring,
            generated,
            caught: self.catch.values,
        }
    }
}

/// Where the values differed from those a lag earlier, before the sweep.
#[derive(Clone, Default)]
struct Mismatches {
    /// The last pile whose value differs.
    last: Option<usize>,
    /// The last pile whose win/loss mark differs.
    last_outcome: Option<usize>,
    /// Values that differ from `probe_from` on (the last `y` before the sweep).
    probe: usize,
    /// Where they are, while there are at most `keep` of them.
    probed: Vec<usize>,
}

impl Mismatches {
    fn note(&mut self, pile: usize, diff: u64, outcome_diff: u64, probe_from: usize, keep: usize) {
        if diff != 0 {
            self.last = Some(last_pile(pile, diff));
            let mut probed = diff & from_pile(pile, probe_from);
            self.probe += probed.count_ones() as usize;
            while probed != 0 && self.probe <= keep {
                self.probed.push(pile + probed.trailing_zeros() as usize);
                probed &= probed - 1;
            }
        }
        if outcome_diff != 0 {
            self.last_outcome = Some(last_pile(pile, outcome_diff));
        }
    }
}

/// Piles still to visit: a circular bitset wider than `y`, since every candidate is at most
/// `y` past the pile being visited, with a summary bit per word so that empty stretches are
/// skipped 64 words at a time.
struct Candidates {
    bits: Vec<u64>,
    /// Bit `w % 64` of word `w / 64`: whether `bits[w]` has any candidate.
    summary: Vec<u64>,
    mask: usize,
    pending: usize,
}

impl Candidates {
    fn new(y: usize) -> Candidates {
        // At least 64 words, so that summary words and the wrap-around line up.
        let words = (y / 64 + 2).next_power_of_two().max(64);
        Candidates {
            bits: vec![0; words],
            summary: vec![0; words / 64],
            mask: words - 1,
            pending: 0,
        }
    }

    fn insert(&mut self, n: usize) {
        let (w, b) = ((n / 64) & self.mask, n % 64);
        if self.bits[w] >> b & 1 == 0 {
            self.bits[w] |= 1 << b;
            self.summary[w / 64] |= 1 << (w % 64);
            self.pending += 1;
        }
    }

    /// The first candidate at or after `from` and below `bound`, removed; `None` when there
    /// is none.
    fn pop_from(&mut self, from: usize, bound: usize) -> Option<usize> {
        if self.pending == 0 || from >= bound {
            return None;
        }
        let mut word = from / 64;
        let mut bits = self.bits[word & self.mask] & !below_pile(64 * word, from);
        if bits == 0 {
            word += 1;
            loop {
                if 64 * word >= bound {
                    return None;
                }
                let at = word & self.mask;
                let flags = self.summary[at / 64] & u64::MAX << (at % 64);
                if flags != 0 {
                    word += (at / 64) * 64 + flags.trailing_zeros() as usize - at;
                    break;
                }
                word += 64 - at % 64;
            }
            bits = self.bits[word & self.mask];
        }
        let b = bits.trailing_zeros();
        let n = 64 * word + b as usize;
        if n >= bound {
            return None;
        }
        let at = word & self.mask;
        self.bits[at] &= !(1 << b);
        if self.bits[at] == 0 {
            self.summary[at / 64] &= !(1 << (at % 64));
        }
        self.pending -= 1;
        Some(n)
    }
}
