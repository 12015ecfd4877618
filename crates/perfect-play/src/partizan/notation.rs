//! CGSuite's notation for short games, printed ([`show`]) and read ([`parse`]).
//!
//! - Numbers: `0`, `3`, `-3/2`. Nimbers: `*`, `*3`. Ups: `^`, `^^`, `v`, `vv`, `^3` (three
//!   ups). Together, number first: `1^^*`, `9/4v*`, `11/4*2`.
//! - Options: `{1|-1}`, `{0,*|0}`; a run of bars splits before a shorter one, so
//!   `{2|0||0}` is `{{2|0}|0}` and `{0||0|-1}` is `{0|{0|-1}}`.
//! - `+-G` is `{G|-G}` (`+-{a,b}`: `{a,b|-a,-b}`); `Tiny(G)` is `{0||0|-G}`, `Miny(G)` is
//!   `{G|0||0}`, and `2Tiny(2)` is `2 + Tiny(2)`.
//! - Sums and differences of any of these: `{1|-1} + ^ + *`, `(^ + *) - v`.
//!
//! Printing gives the canonical form in the same notation, which reads back as the same game.

use super::PartizanError;
use super::dyadic::Dyadic;
use super::table::{GameId, GameTable, Side};
use thiserror::Error;

/// Why a value in CGSuite's notation could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("at character {at} of the value: {why}")]
pub struct NotationError {
    /// The 1-based character where reading stopped.
    pub at: usize,
    /// What was expected.
    pub why: String,
}

/// The longest value read (in bytes): far beyond any value written by hand or printed
/// for a position this crate can value, and a bound on the parser's nesting.
pub const MAX_NOTATION_BYTES: usize = 1 << 20;

/// The most ups and the largest nimber written in one term: their canonical forms are built
/// option by option (a nimber's options are every smaller nimber).
pub const MAX_MULTIPLE: u64 = 64;

/// Braces and parentheses nested deeper than this are refused (the reader recurses).
pub const MAX_NESTING: usize = 200;

/// Read `text` as a game.
///
/// # Errors
/// [`PartizanError::Notation`] for text that is not a value; [`PartizanError::TooLarge`] or
/// [`PartizanError::TooManyGames`] when the value does not fit.
pub fn parse(games: &mut GameTable, text: &str) -> Result<GameId, PartizanError> {
    if text.len() > MAX_NOTATION_BYTES {
        return Err(NotationError {
            at: 1,
            why: format!(
                "the value is {} bytes long; at most {MAX_NOTATION_BYTES} are read",
                text.len()
            ),
        }
        .into());
    }
    let chars: Vec<char> = text.chars().collect();
    let mut reader = Reader {
        chars: &chars,
        at: 0,
        depth: 0,
        games,
    };
    let value = reader.expression()?;
    reader.skip_spaces();
    if reader.at < chars.len() {
        return Err(reader.error(format!("unexpected {:?}", chars[reader.at])));
    }
    Ok(value)
}

struct Reader<'a, 't> {
    chars: &'a [char],
    at: usize,
    depth: usize,
    games: &'t mut GameTable,
}

impl Reader<'_, '_> {
    fn error(&self, why: impl Into<String>) -> PartizanError {
        NotationError {
            at: self.at + 1,
            why: why.into(),
        }
        .into()
    }

    fn skip_spaces(&mut self) {
        while self.chars.get(self.at).is_some_and(|c| c.is_whitespace()) {
            self.at += 1;
        }
    }

    fn peek(&mut self) -> Option<char> {
        self.skip_spaces();
        self.chars.get(self.at).copied()
    }

    fn peek_str(&mut self, s: &str) -> bool {
        self.skip_spaces();
        s.chars()
            .enumerate()
            .all(|(i, c)| self.chars.get(self.at + i) == Some(&c))
    }

    fn expect(&mut self, c: char) -> Result<(), PartizanError> {
        if self.peek() == Some(c) {
            self.at += 1;
            Ok(())
        } else {
            Err(self.error(format!("expected {c:?}")))
        }
    }

    fn nest(&mut self) -> Result<(), PartizanError> {
        self.depth += 1;
        if self.depth > MAX_NESTING {
            return Err(self.error(format!("nested more than {MAX_NESTING} deep")));
        }
        Ok(())
    }

