#!/usr/bin/env python3
"""Time whole `perfect-play coins` runs for random {1, x, y} with x, y <= 10^6 at a pile of
10^18, both rules, and report the median, the slowest runs and the peak memory; then again at
a pile inside the preperiod (half of it) for every run whose preperiod is at least 10^6.

    cargo build --release && python3 scripts/coin-sweep.py --pairs 150 --seed 7

A third of the pairs have x < 64 (words built x piles at a time), a third 64 <= x < 4096
(where preperiods near y^2 / x live), a third x >= 4096; the known hard sets are always
included. Wall time is taken around the process; peak RSS comes from /usr/bin/time.
"""
import argparse
import json
import random
import statistics
import subprocess
import time

HARD = [(4818, 524052), (999983, 1000000), (64, 1000000), (46, 646438), (54, 577516),
        (3, 987512), (8, 908649), (2, 999999), (63, 1000000), (44, 975555),
        # preperiods near y^2 / x, found by examples/coin_hard_sets.rs
        (1544, 495524), (2422, 637315), (3850, 919436), (1624, 949230), (1228, 999213),
        (1558, 990059), (886, 909179), (854, 998824)]


def run(binary, x, y, misere, pile=10**18):
    cmd = ["/usr/bin/time", "-f", "%M", binary, "coins", str(pile), str(x), str(y), "--json"]
    if misere:
        cmd.append("--misere")
    start = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, check=True)
    wall = time.perf_counter() - start
    rss_kib = int(done.stderr.strip().splitlines()[-1])
    answer = json.loads(done.stdout)
    return wall * 1000, rss_kib / 1024, answer


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pairs", type=int, default=150)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--binary", default="target/release/perfect-play")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    pairs = list(HARD)
    for i in range(args.pairs):
        x = (rng.randint(2, 63), rng.randint(64, 4095), rng.randint(4096, 999_999))[i % 3]
        y = rng.randint(max(x + 1, 64), 1_000_000)
        pairs.append((x, y))
    rows = []
    for x, y in pairs:
        for misere in (False, True):
            ms, mib, answer = run(args.binary, x, y, misere)
            period = answer.get("period") or {}
            rows.append((ms, mib, x, y, misere, period.get("preperiod"), period.get("period")))
    # Piles inside the preperiod of every set that has one of at least a million.
    inside = []
    for r in rows:
        if r[5] and r[5] >= 1_000_000:
            pile = r[5] // 2
            ms, mib, _ = run(args.binary, r[2], r[3], r[4], pile)
            inside.append((ms, mib, r[2], r[3], r[4], pile))
    times = sorted(r[0] for r in rows)
    print(f"{len(rows)} runs over {len(pairs)} sets: median {statistics.median(times):.1f} ms, "
          f"slowest {times[-1]:.1f} ms, runs over 50 ms: {sum(t > 50 for t in times)}, "
          f"peak RSS {max(r[1] for r in rows):.1f} MiB")
    print("slowest runs (ms, MiB, x, y, misère, preperiod, period):")
    for r in sorted(rows, reverse=True)[:8]:
        print(f"  {r[0]:6.1f} {r[1]:5.1f} {r[2]:>7} {r[3]:>8} {str(r[4]):5} {r[5]} {r[6]}")
    if inside:
        worst = max(inside)
        print(f"{len(inside)} runs at a pile inside the preperiod (half of it): slowest "
              f"{worst[0]:.1f} ms ({{1, {worst[2]}, {worst[3]}}}, misère {worst[4]}, pile {worst[5]}), "
              f"over 50 ms: {sum(r[0] > 50 for r in inside)}")
    print("largest memory:")
    for r in sorted(rows, key=lambda r: -r[1])[:3]:
        print(f"  {r[0]:6.1f} {r[1]:5.1f} {r[2]:>7} {r[3]:>8} {str(r[4]):5} {r[5]} {r[6]}")


if __name__ == "__main__":
    main()
