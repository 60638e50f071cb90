#!/usr/bin/env python3
"""Prints the tables of docs/Benchmarks.md from one run's results folder (see run.sh):
benchmark.md (the harness's markdown output), generate.json and plugin.json (hyperfine),
machine.txt."""
import json
import os
import re
import sys

folder = sys.argv[1]
WORKLOADS = [
    ("fetchItems", "1. fetch 200,000 rows × 10 ints"),
    ("insertItems", "2. insert 50,000 rows × 10 ints, one transaction"),
    ("insertEvents", "3a. insert 50,000 realistic records, one transaction"),
    ("fetchEvents", "3b. fetch the 50,000 realistic records"),
    ("lookup", "4. 100,000 point lookups by primary key"),
    ("namedQuery", "5. named query on an index, 10,000 calls"),
]
ROWS = {"fetchItems": 200_000, "insertItems": 50_000, "insertEvents": 50_000, "fetchEvents": 50_000,
        "lookup": 100_000, "namedQuery": 10_000}
IMPLS = ["raw", "strata", "grdbOptimized", "grdbCodable"]
TIME_UNITS = {"ns": 1e-6, "μs": 1e-3, "us": 1e-3, "ms": 1.0, "s": 1000.0}
SCALE = {"": 1, "K": 1e3, "M": 1e6, "G": 1e9}


def parse_harness(path):
    """{(workload, impl): {"ms": median wall clock, "min": fastest run, "mallocs": median malloc count}}"""
    results = {}
    current = None
    for line in open(path, encoding="utf-8"):
        heading = re.match(r"^### (\S+) (\S+)\s*$", line)
        if heading:
            current = (heading.group(1), heading.group(2))
            results[current] = {}
            continue
        if current is None or not line.startswith("|"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 4:
            continue
        name = cells[0].rstrip(" *")
        try:
            value = float(cells[3].replace(",", ""))
            p0 = float(cells[1].replace(",", ""))
        except ValueError:
            continue
        time = re.match(r"Time \(wall clock\) \((\w+|μs)\)", name)
        malloc = re.match(r"Malloc \(total\)(?: \((\w)\))?", name)
        if time:
            results[current]["ms"] = value * TIME_UNITS[time.group(1)]
            results[current]["min"] = p0 * TIME_UNITS[time.group(1)]
        elif malloc:
            results[current]["mallocs"] = value * SCALE[malloc.group(1) or ""]
    return results


def fmt_ms(value):
    return f"{value:,.1f}" if value >= 10 else f"{value:,.2f}"


results = parse_harness(os.path.join(folder, "benchmark.md"))
print("### Runtime: medians (ms) and ratios\n")
print("| workload | raw C | Strata | GRDB optimized | GRDB Codable | **Strata / raw C** | GRDB optimized / Strata | **GRDB Codable / Strata** |")
print("|:--|--:|--:|--:|--:|--:|--:|--:|")
for key, title in WORKLOADS:
    row = {impl: results.get((key, impl), {}).get("ms") for impl in IMPLS}
    if None in row.values():
        print(f"| {title} | missing: {[i for i, v in row.items() if v is None]} |")
        continue
    print(f"| {title} | {fmt_ms(row['raw'])} | {fmt_ms(row['strata'])} | {fmt_ms(row['grdbOptimized'])} | {fmt_ms(row['grdbCodable'])} "
          f"| **{row['strata'] / row['raw']:.2f}×** | {row['grdbOptimized'] / row['strata']:.2f}× | **{row['grdbCodable'] / row['strata']:.2f}×** |")

print("\n### The same run's fastest iterations (p0, ms): less sensitive to other work on a shared machine\n")
print("| workload | raw C | Strata | GRDB optimized | GRDB Codable | Strata / raw C | GRDB Codable / Strata |")
print("|:--|--:|--:|--:|--:|--:|--:|")
for key, title in WORKLOADS:
    row = {impl: results.get((key, impl), {}).get("min") for impl in IMPLS}
    if None in row.values():
        continue
    print(f"| {title} | {fmt_ms(row['raw'])} | {fmt_ms(row['strata'])} | {fmt_ms(row['grdbOptimized'])} | {fmt_ms(row['grdbCodable'])} "
          f"| {row['strata'] / row['raw']:.2f}× | {row['grdbCodable'] / row['strata']:.2f}× |")

callgrind = os.path.join(folder, "callgrind.md")
if os.path.exists(callgrind):
    print("\n### Instructions (callgrind, one run of each workload; repeatable under load)\n")
    print(open(callgrind).read().strip())

print("\n### Allocations per row (or per call): median mallocs of one run ÷ rows\n")
print("| workload | rows | raw C | Strata | GRDB optimized | GRDB Codable |")
print("|:--|--:|--:|--:|--:|--:|")
for key, title in WORKLOADS:
    cells = []
    for impl in IMPLS:
        mallocs = results.get((key, impl), {}).get("mallocs")
        cells.append("?" if mallocs is None else f"{mallocs / ROWS[key]:.2f}")
    print(f"| {title} | {ROWS[key]:,} | " + " | ".join(cells) + " |")

print("\n### Compiler and plugin (hyperfine medians)\n")
print("| what | median | mean ± σ | user CPU |")
print("|:--|--:|--:|--:|")
for name in ["generate.json", "plugin.json"]:
    path = os.path.join(folder, name)
    if not os.path.exists(path):
        continue
    for result in json.load(open(path))["results"]:
        print(f"| {result['command'] if name == 'plugin.json' else 'strata generate, 300-table schema'} | {result['median']:.3f} s "
              f"| {result['mean']:.3f} ± {result['stddev']:.3f} s | {result['user']:.3f} s |")
plugin = os.path.join(folder, "plugin.json")
if os.path.exists(plugin):
    runs = {r["command"]: r for r in json.load(open(plugin))["results"]}
    w, wo = runs.get("no-change build, with plugin"), runs.get("no-change build, without plugin")
    if w and wo:
        print(f"| **added by the plugin** | **{w['median'] - wo['median']:+.3f} s** | | {w['user'] - wo['user']:+.3f} s |")

machine = os.path.join(folder, "machine.txt")
if os.path.exists(machine):
    print("\n### Machine\n\n```")
    print(open(machine).read().strip())
    print("```")
