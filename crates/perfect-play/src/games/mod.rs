//! Games solved by the engine, one module each: a game is one file that says its rules
//! ([`Game`](crate::Game)) and how its positions are numbered
//! ([`IndexedGame`](crate::engine::IndexedGame)).

pub mod board;
mod board_symmetry;
pub mod connect_four;
pub mod dobutsu;
pub mod dodgem;
pub mod hexapawn;
pub mod mu_torere;
pub mod notation;
pub mod quixo;
mod subsets;
pub mod teeko;
