//! Canonical forms kept once each: every distinct short game is one [`GameId`] in a
//! [`GameTable`] (hash-consing), so that equal games are equal ids, and sums, negatives,
//! comparisons and stops are cached by ids.
//!
//! A game is built from its options with [`GameTable::make`], which removes dominated
//! options and bypasses reversible ones until neither is left: the canonical form, unique for
//! each value. Numbers are kept as numbers (their options, the neighbouring numbers, made
//! when asked for), so that a large integer costs one entry and not a chain of them; sums
//! and comparisons with numbers take shortcuts (number translation, stops).

use super::PartizanError;
use super::dyadic::Dyadic;
use super::thermograph::Thermograph;
use rustc_hash::FxHashMap as HashMap;
use std::sync::Arc;

/// A canonical form in a [`GameTable`]: equal ids are equal games, and only those.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GameId(u32);

impl GameId {
    /// The game 0 (no moves for either player), in every table.
    pub const ZERO: GameId = GameId(0);

    /// The id's place in its table.
    #[must_use]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// One of the two players of a partizan game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// Left (blue, vertical in Domineering, `x`, toads).
    Left,
    /// Right (red, horizontal in Domineering, `o`, frogs).
    Right,
}

impl Side {
    /// The other player.
    #[must_use]
    pub fn other(self) -> Side {
        match self {
            Side::Left => Side::Right,
            Side::Right => Side::Left,
        }
    }
}

/// Who wins a game: the four outcome classes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OutcomeClass {
    /// Left wins whoever moves first (the game is positive).
    Left,
    /// Right wins whoever moves first (negative).
    Right,
    /// The player to move wins (confused with 0: fuzzy).
    Next,
    /// The player to move loses (equal to 0).
    Previous,
}

impl OutcomeClass {
    /// The class's letter: `L`, `R`, `N` or `P`.
    #[must_use]
    pub fn letter(self) -> char {
        match self {
            OutcomeClass::Left => 'L',
            OutcomeClass::Right => 'R',
            OutcomeClass::Next => 'N',
            OutcomeClass::Previous => 'P',
        }
    }

    /// Whether `side` wins when it moves first.
    #[must_use]
    pub fn first_player_wins(self, side: Side) -> bool {
        match self {
            OutcomeClass::Next => true,
            OutcomeClass::Previous => false,
            OutcomeClass::Left => side == Side::Left,
            OutcomeClass::Right => side == Side::Right,
        }
    }
}

/// One canonical form: its options (none stored for a number: see [`GameTable::options`]).
struct Node {
    left: Box<[GameId]>,
    right: Box<[GameId]>,
    number: Option<Dyadic>,
    /// `Some((x, n, m))` when the game, not a number, is `x + n.^ + *m` (ups; downs for
    /// n < 0; n = 0: a number plus a nimber, m >= 1; the number x may be 0).
    up_star: Option<(Dyadic, i64, u32)>,
    birthday: u64,
}

/// Bytes an entry costs, options and caches included on average (for the memory account).
pub const BYTES_PER_GAME: u64 = 160;

/// Left's and Right's options of a form that is not a number, sorted: its key.
type OptionsKey = (Box<[GameId]>, Box<[GameId]>);

/// The key of a form: its options sorted.
fn options_key(mut left: Vec<GameId>, mut right: Vec<GameId>) -> OptionsKey {
    left.sort_unstable();
    right.sort_unstable();
    (left.into_boxed_slice(), right.into_boxed_slice())
}

/// Every canonical form met so far, and the results of operations on them.
pub struct GameTable {
    nodes: Vec<Node>,
    by_options: HashMap<OptionsKey, GameId>,
    numbers: HashMap<Dyadic, GameId>,
    negatives: HashMap<GameId, GameId>,
    sums: HashMap<(GameId, GameId), GameId>,
    at_most: HashMap<(GameId, GameId), bool>,
    stops: HashMap<GameId, (Dyadic, Dyadic)>,
    /// Results of the operations defined in the sibling modules.
    pub(super) derived: Derived,
    /// The most entries the table may hold.
    limit: usize,
}

