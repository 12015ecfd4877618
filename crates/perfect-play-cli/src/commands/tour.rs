//! `perfect-play tour`: the first example of every game in the registry, each answered by its
//! own command in one run.

use super::{Budget, CommandError};
use crate::Io;
use crate::args::Cli;
use crate::output::Output;
use clap::Parser;
use perfect_play::registry::{self, GameInfo};
use serde_json::{Map, json};

/// The command line of a game's first example: `["tic-tac-toe"]`, `["nim", "3", "4", "5"]`,
/// `["teeko", "--size", "4", "--pieces", "3"]`.
pub fn example_words(info: &GameInfo) -> Vec<String> {
    let mut words = vec![info.name.to_string()];
    let Some(example) = info.examples.first() else {
        return words;
    };
    for (name, value) in example.params {
        let flag = format!("--{}", name.replace('_', "-"));
        if *value == "true" {
            words.push(flag);
        } else {
            words.extend([flag, (*value).to_string()]);
        }
    }
    words.extend(example.position.split_whitespace().map(str::to_string));
    words
}

pub fn run(budget: Budget) -> Result<Output, CommandError> {
    let mut text = String::new();
    let mut json = Map::new();
    for info in registry::GAMES {
        let words = example_words(info);
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
