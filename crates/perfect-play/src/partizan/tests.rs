//! The partizan values against published ones, the reference table, a textbook
//! implementation and the algebra's laws.

use super::notation::{parse, show};
use super::*;

fn value_of(text: &str) -> (GameTable, GameId) {
    let mut games = GameTable::new();
    let g = parse(&mut games, text).unwrap_or_else(|e| panic!("{text}: {e}"));
    (games, g)
}

/// Values written by hand print in CGSuite's spelling (as its `NumberUpStar`, `Tiny`/`Miny`
/// and `+-` forms do), and what is printed reads back as the same game.
#[test]
fn values_print_in_cgsuite_notation_and_read_back() {
    let cases = [
        ("0", "0"),
        ("-3/2", "-3/2"),
        ("{|}", "0"),
        ("{0|}", "1"),
        ("{0|1}", "1/2"),
        ("{0|0}", "*"),
        ("{0,*|0,*}", "*2"),
        ("*3", "*3"),
        ("{0|*}", "^"),
        ("^ + ^ + ^", "^3"),
        ("v", "v"),
        ("^^*", "^^*"),
        ("{0,*|0}", "^*"),
        ("{1|-1}", "+-1"),
        ("{2|0||0}", "Miny(2)"),
        ("{0||0|-2}", "Tiny(2)"),
        ("2Tiny(2)", "2Tiny(2)"),
        ("{1|-1} + ^ + *", "{1^*|-1^*}"),
        ("1/2 + *", "1/2*"),
        ("9/4 + v + *", "9/4v*"),
        ("11/4*2", "11/4*2"),
        ("^<2>", "{0|v*}"),
        ("v[2]", "{*|v}"),
        ("{0||0|*}", "^^*"),
        ("{3|{2|1}}", "{3||2|1}"),
        ("{{2|1}|0}", "{2|1||0}"),
        ("+-{*,^}", "+-{*,^}"),
        ("(^ + *) - v", "^^*"),
        ("-1 - -1", "0"),
    ];
    for (text, printed) in cases {
        let (mut games, g) = value_of(text);
        let shown = show(&mut games, g);
        assert_eq!(shown, printed, "{text}");
        assert_eq!(parse(&mut games, &shown).unwrap(), g, "{text} -> {shown}");
    }
}

#[test]
fn bad_values_are_refused_with_the_place() {
    let mut games = GameTable::new();
    for (text, at) in [
        ("{1|2|3}", 5),
        ("{1|", 1),
        ("1/3", 4),
        ("{1,|0}", 4),
        ("x", 1),
        ("1 2", 3),
        ("99999999999999999999999", 0),
        ("^<0>", 4),
        ("Tiny(1", 7),
        ("}", 1),
    ] {
        let e = parse(&mut games, text).expect_err(text);
        if at > 0 {
            assert!(
                e.to_string().contains(&format!("character {at}")),
                "{text}: {e}"
            );
        }
    }
    let deep = format!("{}0{}", "{".repeat(300), "|}".repeat(300));
    assert!(
        parse(&mut games, &deep)
            .unwrap_err()
            .to_string()
            .contains("nested")
    );
}

/// The value of a position of `game` as the reference table names the games.
fn position_value(games: &mut GameTable, game: &str, position: &str) -> GameId {
    let got = match game {
        "domineering" => Valuer::new(domineering::Domineering)
            .value(games, &domineering::parse(position).unwrap()),
        "clobber" => Valuer::new(clobber::Clobber).value(games, &clobber::parse(position).unwrap()),
        "konane" => Valuer::new(konane::Konane).value(games, &konane::parse(position).unwrap()),
        "amazons" => Valuer::new(amazons::Amazons).value(games, &amazons::parse(position).unwrap()),
        "toads-and-frogs" => Valuer::new(toads_and_frogs::ToadsAndFrogs)
            .value(games, &toads_and_frogs::parse(position).unwrap()),
        "hackenbush" => Valuer::new(hackenbush::HackenbushStalks)
            .value(games, &hackenbush::parse(position).unwrap()),
        "cutcake" => Valuer::new(cutcake::Cutcake).value(games, &cutcake::parse(position).unwrap()),
        _ => panic!("unknown game {game}"),
    };
    got.unwrap_or_else(|e| panic!("{game} {position}: {e}"))
}