/// Caches of the operations kept beside the table (thermographs, cooling, heating, reduced
/// forms, atomic weights), each by ids.
#[derive(Default)]
pub(super) struct Derived {
    pub(super) thermographs: HashMap<GameId, Arc<Thermograph>>,
    pub(super) cooled: HashMap<(GameId, Dyadic), GameId>,
    pub(super) heated: HashMap<(GameId, GameId), GameId>,
    pub(super) star_projections: HashMap<GameId, GameId>,
    pub(super) naive_atomic_weights: HashMap<GameId, GameId>,
    pub(super) far_stars: HashMap<GameId, u32>,
    pub(super) all_small: HashMap<GameId, bool>,
    pub(super) norton_products: HashMap<(GameId, GameId), GameId>,
    pub(super) ordinal_sums: HashMap<(GameId, GameId), GameId>,
}

impl Default for GameTable {
    fn default() -> GameTable {
        GameTable::new()
    }
}

impl GameTable {
    /// A table holding 0, without a limit.
    #[must_use]
    pub fn new() -> GameTable {
        GameTable::with_limit(usize::MAX)
    }

    /// A table that refuses to hold more than `limit` games ([`PartizanError::TooManyGames`]).
    #[must_use]
    pub fn with_limit(limit: usize) -> GameTable {
        let mut table = GameTable {
            nodes: Vec::new(),
            by_options: HashMap::default(),
            numbers: HashMap::default(),
            negatives: HashMap::default(),
            sums: HashMap::default(),
            at_most: HashMap::default(),
            stops: HashMap::default(),
            derived: Derived::default(),
            limit: limit.max(1),
        };
        table.nodes.push(Node {
            left: Box::new([]),
            right: Box::new([]),
            number: Some(Dyadic::ZERO),
            up_star: None,
            birthday: 0,
        });
        table.numbers.insert(Dyadic::ZERO, GameId::ZERO);
        table
    }

