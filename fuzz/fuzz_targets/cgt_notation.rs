//! Values in CGSuite's notation and partizan positions of every game, from any text: read
//! without a panic under a small table; a value read prints back to the same game; a
//! refusal names its place in a line of bounded length; a value's whole report is made.
#![no_main]
use libfuzzer_sys::fuzz_target;
use perfect_play::partizan::{
    GameTable, Side, Valuer, amazons, answer, clobber, cutcake, domineering, hackenbush, konane,
    notation, toads_and_frogs,
};

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    let mut games = GameTable::with_limit(20_000);
    match pick % 8 {
        0 => match notation::parse(&mut games, &text) {
            Ok(g) => {
                let shown = notation::show(&mut games, g);
                if let Ok(again) = notation::parse(&mut games, &shown) {
                    assert_eq!(again, g, "{text:?} printed {shown}");
                }
                // Every operation the report makes (thermograph, reduced form, incentives,
                // atomic weight) answers or refuses, within the small table.
                let _ = answer::report(&mut games, g, Side::Left);
            }
            Err(e) => assert!(e.to_string().len() <= 1024, "{e}"),
        },
        // Positions small enough to value at once (a few cells).
        1 => {
            if let Ok(board) = domineering::parse(&text)
                && text.len() <= 12
            {
                let _ = Valuer::new(domineering::Domineering).value(&mut games, &board);
            }
        }
        2 => {
            if let Ok(board) = clobber::parse(&text)
                && text.len() <= 10
            {
                let _ = Valuer::new(clobber::Clobber).value(&mut games, &board);
            }
        }
        3 => {
            if let Ok(board) = konane::parse(&text)
                && text.len() <= 10
            {
                let _ = Valuer::new(konane::Konane).value(&mut games, &board);
            }
        }
        4 => {
            if let Ok(board) = amazons::parse(&text)
                && text.len() <= 7
            {
                let _ = Valuer::new(amazons::Amazons).value(&mut games, &board);
            }
        }
        5 => {
            if let Ok(row) = toads_and_frogs::parse(&text)
                && row.len() <= 10
            {
                let _ = Valuer::new(toads_and_frogs::ToadsAndFrogs).value(&mut games, &row);
            }
        }
        6 => {
            if let Ok(stalks) = hackenbush::parse(&text)
                && text.len() <= 12
            {
                let _ = Valuer::new(hackenbush::HackenbushStalks).value(&mut games, &stalks);
            }
            match hackenbush::parse_graph(&text) {
                // A graph's value is exponential in its edges: a few are valued.
                Ok(edges) if edges.len() <= 8 => {
                    let shown = hackenbush::show_graph(&edges);
                    assert_eq!(hackenbush::parse_graph(&shown).ok(), Some(edges.clone()));
                    let _ = Valuer::new(hackenbush::HackenbushGraph).value(&mut games, &edges);
                }
                Ok(_) => {}
                Err(e) => assert!(e.to_string().len() <= 1024, "{e}"),
            }
        }
        _ => {
            if let Ok(pieces) = cutcake::parse(&text)
                && pieces.iter().all(|&(w, h)| w * h <= 12)
                && pieces.len() <= 3
            {
                let _ = Valuer::new(cutcake::Cutcake).value(&mut games, &pieces);
            }
        }
    }
});