/// `tests/reference/partizan_dev.tsv` (a copy of `shared/reference/partizan_dev.tsv`): 240
/// positions of six games with their canonical forms from cgt-py 0.11.0 and from game trees
/// by the textbook rules. Compared by value: the table's spelling is read as a game.
#[test]
fn the_reference_positions_have_their_published_values() {
    let text = include_str!("../../tests/reference/partizan_dev.tsv");
    let mut games = GameTable::new();
    let mut checked = 0;
    let mut wrong = Vec::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let fields: Vec<&str> = line.split('\t').collect();
        let (game, position, expected) = (fields[0], fields[1], fields[2]);
        let want = parse(&mut games, expected).unwrap_or_else(|e| panic!("{expected}: {e}"));
        let got = position_value(&mut games, game, position);
        if got != want {
            let shown = show(&mut games, got);
            wrong.push(format!("{game} {position}: {shown}, published {expected}"));
        }
        // What we print reads back as the same game.
        let shown = show(&mut games, got);
        assert_eq!(parse(&mut games, &shown).unwrap(), got, "{shown}");
        checked += 1;
    }
    assert_eq!(checked, 240);
    assert!(
        wrong.is_empty(),
        "{} wrong:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

/// CGSuite's own test tables (`lib/core/src/test/scala/org/cgsuite/lang/GameGridTest.scala`
/// and `GameStripTest.scala`).
#[test]
fn cgsuite_published_values() {
    let cases = [
        (
            "domineering",
            "....|....|....|....",
            "+-{0,{{2|0},2Tiny(2)|{2|0},Miny(2)}}",
        ),
        ("clobber", "xox|ox.", "{^^*|*,v}"),
        (
            "amazons",
            "x...|o...",
            "+-{3,{4|0,{1|0,*}},{4|{0,{1/2|0}|v},+-1,+-{1,{2|0}}}}",
        ),
        (
            "toads-and-frogs",
            "ttttt..fffff",
            "+-{{2|*},{5/2||2|{0||||{0||v<2>|-1},{0||||0||Miny(1/32)|-2|||-1/2*}|||v<2>|-1/2||-1*}|||0}}",
        ),
    ];
    let mut games = GameTable::new();
    for (game, position, published) in cases {
        let want = parse(&mut games, published).unwrap_or_else(|e| panic!("{published}: {e}"));
        let got = position_value(&mut games, game, position);
        assert_eq!(got, want, "{game} {position}: {}", show(&mut games, got));
    }
}

/// A game tree as the textbook writes it: options listed, nothing shared or cached.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Tree {
    left: Vec<Tree>,
    right: Vec<Tree>,
}

/// `g <= h` by the definition: no `g^L >= h` and no `h^R <= g`.
fn tree_leq(g: &Tree, h: &Tree) -> bool {
    !g.left.iter().any(|gl| tree_leq(h, gl)) && !h.right.iter().any(|hr| tree_leq(hr, g))
}

/// The canonical form by the textbook rules: dominated options removed, reversible ones
/// bypassed, until neither is left; options sorted so that equal forms are equal trees.
fn textbook_canonical(left: Vec<Tree>, right: Vec<Tree>) -> Tree {
    let mut g = Tree { left, right };
    loop {
        let mut changed = false;
        for side in 0..2 {
            let options = if side == 0 { &g.left } else { &g.right };
            let mut kept: Vec<Tree> = Vec::new();
            for (i, a) in options.iter().enumerate() {
                let dominated = options.iter().enumerate().any(|(j, b)| {
                    let (worse, equal) = if side == 0 {
                        (tree_leq(a, b), tree_leq(b, a))
                    } else {
                        (tree_leq(b, a), tree_leq(a, b))
                    };
                    // Of two equal options the later one stays.
                    j != i && worse && (!equal || j > i)
                });
                if dominated {
                    changed = true;
                } else {
                    kept.push(a.clone());
                }
            }
            if side == 0 {
                g.left = kept;
            } else {
                g.right = kept;
            }
        }
        // Reversible: G^L with some G^LR <= G; G^R with some G^RL >= G.
        let reversible_left = g.left.iter().enumerate().find_map(|(i, gl)| {
            gl.right
                .iter()
                .find(|glr| tree_leq(glr, &g))
                .map(|glr| (i, glr.left.clone()))
        });
        if let Some((i, replacements)) = reversible_left {
            g.left.remove(i);
            g.left.extend(replacements);
            changed = true;
        } else if let Some((i, replacements)) = g.right.iter().enumerate().find_map(|(i, gr)| {
            gr.left
                .iter()
                .find(|grl| tree_leq(&g, grl))
                .map(|grl| (i, grl.right.clone()))
        }) {
            g.right.remove(i);
            g.right.extend(replacements);
            changed = true;
        }
        if !changed {
            g.left.sort();
            g.right.sort();
            return g;
        }
    }
}

