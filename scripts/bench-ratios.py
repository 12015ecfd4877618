#!/usr/bin/env python3
"""Print, for every criterion group, each function's mean time and its ratio to `baseline`.

Run after `cargo bench`; reads target/criterion/<group>/<function>/new/estimates.json.
"""
import json
import pathlib
import sys

root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "target/criterion")


def fmt(ns):
    for unit, scale in (("s", 1e9), ("ms", 1e6), ("µs", 1e3)):
        if ns >= scale:
            return f"{ns / scale:.3g} {unit}"
    return f"{ns:.3g} ns"


print("| group | function | mean | baseline / function |")
print("|---|---|---|---|")
for group in sorted(p for p in root.iterdir() if p.is_dir() and p.name != "report"):
    means = {}
    for est in group.glob("*/new/estimates.json"):
        means[est.parent.parent.name] = json.loads(est.read_text())["mean"]["point_estimate"]
    base = means.get("baseline")
    for name, mean in sorted(means.items()):
        ratio = f"{base / mean:.1f}x" if base and name != "baseline" else ""
        print(f"| {group.name} | {name} | {fmt(mean)} | {ratio} |")
