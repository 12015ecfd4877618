//! `perfect-play serve`: the web explorer, answering from this binary's own commands.

use super::CommandError;
use crate::Io;
use crate::args::ServeArgs;
use crate::explorer::{Explorer, open_served};
use std::sync::Arc;

pub fn run(args: &ServeArgs, io: &mut Io<'_>) -> Result<(), CommandError> {
    if io.small_limits {
        // The fuzz targets run commands in-process: a server would never return.
        return Err("serve does not run under the small budget".into());
    }
    let (databases, books) = open_served(&args.db)?;
    for (i, d) in databases.iter().enumerate() {
        if let Some(twin) = databases[..i]
            .iter()
            .find(|e| e.game.name == d.game.name && e.engine.variant() == d.engine.variant())
        {
            return Err(format!(
                "{} and {} both hold {}: give one database per game and variant",
                twin.path.display(),
                d.path.display(),
                d.engine.title()
            )
            .into());
        }
    }
    let oracle = Arc::new(Explorer {
        budget_seconds: args.budget,
        small_limits: false,
        databases: Arc::new(databases),
        books: Arc::new(books),
    });
    let served: Vec<String> = oracle
        .databases
        .iter()
        .map(|d| {
            let query: Vec<String> = d.params.iter().map(|(k, v)| format!("&{k}={v}")).collect();
            format!(
                "{} ({}): /?game={}{}",
                d.engine.title(),
                d.path.display(),
                d.game.name,
                query.join("")
            )
        })
        .collect();
    let served: Vec<String> = served
        .into_iter()
        .chain(oracle.books.iter().map(|b| {
            format!(
                "Connect Four {} x {}, its first {} plies ({}): /?game=connect-four&width={}&height={}",
                b.file.board.width(),
                b.file.board.height(),
                b.file.plies,
                b.path.display(),
                b.file.board.width(),
                b.file.board.height()
            )
        }))
        .collect();
    let mut announced = Ok(());
    perfect_play_server::run(&args.host, args.port, oracle, |address| {
        announced = writeln!(
            io.stdout,
            "perfect-play explorer: http://{address}/ (API: http://{address}/api/v1/games; Ctrl-C stops)"
        )
        .and_then(|()| {
            for line in &served {
                writeln!(io.stdout, "  from a database: {line}")?;
            }
            io.stdout.flush()
        });
    })
    .map_err(|e| format!("cannot serve on {}:{}: {e}", args.host, args.port))?;
    announced.map_err(|e| crate::WriteFailed(e).into())
}
