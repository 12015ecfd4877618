use super::*;
use crate::engine::{IndexedGame, Options, solve, table_index};
use crate::games::connect_four::parse_columns;
use crate::search::{Bounds, Heuristics, Limits, Search};
use proptest::prelude::*;

fn limits() -> Limits {
    Limits {
        threads: 2,
        ..Limits::default()
    }
}

/// Whether `discs` (a plain board's cells, one bool per (column, row)) hold four in a row.
fn plain_four(cells: &[Vec<bool>]) -> bool {
    let width = cells.len() as i32;
    let height = cells[0].len() as i32;
    let at = |c: i32, r: i32| {
        c >= 0 && c < width && r >= 0 && r < height && cells[c as usize][r as usize]
    };
    (0..width).any(|c| {
        (0..height).any(|r| {
            [(1, 0), (0, 1), (1, 1), (1, -1)]
                .iter()
                .any(|&(dc, dr)| (0..4).all(|k| at(c + k * dc, r + k * dr)))
        })
    })
}

fn cells_of(game: &ConnectFour, discs: u128) -> Vec<Vec<bool>> {
    (0..game.width())
        .map(|c| {
            (0..game.height())
                .map(|r| discs >> (c * (game.height() + 1) + r) & 1 == 1)
                .collect()
        })
        .collect()
}

/// The rules on words of `B` find the cells that complete a line, the end of the game and
/// keys as a plain board does.
fn rules_match_a_plain_board<B: Bits>(
    game: &ConnectFour,
    board: &Board,
) -> Result<(), TestCaseError> {
    let (width, height) = (game.width(), game.height());
    let rules = Bitboards::<B>::new(game);
    let discs = rules.discs(board);
    prop_assert_eq!(rules.board(&discs), *board);
    let wins: u128 = rules.winning_cells(discs.mover, discs.mask).into();
    let (mover, mask): (u128, u128) = (discs.mover.into(), discs.mask.into());
    for c in 0..width {
        for r in 0..height {
            let bit = 1u128 << (c * (height + 1) + r);
            let expected = mask & bit == 0 && plain_four(&cells_of(game, mover | bit));
            prop_assert_eq!(wins & bit != 0, expected, "column {} row {}", c, r);
        }
    }
    prop_assert_eq!(
        rules.is_over(&discs),
        discs.moves > 0 && plain_four(&cells_of(game, mask ^ mover))
    );
    // Near the start the mirror shares the key; later each has its own, and a key is
    // never another position's.
    let mirror = rules.discs(&game.mirrored(board));
    if discs.moves < MIRROR_KEYS_BELOW {
        prop_assert_eq!(rules.key(&mirror), rules.key(&discs));
    } else {
        prop_assert_eq!(rules.key(&mirror) == rules.key(&discs), mirror == discs);
    }
    prop_assert_eq!(
        Into::<u128>::into(rules.key(&discs))
            .checked_shr(rules.key_bits())
            .unwrap_or(0),
        0
    );
    Ok(())
}

proptest! {
    #[test]
    fn winning_cells_are_the_empty_cells_that_complete_a_line(
        (width, height) in prop_oneof![
            (1u32..=9, 1u32..=7),
            // Boards past 64 bits: 10 x 6, 8 x 8, 12 x 9 ...
            (8u32..=16, 5u32..=12),
            // Tall boards: steps of 32 and more between a line's cells.
            (1u32..=3, 1u32..=127),
        ].prop_filter("fits 128 bits", |&(w, h)| w * (h + 1) <= 128),
        columns in proptest::collection::vec(0u32..16, 0..120),
    ) {
        let game = ConnectFour::new(width, height).unwrap();
        let mut board = game.empty();
        for c in columns {
            let c = c % width;
            if !game.is_won(&board) && game.column_height(&board, c) < height {
                board = game.drop_disc(&board, c);
            }
        }
        if fits_64_bits(&game) {
            rules_match_a_plain_board::<u64>(&game, &board)?;
        }
        rules_match_a_plain_board::<u128>(&game, &board)?;
    }

    #[test]
    fn scores_and_values_convert_both_ways(moves in 0u32..42, plies in 0u32..42, won in any::<bool>()) {
        let rules = Bitboards::<u64>::new(&ConnectFour::new(7, 6).unwrap());
        // A win in an odd number of plies, a loss in an even one, within the board.
        let plies = if won { plies | 1 } else { plies & !1 };
        prop_assume!(moves + plies <= 42 && (won || plies > 0 || moves > 0));
        let outcome = if won { Outcome::Win } else { Outcome::Loss };
        let score = rules.score_of(moves, outcome, plies);
        prop_assert_eq!(rules.value_of(moves, score), (outcome, plies));
    }
}

