#!/usr/bin/env bash
# The typed-query benchmark (issue 11, Sources/TypedQueryBench): wall clock of the three
# implementations of each workload in one run, then the instructions of one call of each under
# callgrind. A call is one function (strataJoin, rawJoin, grdbJoin, strataLookups …) that does
# the whole read, its transaction included, and the count is that function's inclusive cost
# (callgrind_annotate --inclusive): building the 200,000-row database, opening it and
# preparing the raw C lookup statement are outside it.
#   join:    one join + aggregate over 200,000 rows (SQLite's own work is nearly all of it)
#   lookups: 100,000 calls of a typed query by key (the libraries' cost per call matters)
#   Benchmarks/Scripts/typed_query.sh [--config release|debug] [runs]
# (STRATA_BENCH_QUICK=1: 2,000 sales and 1,000 lookups, as run.sh --quick runs it.)
set -euo pipefail
cd "$(dirname "$0")/.."
config=release
if [ "${1:-}" = --config ]; then config=$2; shift 2; fi
runs="${1:-20}"
scratch=.build-bench
swift build -c "$config" --scratch-path "$scratch" --product TypedQueryBench >/dev/null
bin="$(swift build -c "$config" --scratch-path "$scratch" --show-bin-path)/TypedQueryBench"
db="${TMPDIR:-/tmp}/strata-typed-query${STRATA_BENCH_QUICK:+-quick}.sqlite"
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
"$bin" "$runs" "$db"
if command -v valgrind >/dev/null; then
    for workload in join lookups; do
        Workload="$(tr '[:lower:]' '[:upper:]' <<< "${workload:0:1}")${workload:1}"
        raw=
        for impl in raw strata grdb; do
            out="$(mktemp)"
            valgrind --tool=callgrind --callgrind-out-file="$out" "$bin" 1 "$db" "$impl" "$workload" >/dev/null 2>&1
            # The function's own line (mangled: TypedQueryBench<n><impl><Workload>…); its closures
            # are callees, so the largest inclusive count is the function's.
            n=$(callgrind_annotate --threshold=100 --inclusive=yes "$out" 2>/dev/null | grep -E "TypedQueryBench[0-9]+${impl}${Workload}" \
                | head -1 | awk '{gsub(",", "", $1); print $1}')
            rm -f "$out"
            [ -n "$n" ] || { echo "typed_query.sh: no ${impl}${Workload} in the callgrind output" >&2; exit 1; }
            [ "$impl" = raw ] && raw=$n
            python3 -c "print('$workload, $impl: {:,} instructions in one call ({:.3f}× raw C)'.format($n, $n / $raw))"
        done
    done
    echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
fi
