//! `perfect-play tour`: the first example of every game in the registry, each answered by its
//! own command in one run.

use super::{Budget, CommandError};
use crate::Io;
use crate::args::Cli;
use crate::output::Output;
use clap::Parser;
use perfect_play::registry;
use serde_json::{Map, json};

pub fn run(budget: &Budget) -> Result<Output, CommandError> {
    let mut text = String::new();
    let mut json = Map::new();
    for info in registry::GAMES {
        let mut words = vec![info.name.to_string()];
        words.extend(info.examples.first().map(|e| e.words()).unwrap_or_default());
        let command = format!("perfect-play {}", words.join(" "));
        let cli = Cli::try_parse_from(std::iter::once("perfect-play".to_string()).chain(words))
            .map_err(|e| format!("the tour's example {command} does not parse: {e}"))?;
        let mut nothing: &[u8] = &[];
        let (mut out, mut err) = (std::io::sink(), std::io::sink());
        let mut io = Io {
            stdin: &mut nothing,
            stdout: &mut out,
            stderr: &mut err,
            progress: false,
            small_limits: budget.small,
        };
        let output = super::output_of(&cli, budget, true, &mut io)?
            .ok_or_else(|| format!("the tour's example {command} gives no answer"))?;
        text.push_str(&format!("== {}: {command}\n{}\n", info.title, output.text));
        json.insert(
            info.name.to_string(),
            json!({"command": command, "result": output.json}),
        );
    }
    Ok(Output {
        text,
        json: serde_json::Value::Object(json),
    })
}
