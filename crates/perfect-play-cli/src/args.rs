//! Command-line arguments (clap derive). Each subcommand is one game family.

use clap::{Arg, ArgAction, ArgMatches, Args, FromArgMatches, Parser, Subcommand};
use perfect_play::registry::{self, Example, GameInfo, ParamKind};

/// Solve two-player games exactly: who wins under perfect play, with which move, and why.
///
/// Every subcommand prints a short explanation for a person, or one JSON object with --json
/// (fields documented in README.md). Bad input exits with status 2 and one line on stderr.
#[derive(Debug, Parser)]
#[command(
    name = "perfect-play",
    version,
    propagate_version = true,
    arg_required_else_help = true
)]
#[command(
    after_help = "Examples:\n  perfect-play tour\n  perfect-play nim 3 4 5\n  perfect-play tic-tac-toe x...o....\n  perfect-play nim 1 2 3 --json\n  perfect-play schema nim"
)]
pub struct Cli {
    /// Print one JSON object instead of text (its JSON Schema: `perfect-play schema COMMAND`).
    #[arg(long, global = true)]
    pub json: bool,

    /// Memory a solve may use, e.g. 512M, 8G. Work that needs more is refused at once with
    /// the figure (defaults: can-i-win 4G, stones 2G, nim 1G, octal, values and sum 2G; connect-four's search table 64M, at most 1G).
    #[arg(long, global = true, value_name = "SIZE", value_parser = parse_size)]
    pub memory_limit: Option<u64>,

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
    /// Solve a whole game with the engine (every position, loops and draws included), optionally
    /// into a database: the start's value and how the reachable positions divide.
    Solve(EngineArgs),
    /// One position of an engine game: its value, every move's value and a best line, read
    /// from a database when one is given (no solving), else solved in memory first.
    Query(EngineArgs),
    /// Connect Four, 7 x 6 by default: every column's exact value, from the engine's table
    /// (small boards) or by exact search.
    #[command(name = "connect-four", alias = "c4")]
    ConnectFour(ConnectFourArgs),
    /// Build an opening book: every position within a few plies of the start searched once
    /// and kept in a file that `connect-four --db` and `serve --db` answer from at once.
    Book(BookArgs),
    /// The coin game: a pile of N coins, take 1, X or Y; taking the last coin wins. A or B?
    Coins(CoinsArgs),
    /// Subtraction games: piles of coins, a move takes a number of coins from the set.
    Subtraction(SubtractionArgs),
    /// Stone Game / coins in a row: take the pile at either end; the larger total wins.
    Stones(StonesArgs),
    /// Octal (take-and-break) games: Grundy values, proven periods, sums and misère.
    Octal(OctalArgs),
    /// Can I Win: pick unused numbers from 1 to MAX; whoever brings the total to TOTAL wins.
    #[command(name = "can-i-win")]
    CanIWin(CanIWinArgs),
    /// The Grundy values of any impartial heap game, with the proven period if there is one.
    Values(ValuesArgs),
    /// A sum of games (GAME:HEAP, GAME:POSITION): who wins, and which move, by the nim-sum or canonical forms.
    Sum(SumArgs),
    /// Your own game as a graph file: its positions and moves (JSON, or a `FROM TO` edge
    /// list), solved by the engine, loops and draws included.
    Graph(GraphArgs),
    /// Partizan values in CGSuite's notation: the canonical form of a value or a sum of
    /// them, who wins it moving first and second, and its stops.
    Cgt(CgtArgs),
    /// Print the JSON Schema of a command's --json output (the contract other tools read).
    Schema(SchemaArgs),
    /// Start the web explorer: a page to see every game's values and play the perfect
    /// player, and its JSON API (/api/v1/games, /api/v1/GAME?position=...).
    Serve(ServeArgs),
    /// Play a game against the perfect player in the terminal: your moves from stdin, one a
    /// line (so it can be scripted); `hint`, `moves`, `undo`, `quit`.
    Play(PlayArgs),
    /// The engine's board games, one command each (from the registry).
    #[command(flatten)]
    Board(BoardCommand),
    /// The registry's other games (the Stone Game series, the classic puzzles), one command
    /// each, their answer told from the registry's.
    #[command(flatten)]
    Puzzle(PuzzleCommand),
}

/// Arguments of `perfect-play serve`.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  perfect-play serve                       then open http://127.0.0.1:8080/\n  perfect-play serve --port 0              any free port (the URL is printed)\n  curl 'http://127.0.0.1:8080/api/v1/nim?position=3+4+5'\n  curl 'http://127.0.0.1:8080/api/v1/coins?position=10+3+4&misere=true'\n\nAnswers are kept in memory for the next request that asks the same: at most 4,096 of\nthem and 256 MB in all, least recently used let go of first; an answer over 1 MB is\nsent but not kept. Faults on the server's side (a served database that cannot be read)\nare answered 500 and never kept."
)]
pub struct ServeArgs {
    /// The address to listen on.
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,

    /// The port to listen on (0: any free port).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,

    /// Seconds one answer may take: a question estimated above it is refused at once with
    /// status 422 and the figure.
    #[arg(long, default_value_t = 2.0, value_parser = parse_budget)]
    pub budget: f64,

    /// A solved database to answer from (written by `perfect-play solve GAME ... --db PATH`;
    /// repeat for several): its game and variant are answered from the file, one block read
    /// a position, whatever their size. A Connect Four opening book (`perfect-play book`)
    /// is read by the search first.
    #[arg(long, value_name = "PATH")]
    pub db: Vec<std::path::PathBuf>,
}

fn parse_budget(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(s) if s.is_finite() && s > 0.0 && s <= 86_400.0 => Ok(s),
        _ => Err(format!(
            "{text:?} is not a number of seconds above 0 and at most 86400"
        )),
    }
}

/// Which side the person plays in `perfect-play play`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Side {
    /// Move first (from the position given).
    First,
    /// Let the perfect player move first.
    Second,
}

