//! Hackenbush stalks: each stalk a line of edges from the ground up, written from the ground:
//! `l` Left's (blue) edges, `r` Right's (red), `e` green (either player's); several stalks
//! joined by `,` (`lrlrrllr,e`). A player cuts one of their edges (or a green one); every
//! edge above it falls. Who cannot cut loses.

use super::PartizanError;
use super::rules::PartizanRules;
use super::table::Side;

/// The rules of Hackenbush on stalks.
#[derive(Clone, Copy, Debug, Default)]
pub struct HackenbushStalks;

/// The most edges valued.
pub const MAX_EDGES: usize = 4096;

/// Read stalks: each a string of `l`, `r` and `e` from the ground up, joined by `,`.
///
/// # Errors
/// [`PartizanError::Position`].
pub fn parse(text: &str) -> Result<Vec<Vec<u8>>, PartizanError> {
    let text = text.trim();
    if text.len() > MAX_EDGES * 2 {
        return Err(PartizanError::Position(format!(
            "Hackenbush stalks of more than {MAX_EDGES} edges"
        )));
    }
    let mut stalks = Vec::new();
    for (s, stalk) in text.split(',').enumerate() {
        let mut edges = Vec::new();
        for (i, c) in stalk.trim().chars().enumerate() {
            match c {
                'l' | 'r' | 'e' => edges.push(c as u8),
                _ => {
                    return Err(PartizanError::Position(format!(
                        "Hackenbush stalk {}: {c:?} at edge {}: the edges are 'l' (Left's, blue), 'r' (Right's, red) and 'e' (green)",
                        s + 1,
                        i + 1
                    )));
                }
            }
        }
        stalks.push(edges);
    }
    stalks.sort();
    Ok(stalks)
}

impl PartizanRules for HackenbushStalks {
    type Position = Vec<Vec<u8>>;

    fn options(&self, stalks: &Vec<Vec<u8>>, side: Side) -> Vec<Vec<Vec<u8>>> {
        let mine = match side {
            Side::Left => b'l',
            Side::Right => b'r',
        };
        let mut options = Vec::new();
        for (s, stalk) in stalks.iter().enumerate() {
            for (i, &edge) in stalk.iter().enumerate() {
                if edge == mine || edge == b'e' {
                    let mut next = stalks.clone();
                    next[s].truncate(i);
                    next.retain(|st| !st.is_empty());
                    next.sort();
                    options.push(next);
                }
            }
        }
        options
    }

    /// Each stalk alone.
    fn components(&self, stalks: &Vec<Vec<u8>>) -> Vec<Vec<Vec<u8>>> {
        stalks
            .iter()
            .filter(|s| !s.is_empty())
            .map(|s| vec![s.clone()])
            .collect()
    }
}
