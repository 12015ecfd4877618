//! Database files and opening books: any bytes opened as a database (and read whole when it
//! opens) or as a Connect Four book are refused with a typed error or read, never a panic or
//! an allocation the header alone asks for.
#![no_main]
use libfuzzer_sys::fuzz_target;
use perfect_play::engine::Database;
use perfect_play::registry::answers::connect_four;

fuzz_target!(|bytes: &[u8]| {
    let path = std::env::temp_dir().join(format!("pp-fuzz-database-{}", std::process::id()));
    std::fs::write(&path, bytes).expect("a scratch file");
    if let Ok(mut db) = Database::open(&path, false)
        && db.header.indices <= 1 << 20
        && let Ok(records) = db.all_records()
    {
        assert_eq!(records.len() as u64, db.header.indices);
    }
    // A book lists its positions within the memory given: a megabyte here.
    if let Ok(book) = connect_four::open_book(&path, 1 << 20) {
        assert_eq!(
            book.book.len() as u64,
            Database::open(&path, false).unwrap().header.positions
        );
    }
});