/// Arguments of `perfect-play play`.
#[derive(Debug, Args)]
#[command(
    after_help = "Moves are written as the moves list shows them, or short: Nim and the heap games `1 2` (take 2 from heap 1), tic-tac-toe and Connect Four the square or column, Can I Win the number, Stones `left`/`right` (or l/r), Dodgem, Mu Torere and Quixo their move names (a3R, 4c, c1T).\n\nExamples:\n  perfect-play play nim 3 4 5\n  printf '1 2\\nquit\\n' | perfect-play play nim 3 4 5\n  perfect-play play tic-tac-toe --as second --hints\n  perfect-play play subtraction 20 --moves 1,3,4\n  perfect-play play can-i-win 10 15"
)]
pub struct PlayArgs {
    /// The game: any game `perfect-play --help` lists (nim, tic-tac-toe, quixo, ...).
    pub game: String,

    /// The starting position in the game's own command's notation (default: its first
    /// example).
    #[arg(allow_negative_numbers = true)]
    pub position: Vec<String>,

    /// Which side you play.
    #[arg(long = "as", value_enum, default_value_t = Side::First)]
    pub side: Side,

    /// Show every move's value before each of your moves.
    #[arg(long)]
    pub hints: bool,

    /// A solved database or Connect Four opening book the perfect player reads first (as
    /// `serve --db`; repeat for several).
    #[arg(long, value_name = "PATH")]
    pub db: Vec<std::path::PathBuf>,

    /// Misère play (nim, coins, subtraction, octal, can-i-win, sum).
    #[arg(long)]
    pub misere: bool,

    /// subtraction: the numbers a move may take.
    #[arg(long, value_name = "LIST")]
    pub moves: Option<String>,

    /// can-i-win: the numbers to pick from.
    #[arg(long, value_name = "LIST")]
    pub pool: Option<String>,

    /// stones: a tie counts as a win for the player to move.
    #[arg(long)]
    pub ties_win: bool,

    /// connect-four, hexapawn: columns.
    #[arg(long)]
    pub width: Option<u32>,

    /// connect-four, hexapawn: rows.
    #[arg(long)]
    pub height: Option<u32>,

    /// dodgem, quixo, teeko: the board's side.
    #[arg(long)]
    pub size: Option<u32>,

    /// teeko: pieces each.
    #[arg(long)]
    pub pieces: Option<u32>,

    /// dobutsu: the kinds in play besides the lions (e, g, c).
    #[arg(long)]
    pub animals: Option<String>,

    /// cat-and-mouse: the graph (each node's neighbours, nodes separated by /).
    #[arg(long, value_name = "LISTS")]
    pub graph: Option<String>,

    /// stone-game-2: M.
    #[arg(long, value_name = "M")]
    pub m: Option<u64>,

    /// stone-game-9: the removed sum mod 3.
    #[arg(long, value_name = "R")]
    pub removed: Option<u64>,

    /// stone-game-9: the second player is to move.
    #[arg(long)]
    pub second: bool,
}

/// The games `values` and `sum` accept, for the help texts.
macro_rules! games_help {
    () => {
        "Games: nim; a take-and-break code (octal 0.77, hexadecimal 0.3F, with ! or ? after a digit to make the heaps left differ); grundy (Grundy's game, 4!.0: split a heap into two unequal heaps); subtract=1,3,4 (a finite set); squares, powers-of-two, primes, fibonacci (subtract a member); at-least-half and at-most-half (take at least / at most half the pile; half = at-most-half); mock-turtles and ruler (coin turning, Winning Ways ch. 14: heap N is a head on coin N, from 1; any size by their closed forms)."
    };
}

/// Arguments of `perfect-play values`.
#[derive(Debug, Args)]
#[command(after_help = concat!(
    games_help!(),
    "\n\nExamples:\n  perfect-play values grundy --upto 100\n  perfect-play values squares --upto 1000000 --json\n  perfect-play values powers-of-two --upto 30          period 3, proven\n  perfect-play values 0.3F --upto 40"
))]
pub struct ValuesArgs {
    /// The game.
    #[arg(value_name = "GAME")]
    pub game: String,

    /// Compute heaps 0..=N.
    #[arg(long, value_name = "N", value_parser = parse_count)]
    pub upto: u64,
}

/// Arguments of `perfect-play sum`.
#[derive(Debug, Args)]
#[command(after_help = concat!(
    "Each COMPONENT is GAME:HEAP (an impartial heap game) or GAME:POSITION (a partizan game: domineering, clobber, konane, amazons, toads-and-frogs, hackenbush stalks, cutcake, in their own notation). ",
    games_help!(),
    "\n\nWith a partizan component the sum is valued by canonical forms (a heap of Grundy value g is *g): the sum's value, who wins with Left or Right to move, and every move of each side valued by the sum it leaves; heaps are then at most 4,096.",
    "\n\nExamples:\n  perfect-play sum 0.77:10 grundy:12 squares:100 subtract=1,3,4:7 nim:5\n  perfect-play sum powers-of-two:1000000000000000000000 nim:7\n  perfect-play sum nim:3 grundy:9 --misere\n  perfect-play sum 'domineering:..|..' clobber:xo nim:3 --to-move right"
))]
pub struct SumArgs {
    /// The components, GAME:HEAP each.
    #[arg(required = true, value_name = "COMPONENT")]
    pub components: Vec<String>,

    /// Misère play: whoever moves last loses (exact search, for small sums).
    #[arg(long)]
    pub misere: bool,

    /// With a partizan component, the player to move.
    #[arg(long, value_name = "PLAYER", default_value = "left", value_parser = ["left", "right"])]
    pub to_move: String,
}

