//! Cutcake: pieces of cake `W x H`; Left cuts a piece along a vertical line (into `a x H`
//! and `(W - a) x H`), Right along a horizontal one; who cannot cut loses. Written `4x3`,
//! several pieces joined by `+`.

use super::PartizanError;
use super::rules::PartizanRules;
use super::table::Side;

/// The rules of Cutcake.
#[derive(Clone, Copy, Debug, Default)]
pub struct Cutcake;

/// The largest side valued.
pub const MAX_SIDE: u32 = 1 << 12;

/// The longest text of pieces read (some hundreds of pieces, far past what can be valued).
pub const MAX_TEXT_BYTES: usize = 4096;

/// Read pieces `WxH`, joined by `+`.
///
/// # Errors
/// [`PartizanError::Position`].
pub fn parse(text: &str) -> Result<Vec<(u32, u32)>, PartizanError> {
    if text.len() > MAX_TEXT_BYTES {
        return Err(PartizanError::Position(format!(
            "Cutcake pieces written in {} bytes: at most {MAX_TEXT_BYTES} are read",
            text.len()
        )));
    }
    let mut pieces = Vec::new();
    for piece in text.split('+') {
        let piece = piece.trim();
        let bad = || {
            PartizanError::Position(format!(
                "a Cutcake piece {:?}: write its width and height as WxH, each from 1 to {MAX_SIDE} (e.g. 4x3)",
                crate::parse::shorten(piece)
            ))
        };
        let (w, h) = piece.split_once(['x', 'X']).ok_or_else(bad)?;
        let side = |t: &str| {
            t.trim()
                .parse::<u32>()
                .ok()
                .filter(|&n| (1..=MAX_SIDE).contains(&n))
                .ok_or_else(bad)
        };
        pieces.push((side(w)?, side(h)?));
    }
    pieces.sort_unstable();
    Ok(pieces)
}

/// The cuts `side` may make: (piece, after which column for Left or row for Right).
#[must_use]
pub fn cuts(pieces: &[(u32, u32)], side: Side) -> Vec<(usize, u32)> {
    let mut cuts = Vec::new();
    for (i, &(w, h)) in pieces.iter().enumerate() {
        let across = if side == Side::Left { w } else { h };
        cuts.extend((1..across).map(|at| (i, at)));
    }
    cuts
}

/// The pieces after piece `i` is cut after its `at`-th column (Left) or row (Right).
#[must_use]
pub fn cut(pieces: &[(u32, u32)], i: usize, at: u32, side: Side) -> Vec<(u32, u32)> {
    let (w, h) = pieces[i];
    let (one, two) = match side {
        Side::Left => ((at, h), (w - at, h)),
        Side::Right => ((w, at), (w, h - at)),
    };
    let mut next = pieces.to_vec();
    next.swap_remove(i);
    next.push(one);
    next.push(two);
    next.sort_unstable();
    next
}

impl PartizanRules for Cutcake {
    type Position = Vec<(u32, u32)>;

    fn options(&self, pieces: &Vec<(u32, u32)>, side: Side) -> Vec<Vec<(u32, u32)>> {
        cuts(pieces, side)
            .into_iter()
            .map(|(i, at)| cut(pieces, i, at, side))
            .collect()
    }

    /// Each piece alone; a 1 x 1 piece is worth 0.
    fn components(&self, pieces: &Vec<(u32, u32)>) -> Vec<Vec<(u32, u32)>> {
        pieces
            .iter()
            .filter(|&&p| p != (1, 1))
            .map(|&p| vec![p])
            .collect()
    }

    /// A piece turned a quarter is worth the negative (the players' cuts swap).
    fn symmetric(&self, pieces: &Vec<(u32, u32)>) -> (Vec<(u32, u32)>, bool) {
        match pieces[..] {
            [(w, h)] if w > h => (vec![(h, w)], true),
            _ => (pieces.clone(), false),
        }
    }
}
