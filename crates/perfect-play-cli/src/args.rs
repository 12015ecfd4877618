//! Command-line arguments (clap derive). Each subcommand is one game family.

use clap::{Args, Parser, Subcommand};

/// Solve two-player games exactly: who wins under perfect play, with which move, and why.
///
/// Every subcommand prints a short explanation for a person, or one JSON object with --json
/// (fields documented in README.md). Bad input exits with status 2 and one line on stderr.
#[derive(Debug, Parser)]
#[command(name = "perfect-play", version, propagate_version = true)]
#[command(
    after_help = "Examples:\n  perfect-play tour\n  perfect-play nim 3 4 5\n  perfect-play tic-tac-toe x...o....\n  perfect-play nim 1 2 3 --json"
)]
pub struct Cli {
    /// Print one JSON object instead of text.
    #[arg(long, global = true)]
    pub json: bool,

    #[command(subcommand)]
    pub command: Command,
}

/// The games the tool knows.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Solve one example of every game the tool knows.
    Tour,
    /// Nim: take any number of tokens from one heap; taking the last token wins.
    Nim(NimArgs),
    /// Tic-tac-toe from the empty board or any legal position.
    #[command(name = "tic-tac-toe", alias = "ttt")]
    TicTacToe(TicTacToeArgs),
    /// The coin game: a pile of N coins, take 1, X or Y; taking the last coin wins. A or B?
    Coins(CoinsArgs),
    /// Subtraction games: piles of coins, a move takes a number of coins from the set.
    Subtraction(SubtractionArgs),
    /// Stone Game / coins in a row: take the pile at either end; the larger total wins.
    Stones(StonesArgs),
    /// Octal (take-and-break) games: Grundy values, proven periods, sums and misère.
    Octal(OctalArgs),
    /// Can I Win: pick unused numbers from 1..=MAX; whoever brings the total to TOTAL wins.
    #[command(name = "can-i-win")]
    CanIWin(CanIWinArgs),
}

/// Arguments of `perfect-play nim`.
#[derive(Debug, Args)]
pub struct NimArgs {
    /// Heap sizes, e.g. `3 4 5`.
    #[arg(required = true, allow_negative_numbers = true, value_name = "HEAP", value_parser = parse_count)]
    pub heaps: Vec<u64>,

    /// Misère play: whoever takes the last token loses.
    #[arg(long)]
    pub misere: bool,
}

/// Arguments of `perfect-play tic-tac-toe`.
#[derive(Debug, Args)]
pub struct TicTacToeArgs {
    /// The board as 9 characters in reading order: x, o, or . for empty (default: empty board).
    #[arg(default_value = ".........", value_name = "BOARD")]
    pub board: String,
}

/// Arguments of `perfect-play coins`.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  perfect-play coins 10 3 4\n  perfect-play coins 1000000000000000000 7 11 --misere\n  printf '5 3 4\\n7 3 4\\n' | perfect-play coins --batch"
)]
pub struct CoinsArgs {
    /// N, X and Y: the pile (any size, e.g. 10^100 written out) and the two moves besides 1.
    #[arg(value_name = "N X Y", num_args = 0..=3, allow_negative_numbers = true)]
    pub numbers: Vec<String>,

    #[command(flatten)]
    pub options: PileOptions,
}

/// Options shared by `coins` and `subtraction`.
#[derive(Debug, Args)]
pub struct PileOptions {
    /// Misère play: whoever takes the last coin loses.
    #[arg(long)]
    pub misere: bool,

    /// Show the pattern of the first pile sizes (W/L marks) with its proven period.
    #[arg(long)]
    pub pattern: bool,

    /// Read one query per line from stdin (`coins`: `N X Y`; `subtraction`: the piles); print
    /// one JSON object per line.
    #[arg(long)]
    pub batch: bool,

    /// Most pile sizes the period search may compute: default 200000000 for the general
    /// method, which keeps every value; 20000000000 for {1, x, y} with y >= 64, which keeps
    /// O(y + period) of them (about 0.4 ns a pile, so up to 8 s).
    #[arg(long, value_name = "N", value_parser = parse_count)]
    pub limit: Option<u64>,
}

