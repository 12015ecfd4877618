//! The proof search against the engine's tables: on every position (or a sample) of small
//! loopy games, a win or loss within the horizon is found with the table's remoteness, every
//! move's too, and nothing is claimed of a draw, a tie or a longer fight.

use super::proof::{ProofLimits, ProofSearch, Proven};
use crate::engine::{Options, Record, solve, table_index};
use crate::game::{Ending, Transition};
use crate::games::board::BoardGame;
use crate::games::dobutsu::Dobutsu;
use crate::games::dodgem::Dodgem;
use crate::games::mu_torere::MuTorere;
use crate::games::quixo::Quixo;
use crate::games::teeko::Teeko;
use crate::player::Outcome;

/// The exact value of a table record, when decisive.
fn exact(record: Record) -> Option<Proven> {
    match (record.outcome(), record.remoteness()) {
        (Some(Outcome::Win), Some(r)) => Some(Proven::Win(r)),
        (Some(Outcome::Loss), Some(r)) => Some(Proven::Loss(r)),
        _ => None,
    }
}

/// Plies to the end of a value.
fn plies(value: Proven) -> u32 {
    match value {
        Proven::Win(k) | Proven::Loss(k) => k,
    }
}

/// A proof search's answer against the table's value: whatever it proves is the table's
/// value, and it proves every win or loss within its horizons (it may reach one ply past
/// them, through a win in one at the horizon).
fn check(got: Option<Proven>, table: Option<Proven>, max_plies: u32, what: &dyn Fn() -> String) {
    if let Some(got) = got {
        assert_eq!(Some(got), table, "{}", what());
    } else {
        assert!(
            table.is_none_or(|t| plies(t) > max_plies),
            "{}: {table:?} not proven",
            what()
        );
    }
}

/// The move order's heuristics a test turns on.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Order {
    Plain,
    History,
    HistoryAndKillers,
}

/// Every `every`-th index: the position's value and every move's agree with the table.
/// Returns the positions proven and those left unproven.
fn agrees_with_the_table<G: BoardGame>(
    game: &G,
    every: u64,
    max_plies: u32,
    order: Order,
) -> (u64, u64)
where
    G::Position: std::fmt::Debug,
    G::Move: std::fmt::Debug,
{
    let table = solve(game, &Options::default(), &|_| {}).unwrap();
    let key = |m: &G::Move| game.move_key(m);
    let limits = ProofLimits {
        max_plies,
        history: order != Order::Plain,
        killers: order == Order::HistoryAndKillers,
        ..ProofLimits::default()
    };
    let mut search = ProofSearch::new(game, &key, limits).unwrap();
    let (mut proven, mut unproven) = (0, 0);
    for index in (0..game.index_count()).step_by(every as usize) {
        let Some(position) = game.position(index) else {
            continue;
        };
        let Some(record) = table
            .record(table_index(game, &position))
            .filter(|r| r.outcome().is_some() || *r == Record::DRAW)
        else {
            continue;
        };
        if game.moves(&position).is_empty() {
            continue;
        }
        let got = search.prove(&position).ok();
        check(got, exact(record), max_plies, &|| {
            format!("{position:?}: table {record:?}")
        });
        match got {
            Some(_) => proven += 1,
            None => unproven += 1,
        }
        if got.is_none() {
            continue;
        }
        for mv in game.moves(&position) {
            let want = match game.play(&position, &mv) {
                Transition::End(e) => match e {
                    Ending::Win => Some(Proven::Win(1)),
                    Ending::Loss => Some(Proven::Loss(1)),
                    _ => None,
                },
                Transition::Continue { position: next, .. } => {
                    let r = table.record(table_index(game, &next)).unwrap();
                    match exact(r) {
                        Some(Proven::Win(k)) => Some(Proven::Loss(k + 1)),
                        Some(Proven::Loss(k)) => Some(Proven::Win(k + 1)),
                        None => None,
                    }
                }
            };
            let got = search.prove_move(&position, &mv).ok();
            // The move's value is its position's plus one ply.
            check(got, want, max_plies + 1, &|| format!("{position:?} {mv:?}"));
        }
    }
    (proven, unproven)
}

#[test]
fn proofs_agree_with_the_table_of_quixo_3_by_3() {
    // Every position is decided within 12 plies (the start: a first-player win in 7).
    let (proven, unproven) = agrees_with_the_table(&Quixo::new(3).unwrap(), 1, 12, Order::Plain);
    assert!(proven > 20_000 && unproven == 0, "{proven} {unproven}");
}

#[test]
fn proofs_agree_with_the_table_of_teeko_on_a_small_board() {
    let (proven, unproven) = agrees_with_the_table(&Teeko::new(4, 3).unwrap(), 97, 8, Order::Plain);
    assert!(proven > 100 && unproven > 10, "{proven} {unproven}");
}

#[test]
fn proofs_agree_with_the_table_of_dobutsu_with_lions_and_chicks() {
    let (proven, unproven) = agrees_with_the_table(
        &Dobutsu::with_kinds(false, false, true),
        13,
        9,
        Order::Plain,
    );
    assert!(proven > 100 && unproven > 10, "{proven} {unproven}");
}

#[test]
fn proofs_agree_with_the_tables_of_dodgem_and_mu_torere() {
    agrees_with_the_table(&Dodgem::new(3).unwrap(), 1, 14, Order::Plain);
    agrees_with_the_table(&MuTorere, 1, 14, Order::Plain);
}

/// The history heuristic orders moves differently, and proves the same values; so do
/// killer moves on top of it.
#[test]
fn proofs_with_the_history_heuristic_and_killer_moves_agree_too() {
    for order in [Order::History, Order::HistoryAndKillers] {
        agrees_with_the_table(&Dodgem::new(3).unwrap(), 1, 14, order);
        agrees_with_the_table(&Dobutsu::with_kinds(false, false, true), 97, 9, order);
        agrees_with_the_table(&Quixo::new(3).unwrap(), 7, 12, order);
    }
}

/// Killer moves change the order the search takes (a test of the test above: were they
/// never used, it would prove nothing about them).
#[test]
fn killer_moves_change_the_nodes_a_proof_takes() {
    let game = Quixo::new(4).unwrap();
    let key = |m: &<Quixo as crate::Game>::Move| game.move_key(m);
    let position = game.parse_position("xx../oo../..../....:x").unwrap();
    let nodes = |killers: bool| {
        let limits = ProofLimits {
            max_plies: 5,
            killers,
            ..ProofLimits::default()
        };
        let mut search = ProofSearch::new(&game, &key, limits).unwrap();
        let proven = search.prove(&position);
        (format!("{proven:?}"), search.nodes())
    };
    let (plain, with_killers) = (nodes(false), nodes(true));
    assert_eq!(plain.0, with_killers.0);
    assert_ne!(plain.1, with_killers.1);
}