/// Arguments of `perfect-play cgt`.
#[derive(Debug, Args)]
#[command(
    after_help = "Values are written as CGSuite writes them: numbers 0, 3, -3/2; nimbers *, *3; ups ^,\n^^, v, ^3, ^<2> (up-second); 1^*, 9/4v*; options {1|-1}, {0,*|0}; a longer run of bars\nsplits first ({2|0||0} is {{2|0}|0}); +-1 is {1|-1}; Tiny(2), Miny(2), 2Tiny(2).\nSums and differences: + and -, with parentheses.\n\nEvery answer gives the canonical form, who wins, the stops, temperature, mean and\nthermograph, the reduced canonical form, the options and incentives, and the atomic weight\nof an atomic (infinitesimal) value.\n\nExamples:\n  perfect-play cgt \"{1|-1} + ^ + *\"\n  perfect-play cgt \"{2|0||0}\" --to-move right\n  perfect-play cgt \"^ - (^ + *)\" --json\n  perfect-play cgt \"{3|{2|1}}\" --cool 1/2\n  perfect-play cgt \"^\" --compare \"*\""
)]
pub struct CgtArgs {
    /// The value, quoted as one argument (a leading minus sign is the value's).
    #[arg(value_name = "VALUE", allow_hyphen_values = true)]
    pub expression: String,

    /// The player to move, for `first_player_wins`.
    #[arg(long, value_name = "PLAYER", default_value = "left", value_parser = ["left", "right"])]
    pub to_move: String,

    /// Report the value cooled by T (a number above -1): every move taxed by T.
    #[arg(
        long,
        value_name = "T",
        allow_hyphen_values = true,
        conflicts_with = "heat"
    )]
    pub cool: Option<String>,

    /// Report the value heated by T (any value): every move not to a number earns T.
    #[arg(long, value_name = "T", allow_hyphen_values = true)]
    pub heat: Option<String>,

    /// Compare the value with another: <, =, > or <> (confused, incomparable).
    #[arg(long, value_name = "VALUE", allow_hyphen_values = true)]
    pub compare: Option<String>,
}

/// Arguments of `perfect-play schema`.
#[derive(Debug, Args)]
pub struct SchemaArgs {
    /// The command whose output the schema describes.
    #[arg(value_name = "COMMAND", value_parser = clap::builder::PossibleValuesParser::new(crate::schema::commands()))]
    pub command: String,
}

/// Arguments of `perfect-play nim`.
#[derive(Debug, Args)]
pub struct NimArgs {
    /// Heap sizes, e.g. `3 4 5` (0 or more each). An empty argument `""` is the empty
    /// position: the game is over.
    #[arg(required = true, allow_negative_numbers = true, value_name = "HEAP")]
    pub heaps: Vec<String>,

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

/// Arguments of `perfect-play connect-four`.
#[derive(Debug, Args)]
#[command(
    override_usage = "perfect-play connect-four [OPTIONS] [MOVES]\n       perfect-play connect-four --batch [OPTIONS] < lines-of-MOVES",
    after_help = "Two methods. The table (small boards: 4 x 4 up to 6 x 4, 5 x 5, 4 x 6): the engine solves every position of the board, two bytes each, then reads the one asked for. The search (any board whose bitboard fits 128 bits: width x (height + 1) <= 128, so 7 x 6, 8 x 7, 10 x 6, 8 x 8; boards that fit 64 bits on 64-bit words): alpha-beta from the position over a transposition table (64 MiB, or --memory-limit's worth up to 1 GiB), the exact score found by null-window tests, on every core. Most 7 x 6 positions past a dozen moves take milliseconds. An opening book of the first 7 x 6 plies comes with perfect-play and is read first (no flag; --db names another, --no-book leaves it out): the empty board and the first moves are answered at once. auto (the default) takes the table when the board solves in about a second.\n\nOutcome and remoteness are for the player to move, in plies: a win in 41 is won by the disc of the 41st ply from here, the loser delaying; a tie, the plies left to fill the board.\n\nExamples:\n  perfect-play connect-four 4453                 7 x 6 after columns 4, 4, 5, 3\n  perfect-play connect-four --width 4 --height 4 the whole 4 x 4 board: a tie\n  perfect-play connect-four 2233 --width 5 --height 4   after columns 2, 2, 3, 3\n  perfect-play connect-four --width 6 --height 4 --db c4-6x4.ppdb   solve once, then read\n  perfect-play connect-four 10,1,10 --width 10 --height 6   a board past 64 bits (10, alone)\n  printf '4453\\n44\\n' | perfect-play connect-four --batch   one JSON object a line, one table"
)]
pub struct ConnectFourArgs {
    /// Columns played so far, 1-based, as digits (4453) or a comma list (10,11) for wide
    /// boards (default: the empty board).
    #[arg(default_value = "", value_name = "MOVES", conflicts_with = "batch")]
    pub moves: String,

    /// Columns of the board.
    #[arg(long, default_value_t = 7, value_parser = clap::value_parser!(u32).range(1..=32))]
    pub width: u32,

    /// Rows of the board.
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u32).range(1..=127))]
    pub height: u32,

    /// table: solve the whole board; search: from the position; auto: the table when it
    /// solves in about a second.
    #[arg(long, value_enum, default_value_t = ConnectFourMethod::Auto)]
    pub method: ConnectFourMethod,

    /// The search stops after this many nodes with what it has proven (no limit by default).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub max_nodes: Option<u64>,

    /// Read MOVES from stdin, one position a line, and answer each with one JSON object on
    /// its own line (`line` numbers it); the search's table is kept from line to line.
    #[arg(long)]
    pub batch: bool,

    /// Worker threads, up to 256 (default: one per core).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u16).range(0..=256))]
    pub threads: u16,

    /// A database file of the table: read the answer from it when it exists (one block per
    /// position read, no solve), else solve, write it there and answer. An opening book
    /// (`perfect-play book connect-four`) is read by the search instead. While solving,
    /// finished tiers go to PATH.partial (and a tier in progress, every 5 minutes, to
    /// PATH.partial.level); a solve cut short (Ctrl-C, killed) resumes from them.
    #[arg(long, value_name = "PATH")]
    pub db: Option<std::path::PathBuf>,

    /// Search from scratch: leave out the opening book that comes with perfect-play (7 x 6;
    /// read first by default), for benchmarks and tests.
    #[arg(long, conflicts_with = "db")]
    pub no_book: bool,
}

