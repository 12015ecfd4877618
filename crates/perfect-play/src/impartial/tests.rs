use super::*;
use crate::player::Outcome;
use crate::solver::Solver;
use num_traits::Zero;
use proptest::prelude::*;

fn quiet(_: u64, _: u64) {}

fn game(text: &str) -> HeapGame {
    text.parse().unwrap()
}

fn component(text: &str) -> Component {
    text.parse().unwrap()
}

/// Every kind of game, small enough for exhaustive checks.
const GAMES: [&str; 16] = [
    "nim",
    "0.77",
    "0.07",
    "grundy",
    "0.3F",
    "4.7",
    "subtract=1,3,4",
    "subtract=2,5",
    "squares",
    "powers-of-two",
    "primes",
    "fibonacci",
    "at-least-half",
    "half",
    "mock-turtles",
    "ruler",
];

/// The mex over every move [`SumGame::heap_moves`] lists: the definition, independent of the
/// engines' tables.
fn by_definition(g: &HeapGame, upto: u32) -> Vec<u32> {
    let sum = SumGame {
        games: vec![g.clone()],
        misere: false,
    };
    let mut values: Vec<u32> = Vec::new();
    for h in 0..=upto {
        let options: std::collections::BTreeSet<u32> = sum
            .heap_moves(0, h)
            .iter()
            .map(|(_, leaves)| leaves.iter().fold(0, |a, &l| a ^ values[l as usize]))
            .collect();
        values.push((0..).find(|v| !options.contains(v)).unwrap());
    }
    values
}

#[test]
fn every_game_follows_the_definition() {
    for text in GAMES {
        let g = game(text);
        let upto = match text {
            "0.3F" | "mock-turtles" => 300,
            _ => 2000,
        };
        let table = Values::compute(&g, upto.into(), &Limits::default(), &quiet).unwrap();
        let expected = by_definition(&g, upto);
        assert_eq!(table.values, expected, "{text}");
        // What answers past the table agrees with the table where both apply.
        for n in 0..=u64::from(upto) {
            assert_eq!(
                table.value(&n.into()),
                Some(expected[n as usize].into()),
                "{text} {n}"
            );
        }
    }
}

#[test]
fn names_round_trip_and_bad_names_say_why() {
    for text in GAMES {
        let g = game(text);
        let again: HeapGame = g.to_string().parse().unwrap();
        assert_eq!(g, again, "{text}");
    }
    assert_eq!(game("4!.0"), game("grundy"));
    assert_eq!(game("half"), HeapGame::Rule(SetRule::AtMostHalf));
    for (bad, says) in [
        ("nosuchgame:5", "is not a game"),
        ("grundy:x", "grundy:x"),
        ("0.7Z:5", "code"),
        ("0.77", "GAME:HEAP"),
        ("subtract=0,3:4", "subtract="),
        ("subtract=:4", "subtract="),
        ("nim:-1", "nim:-1"),
    ] {
        let err = bad.parse::<Component>().unwrap_err().to_string();
        assert!(err.contains(says), "{bad}: {err}");
    }
}

#[test]
fn the_issue_example() {
    let sum: Vec<Component> = [
        "0.77:10",
        "grundy:12",
        "squares:100",
        "subtract=1,3,4:7",
        "nim:5",
    ]
    .iter()
    .map(|c| component(c))
    .collect();
    let a = analyse_sum(&sum, &Limits::default()).unwrap();
    // Kayles 10: 2; Grundy's game 12: 1 (A002188); subtract {1,3,4} at 7: 0 (period 7: 0 1 0 1 2 3 2);
    // nim 5: 5.
    assert_eq!(a.values[0], 2u8.into());
    assert_eq!(a.values[1], 1u8.into());
    assert_eq!(a.values[3], 0u8.into());
    assert_eq!(a.values[4], 5u8.into());
    let squares = by_definition(&game("squares"), 100)[100];
    assert_eq!(a.values[2], squares.into());
    assert_eq!(a.nim_sum, BigUint::from(2u32 ^ 1 ^ squares ^ 5));
    assert!(a.explanation.contains("component"), "{}", a.explanation);
}

/// The sum after a move: the component replaced by the heaps it leaves (a heap of Nim 0 keeps
/// the sum non-empty).
fn after_move(components: &[Component], m: &ComponentMove) -> Vec<Component> {
    let mut after = components.to_vec();
    let moved = after.remove(m.component - 1);
    for l in &m.leaves {
        after.push(Component {
            game: moved.game.clone(),
            heap: l.clone(),
        });
    }
    after.push(component("nim:0"));
    after
}