/// The textbook canonical form of a position, from its whole game tree (no regions).
fn textbook_value<R: PartizanRules>(rules: &R, position: &R::Position) -> Tree {
    let left = rules
        .options(position, Side::Left)
        .iter()
        .map(|o| textbook_value(rules, o))
        .collect();
    let right = rules
        .options(position, Side::Right)
        .iter()
        .map(|o| textbook_value(rules, o))
        .collect();
    textbook_canonical(left, right)
}

/// A canonical form of the table as a tree (options sorted).
fn as_tree(games: &mut GameTable, g: GameId) -> Tree {
    let mut left: Vec<Tree> = games
        .options(g, Side::Left)
        .into_iter()
        .map(|o| as_tree(games, o))
        .collect();
    let mut right: Vec<Tree> = games
        .options(g, Side::Right)
        .into_iter()
        .map(|o| as_tree(games, o))
        .collect();
    left.sort();
    right.sort();
    Tree { left, right }
}

/// Every word of `length` letters of `alphabet`.
fn words(alphabet: &[u8], length: usize) -> Vec<Vec<u8>> {
    let mut all = vec![Vec::new()];
    for _ in 0..length {
        all = all
            .into_iter()
            .flat_map(|w| alphabet.iter().map(move |&c| [w.clone(), vec![c]].concat()))
            .collect();
    }
    all
}

/// Every board of the given shapes over `alphabet`, as text.
fn boards(alphabet: &[u8], shapes: &[(usize, usize)]) -> Vec<String> {
    let mut all = Vec::new();
    for &(rows, columns) in shapes {
        for cells in words(alphabet, rows * columns) {
            let text: Vec<String> = cells
                .chunks(columns)
                .map(|row| String::from_utf8(row.to_vec()).unwrap())
                .collect();
            all.push(text.join("|"));
        }
    }
    all
}

/// The fast value (regions, caches, shortcuts) of every position agrees with the textbook's.
fn agrees_with_the_textbook<R: PartizanRules + Copy>(
    rules: R,
    positions: impl IntoIterator<Item = R::Position>,
) -> usize {
    let mut games = GameTable::new();
    let mut valuer = Valuer::new(rules);
    let mut count = 0;
    for position in positions {
        let fast = valuer.value(&mut games, &position).unwrap();
        let slow = textbook_value(&rules, &position);
        assert_eq!(
            as_tree(&mut games, fast),
            slow,
            "{}",
            show(&mut games, fast)
        );
        count += 1;
    }
    count
}

#[test]
fn domineering_agrees_with_the_textbook_on_every_small_board() {
    let shapes = [(1, 4), (2, 2), (2, 3), (3, 2), (3, 3), (1, 6), (2, 4)];
    let positions = boards(b".#", &shapes)
        .into_iter()
        .map(|t| domineering::parse(&t).unwrap());
    assert_eq!(
        agrees_with_the_textbook(domineering::Domineering, positions),
        16 + 16 + 64 * 2 + 512 + 64 + 256
    );
}

#[test]
fn clobber_and_konane_agree_with_the_textbook_on_every_small_board() {
    let shapes = [(1, 5), (2, 2), (2, 3), (3, 2)];
    let texts = boards(b"xo.", &shapes);
    let n = agrees_with_the_textbook(
        clobber::Clobber,
        texts.iter().map(|t| clobber::parse(t).unwrap()),
    );
    assert_eq!(n, 243 + 81 + 729 * 2);
    let n = agrees_with_the_textbook(
        konane::Konane,
        texts.iter().map(|t| konane::parse(t).unwrap()),
    );
    assert_eq!(n, 243 + 81 + 729 * 2);
}