#[test]
fn pons_scores_convert_as_the_issue_writes_them() {
    // Pons' score is 22 - k when the mover wins with their k-th disc: a win in
    // 2 (k - floor(moves / 2)) - 1 plies; a loss when the opponent wins with their k-th disc.
    let rules = Bitboards::<u64>::new(&ConnectFour::new(7, 6).unwrap());
    for moves in 0..42u32 {
        for k in moves / 2 + 1..=21 {
            let plies = 2 * (k - moves / 2) - 1;
            if moves + plies <= 42 {
                assert_eq!(rules.value_of(moves, 22 - k as i32), (Outcome::Win, plies));
            }
            let plies = 2 * (k - moves.div_ceil(2));
            if moves + plies <= 42 && k > moves.div_ceil(2) {
                assert_eq!(rules.value_of(moves, k as i32 - 22), (Outcome::Loss, plies));
            }
        }
    }
    assert_eq!(rules.value_of(31, 0), (Outcome::Tie, 11));
}

/// Search and the engine's table agree on every `every`-th index of a small board: outcome,
/// remoteness and every move's. The positions are shared out over rayon's threads, each with
/// its own search (and transposition table).
fn agrees_with_the_table(width: u32, height: u32, every: u64) {
    agrees_with_the_table_ordered::<u64>(width, height, every, Heuristics::default());
}

/// [`agrees_with_the_table`] with the search's move-ordering heuristics set.
fn agrees_with_the_table_ordered<B: Bits>(
    width: u32,
    height: u32,
    every: u64,
    heuristics: Heuristics,
) {
    use rayon::prelude::*;
    let game = ConnectFour::new(width, height).unwrap();
    let table = solve(&game, &Options::default(), &|_| {}).unwrap();
    let rules = Bitboards::<B>::new(&game);
    let indices: Vec<u64> = (0..game.index_count()).step_by(every as usize).collect();
    let checked: u64 = indices
        .par_chunks(4096)
        .map_init(
            || {
                let mut search = Search::new(rules.clone(), 1 << 22).unwrap();
                search.set_heuristics(heuristics);
                search
            },
            |search, chunk| {
                chunk
                    .iter()
                    .filter(|&&index| agrees_at(&game, &table, &rules, search, index))
                    .count() as u64
            },
        )
        .sum();
    assert!(checked > 100, "{checked}");
}

