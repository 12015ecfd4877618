//! Each puzzle's fast solver against the reference solver on every small input, and the
//! published examples (LeetCode's problem statements, cited by number).

use super::*;
use crate::{Game, Solver};
use proptest::prelude::*;

fn limits() -> Limits {
    Limits {
        line: true,
        ..Limits::default()
    }
}

/// Every row of `len` values from `values`.
fn rows(len: usize, values: &[i64]) -> Vec<Vec<i64>> {
    let mut all = vec![vec![]];
    for _ in 0..len {
        all = all
            .into_iter()
            .flat_map(|row: Vec<i64>| {
                values.iter().map(move |&v| {
                    let mut r = row.clone();
                    r.push(v);
                    r
                })
            })
            .collect();
    }
    all
}

/// The fast solution agrees with the reference solver at `position`: value, every move's
/// value, and a best line that keeps the value.
fn agrees<G: Game>(
    fast: &Solution<G::Move>,
    solver: &mut Solver<G>,
    position: &G::Position,
    what: &str,
) where
    G::Move: PartialEq + std::fmt::Debug,
{
    let analysis = solver.analyse(position);
    assert_eq!(fast.margin, analysis.value.score, "{what}: margin");
    if let Some(r) = fast.remoteness {
        assert_eq!(
            r,
            u64::from(analysis.value.remoteness),
            "{what}: remoteness"
        );
    }
    assert_eq!(
        fast.moves_total,
        Some(analysis.moves.len() as u64),
        "{what}: moves"
    );
    let winning = analysis.moves.iter().filter(|m| m.value.score > 0).count() as u64;
    assert_eq!(fast.winning_total, Some(winning), "{what}: winning moves");
    for m in &fast.moves {
        let reference = analysis
            .moves
            .iter()
            .find(|r| r.mv == m.mv)
            .unwrap_or_else(|| panic!("{what}: move {:?} is not legal", m.mv));
        assert_eq!(m.margin, reference.value.score, "{what}: move {:?}", m.mv);
        if let Some(r) = m.remoteness {
            assert_eq!(
                r,
                u64::from(reference.value.remoteness),
                "{what}: move {:?}",
                m.mv
            );
        }
    }
    if let Some(first) = fast.moves.first() {
        assert_eq!(
            first.margin, analysis.value.score,
            "{what}: the best move first"
        );
        if let (Some(r), Some(mr)) = (fast.remoteness, first.remoteness) {
            assert_eq!(mr, r, "{what}: the best move first");
        }
    }
}

/// A line is perfect when each of its moves keeps the value: the game replayed along it
/// scores the margin and lasts the remoteness.
fn line_keeps_value<G: Game>(
    game: &G,
    start: G::Position,
    line: &[G::Move],
    fast: &Solution<G::Move>,
    what: &str,
) {
    let mut position = start;
    let mut sign = 1i64;
    let mut score = 0i64;
    for (k, mv) in line.iter().enumerate() {
        match game.play(&position, mv) {
            crate::Transition::Continue {
                position: next,
                reward,
            } => {
                score += sign * reward;
                sign = -sign;
                position = next;
            }
            crate::Transition::End(ending) => {
                score += sign * ending.score();
                assert_eq!(k + 1, line.len(), "{what}: the line goes on after the end");
                assert_eq!(
                    score.signum(),
                    fast.margin.signum(),
                    "{what}: the line's outcome"
                );
                return;
            }
        }
    }
    assert!(
        game.moves(&position).is_empty(),
        "{what}: the line stops early"
    );
    score += sign * game.no_moves(&position).score();
    if fast.margin.abs() > 1 || matches!(game.no_moves(&position), crate::Ending::Score(_)) {
        assert_eq!(score, fast.margin, "{what}: the line's margin");
    } else {
        assert_eq!(
            score.signum(),
            fast.margin.signum(),
            "{what}: the line's outcome"
        );
    }
    if let Some(r) = fast.remoteness {
        assert_eq!(line.len() as u64, r, "{what}: the line's length");
    }
}

