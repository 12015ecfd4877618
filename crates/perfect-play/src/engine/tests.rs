use super::*;
use crate::game::{Ending, Transition};
use crate::player::Outcome;
use crate::solver::Solver;
use crate::tic_tac_toe::{Board, TicTacToe};
use crate::value::Value;
use proptest::prelude::*;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

fn no_progress(_: &Progress) {}

fn options(threads: usize) -> Options {
    Options {
        threads,
        ..Options::default()
    }
}

/// The record the reference solver's value stands for (win/loss/tie games).
fn record_of(value: Value) -> Record {
    Record::new(value.outcome(), value.remoteness).unwrap()
}

#[test]
fn tic_tac_toe_through_the_engine_matches_the_solver_everywhere() {
    let game = TicTacToe {
        board: Board::empty(),
    };
    let start = Board::empty();
    assert_eq!(
        count_reachable(&game, &start, &Options::default()),
        Ok(5478)
    );
    let mut oracle = Solver::new(game);
    for threads in [1, 2] {
        let solution = solve(&game, &options(threads), &no_progress).unwrap();
        let root = solution.record(game.index(&start)).unwrap();
        assert_eq!(
            (root.outcome(), root.remoteness()),
            (Some(Outcome::Tie), Some(9))
        );
        let mut checked = 0;
        for index in 0..game.index_count() {
            let record = solution.record(index).unwrap();
            match game.position(index) {
                None => assert!(record.is_hole()),
                Some(board) => {
                    assert_eq!(game.index(&board), index, "the index round-trips");
                    assert_eq!(record, record_of(oracle.value(&board)), "{board}");
                    checked += 1;
                }
            }
        }
        // Every legal board, reachable from the empty one or not (a board where both could
        // have won is a hole).
        assert_eq!(checked, solution.positions);
        assert!(checked >= 5478);
    }
}

/// Take 1 to 3 tokens from one pile; the last token wins (or, misère, loses).
struct TakeUpToThree {
    piles: u64,
    misere: bool,
}

impl Game for TakeUpToThree {
    type Position = u64;
    type Move = u64;
    fn start(&self) -> u64 {
        self.piles - 1
    }
    fn moves(&self, pile: &u64) -> Vec<u64> {
        (1..=3).filter(|t| t <= pile).collect()
    }
    fn play(&self, pile: &u64, take: &u64) -> Transition<u64> {
        if self.misere && *take == *pile {
            Transition::End(Ending::Loss)
        } else {
            Transition::to(pile - take)
        }
    }
}

impl IndexedGame for TakeUpToThree {
    fn index_count(&self) -> u64 {
        self.piles
    }
    fn index(&self, pile: &u64) -> u64 {
        *pile
    }
    fn position(&self, index: u64) -> Option<u64> {
        (index < self.piles).then_some(index)
    }
}

#[test]
fn a_subtraction_game_matches_the_solver_in_both_conventions() {
    for misere in [false, true] {
        let game = TakeUpToThree { piles: 300, misere };
        let solution = solve(&game, &options(2), &no_progress).unwrap();
        let mut oracle = Solver::new(TakeUpToThree { piles: 300, misere });
        for pile in 0..300 {
            let expected = record_of(oracle.value(&pile));
            assert_eq!(
                solution.record(pile),
                Some(expected),
                "pile {pile}, misère {misere}"
            );
        }
        assert_eq!(solution.count(Outcome::Draw), 0);
    }
}

/// A game on a directed graph, loops allowed: each node lists its options (an ending for
/// the mover, or a move to another node); a node without options has its own ending.
#[derive(Clone, Debug)]
struct Graph {
    options: Vec<Vec<Edge>>,
    stuck: Vec<Ending>,
    /// Where each tier after the first starts (no tiers: one tier).
    tier_starts: Vec<u64>,
    /// Whether the graph offers un-moves (found by a search of every node's options).
    unmoves: bool,
}

#[derive(Clone, Copy, Debug)]
enum Edge {
    End(Ending),
    To(u64),
}

impl Game for Graph {
    type Position = u64;
    type Move = usize;
    fn start(&self) -> u64 {
        0
    }
    fn moves(&self, node: &u64) -> Vec<usize> {
        (0..self.options[*node as usize].len()).collect()
    }
    fn play(&self, node: &u64, mv: &usize) -> Transition<u64> {
        match self.options[*node as usize][*mv] {
            Edge::End(e) => Transition::End(e),
            Edge::To(next) => Transition::to(next),
        }
    }
    fn no_moves(&self, node: &u64) -> Ending {
        self.stuck[*node as usize]
    }
}

impl IndexedGame for Graph {
    fn index_count(&self) -> u64 {
        self.options.len() as u64
    }
    fn index(&self, node: &u64) -> u64 {
        *node
    }
    fn position(&self, index: u64) -> Option<u64> {
        (index < self.index_count()).then_some(index)
    }
    fn tier_count(&self) -> u64 {
        self.tier_starts.len() as u64 + 1
    }
    fn tier_range(&self, tier: u64) -> std::ops::Range<u64> {
        let start = if tier == 0 {
            0
        } else {
            self.tier_starts[tier as usize - 1]
        };
        let end = self
            .tier_starts
            .get(tier as usize)
            .copied()
            .unwrap_or(self.index_count());
        start..end
    }
    fn has_unmoves(&self) -> bool {
        self.unmoves
    }
    fn tier_parents(&self, node: &u64, parents: &mut Vec<u64>) {
        let tier = (0..self.tier_count())
            .map(|t| self.tier_range(t))
            .find(|r| r.contains(node))
            .unwrap();
        for v in tier.clone() {
            for edge in &self.options[v as usize] {
                if matches!(edge, Edge::To(w) if w == node) {
                    parents.push(v);
                }
            }
        }
    }
}