    /// Terms joined by `+` and `-`; a leading `-` on a number is the number's sign.
    fn expression(&mut self) -> Result<GameId, PartizanError> {
        let mut total = self.term()?;
        loop {
            if self.peek_str("+-") {
                // `a +-b` is a sum with a switch, not a plus and a minus.
                let next = self.term()?;
                total = self.games.sum(total, next)?;
            } else if self.peek() == Some('+') {
                self.at += 1;
                let next = self.term()?;
                total = self.games.sum(total, next)?;
            } else if self.peek() == Some('-') {
                self.at += 1;
                let next = self.term()?;
                total = self.games.difference(total, next)?;
            } else {
                return Ok(total);
            }
        }
    }

    /// One term, a `-` before a number taken as its sign, before anything else as negation.
    fn term(&mut self) -> Result<GameId, PartizanError> {
        if self.peek_str("+-") {
            return self.switch();
        }
        if self.peek() == Some('-') {
            self.at += 1;
            if self.peek().is_some_and(|c| c.is_ascii_digit()) {
                return self.literal(true);
            }
            let g = self.term_unsigned()?;
            return Ok(self.games.neg(g));
        }
        self.term_unsigned()
    }

    fn term_unsigned(&mut self) -> Result<GameId, PartizanError> {
        match self.peek() {
            None => Err(self.error("expected a value")),
            Some('{') => {
                let end = self.closing('{', '}')?;
                self.at += 1;
                self.nest()?;
                let g = self.braces(end)?;
                self.at = end + 1;
                self.depth -= 1;
                Ok(g)
            }
            Some('(') => {
                self.at += 1;
                self.nest()?;
                let g = self.expression()?;
                self.expect(')')?;
                self.depth -= 1;
                Ok(g)
            }
            Some('+') if self.peek_str("+-") => self.switch(),
            Some(_) if self.peek_str("Tiny(") || self.peek_str("Miny(") => self.tiny_or_miny(),
            Some(c) if c.is_ascii_digit() || matches!(c, '*' | '^' | 'v') => self.literal(false),
            Some(c) => Err(self.error(format!("unexpected {c:?}: expected a value"))),
        }
    }

    /// `+-G`: `{G | -G}`; `+-{a,b}`: `{a,b | -a,-b}`.
    fn switch(&mut self) -> Result<GameId, PartizanError> {
        self.at += 2;
        let options = if self.peek() == Some('{') {
            let end = self.closing('{', '}')?;
            let inside: String = self.chars[self.at + 1..end].iter().collect();
            if top_level(&inside, '|').is_empty() {
                self.at += 1;
                self.nest()?;
                let list = self.options_until(end)?;
                self.at = end + 1;
                self.depth -= 1;
                list
            } else {
                vec![self.term_unsigned()?]
            }
        } else {
            vec![self.term()?]
        };
        let negatives = options.iter().map(|&g| self.games.neg(g)).collect();
        self.games.make(options, negatives)
    }

    fn tiny_or_miny(&mut self) -> Result<GameId, PartizanError> {
        let tiny = self.peek_str("Tiny(");
        self.at += 5;
        self.nest()?;
        let g = self.expression()?;
        self.expect(')')?;
        self.depth -= 1;
        Ok(if tiny {
            tiny_of(self.games, g)?
        } else {
            miny_of(self.games, g)?
        })
    }