/// Whether index `index` is a position the table solved, after checking that the search
/// agrees with it there (panics where it does not).
fn agrees_at<B: Bits>(
    game: &ConnectFour,
    table: &crate::engine::Solution,
    rules: &Bitboards<B>,
    search: &Search<Bitboards<B>>,
    index: u64,
) -> bool {
    let (width, height) = (game.width(), game.height());
    let Some(board) = game.position(index) else {
        return false;
    };
    let Some(record) = table.record(table_index(game, &board)) else {
        return false;
    };
    let Some(outcome) = record.outcome() else {
        return false; // unreachable positions are not in the table
    };
    let discs = rules.discs(&board);
    let analysis = search.analyse(&discs, &limits()).unwrap();
    let value = rules.value_of(discs.moves, analysis.score);
    assert_eq!(
        value,
        (outcome, record.remoteness().unwrap()),
        "{width} x {height}: {board:?}"
    );
    for m in &analysis.moves {
        let expected = match m.after {
            After::Ends(_) => (Outcome::Win, 1),
            After::Continue(next) => {
                let after = rules.board(&next);
                let r = table.record(table_index(game, &after)).unwrap();
                let (o, plies) = (r.outcome().unwrap(), r.remoteness().unwrap());
                (o.flip(), plies + 1)
            }
        };
        assert_eq!(
            rules.value_of(discs.moves, m.score),
            expected,
            "{board:?} column {}",
            m.mv
        );
    }
    // The best line is a game: each move legal, and it ends the game.
    let mut line = board;
    for &column in &analysis.best_line {
        assert!(game.column_height(&line, column) < height);
        line = game.drop_disc(&line, column);
    }
    assert!(game.is_won(&line) || line.mask.count_ones() == width * height);
    true
}

#[test]
fn search_agrees_with_the_table_on_every_position_of_4_by_4() {
    agrees_with_the_table(4, 4, 1);
}

/// History and killer moves order the moves differently, and the answers stay the table's.
#[test]
fn the_move_heuristics_keep_the_answers() {
    let both = Heuristics {
        history: true,
        killers: true,
    };
    agrees_with_the_table_ordered::<u64>(4, 4, 1, both);
    agrees_with_the_table_ordered::<u64>(5, 4, 31, both);
}

/// The search on 128-bit words (boards past 64 bits) answers as the table does, on boards
/// small enough for the table (the same rules as 64-bit words, wider).
#[test]
fn the_128_bit_search_agrees_with_the_table() {
    agrees_with_the_table_ordered::<u128>(4, 4, 1, Heuristics::default());
    agrees_with_the_table_ordered::<u128>(5, 4, 31, Heuristics::default());
}

/// Each heuristic changes the search (a test of the test above: a hook never used would pass
/// it), on a 7 x 6 position of the reference file, 16 plies in (a win in 19 plies).
#[test]
fn each_move_heuristic_changes_the_nodes_searched() {
    let game = ConnectFour::new(7, 6).unwrap();
    let rules = Bitboards::<u64>::new(&game);
    let columns = parse_columns("5227626477452311").unwrap();
    let discs = rules.discs(&game.play_columns(&columns).unwrap());
    let one_thread = Limits {
        threads: 1,
        ..limits()
    };
    let searched = |history: bool, killers: bool| {
        let mut search = Search::new(rules.clone(), 1 << 24).unwrap();
        search.set_heuristics(Heuristics { history, killers });
        let score = search.score(&discs, &one_thread).unwrap();
        (score, search.nodes())
    };
    let plain = searched(false, false);
    for (history, killers) in [(true, false), (false, true)] {
        let ordered = searched(history, killers);
        assert_eq!(ordered.0, plain.0);
        assert_ne!(ordered.1, plain.1, "history {history}, killers {killers}");
    }
}

#[test]
fn search_agrees_with_the_table_on_5_by_4() {
    agrees_with_the_table(5, 4, 7);
}

/// Every position of 5 x 4 (3.2 million), and one index in 97 of 6 x 4 (all of them: the
/// test below, 13 minutes).
#[test]
#[ignore = "minutes; run by .ci/run"]
fn search_agrees_with_the_table_on_every_position_of_5_by_4_and_a_sample_of_6_by_4() {
    agrees_with_the_table(5, 4, 1);
    agrees_with_the_table(6, 4, 97);
}

/// Every board of 6 x 4 the table solved (all 159,643,961 indices looked at): 797 s on this
/// machine's two cores (2026-12-04), so not in CI; run by hand (`cargo test -p
/// perfect-play --lib -- --ignored the_table_agrees_with_search_on_every_board_of_6_by_4`).
#[test]
#[ignore = "13 minutes; by hand"]
fn the_table_agrees_with_search_on_every_board_of_6_by_4() {
    agrees_with_the_table(6, 4, 1);
}

