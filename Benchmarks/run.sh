#!/usr/bin/env bash
# Runs every benchmark of docs/Benchmarks.md once and prints its tables (about 10 minutes on
# 2 cores after the first build, which takes 5 more). Results go to Benchmarks/results/ (ignored by git).
#   Benchmarks/run.sh            everything
#   Benchmarks/run.sh --runtime  only the runtime workloads (the ordo-one/benchmark harness)
# Needs hyperfine for the compiler and plugin timings: apt-get install -y hyperfine
set -euo pipefail
cd "$(dirname "$0")"
out=results
mkdir -p "$out"

{
    echo "date:    $(date -u '+%Y-%m-%d %H:%M UTC')"
    echo "nproc:   $(nproc)"
    echo "cpu:     $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
    echo "memory:  $(free -g | awk '/Mem:/ {print $2 " GiB"}')"
    echo "swift:   $(swift --version 2>/dev/null | head -1)"
    echo "sqlite:  $(pkg-config --modversion sqlite3 2>/dev/null || echo unknown) (system libsqlite3)"
    echo "kernel:  $(uname -sr)"
    echo "load before the run: $(cut -d' ' -f1-3 /proc/loadavg)"
} > "$out/machine.txt"

# 1. Runtime workloads, release build, through the ordo-one/benchmark harness.
swift package --scratch-path .build-bench benchmark --format markdown --no-progress > "$out/benchmark.md"
echo "load after the runtime benchmarks: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/machine.txt"

if [ "${1:-}" != "--runtime" ]; then
    command -v hyperfine > /dev/null || { echo "hyperfine is missing: apt-get install -y hyperfine" >&2; exit 1; }
    # 2. The generator on a 300-table schema (release build of the tool the plugin runs).
    swift build -c release --scratch-path .build-bench --product BenchOne > /dev/null
    tool=$(find .build-bench -path '*release/StrataPluginTool-tool' -type f | head -1)
    python3 Scripts/make_schema.py "$out/big" 300
    hyperfine --warmup 1 --runs 10 --export-json "$out/generate.json" \
        --prepare "rm -f $out/big/Big.swift" \
        -n "strata generate, 300 tables" "$tool generate $out/big/Big.schema.yml --output-file $out/big/Big.swift"
    # 3. What the plugin adds to a no-change build.
    Scripts/plugin_probe.sh "$out"
    # 4. Instructions, raw C against Strata (valgrind's callgrind: the same count under any load).
    if command -v valgrind > /dev/null; then Scripts/callgrind.sh > "$out/callgrind.md"; fi
    echo "load at the end: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/machine.txt"
fi

python3 Scripts/report.py "$out" | tee "$out/report.md"