/// Arguments of `perfect-play subtraction`.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  perfect-play subtraction --moves 1,3,4 100\n  perfect-play subtraction --moves 2,3,7 10 11 12 --grundy\n  perfect-play subtraction --moves 1,3,4 --pattern\n  perfect-play subtraction --moves 2,3 4 5 6 --misere"
)]
pub struct SubtractionArgs {
    /// The move sizes, e.g. 1,3,4 (up to 64 moves, each from 1 to 100000000).
    #[arg(long, required = true, value_delimiter = ',', value_name = "LIST", value_parser = parse_count)]
    pub moves: Vec<u64>,

    /// Pile sizes (any size, in decimal). With none, only the sequence is shown.
    #[arg(value_name = "PILE", allow_negative_numbers = true)]
    pub piles: Vec<String>,

    /// Show Grundy values instead of W/L marks in the pattern.
    #[arg(long)]
    pub grundy: bool,

    #[command(flatten)]
    pub options: PileOptions,
}

/// Arguments of `perfect-play stones`.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  perfect-play stones 5 3 4 5\n  perfect-play stones 1 5 2 --ties-win --line\n  perfect-play stones --file row.txt --json\n  seq 1 1000 | perfect-play stones -\n  printf '5 3 4 5\\n2 2\\n' | perfect-play stones --batch"
)]
pub struct StonesArgs {
    /// The piles in row order (any i64 values). `-` alone reads them from stdin.
    #[arg(value_name = "PILE", allow_negative_numbers = true)]
    pub piles: Vec<String>,

    /// Read the piles from a file (whitespace or comma separated).
    #[arg(long, value_name = "PATH", conflicts_with = "batch")]
    pub file: Option<std::path::PathBuf>,

    /// A tie counts as a first-player win (as in "Predict the Winner").
    #[arg(long)]
    pub ties_win: bool,

    /// Print the whole optimal line of play (one decision bit per interval of the row).
    #[arg(long)]
    pub line: bool,

    /// Read one row per line from stdin; print one JSON object per line.
    #[arg(long)]
    pub batch: bool,

    /// Memory the decision bits of --line may use, e.g. 4G (default 2G: rows up to ~185,000).
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    pub memory_limit: Option<u64>,

    /// Longest row to analyse (default 1000000; the time grows with the square of the length).
    #[arg(long, value_name = "N")]
    pub max_piles: Option<usize>,
}

/// Arguments of `perfect-play octal`.
#[derive(Debug, Args)]
#[command(
    after_help = "Digit k after the point says what removing k tokens may leave: 1 = nothing, 2 = one heap, 4 = two heaps (add them). The digit before the point is 0, or 4 to allow splitting a heap without taking.\n\nExamples:\n  perfect-play octal 0.77 --upto 1000          Kayles: its proven period\n  perfect-play octal 0.07 10 20 33             Dawson's Kayles: who wins the sum, and how\n  perfect-play octal 0.16 --upto 600000        .16: period 149459 from 105351\n  perfect-play octal 0.6 --upto 200000 --full  an unsolved game: every value\n  perfect-play octal 0.77 5 7 --misere         misère play, by exact search"
)]
pub struct OctalArgs {
    /// The octal code, e.g. 0.77 (Kayles), .07 (Dawson's Kayles), 0.137, 4.7.
    #[arg(value_name = "CODE")]
    pub code: String,

    /// Heap sizes (any size, in decimal): the outcome of their sum and the winning moves.
    #[arg(value_name = "HEAP", allow_negative_numbers = true)]
    pub heaps: Vec<String>,

    /// Compute Grundy values of heaps 0..=N at most (default: the largest heap, at least 65536).
    #[arg(long, value_name = "N", value_parser = parse_count)]
    pub upto: Option<u64>,

    /// Keep computing to --upto after a period is proven.
    #[arg(long)]
    pub full: bool,

    /// Print the values of heaps 0..=N (N from --upto).
    #[arg(long)]
    pub values: bool,

    /// Misère play (whoever moves last loses), by exact search over the heaps.
    #[arg(long)]
    pub misere: bool,