#[test]
fn stone_game_2_agrees_with_the_solver_on_every_small_row() {
    for len in 0..=8 {
        for row in rows(len, &[1, 2, 5]) {
            for m in 1..=3 {
                let fast = stone_game_2::solve(&row, m, &limits()).unwrap();
                let game = stone_game_2::StoneGame2(row.clone());
                let what = format!("{row:?} M={m}");
                agrees(&fast, &mut Solver::new(game.clone()), &(0, m), &what);
                line_keeps_value(&game, (0, m), fast.line.as_ref().unwrap(), &fast, &what);
                assert_eq!(
                    fast.margin,
                    stone_game_2::margin_by_recurrence(&row, m),
                    "{what}"
                );
            }
        }
    }
}

#[test]
fn stone_game_2_published_examples() {
    // LeetCode 1140: Alice gets 10 of 26 stones, and 104 of 115.
    let a = stone_game_2::solve(&[2, 7, 9, 4, 4], 1, &limits()).unwrap();
    assert_eq!(a.margin, 2 * 10 - 26);
    let b = stone_game_2::solve(&[1, 2, 3, 4, 5, 100], 1, &limits()).unwrap();
    assert_eq!(b.margin, 2 * 104 - 115);
}

proptest! {
    #[test]
    fn stone_game_2_agrees_with_the_recurrence(row in proptest::collection::vec(1i64..50, 0..40), m in 1usize..4) {
        let fast = stone_game_2::solve(&row, m, &limits()).unwrap();
        prop_assert_eq!(fast.margin, stone_game_2::margin_by_recurrence(&row, m));
        let mut solver = Solver::new(stone_game_2::StoneGame2(row.clone()));
        let value = solver.value(&(0, m));
        prop_assert_eq!(fast.remoteness, Some(u64::from(value.remoteness)));
    }

    #[test]
    fn stone_game_6_agrees_with_the_solver(pairs in proptest::collection::vec((-4i64..6, -4i64..6), 0..9)) {
        let (mine, theirs): (Vec<i64>, Vec<i64>) = pairs.into_iter().unzip();
        let fast = stone_game_6::solve(&mine, &theirs, &limits()).unwrap();
        let game = stone_game_6::StoneGame6 { first: mine.clone(), second: theirs.clone() };
        let moves: Vec<usize> = fast.moves.iter().map(|m| m.mv - 1).collect();
        let shifted = Solution { moves: fast.moves.iter().zip(&moves).map(|(m, &mv)| Scored { mv, ..m.clone() }).collect(), line: None, ..fast.clone() };
        agrees(&shifted, &mut Solver::new(game), &(0, true), &format!("{mine:?} {theirs:?}"));
    }

    #[test]
    fn stone_game_7_agrees_with_the_recurrence(row in proptest::collection::vec(-20i64..100, 0..60)) {
        let fast = stone_game_7::solve(&row, &limits()).unwrap();
        prop_assert_eq!(fast.margin, stone_game_7::margin_by_recurrence(&row));
    }

    #[test]
    fn stone_game_8_agrees_with_the_recurrence(row in proptest::collection::vec(-50i64..50, 0..80)) {
        let fast = stone_game_8::solve(&row, &limits()).unwrap();
        prop_assert_eq!(fast.margin, stone_game_8::margin_by_recurrence(&row));
    }
}

#[test]
fn stone_game_3_agrees_with_the_solver_on_every_small_row() {
    for len in 0..=6 {
        for row in rows(len, &[-3, -1, 0, 1, 2]) {
            let fast = stone_game_3::solve(&row, &limits()).unwrap();
            let game = stone_game_3::StoneGame3(row.clone());
            let what = format!("{row:?}");
            agrees(&fast, &mut Solver::new(game.clone()), &0, &what);
            line_keeps_value(&game, 0, fast.line.as_ref().unwrap(), &fast, &what);
        }
    }
}

#[test]
fn stone_game_3_published_examples() {
    // LeetCode 1406: Bob wins, Alice wins, a tie.
    let margin = |row: &[i64]| stone_game_3::solve(row, &limits()).unwrap().margin;
    assert!(margin(&[1, 2, 3, 7]) < 0);
    assert!(margin(&[1, 2, 3, -9]) > 0);
    assert_eq!(margin(&[1, 2, 3, 6]), 0);
}

