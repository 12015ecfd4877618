//! Progress bars for long solves: on stderr, only when it is a terminal and not under --json.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;

/// A bar for `what`, hidden when `quiet` or when stderr is not a terminal.
pub fn bar(what: &str, quiet: bool) -> ProgressBar {
    if quiet || !std::io::stderr().is_terminal() {
        return ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
    }
    let bar = ProgressBar::new(0);
    bar.set_style(
        ProgressStyle::with_template(
            "{msg} [{bar:40}] {human_pos}/{human_len} ({per_sec}, {elapsed}, eta {eta})",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> "),
    );
    bar.set_message(what.to_string());
    bar
}

/// A callback that moves `bar` to `done` of `total`.
pub fn updater(bar: &ProgressBar) -> impl Fn(u64, u64) + Sync + '_ {
    move |done, total| {
        bar.set_length(total);
        bar.set_position(done);
    }
}

/// A bar counting positions solved, with their rate and the time left.
pub fn positions_bar(quiet: bool) -> ProgressBar {
    if quiet || !std::io::stderr().is_terminal() {
        return ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
    }
    let bar = ProgressBar::new(0);
    bar.set_style(
        ProgressStyle::with_template(
            "solving [{bar:40}] {human_pos}/{human_len} positions ({per_sec}, {elapsed}, eta {eta}) {msg}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> "),
    );
    bar
}

/// A counter for work with no known end (regions of a partizan value): the count and the
/// time so far; hidden as [`bar`] is.
pub fn counter(quiet: bool) -> ProgressBar {
    if quiet || !std::io::stderr().is_terminal() {
        return ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
    }
    let counter = ProgressBar::new_spinner();
    counter.set_style(
        ProgressStyle::with_template("{spinner} {human_pos} {msg} ({elapsed})")
            .unwrap_or_else(|_| ProgressStyle::default_spinner()),
    );
    counter
}