    /// A number, ups and a nimber, written together (`-9/4v*`, `1^^`, `*3`), or an integer
    /// before `Tiny(..)`/`Miny(..)`.
    fn literal(&mut self, negative: bool) -> Result<GameId, PartizanError> {
        let mut total = GameId::ZERO;
        if self.peek().is_some_and(|c| c.is_ascii_digit()) {
            let x = self.number()?;
            let x = if negative { x.negative() } else { x };
            total = self.games.number(x)?;
            if self.peek_str("Tiny(") || self.peek_str("Miny(") {
                let t = self.tiny_or_miny()?;
                return self.games.sum(total, t);
            }
        } else if negative {
            return Err(self.error("expected a number after '-'"));
        }
        let mut ups: i64 = 0;
        while let Some(c @ ('^' | 'v')) = self.chars.get(self.at).copied() {
            self.at += 1;
            let sign = if c == '^' { 1 } else { -1 };
            // `^<n>`: up to the nth power; `^[n]`: the sum of the powers 1 to n.
            if let Some(open @ ('<' | '[')) = self.chars.get(self.at).copied() {
                self.at += 1;
                let n = self
                    .digits()
                    .filter(|n| (1..=64).contains(n))
                    .ok_or_else(|| self.error("expected a power from 1 to 64"))?;
                self.expect(if open == '<' { '>' } else { ']' })?;
                let first = if open == '<' { n } else { 1 };
                for k in first..=n {
                    let mut power = up_power(self.games, k as u32)?;
                    if sign < 0 {
                        power = self.games.neg(power);
                    }
                    total = self.games.sum(total, power)?;
                }
                continue;
            }
            let count = self.digits().unwrap_or(1);
            ups = ups
                .checked_add(sign * count)
                .ok_or_else(|| self.error("too many ups"))?;
        }
        if ups.unsigned_abs() > MAX_MULTIPLE {
            return Err(self.error(format!("more than {MAX_MULTIPLE} ups")));
        }
        if ups != 0 {
            let u = self.games.ups(ups)?;
            total = self.games.sum(total, u)?;
        }
        if self.chars.get(self.at) == Some(&'*') {
            self.at += 1;
            let n = self.digits().unwrap_or(1);
            let n = u32::try_from(n)
                .ok()
                .filter(|&n| u64::from(n) <= MAX_MULTIPLE)
                .ok_or_else(|| self.error(format!("a nimber past *{MAX_MULTIPLE}")))?;
            let star = self.games.nimber(n)?;
            total = self.games.sum(total, star)?;
        }
        Ok(total)
    }

    /// Digits right here (no spaces), as a count.
    fn digits(&mut self) -> Option<i64> {
        let start = self.at;
        while self.chars.get(self.at).is_some_and(char::is_ascii_digit) {
            self.at += 1;
        }
        if start == self.at {
            return None;
        }
        let text: String = self.chars[start..self.at].iter().collect();
        Some(text.parse::<i64>().unwrap_or(i64::MAX))
    }

    /// `n` or `n/2^k`.
    fn number(&mut self) -> Result<Dyadic, PartizanError> {
        self.skip_spaces();
        let n = self.digits().ok_or_else(|| self.error("expected digits"))?;
        let too_large = || PartizanError::TooLarge;
        if self.chars.get(self.at) == Some(&'/') {
            self.at += 1;
            let d = self
                .digits()
                .ok_or_else(|| self.error("expected a denominator"))?;
            if d <= 0 || d.count_ones() != 1 {
                return Err(self.error(format!("the denominator {d} is not a power of two")));
            }
            return Dyadic::new(n, d.trailing_zeros()).ok_or_else(too_large);
        }
        Dyadic::integer(n).ok_or_else(too_large)
    }

    /// The index of the bracket closing the one at `self.at` (brackets of both kinds
    /// nested inside it must close in order).
    fn closing(&mut self, open: char, close: char) -> Result<usize, PartizanError> {
        self.skip_spaces();
        debug_assert_eq!(self.chars.get(self.at), Some(&open));
        let mut stack: Vec<char> = Vec::new();
        for (i, &c) in self.chars.iter().enumerate().skip(self.at) {
            match c {
                '{' => stack.push('}'),
                '(' => stack.push(')'),
                '}' | ')' => {
                    if stack.pop() != Some(c) {
                        return Err(NotationError {
                            at: i + 1,
                            why: format!("{c:?} closes nothing open"),
                        }
                        .into());
                    }
                    if stack.is_empty() {
                        return Ok(i);
                    }
                }
                _ => {}
            }
        }
        Err(self.error(format!("{open:?} is never closed, expected {close:?}")))
    }

    /// The game inside braces from `self.at` to `end`: split at its longest run of bars.
    fn braces(&mut self, end: usize) -> Result<GameId, PartizanError> {
        let inside: String = self.chars[self.at..end].iter().collect();
        let runs = top_level(&inside, '|');
        let Some(longest) = runs.iter().map(|r| r.1).max() else {
            return Err(self.error("expected '|' between Left's and Right's options"));
        };
        let splits: Vec<&(usize, usize)> = runs.iter().filter(|r| r.1 == longest).collect();
        if splits.len() > 1 {
            return Err(NotationError {
                at: self.at + splits[1].0 + 1,
                why: format!(
                    "two separators of {} at one level: which splits first? (a longer run of bars splits first)",
                    "|".repeat(longest)
                ),
            }
            .into());
        }
        let (split, width) = *splits[0];
        let start = self.at;
        let left = self.side(start, start + split)?;
        let right = self.side(start + split + width, end)?;
        self.games.make(left, right)
    }

