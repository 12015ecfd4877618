//! Dobutsu shogi ("animal shogi", Madoka Kitao, 2008) on its 3 x 4 board.
//!
//! Each side has a lion, an elephant, a giraffe and a chick, and moves one piece a turn one
//! square: the lion any way, the elephant diagonally, the giraffe orthogonally, the chick
//! straight forward. A chick that moves onto the far row becomes a hen, which moves any way but
//! diagonally back. A piece moved onto an opponent's piece captures it into the mover's hand
//! (a hen goes back to a chick); instead of moving, a player may drop a piece from the hand on
//! any empty square (a chick dropped on the far row stays a chick). Capturing the lion wins;
//! so does a lion on the far row that the opponent cannot capture at once.
//!
//! As in Tanaka's analysis (2009: the second player wins in 78 plies, 246,803,167 positions
//! reachable), the game is over in two kinds of positions: one where the player to move can
//! capture the opponent's lion (its only moves are those captures, each winning at once), and
//! one where the opponent's lion stands on the mover's back row out of reach (no moves: a
//! loss). Endless play is a draw (the rules' repetition draw). Smaller games leave out
//! elephants, giraffes or chicks, small enough to check against the textbook analysis.
//!
//! The engine sees each position from the side to move, so one number stands for a position
//! and the same one with the sides swapped and the board turned: the index is the lions'
//! squares, then for each hand piece kind how many each side holds, the set of squares the
//! other pieces stand on (ranked), their kinds in square order (ranked among the orders of the
//! same kinds), their owners and which chicks are hens: 1,567,925,964 numbers, no holes. The
//! board's mirror (left and right swapped) is a symmetry.

use super::notation::{NotationError, grid_picture, square_name};
use super::subsets::Binomials;
use crate::engine::IndexedGame;
use crate::game::{Ending, Game, Transition};
use crate::games::board::{BoardGame, MoveName};
use thiserror::Error;

/// Squares on the board: 3 columns, 4 rows.
pub const SQUARES: usize = 12;

/// Numbers in the standard game's index (Tanaka's count of positions).
pub const STANDARD_INDEX_COUNT: u64 = 1_567_925_964;

/// The kinds of pieces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// Moves one square any way; capturing it wins.
    Lion,
    /// Moves one square diagonally.
    Elephant,
    /// Moves one square orthogonally.
    Giraffe,
    /// Moves one square forward; becomes a hen on the far row.
    Chick,
    /// A promoted chick: moves one square any way but diagonally back.
    Hen,
}

impl Kind {
    /// The kinds a hand holds, in the order of [`Animals::in_hand`].
    pub const IN_HAND: [Kind; 3] = [Kind::Elephant, Kind::Giraffe, Kind::Chick];

    /// The kind's letter: L, E, G, C, H.
    #[must_use]
    pub fn letter(self) -> char {
        match self {
            Kind::Lion => 'L',
            Kind::Elephant => 'E',
            Kind::Giraffe => 'G',
            Kind::Chick => 'C',
            Kind::Hen => 'H',
        }
    }

    /// The kind with this letter (either case).
    #[must_use]
    pub fn from_letter(letter: char) -> Option<Kind> {
        Some(match letter.to_ascii_uppercase() {
            'L' => Kind::Lion,
            'E' => Kind::Elephant,
            'G' => Kind::Giraffe,
            'C' => Kind::Chick,
            'H' => Kind::Hen,
            _ => return None,
        })
    }

    /// Its place in a hand (the order of [`Kind::IN_HAND`]); `None` for the lion and the hen,
    /// which are never held.
    #[must_use]
    pub fn hand_slot(self) -> Option<usize> {
        Kind::IN_HAND.iter().position(|&k| k == self)
    }

    fn code(self) -> u8 {
        match self {
            Kind::Lion => LION,
            Kind::Elephant => ELEPHANT,
            Kind::Giraffe => GIRAFFE,
            Kind::Chick => CHICK,
            Kind::Hen => HEN,
        }
    }

    fn of_code(code: u8) -> Kind {
        match code & 7 {
            LION => Kind::Lion,
            ELEPHANT => Kind::Elephant,
            GIRAFFE => Kind::Giraffe,
            CHICK => Kind::Chick,
            _ => Kind::Hen,
        }
    }
}

/// A piece on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// What it is.
    pub kind: Kind,
    /// Whether it is the first player's (who starts at the bottom and moves up).
    pub first_player: bool,
}

// A cell: empty, or a kind's code, with `THEIRS` set for the opponent of the side to move.
const EMPTY: u8 = 0;
const LION: u8 = 1;
const ELEPHANT: u8 = 2;
const GIRAFFE: u8 = 3;
const CHICK: u8 = 4;
const HEN: u8 = 5;
const THEIRS: u8 = 8;
/// The cell codes a hand kind is dropped as, by hand slot.
const DROPPED: [u8; 3] = [ELEPHANT, GIRAFFE, CHICK];

/// The hand slot a captured piece goes to (a hen is a chick again).
fn hand_slot(code: u8) -> usize {
    match code & 7 {
        ELEPHANT => 0,
        GIRAFFE => 1,
        _ => 2,
    }
}

