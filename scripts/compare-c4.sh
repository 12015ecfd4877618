#!/usr/bin/env bash
# Side by side with Christophe Steininger's Connect Four solver (github.com/ChristopheSteininger/c4,
# AGPL: never copied here). Give a snapshot of it outside this repository; this script builds it
# there with its own CMake preset (2 threads, its default table of 1 GB), plus a small driver of
# ours that reads positions from stdin and prints each one's strong score with one solver (one
# table) for the whole batch, as its tests do:
#
#   scripts/compare-c4.sh /path/to/c4-snapshot [SET ...]
#
# SETs are its test files under tst/data/7x6/ (default: opening_L1 midgame_L1 endgame_L1). For
# each set, and for the empty board (--empty), both sides run alternately, whole processes, and
# the wall times are printed: theirs (strong scores), ours the search example's scores (one
# line at a time, both threads, a 1000 MiB table), and ours every column's value
# (`connect-four --batch --no-book`). Its positions are columns 0-based; ours are 1-based
# (the conversion: add one to each digit; 7 x 6 has columns 0-6, so every column is a digit).
# Needs cmake (>= 3.21) and ninja: `pip install cmake ninja` in a virtual environment will do.
set -euo pipefail
c4_dir=${1:?usage: scripts/compare-c4.sh C4_DIR [SET ...] [--empty]}
shift
root="$(cd "$(dirname "$0")/.." && pwd)"
sets=()
empty=0
for a in "$@"; do
  if [ "$a" = "--empty" ]; then empty=1; else sets+=("$a"); fi
done
[ ${#sets[@]} -gt 0 ] || [ $empty = 1 ] || sets=(opening_L1 midgame_L1 endgame_L1)
# Its test program needs <algorithm> in tst/known_states.cpp with GCC 12; the driver does not
# use it, but the preset builds every target.
grep -q '<algorithm>' "$c4_dir/tst/known_states.cpp" || sed -i '1i #include <algorithm>' "$c4_dir/tst/known_states.cpp"
sed -i 's/NUM_THREADS = 0;/NUM_THREADS = 2;/' "$c4_dir/src/solver/settings.h"
cat > "$c4_dir/src/batch_driver.cpp" <<'CPP'
// Written for perfect-play's comparison script: one strong score a line of stdin.
#include <iostream>
#include <string>
#include "solver/position.h"
#include "solver/solver.h"
int main() {
    Solver solver{};
    std::string line;
    while (std::getline(std::cin, line)) {
        Position pos{};
        for (char c : line) {
            if (c >= '0' && c <= '9') pos.move(c - '0');
        }
        std::cout << line << ' ' << solver.solve_strong(pos) << '\n';
    }
}
CPP
grep -q batch_driver "$c4_dir/CMakeLists.txt" || cat >> "$c4_dir/CMakeLists.txt" <<'CMAKE'
add_executable(batch_driver "${CMAKE_SOURCE_DIR}/src/batch_driver.cpp")
target_link_libraries(batch_driver PRIVATE solver)
CMAKE
(cd "$c4_dir" && cmake --preset optimise > /dev/null && cmake --build --preset optimise > /dev/null)
theirs="$c4_dir/out/optimise/batch_driver"
(cd "$root" && cargo build --release --bin perfect-play -q &&
  cargo build --release -p perfect-play --features examples --example connect_four_search -q)
ours_cli="$root/target/release/perfect-play"
ours_scores="$root/target/release/examples/connect_four_search"
wall() { local start=$(date +%s.%N); "$@" > /dev/null 2>&1; echo "$(date +%s.%N) - $start" | bc; }
run_set() {
  local name=$1 zero=$2 one=$3
  # --batch skips empty lines: the empty board is asked on the command line.
  local every="'$ours_cli' connect-four --batch --json --no-book --memory-limit 1G --threads 2 < '$one'"
  [ -s "$one" ] && [ "$(tr -d '\n' < "$one")" != "" ] || every="'$ours_cli' connect-four --json --no-book --memory-limit 1G --threads 2"
  echo "$name ($(wc -l < "$zero") positions):"
  for round in 1 2; do
    echo "  round $round: theirs $(wall sh -c "'$theirs' < '$zero'") s, ours (scores) $(wall sh -c "'$ours_scores' --threads 2 --table-mib 1000 < '$one'") s, ours (every column) $(wall sh -c "$every") s"
  done
}
tmp=$(mktemp -d)
for set in "${sets[@]}"; do
  awk '{print $1}' "$c4_dir/tst/data/7x6/$set.txt" > "$tmp/zero"
  awk '{s=""; for (i = 1; i <= length($1); i++) s = s (substr($1, i, 1) + 1); print s}' "$c4_dir/tst/data/7x6/$set.txt" > "$tmp/one"
  run_set "$set" "$tmp/zero" "$tmp/one"
done
if [ $empty = 1 ]; then
  echo "" > "$tmp/zero"; echo "" > "$tmp/one"
  run_set "the empty board" "$tmp/zero" "$tmp/one"
fi
rm -rf "$tmp"