/// Arguments of `perfect-play book`.
#[derive(Debug, Args)]
pub struct BookArgs {
    /// The game the book is for.
    #[command(subcommand)]
    pub game: BookGame,
}

/// The games that take an opening book.
#[derive(Debug, Subcommand)]
pub enum BookGame {
    /// Connect Four: the exact value of every position within --depth plies of the empty
    /// board (one per mirror pair), found by the search, deepest first so that each search
    /// finds the ones below it in the table.
    #[command(
        name = "connect-four",
        alias = "c4",
        after_help = "Examples:\n  perfect-play book connect-four --depth 2 --db c4-7x6-d2.ppdb        (11 minutes here, with --memory-limit 1G)\n  perfect-play connect-four 4 --db c4-7x6-d2.ppdb                    (at once: every column's value)\n  perfect-play book connect-four --width 6 --height 5 --depth 6 --db c4-6x5-d6.ppdb\n\nA book stops a search where it reaches the book, and answers a position at once when it\nholds the position and every position its moves lead to (method \"book\"; the best line\nthen stops at the book's edge). Positions searched go to PATH.partial as they finish: a\nbuild cut short (Ctrl-C, killed) resumes from it."
    )]
    ConnectFour(ConnectFourBookArgs),
}

/// Arguments of `perfect-play book connect-four`.
#[derive(Debug, Args)]
pub struct ConnectFourBookArgs {
    /// Plies from the empty board the book covers (0: the empty board alone).
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=42))]
    pub depth: u32,

    /// The book's file (the engine's database format).
    #[arg(long, value_name = "PATH")]
    pub db: std::path::PathBuf,

    /// Columns of the board.
    #[arg(long, default_value_t = 7, value_parser = clap::value_parser!(u32).range(1..=32))]
    pub width: u32,

    /// Rows of the board.
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u32).range(1..=127))]
    pub height: u32,

    /// Worker threads, up to 256 (default: one per core).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u16).range(0..=256))]
    pub threads: u16,
}

/// How `connect-four` answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ConnectFourMethod {
    /// The engine's table of the whole board.
    Table,
    /// Alpha-beta search from the position.
    Search,
    /// The table when the board solves in about a second, else the search.
    Auto,
}

/// Arguments of `perfect-play solve` and `perfect-play query`.
#[derive(Clone, Debug, Args)]
#[command(
    after_help = "Examples:\n  perfect-play solve tic-tac-toe\n  perfect-play solve connect-four --width 5 --height 4 --db c4-5x4.ppdb\n  perfect-play query connect-four --width 5 --height 4 2233 --db c4-5x4.ppdb\n  perfect-play query tic-tac-toe x...o....\n  perfect-play solve dodgem --size 4\n  perfect-play query dodgem x../x../.oo"
)]
pub struct EngineArgs {
    /// The game, its options and (for query) the position.
    #[command(subcommand)]
    pub game: GameChoice,

    /// A database file: solve writes the table there (finished tiers going to PATH.partial,
    /// and a tier in progress every 5 minutes (--checkpoint-every) to PATH.partial.level,
    /// which a killed solve resumes from; over MPI each rank's to PATH.partial.rankRofN);
    /// query reads from it without solving.
    #[arg(long, global = true, value_name = "PATH")]
    pub db: Option<std::path::PathBuf>,

    /// Worker threads, up to 256 (default: one per core; over MPI, per rank).
    #[arg(long, global = true, default_value_t = 0, value_parser = clap::value_parser!(u16).range(0..=256))]
    pub threads: u16,

    /// solve: skip counting the positions reachable from the start by value (a walk over
    /// the whole table: about 4 of Quixo 4 x 4's 14 seconds); positions_reachable, wins,
    /// losses, ties and draws are then null. A solve over MPI never counts them.
    #[arg(long, global = true)]
    pub no_counts: bool,

    /// solve with --db: save the tier in progress at the end of a level once this many
    /// seconds have passed since the last save (a killed solve goes on from there; 0 saves
    /// every level). Over MPI each rank saves its slice, all at the same level.
    #[arg(long, global = true, value_name = "SECONDS", default_value_t = 300)]
    pub checkpoint_every: u64,
}

/// An engine game chosen on the command line, with its parameters and position: the
/// subcommands come from the library's registry (one per engine game, with its typed
/// parameters as flags), so that a game registered there is a command here.
#[derive(Clone, Debug)]
pub struct GameChoice {
    /// The game.
    pub info: &'static GameInfo,
    /// The parameters given or defaulted, as (name, text) pairs.
    pub params: Vec<(String, String)>,
    /// The position, when one is given.
    pub position: Option<String>,
}

impl GameChoice {
    /// The engine game these arguments describe.
    pub fn build(&self) -> Result<Box<dyn perfect_play::registry::EngineGame>, String> {
        let params = self
            .info
            .params_from(&self.params)
            .map_err(|e| e.to_string())?;
        match self.info.build(&params) {
            Some(built) => built.map_err(|e| e.to_string()),
            None => Err(format!("{} is not solved by the engine", self.info.name)),
        }
    }
}

