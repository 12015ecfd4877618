//! # perfect-play
//!
//! Exact solvers for two-player games of perfect information: who wins under perfect play, with
//! which move, and why.
//!
//! The core model is small: a [`Player`], an [`Outcome`] and a [`Value`] (margin plus
//! remoteness) for the player to move, the [`Game`] trait that every game implements, and the
//! generic [`Solver`] (memoised negamax) that solves any `Game`. Each game family then has its
//! own module with a seed-shaped function and a fast specialised solver, which the generic
//! solver checks in the tests.
//!
//! ```
//! use perfect_play::{nim, Solver, Outcome};
//!
//! let game = nim::Nim::normal(vec![3, 4, 5]);
//! let mut solver = Solver::new(game);
//! let analysis = solver.analyse(&vec![3, 4, 5]);
//! assert_eq!(analysis.value.outcome(), Outcome::Win);
//! assert_eq!(analysis.winning_moves(), nim::winning_moves(&[3, 4, 5]));
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod game;
pub mod games;
pub mod period;
pub mod player;
pub mod solver;
pub mod value;

pub mod baseline;
pub mod big;
pub mod budget;
pub mod can_i_win;
pub mod durable;
pub mod engine;
pub mod graph;
pub mod impartial;
pub mod nim;
pub mod octal;
pub mod parse;
pub mod partizan;
pub mod puzzles;
pub mod registry;
pub mod search;
pub mod subtraction;
pub mod take_ends;
pub mod tic_tac_toe;

pub use game::{Ending, Game, Transition};
pub use player::{Outcome, Player};
pub use solver::{Analysis, MoveValue, SolveError, Solver};
pub use value::Value;

/// The README's Rust examples, compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct ReadmeDoctests;