fn bits(mut mask: u16) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let at = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            at
        })
    })
}

/// A position, kept as the side to move sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Animals {
    /// Square `col + 3 * row`, row 0 the far row (where the mover's chicks promote) and column
    /// 0 the mover's left.
    cells: [u8; SQUARES],
    /// The mover's hand, then the opponent's: elephants, giraffes, chicks.
    hands: [[u8; 3]; 2],
    first_to_move: bool,
}

impl Animals {
    /// Whether the first player is to move.
    #[must_use]
    pub fn first_to_move(&self) -> bool {
        self.first_to_move
    }

    /// The piece on `square` (`col + 3 * row`, from the top-left as the first player sees the
    /// board, row 0 the second player's back row), if any.
    #[must_use]
    pub fn piece_at(&self, square: usize) -> Option<Piece> {
        let cell = *self.cells.get(relative(self.first_to_move, square))?;
        (cell != EMPTY).then(|| Piece {
            kind: Kind::of_code(cell),
            first_player: (cell & THEIRS == 0) == self.first_to_move,
        })
    }

    /// How many pieces of a hand kind (elephant, giraffe or chick) a player holds.
    #[must_use]
    pub fn in_hand(&self, first_player: bool, kind: Kind) -> u8 {
        let side = usize::from(first_player != self.first_to_move);
        kind.hand_slot().map_or(0, |slot| self.hands[side][slot])
    }

    /// The same position seen by the other side: the board turned, the owners swapped.
    fn turned(&self) -> Animals {
        let mut cells = [EMPTY; SQUARES];
        for (at, cell) in cells.iter_mut().enumerate() {
            let seen = self.cells[SQUARES - 1 - at];
            *cell = if seen == EMPTY { EMPTY } else { seen ^ THEIRS };
        }
        Animals {
            cells,
            hands: [self.hands[1], self.hands[0]],
            first_to_move: !self.first_to_move,
        }
    }

    fn mirrored_cells(&self) -> [u8; SQUARES] {
        let mut cells = self.cells;
        for row in cells.chunks_exact_mut(3) {
            row.swap(0, 2);
        }
        cells
    }

    fn square_of(&self, code: u8) -> Option<usize> {
        self.cells.iter().position(|&c| c == code)
    }
}

/// A square as the side to move sees it, from a square as the first player sees it (the
/// board turned for the second player); the map is its own inverse.
fn relative(first_to_move: bool, square: usize) -> usize {
    if first_to_move || square >= SQUARES {
        square
    } else {
        SQUARES - 1 - square
    }
}

/// A move, in squares as the first player sees the board (`col + 3 * row` from the top-left).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// A piece steps (or captures) from one square to the next.
    Step {
        /// The square left.
        from: usize,
        /// The square reached.
        to: usize,
    },
    /// A piece of the hand is put on an empty square.
    Drop {
        /// Elephant, giraffe or chick.
        kind: Kind,
        /// The square.
        to: usize,
    },
}

/// A move as the side to move sees the board; a drop names its hand slot.
#[derive(Clone, Copy)]
enum Relative {
    Step(usize, usize),
    Drop(usize, usize),
}

/// Why a position is not one of this game's.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PositionError {
    /// Each side has exactly one lion on the board.
    #[error(
        "each side needs one lion on the board, found {first} for the first player and {second} for the second"
    )]
    Lions {
        /// The first player's lions.
        first: usize,
        /// The second player's lions.
        second: usize,
    },
    /// A kind's pieces on the board and in the hands do not add up to the game's.
    #[error("the game has {expected} {kind}s (chicks and hens together), the position {found}")]
    Count {
        /// The kind, named.
        kind: &'static str,
        /// Pieces the game has of it.
        expected: u8,
        /// Pieces the position has.
        found: u8,
    },
}

/// Dobutsu shogi with the standard pieces, or fewer kinds for small games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dobutsu {
    /// Pieces of each hand kind in play (elephants, giraffes, chicks): 2 or 0.
    counts: [u8; 3],
    choose: Binomials,
    /// Each hand combination (how many of each kind each side holds) in index order.
    combos: Vec<[[u8; 3]; 2]>,
    /// The combination's number from its hands read as six base-3 digits; `u16::MAX` if none.
    combo_of: Vec<u16>,
    /// Where each combination's numbers start; one more for the end.
    starts: Vec<u64>,
    /// Numbers per placement of the lions, for each combination.
    sizes: Vec<u64>,
    /// The rank of each kind order (`m` base-3 digits, the first square's kind the highest):
    /// `kind_rank[m * 729 + digits]`, among the orders with the same kinds.
    kind_rank: Vec<u16>,
    /// The kind orders with the same kinds (`elephants * 9 + giraffes * 3 + chicks`), by rank.
    kind_orders: Vec<Vec<u16>>,
    /// `reach[code][square]`: where the side to move's piece of that kind goes from `square`.
    reach: [[u16; SQUARES]; 6],
    /// `from[code][square]`: where the side to move's piece of that kind reaches `square` from.
    from: [[u16; SQUARES]; 6],
}

/// Ways to lay out `counts` of three kinds in a row.
fn orders_of(counts: [usize; 3]) -> u64 {
    let factorial = |n: usize| (1..=n as u64).product::<u64>();
    factorial(counts.iter().sum()) / counts.iter().map(|&c| factorial(c)).product::<u64>()
}