#[test]
fn amazons_agrees_with_the_textbook_on_small_boards() {
    // One amazon each on a 2 x 3 board, every other cell empty or burnt.
    let positions = boards(b"xo#.", &[(2, 3), (1, 5)])
        .into_iter()
        .filter(|t| t.matches('x').count() == 1 && t.matches('o').count() == 1)
        .map(|t| amazons::parse(&t).unwrap());
    assert!(agrees_with_the_textbook(amazons::Amazons, positions) > 100);
}

#[test]
fn toads_and_frogs_agrees_with_the_textbook_on_every_short_row() {
    let rows = (1..=6).flat_map(|n| words(b"tf.", n));
    assert_eq!(
        agrees_with_the_textbook(toads_and_frogs::ToadsAndFrogs, rows),
        3 + 9 + 27 + 81 + 243 + 729
    );
}

#[test]
fn hackenbush_and_cutcake_agree_with_the_textbook() {
    let stalks: Vec<Vec<Vec<u8>>> = (1..=5)
        .flat_map(|n| words(b"lre", n))
        .flat_map(|w| {
            // One stalk, and the same cut in two.
            let cut = w.len() / 2;
            let mut two = vec![w[..cut].to_vec(), w[cut..].to_vec()];
            two.retain(|s| !s.is_empty());
            two.sort();
            [vec![w.clone()], two]
        })
        .collect();
    assert_eq!(
        agrees_with_the_textbook(hackenbush::HackenbushStalks, stalks),
        2 * (3 + 9 + 27 + 81 + 243)
    );
    let cakes = (1..=3u32).flat_map(|w| (1..=3u32).map(move |h| vec![(w, h)]));
    assert_eq!(agrees_with_the_textbook(cutcake::Cutcake, cakes), 9);
}

/// Games built at random: each a form `{some earlier games | some earlier games}`, made
/// canonical by the table, from choices that proptest draws (and shrinks).
pub(super) fn random_games(games: &mut GameTable, choices: &[(u32, u32)]) -> Vec<GameId> {
    let mut pool = vec![GameId::ZERO];
    for &(left_mask, right_mask) in choices {
        let pick = |mask: u32, pool: &[GameId]| -> Vec<GameId> {
            pool.iter()
                .rev()
                .take(6)
                .enumerate()
                .filter(|(i, _)| mask >> i & 1 == 1)
                .map(|(_, &g)| g)
                .collect()
        };
        let (left, right) = (pick(left_mask, &pool), pick(right_mask, &pool));
        let g = games.make(left, right).unwrap();
        pool.push(g);
    }
    pool
}

/// Who wins `position` with `side` to move, by searching its game tree.
fn first_player_wins<R: PartizanRules>(rules: &R, position: &R::Position, side: Side) -> bool {
    rules
        .options(position, side)
        .iter()
        .any(|o| !first_player_wins(rules, o, side.other()))
}

