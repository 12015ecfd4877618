//! `mpirun -np N perfect-play solve GAME --db PATH` (the `mpi` feature; `.ci/run` installs
//! OpenMPI and runs these with `--features mpi`): the database written by 2 and 3 ranks is
//! one process's, byte for byte, and a job whose rank is killed stops, then the same command
//! resumes it from the ranks' checkpoints to the same database.
#![cfg(feature = "mpi")]

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

const GAMES: &[&[&str]] = &[
    &["quixo", "--size", "3"],
    &["connect-four", "--width", "5", "--height", "4"],
    &["dodgem", "--size", "4"],
    &["mu-torere"],
    &["dobutsu", "--animals", "c"],
];

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_perfect-play")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("perfect-play-mpi-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn solve_args<'a>(game: &[&'a str], db: &'a Path) -> Vec<String> {
    let mut args = vec![String::from("solve")];
    args.extend(game.iter().map(ToString::to_string));
    args.extend(["--db".into(), db.display().to_string(), "--json".into()]);
    args
}

fn mpirun(ranks: u32, game: &[&str], db: &Path) -> Command {
    let mut command = Command::new("mpirun");
    command
        .args(["--allow-run-as-root", "--oversubscribe", "-np"])
        .arg(ranks.to_string())
        .arg(bin())
        .args(solve_args(game, db));
    command
}

fn succeeded(out: &Output, what: &str) -> Value {
    assert!(
        out.status.success(),
        "{what}: {}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    // Rank 0 answers for the job: one JSON object.
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 1, "{what}: {stdout}");
    serde_json::from_str(lines[0]).unwrap()
}

/// One process's database of `game` at `db`, and its answer.
fn one_process(game: &[&str], db: &Path) -> Value {
    let out = Command::new(bin())
        .args(solve_args(game, db))
        .output()
        .unwrap();
    succeeded(&out, "one process")
}