    /// The method for Grundy values.
    #[arg(long, value_enum, default_value_t = OctalMethodArg::RareCommon)]
    pub method: OctalMethodArg,
}

/// `--method` values for octal games.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum OctalMethodArg {
    /// Every option of every heap.
    Naive,
    /// The rare/common split: fast where few heaps have rare values.
    RareCommon,
}

/// Arguments of `perfect-play can-i-win`.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  perfect-play can-i-win 10 11\n  perfect-play can-i-win 20 158 --json\n  perfect-play can-i-win --pool 2,3,5,7,11 20\n  perfect-play can-i-win 20 --all-targets\n  printf '10 11\\n20 158\\n' | perfect-play can-i-win --batch"
)]
pub struct CanIWinArgs {
    /// MAX then TOTAL (the seed's maxChoosableInteger and desiredTotal). With --pool, TOTAL
    /// alone, or MAX TOTAL with MAX the pool's largest number; with --all-targets leave TOTAL
    /// out.
    #[arg(allow_negative_numbers = true, value_name = "MAX TOTAL", num_args = 0..=2)]
    pub numbers: Vec<i64>,

    /// Pick from this list of distinct positive integers instead of 1..=MAX (e.g. 2,3,5,7,11).
    #[arg(long, value_delimiter = ',', value_name = "LIST")]
    pub pool: Option<Vec<u64>>,

    /// Misère play: whoever brings the total to the target loses.
    #[arg(long)]
    pub misere: bool,

    /// Solve every target from 1 to the sum of the pool and print the ones the first player wins.
    #[arg(long)]
    pub all_targets: bool,

    /// Read one query per line (`MAX TOTAL`) from stdin; print one JSON object per line.
    #[arg(long, conflicts_with_all = ["all_targets", "pool"])]
    pub batch: bool,

    /// Memory the solver may use, e.g. 512M, 8G (default 4G: pools of up to 35 numbers).
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    pub memory_limit: Option<u64>,

    /// Force a method instead of choosing automatically.
    #[arg(long, value_enum, default_value_t = MethodArg::Auto)]
    pub method: MethodArg,

    /// Most positions the remoteness walk may visit (default 2000000); past it the outcome and a
    /// winning line are still exact, but remoteness is reported as not computed.
    #[arg(long, value_name = "N")]
    pub remoteness_limit: Option<usize>,
}

/// `--method` values.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum MethodArg {
    /// Choose the cheaper method that fits in memory.
    Auto,
    /// The bit-parallel retrograde pass over all subsets.
    BitTable,
    /// Memoised depth-first search.
    Search,
}

/// A memory size: bytes, or a number with K, M, G or T (powers of 1024; `GiB`, `GB` also read).
pub fn parse_size(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let digits_end = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (number, unit) = t.split_at(digits_end);
    let number: u64 = number
        .parse()
        .map_err(|_| format!("{text:?} is not a size (examples: 512M, 8G)"))?;
    let shift = match unit
        .trim()
        .to_ascii_uppercase()
        .trim_end_matches("IB")
        .trim_end_matches('B')
    {
        "" => 0,
        "K" => 10,
        "M" => 20,
        "G" => 30,
        "T" => 40,
        _ => return Err(format!("{text:?} has an unknown unit (use K, M, G or T)")),
    };
    number
        .checked_mul(1u64 << shift)
        .ok_or_else(|| format!("{text:?} is too large"))
}

/// A size or count: a whole number from 0 to 2^64 - 1, with a message that says so.
pub fn parse_count(text: &str) -> Result<u64, String> {
    let text = text.trim();
    if text.starts_with('-') && text[1..].chars().all(|c| c.is_ascii_digit()) && text.len() > 1 {
        return Err(format!(
            "{text} is negative; sizes are whole numbers 0 or more"
        ));
    }
    text.parse::<u64>().map_err(|e| match e.kind() {
        std::num::IntErrorKind::PosOverflow => {
            format!(
                "{text} is larger than the largest supported size {}",
                u64::MAX
            )
        }
        _ => format!("{text:?} is not a whole number"),
    })
}
