use super::hashed::{self, solve_game};
use super::text::{GraphFileError, NamedGraph};
use super::*;
use crate::budget::Cancel;
use crate::solver::Solver;
use crate::tic_tac_toe::{Board, TicTacToe};

fn options() -> Options {
    Options {
        threads: 2,
        ..Options::default()
    }
}

/// Take 1, 3 or 4 from a pile; the last to take wins (positions by pile size).
struct TakeOneThreeFour(u32);

impl Game for TakeOneThreeFour {
    type Position = u32;
    type Move = u32;
    fn start(&self) -> u32 {
        self.0
    }
    fn moves(&self, pile: &u32) -> Vec<u32> {
        [1, 3, 4].into_iter().filter(|t| t <= pile).collect()
    }
    fn play(&self, pile: &u32, take: &u32) -> Transition<u32> {
        Transition::to(pile - take)
    }
}

#[test]
fn hashed_positions_agree_with_the_reference_solver() {
    let game = TakeOneThreeFour(60);
    let solved = solve_game(&game, &options()).unwrap();
    let mut reference = Solver::new(TakeOneThreeFour(60));
    assert_eq!(solved.counts().positions, 61);
    for pile in 0..=60 {
        let value = reference.value(&pile);
        let record = solved.value(&pile).unwrap();
        assert_eq!(record.outcome(), Some(value.outcome()), "pile {pile}");
        assert_eq!(record.remoteness(), Some(value.remoteness), "pile {pile}");
    }
    // Multiples of 7 and 2 more lose; 7 is lost, its moves all win for the opponent.
    let analysis = solved.analyse(&8).unwrap();
    assert_eq!(analysis.moves[0].mv, 1);
    assert_eq!(analysis.moves[0].record.outcome(), Some(Outcome::Win));
}

#[test]
fn tic_tac_toe_through_the_hash_table_matches_the_solver() {
    let game = TicTacToe {
        board: Board::empty(),
    };
    let solved = solve_game(&game, &options()).unwrap();
    // 5,478 positions reach from the empty board (Schaefer's count).
    assert_eq!(solved.counts().positions, 5478);
    let mut reference = Solver::new(game);
    for index in 0..solved.numbered().len() as u32 {
        let position = *solved.numbered().position(index).unwrap();
        let value = reference.value(&position);
        let record = solved.value(&position).unwrap();
        assert_eq!(record.outcome(), Some(value.outcome()));
        assert_eq!(record.remoteness(), Some(value.remoteness));
    }
    let start = solved.analyse(&game.start()).unwrap();
    assert_eq!(start.record.outcome(), Some(Outcome::Tie));
    assert_eq!(start.best_line.len(), 9);
}

#[test]
fn memory_past_the_limit_is_refused_with_the_figure() {
    let game = TakeOneThreeFour(1_000_000);
    let err = solve_game(
        &game,
        &Options {
            memory_limit: 1 << 20,
            ..options()
        },
    )
    .unwrap_err();
    assert!(matches!(err, GraphError::OverMemory { .. }), "{err}");
    assert!(
        err.to_string().contains("above the memory limit of 1 MiB"),
        "{err}"
    );
}