/// The 200 published 7 x 6 positions (`moves score outcome remoteness` a line).
fn published_7_by_6_lines() -> impl Iterator<Item = &'static str> {
    include_str!("../../../../tests/reference/connect_four_7x6_dev.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
}

#[test]
fn the_published_7_by_6_positions_score_as_pons_solver_found() {
    let game = ConnectFour::new(7, 6).unwrap();
    let rules = Bitboards::<u64>::new(&game);
    let search = Search::new(rules.clone(), 1 << 26).unwrap();
    let mut checked = 0;
    for line in published_7_by_6_lines() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let columns = parse_columns(fields[0]).unwrap();
        let pons: i32 = fields[1].parse().unwrap();
        let remoteness: u32 = fields[3].parse().unwrap();
        let discs = rules.discs(&game.play_columns(&columns).unwrap());
        let score = search.score(&discs, &limits()).unwrap();
        assert_eq!(score, pons, "{line}");
        assert_eq!(rules.value_of(discs.moves, score).1, remoteness, "{line}");
        assert_eq!(
            format!("{:?}", rules.value_of(discs.moves, score).0).to_lowercase(),
            fields[2]
        );
        checked += 1;
    }
    assert_eq!(checked, 200);
}

/// The best line is the same whatever the table holds: a fresh searcher on two threads and
/// one warmed by other questions give the same line, and it keeps the score to the end.
#[test]
fn the_best_line_does_not_depend_on_the_table() {
    let game = ConnectFour::new(7, 6).unwrap();
    let rules = Bitboards::<u64>::new(&game);
    let warm = Search::new(rules.clone(), 1 << 24).unwrap();
    let lines: Vec<&str> = published_7_by_6_lines().take(40).collect();
    for line in lines.iter().rev() {
        let columns = parse_columns(line.split_whitespace().next().unwrap()).unwrap();
        warm.analyse(
            &rules.discs(&game.play_columns(&columns).unwrap()),
            &limits(),
        )
        .unwrap();
    }
    for line in &lines {
        let columns = parse_columns(line.split_whitespace().next().unwrap()).unwrap();
        let discs = rules.discs(&game.play_columns(&columns).unwrap());
        let fresh = Search::new(rules.clone(), 1 << 24).unwrap();
        let first = fresh.analyse(&discs, &limits()).unwrap();
        let again = warm.analyse(&discs, &limits()).unwrap();
        assert_eq!(first.best_line, again.best_line, "{line}");
        let mut board = game.play_columns(&columns).unwrap();
        for &column in &first.best_line {
            board = game.drop_disc(&board, column);
        }
        let (_, remoteness) = rules.value_of(discs.moves, first.score);
        assert_eq!(first.best_line.len() as u32, remoteness, "{line}");
        assert!(
            game.is_won(&board) || board.mask.count_ones() == 42,
            "{line}"
        );
    }
}

#[test]
fn a_node_budget_ends_with_proven_bounds() {
    let game = ConnectFour::new(7, 6).unwrap();
    let rules = Bitboards::<u64>::new(&game);
    let search = Search::new(rules.clone(), 1 << 22).unwrap();
    let start = rules.discs(&game.empty());
    let limits = Limits {
        nodes: Some(100_000),
        ..limits()
    };
    let stopped = search.score(&start, &limits).unwrap_err();
    // The first player wins with their last disc (score 1): whatever was proven holds it.
    assert!(
        stopped.bounds.lower <= 1 && 1 <= stopped.bounds.upper,
        "{stopped}"
    );
    assert!(
        stopped.nodes >= 100_000 && stopped.nodes < 200_000,
        "{}",
        stopped.nodes
    );
    let cancel = Limits::default();
    cancel.cancel.cancel();
    assert!(search.score(&start, &cancel).is_err());
}