#[test]
fn stone_game_6_agrees_with_the_solver_on_every_small_row_and_its_line_is_perfect() {
    for len in 0..=4 {
        for mine in rows(len, &[1, 2, 4]) {
            for theirs in rows(len, &[1, 3]) {
                let fast = stone_game_6::solve(&mine, &theirs, &limits()).unwrap();
                let game = stone_game_6::StoneGame6 {
                    first: mine.clone(),
                    second: theirs.clone(),
                };
                let mut solver = Solver::new(game.clone());
                let value = solver.value(&(0, true));
                assert_eq!(fast.margin, value.score, "{mine:?} {theirs:?}");
                // The line names places in the row as it is; replay it on the indices left.
                let mut left: Vec<usize> = (0..len).collect();
                let mut position = (0u32, true);
                let mut score = 0;
                let mut sign = 1;
                for &place in fast.line.as_ref().unwrap() {
                    let i = left.remove(place - 1);
                    if let crate::Transition::Continue {
                        position: next,
                        reward,
                    } = game.play(&position, &i)
                    {
                        score += sign * reward;
                        sign = -sign;
                        position = next;
                    }
                }
                assert_eq!(score, fast.margin, "{mine:?} {theirs:?}: the line");
            }
        }
    }
}

#[test]
fn stone_game_6_published_examples() {
    // LeetCode 1686: Alice wins, a tie, Bob wins.
    let margin = |a: &[i64], b: &[i64]| stone_game_6::solve(a, b, &limits()).unwrap().margin;
    assert!(margin(&[1, 3], &[2, 1]) > 0);
    assert_eq!(margin(&[1, 2], &[3, 1]), 0);
    assert!(margin(&[2, 4, 3], &[1, 6, 7]) < 0);
}

#[test]
fn stone_game_7_agrees_with_the_solver_on_every_small_row() {
    for len in 0..=7 {
        for row in rows(len, &[1, 2, 7]) {
            let fast = stone_game_7::solve(&row, &limits()).unwrap();
            let game = stone_game_7::StoneGame7(row.clone());
            let what = format!("{row:?}");
            agrees(&fast, &mut Solver::new(game.clone()), &(0, len), &what);
            line_keeps_value(&game, (0, len), fast.line.as_ref().unwrap(), &fast, &what);
        }
    }
}

#[test]
fn stone_game_7_published_examples() {
    // LeetCode 1690: differences 6 and 122.
    let margin = |row: &[i64]| stone_game_7::solve(row, &limits()).unwrap().margin;
    assert_eq!(margin(&[5, 3, 1, 4, 2]), 6);
    assert_eq!(margin(&[7, 90, 5, 1, 100, 10, 10, 2]), 122);
}

#[test]
fn stone_game_8_agrees_with_the_solver_on_every_small_row() {
    for len in 0..=6 {
        for row in rows(len, &[-3, -1, 0, 2]) {
            let fast = stone_game_8::solve(&row, &limits()).unwrap();
            let game = stone_game_8::StoneGame8(row.clone());
            let what = format!("{row:?}");
            agrees(&fast, &mut Solver::new(game.clone()), &row, &what);
            line_keeps_value(
                &game,
                row.clone(),
                fast.line.as_ref().unwrap(),
                &fast,
                &what,
            );
        }
    }
}

#[test]
fn stone_game_8_published_examples() {
    // LeetCode 1872: differences 5, 13 and -22.
    let margin = |row: &[i64]| stone_game_8::solve(row, &limits()).unwrap().margin;
    assert_eq!(margin(&[-1, 2, -3, 4, -5]), 5);
    assert_eq!(margin(&[7, -6, 5, 10, 5, -2, -6]), 13);
    assert_eq!(margin(&[-10, -12]), -22);
}