/// Small sums of every kind through the generic solver.
fn small_sum() -> impl Strategy<Value = Vec<(usize, u32)>> {
    prop::collection::vec((0..GAMES.len(), 0u32..9), 1..=3)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn a_sum_is_lost_exactly_when_the_nim_sum_is_zero(parts in small_sum()) {
        let components: Vec<Component> = parts
            .iter()
            .map(|&(g, h)| Component { game: game(GAMES[g]), heap: h.into() })
            .collect();
        let a = analyse_sum(&components, &Limits::default()).unwrap();
        let games: Vec<HeapGame> = GAMES.iter().map(|t| game(t)).collect();
        let sum = SumGame { games, misere: false };
        let mut solver = Solver::new(sum.clone());
        let start = sum.canonical(parts.clone());
        let v = solver.value(&start);
        prop_assert_eq!(v.outcome() == Outcome::Win, a.first_player_wins);
        prop_assert_eq!(a.nim_sum.is_zero(), !a.first_player_wins);
        // Every winning move leaves nim-sum 0 and a lost position, and they are all of them.
        let mut by_search = 0u32;
        for (i, &(g, h)) in parts.iter().enumerate() {
            if parts[..i].contains(&(g, h)) {
                continue;
            }
            for (_, leaves) in sum.heap_moves(g, h) {
                let mut after = parts.clone();
                after.remove(i);
                after.extend(leaves.iter().map(|&l| (g, l)));
                if solver.value(&sum.canonical(after)).outcome() == Outcome::Loss {
                    by_search += 1;
                }
            }
        }
        prop_assert_eq!(a.winning_moves_total.clone(), BigUint::from(by_search));
        for m in &a.winning_moves {
            let b = analyse_sum(&after_move(&components, m), &Limits::default()).unwrap();
            prop_assert!(b.nim_sum.is_zero(), "{:?} -> {:?}", parts, m);
        }
    }
}

#[test]
fn huge_heaps_through_periods_and_formulas() {
    let huge = "123456789012345678901234567890";
    for (text, expect_value) in [
        (format!("subtract=1,3,4:{huge}"), None),
        (
            format!("powers-of-two:{huge}"),
            Some(BigUint::parse_bytes(huge.as_bytes(), 10).unwrap() % 3u8),
        ),
        (format!("0.77:{huge}"), None),
        (
            format!("nim:{huge}"),
            Some(BigUint::parse_bytes(huge.as_bytes(), 10).unwrap()),
        ),
        (
            format!("at-least-half:{huge}"),
            Some(BigUint::from(
                BigUint::parse_bytes(huge.as_bytes(), 10).unwrap().bits(),
            )),
        ),
        (format!("half:{huge}"), None),
    ] {
        let c = component(&text);
        let a = analyse_sum(&[c.clone(), component("nim:1")], &Limits::default()).unwrap();
        if let Some(v) = expect_value {
            assert_eq!(a.values[0], v, "{text}");
        }
        // Each listed move must leave nim-sum 0 again.
        let sum = [c.clone(), component("nim:1")];
        for m in &a.winning_moves {
            let b = analyse_sum(&after_move(&sum, m), &Limits::default()).unwrap();
            assert!(b.nim_sum.is_zero(), "{text}: {m:?}");
        }
    }
    // A target far past what a heap can reach: no move, and no power of two of that size.
    let a = analyse_sum(
        &[
            component("at-least-half:5"),
            component("nim:1000000000000000000"),
        ],
        &Limits::default(),
    )
    .unwrap();
    assert!(a.winning_moves.iter().all(|m| m.component == 2));
    // No period, no formula: refused with the figure.
    let err =
        analyse_sum(&[component(&format!("squares:{huge}"))], &Limits::default()).unwrap_err();
    assert!(matches!(err, ImpartialError::HeapTooLarge { .. }), "{err}");
    let err = analyse_sum(&[component(&format!("grundy:{huge}"))], &Limits::default()).unwrap_err();
    assert!(err.to_string().contains("grundy"), "{err}");
}

#[test]
fn misere_sums_by_search() {
    // Misère Nim: the player to move wins unless every heap is at most 1 and their count is
    // odd, or some heap is larger and the nim-sum is 0 (Bouton).
    for a in 0..6u32 {
        for b in 0..6u32 {
            let sum = [
                component(&format!("nim:{a}")),
                component(&format!("nim:{b}")),
            ];
            let m = analyse_misere(&sum, &Limits::default()).unwrap();
            let heaps = [u64::from(a), u64::from(b)];
            assert_eq!(
                m.outcome == Outcome::Win,
                crate::nim::misere_wins(&heaps),
                "{a} {b}"
            );
        }
    }
    // Grundy's game 7 alone: misère value 1 per CGSuite (the player to move wins).
    let m = analyse_misere(&[component("grundy:7")], &Limits::default()).unwrap();
    assert_eq!(m.outcome, Outcome::Win);
    // Few positions but 10^10 moves among them: refused too.
    let err = analyse_misere(&[component("nim:100000")], &Limits::default()).unwrap_err();
    assert!(matches!(err, ImpartialError::MisereTooLarge(_)));
    // Too large: refused before the search.
    let err = analyse_misere(
        &[component("0.77:300"), component("grundy:300")],
        &Limits::default(),
    )
    .unwrap_err();
    assert!(matches!(err, ImpartialError::MisereTooLarge(_)));
}

#[test]
fn the_fast_lookup_agrees_with_the_general_one() {
    // `get` reads the table first; `value` asks the formula or the period first: the two
    // must give every heap the same value, inside the table and past it.
    for text in GAMES {
        let g = game(text);
        let table = Values::compute_proving(&g, 300, &Limits::default(), &quiet).unwrap();
        let beyond = table.values.len() as u64 + 500;
        for n in 0..beyond {
            let general = table.value(&n.into()).and_then(|v| v.to_u32());
            assert_eq!(table.get(n), general, "{text}, heap {n}");
        }
    }
}
