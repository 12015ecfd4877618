//! `perfect-play serve`: the web explorer, answering from this binary's own commands.

use super::CommandError;
use crate::Io;
use crate::args::ServeArgs;
use crate::explorer::Explorer;
use std::sync::Arc;

pub fn run(args: &ServeArgs, io: &mut Io<'_>) -> Result<(), CommandError> {
    if io.small_limits {
        // The fuzz targets run commands in-process: a server would never return.
        return Err("serve does not run under the small budget".into());
    }
    let oracle = Arc::new(Explorer {
        budget_seconds: args.budget,
        small_limits: false,
    });
    let mut announced = Ok(());
    perfect_play_server::run(&args.host, args.port, oracle, |address| {
        announced = writeln!(
            io.stdout,
            "perfect-play explorer: http://{address}/ (API: http://{address}/api/v1/games; Ctrl-C stops)"
        )
        .and_then(|()| io.stdout.flush());
    })
    .map_err(|e| format!("cannot serve on {}:{}: {e}", args.host, args.port))?;
    announced.map_err(|e| crate::WriteFailed(e).into())
}
