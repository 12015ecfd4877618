"""query() from Python against the same registry call in Rust
(`cargo run --release -p perfect-play --features examples --example query_timing`):
microseconds a call, past the first (the best of five rounds of 1,000), for `_native.query` (the dict built in Rust) and the
package's `query` (its parameters turned to text first). BENCHMARKS.md records the output.

    python examples/python/query_bench.py
"""

import time

import perfect_play
from perfect_play import _native

CASES = [("nim", "3 4 5"), ("coins", "10 3 4"), ("can-i-win", "20 158"), ("octal", "0.77 30 40")]


def each(call, calls=1000, rounds=5):
    """Microseconds a call: the best of `rounds` rounds (other work only slows)."""
    call()
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        for _ in range(calls):
            call()
        best = min(best, (time.perf_counter() - start) / calls * 1e6)
    return best


for game, position in CASES:
    native = each(lambda: _native.query(game, position, [], None))
    package = each(lambda: perfect_play.query(game, position))
    print(f"{game} {position}: _native.query {native:.1f} us, query() {package:.1f} us")
