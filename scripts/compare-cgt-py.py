#!/usr/bin/env python3
"""Empty Domineering rectangles valued side by side: perfect-play's partizan values against
cgt-py (the Python face of the Rust cgt-tools crate), alternating runs on this machine.

cgt-py is a peer, never a dependency: install it in a virtual environment of its own,
    python3 -m venv /tmp/cgtvenv && /tmp/cgtvenv/bin/pip install cgt-py anywidget
then
    cargo build --release -p perfect-play --features examples --example domineering_value
    python3 scripts/compare-cgt-py.py --python /tmp/cgtvenv/bin/python 4x4 4x6 5x5 5x6

Each run is a whole process timed by /usr/bin/time (wall seconds and peak memory); both must
give the same value, compared by value (cgt-py's text read by perfect-play's notation, in a
run of its own that is not timed).
"""
import argparse
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
OURS = os.path.join(ROOT, "target", "release", "examples", "domineering_value")

PEER = r'''
import sys, cgt_py
rows, cols = int(sys.argv[1]), int(sys.argv[2])
print(cgt_py.Domineering("|".join(["." * cols] * rows)).canonical_form)
'''


def timed(command):
    """Run `command` under /usr/bin/time: (stdout, wall seconds, peak KB)."""
    run = subprocess.run(
        ["/usr/bin/time", "-f", "%e %M"] + command,
        capture_output=True,
        text=True,
        check=True,
    )
    seconds, kb = run.stderr.strip().splitlines()[-1].split()
    return run.stdout, float(seconds), int(kb)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--python", required=True, help="the Python with cgt-py installed")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("boards", nargs="+", help="ROWSxCOLUMNS")
    args = parser.parse_args()
    print("| board | perfect-play | cgt-py | ratio |")
    print("|---|---|---|---|")
    for board in args.boards:
        rows, cols = board.split("x")
        for _ in range(args.repeat):
            ours, ours_s, ours_kb = timed([OURS, rows, cols])
            peer, peer_s, peer_kb = timed([args.python, "-c", PEER, rows, cols])
            peer_value = peer.strip().removeprefix("CanonicalForm('").removesuffix("')")
            check = subprocess.run(
                [OURS, rows, cols, peer_value], capture_output=True, text=True, check=True
            ).stdout
            if "equal: true" not in check:
                sys.exit(f"{board}: the values differ: {ours.splitlines()[0]} / {peer_value}")
            note = " same value"
            print(
                f"| {rows} x {cols} | {ours_s:.2f} s, {ours_kb // 1024} MB "
                f"| {peer_s:.2f} s, {peer_kb // 1024} MB | {peer_s / max(ours_s, 0.01):.1f}x |{note}"
            )
            sys.stdout.flush()


if __name__ == "__main__":
    main()