/// The clap subcommand of a registered game: its position and its parameters as flags; the
/// top-level form (`perfect-play quixo`) also takes `--db` and `--threads`.
fn game_command(info: &'static GameInfo, top_level: bool) -> clap::Command {
    let about = format!("{}: {}", info.title, info.description);
    let long = format!(
        "{about}\n\nPOSITION: {}.\nA move: {}.\n\nThe engine solves every position of the game (two bytes each) and reads the one asked for; with --db, a database written by `perfect-play solve {} ... --db PATH` answers without solving.",
        info.notation, info.move_notation, info.name
    );
    let mut command = clap::Command::new(info.name)
        .about(about)
        .long_about(long)
        .visible_aliases(info.aliases.iter().copied())
        .arg(
            Arg::new("position")
                .value_name("POSITION")
                .help("The position (default: the start)"),
        );
    let examples: Vec<String> = info
        .examples
        .iter()
        .map(|e| format!("  perfect-play {} {}", info.name, e.words().join(" ")))
        .collect();
    command = command.after_help(format!("Examples:\n{}", examples.join("\n")));
    for param in info.params {
        command = command.arg(param_arg(param));
    }
    if top_level {
        command = command
            .arg(
                Arg::new("db")
                    .long("db")
                    .value_name("PATH")
                    .value_parser(clap::value_parser!(std::path::PathBuf))
                    .help("A database file: read the answer from it when it exists (one block per position read, no solve), else solve, write it there and answer; a solve cut short resumes from PATH.partial"),
            )
            .arg(
                Arg::new("threads")
                    .long("threads")
                    .value_name("N")
                    .default_value("0")
                    .value_parser(clap::value_parser!(u16).range(0..=256))
                    .help("Worker threads, up to 256 (default: one per core)"),
            );
    }
    command
}

/// A registry parameter as a flag: `--ties-win`, `--size N` checked against its range, its
/// default shown.
fn param_arg(param: &registry::Param) -> Arg {
    let mut arg = Arg::new(param.name)
        .long(param.name.replace('_', "-"))
        .help(capitalise(param.help));
    arg = match param.kind {
        ParamKind::Boolean => arg.action(ArgAction::SetTrue),
        ParamKind::Integer { min, max } => arg
            .value_name("N")
            .value_parser(clap::value_parser!(u64).range(min..=max)),
        ParamKind::List => arg.value_name("LIST"),
        ParamKind::Text => arg.value_name("TEXT"),
    };
    if !param.default.is_empty() {
        arg = arg.default_value(param.default);
    }
    arg
}

fn capitalise(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

impl GameChoice {
    fn from_sub(name: &str, matches: &ArgMatches) -> Result<GameChoice, clap::Error> {
        let info = registry::find(name)
            .filter(|g| g.engine.is_some())
            .ok_or_else(|| clap::Error::new(clap::error::ErrorKind::InvalidSubcommand))?;
        let mut params = Vec::new();
        for param in info.params {
            let value = match param.kind {
                ParamKind::Boolean => matches.get_flag(param.name).then(|| "true".to_string()),
                ParamKind::Integer { .. } => matches.get_one::<u64>(param.name).map(u64::to_string),
                ParamKind::List | ParamKind::Text => matches.get_one::<String>(param.name).cloned(),
            };
            if let Some(value) = value {
                params.push((param.name.to_string(), value));
            }
        }
        Ok(GameChoice {
            info,
            params,
            position: matches.get_one::<String>("position").cloned(),
        })
    }
}

impl FromArgMatches for GameChoice {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        let (name, sub) = matches
            .subcommand()
            .ok_or_else(|| clap::Error::new(clap::error::ErrorKind::MissingSubcommand))?;
        GameChoice::from_sub(name, sub)
    }
    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        *self = GameChoice::from_arg_matches(matches)?;
        Ok(())
    }
}

impl Subcommand for GameChoice {
    fn augment_subcommands(mut command: clap::Command) -> clap::Command {
        for info in registry::engine_games() {
            command = command.subcommand(game_command(info, false));
        }
        command
    }
    fn augment_subcommands_for_update(command: clap::Command) -> clap::Command {
        GameChoice::augment_subcommands(command)
    }
    fn has_subcommand(name: &str) -> bool {
        registry::engine_games().any(|g| g.is_called(name))
    }
}

/// An engine game as a top-level command (`perfect-play quixo`), for every registered engine
/// game that has no command of its own: the same as `query GAME`, with `--db` and `--threads`.
#[derive(Clone, Debug)]
pub struct BoardCommand {
    /// The game, its parameters and position.
    pub game: GameChoice,
    /// `--db`.
    pub db: Option<std::path::PathBuf>,
    /// `--threads`.
    pub threads: u16,
}

impl BoardCommand {
    /// The same question as `query` asks it.
    pub fn as_query(&self) -> EngineArgs {
        EngineArgs {
            game: self.game.clone(),
            db: self.db.clone(),
            threads: self.threads,
            no_counts: false,
            checkpoint_every: 300,
        }
    }
}

/// The engine games with a command of their own (their answer has its own fields), and
/// whether that command answers from a database (`--db`).
const OWN_COMMANDS: [(&str, bool); 2] = [("tic-tac-toe", false), ("connect-four", true)];

/// Whether an engine game has a command of its own instead of the board games' common one.
pub(crate) fn has_own_command(name: &str) -> bool {
    OWN_COMMANDS.iter().any(|(own, _)| *own == name)
}

/// Whether the game's command can answer from a database: the board games' common command
/// and Connect Four's can, tic-tac-toe's (solved at once) cannot.
pub(crate) fn reads_databases(name: &str) -> bool {
    OWN_COMMANDS
        .iter()
        .find(|(own, _)| *own == name)
        .is_none_or(|(_, db)| *db)
}

impl FromArgMatches for BoardCommand {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        let (name, sub) = matches
            .subcommand()
            .ok_or_else(|| clap::Error::new(clap::error::ErrorKind::MissingSubcommand))?;
        Ok(BoardCommand {
            game: GameChoice::from_sub(name, sub)?,
            db: sub.get_one::<std::path::PathBuf>("db").cloned(),
            threads: sub.get_one::<u16>("threads").copied().unwrap_or(0),
        })
    }
    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        *self = BoardCommand::from_arg_matches(matches)?;
        Ok(())
    }
}

impl Subcommand for BoardCommand {
    fn augment_subcommands(mut command: clap::Command) -> clap::Command {
        for info in registry::engine_games().filter(|g| !has_own_command(g.name)) {
            command = command.subcommand(game_command(info, true));
        }
        command
    }
    fn augment_subcommands_for_update(command: clap::Command) -> clap::Command {
        BoardCommand::augment_subcommands(command)
    }
    fn has_subcommand(name: &str) -> bool {
        registry::engine_games()
            .filter(|g| !has_own_command(g.name))
            .any(|g| g.is_called(name))
    }
}