/// Every move's value stopped by a node budget, on one thread (the moves one by one) and on
/// two (side by side): the bounds proven still hold the empty board's score, and are finite.
#[test]
fn every_moves_value_stopped_by_a_budget_keeps_proven_bounds() {
    let game = ConnectFour::new(7, 6).unwrap();
    let rules = Bitboards::<u64>::new(&game);
    let start = rules.discs(&game.empty());
    for threads in [1, 2] {
        let search = Search::new(rules.clone(), 1 << 22).unwrap();
        let limits = Limits {
            nodes: Some(300_000),
            threads,
            ..Limits::default()
        };
        let stopped = search.analyse(&start, &limits).unwrap_err();
        let Bounds { lower, upper } = stopped.bounds;
        assert!(lower <= 1 && 1 <= upper, "{threads} threads: {stopped}");
        assert!(-21 <= lower && upper <= 21, "{threads} threads: {stopped}");
        assert!(stopped.nodes >= 300_000, "{threads} threads: {stopped}");
    }
}

/// Questions asked of one searcher at once (a batch's lines side by side) each count their
/// own nodes: a node budget stops each at its own, whatever the other visits.
#[test]
fn questions_asked_at_once_count_their_own_nodes() {
    let game = ConnectFour::new(7, 6).unwrap();
    let rules = Bitboards::<u64>::new(&game);
    let search = Search::new(rules.clone(), 1 << 22).unwrap();
    let start = rules.discs(&game.empty());
    let after_4 = rules.discs(&game.play_columns(&[3]).unwrap());
    let bounded = |nodes| Limits {
        nodes: Some(nodes),
        threads: 1,
        ..Limits::default()
    };
    let (small, large) = rayon::join(
        || search.score(&start, &bounded(100_000)).unwrap_err(),
        || search.score(&after_4, &bounded(1_000_000)).unwrap_err(),
    );
    // A worker looks at its budget every 4,096 nodes.
    assert!((100_000..110_000).contains(&small.nodes), "{small}");
    assert!((1_000_000..1_010_000).contains(&large.nodes), "{large}");
    assert!(search.nodes() >= small.nodes + large.nodes);
}