/// Steps of each kind as (row, column) changes, the side to move going up (row - 1).
fn steps(code: u8) -> &'static [(i8, i8)] {
    match code {
        LION => &[
            (-1, -1),
            (-1, 0),
            (-1, 1),
            (0, -1),
            (0, 1),
            (1, -1),
            (1, 0),
            (1, 1),
        ],
        ELEPHANT => &[(-1, -1), (-1, 1), (1, -1), (1, 1)],
        GIRAFFE => &[(-1, 0), (0, -1), (0, 1), (1, 0)],
        CHICK => &[(-1, 0)],
        HEN => &[(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, 0)],
        _ => &[],
    }
}

impl Dobutsu {
    /// The standard game: two elephants, two giraffes and two chicks besides the lions.
    #[must_use]
    pub fn standard() -> Dobutsu {
        Dobutsu::with_kinds(true, true, true)
    }

    /// The game with only the kinds asked for besides the lions (the standard setup's squares
    /// for those kinds).
    #[must_use]
    pub fn with_kinds(elephants: bool, giraffes: bool, chicks: bool) -> Dobutsu {
        let counts = [elephants, giraffes, chicks].map(|k| if k { 2 } else { 0 });
        let choose = Binomials::new(SQUARES);
        let splits = |n: u8| -> Vec<(u8, u8)> {
            (0..=n)
                .flat_map(|mine| (0..=n - mine).map(move |theirs| (mine, theirs)))
                .collect()
        };
        let mut combos = Vec::new();
        for (e0, e1) in splits(counts[0]) {
            for (g0, g1) in splits(counts[1]) {
                for (c0, c1) in splits(counts[2]) {
                    combos.push([[e0, g0, c0], [e1, g1, c1]]);
                }
            }
        }
        let mut combo_of = vec![u16::MAX; 729];
        let (mut starts, mut sizes) = (vec![0u64], Vec::new());
        for (n, hands) in combos.iter().enumerate() {
            combo_of[hand_code(hands)] = n as u16;
            let board = board_counts(counts, hands).map(usize::from);
            let m: usize = board.iter().sum();
            let size = (choose.choose(SQUARES - 2, m) * orders_of(board)) << (m + board[2]);
            sizes.push(size);
            starts.push(starts[n] + 132 * size);
        }
        let mut kind_rank = vec![0u16; 7 * 729];
        let mut kind_orders = vec![Vec::new(); 27];
        for m in 0..=6u32 {
            for digits in 0..3u16.pow(m) {
                let mut kinds = [0usize; 3];
                let mut rest = digits;
                for _ in 0..m {
                    kinds[usize::from(rest % 3)] += 1;
                    rest /= 3;
                }
                if kinds.iter().any(|&k| k > 2) {
                    continue;
                }
                let orders: &mut Vec<u16> =
                    &mut kind_orders[kinds[0] * 9 + kinds[1] * 3 + kinds[2]];
                kind_rank[m as usize * 729 + usize::from(digits)] = orders.len() as u16;
                orders.push(digits);
            }
        }
        let (mut reach, mut from) = ([[0u16; SQUARES]; 6], [[0u16; SQUARES]; 6]);
        for code in LION..=HEN {
            let (reach, from) = (&mut reach[usize::from(code)], &mut from[usize::from(code)]);
            for (square, targets) in reach.iter_mut().enumerate() {
                let (row, col) = ((square / 3) as i8, (square % 3) as i8);
                for &(dr, dc) in steps(code) {
                    let (r, c) = (row + dr, col + dc);
                    if (0..4).contains(&r) && (0..3).contains(&c) {
                        let to = (r * 3 + c) as usize;
                        *targets |= 1 << to;
                        from[to] |= 1 << square;
                    }
                }
            }
        }
        Dobutsu {
            counts,
            choose,
            combos,
            combo_of,
            starts,
            sizes,
            kind_rank,
            kind_orders,
            reach,
            from,
        }
    }

    /// Pieces of each hand kind in play (elephants, giraffes, chicks): 2 or 0.
    #[must_use]
    pub fn counts(&self) -> [u8; 3] {
        self.counts
    }

    /// The setup: the first player's elephant, lion and giraffe on the bottom row from the
    /// left, a chick before the lion; the second player's the same, turned.
    #[must_use]
    pub fn start_position(&self) -> Animals {
        let mut cells = [EMPTY; SQUARES];
        let half = [
            (9, ELEPHANT, 0),
            (10, LION, usize::MAX),
            (11, GIRAFFE, 1),
            (7, CHICK, 2),
        ];
        for (square, code, slot) in half {
            if slot == usize::MAX || self.counts[slot] > 0 {
                cells[square] = code;
                cells[SQUARES - 1 - square] = code | THEIRS;
            }
        }
        Animals {
            cells,
            hands: [[0; 3]; 2],
            first_to_move: true,
        }
    }