/// Check a game's un-moves against its moves: for every position, the parents listed in its
/// tier are exactly the positions of the tier with a move to it, as often as they have one.
fn assert_unmoves_match_moves<G: IndexedGame>(game: &G)
where
    G::Position: std::fmt::Debug,
{
    assert!(game.has_unmoves());
    for tier in 0..game.tier_count() {
        let range = game.tier_range(tier);
        let mut by_moves: Vec<Vec<u64>> = vec![Vec::new(); (range.end - range.start) as usize];
        for index in range.clone() {
            let Some(position) = game.position(index) else {
                continue;
            };
            let mut transitions = Vec::new();
            game.transitions(&position, &mut transitions);
            let played: Vec<Transition<G::Position>> = game
                .moves(&position)
                .iter()
                .map(|mv| game.play(&position, mv))
                .collect();
            assert_eq!(transitions.len(), played.len(), "{position:?}");
            for (fast, slow) in transitions.iter().zip(&played) {
                match (fast, slow) {
                    (Transition::End(a), Transition::End(b)) => assert_eq!(a, b),
                    (
                        Transition::Continue { position: a, .. },
                        Transition::Continue { position: b, .. },
                    ) => {
                        assert_eq!(game.index(a), game.index(b), "{position:?}");
                        let to = game.index(a);
                        if range.contains(&to) {
                            by_moves[(to - range.start) as usize].push(index);
                        }
                    }
                    _ => panic!("{position:?}: the transitions differ from the moves played"),
                }
            }
        }
        for index in range.clone() {
            let Some(position) = game.position(index) else {
                continue;
            };
            let mut parents = Vec::new();
            game.tier_parents(&position, &mut parents);
            let mut by_unmoves: Vec<u64> = parents.iter().map(|p| game.index(p)).collect();
            by_unmoves.sort_unstable();
            let expected = &mut by_moves[(index - range.start) as usize];
            expected.sort_unstable();
            assert_eq!(&by_unmoves, expected, "the parents of {position:?}");
        }
    }
}

/// Check a game's symmetries: a class's canonical position is its own, in its tier, of the
/// class's size, and the moves of every member lead to the same classes (as many moves to
/// each) with the same endings.
fn assert_symmetries_are_consistent<G: IndexedGame>(game: &G)
where
    G::Position: std::fmt::Debug,
{
    assert!(game.has_symmetries());
    let children = |position: &G::Position| {
        let mut transitions = Vec::new();
        game.transitions(position, &mut transitions);
        let mut seen: Vec<(Option<u64>, Option<Ending>)> = transitions
            .iter()
            .map(|t| match t {
                Transition::End(ending) => (None, Some(*ending)),
                Transition::Continue { position, .. } => (Some(table_index(game, position)), None),
            })
            .collect();
        seen.sort_unstable_by_key(|(at, ending)| (*at, ending.map(|e| e.score())));
        seen
    };
    let mut members = std::collections::HashMap::new();
    for tier in 0..game.tier_count() {
        let range = game.tier_range(tier);
        for index in range.clone() {
            let Some(position) = game.position(index) else {
                continue;
            };
            let canonical = game.canonical(&position);
            assert_eq!(game.canonical(&canonical), canonical, "{position:?}");
            assert!(range.contains(&game.index(&canonical)), "{position:?}");
            assert_eq!(game.class_size(&position), game.class_size(&canonical));
            assert_eq!(children(&position), children(&canonical), "{position:?}");
            *members.entry(game.index(&canonical)).or_insert(0u64) += 1;
        }
    }
    for (at, count) in members {
        let canonical = game.position(at).unwrap();
        assert_eq!(game.class_size(&canonical), count, "{canonical:?}");
    }
}

#[test]
fn symmetries_keep_classes_and_their_moves() {
    for size in 2..=3 {
        assert_symmetries_are_consistent(&crate::games::quixo::Quixo::new(size).unwrap());
    }
    for (n, pieces) in [(3, 2), (3, 3), (4, 3)] {
        assert_symmetries_are_consistent(&crate::games::teeko::Teeko::new(n, pieces).unwrap());
    }
    for (w, h) in [(3, 3), (4, 3), (5, 2)] {
        let game = crate::games::connect_four::ConnectFour::new(w, h).unwrap();
        assert_symmetries_are_consistent(&game);
    }
    for game in small_dobutsu() {
        assert_symmetries_are_consistent(&game);
    }
}

/// Dobutsu shogi with lions and one other kind: small enough to check on every position.
fn small_dobutsu() -> [crate::games::dobutsu::Dobutsu; 3] {
    use crate::games::dobutsu::Dobutsu;
    [
        Dobutsu::with_kinds(false, false, true),
        Dobutsu::with_kinds(false, true, false),
        Dobutsu::with_kinds(true, false, false),
    ]
}

