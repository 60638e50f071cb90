#!/usr/bin/env bash
# The typed-query benchmark of issue 11: wall clock of the three implementations in one run,
# then the instructions of one call of each under callgrind (counted only inside the measured
# function, so building the 200,000-row database and opening it do not count).
#   Benchmarks/Scripts/typed_query.sh [runs]
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-20}"
swift build -c release --product TypedQueryBench >/dev/null
bin="$(swift build -c release --show-bin-path)/TypedQueryBench"
db="${TMPDIR:-/tmp}/strata-typed-query.sqlite"
"$bin" "$runs" "$db"
if command -v valgrind >/dev/null; then
    for impl in raw strata grdb; do
        case "$impl" in raw) fn=rawRun ;; strata) fn=strataRun ;; grdb) fn=grdbRun ;; esac
        out="$(mktemp)"
        valgrind --tool=callgrind --callgrind-out-file="$out" --collect-atstart=no "--toggle-collect=*${fn}*" \
            "$bin" 1 "$db" "$impl" >/dev/null 2>&1
        echo "$impl: $(grep -m1 '^summary:' "$out" | awk '{print $2}') instructions in one call"
        rm -f "$out"
    done
fi
