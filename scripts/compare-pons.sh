#!/usr/bin/env bash
# Side by side with Pascal Pons' Connect Four solver (github.com/PascalPons/connect4, AGPL:
# never copied here). Build it outside this repository (`make` in a snapshot of it) and give
# its directory (both cores ours: the lines side by side, as `connect-four --batch` does):
#
#   scripts/compare-pons.sh /path/to/connect4 [positions-file]
#
# Positions: one line of columns played each (default: the 200 of the reference file).
# Prints, for each side, the whole-process wall time of: the positions' scores (his main
# program, ours the search example on both cores), every move's score (his -a, ours the
# connect-four --batch command, which also finds a best line), and the position 4453.
# No opening book on either side.
set -euo pipefail
pons_dir=${1:?usage: scripts/compare-pons.sh PONS_DIR [POSITIONS]}
root="$(cd "$(dirname "$0")/.." && pwd)"
reference="$root/crates/perfect-play/tests/reference/connect_four_7x6_dev.txt"
positions=$(mktemp)
if [ -n "${2:-}" ]; then cp "$2" "$positions"; else grep -v '^#' "$reference" | awk '{print $1}' > "$positions"; fi
(cd "$root" && cargo build --release --bin perfect-play -q &&
  cargo build --release -p perfect-play --features examples --example connect_four_search -q)
ours_cli="$root/target/release/perfect-play"
ours_scores="$root/target/release/examples/connect_four_search"
theirs="$pons_dir/c4solver"
wall() { local start=$(date +%s.%N); "$@" > /dev/null 2>&1; echo "$(date +%s.%N) - $start" | bc; }
echo "positions: $(wc -l < "$positions") lines of $(basename "${2:-$reference}")"
echo "scores:       theirs $(wall sh -c "'$theirs' -b none < '$positions'") s, ours $(wall sh -c "'$ours_scores' --threads 2 --table-mib 64 --lines-in-parallel < '$positions'") s (one line at a time: $(wall sh -c "'$ours_scores' --threads 2 --table-mib 64 < '$positions'") s)"
echo "every move:   theirs $(wall sh -c "'$theirs' -b none -a < '$positions'") s, ours $(wall sh -c "'$ours_cli' connect-four --batch --json < '$positions'") s"
echo "4453:         theirs $(wall sh -c "echo 4453 | '$theirs' -b none") s, ours $(wall "$ours_cli" connect-four 4453 --json) s"
rm -f "$positions"