/// Arguments of `perfect-play coins`.
#[derive(Debug, Args)]
#[command(
    override_usage = "perfect-play coins [OPTIONS] <N> <X> <Y>\n       perfect-play coins --batch [OPTIONS] < lines-of-N-X-Y",
    after_help = "Examples:\n  perfect-play coins 10 3 4\n  perfect-play coins 1000000000000000000 7 11 --misere\n  printf '5 3 4\\n7 3 4\\n' | perfect-play coins --batch"
)]
pub struct CoinsArgs {
    /// N, X and Y: the pile (any size, e.g. 10^100 written out) and the two moves besides 1
    /// (each from 1 to 100000000).
    #[arg(value_name = "N X Y", num_args = 0..=3, allow_negative_numbers = true, conflicts_with = "batch")]
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
    /// one JSON object per line, each with its input `line` number.
    #[arg(long)]
    pub batch: bool,

    /// Most pile sizes the period search may compute: default 200000000 for the general
    /// method, which keeps every value; 20000000000 for {1, x, y} with y >= 64, which keeps
    /// O(y + period) of them (about 0.4 ns a pile, so up to 8 s).
    #[arg(long, value_name = "N", value_parser = parse_positive)]
    pub limit: Option<u64>,
}

/// Arguments of `perfect-play subtraction`.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  perfect-play subtraction --moves 1,3,4 100\n  perfect-play subtraction --moves 2,3,7 10 11 12 --grundy\n  perfect-play subtraction --moves 1,3,4 --pattern\n  perfect-play subtraction --moves 2,3 4 5 6 --misere"
)]
pub struct SubtractionArgs {
    /// The move sizes, e.g. 1,3,4 (up to 64 moves, each from 1 to 100000000).
    #[arg(long, required = true, value_name = "LIST", value_parser = parse_move_set)]
    pub moves: NumberList,

    /// Pile sizes (any size, in decimal). With none, only the sequence is shown.
    #[arg(
        value_name = "PILE",
        allow_negative_numbers = true,
        conflicts_with = "batch"
    )]
    pub piles: Vec<String>,

    /// Show the pattern with Grundy values instead of W/L marks (implies --pattern).
    #[arg(long)]
    pub grundy: bool,

    #[command(flatten)]
    pub options: PileOptions,
}

/// Arguments of `perfect-play graph`.
#[derive(Debug, Args)]
#[command(
    after_help = "Formats (README: \"Your own game as a graph\"):\n  JSON:       {\"start\": \"A\", \"moves\": {\"A\": [\"B\", \"C\"], \"B\": [\"A\"], \"C\": []}, \"results\": {\"C\": \"loss\"}}\n  edge list:  one move FROM TO a line; POSITION =win|loss|tie for a finished position\n              (for the player to move there); # comments; the start is the first name.\n  A position with no moves and no result is lost by the player to move; endless play is a draw.\n\nExamples:\n  perfect-play graph game.json\n  perfect-play graph moves.txt --all --json\n  perfect-play graph moves.txt --position B\n  generate-moves | perfect-play graph -"
)]
pub struct GraphArgs {
    /// The graph file (`-`: standard input). JSON when it starts with `{`, else an edge list.
    #[arg(value_name = "FILE")]
    pub file: std::path::PathBuf,

    /// The position to answer about (default: the start).
    #[arg(long, value_name = "NAME")]
    pub position: Option<String>,

    /// Also give every position's value and winning moves (`values` in --json).
    #[arg(long)]
    pub all: bool,

    /// Worker threads for the solve, up to 256 (default: one per core).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u16).range(0..=256))]
    pub threads: u16,
}

/// Arguments of `perfect-play stones`.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  perfect-play stones 5 3 4 5\n  perfect-play stones 1 5 2 --ties-win --line\n  perfect-play stones --file row.txt --json\n  seq 1 1000 | perfect-play stones -\n  printf '5 3 4 5\\n2 2\\n' | perfect-play stones --batch"
)]
pub struct StonesArgs {
    /// The piles in row order (any i64 values). `-` alone reads them from stdin; an empty
    /// argument `""` is the empty row (the game is over).
    #[arg(value_name = "PILE", allow_negative_numbers = true, required_unless_present_any = ["file", "batch"], conflicts_with_all = ["file", "batch"])]
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

    /// Also give the margin of every interval of the row (rows of up to 64 piles): the table
    /// the explorer draws as a heat map.
    #[arg(long, conflicts_with = "batch")]
    pub table: bool,

    /// Read one row per line from stdin; print one JSON object per line, each with its input
    /// `line` number.
    #[arg(long)]
    pub batch: bool,

    /// Longest row to analyse (default 200000, about 12 s here, 25 s for piles adding up past
    /// 2^62; the time grows with the square of the length: 1000000 piles take about 5 minutes,
    /// 10 past 2^62).
    #[arg(long, value_name = "N", value_parser = parse_positive)]
    pub max_piles: Option<u64>,
}

/// Arguments of `perfect-play octal`.
#[derive(Debug, Args)]
#[command(
    after_help = "Digit k after the point says what removing k tokens may leave: 1 = nothing, 2 = one heap, 4 = two heaps, 8 = three heaps (add them; hexadecimal digits A-F include 8). The digit before the point is 0, or 4 / 8 / C to allow splitting a heap without taking. A digit followed by ! requires the heaps it leaves to differ, by ? not to be all equal (CGSuite's notation). `grundy` is Grundy's game, 4!.0.\n\nExamples:\n  perfect-play octal 0.77 --upto 1000          Kayles: its proven period\n  perfect-play octal 0.07 10 20 33             Dawson's Kayles: who wins the sum, and how\n  perfect-play octal 0.16 --upto 600000        .16: period 149459 from 105351\n  perfect-play octal 0.6 --upto 200000 --full  an unsolved game: every value\n  perfect-play octal 0.77 5 7 --misere         misère play, by exact search\n  perfect-play octal 4!.0 --upto 100000        Grundy's game (also: octal grundy)\n  perfect-play octal 0.3F 20                   a hexadecimal code: moves may leave three heaps"
)]
pub struct OctalArgs {
    /// The octal code, e.g. 0.77 (Kayles), .07 (Dawson's Kayles), 0.137, 4.7.
    #[arg(value_name = "CODE")]
    pub code: String,

