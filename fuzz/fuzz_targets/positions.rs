//! Every engine game's position notation, through the registry: arbitrary text either is
//! refused with a typed error or names a position whose notation reads back as itself. The
//! first byte picks the game and its variant (each registered example's parameters).
#![no_main]
use libfuzzer_sys::fuzz_target;
use perfect_play::registry;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let variants: Vec<_> = registry::engine_games()
        .flat_map(|info| info.examples.iter().map(move |e| (info, e)))
        .collect();
    let (info, example) = variants[usize::from(pick) % variants.len()];
    let params = info
        .params_from(&example.given())
        .expect("an example's parameters are valid");
    let game = info
        .build(&params)
        .expect("an engine game")
        .expect("its example builds");
    let text = String::from_utf8_lossy(rest);
    if let Ok(Some(written)) = game.notation_of(&text) {
        assert_eq!(
            game.notation_of(&written)
                .expect("a written position parses"),
            Some(written.clone()),
            "{} {text:?}",
            info.name
        );
    }
});
