#!/usr/bin/env bash
# Counts the instructions of one 50,000-row insert transaction with 0, 1 and 100 observers of
# 100 other tables ("unrelated") and of the written table ("written"), under callgrind: the
# inclusive instructions of `measuredStrataInsert` (or `measuredGRDBInsert`), the writer's whole
# call (statements, COMMIT, the notification of the observers); the observers' own refetches run
# on other threads and are not counted. Repeatable whatever else the machine does. Prints a
# markdown table and the load average.
#   Benchmarks/Observation/callgrind.sh [--grdb] [--out folder]   (default out: .build-bench/callgrind)
#   Benchmarks/Observation/callgrind.sh --commits [--out folder]: instead, 1,000 one-row writes
#   (`measuredStrataCommits`) on a writer holding 0 or 500 prepared statements, with 0, 1 and
#   100 observers of other tables: what a commit costs observation with a large statement cache.
set -euo pipefail
cd "$(dirname "$0")"
libraries=(strata)
out=.build-bench/callgrind
commits=
while [ $# -gt 0 ]; do
    case "$1" in
        --grdb) libraries=(strata grdb); shift ;;
        --commits) commits=1; shift ;;
        --out) out=$2; shift 2 ;;
        *) echo "usage: callgrind.sh [--grdb | --commits] [--out folder]" >&2; exit 2 ;;
    esac
done
command -v valgrind > /dev/null || { echo "callgrind.sh: valgrind is not installed" >&2; exit 1; }
swift build -c release --scratch-path .build-bench > /dev/null
bin="$(swift build -c release --scratch-path .build-bench --show-bin-path)/ObservationBench"
mkdir -p "$out"
count() {  # inclusive instructions of the measured insert in a callgrind file
    local n
    n=$(callgrind_annotate --inclusive=yes "$2" 2>/dev/null | grep -E "$1" | head -1 | awk '{gsub(",", "", $1); print $1}')
    [ -n "$n" ] || { echo "callgrind.sh: no $1 in $2" >&2; exit 1; }
    echo "$n"
}
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
if [ -n "$commits" ]; then
    echo "| cached statements | observers | instructions (1,000 commits) | per commit | × no observer |"
    echo "|--:|--:|--:|--:|--:|"
    for cached in 0 500; do
        base=
        for observers in 0 1 100; do
            file="$out/commits-$cached-$observers.out"
            valgrind --tool=callgrind --callgrind-out-file="$file" "$bin" commits "$observers" "$cached" > "$file.log" 2>&1
            n=$(count measuredStrataCommits "$file")
            [ -z "$base" ] && base=$n
            python3 -c "print('| $cached | $observers | {:,} | {:,.0f} | {:.4f} |'.format($n, $n / 1000, $n / $base))"
        done
    done
    echo
    echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
    exit 0
fi
echo "| library | observers | instructions | × none |"
echo "|:--|:--|--:|--:|"
for library in "${libraries[@]}"; do
    symbol=measuredStrataInsert
    [ "$library" = grdb ] && symbol=measuredGRDBInsert
    base=
    for item in "unrelated 0" "unrelated 1" "unrelated 100" "written 1" "written 100"; do
        set -- $item
        file="$out/$library-$1-$2.out"
        valgrind --tool=callgrind --callgrind-out-file="$file" "$bin" insert "$1" "$2" "$library" > "$file.log" 2>&1
        n=$(count "$symbol" "$file")
        [ -z "$base" ] && base=$n
        case "$1 $2" in
            "unrelated 0") label="no observer" ;;
            "unrelated 1") label="1 observer of another table" ;;
            "unrelated 100") label="100 observers of 100 other tables" ;;
            "written 1") label="1 observer of the written table" ;;
            *) label="$2 observers of the written table" ;;
        esac
        python3 -c "print('| $library | $label | {:,} | {:.4f} |'.format($n, $n / $base))"
    done
done
echo
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