    /// Games held.
    #[must_use]
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether only 0 is held.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.nodes.len() <= 1
    }

    /// The number `x`.
    ///
    /// # Errors
    /// [`PartizanError::TooManyGames`] when the table is full.
    pub fn number(&mut self, x: Dyadic) -> Result<GameId, PartizanError> {
        if self.nodes.len() >= self.limit && !self.numbers.contains_key(&x) {
            return Err(PartizanError::TooManyGames { limit: self.limit });
        }
        Ok(self.number_past_limit(x))
    }

    /// The number `x`, entered even past the limit: a number's neighbours, asked for while
    /// comparing, are a handful of entries and an answer must not depend on the limit.
    fn number_past_limit(&mut self, x: Dyadic) -> GameId {
        if let Some(&id) = self.numbers.get(&x) {
            return id;
        }
        let id = GameId(self.nodes.len() as u32);
        self.nodes.push(Node {
            left: Box::new([]),
            right: Box::new([]),
            number: Some(x),
            up_star: None,
            birthday: x.birthday(),
        });
        self.numbers.insert(x, id);
        id
    }

    /// The integer `n`.
    ///
    /// # Errors
    /// [`PartizanError::TooLarge`] past 2^62, or a full table.
    pub fn integer(&mut self, n: i64) -> Result<GameId, PartizanError> {
        let x = Dyadic::integer(n).ok_or(PartizanError::TooLarge)?;
        self.number(x)
    }

    /// The nimber `*n`: `{0, *, ..., *(n-1) | 0, *, ..., *(n-1)}`.
    ///
    /// # Errors
    /// A full table.
    pub fn nimber(&mut self, n: u32) -> Result<GameId, PartizanError> {
        // `{*0..*(k-1) | *0..*(k-1)}` is canonical as it stands (nimbers are pairwise
        // confused, and none reverses): entered directly, not simplified option by option.
        let mut below = Vec::new();
        let mut id = GameId::ZERO;
        for _ in 0..n {
            below.push(id);
            id = self.intern(below.clone(), below.clone())?;
        }
        Ok(id)
    }

    /// `n` ups (`n` negative: downs).
    ///
    /// # Errors
    /// A full table.
    pub fn ups(&mut self, n: i64) -> Result<GameId, PartizanError> {
        self.number_up_star(Dyadic::ZERO, n, 0)
    }

    /// `x + n.^ + *m`, built as its canonical form stands, one up at a time: with
    /// `c(i) = m xor (n mod 2) xor (i mod 2)`, `G(0) = x + *c(0)` and, for i = 1 .. n,
    /// `G(i) = {x | G(i-1)}`, except `{x, x* | x}` when i = 1 and c(1) = 1 (that is `x^*`);
    /// downs are the mirror image (CGSuite builds them so; Siegel, *Combinatorial Game
    /// Theory*, II.4-5). Costs one entry per up, where adding ups one by one costs sums of
    /// ever larger forms.
    ///
    /// # Errors
    /// A full table.
    pub fn number_up_star(&mut self, x: Dyadic, n: i64, m: u32) -> Result<GameId, PartizanError> {
        let number = self.number(x)?;
        let parity = (n.unsigned_abs() & 1) as u32;
        let star = self.nimber(m ^ parity)?;
        let mut g = self.sum(number, star)?;
        for i in 1..=n.unsigned_abs() {
            let c = m ^ parity ^ (i & 1) as u32;
            let (left, right) = if i == 1 && c == 1 {
                let star = self.nimber(1)?;
                let x_star = self.sum(number, star)?;
                (vec![number, x_star], vec![number])
            } else {
                (vec![number], vec![g])
            };
            // Downs: the mirror image, each side's options the other's.
            g = if n > 0 {
                self.intern(left, right)?
            } else {
                self.intern(right, left)?
            };
        }
        Ok(g)
    }

    /// `(x, n, m)` when the game is `x + n.^ + *m` (a number: n = m = 0; a number plus a
    /// nimber: n = 0), known as such when entered.
    #[must_use]
    pub fn as_number_up_star(&self, g: GameId) -> Option<(Dyadic, i64, u32)> {
        if let Some(x) = self.as_number(g) {
            return Some((x, 0, 0));
        }
        self.nodes[g.index()].up_star
    }

    /// Whether sorted options `left | right` are those [`GameTable::number_up_star`] builds:
    /// then the game is `x + n.^ + *m`.
    fn up_star_of(&self, left: &[GameId], right: &[GameId]) -> Option<(Dyadic, i64, u32)> {
        let number_of = |g: GameId| self.as_number(g);
        match (left, right) {
            // {x | x + k.^ + *c} = x + (k+1).^ + *(c xor 1), k >= 0, not {x | x}.
            ([a], [b]) if let Some(x) = number_of(*a) => {
                let (y, k, c) = self.as_number_up_star(*b)?;
                (y == x && k >= 0 && (k, c) != (0, 0)).then_some((x, k + 1, c ^ 1))
            }
            ([b], [a]) if let Some(x) = number_of(*a) => {
                let (y, k, c) = self.as_number_up_star(*b)?;
                (y == x && k <= 0 && (k, c) != (0, 0)).then_some((x, k - 1, c ^ 1))
            }
            // {x, x* | x} = x^*, {x | x, x*} = xv*.
            ([l1, l2], [r]) | ([r], [l1, l2]) => {
                let x = number_of(*r)?;
                let parts = [self.as_number_up_star(*l1)?, self.as_number_up_star(*l2)?];
                let mut stars: Vec<u32> = parts
                    .iter()
                    .map(|&(y, k, c)| (y == x && k == 0).then_some(c))
                    .collect::<Option<_>>()?;
                stars.sort_unstable();
                (stars == [0, 1]).then_some((x, if left.len() == 2 { 1 } else { -1 }, 1))
            }
            _ => None,
        }
    }

    /// The number this game equals, if it is one.
    #[must_use]
    pub fn as_number(&self, g: GameId) -> Option<Dyadic> {
        self.nodes[g.index()].number
    }

    /// `n` when the game is the nimber `*n` (0 for the game 0).
    #[must_use]
    pub fn as_nimber(&self, g: GameId) -> Option<u32> {
        if g == GameId::ZERO {
            return Some(0);
        }
        match self.nodes[g.index()].up_star {
            Some((x, 0, n)) if x == Dyadic::ZERO => Some(n),
            _ => None,
        }
    }

    /// `(x, n)` when the game is the number `x` plus the nimber `*n` (n = 0: a number).
    fn number_and_nimber(&self, g: GameId) -> Option<(Dyadic, u32)> {
        match self.as_number_up_star(g)? {
            (x, 0, m) => Some((x, m)),
            _ => None,
        }
    }

    /// Whether sorted options `left | right` are `x, x*, ..., x*(n-1)` on both sides: then
    /// the game is `x*n` (the canonical form of a number plus a nimber).
    fn star_shift_of(&self, left: &[GameId], right: &[GameId]) -> Option<(Dyadic, u32)> {
        if left != right || left.is_empty() {
            return None;
        }
        let parts: Vec<(Dyadic, u32)> = left
            .iter()
            .map(|&o| self.number_and_nimber(o))
            .collect::<Option<_>>()?;
        let x = parts[0].0;
        let mut stars: Vec<u32> = parts
            .iter()
            .map(|&(y, n)| (y == x).then_some(n))
            .collect::<Option<_>>()?;
        stars.sort_unstable();
        stars
            .iter()
            .enumerate()
            .all(|(i, &n)| n as usize == i)
            .then_some((x, stars.len() as u32))
    }

    /// The day the game is born: 0 for 0, else one more than its options' latest.
    #[must_use]
    pub fn birthday(&self, g: GameId) -> u64 {
        self.nodes[g.index()].birthday
    }

    /// The options of `side` in the canonical form (for a number, its neighbours, entered
    /// when first asked for).
    pub fn options(&mut self, g: GameId, side: Side) -> Vec<GameId> {
        let node = &self.nodes[g.index()];
        if let Some(x) = node.number {
            let (left, right) = x.options();
            let wanted = match side {
                Side::Left => left,
                Side::Right => right,
            };
            return wanted
                .map(|y| self.number_past_limit(y))
                .into_iter()
                .collect();
        }
        match side {
            Side::Left => node.left.to_vec(),
            Side::Right => node.right.to_vec(),
        }
    }

    /// The canonical form of `{left | right}`, the options being canonical forms already.
    ///
    /// # Errors
    /// [`PartizanError::TooLarge`] for a number past 2^62, or a full table.
    pub fn make(
        &mut self,
        mut left: Vec<GameId>,
        mut right: Vec<GameId>,
    ) -> Result<GameId, PartizanError> {
        // Numbers on both sides, Left's below Right's: the simplest number between.
        if let Some(x) = self.number_between(&left, &right)? {
            return self.number(x);
        }
        loop {
            self.remove_dominated(&mut left, Side::Left);
            self.remove_dominated(&mut right, Side::Right);
            let bypassed_left = self.bypass_reversible(&mut left, &right, Side::Left)?;
            let bypassed_right = self.bypass_reversible(&mut right, &left, Side::Right)?;
            if !bypassed_left && !bypassed_right {
                break;
            }
        }
        if let Some(x) = self.number_between(&left, &right)? {
            return self.number(x);
        }
        self.intern(left, right)
    }

    /// When every option is a number and Left's are all below Right's, the number the game
    /// equals (the simplicity rule).
    fn number_between(
        &self,
        left: &[GameId],
        right: &[GameId],
    ) -> Result<Option<Dyadic>, PartizanError> {
        let numbers = |side: &[GameId]| -> Option<Vec<Dyadic>> {
            side.iter().map(|&g| self.as_number(g)).collect()
        };
        let (Some(l), Some(r)) = (numbers(left), numbers(right)) else {
            return Ok(None);
        };
        let (low, high) = (l.into_iter().max(), r.into_iter().min());
        if let (Some(a), Some(b)) = (low, high)
            && a >= b
        {
            return Ok(None);
        }
        Dyadic::simplest_between(low, high)
            .map(Some)
            .ok_or(PartizanError::TooLarge)
    }

    /// Keep only the best options of `side`: Left's maximal, Right's minimal.
    fn remove_dominated(&mut self, options: &mut Vec<GameId>, side: Side) {
        options.sort_unstable();
        options.dedup();
        let mut kept: Vec<GameId> = Vec::with_capacity(options.len());
        'next: for (i, &a) in options.iter().enumerate() {
            for (j, &b) in options.iter().enumerate() {
                if i == j {
                    continue;
                }
                let dominated = match side {
                    Side::Left => self.leq(a, b),
                    Side::Right => self.leq(b, a),
                };
                if dominated {
                    continue 'next;
                }
            }
            kept.push(a);
        }
        *options = kept;
    }

    /// Replace the first reversible option of `side` (in `options`, the other side's being
    /// `others`) by the options it reverses through. Returns whether one was.
    fn bypass_reversible(
        &mut self,
        options: &mut Vec<GameId>,
        others: &[GameId],
        side: Side,
    ) -> Result<bool, PartizanError> {
        for at in 0..options.len() {
            let option = options[at];
            for reply in self.options(option, side.other()) {
                // Left's option GL reverses through GLR when GLR <= G; Right's GR through
                // GRL when GRL >= G.
                let reverses = match side {
                    Side::Left => self.at_most_raw(reply, others, options, Side::Left),
                    Side::Right => self.at_most_raw(reply, others, options, Side::Right),
                }?;
                if reverses {
                    let replacements = self.options(reply, side);
                    options.swap_remove(at);
                    options.extend(replacements);
                    return Ok(true);
                }
            }
        }
        Ok(false)
    }

    /// Compare `h` with the game `G = {left | right}` built of canonical options but not
    /// canonical itself: `h <= G` when `side` is Left, `h >= G` when Right. (The arguments
    /// are `(h, right, left)` for Left and `(h, left, right)` for Right, as the callers have
    /// them.)
    fn at_most_raw(
        &mut self,
        h: GameId,
        first: &[GameId],
        second: &[GameId],
        side: Side,
    ) -> Result<bool, PartizanError> {
        match side {
            // h <= G: no G^R <= h, and no h^L with G <= h^L.
            Side::Left => {
                let (right, left) = (first, second);
                if right.iter().any(|&gr| self.leq(gr, h)) {
                    return Ok(false);
                }
                for hl in self.options(h, Side::Left) {
                    if self.at_most_raw(hl, left, right, Side::Right)? {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
            // h >= G: no G^L >= h, and no h^R with h^R <= G.
            Side::Right => {
                let (left, right) = (first, second);
                if left.iter().any(|&gl| self.leq(h, gl)) {
                    return Ok(false);
                }
                for hr in self.options(h, Side::Right) {
                    if self.at_most_raw(hr, right, left, Side::Left)? {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
        }
    }

    /// Whether `g <= h` (Left does at least as well in `h`).
    pub fn leq(&mut self, g: GameId, h: GameId) -> bool {
        if g == h {
            return true;
        }
        if let (Some(x), Some(y)) = (self.as_number(g), self.as_number(h)) {
            return x <= y;
        }
        if let Some(&known) = self.at_most.get(&(g, h)) {
            return known;
        }
        let answer = self.leq_by_options(g, h);
        self.at_most.insert((g, h), answer);
        answer
    }

    fn leq_by_options(&mut self, g: GameId, h: GameId) -> bool {
        // Against a number, the stops often decide: x < R(h) means h > x; x > L(h) means
        // h < x (and the same the other way round).
        if let Some(x) = self.as_number(g) {
            let (left, right) = self.stops(h);
            if x < right {
                return true;
            }
            if x > left {
                return false;
            }
        }
        if let Some(y) = self.as_number(h) {
            let (left, right) = self.stops(g);
            if left < y {
                return true;
            }
            if right > y {
                return false;
            }
        }
        // G <= H only when each stop of G is at most H's.
        let ((gl, gr), (hl, hr)) = (self.stops(g), self.stops(h));
        if gl > hl || gr > hr {
            return false;
        }
        let g_left = self.options(g, Side::Left);
        for gl in g_left {
            if self.leq(h, gl) {
                return false;
            }
        }
        let h_right = self.options(h, Side::Right);
        for hr in h_right {
            if self.leq(hr, g) {
                return false;
            }
        }
        true
    }

    /// Whether `g = h`.
    #[must_use]
    pub fn eq(&self, g: GameId, h: GameId) -> bool {
        g == h
    }

    /// Whether `g < h`.
    pub fn lt(&mut self, g: GameId, h: GameId) -> bool {
        g != h && self.leq(g, h)
    }

    /// Whether `g` and `h` are confused (incomparable).
    pub fn confused(&mut self, g: GameId, h: GameId) -> bool {
        !self.leq(g, h) && !self.leq(h, g)
    }

    /// Who wins `g`.
    pub fn outcome(&mut self, g: GameId) -> OutcomeClass {
        if g == GameId::ZERO {
            return OutcomeClass::Previous;
        }
        match (self.leq(GameId::ZERO, g), self.leq(g, GameId::ZERO)) {
            (true, _) => OutcomeClass::Left,
            (_, true) => OutcomeClass::Right,
            _ => OutcomeClass::Next,
        }
    }

    /// The negative: each player's options the other's, negated.
    pub fn neg(&mut self, g: GameId) -> GameId {
        if let Some(x) = self.as_number(g) {
            return self.number_past_limit(x.negative());
        }
        if let Some(&n) = self.negatives.get(&g) {
            return n;
        }
        let node = &self.nodes[g.index()];
        let (left, right) = (node.left.to_vec(), node.right.to_vec());
        let new_left: Vec<GameId> = right.iter().map(|&r| self.neg(r)).collect();
        let new_right: Vec<GameId> = left.iter().map(|&l| self.neg(l)).collect();
        // The negative of a canonical form is canonical: no simplification is needed, so it
        // is entered as it is.
        let id = self.enter_canonical(new_left, new_right);
        self.negatives.insert(g, id);
        self.negatives.insert(id, g);
        id
    }

    /// Enter a form known to be canonical (the negative of one); past the limit, the table
    /// grows anyway by this one entry rather than fail an infallible operation.
    fn enter_canonical(&mut self, left: Vec<GameId>, right: Vec<GameId>) -> GameId {
        let key = options_key(left, right);
        match self.by_options.get(&key) {
            Some(&id) => id,
            None => self.enter(key),
        }
    }

    /// The id of the canonical form `{left | right}` (not a number): found by its sorted
    /// options, else entered while the table has room.
    fn intern(&mut self, left: Vec<GameId>, right: Vec<GameId>) -> Result<GameId, PartizanError> {
        let key = options_key(left, right);
        if let Some(&id) = self.by_options.get(&key) {
            return Ok(id);
        }
        if self.nodes.len() >= self.limit {
            return Err(PartizanError::TooManyGames { limit: self.limit });
        }
        Ok(self.enter(key))
    }

    /// Enter a canonical form not held yet.
    fn enter(&mut self, key: OptionsKey) -> GameId {
        let birthday = 1 + key
            .0
            .iter()
            .chain(key.1.iter())
            .map(|&o| self.birthday(o))
            .max()
            .unwrap_or(0);
        let up_star = match self.star_shift_of(&key.0, &key.1) {
            Some((x, n)) => Some((x, 0, n)),
            None => self.up_star_of(&key.0, &key.1),
        };
        let id = GameId(self.nodes.len() as u32);
        self.nodes.push(Node {
            left: key.0.clone(),
            right: key.1.clone(),
            number: None,
            up_star,
            birthday,
        });
        self.by_options.insert(key, id);
        id
    }

    /// The sum `g + h`: each player moves in one component.
    ///
    /// # Errors
    /// [`PartizanError::TooLarge`] for a number past 2^62, or a full table.
    pub fn sum(&mut self, g: GameId, h: GameId) -> Result<GameId, PartizanError> {
        if g == GameId::ZERO {
            return Ok(h);
        }
        if h == GameId::ZERO {
            return Ok(g);
        }
        let key = (g.min(h), g.max(h));
        if let Some(&s) = self.sums.get(&key) {
            return Ok(s);
        }
        let s = match (self.as_number(g), self.as_number(h)) {
            (Some(x), Some(y)) => self.number(x.checked_add(y).ok_or(PartizanError::TooLarge)?)?,
            // A number plus a nimber each: the numbers add, the nimbers as nim-sums
            // (x*a + y*b = (x + y)*(a xor b)).
            (None, None)
                if let (Some((x, a)), Some((y, b))) =
                    (self.number_and_nimber(g), self.number_and_nimber(h)) =>
            {
                let number = self.number(x.checked_add(y).ok_or(PartizanError::TooLarge)?)?;
                let star = self.nimber(a ^ b)?;
                self.sum(number, star)?
            }
            // Numbers, ups and nimbers each: x + n.^ + *a plus y + k.^ + *b is
            // (x + y) + (n + k).^ + *(a xor b), built directly.
            (_, _)
                if let (Some((x, n, a)), Some((y, k, b))) =
                    (self.as_number_up_star(g), self.as_number_up_star(h))
                    && (n != 0 || k != 0) =>
            {
                let number = x.checked_add(y).ok_or(PartizanError::TooLarge)?;
                self.number_up_star(number, n + k, a ^ b)?
            }
            // Number translation: x + H = {x + H^L | x + H^R} when H is not a number.
            (Some(_), None) => self.translate(g, h)?,
            (None, Some(_)) => self.translate(h, g)?,
            (None, None) => {
                let mut left = Vec::new();
                let mut right = Vec::new();
                for (a, b) in [(g, h), (h, g)] {
                    for al in self.options(a, Side::Left) {
                        left.push(self.sum(al, b)?);
                    }
                    for ar in self.options(a, Side::Right) {
                        right.push(self.sum(ar, b)?);
                    }
                }
                self.make(left, right)?
            }
        };
        self.sums.insert(key, s);
        Ok(s)
    }

    /// `x + h` for a number `x` and a game `h` that is not one.
    fn translate(&mut self, x: GameId, h: GameId) -> Result<GameId, PartizanError> {
        let mut left = Vec::new();
        for hl in self.options(h, Side::Left) {
            left.push(self.sum(x, hl)?);
        }
        let mut right = Vec::new();
        for hr in self.options(h, Side::Right) {
            right.push(self.sum(x, hr)?);
        }
        self.make(left, right)
    }

    /// `g - h`.
    ///
    /// # Errors
    /// As [`GameTable::sum`].
    pub fn difference(&mut self, g: GameId, h: GameId) -> Result<GameId, PartizanError> {
        let minus_h = self.neg(h);
        self.sum(g, minus_h)
    }

    /// The left and right stops: where play settles on a number when Left (or Right) moves
    /// first and both play to the stop.
    pub fn stops(&mut self, g: GameId) -> (Dyadic, Dyadic) {
        if let Some(x) = self.as_number(g) {
            return (x, x);
        }
        if let Some(&s) = self.stops.get(&g) {
            return s;
        }
        let node = &self.nodes[g.index()];
        let (left, right) = (node.left.to_vec(), node.right.to_vec());
        let left_stop = left.iter().map(|&gl| self.stops(gl).1).max();
        let right_stop = right.iter().map(|&gr| self.stops(gr).0).min();
        // A canonical form that is not a number has options on both sides; should one side
        // be empty, the other stop stands for it.
        let stops = match (left_stop, right_stop) {
            (Some(l), Some(r)) => (l, r),
            (Some(l), None) => (l, l),
            (None, Some(r)) => (r, r),
            (None, None) => (Dyadic::ZERO, Dyadic::ZERO),
        };
        self.stops.insert(g, stops);
        stops
    }
}
