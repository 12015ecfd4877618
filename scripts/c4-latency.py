#!/usr/bin/env python3
"""Whole-process latency of `perfect-play connect-four` on random 7 x 6 positions, ply by ply.

For each ply in the range, draws N positions by random legal play from the empty board (games
that end before are drawn again), answers each with a fresh process (every column's value, the
default; the shipped opening book read first unless --no-book is passed through), and prints
the 50th and 99th percentiles and the largest wall time of each ply. A position that takes more
than --timeout seconds is stopped and counted at the timeout (marked with >).

    python3 scripts/c4-latency.py --per-ply 100 --plies 0-41 [--seed 1] [--timeout 60] [-- extra args]

Issue 48's target: the 99th percentile of every ply at most 1 s on this 2-core machine.
"""
import argparse
import pathlib
import random
import subprocess
import time

WIDTH, HEIGHT = 7, 6


def four(cells, column, row, who):
    for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
        run = 1
        for sign in (1, -1):
            k = 1
            while cells.get((column + sign * k * dc, row + sign * k * dr)) == who:
                run += 1
                k += 1
        if run >= 4:
            return True
    return False


def random_position(plies, rng):
    """Columns (1-based) of a random game of `plies` discs in which nobody has won yet."""
    while True:
        heights = [0] * WIDTH
        cells = {}
        moves = []
        for ply in range(plies):
            column = rng.choice([c for c in range(WIDTH) if heights[c] < HEIGHT])
            cells[(column, heights[column])] = ply % 2
            heights[column] += 1
            moves.append(column + 1)
            if four(cells, column, heights[column] - 1, ply % 2):
                break
        else:
            return "".join(map(str, moves))


def percentile(sorted_values, p):
    index = min(len(sorted_values) - 1, max(0, int(round(p / 100 * len(sorted_values) + 0.5)) - 1))
    return sorted_values[index]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--per-ply", type=int, default=100)
    parser.add_argument("--plies", default="0-41")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--binary", default=str(pathlib.Path(__file__).resolve().parent.parent / "target/release/perfect-play"))
    parser.add_argument("extra", nargs="*", help="more arguments for connect-four (after --)")
    args = parser.parse_args()
    first, _, last = args.plies.partition("-")
    plies = range(int(first), int(last or first) + 1)
    rng = random.Random(args.seed)
    print(f"{'ply':>3} {'n':>4} {'p50 s':>7} {'p99 s':>7} {'max s':>7}  slowest")
    for ply in plies:
        times = []
        slowest = ("", 0.0)
        for _ in range(args.per_ply):
            moves = random_position(ply, rng)
            start = time.monotonic()
            try:
                subprocess.run([args.binary, "connect-four", moves, "--json", *args.extra],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               timeout=args.timeout, check=True)
                seconds = time.monotonic() - start
            except subprocess.TimeoutExpired:
                seconds = args.timeout
            times.append(seconds)
            if seconds >= slowest[1]:
                slowest = (moves, seconds)
        times.sort()
        mark = ">" if times[-1] >= args.timeout else " "
        print(f"{ply:>3} {len(times):>4} {percentile(times, 50):>7.3f} {percentile(times, 99):>7.3f} {mark}{times[-1]:>6.3f}  {slowest[0] or '(empty)'}", flush=True)


if __name__ == "__main__":
    main()