#[test]
fn two_and_three_ranks_write_one_process_database() {
    for game in GAMES {
        let dir = scratch(&game.join("-"));
        let one = dir.join("one.ppdb");
        let expected_answer = one_process(game, &one);
        let expected = std::fs::read(&one).unwrap();
        for ranks in [2, 3] {
            let db = dir.join(format!("np{ranks}.ppdb"));
            let out = mpirun(ranks, game, &db).output().unwrap();
            let answer = succeeded(&out, &format!("{game:?} on {ranks} ranks"));
            assert_eq!(answer["ranks"], ranks, "{game:?}");
            let schedule = &answer["schedule"];
            let handed = schedule["tiers_split"].as_u64().unwrap()
                + schedule["tiers_whole"].as_u64().unwrap();
            assert!(handed >= 1 && schedule["waves"].as_u64().unwrap() >= 1);
            if game[0] == "dodgem" {
                // Tiers by the cars of each side: the ready ones go whole to the ranks.
                assert!(schedule["tiers_whole"].as_u64().unwrap() > 0, "{schedule}");
            }
            if game[0] == "connect-four" {
                // Every move adds a disc: a cut tier needs nothing of the others' slices.
                assert_eq!(schedule["pass_records_shared"], 0, "{schedule}");
            }
            // Connect Four's slices borrow window by window what they reach of the next
            // tier (faster than reading it whole); the other games' child tiers fit whole
            // within the default memory limit: none borrowed.
            let borrowed = schedule["child_records_borrowed"].as_u64().unwrap();
            assert_eq!(borrowed > 0, game[0] == "connect-four", "{schedule}");
            for field in ["outcome", "remoteness", "positions_in_table", "indices"] {
                assert_eq!(answer[field], expected_answer[field], "{game:?}: {field}");
            }
            assert_eq!(answer["database"]["bytes"], expected.len(), "{game:?}");
            assert!(
                std::fs::read(&db).unwrap() == expected,
                "{game:?} on {ranks} ranks: another database"
            );
            for rank in 0..ranks {
                let checkpoint = format!("{}.partial.rank{rank}of{ranks}", db.display());
                assert!(!Path::new(&checkpoint).exists(), "{checkpoint} left behind");
            }
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

/// With a memory limit the child tiers of a cut tier do not fit whole (Dodgem 4 x 4 on 3
/// ranks: 0.89 MB a rank borrowing, more reading them whole), each rank borrows the records
/// its slice reaches instead: the same database.
#[test]
fn ranks_short_of_memory_borrow_the_child_records_their_slices_reach() {
    let game = ["dodgem", "--size", "4"];
    let dir = scratch("borrow");
    let one = dir.join("one.ppdb");
    one_process(&game, &one);
    let expected = std::fs::read(&one).unwrap();
    let db = dir.join("np3.ppdb");
    let out = mpirun(3, &game, &db)
        .args(["--memory-limit", "1M"])
        .output()
        .unwrap();
    let answer = succeeded(&out, "3 ranks borrowing");
    let borrowed = answer["schedule"]["child_records_borrowed"]
        .as_u64()
        .unwrap();
    assert!(borrowed > 0, "{answer}");
    assert!(std::fs::read(&db).unwrap() == expected, "another database");
    // Below what a rank needs even borrowing: refused up front with the figure.
    let refused = dir.join("refused.ppdb");
    let out = mpirun(3, &game, &refused)
        .args(["--memory-limit", "500K"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("add ranks"), "{stderr}");
    assert!(!refused.exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The process of rank `rank` of the job solving into `db`, found by its command line and the
/// rank OpenMPI gives it in its environment.
fn rank_process(db: &Path, rank: usize) -> Option<u32> {
    let wanted_rank = format!("OMPI_COMM_WORLD_RANK={rank}");
    let db = db.display().to_string();
    std::fs::read_dir("/proc")
        .ok()?
        .flatten()
        .find_map(|entry| {
            let pid: u32 = entry.file_name().to_str()?.parse().ok()?;
            let cmdline = std::fs::read(entry.path().join("cmdline")).ok()?;
            let cmdline = String::from_utf8_lossy(&cmdline);
            if !cmdline.contains(&db) || cmdline.starts_with("mpirun") {
                return None;
            }
            let environ = std::fs::read(entry.path().join("environ")).ok()?;
            environ
                .split(|&b| b == 0)
                .any(|var| var == wanted_rank.as_bytes())
                .then_some(pid)
        })
}

/// Start `game` on 3 ranks into a fresh database, kill rank 1 with SIGKILL once `saved`
/// (which names the file to watch, given the database) has passed `least` bytes, check
/// that the job stopped without a database, then run the same command again: one
/// process's database, resumed.
fn killed_and_resumed(name: &str, game: &[&str], saved: impl Fn(&Path) -> PathBuf, least: u64) {
    let dir = scratch(name);
    let one = dir.join("one.ppdb");
    let expected_answer = one_process(game, &one);
    let expected = std::fs::read(&one).unwrap();
    let db = dir.join("np3.ppdb");
    let watched = saved(&db);
    let mut job = mpirun(3, game, &db)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    let mut killed = false;
    while started.elapsed() < Duration::from_secs(120) {
        let len = std::fs::metadata(&watched).map_or(0, |m| m.len());
        if len > least
            && let Some(pid) = rank_process(&db, 1)
        {
            let status = Command::new("kill").args(["-9", &pid.to_string()]).status();
            killed = status.is_ok_and(|s| s.success());
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let status = job.wait().unwrap();
    assert!(
        killed,
        "{name}: rank 1 was not found running after its save"
    );
    assert!(!status.success(), "{name}: the job went on without rank 1");
    assert!(
        !db.exists(),
        "{name}: a database from a job that lost a rank"
    );
    let checkpoint = PathBuf::from(format!("{}.partial.rank1of3", db.display()));
    assert!(checkpoint.exists(), "{name}: rank 1's checkpoint is kept");
    let out = mpirun(3, game, &db).output().unwrap();
    let answer = succeeded(&out, "the rerun");
    assert_eq!(answer["database"]["resumed"], true, "{name}: {answer}");
    assert!(
        answer["database"]["already_solved"].as_u64().unwrap() > 0,
        "{name}"
    );
    assert_eq!(answer["outcome"], expected_answer["outcome"]);
    assert!(
        std::fs::read(&db).unwrap() == expected,
        "{name}: resumed to another database"
    );
    assert!(!checkpoint.exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_killed_rank_stops_the_job_and_the_same_command_resumes_it() {
    // Killed once rank 1 has saved a finished tier: its checkpoint's magic, length and
    // identity come first, a tier after them.
    let game: &[&str] = &["connect-four", "--width", "5", "--height", "4"];
    let identity = "connect-four 5x4 rank 1 of 3";
    let preamble = 8 + identity.len() as u64;
    killed_and_resumed(
        "killed-tiers",
        game,
        |db| PathBuf::from(format!("{}.partial.rank1of3", db.display())),
        preamble,
    );
}

#[test]
fn a_rank_killed_inside_the_only_tier_resumes_from_the_level_every_rank_saved() {
    // Dobutsu shogi with giraffes and chicks is one tier: with a level saved every second,
    // the rerun takes up the slices and side tables of the last level all ranks saved.
    let game: &[&str] = &["dobutsu", "--animals", "gc", "--checkpoint-every", "1"];
    killed_and_resumed(
        "killed-level",
        game,
        |db| PathBuf::from(format!("{}.partial.rank1of3.level", db.display())),
        0,
    );
}
