//! An opening book: the exact scores of every position within a few plies of the start,
//! searched once and kept, so that the first moves are answered at once and a search that
//! passes through them stops there.
//!
//! A book is its positions' keys, ascending, with a score each; it is looked up by binary
//! search, only at positions with at least as many moves left as its deepest (a check of
//! one integer elsewhere). The keys are not part of a book's file: a reader lists the same
//! positions again ([`positions`]) and checks them against the digest the writer kept.

use super::{After, Analysis, Limits, MoveScore, ScoreGame, Search, Stopped};
use rustc_hash::FxHashSet;
use thiserror::Error;

/// Bytes a book keeps a position while it is listed: its key in a hash set (with the set's
/// spare room), the position itself, and its key and score in the book.
pub const BYTES_PER_LISTED_POSITION: u64 = 96;

/// Why positions could not be listed.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum BookError {
    /// More positions than the limit allows.
    #[error(
        "a book of {plies} plies holds more than the {limit} positions the memory limit lists ({BYTES_PER_LISTED_POSITION} bytes each; {reached} plies fit): ask for fewer plies or raise --memory-limit"
    )]
    TooMany {
        /// Plies asked for.
        plies: u32,
        /// The most positions allowed.
        limit: u64,
        /// Plies listed whole by then.
        reached: u32,
    },
    /// A file's positions differ from the ones listed again.
    #[error("the book's positions do not match this board's ({0})")]
    Mismatch(String),
}

/// Exact scores of the positions within some plies of a start.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Book {
    keys: Vec<u128>,
    scores: Vec<i32>,
    /// The fewest moves left at a position in the book: positions with fewer are not
    /// looked up.
    min_depth: u32,
}

/// Every position within `plies` plies of `start` (`start` included) where the game goes on,
/// one per key, in ascending order of key (the order of a book's records).
///
/// # Errors
/// [`BookError::TooMany`] past `limit` positions.
pub fn positions<G: ScoreGame>(
    game: &G,
    start: &G::Position,
    plies: u32,
    limit: u64,
) -> Result<Vec<G::Position>, BookError> {
    let mut seen = FxHashSet::default();
    seen.insert(game.key(start));
    let mut all = vec![*start];
    let mut level = vec![*start];
    for reached in 0..plies {
        let mut next = Vec::new();
        for position in &level {
            for (_, after) in game.moves(position) {
                if let After::Continue(child) = after
                    && seen.insert(game.key(&child))
                {
                    next.push(child);
                    // Counted as they come, so that the memory stays within the limit.
                    if (all.len() + next.len()) as u64 > limit {
                        return Err(BookError::TooMany {
                            plies,
                            limit,
                            reached,
                        });
                    }
                }
            }
        }
        if next.is_empty() {
            break;
        }
        all.extend_from_slice(&next);
        level = next;
    }
    all.sort_by_key(|p| game.key(p));
    Ok(all)
}

/// A digest of positions' keys in their order: written with a book, checked on reading.
/// A key is taken in eight bytes when the game's keys fit 64 bits (as books were written
/// before keys grew past them), else in sixteen.
#[must_use]
pub fn digest<G: ScoreGame>(game: &G, positions: &[G::Position]) -> u32 {
    let mut hasher = crc32fast::Hasher::new();
    let narrow = game.key_bits() <= u64::BITS;
    for p in positions {
        let key: u128 = game.key(p).into();
        if narrow {
            hasher.update(&(key as u64).to_le_bytes());
        } else {
            hasher.update(&key.to_le_bytes());
        }
    }
    hasher.finalize()
}

impl Book {
    /// A book of `positions` (as [`positions`] lists them) and their scores, in the same order.
    ///
    /// # Errors
    /// [`BookError::Mismatch`] when the counts differ.
    pub fn new<G: ScoreGame>(
        game: &G,
        positions: &[G::Position],
        scores: Vec<i32>,
    ) -> Result<Book, BookError> {
        if positions.len() != scores.len() {
            return Err(BookError::Mismatch(format!(
                "{} positions, {} scores",
                positions.len(),
                scores.len()
            )));
        }
        let keys: Vec<u128> = positions.iter().map(|p| game.key(p).into()).collect();
        if keys.windows(2).any(|w| w[0] >= w[1]) {
            return Err(BookError::Mismatch("keys out of order".into()));
        }
        Ok(Book {
            keys,
            scores,
            min_depth: positions
                .iter()
                .map(|p| game.depth(p))
                .min()
                .unwrap_or(u32::MAX),
        })
    }