    /// Heap sizes (any size, in decimal): the outcome of their sum and the winning moves.
    #[arg(value_name = "HEAP", allow_negative_numbers = true)]
    pub heaps: Vec<String>,

    /// Compute Grundy values of heaps 0..=N at most (default: the largest heap, at least 65536
    /// and at most 1048576; a larger heap without a proven period needs --upto). Values take
    /// two bytes each up to 2^30 heaps and about one beyond (or wherever two do not fit
    /// --memory-limit): any N whose values fit the limit is accepted.
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
    #[arg(long, value_enum, default_value_t = OctalMethodArg::Auto)]
    pub method: OctalMethodArg,

    /// Run values estimated past a minute (refused without it, with the estimate): for long
    /// runs, best with --checkpoint.
    #[arg(long)]
    pub no_time_limit: bool,

    /// Keep the values in PATH for long runs: saved every minute, on Ctrl-C (the run then
    /// stops) and at the end; the same command goes on from them, to the same values as a
    /// run never stopped, and a larger --upto extends them.
    #[arg(long, value_name = "PATH")]
    pub checkpoint: Option<std::path::PathBuf>,
}

/// `--method` values for octal games.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum OctalMethodArg {
    /// The rare/common split while it examines fewer options than the naive method, else the
    /// naive method (re-checked as the heaps grow).
    Auto,
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
    /// MAX then TOTAL (LeetCode 464's maxChoosableInteger, 1 to 64, and desiredTotal, any whole
    /// number). With --pool, TOTAL alone, or MAX TOTAL with MAX the pool's largest number; with
    /// --all-targets leave TOTAL out.
    #[arg(allow_negative_numbers = true, value_name = "MAX TOTAL", num_args = 0..=2, conflicts_with = "batch")]
    pub numbers: Vec<String>,

    /// Pick from this list of distinct positive integers instead of 1 to MAX (e.g. 2,3,5,7,11).
    #[arg(long, value_name = "LIST", value_parser = parse_pool)]
    pub pool: Option<NumberList>,

    /// Misère play: whoever brings the total to the target loses.
    #[arg(long)]
    pub misere: bool,

    /// Solve every target from 1 to the sum of the pool and print the ones the first player wins.
    #[arg(long)]
    pub all_targets: bool,

    /// Read one query per line (`MAX TOTAL`) from stdin; print one JSON object per line, each
    /// with its input `line` number.
    #[arg(long, conflicts_with_all = ["all_targets", "pool"])]
    pub batch: bool,

    /// Force a method instead of choosing automatically.
    #[arg(long, value_enum, default_value_t = MethodArg::Auto)]
    pub method: MethodArg,

    /// 0: no remoteness at all (outcome and a winning line only). Otherwise remoteness is exact
    /// for every pool of up to 36 numbers whose bit table fits --memory-limit (up to 28
    /// numbers a layered table of up to 7 bits a position, past 28 one bit a position: 32
    /// numbers in 512M). With --method search, a walk from the start finds it, visiting at most N
    /// positions (default 2000000; past them remoteness is null). The walk's memory counts
    /// against --memory-limit, so a limit it cannot fit is refused.
    #[arg(long, value_name = "N", value_parser = parse_count)]
    pub remoteness_limit: Option<u64>,
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
    perfect_play::parse::size(text).map_err(|e| e.to_string())
}

/// A size or count: a whole number from 0 to 2^64 - 1.
pub fn parse_count(text: &str) -> Result<u64, String> {
    perfect_play::parse::count(text).map_err(|e| e.to_string())
}

/// A whole number from 1 to 2^64 - 1.
pub fn parse_positive(text: &str) -> Result<u64, String> {
    perfect_play::parse::count_in(text, 1, u64::MAX).map_err(|e| e.to_string())
}

/// A comma list given as one argument. A newtype, not a `Vec`: clap reads a `Vec` field as
/// several values of the element type, which a list parser does not produce.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NumberList(pub Vec<u64>);

/// A subtraction set: move sizes from 1 to 100000000.
pub fn parse_move_set(text: &str) -> Result<NumberList, String> {
    perfect_play::parse::list_in(text, 1, perfect_play::subtraction::MAX_MOVE)
        .map(NumberList)
        .map_err(|e| match text.trim().parse::<perfect_play::impartial::HeapGame>() {
            // An infinite set by name: say where it is played rather than that it is no list.
            Ok(game @ perfect_play::impartial::HeapGame::Rule(_)) => format!(
                "{game} names an infinite set, not a list of moves: `perfect-play sum {game}:PILE ...` plays it and `perfect-play values {game} --upto N` lists its values"
            ),
            _ => e.to_string(),
        })
}

/// A Can I Win pool: positive whole numbers, comma separated.
pub fn parse_pool(text: &str) -> Result<NumberList, String> {
    perfect_play::parse::list_in(text, 1, u64::MAX)
        .map(NumberList)
        .map_err(|e| e.to_string())
}

/// The families whose command is written out here (their own flags, text and batch).
const FAMILY_COMMANDS: [&str; 7] = [
    "nim",
    "coins",
    "subtraction",
    "stones",
    "octal",
    "can-i-win",
    "sum",
];

/// The registry's games answered by their own solver that have no command written out here:
/// each gets one built from its registry entry.
pub(crate) fn puzzle_games() -> impl Iterator<Item = &'static GameInfo> {
    registry::GAMES
        .iter()
        .filter(|g| g.engine.is_none() && !FAMILY_COMMANDS.contains(&g.name))
}

