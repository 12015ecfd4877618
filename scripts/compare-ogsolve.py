#!/usr/bin/env python3
"""Race perfect-play's octal engine against ogsolve (rc2) on the same computations.

ogsolve is a separate GPL program, installed with `cargo install ogsolve`; it is never a
dependency of this project. Both programs compute every value to N (`--full` here); the script
checks that they print the same values, then reports wall times and the ratio.

Usage:
  python3 scripts/compare-ogsolve.py [--repeat K]
      the headline cases, best of K whole-process runs each, values compared afterwards;
  python3 scripts/compare-ogsolve.py --unsolved [--upto N] [--timeout S]
      every game listed as unsolved in ../shared/reference/octal_periods_tczajka_solved_unsolved.txt
      (Grundy's game aside: it is not an octal code), one run each to N, both programs printing
      every value; a program that takes longer than S seconds is stopped and the row says so.
"""
import json
import re
import subprocess
import sys
import time

CASES = [("0.77", 100_000), ("0.07", 100_000), ("0.16", 600_000), ("0.6", 200_000), ("0.14", 200_000),
         ("0.6", 1_000_000)]
OURS = "target/release/perfect-play"
UNSOLVED = "../shared/reference/octal_periods_tczajka_solved_unsolved.txt"


def option(name, default):
    return type(default)(sys.argv[sys.argv.index(name) + 1]) if name in sys.argv else default


def timed(cmd, repeat=1, timeout=None):
    """Best wall time of `repeat` runs and the last run's output; None on a timeout."""
    best, out = None, None
    for _ in range(repeat):
        start = time.perf_counter()
        try:
            out = subprocess.run(cmd, capture_output=True, text=True, check=True, timeout=timeout).stdout
        except subprocess.TimeoutExpired:
            return None, None
        elapsed = time.perf_counter() - start
        best = elapsed if best is None else min(best, elapsed)
    return best, out


def peer_values(out):
    return [int(v) for v in re.search(r"nimbers:([0-9 ]+)", out).group(1).split()]


def headline():
    repeat = option("--repeat", 3)
    print("| game | N | ogsolve rc2 | perfect-play --full | ogsolve / ours | same values |")
    print("|---|---|---|---|---|---|")
    for code, n in CASES:
        t_peer, _ = timed(["ogsolve", "-m", "rc2", "-n", str(n), code], repeat)
        t_ours, _ = timed([OURS, "octal", code, "--upto", str(n), "--full", "--json"], repeat)
        # Values once more from each, printed in full, for the comparison.
        peer = subprocess.run(["ogsolve", "-m", "rc2", "-n", str(n), "-p", code], capture_output=True,
                              text=True).stdout
        ours = json.loads(subprocess.run([OURS, "octal", code, "--upto", str(n), "--full", "--values", "--json"],
                                         capture_output=True, text=True, check=True).stdout)["values"]
        theirs = peer_values(peer)
        same = "yes" if theirs == ours else f"NO ({len(theirs)} vs {len(ours)} values)"
        print(f"| {code} | {n:,} | {t_peer:.3f} s | {t_ours:.3f} s | {t_peer / t_ours:.2f}x | {same} |", flush=True)


def unsolved_codes():
    codes = []
    in_unsolved = False
    for line in open(UNSOLVED):
        if line.startswith("# Unsolved"):
            in_unsolved = True
            continue
        if not in_unsolved:
            continue
        if line.startswith("#"):
            continue
        if "|" in line:
            name = line.split("|")[0].strip()
            if name.startswith("."):
                codes.append("0" + name)
        else:
            codes += [c if not c.startswith(".") else "0" + c for c in line.split()]
    return codes


def unsolved():
    n = option("--upto", 100_000)
    timeout = option("--timeout", 120.0)
    codes = unsolved_codes()
    print(f"{len(codes)} games to heap {n:,}, one run each, both printing every value")
    print("| game | ogsolve rc2 | perfect-play --full | ogsolve / ours | same values |")
    print("|---|---|---|---|---|")
    total = [0.0, 0.0]
    for code in codes:
        t_peer, peer = timed(["ogsolve", "-m", "rc2", "-n", str(n), "-p", code], timeout=timeout)
        t_ours, ours = timed([OURS, "octal", code, "--upto", str(n), "--full", "--values", "--json"],
                             timeout=timeout)
        if t_peer is None or t_ours is None:
            peer_text = f"{t_peer:.3f} s" if t_peer else f"> {timeout:.0f} s"
            ours_text = f"{t_ours:.3f} s" if t_ours else f"> {timeout:.0f} s"
            print(f"| {code} | {peer_text} | {ours_text} | - | - |", flush=True)
            continue
        theirs = peer_values(peer)
        mine = json.loads(ours)["values"]
        same = "yes" if theirs == mine else f"NO ({len(theirs)} vs {len(mine)} values)"
        total[0] += t_peer
        total[1] += t_ours
        print(f"| {code} | {t_peer:.3f} s | {t_ours:.3f} s | {t_peer / t_ours:.2f}x | {same} |", flush=True)
    print(f"| all compared | {total[0]:.1f} s | {total[1]:.1f} s | {total[0] / total[1]:.2f}x | |")


if __name__ == "__main__":
    if "--unsolved" in sys.argv:
        unsolved()
    else:
        headline()