/// A book of 5 x 4 to 6 plies: every score in it is the table's; a position it covers with
/// its moves is read from it alone and equals the table (value, every move, a best line
/// carried on past the book's edge); a search that passes through it agrees too.
#[test]
fn a_book_agrees_with_the_table_and_answers_without_search() {
    use crate::search::book;
    let game = ConnectFour::new(5, 4).unwrap();
    let table = solve(&game, &Options::default(), &|_| {}).unwrap();
    let rules = Bitboards::<u64>::new(&game);
    let value = |discs: &Discs| {
        let r = table
            .record(table_index(&game, &rules.board(discs)))
            .unwrap();
        (r.outcome().unwrap(), r.remoteness().unwrap())
    };
    let start = rules.discs(&crate::game::Game::start(&game));
    let positions = book::positions(&rules, &start, 6, 1 << 20).unwrap();
    // One per mirror pair: after 1 ply 3 of 5 (columns 1-2, 3, 4-5), after 2 plies 13 of 25
    // (only 3 then 3 is its own mirror image).
    let at = |plies| positions.iter().filter(|p| p.moves == plies).count();
    assert_eq!((at(0), at(1), at(2)), (1, 3, 13));
    let search = Search::new(rules.clone(), 1 << 22).unwrap();
    let mut seen = Vec::new();
    let scores = search
        .score_all(&positions, Default::default(), &limits(), &mut |i, _| {
            seen.push(i)
        })
        .unwrap();
    assert_eq!(seen.len(), positions.len());
    // Deepest first.
    assert!(
        seen.windows(2)
            .all(|w| positions[w[0]].moves >= positions[w[1]].moves)
    );
    for (p, &s) in positions.iter().zip(&scores) {
        assert_eq!(rules.value_of(p.moves, s), value(p), "{p:?}");
    }
    // Given the deepest positions' scores (a build resumed), the others come from their
    // moves: no search at all, the same scores.
    let deepest: std::collections::HashMap<u128, i32> = positions
        .iter()
        .zip(&scores)
        .filter(|(p, _)| p.moves == 6)
        .map(|(p, &s)| (rules.key(p).into(), s))
        .collect();
    let cold = Search::new(rules.clone(), 1 << 22).unwrap();
    let shallower: Vec<Discs> = positions.iter().filter(|p| p.moves < 6).copied().collect();
    let from_moves = cold
        .score_all(&shallower, deepest, &limits(), &mut |_, _| {})
        .unwrap();
    assert_eq!(cold.nodes(), 0);
    let expected: Vec<i32> = positions
        .iter()
        .zip(&scores)
        .filter(|(p, _)| p.moves < 6)
        .map(|(_, &s)| s)
        .collect();
    assert_eq!(from_moves, expected);
    let book = book::Book::new(&rules, &positions, scores.clone()).unwrap();
    assert_eq!(book.len(), positions.len());
    assert!(book::Book::new(&rules, &positions, scores[1..].to_vec()).is_err());
    let mut fresh = Search::new(rules.clone(), 1 << 22).unwrap();
    fresh.set_book(std::sync::Arc::new(book));
    for p in positions.iter().filter(|p| p.moves < 6) {
        let analysis = fresh.analyse_in_book(p).expect("every move is in the book");
        assert_eq!(analysis.nodes, 0);
        assert_eq!(rules.value_of(p.moves, analysis.score), value(p));
        for m in &analysis.moves {
            if let After::Continue(next) = m.after {
                let (o, r) = value(&next);
                assert_eq!(rules.value_of(p.moves, m.score), (o.flip(), r + 1));
            }
        }
        // The line through the book, then on by search: the moves keep the value to the end.
        let mut line = analysis.best_line.clone();
        let mut edge = *p;
        let mut score = analysis.score;
        for &c in &line {
            match rules.moves(&edge).into_iter().find(|m| m.0 == c).unwrap().1 {
                After::Continue(next) => {
                    edge = next;
                    score = -score;
                }
                After::Ends(_) => break,
            }
        }
        if !analysis.best_line_complete {
            line.extend(fresh.line_from_score(&edge, score, &limits()).unwrap().0);
        }
        let mut board = rules.board(p);
        for &column in &line {
            board = game.drop_disc(&board, column);
        }
        assert!(game.is_won(&board) || board.mask.count_ones() == 20);
        assert_eq!(line.len() as u32, value(p).1, "{p:?}");
    }
    // Positions at the edge: in the book, but their moves lead out of it. Each move is
    // searched, the book's score of the position a floor under what it leads to.
    for edge in positions.iter().filter(|p| p.moves == 6) {
        assert!(fresh.analyse_in_book(edge).is_none());
        let searched = fresh.analyse(edge, &limits()).unwrap();
        assert_eq!(rules.value_of(6, searched.score), value(edge));
        for m in &searched.moves {
            if let After::Continue(next) = m.after {
                let (o, r) = value(&next);
                assert_eq!(rules.value_of(6, m.score), (o.flip(), r + 1), "{edge:?}");
            }
        }
    }
    // The search stops at the book: from the start, only the book's root is looked at.
    let before = fresh.nodes();
    assert_eq!(fresh.score(&start, &limits()).unwrap(), scores[0]);
    assert!(fresh.nodes() - before < 10, "{}", fresh.nodes() - before);
}