    /// Positions in the book.
    #[must_use]
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Whether the book is empty.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// The scores, in the order of the positions.
    #[must_use]
    pub fn scores(&self) -> &[i32] {
        &self.scores
    }

    /// The score of a position with `depth` moves left at most and key `key`, if the book
    /// holds it.
    #[inline]
    #[must_use]
    pub fn get(&self, depth: u32, key: u128) -> Option<i32> {
        if depth < self.min_depth {
            return None;
        }
        self.keys.binary_search(&key).ok().map(|i| self.scores[i])
    }
}

impl<G: ScoreGame> Search<G> {
    /// The exact score of every position in `positions`, deepest first (so that the
    /// shallower ones find their subtrees in the table), `progress` told after each with the
    /// count done. A position whose moves all lead to positions scored already (or end the
    /// game) takes the best of them, without a search: in a book, every position but the
    /// deepest ones. `scored` holds scores known before, by key (a build resumed). The
    /// scores come back in the order of `positions`.
    ///
    /// # Errors
    /// [`Stopped`] when the limits end a search; the scores found before are lost only to
    /// the caller that does not keep them (`progress` sees each one).
    pub fn score_all(
        &self,
        positions: &[G::Position],
        mut scored: std::collections::HashMap<u128, i32>,
        limits: &Limits,
        progress: &mut dyn FnMut(usize, i32),
    ) -> Result<Vec<i32>, Stopped> {
        let game = self.game();
        let mut order: Vec<usize> = (0..positions.len()).collect();
        order.sort_by_key(|&i| game.depth(&positions[i]));
        let mut scores = vec![0; positions.len()];
        for &i in &order {
            let position = &positions[i];
            let from_moves = game
                .moves(position)
                .iter()
                .map(|(_, after)| match after {
                    After::Ends(score) => Some(*score),
                    After::Continue(next) => scored.get(&game.key(next).into()).map(|s| -s),
                })
                .collect::<Option<arrayvec::ArrayVec<i32, { super::MAX_CHILDREN }>>>()
                .and_then(|moves| moves.into_iter().max());
            scores[i] = match from_moves {
                Some(score) => score,
                None => self.score(position, limits)?,
            };
            scored.insert(game.key(position).into(), scores[i]);
            progress(i, scores[i]);
        }
        Ok(scores)
    }

    /// Look positions up in `book` before the table and the search (see [`Book`]).
    pub fn set_book(&mut self, book: std::sync::Arc<Book>) {
        self.book = book;
    }

    /// The book the search reads.
    #[must_use]
    pub fn book(&self) -> &Book {
        &self.book
    }

    /// The analysis of a position read from the book alone, when the book holds it and
    /// every position its moves lead to: no search. The best line stops where it leaves the
    /// book (`best_line_complete` false), unless the game ends first.
    #[must_use]
    pub fn analyse_in_book(
        &self,
        position: &G::Position,
    ) -> Option<Analysis<G::Move, G::Position>> {
        let game = self.game();
        let in_book = |p: &G::Position| self.book.get(game.depth(p), game.key(p).into());
        let all = game.moves(position);
        if all.is_empty() || in_book(position).is_none() {
            return None;
        }
        let mut moves = Vec::with_capacity(all.len());
        for &(mv, after) in &all {
            let score = match after {
                After::Ends(score) => score,
                After::Continue(next) => -in_book(&next)?,
            };
            moves.push(MoveScore { mv, after, score });
        }
        moves.sort_by_key(|m| std::cmp::Reverse(m.score));
        let score = moves[0].score;
        let mut best_line = vec![moves[0].mv];
        let mut here = moves[0].after;
        let mut expected = -score;
        let mut complete = true;
        'line: while let After::Continue(p) = here {
            let next = game.moves(&p);
            if next.is_empty() {
                break;
            }
            for &(mv, later) in &next {
                // A move keeps the score when what it leads to is worth -expected to the
                // opponent; one out of the book is not known to.
                let keeps = match later {
                    After::Ends(s) => s == expected,
                    After::Continue(q) => in_book(&q) == Some(-expected),
                };
                if keeps {
                    best_line.push(mv);
                    here = later;
                    expected = -expected;
                    continue 'line;
                }
            }
            // No move in the book keeps the score: the line leaves the book here.
            complete = false;
            break;
        }
        Some(Analysis {
            score,
            moves,
            best_line,
            best_line_complete: complete,
            nodes: 0,
        })
    }
}