#[test]
fn scores_are_refused_and_expansion_errors_come_back() {
    struct Scoring;
    impl Game for Scoring {
        type Position = u8;
        type Move = u8;
        fn start(&self) -> u8 {
            0
        }
        fn moves(&self, p: &u8) -> Vec<u8> {
            if *p == 0 { vec![1] } else { vec![] }
        }
        fn play(&self, _: &u8, _: &u8) -> Transition<u8> {
            Transition::Continue {
                position: 1,
                reward: 3,
            }
        }
    }
    assert_eq!(
        solve_game(&Scoring, &options()).unwrap_err(),
        GraphError::Scoring(3)
    );
    let failed = hashed::explore(
        0u32,
        &hashed::Limits::default(),
        &|_| 0,
        &mut |p: &u32, steps: &mut Vec<Transition<u32>>| {
            if *p == 5 {
                return Err(format!("bad position {p}"));
            }
            steps.push(Transition::to(p + 1));
            Ok(Ending::Loss)
        },
        &|_, _| {},
    );
    match failed {
        Err(hashed::ExploreError::Game(message)) => assert_eq!(message, "bad position 5"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn cancellation_stops_the_exploration() {
    let cancel = Cancel::new();
    cancel.cancel();
    let err = solve_game(
        &TakeOneThreeFour(100),
        &Options {
            cancel,
            ..options()
        },
    )
    .unwrap_err();
    assert!(matches!(err, GraphError::Cancelled(_)), "{err}");
}

fn solved_json(text: &str) -> (NamedGraph, GraphSolution) {
    let graph = NamedGraph::from_json(text, 1 << 30).unwrap();
    let solution = graph.solve(&options()).unwrap();
    (graph, solution)
}

#[test]
fn the_readme_json_graph_is_solved() {
    let (graph, solution) = solved_json(
        r#"{"start": "A", "moves": {"A": ["B", "C"], "B": ["A"], "C": []}, "results": {"C": "loss"}}"#,
    );
    let a = graph.analyse(&solution, "A").unwrap();
    // A moves to C, where the player to move has lost; moving to B wins too, later (B's
    // only move gives A back).
    assert_eq!(a.record, Record::new(Outcome::Win, 1).unwrap());
    assert_eq!(a.winning_moves(), vec!["C", "B"]);
    assert_eq!(a.best_line, vec!["C"]);
    let b = graph.analyse(&solution, "B").unwrap();
    assert_eq!(b.record, Record::new(Outcome::Loss, 2).unwrap());
    assert!(graph.analyse(&solution, "Z").is_none());
}

#[test]
fn a_cycle_nobody_leaves_is_a_draw_and_ties_are_kept() {
    let (graph, solution) = solved_json(
        r#"{"moves": {"A": ["B"], "B": ["A", "T"], "T": []}, "results": {"T": "tie"}}"#,
    );
    assert_eq!(graph.start(), "A");
    // From B the mover can tie at once or go back to A, from which only B follows: a tie in 2.
    let a = graph.analyse(&solution, "A").unwrap();
    assert_eq!(a.record.outcome(), Some(Outcome::Tie));
    let (graph, solution) = solved_json(r#"{"moves": {"A": ["B"], "B": ["A"]}}"#);
    let a = graph.analyse(&solution, "A").unwrap();
    assert_eq!(a.record, Record::DRAW);
}

#[test]
fn edge_lists_read_moves_results_and_comments() {
    let text = "# a small game\nA B\nA C   # two moves\n\nB A\nC =loss\n";
    let graph = NamedGraph::from_edge_list(text.as_bytes(), 1 << 30).unwrap();
    let solution = graph.solve(&options()).unwrap();
    let a = graph.analyse(&solution, "A").unwrap();
    assert_eq!(a.winning_moves(), vec!["C", "B"]);
    let same = NamedGraph::read(
        "  {\"moves\": {\"A\": [\"B\", \"C\"], \"B\": [\"A\"]}, \"results\": {\"C\": \"loss\"}}"
            .as_bytes(),
        1 << 30,
    )
    .unwrap();
    assert_eq!(same.graph().positions(), graph.graph().positions());
}

#[test]
fn bad_files_name_the_line_and_what_was_expected() {
    let line_of = |text: &str| match NamedGraph::from_edge_list(text.as_bytes(), 1 << 30) {
        Err(GraphFileError::Line { line, message }) => (line, message),
        other => panic!("{text:?}: {other:?}"),
    };
    assert_eq!(line_of("A B\nA B C\n").0, 2);
    assert!(line_of("A B\nA B C\n").1.contains("expected FROM TO"));
    assert_eq!(line_of("A B\n\nB =lost\n").0, 3);
    assert!(line_of("A B\nB =lost\n").1.contains("=win, =loss or =tie"));
    assert_eq!(line_of("A =win\nA B\n").0, 1);
    assert!(line_of("A =win\nA B\n").1.contains("finished"));
    assert_eq!(line_of("A =win\nA =loss\n").0, 2);
    assert!(line_of("# nothing\n").1.contains("no position"));
    let json = |text: &str| {
        NamedGraph::from_json(text, 1 << 30)
            .unwrap_err()
            .to_string()
    };
    assert!(json("{\"moves\": [1]}").contains("expected an object"));
    assert!(json("{\"moves\": {\"A\": \"B\"}}").contains("list of positions"));
    assert!(
        json("{\"moves\": {\"A\": [\"B\"]}, \"results\": {\"A\": \"won\"}}").contains("\"win\"")
    );
    assert!(
        json("{\"moves\": {\"A\": [\"B\"]}, \"results\": {\"A\": \"win\"}}").contains("finished")
    );
    assert!(json("{\"edges\": {}}").contains("unknown key"));
    assert!(json("{\"moves\": {\"A\": [\"B\"]").contains("not JSON"));
    assert!(json("[]").contains("expected an object"));
    // The memory limit is checked as the file is read.
    let big: String = (0..100_000).map(|i| format!("p{i} p{}\n", i + 1)).collect();
    let err = NamedGraph::from_edge_list(big.as_bytes(), 1 << 20).unwrap_err();
    assert!(err.to_string().contains("memory limit"), "{err}");
}