/// How the positions reachable from the game's start divide, solved with the game's
/// symmetries and without them.
fn counts_with_and_without_symmetries<G: IndexedGame + Sync>(game: &G) -> [Counts; 2] {
    let start = game.start();
    [true, false].map(|symmetries| {
        let options = Options {
            symmetries,
            ..Options::default()
        };
        let solution = solve(game, &options, &no_progress).unwrap();
        reachable_counts(game, &start, &solution, &options).unwrap()
    })
}

#[test]
fn symmetries_give_the_same_reachable_counts() {
    for size in 2..=3 {
        let [with, without] =
            counts_with_and_without_symmetries(&crate::games::quixo::Quixo::new(size).unwrap());
        assert_eq!(with, without, "{size} x {size}");
        assert!(with.wins > 0);
    }
    for (n, pieces) in [(3, 3), (4, 3)] {
        let game = crate::games::teeko::Teeko::new(n, pieces).unwrap();
        let [with, without] = counts_with_and_without_symmetries(&game);
        assert_eq!(with, without, "Teeko {n} x {n}, {pieces} pieces");
    }
    for (w, h) in [(4, 3), (4, 4)] {
        let game = crate::games::connect_four::ConnectFour::new(w, h).unwrap();
        let [with, without] = counts_with_and_without_symmetries(&game);
        assert_eq!(with, without, "Connect Four {w} x {h}");
    }
    for game in small_dobutsu() {
        let [with, without] = counts_with_and_without_symmetries(&game);
        assert_eq!(with, without, "Dobutsu shogi {:?}", game.counts());
        assert!(with.wins > 0 && with.losses > 0);
    }
}

#[test]
fn un_moves_retrace_every_move_within_a_tier() {
    for size in 2..=3 {
        assert_unmoves_match_moves(&crate::games::quixo::Quixo::new(size).unwrap());
        assert_unmoves_match_moves(&crate::games::dodgem::Dodgem::new(size).unwrap());
    }
    assert_unmoves_match_moves(&crate::games::dodgem::Dodgem::new(4).unwrap());
    for (n, pieces) in [(3, 2), (3, 3), (4, 3)] {
        assert_unmoves_match_moves(&crate::games::teeko::Teeko::new(n, pieces).unwrap());
    }
    for game in small_dobutsu() {
        assert_unmoves_match_moves(&game);
    }
}