    /// One side of a game (`from..to`): a game itself when it still holds bars, else options.
    fn side(&mut self, from: usize, to: usize) -> Result<Vec<GameId>, PartizanError> {
        let text: String = self.chars[from..to].iter().collect();
        if top_level(&text, '|').is_empty() {
            self.at = from;
            return self.options_until(to);
        }
        self.at = from;
        self.nest()?;
        let g = self.braces(to)?;
        self.depth -= 1;
        Ok(vec![g])
    }

    /// Options separated by commas, from `self.at` to `to`.
    fn options_until(&mut self, to: usize) -> Result<Vec<GameId>, PartizanError> {
        let mut options = Vec::new();
        let text: String = self.chars[self.at..to].iter().collect();
        if text.trim().is_empty() {
            return Ok(options);
        }
        let mut bounds: Vec<usize> = top_level(&text, ',').iter().map(|r| r.0).collect();
        bounds.push(text.chars().count());
        let base = self.at;
        let mut from = 0;
        for bound in bounds {
            let sub: &[char] = &self.chars[base + from..base + bound];
            if sub.iter().all(|c| c.is_whitespace()) {
                return Err(NotationError {
                    at: base + from + 1,
                    why: String::from("an empty option between commas"),
                }
                .into());
            }
            let mut inner = Reader {
                chars: &self.chars[..base + bound],
                at: base + from,
                depth: self.depth,
                games: self.games,
            };
            let g = inner.expression()?;
            inner.skip_spaces();
            if inner.at < base + bound {
                return Err(inner.error(format!("unexpected {:?}", self.chars[inner.at])));
            }
            options.push(g);
            from = bound + 1;
        }
        self.at = to;
        Ok(options)
    }
}

/// Where `mark` occurs outside any brackets in `text`: each run as (character index, length).
fn top_level(text: &str, mark: char) -> Vec<(usize, usize)> {
    let mut runs: Vec<(usize, usize)> = Vec::new();
    let mut depth = 0i64;
    let mut last: Option<usize> = None;
    for (i, c) in text.chars().enumerate() {
        match c {
            '{' | '(' => depth += 1,
            '}' | ')' => depth -= 1,
            _ => {}
        }
        if c == mark && depth == 0 {
            match runs.last_mut() {
                Some(run) if last == Some(i - 1) => run.1 += 1,
                _ => runs.push((i, 1)),
            }
            last = Some(i);
        }
    }
    runs
}

/// `^<n>`, up to the nth power: `^<1> = ^ = {0|*}`, and for `n >= 2`
/// `{0 | * - P(n-1)}` where `P(0) = 0` and `P(k) = {P(k-1) | *}` (so `^<2> = {0|v*}`).
///
/// # Errors
/// A full table.
pub fn up_power(games: &mut GameTable, n: u32) -> Result<GameId, PartizanError> {
    let star = games.nimber(1)?;
    let mut below = GameId::ZERO;
    for _ in 1..n {
        below = games.make(vec![below], vec![star])?;
    }
    let right = games.difference(star, below)?;
    games.make(vec![GameId::ZERO], vec![right])
}

/// `Tiny(G) = {0 || 0 | -G}`.
///
/// # Errors
/// A full table.
pub fn tiny_of(games: &mut GameTable, g: GameId) -> Result<GameId, PartizanError> {
    let minus = games.neg(g);
    let inner = games.make(vec![GameId::ZERO], vec![minus])?;
    games.make(vec![GameId::ZERO], vec![inner])
}

/// `Miny(G) = {G | 0 || 0}`.
///
/// # Errors
/// A full table.
pub fn miny_of(games: &mut GameTable, g: GameId) -> Result<GameId, PartizanError> {
    let t = tiny_of(games, g)?;
    Ok(games.neg(t))
}

/// A game written as a number, ups and a nimber: `x + n.^ + *m`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NumberUpStar {
    /// The number.
    pub number: Dyadic,
    /// Ups (negative: downs).
    pub ups: i64,
    /// The nimber.
    pub nimber: u32,
}

/// The most ups a value is printed with as `^n` (beyond, as its options): the notation
/// reads as many.
const MAX_UPS_SHOWN: u64 = 64;

