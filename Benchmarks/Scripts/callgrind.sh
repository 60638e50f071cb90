#!/usr/bin/env bash
# Counts the instructions of each workload's run, raw C API against Strata, with callgrind:
# repeatable whatever else the machine is doing. Prints one line per workload.
#   Scripts/callgrind.sh [workload ...]     (default: all six; about 5 minutes)
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --scratch-path .build-bench --product BenchOne > /dev/null
bin=$(find .build-bench -path '*release/BenchOne' -type f | head -1)
out=results/callgrind
mkdir -p "$out"
workloads=("$@")
[ ${#workloads[@]} -eq 0 ] && workloads=(fetchItems insertItems insertEvents fetchEvents lookup namedQuery)
count() {  # inclusive instructions of the runner's run(_:) in a callgrind file
    callgrind_annotate --inclusive=yes "$1" 2>/dev/null | grep -E 'Runner(C|CAA0D0A2aDP)3run.*Workload' \
        | grep -v compiler-generated | head -1 | awk '{gsub(",", "", $1); print $1}'
}
printf '| workload | raw C instructions | Strata instructions | Strata / raw C |\n|:--|--:|--:|--:|\n'
for workload in "${workloads[@]}"; do
    for impl in raw strata; do
        valgrind --tool=callgrind --callgrind-out-file="$out/$workload-$impl.out" "$bin" "$workload" "$impl" 1 > "$out/$workload-$impl.log" 2>&1 &
    done
    wait
    raw=$(count "$out/$workload-raw.out")
    strata=$(count "$out/$workload-strata.out")
    python3 -c "print('| $workload | {:,} | {:,} | {:.3f} |'.format($raw, $strata, $strata / $raw))"
done