    /// A position from its pieces (squares as the first player sees the board, from the
    /// top-left), the hands (the first player's, then the second's: elephants, giraffes,
    /// chicks) and the side to move.
    ///
    /// # Errors
    /// A side without exactly one lion, or a kind whose pieces do not add up to the game's.
    pub fn position_of(
        &self,
        board: &[Option<Piece>; SQUARES],
        hands: [[u8; 3]; 2],
        first_to_move: bool,
    ) -> Result<Animals, PositionError> {
        let mut cells = [EMPTY; SQUARES];
        let mut lions = [0usize; 2];
        let mut found = [
            hands[0][0] + hands[1][0],
            hands[0][1] + hands[1][1],
            hands[0][2] + hands[1][2],
        ];
        for (square, piece) in board.iter().enumerate() {
            let Some(piece) = piece else { continue };
            let code = piece.kind.code();
            if code == LION {
                lions[usize::from(!piece.first_player)] += 1;
            } else {
                found[hand_slot(code)] += 1;
            }
            let theirs = piece.first_player != first_to_move;
            cells[relative(first_to_move, square)] = code | if theirs { THEIRS } else { 0 };
        }
        if lions != [1, 1] {
            return Err(PositionError::Lions {
                first: lions[0],
                second: lions[1],
            });
        }
        for (slot, name) in ["elephant", "giraffe", "chick"].into_iter().enumerate() {
            if found[slot] != self.counts[slot] {
                return Err(PositionError::Count {
                    kind: name,
                    expected: self.counts[slot],
                    found: found[slot],
                });
            }
        }
        let hands = if first_to_move {
            hands
        } else {
            [hands[1], hands[0]]
        };
        Ok(Animals {
            cells,
            hands,
            first_to_move,
        })
    }

    /// The squares of the side to move's pieces that reach the opponent's lion on `lion`.
    fn lion_attackers(&self, animals: &Animals, lion: usize) -> u16 {
        let mut attackers = 0;
        // Every piece steps one square: only the lion's neighbours can reach it.
        for square in bits(self.from[usize::from(LION)][lion]) {
            let cell = animals.cells[square];
            if cell != EMPTY
                && cell & THEIRS == 0
                && self.reach[usize::from(cell)][square] >> lion & 1 == 1
            {
                attackers |= 1 << square;
            }
        }
        attackers
    }

    /// Whether the position is over: the mover can capture the lion (a win), or the
    /// opponent's lion stands on the mover's back row (a loss).
    fn is_over(&self, animals: &Animals) -> bool {
        let lion = animals.square_of(LION | THEIRS).unwrap_or(0);
        lion >= 9 || self.lion_attackers(animals, lion) != 0
    }

    /// Every move, as the mover sees the board.
    fn each_move(&self, animals: &Animals, mut each: impl FnMut(Relative)) {
        let lion = animals.square_of(LION | THEIRS).unwrap_or(0);
        let attackers = self.lion_attackers(animals, lion);
        if attackers != 0 {
            for from in bits(attackers) {
                each(Relative::Step(from, lion));
            }
            return;
        }
        if lion >= 9 {
            return; // the opponent's lion has reached the back row: the try stands
        }
        let (mut mine, mut empty) = (0u16, 0u16);
        for (square, &cell) in animals.cells.iter().enumerate() {
            if cell == EMPTY {
                empty |= 1 << square;
            } else if cell & THEIRS == 0 {
                mine |= 1 << square;
            }
        }
        for from in bits(mine) {
            let code = animals.cells[from];
            for to in bits(self.reach[usize::from(code)][from] & !mine) {
                each(Relative::Step(from, to));
            }
        }
        for slot in 0..3 {
            if animals.hands[0][slot] > 0 {
                for to in bits(empty) {
                    each(Relative::Drop(slot, to));
                }
            }
        }
    }

    fn play_relative(&self, animals: &Animals, mv: Relative) -> Transition<Animals> {
        let mut after = *animals;
        match mv {
            Relative::Step(from, to) => {
                let (piece, target) = (after.cells[from], after.cells[to]);
                if target == LION | THEIRS {
                    return Transition::End(Ending::Win);
                }
                if target != EMPTY {
                    after.hands[0][hand_slot(target)] += 1;
                }
                after.cells[from] = EMPTY;
                after.cells[to] = if piece == CHICK && to < 3 { HEN } else { piece };
            }
            Relative::Drop(slot, to) => {
                after.hands[0][slot] -= 1;
                after.cells[to] = DROPPED[slot];
            }
        }
        Transition::to(after.turned())
    }

    fn absolute(animals: &Animals, mv: Relative) -> Action {
        let at = |square| relative(animals.first_to_move, square);
        match mv {
            Relative::Step(from, to) => Action::Step {
                from: at(from),
                to: at(to),
            },
            Relative::Drop(slot, to) => Action::Drop {
                kind: Kind::IN_HAND[slot],
                to: at(to),
            },
        }
    }
}

/// The hands read as six base-3 digits.
fn hand_code(hands: &[[u8; 3]; 2]) -> usize {
    hands
        .iter()
        .flatten()
        .fold(0, |code, &n| code * 3 + usize::from(n))
}

/// Pieces of each hand kind on the board, given the hands.
fn board_counts(counts: [u8; 3], hands: &[[u8; 3]; 2]) -> [u8; 3] {
    [0, 1, 2].map(|k| counts[k] - hands[0][k] - hands[1][k])
}