/// `g` as a number, ups and a nimber, when it is one: the table knows such a form when it
/// enters ([`GameTable::as_number_up_star`]).
pub fn number_up_star(games: &mut GameTable, g: GameId) -> Option<NumberUpStar> {
    let (number, ups, nimber) = games.as_number_up_star(g)?;
    (ups.unsigned_abs() <= MAX_UPS_SHOWN).then_some(NumberUpStar {
        number,
        ups,
        nimber,
    })
}

impl std::fmt::Display for NumberUpStar {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.number != Dyadic::ZERO || (self.ups == 0 && self.nimber == 0) {
            write!(f, "{}", self.number)?;
        }
        let arrow = if self.ups > 0 { '^' } else { 'v' };
        match self.ups.unsigned_abs() {
            0 => {}
            1 => write!(f, "{arrow}")?,
            2 => write!(f, "{arrow}{arrow}")?,
            n => write!(f, "{arrow}{n}")?,
        }
        match self.nimber {
            0 => {}
            1 => write!(f, "*")?,
            n => write!(f, "*{n}")?,
        }
        Ok(())
    }
}

/// `g` in CGSuite's notation.
pub fn show(games: &mut GameTable, g: GameId) -> String {
    match shown(games, g) {
        Shown::Plain(text) => text,
        Shown::Bars(text, _) => format!("{{{text}}}"),
    }
}

/// A game printed: a plain term (a number, `^*`, `Tiny(2)`, `+-1`, or braces), or the inside
/// of braces with the bars of its longest run (that a lone option of a game around it can
/// be written without its braces).
enum Shown {
    Plain(String),
    Bars(String, usize),
}

fn shown(games: &mut GameTable, g: GameId) -> Shown {
    if let Some(nus) = number_up_star(games, g) {
        return Shown::Plain(nus.to_string());
    }
    let left = games.options(g, Side::Left);
    let right = games.options(g, Side::Right);
    // x + Tiny(G) = {x || x | x - G} and x + Miny(G) = {x + G | x || x}, when the far
    // option's mean is beyond x (so that the game is a tiny one).
    if let ([l], [r]) = (&left[..], &right[..]) {
        let (l, r) = (*l, *r);
        let far_mean = |games: &mut GameTable, far: GameId| {
            let (a, b) = games.stops(far);
            (a == b).then_some(a)
        };
        if let Some(x) = games.as_number(l)
            && games.options(r, Side::Left) == [l]
            && let [far] = games.options(r, Side::Right)[..]
            && far_mean(games, far).is_some_and(|m| m < x)
            && let Ok(sub) = games.difference(l, far)
        {
            let prefix = if x == Dyadic::ZERO {
                String::new()
            } else {
                x.to_string()
            };
            return Shown::Plain(format!("{prefix}Tiny({})", show(games, sub)));
        }
        if let Some(x) = games.as_number(r)
            && games.options(l, Side::Right) == [r]
            && let [far] = games.options(l, Side::Left)[..]
            && far_mean(games, far).is_some_and(|m| m > x)
            && let Ok(sub) = games.difference(far, r)
        {
            let prefix = if x == Dyadic::ZERO {
                String::new()
            } else {
                x.to_string()
            };
            return Shown::Plain(format!("{prefix}Miny({})", show(games, sub)));
        }
    }
    // +-G: Right's options the negatives of Left's.
    let mut negatives: Vec<GameId> = left.iter().map(|&l| games.neg(l)).collect();
    negatives.sort_unstable();
    let mut sorted_right = right.clone();
    sorted_right.sort_unstable();
    if !left.is_empty() && negatives == sorted_right {
        let text = if let [only] = left[..] {
            show(games, only)
        } else {
            let parts: Vec<String> = left.iter().map(|&l| show(games, l)).collect();
            format!("{{{}}}", parts.join(","))
        };
        return Shown::Plain(format!("+-{text}"));
    }
    let mut bars = 1;
    let mut side_text = |games: &mut GameTable, options: &[GameId]| -> String {
        if let [only] = options[..]
            && let Shown::Bars(text, inner) = shown(games, only)
        {
            bars = bars.max(inner + 1);
            return text;
        }
        let parts: Vec<String> = options.iter().map(|&o| show(games, o)).collect();
        parts.join(",")
    };
    let l = side_text(games, &left);
    let r = side_text(games, &right);
    Shown::Bars(format!("{l}{}{r}", "|".repeat(bars)), bars)
}