/// The even-rows bound never passes a position's exact score (every position of 5 x 4, 4 x 4
/// and 3 x 4, even heights, against the table), and it decides some of them, losses by more
/// than the least among them.
#[test]
fn the_even_rows_bound_holds_on_every_small_board() {
    for (width, height) in [(4, 4), (5, 4), (3, 4)] {
        let game = ConnectFour::new(width, height).unwrap();
        let table = solve(&game, &Options::default(), &|_| {}).unwrap();
        let rules = Bitboards::<u64>::new(&game);
        let (mut bounded, mut ties, mut losses, mut larger_losses) = (0, 0, 0, 0);
        for index in 0..game.index_count() {
            let Some(board) = game.position(index) else {
                continue;
            };
            let discs = rules.discs(&board);
            let Some(bound) = rules.even_rows_bound(&discs, rules.playable(discs.mask)) else {
                continue;
            };
            let record = table.record(table_index(&game, &board)).unwrap();
            let score = rules.score_of(
                discs.moves,
                record.outcome().unwrap(),
                record.remoteness().unwrap(),
            );
            assert!(
                score <= bound,
                "{width} x {height}: {board:?} scores {score} > {bound}"
            );
            bounded += 1;
            if bound == 0 {
                ties += 1;
            } else {
                losses += 1;
            }
            if bound < -1 {
                larger_losses += 1;
            }
        }
        // Three columns hold no line across for the even rows to make.
        assert!(
            ties > 0 && (losses > 0 || width < 4),
            "{width} x {height}: {bounded} bounded, {ties} at 0, {losses} losses"
        );
        // A line low on the board bounds the loss past the least one.
        assert!(
            larger_losses > 0 || width < 4,
            "{width} x {height}: {larger_losses} bounds below -1"
        );
    }
    // Odd heights have no such bound.
    let rules = Bitboards::<u64>::new(&ConnectFour::new(7, 5).unwrap());
    assert_eq!(
        rules.even_rows_bound(&rules.discs(&ConnectFour::new(7, 5).unwrap().empty()), 1),
        None
    );
}

/// The positions of `c4_positions.txt` that take the search 10-60 M nodes each with the
/// tests' 64 MiB table (155 M of the 163 M nodes of all 10 x 6 lines, 27 s of the test
/// suite's 2 cores): only the ignored test searches them.
const COSTLY_C4_POSITIONS: [&str; 6] = [
    "2092695459079364",
    "2975315084902917",
    "6878568253058774",
    "5278219164403205704",
    "6623700900807098155",
    "391534558790693",
];

/// The score of every position in `c4_positions.txt` on `board` (`10x6`, `9x5`), as the
/// file says: c4's verified scores, read through the conversion of its 0-based columns;
/// those of [`COSTLY_C4_POSITIONS`] only when `costly`.
fn agrees_with_c4_on<B: Bits>(board: &str, costly: bool) -> usize {
    let mut checked = 0;
    let mut search: Option<(ConnectFour, Search<Bitboards<B>>)> = None;
    for line in include_str!("c4_positions.txt").lines() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        if line.starts_with('#')
            || fields[0] != board
            || (!costly && COSTLY_C4_POSITIONS.contains(&fields[2]))
        {
            continue;
        }
        let (size, set, moves, score) = (fields[0], fields[1], fields[2], fields[3]);
        let (width, height) = size.split_once('x').unwrap();
        let (game, search) = search.get_or_insert_with(|| {
            let game = ConnectFour::new(width.parse().unwrap(), height.parse().unwrap()).unwrap();
            let search = Search::new(Bitboards::<B>::new(&game), 64 << 20).unwrap();
            (game, search)
        });
        let ours = crate::games::connect_four::write_columns(
            &crate::games::connect_four::from_zero_based_digits(moves).unwrap(),
        );
        let board = game
            .play_columns(&parse_columns(&ours).unwrap())
            .unwrap_or_else(|| panic!("{size} {set} {moves}: not a game"));
        let discs = search.game().discs(&board);
        assert_eq!(
            search.score(&discs, &limits()).unwrap(),
            score.parse::<i32>().unwrap(),
            "{size} {set} {moves} (ours {ours})"
        );
        checked += 1;
    }
    checked
}

/// 10 x 6 takes 70 bits: searched on 128-bit words, its positions score as c4's tests say
/// (120 endgame positions and 24 of the midgame; the other six in the ignored test below).
#[test]
fn ten_by_six_positions_score_as_c4_verified_them() {
    assert_eq!(agrees_with_c4_on::<u128>("10x6", false), 144);
}