/// A registry game as a command (`perfect-play stone-game-2 2 7 9 4 4`): its position as
/// words, its parameters as flags, `--batch`, and its long help from the registry (the
/// rules, the notation, how it is solved and at what cost).
#[derive(Clone, Debug)]
pub struct PuzzleCommand {
    /// The game.
    pub info: &'static GameInfo,
    /// The parameters given or defaulted, as (name, text) pairs.
    pub params: Vec<(String, String)>,
    /// The position's words, joined by spaces.
    pub position: String,
    /// `--batch`: one position a line on stdin.
    pub batch: bool,
}

fn puzzle_command(info: &'static GameInfo) -> clap::Command {
    let about = format!("{}: {}", info.title, info.description);
    let long = format!(
        "{about}\n\nPOSITION: {}.\nA move: {}.\n\n{}",
        info.notation, info.move_notation, info.solved_by
    );
    let examples: Vec<String> = info
        .examples
        .iter()
        .map(|e| format!("  perfect-play {} {}", info.name, e.words().join(" ")))
        .collect();
    let mut command = clap::Command::new(info.name)
        .about(about)
        .long_about(long)
        .visible_aliases(info.aliases.iter().copied())
        .after_help(format!(
            "Examples:\n{}\n  printf '{}\\n' | perfect-play {}{} --batch",
            examples.join("\n"),
            info.examples[0].position,
            info.name,
            // The first example's flags alone: the positions come from stdin.
            Example {
                position: "",
                params: info.examples[0].params,
            }
            .words()
            .iter()
            .map(|w| format!(" {w}"))
            .collect::<String>()
        ))
        .arg(
            Arg::new("position")
                .value_name("POSITION")
                .num_args(0..)
                .allow_negative_numbers(true)
                .help("The position (words joined by spaces; after -- when one starts with a dash other than a negative number; @PATH reads it from a file)"),
        )
        .arg(
            Arg::new("batch")
                .long("batch")
                .action(ArgAction::SetTrue)
                .help("Read one position a line from stdin and print one JSON object a line"),
        );
    for param in info.params {
        let mut arg = param_arg(param);
        if param.kind == ParamKind::Text {
            arg = arg.long_help(format!(
                "{} (@PATH: read it from a file)",
                capitalise(param.help)
            ));
        }
        command = command.arg(arg);
    }
    command
}

/// The most a parameter's `@PATH` file may hold: far past any graph the solve could hold
/// (Cat and Mouse's 2n² positions of 1,000 nodes take 150 MB; their lists, under 8 MB).
const AT_FILE_BYTES: u64 = 64 << 20;

/// A text parameter given as `@PATH` is read from that file (a graph too long for the
/// command line), through its limit; a FIFO or a folder is refused at once.
fn read_at_file(name: &str, value: String) -> Result<String, clap::Error> {
    let Some(path) = value.strip_prefix('@') else {
        return Ok(value);
    };
    // The position is an argument, the others are flags.
    let flag = if name == "position" {
        "POSITION".to_string()
    } else {
        format!("--{}", name.replace('_', "-"))
    };
    let refused = |why: String| {
        clap::Error::raw(
            clap::error::ErrorKind::ValueValidation,
            format!("{flag} {}: {why}\n", perfect_play::parse::shorten(&value)),
        )
    };
    let mut file = perfect_play::durable::open_to_read(std::path::Path::new(path))
        .map_err(|e| refused(e.to_string()))?;
    let bytes = perfect_play::parse::read_limited(
        &mut file,
        AT_FILE_BYTES,
        path,
        "a parameter's file may hold",
        "no graph that long could be solved here",
    )
    .map_err(|e| refused(e.to_string()))?;
    String::from_utf8(bytes).map_err(|e| {
        refused(format!(
            "{path} is not UTF-8 text (a bad byte at offset {})",
            e.utf8_error().valid_up_to()
        ))
    })
}

impl FromArgMatches for PuzzleCommand {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        let (name, sub) = matches
            .subcommand()
            .ok_or_else(|| clap::Error::new(clap::error::ErrorKind::MissingSubcommand))?;
        let info = puzzle_games()
            .find(|g| g.is_called(name))
            .ok_or_else(|| clap::Error::new(clap::error::ErrorKind::InvalidSubcommand))?;
        let mut params = Vec::new();
        for param in info.params {
            let value = match param.kind {
                ParamKind::Boolean => sub.get_flag(param.name).then(|| "true".to_string()),
                ParamKind::Integer { .. } => sub.get_one::<u64>(param.name).map(u64::to_string),
                ParamKind::List | ParamKind::Text => sub.get_one::<String>(param.name).cloned(),
            };
            if let Some(value) = value {
                params.push((param.name.to_string(), read_at_file(param.name, value)?));
            }
        }
        let mut words: Vec<String> = sub
            .get_many::<String>("position")
            .map(|w| w.cloned().collect())
            .unwrap_or_default();
        // A position too long for the command line (a Hackenbush graph) from a file.
        if let [only] = words.as_slice()
            && only.starts_with('@')
        {
            let text = read_at_file("position", only.clone())?;
            words = vec![text];
        }
        Ok(PuzzleCommand {
            info,
            params,
            position: words.join(" "),
            batch: sub.get_flag("batch"),
        })
    }
    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        *self = PuzzleCommand::from_arg_matches(matches)?;
        Ok(())
    }
}

impl Subcommand for PuzzleCommand {
    fn augment_subcommands(mut command: clap::Command) -> clap::Command {
        for info in puzzle_games() {
            command = command.subcommand(puzzle_command(info));
        }
        command
    }
    fn augment_subcommands_for_update(command: clap::Command) -> clap::Command {
        PuzzleCommand::augment_subcommands(command)
    }
    fn has_subcommand(name: &str) -> bool {
        puzzle_games().any(|g| g.is_called(name))
    }
}