/// Check a game's tier graph: every move from every position of a tier stays in it or
/// reaches one of the tiers [`IndexedGame::tier_children`] names.
fn assert_moves_reach_only_tier_children<G: IndexedGame>(game: &G)
where
    G::Position: std::fmt::Debug,
{
    let ranges: Vec<_> = (0..game.tier_count()).map(|t| game.tier_range(t)).collect();
    let tier_of = |index: u64| ranges.iter().position(|r| r.contains(&index)).unwrap() as u64;
    for (tier, range) in ranges.iter().enumerate() {
        let tier = tier as u64;
        let children = game.tier_children(tier);
        let leaves = game.moves_leave_tier(tier);
        for index in range.clone() {
            let Some(position) = game.position(index) else {
                continue;
            };
            let mut transitions = Vec::new();
            game.transitions(&position, &mut transitions);
            for transition in &transitions {
                if let Transition::Continue { position: next, .. } = transition {
                    let to = tier_of(game.index(next));
                    assert!(
                        !(leaves && to == tier),
                        "{position:?} stays in tier {tier}, which its moves leave"
                    );
                    if to != tier {
                        assert!(
                            children.contains(&to),
                            "{position:?} in tier {tier} reaches {to}"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn moves_leave_a_tier_only_for_the_children_it_names() {
    use crate::games::{connect_four::ConnectFour, dodgem::Dodgem, hexapawn::Hexapawn};
    use crate::games::{quixo::Quixo, teeko::Teeko};
    for n in 2..=4 {
        assert_moves_reach_only_tier_children(&Dodgem::new(n).unwrap());
    }
    for (width, height) in [(3, 3), (4, 4), (3, 5)] {
        assert_moves_reach_only_tier_children(&Hexapawn::new(width, height).unwrap());
    }
    assert_moves_reach_only_tier_children(&Quixo::new(3).unwrap());
    assert_moves_reach_only_tier_children(&ConnectFour::new(4, 4).unwrap());
    assert_moves_reach_only_tier_children(&Teeko::new(3, 3).unwrap());
}

/// The textbook retrograde analysis, a different algorithm from the engine's passes: each
/// decided node is taken from a queue in order of remoteness and updates its predecessors
/// through child counters (a loss makes its predecessors wins; a predecessor whose every
/// option is decided takes its best); then ties spread to the undecided nodes by a shortest
/// path search, and the rest are draws.
fn textbook(graph: &Graph) -> Vec<Record> {
    let n = graph.options.len();
    let mut parents: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut open_options: Vec<usize> = vec![0; n];
    let mut nearest_tie: Vec<Option<u32>> = vec![None; n];
    let mut farthest_loss: Vec<Option<u32>> = vec![None; n];
    let mut records = vec![Record::DRAW; n];
    let mut queue: BinaryHeap<Reverse<(u32, usize)>> = BinaryHeap::new();
    let decide = |records: &mut Vec<Record>, queue: &mut BinaryHeap<_>, v: usize, o, r| {
        records[v] = Record::new(o, r).unwrap();
        queue.push(Reverse((r, v)));
    };
    // What an option that ends the game (or a child with this record) is to the mover.
    let seen = |child: Record| -> (Outcome, u32) {
        let r = child.remoteness().unwrap();
        match child.outcome().unwrap() {
            Outcome::Win => (Outcome::Loss, r),
            Outcome::Loss => (Outcome::Win, r),
            other => (other, r),
        }
    };
    let end = |e: Ending| match e.score().signum() {
        1 => Record::new(Outcome::Loss, 0).unwrap(), // the child "position" the mover leaves
        -1 => Record::new(Outcome::Win, 0).unwrap(),
        _ => Record::new(Outcome::Tie, 0).unwrap(),
    };
    let mut pending: Vec<(usize, Record)> = Vec::new();
    for (v, options) in graph.options.iter().enumerate() {
        if options.is_empty() {
            let outcome = match graph.stuck[v].score().signum() {
                1 => Outcome::Win,
                -1 => Outcome::Loss,
                _ => Outcome::Tie,
            };
            decide(&mut records, &mut queue, v, outcome, 0);
        }
        for edge in options {
            match *edge {
                Edge::To(w) => {
                    parents[w as usize].push(v);
                    open_options[v] += 1;
                }
                Edge::End(e) => {
                    open_options[v] += 1;
                    pending.push((v, end(e)));
                }
            }
        }
    }
    // An option's result reaches node v.
    let mut settle = |records: &mut Vec<Record>,
                      queue: &mut BinaryHeap<Reverse<(u32, usize)>>,
                      v: usize,
                      child: Record| {
        if records[v].is_decided() {
            return;
        }
        let (outcome, r) = seen(child);
        open_options[v] -= 1;
        match outcome {
            Outcome::Win => decide(records, queue, v, Outcome::Win, r + 1),
            Outcome::Tie => nearest_tie[v] = Some(nearest_tie[v].map_or(r, |t| t.min(r))),
            _ => farthest_loss[v] = Some(farthest_loss[v].map_or(r, |l| l.max(r))),
        }
        if !records[v].is_decided() && open_options[v] == 0 {
            match (nearest_tie[v], farthest_loss[v]) {
                (Some(t), _) => decide(records, queue, v, Outcome::Tie, t + 1),
                (None, Some(l)) => decide(records, queue, v, Outcome::Loss, l + 1),
                (None, None) => unreachable!("a node with options has a result"),
            }
        }
    };
    // Endings are children at remoteness 0: they come first.
    for (v, child) in pending {
        settle(&mut records, &mut queue, v, child);
    }
    while let Some(Reverse((_, c))) = queue.pop() {
        let child = records[c];
        for p in parents[c].clone() {
            settle(&mut records, &mut queue, p, child);
        }
    }
    // Ties in reach of the undecided nodes, nearest first (a shortest path search from the
    // tie options they already have); the rest are draws.
    let undecided: Vec<bool> = records.iter().map(|r| !r.is_decided()).collect();
    let mut distance: Vec<Option<u32>> = (0..n)
        .map(|v| nearest_tie[v].filter(|_| undecided[v]).map(|t| t + 1))
        .collect();
    let mut ties: BinaryHeap<Reverse<(u32, usize)>> = (0..n)
        .filter_map(|v| distance[v].map(|d| Reverse((d, v))))
        .collect();
    while let Some(Reverse((d, v))) = ties.pop() {
        if distance[v] != Some(d) {
            continue;
        }
        for &p in &parents[v] {
            if undecided[p] && distance[p].is_none_or(|x| x > d + 1) {
                distance[p] = Some(d + 1);
                ties.push(Reverse((d + 1, p)));
            }
        }
    }
    for v in 0..n {
        if undecided[v]
            && let Some(d) = distance[v]
        {
            records[v] = Record::new(Outcome::Tie, d).unwrap();
        }
    }
    records
}

fn graph() -> impl Strategy<Value = Graph> {
    (1usize..24).prop_flat_map(|n| {
        let ending = prop_oneof![Just(Ending::Win), Just(Ending::Loss), Just(Ending::Draw),];
        let edge = prop_oneof![
            4 => (0..n as u64).prop_map(Edge::To),
            1 => ending.clone().prop_map(Edge::End),
        ];
        (
            proptest::collection::vec(proptest::collection::vec(edge, 0..4), n),
            proptest::collection::vec(ending, n),
        )
            .prop_map(|(options, stuck)| Graph {
                options,
                stuck,
                tier_starts: Vec::new(),
                unmoves: true,
            })
    })
}

/// A graph cut into tiers at random points, its moves turned forward: a move from a node to
/// an earlier tier goes to the start of the node's own tier instead.
fn tiered_graph() -> impl Strategy<Value = Graph> {
    graph().prop_flat_map(|g| {
        let n = g.options.len() as u64;
        (Just(g), proptest::collection::btree_set(1..n.max(2), 0..4)).prop_map(
            move |(mut g, cuts)| {
                g.tier_starts = cuts.into_iter().filter(|&c| c < n).collect();
                for v in 0..n {
                    let start = g.tier_range(
                        (0..g.tier_count())
                            .find(|&t| g.tier_range(t).contains(&v))
                            .unwrap(),
                    );
                    for edge in &mut g.options[v as usize] {
                        if let Edge::To(w) = edge {
                            *w = (*w).max(start.start);
                        }
                    }
                }
                g
            },
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn loopy_games_match_the_textbook_retrograde_analysis(
        g in graph(),
        threads in 1usize..3,
        retrograde: bool,
    ) {
        let options = Options { retrograde, ..options(threads) };
        let solution = solve(&g, &options, &no_progress).unwrap();
        let expected = textbook(&g);
        prop_assert_eq!(solution.records(), &expected[..]);
    }

    /// The hash-numbering adapter (positions found from node 0, moves that end the game sent
    /// to shared end positions, then the engine on the graph) gives every reachable node the
    /// textbook's record.
    #[test]
    fn hashed_graphs_match_the_textbook_retrograde_analysis(
        g in graph(),
        threads in 1usize..3,
    ) {
        let expected = textbook(&g);
        let solved = crate::graph::hashed::solve_game(&g, &options(threads)).unwrap();
        prop_assert!(solved.counts().positions >= 1);
        for node in 0..g.options.len() as u64 {
            if let Some(record) = solved.value(&node) {
                prop_assert_eq!(record, expected[node as usize], "node {}", node);
            }
        }
        let start = solved.analyse(&0).unwrap();
        let reference = analyse(&g, &solve(&g, &options(threads), &no_progress).unwrap(), &0).unwrap();
        prop_assert_eq!(start.record, reference.record);
        let values = |moves: &[MoveRecord<usize>]| moves.iter().map(|m| (m.mv, m.record)).collect::<Vec<_>>();
        prop_assert_eq!(values(&start.moves), values(&reference.moves));
    }

    #[test]
    fn tiers_solved_from_the_last_give_the_same_records(
        g in tiered_graph(),
        threads in 1usize..3,
        retrograde: bool,
    ) {
        let options = Options { retrograde, ..options(threads) };
        let tiered = solve(&g, &options, &no_progress).unwrap();
        prop_assert_eq!(tiered.records(), &textbook(&g)[..]);
        let whole = Graph { tier_starts: Vec::new(), ..g };
        let untiered = solve(&whole, &options, &no_progress).unwrap();
        prop_assert_eq!(tiered.records(), untiered.records());
    }
}

#[test]
fn tiers_must_cover_the_index_and_moves_must_go_forward() {
    let mut g = Graph {
        options: vec![vec![Edge::To(1)], vec![Edge::To(0)], vec![]],
        stuck: vec![Ending::Loss; 3],
        tier_starts: vec![1],
        unmoves: true,
    };
    // Node 1 (tier 1) moves back to node 0 (tier 0, solved later).
    let err = solve(&g, &Options::default(), &no_progress).unwrap_err();
    assert!(
        matches!(err, EngineError::BadIndex { from: 1, to: 0, .. }),
        "{err}"
    );
    g.tier_starts = vec![1, 1];
    // An empty tier is fine; the same game with no backward move solves.
    g.options[1] = vec![Edge::To(2)];
    let s = solve(&g, &Options::default(), &no_progress).unwrap();
    assert_eq!(s.record(0), Record::new(Outcome::Loss, 2));
}

#[test]
fn a_loop_nobody_can_leave_well_is_a_draw() {
    // 0 -> 1 -> 0, and from 1 a move that loses at once: 1 keeps going round, so both draw;
    // 2 may enter the loop or take a tie: the tie is better than endless play.
    let g = Graph {
        options: vec![
            vec![Edge::To(1)],
            vec![Edge::To(0), Edge::End(Ending::Loss)],
            vec![Edge::To(0), Edge::End(Ending::Draw)],
            vec![Edge::To(2), Edge::To(3)],
        ],
        stuck: vec![Ending::Loss; 4],
        tier_starts: Vec::new(),
        unmoves: true,
    };
    for retrograde in [false, true] {
        let options = Options {
            retrograde,
            ..Options::default()
        };
        let s = solve(&g, &options, &no_progress).unwrap();
        let outcome = |i| s.record(i).unwrap().outcome().unwrap();
        assert_eq!(outcome(0), Outcome::Draw);
        assert_eq!(outcome(1), Outcome::Draw);
        assert_eq!(s.record(2), Record::new(Outcome::Tie, 1));
        assert_eq!(s.record(3), Record::new(Outcome::Tie, 2)); // 3 -> 2, then the tie
        assert_eq!(s.count(Outcome::Draw), 2);
    }
}

#[test]
fn too_large_a_table_is_refused_before_any_work() {
    let game = TakeUpToThree {
        piles: 1 << 40,
        misere: false,
    };
    let err = solve(&game, &Options::default(), &no_progress).unwrap_err();
    assert!(matches!(err, EngineError::OverMemory { needed, .. } if needed == 2 << 40));
    assert!(err.to_string().contains("raise the memory limit"), "{err}");
    // With no limit at all, the machine's memory still refuses it: an error, not an abort.
    let unlimited = Options {
        memory_limit: u64::MAX,
        ..Options::default()
    };
    let err = solve(&game, &unlimited, &no_progress).unwrap_err();
    assert!(
        matches!(
            err,
            EngineError::OverMachine { needed, .. } | EngineError::OutOfMemory { bytes: needed }
                if needed == 2 << 40
        ),
        "{err}"
    );
}

#[test]
fn an_index_that_loses_a_position_is_reported() {
    struct Broken;
    impl Game for Broken {
        type Position = u64;
        type Move = ();
        fn start(&self) -> u64 {
            0
        }
        fn moves(&self, p: &u64) -> Vec<()> {
            if *p == 0 { vec![()] } else { Vec::new() }
        }
        fn play(&self, _: &u64, (): &()) -> Transition<u64> {
            Transition::to(7)
        }
    }
    impl IndexedGame for Broken {
        fn index_count(&self) -> u64 {
            2
        }
        fn index(&self, p: &u64) -> u64 {
            *p
        }
        fn position(&self, i: u64) -> Option<u64> {
            (i < 2).then_some(i)
        }
    }
    let err = solve(&Broken, &Options::default(), &no_progress).unwrap_err();
    assert_eq!(
        err,
        EngineError::BadIndex {
            from: 0,
            to: 7,
            why: "outside the table"
        }
    );
}

#[test]
fn reading_the_table_gives_the_solvers_move_values_and_a_best_line() {
    let game = TicTacToe {
        board: Board::empty(),
    };
    let solution = solve(&game, &Options::default(), &no_progress).unwrap();
    let mut oracle = Solver::new(game);
    for index in (0..game.index_count()).step_by(7) {
        let Some(board) = game.position(index) else {
            continue;
        };
        let read = analyse(&game, &solution, &board).unwrap();
        let expected = oracle.analyse(&board);
        assert_eq!(read.record, record_of(expected.value), "{board}");
        let mut want: Vec<(u8, Record)> = expected
            .moves
            .iter()
            .map(|m| (m.mv.0, record_of(m.value)))
            .collect();
        let got: Vec<(u8, Record)> = read.moves.iter().map(|m| (m.mv.0, m.record)).collect();
        want.sort_by(|a, b| b.1.preference(a.1).then(a.0.cmp(&b.0)));
        assert_eq!(got, want, "{board}: best first, then in the game's order");
        // The best line is as long as the remoteness and every move in it keeps the value.
        assert_eq!(
            read.best_line.len() as u32,
            read.record.remoteness().unwrap()
        );
        let mut here = board;
        let mut value = read.record;
        for mv in &read.best_line {
            let options = move_records(&game, &solution, &here).unwrap();
            let chosen = options.iter().find(|m| m.mv == *mv).unwrap();
            assert_eq!(chosen.record, value, "{board}: the line keeps the value");
            if let Transition::Continue { position, .. } = game.play(&here, mv) {
                here = position;
                let next = solution.record(game.index(&here)).unwrap();
                value = next;
            }
        }
    }
}

/// A fresh path in the system's temporary directory.
fn scratch(name: &str) -> std::path::PathBuf {
    let path = std::env::temp_dir().join(format!("perfect-play-{}-{name}", std::process::id()));
    let _ = std::fs::remove_file(&path);
    path
}

#[test]
fn a_database_reads_back_every_record_one_block_at_a_time() {
    let game = TicTacToe {
        board: Board::empty(),
    };
    let solution = solve(&game, &Options::default(), &no_progress).unwrap();
    let path = scratch("ttt.ppdb");
    let header = database::Header {
        game: "tic-tac-toe".into(),
        variant: "3x3".into(),
        indices: game.index_count(),
        positions: solution.positions,
        block_records: 1000, // many blocks, to cross their edges
        params: Vec::new(),
        book: None,
    };
    let bytes = database::write(&path, &header, solution.records()).unwrap();
    let mut db = Database::open(&path, true).unwrap();
    assert_eq!(db.header, header);
    assert_eq!(db.bytes, bytes);
    for index in (0..game.index_count()).rev() {
        assert_eq!(db.record(index).unwrap(), solution.record(index).unwrap());
    }
    assert_eq!(db.all_records().unwrap(), solution.records());
    assert!(db.record(game.index_count()).is_err());
    // Compressed, the table takes far less than its two bytes a record.
    assert!(bytes < game.index_count(), "{bytes} bytes");
    // A changed byte is caught by the checksums; another file is not taken for a database.
    let mut damaged = std::fs::read(&path).unwrap();
    let last_block = damaged.len() - 20;
    damaged[last_block] ^= 0x55;
    std::fs::write(&path, &damaged).unwrap();
    assert!(Database::open(&path, true).is_err());
    let mut unverified = Database::open(&path, false).unwrap();
    assert!(unverified.record(game.index_count() - 1).is_err());
    std::fs::write(&path, b"not a database at all").unwrap();
    let err = Database::open(&path, false).unwrap_err();
    assert!(
        err.to_string().contains("not a perfect-play database"),
        "{err}"
    );
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn an_interrupted_solve_resumes_to_the_same_records() {
    let game = crate::games::connect_four::ConnectFour::new(4, 3).unwrap();
    let whole = solve(&game, &Options::default(), &no_progress).unwrap();
    let path = scratch("c4.checkpoint");
    let mut checkpoint = Checkpoint::open(&path, "connect-four 4x3").unwrap();
    let first = resume(&game, &mut checkpoint);
    drop(checkpoint);
    assert_eq!(first.records(), whole.records());
    assert!(!first.resumed);
    // Killed part-way: the file ends inside a tier, which is dropped; the finished tiers
    // come back and the rest is solved again.
    let full = std::fs::metadata(&path).unwrap().len();
    let file = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
    file.set_len(full * 3 / 5).unwrap();
    drop(file);
    let mut checkpoint = Checkpoint::open(&path, "connect-four 4x3").unwrap();
    let restored = checkpoint.finished.len();
    assert!(
        restored > 0 && (restored as u64) < game.tier_count(),
        "{restored} tiers"
    );
    let resumed = resume(&game, &mut checkpoint);
    assert!(resumed.resumed);
    assert!(resumed.already_solved > 0 && resumed.already_solved < whole.positions);
    assert_eq!(resumed.records(), whole.records());
    assert_eq!(resumed.positions, whole.positions);
    checkpoint.remove().unwrap();
    // A checkpoint of another board is refused, not mixed in.
    let path = scratch("c4-other.checkpoint");
    let mut other = Checkpoint::open(&path, "connect-four 3x3").unwrap();
    let small = crate::games::connect_four::ConnectFour::new(3, 3).unwrap();
    solve_resumable(&small, &Options::default(), Some(&mut other), &no_progress).unwrap();
    drop(other);
    let err = Checkpoint::open(&path, "connect-four 4x3").unwrap_err();
    assert!(err.to_string().contains("another game"), "{err}");
    // Even under the same name, tiers of the wrong size are refused, not mixed in.
    let mut same_name = Checkpoint::open(&path, "connect-four 3x3").unwrap();
    let err = solve_resumable(
        &game,
        &Options::default(),
        Some(&mut same_name),
        &no_progress,
    )
    .unwrap_err();
    assert!(err.to_string().contains("another game"), "{err}");
    same_name.remove().unwrap();
}

/// Solve `game` through `checkpoint`, going on from what it holds.
fn resume<G: IndexedGame + Sync>(game: &G, checkpoint: &mut Checkpoint) -> Solution {
    solve_resumable(game, &Options::default(), Some(checkpoint), &no_progress).unwrap()
}

/// Solve `game` through a checkpoint at `path` saving every level, stopped (as a kill would)
/// right after level `stop` of its first retrograde tier is saved.
fn solve_killed_after_level<G: IndexedGame + Sync>(game: &G, path: &std::path::Path, stop: u32) {
    let mut checkpoint = Checkpoint::open(path, "killed").unwrap();
    checkpoint.level_interval = std::time::Duration::ZERO;
    let killed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        solve_resumable(game, &Options::default(), Some(&mut checkpoint), &|p| {
            assert!(p.pass != stop, "killed after level {stop}");
        })
    }));
    assert!(killed.is_err(), "the solve ran past level {stop}");
}

#[test]
fn a_solve_killed_inside_a_tier_resumes_from_its_last_level() {
    // Dobutsu shogi with lions and chicks is one loopy tier: without saved levels a kill
    // loses all of it.
    let game = crate::games::dobutsu::Dobutsu::with_kinds(false, false, true);
    assert_eq!(game.tier_count(), 1);
    let whole = solve(&game, &Options::default(), &no_progress).unwrap();
    for stop in [0, 1, 4, 9, 20] {
        let path = scratch(&format!("dobutsu-{stop}.checkpoint"));
        solve_killed_after_level(&game, &path, stop);
        let mut checkpoint = Checkpoint::open(&path, "killed").unwrap();
        let saved = checkpoint.in_progress.as_ref().expect("a saved level");
        assert_eq!((saved.tier, saved.level), (0, stop));
        let resumed = resume(&game, &mut checkpoint);
        assert!(resumed.resumed, "level {stop}");
        assert!(resumed.already_solved > 0 && resumed.already_solved < whole.positions);
        assert_eq!(
            resumed.records(),
            whole.records(),
            "resumed after level {stop}"
        );
        assert_eq!(resumed.positions, whole.positions);
        assert!(checkpoint.in_progress.is_none());
        checkpoint.remove().unwrap();
        let level_file = format!("{}.level", path.display());
        assert!(!std::path::Path::new(&level_file).exists());
    }
    // Quixo 3 x 3: finished tiers and a tier in progress come back together.
    let quixo = crate::games::quixo::Quixo::new(3).unwrap();
    let whole = solve(&quixo, &Options::default(), &no_progress).unwrap();
    let path = scratch("quixo-killed.checkpoint");
    solve_killed_after_level(&quixo, &path, 3);
    let mut checkpoint = Checkpoint::open(&path, "killed").unwrap();
    assert!(checkpoint.in_progress.is_some());
    let resumed = resume(&quixo, &mut checkpoint);
    assert_eq!(resumed.records(), whole.records());
    checkpoint.remove().unwrap();
}

#[test]
fn a_saved_level_cut_short_is_dropped_and_a_foreign_one_refused() {
    let game = crate::games::dobutsu::Dobutsu::with_kinds(false, false, true);
    let path = scratch("dobutsu-cut.checkpoint");
    solve_killed_after_level(&game, &path, 2);
    let level_file = std::path::PathBuf::from(format!("{}.level", path.display()));
    let full = std::fs::read(&level_file).unwrap();
    std::fs::write(&level_file, &full[..full.len() - 3]).unwrap();
    let checkpoint = Checkpoint::open(&path, "killed").unwrap();
    assert!(checkpoint.in_progress.is_none());
    checkpoint.remove().unwrap();
    // A file that is not this game's saved level is left alone and refused.
    std::fs::write(&path, b"").unwrap();
    std::fs::write(&level_file, b"precious").unwrap();
    let err = Checkpoint::open(&path, "killed").unwrap_err();
    assert!(err.to_string().contains("not a saved level"), "{err}");
    assert_eq!(std::fs::read(&level_file).unwrap(), b"precious");
    std::fs::remove_file(&level_file).unwrap();
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn a_checkpoint_never_overwrites_a_file_it_did_not_write() {
    for content in [
        &b"precious"[..],
        &b"x"[..],
        &b"a much longer file that is not a checkpoint"[..],
    ] {
        let path = scratch("foreign.partial");
        std::fs::write(&path, content).unwrap();
        assert!(Checkpoint::open(&path, "connect-four 4x3").is_err());
        assert_eq!(std::fs::read(&path).unwrap(), content);
        std::fs::remove_file(&path).unwrap();
    }
}

/// The graph of every position of an indexed game (holes have no options).
fn graph_of<G: IndexedGame>(game: &G) -> Graph {
    let count = game.index_count() as usize;
    let mut graph = Graph {
        options: vec![Vec::new(); count],
        stuck: vec![Ending::Loss; count],
        tier_starts: Vec::new(),
        unmoves: false,
    };
    for index in 0..count as u64 {
        if let Some(position) = game.position(index) {
            graph.stuck[index as usize] = game.no_moves(&position);
            graph.options[index as usize] = game
                .moves(&position)
                .iter()
                .map(|mv| match game.play(&position, mv) {
                    Transition::End(e) => Edge::End(e),
                    Transition::Continue { position, .. } => Edge::To(game.index(&position)),
                })
                .collect();
        }
    }
    graph
}

#[test]
fn loopy_games_match_the_textbook_analysis_on_every_position() {
    // Dodgem and Mu Torere have loops: the Solver cannot value them, the textbook
    // retrograde analysis can, on the same graph.
    // With symmetries (Quixo's) the records are checked through each position's class.
    fn check<G: IndexedGame + Sync>(game: &G) -> Solution {
        let expected = textbook(&graph_of(game));
        let mut solutions = Vec::new();
        for (retrograde, symmetries) in [(true, true), (true, false), (false, true)] {
            let options = Options {
                retrograde,
                symmetries,
                ..Options::default()
            };
            let solution = solve(game, &options, &no_progress).unwrap();
            let (mut checked, mut canonical) = (0, 0);
            for index in 0..game.index_count() {
                if let Some(position) = game.position(index) {
                    let at = if symmetries {
                        table_index(game, &position)
                    } else {
                        index
                    };
                    assert_eq!(
                        solution.record(at),
                        Some(expected[index as usize]),
                        "{index} ({retrograde}, {symmetries})"
                    );
                    checked += 1;
                    canonical += u64::from(at == index);
                }
            }
            let solved = if symmetries && game.has_symmetries() {
                canonical
            } else {
                checked
            };
            assert_eq!(solved, solution.positions);
            solutions.push(solution);
        }
        solutions.swap_remove(1)
    }
    let dodgem = check(&crate::games::dodgem::Dodgem::new(3).unwrap());
    assert!(dodgem.count(Outcome::Win) > 0 && dodgem.count(Outcome::Loss) > 0);
    let mu_torere = check(&crate::games::mu_torere::MuTorere);
    assert!(mu_torere.count(Outcome::Draw) > 0);
    // Quixo has un-moves: its loopy tiers go through retrograde analysis.
    let quixo = check(&crate::games::quixo::Quixo::new(3).unwrap());
    assert!(quixo.count(Outcome::Win) > 0 && quixo.count(Outcome::Loss) > 0);
    // Teeko's small boards: placements into loopy steps.
    for (n, pieces) in [(3, 2), (3, 3), (4, 2)] {
        let teeko = check(&crate::games::teeko::Teeko::new(n, pieces).unwrap());
        assert!(teeko.count(Outcome::Win) > 0 && teeko.count(Outcome::Loss) > 0);
    }
    // Dobutsu shogi with lions and one kind: captures, drops and promotions loop.
    for game in small_dobutsu() {
        let dobutsu = check(&game);
        assert!(dobutsu.count(Outcome::Win) > 0 && dobutsu.count(Outcome::Loss) > 0);
    }
}

/// A block whose records are fewer than the header says, with a checksum that matches them
/// (the fuzz target `database_file` made one: an empty block, whose CRC-32 is 0), is damaged.
#[test]
fn a_block_shorter_than_the_header_says_is_damaged() {
    let bytes = include_bytes!("../../../../fuzz/corpus/database_file/seed-short-block");
    let path = std::env::temp_dir().join(format!("pp-short-block-{}", std::process::id()));
    std::fs::write(&path, bytes).unwrap();
    let mut db = database::Database::open(&path, false).unwrap();
    let error = db.all_records().unwrap_err().to_string();
    assert!(error.contains("damaged block 0"), "{error}");
    assert!(db.record(0).is_err());
    std::fs::remove_file(&path).unwrap();
}