impl Game for Dobutsu {
    type Position = Animals;
    type Move = Action;

    fn start(&self) -> Animals {
        self.start_position()
    }

    fn moves(&self, animals: &Animals) -> Vec<Action> {
        let mut moves = Vec::new();
        self.each_move(animals, |mv| moves.push(Dobutsu::absolute(animals, mv)));
        moves
    }

    fn play(&self, animals: &Animals, action: &Action) -> Transition<Animals> {
        let at = |square| relative(animals.first_to_move, square);
        let mv = match *action {
            Action::Step { from, to } => Relative::Step(at(from), at(to)),
            Action::Drop { kind, to } => Relative::Drop(kind.hand_slot().unwrap_or(2), at(to)),
        };
        self.play_relative(animals, mv)
    }
}

impl IndexedGame for Dobutsu {
    fn index_count(&self) -> u64 {
        *self.starts.last().unwrap_or(&0)
    }

    /// The side to move is not in the index: a position and its turned twin share a number.
    fn index(&self, animals: &Animals) -> u64 {
        let cells = &animals.cells;
        let mine = animals.square_of(LION).unwrap_or(0);
        let theirs = animals.square_of(LION | THEIRS).unwrap_or(1);
        let combo = usize::from(self.combo_of[hand_code(&animals.hands)]);
        let lions = (mine * 11 + theirs - usize::from(theirs > mine)) as u64;
        let (mut set, mut count, mut digits, mut owners, mut hens, mut chicks) =
            (0u64, 0usize, 0usize, 0u64, 0u64, 0u32);
        let mut free = 0;
        for (square, &cell) in cells.iter().enumerate() {
            if square == mine || square == theirs {
                continue;
            }
            if cell != EMPTY {
                count += 1;
                set += self.choose.choose(free, count);
                let slot = hand_slot(cell);
                digits = digits * 3 + slot;
                owners = owners << 1 | u64::from(cell >> 3);
                if slot == 2 {
                    hens = hens << 1 | u64::from(cell & 7 == HEN);
                    chicks += 1;
                }
            }
            free += 1;
        }
        let board = board_counts(self.counts, &self.combos[combo]).map(usize::from);
        let order = u64::from(self.kind_rank[count * 729 + digits]);
        let inner = ((set * orders_of(board) + order) << count | owners) << chicks | hens;
        self.starts[combo] + lions * self.sizes[combo] + inner
    }

    fn position(&self, index: u64) -> Option<Animals> {
        let combo = self
            .starts
            .partition_point(|&s| s <= index)
            .checked_sub(1)?;
        let hands = *self.combos.get(combo)?;
        let board = board_counts(self.counts, &hands).map(usize::from);
        let (count, chicks) = (board.iter().sum::<usize>(), board[2]);
        let rest = index - self.starts[combo];
        let (lions, mut inner) = (rest / self.sizes[combo], rest % self.sizes[combo]);
        let hens = inner & ((1 << chicks) - 1);
        inner >>= chicks;
        let owners = inner & ((1 << count) - 1);
        inner >>= count;
        let orders = orders_of(board);
        let digits =
            self.kind_orders[board[0] * 9 + board[1] * 3 + board[2]][(inner % orders) as usize];
        let set = self.choose.unrank(inner / orders, count, SQUARES - 2);
        let mine = (lions / 11) as usize;
        let theirs = (lions % 11) as usize;
        let theirs = theirs + usize::from(theirs >= mine);
        let mut cells = [EMPTY; SQUARES];
        cells[mine] = LION;
        cells[theirs] = LION | THEIRS;
        let (mut free, mut placed, mut chick) = (0, 0, 0);
        for (square, cell) in cells.iter_mut().enumerate() {
            if square == mine || square == theirs {
                continue;
            }
            if set >> free & 1 == 1 {
                let slot = usize::from(digits / 3u16.pow((count - 1 - placed) as u32) % 3);
                let mut code = DROPPED[slot];
                if slot == 2 {
                    if hens >> (chicks - 1 - chick) & 1 == 1 {
                        code = HEN;
                    }
                    chick += 1;
                }
                if owners >> (count - 1 - placed) & 1 == 1 {
                    code |= THEIRS;
                }
                *cell = code;
                placed += 1;
            }
            free += 1;
        }
        Some(Animals {
            cells,
            hands,
            first_to_move: true,
        })
    }

    fn transitions(&self, animals: &Animals, out: &mut Vec<Transition<Animals>>) {
        self.each_move(animals, |mv| out.push(self.play_relative(animals, mv)));
    }

    fn has_unmoves(&self) -> bool {
        true
    }