use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn the_laws_of_sums_hold(choices in prop::collection::vec((0u32..64, 0u32..64), 1..9)) {
        let mut games = GameTable::new();
        let pool = random_games(&mut games, &choices);
        let n = pool.len();
        let (g, h, k) = (pool[n - 1], pool[n / 2], pool[(n * 2) / 3]);
        // G - G = 0.
        prop_assert_eq!(games.difference(g, g).unwrap(), GameId::ZERO);
        // Commutative and associative.
        prop_assert_eq!(games.sum(g, h).unwrap(), games.sum(h, g).unwrap());
        let gh = games.sum(g, h).unwrap();
        let hk = games.sum(h, k).unwrap();
        prop_assert_eq!(games.sum(gh, k).unwrap(), games.sum(g, hk).unwrap());
        // -(-G) = G, and G <= H exactly when H - G >= 0.
        let minus = games.neg(g);
        prop_assert_eq!(games.neg(minus), g);
        let d = games.difference(h, g).unwrap();
        prop_assert_eq!(games.leq(g, h), games.leq(GameId::ZERO, d));
        // The table's comparison agrees with the definition on the trees.
        let (tg, th) = (as_tree(&mut games, g), as_tree(&mut games, h));
        prop_assert_eq!(games.leq(g, h), tree_leq(&tg, &th));
        // What is printed reads back as the same game.
        let shown = show(&mut games, gh);
        prop_assert_eq!(parse(&mut games, &shown).unwrap(), gh, "{}", shown);
    }

    #[test]
    fn the_outcome_class_agrees_with_a_search_of_the_game_tree(
        cells in prop::collection::vec(prop::sample::select(vec![b'x', b'o', b'.']), 6..=9),
        domino in prop::collection::vec(prop::sample::select(vec![b'.', b'.', b'#']), 9..=12),
    ) {
        let mut games = GameTable::new();
        let width = 3;
        let rows = cells.len() / width;
        let text: Vec<String> = cells[..rows * width]
            .chunks(width)
            .map(|r| String::from_utf8(r.to_vec()).unwrap())
            .collect();
        let position = clobber::parse(&text.join("|")).unwrap();
        let g = Valuer::new(clobber::Clobber).value(&mut games, &position).unwrap();
        let class = games.outcome(g);
        for side in [Side::Left, Side::Right] {
            prop_assert_eq!(
                class.first_player_wins(side),
                first_player_wins(&clobber::Clobber, &position, side)
            );
        }
        let rows = domino.len() / width;
        let text: Vec<String> = domino[..rows * width]
            .chunks(width)
            .map(|r| String::from_utf8(r.to_vec()).unwrap())
            .collect();
        let position = domineering::parse(&text.join("|")).unwrap();
        let g = Valuer::new(domineering::Domineering).value(&mut games, &position).unwrap();
        let class = games.outcome(g);
        for side in [Side::Left, Side::Right] {
            prop_assert_eq!(
                class.first_player_wins(side),
                first_player_wins(&domineering::Domineering, &position, side)
            );
        }
    }
}

/// Hackenbush on graphs: a path from the ground is the stalk of the same colours; every
/// colouring of small graphs with cycles, parallel edges and loops agrees with the textbook
/// (which values the graph whole, not part by part); a blue triangle on the ground is 3
/// (each cut leaves two blue edges).
#[test]
fn hackenbush_graphs_agree_with_stalks_and_the_textbook() {
    let colours = [b'l', b'r', b'e'];
    let mut games = GameTable::new();
    let mut stalks = Valuer::new(hackenbush::HackenbushStalks);
    let mut graphs = Valuer::new(hackenbush::HackenbushGraph);
    let mut paths = 0;
    for length in 1..=4u32 {
        for code in 0..3usize.pow(length) {
            let edges: Vec<u8> = (0..length)
                .map(|i| colours[code / 3usize.pow(i) % 3])
                .collect();
            let stalk = String::from_utf8(edges.clone()).unwrap();
            let graph: Vec<String> = edges
                .iter()
                .enumerate()
                .map(|(i, &c)| {
                    let below = if i == 0 {
                        "g".to_string()
                    } else {
                        i.to_string()
                    };
                    format!("{below} {} {}", i + 1, c as char)
                })
                .collect();
            let s = stalks
                .value(&mut games, &hackenbush::parse(&stalk).unwrap())
                .unwrap();
            let g = graphs
                .value(
                    &mut games,
                    &hackenbush::parse_graph(&graph.join("; ")).unwrap(),
                )
                .unwrap();
            assert_eq!(s, g, "{stalk}");
            paths += 1;
        }
    }
    assert_eq!(paths, 3 + 9 + 27 + 81);
    let shapes: [&[(&str, &str)]; 5] = [
        &[("g", "a"), ("a", "b"), ("b", "g")],
        &[("g", "a"), ("g", "a"), ("a", "b")],
        &[("g", "g"), ("g", "a"), ("a", "a")],
        &[("g", "a"), ("a", "b"), ("b", "c"), ("c", "g")],
        &[("g", "a"), ("a", "b"), ("b", "g"), ("b", "c"), ("g", "d")],
    ];
    let mut positions = Vec::new();
    for shape in shapes {
        for code in 0..3usize.pow(shape.len() as u32) {
            let text: Vec<String> = shape
                .iter()
                .enumerate()
                .map(|(i, (u, v))| {
                    format!(
                        "{u} {v} {}",
                        colours[code / 3usize.pow(i as u32) % 3] as char
                    )
                })
                .collect();
            positions.push(hackenbush::parse_graph(&text.join("\n")).unwrap());
        }
    }
    assert_eq!(
        agrees_with_the_textbook(hackenbush::HackenbushGraph, positions),
        27 + 27 + 27 + 81 + 243
    );
    let (mut games, triangle) = value_of("3");
    let blue = graphs_value(&mut games, "g a l; a b l; b g l");
    assert_eq!(blue, triangle);
    // An edge hanging from nothing falls at once: only what reaches the ground counts.
    assert_eq!(
        graphs_value(&mut games, "g a l; b c r"),
        games.integer(1).unwrap()
    );
}

