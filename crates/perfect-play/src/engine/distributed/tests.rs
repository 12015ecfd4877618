//! The distributed solve against one process's, on ranks that are threads: the same
//! database, byte for byte, whatever the number of ranks, and after a rank is stopped and the
//! solve run again from the ranks' checkpoints.

use super::*;
use crate::engine::database::{self, BLOCK_RECORDS, Checkpoint};
use crate::engine::{Options, solve};
use crate::games::{
    connect_four::ConnectFour, dobutsu::Dobutsu, dodgem::Dodgem, hexapawn::Hexapawn,
};
use crate::games::{mu_torere::MuTorere, quixo::Quixo, teeko::Teeko};
use proptest::prelude::*;
use std::path::PathBuf;

fn no_progress(_: &Progress) {}

fn scratch(name: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!(
        "perfect-play-distributed-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_file(&path);
    path
}

fn header<G: IndexedGame>(game: &G, name: &str, block_records: u64) -> Header {
    Header {
        game: name.into(),
        variant: "test".into(),
        indices: game.index_count(),
        positions: 0,
        block_records,
        params: Vec::new(),
        book: None,
    }
}

/// One process's database of `game`, as bytes.
fn one_process<G: IndexedGame + Sync>(game: &G, header: &Header, name: &str) -> Vec<u8> {
    let solution = solve(game, &Options::default(), &no_progress).unwrap();
    let path = scratch(&format!("{name}-one.ppdb"));
    let header = Header {
        positions: solution.positions,
        ..header.clone()
    };
    database::write(&path, &header, solution.records()).unwrap();
    let bytes = std::fs::read(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    bytes
}

/// The checkpoint of rank `rank` of `ranks` beside `db`.
fn rank_checkpoint(db: &Path, rank: usize, ranks: usize) -> PathBuf {
    PathBuf::from(format!("{}.partial.rank{rank}of{ranks}", db.display()))
}

/// Solve `game` on `ranks` threads standing for ranks, into `db`; with `checkpoints`, each
/// rank through its own (saving every level), and with `stop = (rank, tier, level)` that
/// rank stopped once that level is saved. Returns each rank's result.
fn on_ranks<G: IndexedGame + Sync>(
    game: &G,
    ranks: usize,
    db: &Path,
    header: &Header,
    checkpoints: bool,
    stop: Option<(usize, u64, u32)>,
) -> Vec<Result<DistributedSolve, EngineError>> {
    on_ranks_borrowing(game, ranks, db, header, checkpoints, stop, None)
}

/// [`on_ranks`], the slices of cut tiers borrowing from the child tiers or not as `borrow`
/// says (else as the memory limit decides: not, for these small games).
fn on_ranks_borrowing<G: IndexedGame + Sync>(
    game: &G,
    ranks: usize,
    db: &Path,
    header: &Header,
    checkpoints: bool,
    stop: Option<(usize, u64, u32)>,
    borrow: Option<bool>,
) -> Vec<Result<DistributedSolve, EngineError>> {
    std::thread::scope(|scope| {
        let handles: Vec<_> = LocalCluster::ranks(ranks)
            .into_iter()
            .map(|mut exchange| {
                scope.spawn(move || {
                    let rank = exchange.rank();
                    let options = Options::default();
                    let mut checkpoint = checkpoints.then(|| {
                        let path = rank_checkpoint(db, rank, ranks);
                        let identity = format!("test rank {rank} of {ranks}");
                        let mut c = Checkpoint::open(&path, &identity).unwrap();
                        c.level_interval = std::time::Duration::ZERO;
                        c
                    });
                    let cancel = options.cancel.clone();
                    let on_pass = move |p: &Progress| {
                        if stop.is_some_and(|(r, t, l)| r == rank && p.tier == t && p.pass == l) {
                            cancel.cancel();
                        }
                    };
                    let result = solve_on_ranks(
                        game,
                        &options,
                        &mut exchange,
                        db,
                        header,
                        checkpoint.as_mut(),
                        &on_pass,
                        borrow,
                    );
                    if result.is_ok()
                        && let Some(c) = checkpoint
                    {
                        c.remove().unwrap();
                    }
                    result
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    })
}

/// `game`'s database from 1, 2 and 3 ranks is one process's, byte for byte, the slices of
/// cut tiers reading their child tiers whole and borrowing from them.
fn same_database<G: IndexedGame + Sync>(game: &G, name: &str) {
    // Small blocks, so that slices and blocks cross each other's edges.
    let header = header(game, name, 1000);
    let expected = one_process(game, &header, name);
    let runs = [(1, false), (2, false), (3, false), (2, true), (3, true)];
    for (ranks, borrow) in runs {
        let db = scratch(&format!("{name}-{ranks}-{borrow}.ppdb"));
        let results = on_ranks_borrowing(game, ranks, &db, &header, false, None, Some(borrow));
        let name = format!("{name}{}", if borrow { " borrowing" } else { "" });
        // Each rank ends with its own parts only: together, the table once.
        let held: u64 = results
            .iter()
            .map(|r| r.as_ref().map_or(0, |r| r.held_records))
            .sum();
        assert_eq!(held, game.index_count(), "{name} on {ranks} ranks");
        for (rank, result) in results.iter().enumerate() {
            let result = result
                .as_ref()
                .unwrap_or_else(|e| panic!("{name} rank {rank}: {e}"));
            assert_eq!(
                result.database_bytes,
                if rank == 0 { expected.len() as u64 } else { 0 }
            );
            // Borrowing only where a cut tier has children.
            let borrowing = borrow && ranks > 1 && game.tier_count() > 1;
            assert_eq!(result.child_records_borrowed > 0, borrowing, "{name}");
        }
        let written = std::fs::read(&db).unwrap();
        assert!(
            written == expected,
            "{name} on {ranks} ranks: another database"
        );
        std::fs::remove_file(&db).unwrap();
    }
}

#[test]
fn one_tier_loopy_games_write_one_process_database_on_any_number_of_ranks() {
    // Dobutsu shogi's small variants and Mu Torere are one tier: slices and messages only.
    same_database(&Dobutsu::with_kinds(false, false, true), "dobutsu-chicks");
    same_database(&Dobutsu::with_kinds(false, true, false), "dobutsu-giraffes");
    same_database(&MuTorere, "mu-torere");
}

#[test]
fn tiered_games_write_one_process_database_on_any_number_of_ranks() {
    same_database(&Quixo::new(3).unwrap(), "quixo-3");
    same_database(&Dodgem::new(3).unwrap(), "dodgem-3");
    same_database(&Dodgem::new(4).unwrap(), "dodgem-4");
    same_database(&Hexapawn::new(4, 4).unwrap(), "hexapawn-4x4");
    same_database(&Teeko::new(3, 3).unwrap(), "teeko-3-3");
    // Ties, and tiers without moves inside: the passes, shared after each one.
    same_database(&ConnectFour::new(4, 4).unwrap(), "connect-four-4x4");
}

/// The records all-gathered for the passes when `game` is solved on two ranks, and the tiers
/// cut.
fn pass_records_shared<G: IndexedGame + Sync>(game: &G, name: &str) -> (u64, u64) {
    let db = scratch(&format!("{name}.ppdb"));
    let header = header(game, name, 1000);
    let results = on_ranks(game, 2, &db, &header, false, None);
    std::fs::remove_file(&db).unwrap();
    let result = results[0].as_ref().unwrap();
    (result.pass_records_shared, result.tiers_split)
}

/// A cut tier every move leaves (Connect Four's: each move adds a disc) is decided by passes
/// over each rank's slice with nothing of the others' slices; a tier whose moves stay in it
/// (Hexapawn's, solved by passes: it has no un-moves) asks the other ranks for the records
/// its open positions reach there: fewer than one all-gather of the game would send.
#[test]
fn a_tier_every_move_leaves_is_solved_without_its_other_slices() {
    let (shared, cut) = pass_records_shared(&ConnectFour::new(4, 4).unwrap(), "leave");
    assert_eq!(shared, 0);
    assert!(cut > 0);
    let pawns = Hexapawn::new(4, 4).unwrap();
    let (shared, cut) = pass_records_shared(&pawns, "stay");
    assert!(shared > 0 && cut > 0);
    assert!(shared < pawns.index_count(), "{shared}");
}

/// Each slice of a cut tier borrows only the records it reaches of the child tiers, far fewer
/// than the ranks would hold reading those tiers whole: Connect Four's positions are a
/// fraction of its indices, and a slice's moves reach a fraction of those.
#[test]
fn the_slices_of_a_cut_tier_borrow_what_they_reach_of_its_children() {
    let game = ConnectFour::new(4, 4).unwrap();
    let ranks = 3;
    let db = scratch("borrow.ppdb");
    let header = header(&game, "borrow", 1000);
    let results = on_ranks_borrowing(&game, ranks, &db, &header, false, None, Some(true));
    std::fs::remove_file(&db).unwrap();
    let borrowed = results[0].as_ref().unwrap().child_records_borrowed;
    // Read whole, each child tier of a cut tier would come to every rank but its owners.
    let tiers = crate::engine::solve::tiers(&game).unwrap();
    let schedule = Schedule::new(&game, &tiers, ranks, true).unwrap();
    let by_tier = schedule.by_tier();
    let whole: u64 = schedule
        .waves
        .iter()
        .flatten()
        .filter(|p| p.assignment == Assignment::Split)
        .flat_map(|p| game.tier_children(p.tier))
        .map(|child| {
            let range = &tiers[child as usize];
            let placement = by_tier[child as usize].unwrap();
            let parts = schedule.parts(placement.assignment, range);
            parts
                .iter()
                .map(|part| (range.end - range.start) - (part.end - part.start))
                .sum::<u64>()
        })
        .sum();
    assert!(
        borrowed > 0 && borrowed * 4 < whole,
        "{borrowed} of {whole}"
    );
}

#[test]
fn the_ranks_tell_each_other_parents_across_their_slices() {
    let game = Dobutsu::with_kinds(false, false, true);
    let db = scratch("traffic.ppdb");
    let header = header(&game, "traffic", BLOCK_RECORDS);
    let results = on_ranks(&game, 3, &db, &header, false, None);
    let traffic = &results[0].as_ref().unwrap().traffic;
    // Every rank reports the same totals, and most levels send something.
    assert_eq!(traffic, &results[2].as_ref().unwrap().traffic);
    let messages: u64 = traffic.iter().map(|t| t.messages).sum();
    assert!(messages > 0);
    assert!(traffic.iter().all(|t| t.bytes == 8 * t.messages));
    std::fs::remove_file(&db).unwrap();
}

/// Stop one rank once `(tier, level)` is saved, check that every rank stopped, then run
/// again from the checkpoints: one process's database.
fn stopped_and_resumed<G: IndexedGame + Sync>(game: &G, name: &str, stop: (usize, u64, u32)) {
    stopped_and_resumed_borrowing(game, name, stop, None);
}

/// [`stopped_and_resumed`], borrowing from child tiers as `borrow` says.
fn stopped_and_resumed_borrowing<G: IndexedGame + Sync>(
    game: &G,
    name: &str,
    stop: (usize, u64, u32),
    borrow: Option<bool>,
) {
    let header = header(game, name, 1000);
    let expected = one_process(game, &header, name);
    let ranks = 3;
    let db = scratch(&format!("{name}-stopped.ppdb"));
    let on_ranks = |stop| on_ranks_borrowing(game, ranks, &db, &header, true, stop, borrow);
    let results = on_ranks(Some(stop));
    assert!(
        results.iter().all(Result::is_err),
        "{name}: every rank stops"
    );
    assert!(!db.exists(), "{name}: no database from a stopped solve");
    let results = on_ranks(None);
    // With checkpoints the ranks let go of the finished parts their checkpoints hold (read
    // back for the database): only the last wave's tiers stay.
    let held: u64 = results
        .iter()
        .map(|r| r.as_ref().map_or(0, |r| r.held_records))
        .sum();
    if game.tier_count() > 1 {
        assert!(held < game.index_count(), "{name}: {held} records held");
    }
    let first = results[0].as_ref().unwrap();
    assert!(
        first.resumed && first.already_solved > 0,
        "{name}: {first:?}"
    );
    assert!(
        std::fs::read(&db).unwrap() == expected,
        "{name}: resumed to another database"
    );
    for rank in 0..ranks {
        assert!(!rank_checkpoint(&db, rank, ranks).exists());
    }
    std::fs::remove_file(&db).unwrap();
}

#[test]
fn a_stopped_rank_stops_the_solve_and_the_same_command_resumes_it() {
    // Inside the only tier: the levels saved with their side tables.
    stopped_and_resumed(
        &Dobutsu::with_kinds(false, false, true),
        "dobutsu-stop",
        (1, 0, 6),
    );
    // Quixo 3 x 3 at its tier 3 (the ones after it saved whole).
    let quixo = Quixo::new(3).unwrap();
    stopped_and_resumed(&quixo, "quixo-stop", (2, 3, 2));
    // The same, each slice borrowing what it reaches of the tier after (kept by its owners
    // past their checkpoints until read).
    stopped_and_resumed_borrowing(&quixo, "quixo-borrow-stop", (2, 3, 2), Some(true));
}

#[test]
fn ready_tiers_are_handed_out_whole_and_large_ones_cut() {
    // Dodgem 4 x 4: a tier for each pair of car counts, one car fewer out of each; a wave
    // for each number of cars on the board (0 to 6), solved from the fewest.
    let game = Dodgem::new(4).unwrap();
    let tiers = crate::engine::solve::tiers(&game).unwrap();
    let schedule = Schedule::new(&game, &tiers, 2, true).unwrap();
    assert_eq!(schedule.waves.len(), 7);
    // The last wave is the one tier with every car: cut, and read by no one.
    assert_eq!(schedule.waves[6].len(), 1);
    assert_eq!(schedule.waves[6][0].assignment, Assignment::Split);
    assert_eq!(schedule.waves[6][0].readers, vec![false, false]);
    // Three cars against two (either way round): two tiers of the same size, one per rank,
    // read whole by no rank: their parent is cut, and its slices borrow what they reach.
    let before: Vec<Assignment> = schedule.waves[5].iter().map(|p| p.assignment).collect();
    assert_eq!(before, vec![Assignment::Whole(0), Assignment::Whole(1)]);
    assert!(
        schedule.waves[5]
            .iter()
            .all(|p| p.readers == vec![false, false] && p.borrowed)
    );
    // Every tier has a place, once; a tier's children lie in earlier waves.
    let by_tier = schedule.by_tier();
    assert!(by_tier.iter().all(Option::is_some));
    let wave_of = |t: u64| {
        schedule
            .waves
            .iter()
            .position(|w| w.iter().any(|p| p.tier == t))
    };
    for tier in 0..game.tier_count() {
        for child in game.tier_children(tier) {
            assert!(wave_of(child) < wave_of(tier), "tier {tier}, child {child}");
        }
    }
    // A rank keeps less than the whole table; one rank solves everything whole.
    assert!(schedule.rank_records(&tiers, 0, |_| false, false) < game.index_count());
    assert!(
        rank_bytes(&game, &Options::default(), 2)
            < crate::engine::solve_bytes(&game, &Options::default())
    );
    let alone = Schedule::new(&game, &tiers, 1, true).unwrap();
    assert!(
        alone
            .waves
            .iter()
            .flatten()
            .all(|p| p.assignment == Assignment::Whole(0))
    );
    // A chain (Quixo's tiers by marked cubes) gives one tier a wave, each cut.
    let quixo = Quixo::new(3).unwrap();
    let tiers = crate::engine::solve::tiers(&quixo).unwrap();
    let chain = Schedule::new(&quixo, &tiers, 3, false).unwrap();
    assert_eq!(chain.waves.len() as u64, quixo.tier_count());
    assert!(
        chain
            .waves
            .iter()
            .all(|w| w.len() == 1 && w[0].assignment == Assignment::Split)
    );
    // A rank of a chain holds its third of the table and the tiers in play, not all of it;
    // with its finished parts in its checkpoint, the tiers in play only.
    let held = chain.rank_records(&tiers, 1, |_| false, false);
    assert!(
        held < quixo.index_count() * 2 / 3,
        "{held} of {}",
        quixo.index_count()
    );
    let largest = tiers.iter().map(|t| t.end - t.start).max().unwrap();
    assert!(chain.rank_records(&tiers, 1, |_| false, true) <= 2 * largest);
}

#[test]
fn a_rank_stopped_in_a_tier_it_solves_alone_resumes_it() {
    // Dodgem 4 x 4 on three ranks: the largest tier that one rank other than 0 solves alone.
    let game = Dodgem::new(4).unwrap();
    let tiers = crate::engine::solve::tiers(&game).unwrap();
    let schedule = Schedule::new(&game, &tiers, 3, false).unwrap();
    let (tier, owner) = schedule
        .waves
        .iter()
        .flatten()
        .filter_map(|p| match p.assignment {
            Assignment::Whole(r) if r != 0 => Some((p.tier, r)),
            _ => None,
        })
        .max_by_key(|&(t, _)| tiers[t as usize].end - tiers[t as usize].start)
        .expect("a tier solved whole by a rank other than 0");
    stopped_and_resumed(&game, "dodgem-alone-stop", (owner, tier, 2));
}

proptest! {
    #[test]
    fn slices_cover_a_tier_in_order(start in 0u64..1000, len in 0u64..5000, size in 1usize..9) {
        let range = start..start + len;
        let slices = split(&range, size);
        prop_assert_eq!(slices.len(), size);
        prop_assert_eq!(slices[0].start, range.start);
        prop_assert_eq!(slices[size - 1].end, range.end);
        for pair in slices.windows(2) {
            prop_assert_eq!(pair[0].end, pair[1].start);
            prop_assert!(pair[0].start <= pair[0].end);
            prop_assert_eq!((pair[1].start - range.start) % 64, 0);
        }
        for at in range.clone().step_by(7) {
            let owner = crate::engine::retrograde::owner(&slices, at);
            prop_assert!(slices[owner].contains(&at));
        }
    }
}
