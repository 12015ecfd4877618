//! Temperature, mean, thermographs, cooling, heating, reduced forms, incentives and atomic
//! weights against CGSuite's own test table and the laws they obey.

use super::notation::parse;
use super::*;

/// A game read from CGSuite's notation.
fn game(games: &mut GameTable, text: &str) -> GameId {
    parse(games, text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn number(text: &str) -> Dyadic {
    let mut games = GameTable::new();
    let g = game(&mut games, text);
    games
        .as_number(g)
        .unwrap_or_else(|| panic!("{text} is not a number"))
}

/// The members of a set written `{a,b,...}`, split at the commas outside braces.
fn members(set: &str) -> Vec<&str> {
    let inner = &set[1..set.len() - 1];
    let mut out = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    for (i, c) in inner.char_indices() {
        match c {
            '{' | '(' => depth += 1,
            '}' | ')' => depth -= 1,
            ',' if depth == 0 => {
                out.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    if !inner.is_empty() {
        out.push(&inner[start..]);
    }
    out
}

/// One wall as CGSuite prints it: the value at the top, the critical temperatures from the
/// top down, and the slopes from the top down (one more than the temperatures).
struct PrintedWall {
    top: Dyadic,
    critical: Vec<Dyadic>,
    slopes: Vec<i8>,
}

impl PrintedWall {
    /// The value at `t`, walking down from the top.
    fn at(&self, t: Dyadic) -> Dyadic {
        let mut value = self.top;
        let mut upper: Option<Dyadic> = None;
        for (i, &slope) in self.slopes.iter().enumerate() {
            let lower = self.critical.get(i).copied();
            // The segment runs from `lower` (or -infinity) up to `upper` (or +infinity).
            let bottom = lower.map_or(t, |l| l.max(t));
            if let Some(u) = upper {
                if t >= u {
                    break;
                }
                let drop = u.checked_sub(bottom).unwrap();
                for _ in 0..slope.unsigned_abs() {
                    value = if slope > 0 {
                        value.checked_sub(drop).unwrap()
                    } else {
                        value.checked_add(drop).unwrap()
                    };
                }
            }
            match lower {
                Some(l) if t < l => upper = Some(l),
                _ => break,
            }
        }
        value
    }
}

fn printed_thermograph(text: &str) -> (PrintedWall, PrintedWall) {
    let inner = text
        .strip_prefix("Thermograph(")
        .and_then(|t| t.strip_suffix(')'))
        .unwrap();
    // mast,[..],[..],mast,[..],[..]
    let mut parts = Vec::new();
    let mut rest = inner;
    while !rest.is_empty() {
        let end = if rest.starts_with('[') {
            rest.find(']').unwrap() + 1
        } else {
            rest.find(',').unwrap_or(rest.len())
        };
        parts.push(&rest[..end]);
        rest = rest[end..].strip_prefix(',').unwrap_or(&rest[end..]);
    }
    fn list(s: &str) -> Vec<&str> {
        let s = &s[1..s.len() - 1];
        if s.is_empty() {
            Vec::new()
        } else {
            s.split(',').collect()
        }
    }
    let wall = |top: &str, critical: &str, slopes: &str| PrintedWall {
        top: number(top),
        critical: list(critical).into_iter().map(number).collect(),
        slopes: list(slopes)
            .into_iter()
            .map(|s| s.parse().unwrap())
            .collect(),
    };
    (
        wall(parts[0], parts[1], parts[2]),
        wall(parts[3], parts[4], parts[5]),
    )
}

/// Both walls agree with CGSuite's at every corner of either and between and beyond them.
fn assert_same_wall(ours: &Trajectory, printed: &PrintedWall, what: &str) {
    let mut at: Vec<Dyadic> = ours.pieces().iter().map(|p| p.from).collect();
    at.extend(
        printed
            .critical
            .iter()
            .copied()
            .filter(|&t| t >= Dyadic::MINUS_ONE),
    );
    at.push(Dyadic::MINUS_ONE);
    at.sort_unstable();
    at.dedup();
    let beyond = at
        .last()
        .unwrap()
        .checked_add(Dyadic::integer(1).unwrap())
        .unwrap();
    let mut samples = at.clone();
    samples.push(beyond);
    for pair in at.windows(2) {
        samples.push(pair[0].checked_add(pair[1]).unwrap().half().unwrap());
    }
    for t in samples {
        assert_eq!(ours.at(t).unwrap(), printed.at(t), "{what} at t = {t}");
    }
}

/// Every value of CGSuite's `CanonicalShortGameTestCase` table: temperature, mean, reduced
/// canonical form, atomic weight, incentives and thermograph, compared by value.
#[test]
fn cgsuite_operations_table_agrees() {
    let text = include_str!("../../tests/reference/cgsuite_operations.tsv");
    let mut checked = 0;
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let f: Vec<&str> = line.split('\t').collect();
        let [
            expr,
            temperature,
            mean,
            reduced,
            weight,
            left,
            right,
            thermograph,
        ] = f[..]
        else {
            panic!("{line}");
        };
        let mut games = GameTable::new();
        let g = game(&mut games, expr);
        let known = |s: &str| s != "?";
        if known(temperature) {
            assert_eq!(games.temperature(g).unwrap(), number(temperature), "{expr}");
        }
        if known(mean) {
            assert_eq!(games.mean(g).unwrap(), number(mean), "{expr}");
        }
        if known(reduced) {
            let want = game(&mut games, reduced);
            assert_eq!(games.reduced(g).unwrap(), want, "rcf {expr}");
        }
        if known(weight) {
            let want = (weight != "none").then(|| game(&mut games, weight));
            assert_eq!(games.atomic_weight(g).unwrap(), want, "aw {expr}");
        }
        for (set, side) in [(left, Side::Left), (right, Side::Right)] {
            if known(set) {
                let mut want: Vec<GameId> = members(set)
                    .into_iter()
                    .map(|m| game(&mut games, m))
                    .collect();
                want.sort_unstable();
                let mut ours = games.incentives(g, side).unwrap();
                ours.sort_unstable();
                assert_eq!(ours, want, "{side:?} incentives of {expr}");
            }
        }
        if known(thermograph) {
            let (left_wall, right_wall) = printed_thermograph(thermograph);
            let ours = games.thermograph(g).unwrap();
            assert_same_wall(&ours.left_wall, &left_wall, &format!("left wall of {expr}"));
            assert_same_wall(
                &ours.right_wall,
                &right_wall,
                &format!("right wall of {expr}"),
            );
        }
        checked += 1;
    }
    assert_eq!(checked, 25);
}

/// The distinct values of the reference positions, their temperature, reduced form and
/// cooled forms by 1/2, 1 and 2 as cgt-py computes them (`tests/reference/partizan_operations.tsv`).
#[test]
fn cgt_py_temperatures_reduced_forms_and_cooling_agree() {
    let text = include_str!("../../tests/reference/partizan_operations.tsv");
    let mut checked = 0;
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let f: Vec<&str> = line.split('\t').collect();
        let [value, temperature, reduced, half, one, two] = f[..] else {
            panic!("{line}");
        };
        let mut games = GameTable::new();
        let g = game(&mut games, value);
        assert_eq!(
            games.temperature(g).unwrap(),
            number(temperature),
            "{value}"
        );
        let want = game(&mut games, reduced);
        assert_eq!(games.reduced(g).unwrap(), want, "rcf {value}");
        for (t, cooled) in [("1/2", half), ("1", one), ("2", two)] {
            let want = game(&mut games, cooled);
            assert_eq!(
                games.cool(g, number(t)).unwrap(),
                want,
                "{value} cooled by {t}"
            );
        }
        checked += 1;
    }
    assert_eq!(checked, 99);
}

/// A Clobber position (all-small, so atomic) from proptest's cells, three to a row.
fn clobber_position(games: &mut GameTable, cells: &[u8]) -> GameId {
    let rows: Vec<String> = cells
        .chunks(3)
        .map(|r| String::from_utf8(r.to_vec()).unwrap())
        .collect();
    let position = clobber::parse(&rows.join("|")).unwrap();
    Valuer::new(clobber::Clobber)
        .value(games, &position)
        .unwrap()
}

use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Means add up; cooling is a homomorphism (heating is not: it reads the form); a sum is no hotter than its
    /// hottest part; the reduced form differs by an infinitesimal and reduces sums part by
    /// part; the walls are the stops and the mast is the mean.
    #[test]
    fn thermal_laws_hold(
        choices in prop::collection::vec((0u32..64, 0u32..64), 1..9),
        t in prop::sample::select(vec![(0i64, 0u32), (1, 2), (1, 1), (1, 0), (3, 1), (-1, 1)]),
    ) {
        let mut games = GameTable::new();
        let pool = super::tests::random_games(&mut games, &choices);
        let n = pool.len();
        let (g, h) = (pool[n - 1], pool[n / 2]);
        let gh = games.sum(g, h).unwrap();
        let (mg, mh, mgh) = (games.mean(g).unwrap(), games.mean(h).unwrap(), games.mean(gh).unwrap());
        prop_assert_eq!(mg.checked_add(mh).unwrap(), mgh);
        let (tg, th, tgh) = (
            games.temperature(g).unwrap(),
            games.temperature(h).unwrap(),
            games.temperature(gh).unwrap(),
        );
        prop_assert!(tgh <= tg.max(th), "T(G+H) = {} > max({}, {})", tgh, tg, th);

        let t = Dyadic::new(t.0, t.1).unwrap();
        let (cg, ch, cgh) = (games.cool(g, t).unwrap(), games.cool(h, t).unwrap(), games.cool(gh, t).unwrap());
        prop_assert_eq!(games.sum(cg, ch).unwrap(), cgh, "cooled by {}", t);
        let (rg, rh, rgh) = (games.reduced(g).unwrap(), games.reduced(h).unwrap(), games.reduced(gh).unwrap());
        let off = games.difference(g, rg).unwrap();
        prop_assert!(games.is_infinitesimal(off));
        let parts = games.sum(rg, rh).unwrap();
        prop_assert_eq!(games.reduced(parts).unwrap(), rgh);

        let thermograph = games.thermograph(g).unwrap();
        let (left, right) = games.stops(g);
        prop_assert_eq!(thermograph.left_wall.at(Dyadic::ZERO).unwrap(), left);
        prop_assert_eq!(thermograph.right_wall.at(Dyadic::ZERO).unwrap(), right);
        let above = thermograph.temperature.checked_add(Dyadic::integer(1).unwrap()).unwrap();
        prop_assert_eq!(thermograph.left_wall.at(above).unwrap(), mg);
        prop_assert_eq!(thermograph.right_wall.at(above).unwrap(), mg);
    }

    /// Atomic weights of all-small games add up, and the two-ahead rule holds: a weight of
    /// 2 or more wins for Left whoever starts, -2 or less for Right.
    #[test]
    fn atomic_weights_add_up_and_two_ahead_wins(
        a in prop::collection::vec(prop::sample::select(vec![b'x', b'o', b'.']), 6),
        b in prop::collection::vec(prop::sample::select(vec![b'x', b'o', b'.', b'o']), 6),
    ) {
        let mut games = GameTable::new();
        let (g, h) = (clobber_position(&mut games, &a), clobber_position(&mut games, &b));
        let gh = games.sum(g, h).unwrap();
        let (wg, wh, wgh) = (
            games.atomic_weight(g).unwrap().unwrap(),
            games.atomic_weight(h).unwrap().unwrap(),
            games.atomic_weight(gh).unwrap().unwrap(),
        );
        prop_assert_eq!(games.sum(wg, wh).unwrap(), wgh);
        let (two, minus_two) = (games.integer(2).unwrap(), games.integer(-2).unwrap());
        if games.leq(two, wgh) {
            prop_assert_eq!(games.outcome(gh), OutcomeClass::Left);
        }
        if games.leq(wgh, minus_two) {
            prop_assert_eq!(games.outcome(gh), OutcomeClass::Right);
        }
    }
}

/// Textbook values (Winning Ways ch. 6; Siegel II.5), worked by hand: temperatures and
/// means of switches and numbers, `+-1` cooled by 1 is `*` and by 2 is 0, `*` heated by 1 is
/// `+-1` and `^` heated by 1 is `{1||0|-2}`, numbers are not heated.
#[test]
fn textbook_thermal_values() {
    let mut games = GameTable::new();
    let mut check = |text: &str, temperature: &str, mean: &str| {
        let g = game(&mut games, text);
        assert_eq!(games.temperature(g).unwrap(), number(temperature), "{text}");
        assert_eq!(games.mean(g).unwrap(), number(mean), "{text}");
    };
    check("{1|-1}", "1", "0");
    check("{3|-1}", "2", "1");
    check("{2|0||0}", "0", "0");
    check("*", "0", "0");
    check("1/2", "-1/2", "1/2");
    check("7", "-1", "7");
    check("{4|2||0}", "3/2", "3/2");
    let pm1 = game(&mut games, "{1|-1}");
    assert_eq!(games.cool(pm1, number("1")).unwrap(), game(&mut games, "*"));
    assert_eq!(games.cool(pm1, number("2")).unwrap(), GameId::ZERO);
    let star = game(&mut games, "*");
    let one = games.integer(1).unwrap();
    assert_eq!(games.heat(star, one).unwrap(), pm1);
    let up = game(&mut games, "^");
    assert_eq!(games.heat(up, one).unwrap(), game(&mut games, "{1||0|-2}"));
    let half = game(&mut games, "1/2");
    assert_eq!(games.heat(half, one).unwrap(), half);
    assert_eq!(games.heat(pm1, one).unwrap(), game(&mut games, "{2|-2}"));
    assert_eq!(
        games.cool(pm1, number("-1")),
        Err(PartizanError::CoolingTooCold(number("-1")))
    );
}

/// A number plus a nimber adds as such (the fuzz target's slow case: `{0||*-1 *-2} +-5*56-*`
/// took 41 s through the generic sum, its incentives adding `x*57` forms).
#[test]
fn numbers_with_nimbers_add_part_by_part() {
    let mut games = GameTable::new();
    let sum = game(&mut games, "3*5 + -1*6");
    assert_eq!(sum, game(&mut games, "2*3"));
    let by_options = game(&mut games, "{1/2,1/2*|1/2,1/2*}");
    assert_eq!(by_options, game(&mut games, "1/2*2"));
    let big = game(&mut games, "{5*57|2*57} - {5*57|2*57}");
    assert_eq!(big, GameId::ZERO);
}
