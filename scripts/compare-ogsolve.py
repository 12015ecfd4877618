#!/usr/bin/env python3
"""Race perfect-play's octal engine against ogsolve (rc2) on the same computations.

ogsolve is a separate GPL program, installed with `cargo install ogsolve`; it is never a
dependency of this project. Both programs compute every value to N (`--full` here); the script
checks that they print the same values, then reports wall times and the ratio.

Usage: python3 scripts/compare-ogsolve.py [--repeat K]
"""
import json
import re
import subprocess
import sys
import time

CASES = [("0.77", 100_000), ("0.07", 100_000), ("0.16", 600_000), ("0.6", 200_000), ("0.14", 200_000)]
OURS = "target/release/perfect-play"
repeat = int(sys.argv[sys.argv.index("--repeat") + 1]) if "--repeat" in sys.argv else 3


def timed(cmd):
    best, out = None, None
    for _ in range(repeat):
        start = time.perf_counter()
        out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
        elapsed = time.perf_counter() - start
        best = elapsed if best is None else min(best, elapsed)
    return best, out


print("| game | N | ogsolve rc2 | perfect-play --full | ogsolve / ours | same values |")
print("|---|---|---|---|---|---|")
for code, n in CASES:
    t_peer, _ = timed(["ogsolve", "-m", "rc2", "-n", str(n), code])
    t_ours, _ = timed([OURS, "octal", code, "--upto", str(n), "--full", "--json"])
    # Values once more from each, printed in full, for the comparison.
    peer = subprocess.run(["ogsolve", "-m", "rc2", "-n", str(n), "-p", code], capture_output=True, text=True).stdout
    peer_values = [int(v) for v in re.search(r"nimbers:([0-9 ]+)", peer).group(1).split()]
    ours = json.loads(subprocess.run([OURS, "octal", code, "--upto", str(n), "--full", "--values", "--json"],
                                     capture_output=True, text=True, check=True).stdout)["values"]
    same = "yes" if peer_values == ours else f"NO ({len(peer_values)} vs {len(ours)} values)"
    print(f"| {code} | {n:,} | {t_peer:.3f} s | {t_ours:.3f} s | {t_peer / t_ours:.2f}x | {same} |")
