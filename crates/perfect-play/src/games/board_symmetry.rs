//! The eight symmetries of a square board (rotations and reflections) on both sides' pieces,
//! by bit operations: a board of side `n` (square `col + n * row`) is laid on the top-left of
//! an 8 x 8 board, where a reflection or the transpose is a few shifts and masks.

/// The rotations and reflections of a square board.
pub(crate) const SYMMETRIES: usize = 8;

/// Lay the `n` x `n` squares of `bits` on the 8 x 8 board (row `r` at byte `r`).
#[inline]
fn spread(n: u32, bits: u32) -> u64 {
    let row = (1u64 << n) - 1;
    (0..n).fold(0, |out, r| {
        out | (u64::from(bits) >> (n * r) & row) << (8 * r)
    })
}

/// The inverse of [`spread`].
#[inline]
fn gather(n: u32, board: u64) -> u32 {
    let row = (1u64 << n) - 1;
    (0..n).fold(0, |out, r| {
        out | ((board >> (8 * r) & row) << (n * r)) as u32
    })
}

/// Columns reversed: `col` to `n - 1 - col`.
#[inline]
fn mirror(n: u32, b: u64) -> u64 {
    let swap = |b: u64, mask: u64, shift: u32| (b >> shift) & mask | (b & mask) << shift;
    let b = swap(b, 0x5555_5555_5555_5555, 1);
    let b = swap(b, 0x3333_3333_3333_3333, 2);
    swap(b, 0x0f0f_0f0f_0f0f_0f0f, 4) >> (8 - n)
}

/// Rows reversed: `row` to `n - 1 - row`.
#[inline]
fn flip(n: u32, b: u64) -> u64 {
    b.swap_bytes() >> (8 * (8 - n))
}

/// Rows to columns: `(row, col)` to `(col, row)`, three delta swaps.
#[inline]
fn transpose(b: u64) -> u64 {
    let mut b = b;
    let t = 0x0f0f_0f0f_0000_0000 & (b ^ b << 28);
    b ^= t ^ t >> 28;
    let t = 0x3333_0000_3333_0000 & (b ^ b << 14);
    b ^= t ^ t >> 14;
    let t = 0x5500_5500_5500_5500 & (b ^ b << 7);
    b ^ t ^ t >> 7
}

/// Both sides' squares under each symmetry, on the 8 x 8 board: the flips' four images, then
/// each transposed.
#[inline]
fn images(n: u32, first: u32, second: u32) -> [(u64, u64); SYMMETRIES] {
    let (a, b) = (spread(n, first), spread(n, second));
    let (ha, hb) = (mirror(n, a), mirror(n, b));
    let (va, vb) = (flip(n, a), flip(n, b));
    let (hva, hvb) = (flip(n, ha), flip(n, hb));
    [
        (a, b),
        (ha, hb),
        (va, vb),
        (hva, hvb),
        (transpose(a), transpose(b)),
        (transpose(ha), transpose(hb)),
        (transpose(va), transpose(vb)),
        (transpose(hva), transpose(hvb)),
    ]
}

/// Both sides' squares under each symmetry, on the `n` x `n` board.
#[must_use]
pub(crate) fn all_images(n: u32, first: u32, second: u32) -> [(u32, u32); SYMMETRIES] {
    images(n, first, second).map(|(a, b)| (gather(n, a), gather(n, b)))
}

/// The image of (`first`, `second`) with the least `first` squares (then `second`) in the 8
/// x 8 order: the same for every image, so it stands for the class.
#[must_use]
pub(crate) fn canonical(n: u32, first: u32, second: u32) -> (u32, u32) {
    let (a, b) = images(n, first, second).into_iter().min().unwrap_or((0, 0));
    (gather(n, a), gather(n, b))
}

/// How many distinct boards the images are.
#[must_use]
pub(crate) fn class_size(n: u32, first: u32, second: u32) -> u64 {
    let mut all = images(n, first, second);
    all.sort_unstable();
    1 + all.windows(2).filter(|w| w[0] != w[1]).count() as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Square `square` under symmetry `s` by coordinates.
    fn by_coordinates(n: u32, s: usize, square: u32) -> u32 {
        let (mut row, mut col) = (square / n, square % n);
        if s >= 4 {
            col = n - 1 - col;
        }
        for _ in 0..s % 4 {
            (row, col) = (col, n - 1 - row);
        }
        col + n * row
    }

    #[test]
    fn the_bit_images_are_the_rotations_and_reflections() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for n in 2..=5u32 {
            let all = (1u64 << (n * n)) - 1;
            for _ in 0..5_000 {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let first = (seed & all) as u32;
                let second = ((seed >> 32) & all) as u32 & !first;
                let image = |s: usize, bits: u32| -> u32 {
                    (0..n * n)
                        .filter(|&q| bits >> q & 1 == 1)
                        .map(|q| 1 << by_coordinates(n, s, q))
                        .sum()
                };
                let mut expected: Vec<(u32, u32)> = (0..SYMMETRIES)
                    .map(|s| (image(s, first), image(s, second)))
                    .collect();
                let mut found: Vec<(u32, u32)> = images(n, first, second)
                    .into_iter()
                    .map(|(a, b)| (gather(n, a), gather(n, b)))
                    .collect();
                expected.sort_unstable();
                found.sort_unstable();
                assert_eq!(found, expected, "{n}: {first:#x} {second:#x}");
                expected.dedup();
                assert_eq!(class_size(n, first, second), expected.len() as u64);
                let (a, b) = canonical(n, first, second);
                assert!(expected.contains(&(a, b)));
                assert_eq!(canonical(n, a, b), (a, b));
            }
        }
    }
}