fn graphs_value(games: &mut GameTable, text: &str) -> GameId {
    Valuer::new(hackenbush::HackenbushGraph)
        .value(games, &hackenbush::parse_graph(text).unwrap())
        .unwrap()
}

/// The textbook sum of two trees: each player moves in one of them.
fn tree_sum(g: &Tree, h: &Tree) -> Tree {
    let mut left: Vec<Tree> = g.left.iter().map(|gl| tree_sum(gl, h)).collect();
    left.extend(h.left.iter().map(|hl| tree_sum(g, hl)));
    let mut right: Vec<Tree> = g.right.iter().map(|gr| tree_sum(gr, h)).collect();
    right.extend(h.right.iter().map(|hr| tree_sum(g, hr)));
    textbook_canonical(left, right)
}

/// Numbers, ups and nimbers built at once (as CGSuite builds them) are the textbook sums
/// of their parts, are known as such when entered, and add part by part.
#[test]
fn numbers_ups_and_nimbers_are_built_whole_and_add_part_by_part() {
    let zero = Tree {
        left: vec![],
        right: vec![],
    };
    let one = Tree {
        left: vec![zero.clone()],
        right: vec![],
    };
    let half = textbook_canonical(vec![zero.clone()], vec![one.clone()]);
    let minus_one = Tree {
        left: vec![],
        right: vec![zero.clone()],
    };
    let mut nimbers = vec![zero.clone()];
    for _ in 0..3 {
        let below = nimbers.clone();
        nimbers.push(Tree {
            left: below.clone(),
            right: below,
        });
    }
    let up = textbook_canonical(vec![zero.clone()], vec![nimbers[1].clone()]);
    let down = textbook_canonical(vec![nimbers[1].clone()], vec![zero.clone()]);
    let mut games = GameTable::new();
    for (x, x_tree) in [
        (Dyadic::ZERO, &zero),
        (Dyadic::new(1, 1).unwrap(), &half),
        (Dyadic::integer(-1).unwrap(), &minus_one),
    ] {
        for n in -3i64..=3 {
            for m in 0u32..4 {
                let mut tree = tree_sum(x_tree, &nimbers[m as usize]);
                for _ in 0..n.unsigned_abs() {
                    tree = tree_sum(&tree, if n > 0 { &up } else { &down });
                }
                let g = games.number_up_star(x, n, m).unwrap();
                assert_eq!(as_tree(&mut games, g), tree, "{x} {n} {m}");
                assert_eq!(games.as_number_up_star(g), Some((x, n, m)), "{x} {n} {m}");
            }
        }
    }
    // Part by part.
    let a = games
        .number_up_star(Dyadic::new(1, 1).unwrap(), 3, 2)
        .unwrap();
    let b = games.number_up_star(Dyadic::ZERO, -5, 3).unwrap();
    let s = games.sum(a, b).unwrap();
    assert_eq!(
        games.as_number_up_star(s),
        Some((Dyadic::new(1, 1).unwrap(), -2, 1))
    );
    // A value met in play is known as one: tft.tff (Toads and Frogs) is ^.
    let g = position_value(&mut games, "toads-and-frogs", "tft.tff");
    assert_eq!(games.as_number_up_star(g), Some((Dyadic::ZERO, 1, 0)));
}