    /// The player who just moved takes back a drop (to the hand), a step, or a capture (the
    /// piece captured, from the hand, back on the square: a chick, or a hen it was before).
    /// A parent where the game was over has no move to give.
    fn tier_parents(&self, animals: &Animals, parents: &mut Vec<Animals>) {
        let before = animals.turned();
        let mut empty = 0u16;
        for (square, &cell) in before.cells.iter().enumerate() {
            if cell == EMPTY {
                empty |= 1 << square;
            }
        }
        let mut push = |parent: Animals| {
            if !self.is_over(&parent) {
                parents.push(parent);
            }
        };
        for (to, &code) in before.cells.iter().enumerate() {
            if code == EMPTY || code & THEIRS != 0 {
                continue;
            }
            if matches!(code, ELEPHANT | GIRAFFE | CHICK) {
                let mut parent = before;
                parent.cells[to] = EMPTY;
                parent.hands[0][hand_slot(code)] += 1;
                push(parent);
            }
            // The kind before the step, and the squares it came from.
            let mut sources = [(code, self.from[usize::from(code)][to]), (EMPTY, 0)];
            match code {
                // A chick on the far row was dropped: one moving there turns a hen.
                CHICK if to < 3 => sources[0].1 = 0,
                HEN if to < 3 => sources[1] = (CHICK, self.from[usize::from(CHICK)][to]),
                _ => {}
            }
            for (was, from_set) in sources {
                for from in bits(from_set & empty) {
                    let mut parent = before;
                    parent.cells[from] = was;
                    parent.cells[to] = EMPTY;
                    push(parent);
                    for (slot, &dropped) in DROPPED.iter().enumerate() {
                        if before.hands[0][slot] == 0 {
                            continue;
                        }
                        parent.hands[0][slot] = before.hands[0][slot] - 1;
                        parent.cells[to] = dropped | THEIRS;
                        push(parent);
                        if slot == 2 {
                            parent.cells[to] = HEN | THEIRS;
                            push(parent);
                        }
                        parent.hands[0][slot] = before.hands[0][slot];
                    }
                }
            }
        }
    }

    /// Left and right swapped: the pieces' steps and the far row are the same.
    fn has_symmetries(&self) -> bool {
        true
    }

    fn canonical(&self, animals: &Animals) -> Animals {
        let mirrored = animals.mirrored_cells();
        if mirrored < animals.cells {
            Animals {
                cells: mirrored,
                ..*animals
            }
        } else {
            *animals
        }
    }

    fn class_size(&self, animals: &Animals) -> u64 {
        if animals.mirrored_cells() == animals.cells {
            1
        } else {
            2
        }
    }
}

/// A square (`col + 3 * row` from the top-left) as a column letter and a row counted from the
/// bottom: `b2`.
fn square_text(square: usize) -> String {
    square_name(3, 4, square as u32)
}

/// A piece's letter: a capital for the first player's.
fn letter_of(piece: Option<Piece>) -> char {
    piece.map_or('.', |p| {
        let letter = p.kind.letter();
        if p.first_player {
            letter
        } else {
            letter.to_ascii_lowercase()
        }
    })
}

/// The hands as letters (the first player's capitals first), `-` for none.
fn hands_text(animals: &Animals) -> String {
    let mut held = String::new();
    for first in [true, false] {
        for kind in Kind::IN_HAND {
            for _ in 0..animals.in_hand(first, kind) {
                let letter = kind.letter();
                held.push(if first {
                    letter
                } else {
                    letter.to_ascii_lowercase()
                });
            }
        }
    }
    if held.is_empty() { "-".into() } else { held }
}

impl Dobutsu {
    /// The kinds in play besides the lions as letters (`egc` for the standard game).
    #[must_use]
    pub fn kinds_text(&self) -> String {
        ['e', 'g', 'c']
            .into_iter()
            .zip(self.counts)
            .filter(|&(_, count)| count > 0)
            .map(|(letter, _)| letter)
            .collect()
    }
}