#[test]
fn stone_game_9_counting_agrees_with_the_solver_on_every_small_count() {
    for zeros in 0..=3 {
        for ones in 0..=4 {
            for twos in 0..=4 {
                let mut stones = vec![3; zeros];
                stones.extend(vec![1; ones]);
                stones.extend(vec![2; twos]);
                let fast = stone_game_9::solve(&stones, 0, false, &limits()).unwrap();
                let game = stone_game_9::StoneGame9(stones.clone());
                let mut solver = Solver::new(game.clone());
                let start = game.start();
                let analysis = solver.analyse(&start);
                let what = format!("{zeros} {ones} {twos}");
                assert_eq!(fast.margin, analysis.value.score, "{what}");
                assert_eq!(
                    fast.remoteness,
                    Some(u64::from(analysis.value.remoteness)),
                    "{what}"
                );
                for m in &fast.moves {
                    let reference = analysis
                        .moves
                        .iter()
                        .find(|r| start.0[r.mv] == m.mv)
                        .unwrap();
                    assert_eq!(m.margin, reference.value.score, "{what}: {}", m.mv);
                    assert_eq!(
                        m.remoteness,
                        Some(u64::from(reference.value.remoteness)),
                        "{what}: {}",
                        m.mv
                    );
                }
                // Every position reached mid-game too (the removed sum 1 or 2, either side).
                for removed in 1..=2u8 {
                    for second in [false, true] {
                        let counts = stone_game_9::Counts::of(&stones, removed, second);
                        let value = solver.value(&(start.0.clone(), i64::from(removed), second));
                        assert_eq!(
                            counts.value(),
                            (value.score, u64::from(value.remoteness)),
                            "{what} {removed} {second}"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn stone_game_9_published_examples() {
    // LeetCode 2029: [2,1] Alice wins; [2] and [5,1,2,4,3] Bob wins.
    let margin = |row: &[i64]| {
        stone_game_9::solve(row, 0, false, &limits())
            .unwrap()
            .margin
    };
    assert_eq!(margin(&[2, 1]), 1);
    assert_eq!(margin(&[2]), -1);
    assert_eq!(margin(&[5, 1, 2, 4, 3]), -1);
}

#[test]
fn the_divisor_game_agrees_with_the_solver_up_to_400() {
    let mut solver = Solver::new(divisor::DivisorGame(1));
    for n in 1..=400u64 {
        let fast = divisor::solve(&n.into(), &limits()).unwrap();
        let moves: Vec<Scored<u64>> = fast
            .moves
            .iter()
            .map(|m| Scored {
                mv: u64::try_from(&m.mv).unwrap(),
                margin: m.margin,
                remoteness: m.remoteness,
            })
            .collect();
        let as_u64 = Solution {
            moves,
            line: None,
            margin: fast.margin,
            remoteness: fast.remoteness,
            moves_total: fast.moves_total,
            winning_total: fast.winning_total,
        };
        agrees(&as_u64, &mut solver, &n, &format!("{n}"));
        let line: Vec<u64> = fast
            .line
            .unwrap()
            .iter()
            .map(|x| u64::try_from(x).unwrap())
            .collect();
        line_keeps_value(&divisor::DivisorGame(n), n, &line, &as_u64, &format!("{n}"));
    }
    // LeetCode 1025: 2 wins, 3 loses; any size by the theorem.
    let big: num_bigint::BigUint = "1000000000000000000000000000000000000000000"
        .parse()
        .unwrap();
    let answer = divisor::solve(&big, &limits()).unwrap();
    assert_eq!(answer.margin, 1);
    assert_eq!(answer.remoteness, None);
    assert_eq!(
        divisor::solve(&(&big + 1u32), &limits()).unwrap().margin,
        -1
    );
}

#[test]
fn chalkboard_xor_agrees_with_the_solver_on_every_small_board() {
    let mut solver = Solver::new(chalkboard::Chalkboard);
    for len in 0..=6 {
        for board in rows(len, &[0, 1, 2, 3, 5]) {
            let board: Vec<u64> = board.iter().map(|&v| v as u64).collect();
            let mut sorted = board.clone();
            sorted.sort_unstable();
            let fast = chalkboard::solve(&board, &limits()).unwrap();
            agrees(&fast, &mut solver, &sorted, &format!("{board:?}"));
            line_keeps_value(
                &chalkboard::Chalkboard,
                sorted,
                fast.line.as_ref().unwrap(),
                &fast,
                &format!("{board:?}"),
            );
        }
    }
    // LeetCode 810: [1,1,2] loses; [0,1] and [1,2,3] win.
    let margin = |b: &[u64]| chalkboard::solve(b, &limits()).unwrap().margin;
    assert_eq!(margin(&[1, 1, 2]), -1);
    assert_eq!(margin(&[0, 1]), 1);
    assert_eq!(margin(&[1, 2, 3]), 1);
    // Past the search, the theorem alone: outcome without remoteness.
    let big: Vec<u64> = (1..=1001).collect();
    let answer = chalkboard::solve(&big, &limits()).unwrap();
    assert_eq!((answer.margin, answer.remoteness), (-1, None));
}

#[test]
fn flip_game_agrees_with_the_solver_on_every_small_string() {
    for len in 0..=11 {
        for mask in 0u32..(1 << len) {
            let s: Vec<bool> = (0..len).map(|i| mask >> i & 1 == 1).collect();
            let fast = flip::solve(&s, &limits()).unwrap();
            let game = flip::FlipGame(s.clone());
            agrees(&fast, &mut Solver::new(game.clone()), &s, &format!("{s:?}"));
        }
    }
    // LeetCode 294: "++++" wins, "+" loses.
    assert_eq!(
        flip::solve(&flip::parse("++++").unwrap(), &limits())
            .unwrap()
            .margin,
        1
    );
    assert_eq!(
        flip::solve(&flip::parse("+").unwrap(), &limits())
            .unwrap()
            .margin,
        -1
    );
    // Long strings by the octal game's period: outcome and every winning move, at once.
    let long = flip::parse(&"+".repeat(1_000_000)).unwrap();
    let answer = flip::solve(&long, &limits()).unwrap();
    assert_eq!(answer.moves_total, Some(999_999));
    assert!(answer.remoteness.is_none());
}

#[test]
fn guess_number_agrees_with_the_recurrence_on_every_range() {
    let n = 70;
    let costs = guess::Costs::compute(n, &limits()).unwrap();
    let dp = guess::costs_by_recurrence(n);
    for (i, row) in dp.iter().enumerate().take(n + 1).skip(1) {
        for (j, &cost) in row.iter().enumerate().take(n + 1).skip(i) {
            assert_eq!(costs.cost(i, j), cost, "{i}..={j}");
        }
    }
    // LeetCode 375: 10 needs 16, 1 needs 0, 2 needs 1.
    let cost = |n: u64| -guess::solve(1, n, &limits()).unwrap().margin;
    assert_eq!(cost(10), 16);
    assert_eq!(cost(1), 0);
    assert_eq!(cost(2), 1);
    assert_eq!(cost(200) as u64, guess::cost_by_recurrence(200));
}

#[test]
fn nim_game_agrees_with_the_solver_up_to_200() {
    let mut solver = Solver::new(nim_game::NimGame(0));
    for n in 0..=200u64 {
        let fast = nim_game::solve(&n.into());
        agrees(&fast, &mut solver, &n, &format!("{n}"));
        line_keeps_value(
            &nim_game::NimGame(n),
            n,
            fast.line.as_ref().unwrap(),
            &fast,
            &format!("{n}"),
        );
    }
    // LeetCode 292: 4 loses, 1 and 2 win; any size.
    assert_eq!(nim_game::solve(&4u32.into()).margin, -1);
    assert_eq!(nim_game::solve(&1u32.into()).margin, 1);
    let big: num_bigint::BigUint = "100000000000000000000000000000000000000001"
        .parse()
        .unwrap();
    assert_eq!(nim_game::solve(&big).margin, 1);
    assert_eq!(
        nim_game::remoteness(&big).to_string(),
        "50000000000000000000000000000000000000001"
    );
}

/// A textbook retrograde analysis of Cat and Mouse (child counters, a queue in order of
/// remoteness), independent of the engine: (margin, remoteness) for every position.
fn cat_and_mouse_by_counters(
    board: &cat_and_mouse::Board,
) -> std::collections::HashMap<cat_and_mouse::Position, (i64, Option<u64>)> {
    use cat_and_mouse::{Animal, Position};
    use std::collections::{HashMap, VecDeque};
    let n = board.nodes() as u32;
    let mut all = Vec::new();
    for mouse in 0..n {
        for cat in 0..n {
            for to_move in [Animal::Mouse, Animal::Cat] {
                all.push(Position {
                    mouse,
                    cat,
                    to_move,
                });
            }
        }
    }
    let mut parents: HashMap<Position, Vec<Position>> = HashMap::new();
    let mut open: HashMap<Position, usize> = HashMap::new();
    let mut value: HashMap<Position, (i64, u64)> = HashMap::new();
    let mut queue = VecDeque::new();
    for &p in &all {
        let moves = board.moves(p);
        open.insert(p, moves.len());
        for node in moves {
            parents.entry(board.after(p, node)).or_default().push(p);
        }
        if board.moves(p).is_empty() {
            let v = match board.no_moves(&p) {
                crate::Ending::Win => 1,
                _ => -1,
            };
            value.insert(p, (v, 0));
            queue.push_back(p);
        }
    }
    while let Some(child) = queue.pop_front() {
        let (v, r) = value[&child];
        for &parent in parents.get(&child).map_or(&[][..], |v| v) {
            if value.contains_key(&parent) {
                continue;
            }
            if v < 0 {
                value.insert(parent, (1, r + 1));
                queue.push_back(parent);
            } else {
                let left = open.get_mut(&parent).unwrap();
                *left -= 1;
                if *left == 0 {
                    value.insert(parent, (-1, r + 1));
                    queue.push_back(parent);
                }
            }
        }
    }
    all.into_iter()
        .map(|p| (p, value.get(&p).map_or((0, None), |&(v, r)| (v, Some(r)))))
        .collect()
}

#[test]
fn cat_and_mouse_agrees_with_a_textbook_retrograde_analysis() {
    // Small graphs from a fixed generator: every position, value and remoteness.
    let mut seed = 12345u64;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for _ in 0..60 {
        let n = 3 + (next() % 6) as usize;
        let mut adjacency = vec![Vec::new(); n];
        for v in 0..n {
            for w in v + 1..n {
                if next() % 3 == 0 {
                    adjacency[v].push(w as u32);
                    adjacency[w].push(v as u32);
                }
            }
        }
        let board = cat_and_mouse::Board::new(adjacency).unwrap();
        let solved = board.solve(&limits()).unwrap();
        for (p, expected) in cat_and_mouse_by_counters(&board) {
            assert_eq!(solved.value(p), expected, "{} at {p:?}", board.notation());
            let answer = solved.analyse(p, &limits());
            if let Some(line) = &answer.line {
                assert_eq!(Some(line.len() as u64), answer.remoteness);
            }
        }
    }
}

#[test]
fn cat_and_mouse_published_examples() {
    use cat_and_mouse::{Animal, Board, Position};
    let start = Position {
        mouse: 1,
        cat: 2,
        to_move: Animal::Mouse,
    };
    // LeetCode 913: a draw, then a mouse win.
    let board = Board::parse("[[2,5],[3],[0,4,5],[1,4,5],[2,3],[0,2,3]]").unwrap();
    assert_eq!(board.solve(&limits()).unwrap().value(start).0, 0);
    let board = Board::parse("1,3/0/3/0,2").unwrap();
    assert_eq!(board.solve(&limits()).unwrap().value(start).0, 1);
}

#[test]
fn cat_and_mouse_on_a_grid_agrees_with_the_counters_and_the_published_examples() {
    use cat_and_mouse::{Animal, Board, Position};
    let start = |b: &Board| {
        let (mouse, cat) = b.start_nodes();
        Position {
            mouse,
            cat,
            to_move: Animal::Mouse,
        }
    };
    // LeetCode 1728: the mouse wins the first two, not the third (its turn limit makes
    // endless play the cat's).
    for (grid, cat, mouse, mouse_wins) in [
        ("####F/#C.../M....", 1, 2, true),
        ("M.C...F", 1, 4, true),
        ("M.C...F", 1, 3, false),
    ] {
        let board = Board::grid(grid, cat, mouse).unwrap();
        let solved = board.solve(&limits()).unwrap();
        assert_eq!(solved.value(start(&board)).0 > 0, mouse_wins, "{grid}");
        for (p, expected) in cat_and_mouse_by_counters(&board) {
            assert_eq!(solved.value(p), expected, "{grid} at {p:?}");
        }
    }
    for grid in ["M#./.C./..F", "C..#/.#../M.#F", "MC/F."] {
        let board = Board::grid(grid, 2, 1).unwrap();
        let solved = board.solve(&limits()).unwrap();
        for (p, expected) in cat_and_mouse_by_counters(&board) {
            assert_eq!(solved.value(p), expected, "{grid} at {p:?}");
        }
    }
    assert!(Board::grid("M.C", 1, 1).is_err());
    assert!(Board::grid("MCF/..", 1, 1).is_err());
}