/// Every 10 x 6 position of the file, the six costly ones too (about 13 s in a release
/// build, 24 s in the tests' build on 2 cores):
/// `cargo test --workspace --release --lib -- --ignored every_ten_by_six`.
#[test]
#[ignore = "155 M nodes: a quarter of a minute or more"]
fn every_ten_by_six_position_scores_as_c4_verified_it() {
    assert_eq!(agrees_with_c4_on::<u128>("10x6", true), 150);
}

/// 9 x 5 fits 64 bits; the 128-bit words find the same scores.
#[test]
fn nine_by_five_positions_score_as_c4_verified_them_on_either_word() {
    assert_eq!(agrees_with_c4_on::<u64>("9x5", false), 140);
    assert_eq!(agrees_with_c4_on::<u128>("9x5", false), 140);
}

/// Outcome for the first player and the move that ends the game (the ply of the winning
/// disc; a tie fills the board) from the empty board, by the search on words of `B`, as
/// Christophe Steininger's README tabulates them (github.com/ChristopheSteininger/c4:
/// "Outcome" and "Last Move"; John Tromp's table for width + height <= 15, in
/// ../shared/reference/solved_games.md too).
fn solves_as_published<B: Bits>(width: u32, height: u32, outcome: Outcome, last_move: u32) {
    let game = ConnectFour::new(width, height).unwrap();
    let search = Search::new(Bitboards::<B>::new(&game), 64 << 20).unwrap();
    let empty = search.game().discs(&game.empty());
    let score = search.score(&empty, &limits()).unwrap();
    assert_eq!(
        search.game().value_of(0, score),
        (outcome, last_move),
        "{width} x {height}"
    );
}

/// The published table: `(width, height, first player's outcome, last move)`.
const PUBLISHED: [(u32, u32, Outcome, u32); 22] = [
    (4, 4, Outcome::Tie, 16),
    (5, 4, Outcome::Tie, 20),
    (6, 4, Outcome::Loss, 24),
    (7, 4, Outcome::Tie, 28),
    (4, 5, Outcome::Tie, 20),
    (5, 5, Outcome::Tie, 25),
    (6, 5, Outcome::Tie, 30),
    (4, 6, Outcome::Tie, 24),
    (5, 6, Outcome::Tie, 30),
    (4, 7, Outcome::Tie, 28),
    (4, 8, Outcome::Tie, 32),
    // About 2 s to a minute each here (BENCHMARKS.md): the ignored test below.
    (8, 4, Outcome::Loss, 32),
    (7, 5, Outcome::Tie, 35),
    (6, 6, Outcome::Loss, 36),
    (5, 7, Outcome::Tie, 35),
    (4, 9, Outcome::Tie, 36),
    (4, 10, Outcome::Tie, 40),
    (4, 11, Outcome::Tie, 44),
    (9, 4, Outcome::Loss, 36),
    (5, 8, Outcome::Tie, 40),
    (7, 6, Outcome::Win, 41),
    (6, 7, Outcome::Win, 41),
];

/// Every board of the table that takes under a second here, on 64-bit words, and the ones
/// with most to tell apart (a second-player win, ties of either shape) on 128-bit words.
#[test]
fn small_boards_end_as_the_published_table_says_on_either_word() {
    for &(width, height, outcome, last_move) in &PUBLISHED[..11] {
        solves_as_published::<u64>(width, height, outcome, last_move);
    }
    for &(width, height, outcome, last_move) in &[PUBLISHED[2], PUBLISHED[5], PUBLISHED[7]] {
        solves_as_published::<u128>(width, height, outcome, last_move);
    }
}

/// The rest of the table that this search finishes within minutes (`cargo test --release
/// -- --ignored`); the boards past 64 bits in that table take longer (BENCHMARKS.md).
#[test]
#[ignore = "minutes: the larger boards of the published table"]
fn larger_boards_end_as_the_published_table_says() {
    for &(width, height, outcome, last_move) in &PUBLISHED[11..] {
        solves_as_published::<u64>(width, height, outcome, last_move);
    }
}