impl BoardGame for Dobutsu {
    /// A step by its two squares; a drop by its kind and square.
    fn move_key(&self, mv: &Action) -> u32 {
        match *mv {
            Action::Step { from, to } => (from * 12 + to) as u32,
            Action::Drop { kind, to } => 144 + kind as u32 * 12 + to as u32,
        }
    }
    fn name(&self) -> &'static str {
        "dobutsu"
    }
    /// Empty for the standard game (its databases say so); the kinds in play otherwise
    /// (`c`: lions and chicks).
    fn variant(&self) -> String {
        let kinds = self.kinds_text();
        if kinds == "egc" { String::new() } else { kinds }
    }
    fn params(&self) -> Vec<(&'static str, String)> {
        vec![("animals", self.kinds_text())]
    }
    fn parse_position(&self, text: &str) -> Result<Animals, NotationError> {
        let mut parts = text.trim().split(':');
        let rows = parts.next().unwrap_or_default();
        let (mut hand, mut side) = ("", "x");
        for part in parts {
            match part.trim() {
                "x" | "X" | "o" | "O" => side = part.trim(),
                held => hand = held,
            }
        }
        let mut board = [None; SQUARES];
        let cells: Vec<char> = rows.chars().filter(|&c| c != '/').collect();
        if cells.len() != SQUARES {
            return Err(NotationError::Squares {
                what: "a Dobutsu shogi board (4 rows of 3 from the top)".into(),
                expected: SQUARES,
                found: cells.len(),
            });
        }
        for (square, &c) in cells.iter().enumerate() {
            if matches!(c, '.' | '-' | '_') {
                continue;
            }
            let kind = Kind::from_letter(c).ok_or_else(|| {
                NotationError::Rule(format!(
                    "{c:?} is not a piece: use L, E, G, C, H (capitals for the first player) or ."
                ))
            })?;
            board[square] = Some(Piece {
                kind,
                first_player: c.is_ascii_uppercase(),
            });
        }
        let mut hands = [[0u8; 3]; 2];
        for c in hand.chars().filter(|&c| c != '-') {
            let slot = Kind::from_letter(c)
                .and_then(Kind::hand_slot)
                .ok_or_else(|| {
                    NotationError::Rule(format!(
                        "{c:?} cannot be held: a hand holds E, G and C (capitals for the first player)"
                    ))
                })?;
            let held = &mut hands[usize::from(!c.is_ascii_uppercase())][slot];
            *held = held.saturating_add(1);
        }
        let first_to_move = matches!(side, "x" | "X");
        let animals = self
            .position_of(&board, hands, first_to_move)
            .map_err(|e| NotationError::Rule(e.to_string()))?;
        // The mover's lion on its far row got there on the mover's last move: the opponent then
        // had to capture it, or lost to the try. No game reaches this.
        if animals.square_of(LION).is_some_and(|square| square < 3) {
            return Err(NotationError::Rule(
                "the player to move has their lion on the far row already: the opponent would have captured it or lost to the try, so no game reaches this position".into(),
            ));
        }
        Ok(animals)
    }
    fn first_to_move(&self, animals: &Animals) -> bool {
        animals.first_to_move()
    }
    fn move_name(&self, action: &Action) -> MoveName {
        MoveName::Text(match *action {
            Action::Step { from, to } => format!("{}{}", square_text(from), square_text(to)),
            Action::Drop { kind, to } => format!("{}*{}", kind.letter(), square_text(to)),
        })
    }
    fn notation(&self, animals: &Animals) -> Option<String> {
        let rows: Vec<String> = (0..4)
            .map(|row| {
                (0..3)
                    .map(|col| letter_of(animals.piece_at(col + 3 * row)))
                    .collect()
            })
            .collect();
        let hands = hands_text(animals);
        let side = if animals.first_to_move() { 'x' } else { 'o' };
        Some(if hands == "-" {
            format!("{}:{side}", rows.join("/"))
        } else {
            format!("{}:{hands}:{side}", rows.join("/"))
        })
    }
    fn picture(&self, animals: &Animals) -> String {
        let mut text = grid_picture(3, 4, |s| letter_of(animals.piece_at(s as usize)));
        text.push_str(&format!("  in hand: {}\n", hands_text(animals)));
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn the_standard_index_has_tanakas_count() {
        let game = Dobutsu::standard();
        assert_eq!(game.index_count(), STANDARD_INDEX_COUNT);
        let small = Dobutsu::with_kinds(false, false, true);
        assert_eq!(small.index_count(), 105_996);
        let start = game.start_position();
        assert_eq!(game.position(game.index(&start)), Some(start));
    }

    #[test]
    fn the_opening_has_four_moves() {
        // The chick takes the chick, the giraffe steps up, the lion steps up either side.
        let game = Dobutsu::standard();
        let moves = game.moves(&game.start());
        assert_eq!(moves.len(), 4, "{moves:?}");
        assert!(moves.contains(&Action::Step { from: 7, to: 4 }));
    }

    /// Play `action`, which keeps the game going.
    fn after(game: &Dobutsu, animals: &Animals, action: Action) -> Animals {
        match game.play(animals, &action) {
            Transition::Continue { position, .. } => position,
            Transition::End(ending) => panic!("{action:?} ended the game: {ending:?}"),
        }
    }

    #[test]
    fn a_capture_goes_to_the_hand_and_a_lion_in_reach_is_taken() {
        let game = Dobutsu::standard();
        // The first player's chick takes the chick (b2 to b3), then the lion takes it back.
        let position = after(&game, &game.start(), Action::Step { from: 7, to: 4 });
        assert!(!position.first_to_move());
        assert_eq!(position.in_hand(true, Kind::Chick), 1);
        let position = after(&game, &position, Action::Step { from: 1, to: 4 });
        assert_eq!(position.in_hand(false, Kind::Chick), 1);
        assert_eq!(
            position.piece_at(4),
            Some(Piece {
                kind: Kind::Lion,
                first_player: false
            })
        );
        // The first player's lion steps next to it (b1 to a2): the lion in reach
        // leaves the second player only the capture, which wins.
        let position = after(&game, &position, Action::Step { from: 10, to: 6 });
        let moves = game.moves(&position);
        assert_eq!(moves, vec![Action::Step { from: 4, to: 6 }]);
        assert_eq!(
            game.play(&position, &moves[0]),
            Transition::End(Ending::Win)
        );
    }

    #[test]
    fn a_lion_on_the_far_row_out_of_reach_wins() {
        let game = Dobutsu::with_kinds(false, false, false);
        let mut board = [None; SQUARES];
        let lion = |first_player| {
            Some(Piece {
                kind: Kind::Lion,
                first_player,
            })
        };
        board[1] = lion(true); // the first player's lion has reached the top row
        board[9] = lion(false);
        let position = game.position_of(&board, [[0; 3]; 2], false).unwrap();
        assert!(game.moves(&position).is_empty());
        assert_eq!(game.no_moves(&position), Ending::Loss);
        // Beside the second player's lion, it is taken instead.
        board[9] = None;
        board[4] = lion(false);
        let position = game.position_of(&board, [[0; 3]; 2], false).unwrap();
        assert_eq!(game.moves(&position), vec![Action::Step { from: 4, to: 1 }]);
    }

    #[test]
    fn a_chick_turns_hen_on_the_far_row_but_not_when_dropped() {
        let game = Dobutsu::with_kinds(false, false, true);
        let mut board = [None; SQUARES];
        board[10] = Some(Piece {
            kind: Kind::Lion,
            first_player: true,
        });
        board[2] = Some(Piece {
            kind: Kind::Lion,
            first_player: false,
        });
        board[3] = Some(Piece {
            kind: Kind::Chick,
            first_player: true,
        });
        let position = game.position_of(&board, [[0, 0, 1], [0; 3]], true).unwrap();
        let promoted = after(&game, &position, Action::Step { from: 3, to: 0 });
        assert_eq!(promoted.piece_at(0).map(|p| p.kind), Some(Kind::Hen));
        let dropped = after(
            &game,
            &position,
            Action::Drop {
                kind: Kind::Chick,
                to: 1,
            },
        );
        assert_eq!(dropped.piece_at(1).map(|p| p.kind), Some(Kind::Chick));
    }

    #[test]
    fn a_position_must_have_the_games_pieces() {
        let game = Dobutsu::standard();
        let board = [None; SQUARES];
        assert!(matches!(
            game.position_of(&board, [[2, 2, 2], [0; 3]], true),
            Err(PositionError::Lions {
                first: 0,
                second: 0
            })
        ));
    }

    /// ../shared/reference/solved_games.md: 246,803,167 positions are reachable from the start
    /// (Tanaka, 2009), a position and its mirror image counted once; 493,573,042 apart.
    #[test]
    #[ignore = "walks 494 million positions twice: about 8 minutes on two cores"]
    fn tanakas_reachable_positions_are_the_mirror_classes() {
        use crate::engine::{Options, count_reachable, count_reachable_classes};
        let game = Dobutsu::standard();
        let options = Options {
            memory_limit: 4 << 30,
            ..Options::default()
        };
        let start = game.start();
        assert_eq!(
            count_reachable_classes(&game, &start, &options).unwrap(),
            246_803_167
        );
        assert_eq!(
            count_reachable(&game, &start, &options).unwrap(),
            493_573_042
        );
    }

    /// ../shared/reference/solved_games.md: the second player wins in 78 plies (Tanaka, 2009).
    #[test]
    #[ignore = "solves 1.57 billion indices: about 15 minutes and 10 GB on two cores"]
    fn the_second_player_wins_in_78() {
        use crate::engine::{Options, solve, table_index};
        use crate::player::Outcome;
        let game = Dobutsu::standard();
        let options = Options {
            memory_limit: 12 << 30,
            ..Options::default()
        };
        let solution = solve(&game, &options, &|_| {}).unwrap();
        let start = solution.record(table_index(&game, &game.start())).unwrap();
        assert_eq!(
            (start.outcome(), start.remoteness()),
            (Some(Outcome::Loss), Some(78))
        );
    }

    fn any_position(game: &Dobutsu) -> impl Strategy<Value = Animals> + '_ {
        (0..game.index_count(), any::<bool>(), any::<bool>()).prop_map(|(index, turn, mirror)| {
            let mut animals = game.position(index).unwrap();
            if mirror {
                animals.cells = animals.mirrored_cells();
            }
            if turn { animals.turned() } else { animals }
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        #[test]
        fn the_index_numbers_every_position_once(index in 0..STANDARD_INDEX_COUNT) {
            let game = Dobutsu::standard();
            let animals = game.position(index).unwrap();
            prop_assert_eq!(game.index(&animals), index);
            prop_assert_eq!(game.index(&animals.turned().turned()), index);
        }

        #[test]
        fn un_moves_and_moves_agree(animals in any_position(&Dobutsu::standard())) {
            let game = Dobutsu::standard();
            // Every child lists this position among its parents, once per move to it.
            let mut children = Vec::new();
            game.transitions(&animals, &mut children);
            let me = game.index(&animals);
            for child in &children {
                let Transition::Continue { position: child, .. } = child else { continue };
                let mut parents = Vec::new();
                game.tier_parents(child, &mut parents);
                let listed = parents.iter().filter(|p| game.index(p) == me).count();
                let moves = children.iter().filter(|c| matches!(c, Transition::Continue { position, .. } if position == child)).count();
                prop_assert_eq!(listed, moves, "{:?} -> {:?}", animals, child);
            }
            // Every parent has a move to this position.
            let mut parents = Vec::new();
            game.tier_parents(&animals, &mut parents);
            for parent in &parents {
                prop_assert_eq!(parent.first_to_move, !animals.first_to_move);
                let mut back = Vec::new();
                game.transitions(parent, &mut back);
                let found = back.iter().any(|t| matches!(t, Transition::Continue { position, .. } if game.index(position) == me));
                prop_assert!(found, "{:?} is no parent of {:?}", parent, animals);
            }
        }
    }
}
