#!/usr/bin/env python3
"""Times a shell command over repeated runs, like a small hyperfine, and adds its result to a
JSON file in hyperfine's shape ({"results": [{"command", "median", "mean", "stddev", "min",
"max", "user", "system", "times"}]}), seconds throughout.

    timeit.py OUT.json NAME RUNS WARMUP PREPARE COMMAND

PREPARE runs before every run (warm-ups included) and is not timed ("" for none). A command
that fails stops everything with its exit code: a benchmark of a failing command is no figure.
"""
import json
import os
import resource
import statistics
import subprocess
import sys
import time

out, name, runs, warmup, prepare, command = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5], sys.argv[6]


def run(cmd):
    result = subprocess.run(cmd, shell=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if result.returncode != 0:
        sys.stderr.write(f"timeit.py: '{cmd}' failed with exit code {result.returncode}\n{result.stderr}")
        sys.exit(result.returncode or 1)


times, users, systems = [], [], []
for index in range(warmup + runs):
    if prepare:
        run(prepare)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    run(command)
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if index >= warmup:
        times.append(elapsed)
        users.append(after.ru_utime - before.ru_utime)
        systems.append(after.ru_stime - before.ru_stime)

document = {"results": []}
if os.path.exists(out):
    with open(out, encoding="utf-8") as f:
        document = json.load(f)
document["results"].append({
    "command": name,
    "median": statistics.median(times),
    "mean": statistics.fmean(times),
    "stddev": statistics.stdev(times) if len(times) > 1 else 0.0,
    "min": min(times),
    "max": max(times),
    "user": statistics.fmean(users),
    "system": statistics.fmean(systems),
    "times": times,
})
with open(out, "w", encoding="utf-8") as f:
    json.dump(document, f, indent=2)
print(f"{name}: median {statistics.median(times):.3f} s, min {min(times):.3f} s over {runs} runs")
