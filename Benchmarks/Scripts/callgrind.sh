#!/usr/bin/env bash
# Counts the instructions of each workload's run with callgrind, raw C against Strata and GRDB
# at its best: repeatable whatever else the machine is doing. Prints a markdown table.
#   Scripts/callgrind.sh [--config release|debug] [--out folder] [workload ...]
#   (default: release, results/, every workload; about 10 minutes)
set -euo pipefail
cd "$(dirname "$0")/.."
config=release
out=results
while [ $# -gt 0 ]; do
    case "$1" in
        --config) config=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        *) break ;;
    esac
done
swift build -c "$config" --scratch-path .build-bench --product BenchOne > /dev/null
bin="$(swift build -c "$config" --scratch-path .build-bench --show-bin-path)/BenchOne"
dir="$out/callgrind"
mkdir -p "$dir"
workloads=("$@")
# Every workload BenchOne knows, in its order.
[ ${#workloads[@]} -eq 0 ] && mapfile -t workloads < <("$bin" --sizes | cut -d' ' -f1)
count() {  # inclusive instructions of the runner's run(_:) in a callgrind file
    local n
    n=$(callgrind_annotate --threshold=100 --inclusive=yes "$1" 2>/dev/null | grep -E 'Runner(C|CAA0D0A2aDP)3run.*Workload' \
        | grep -v compiler-generated | head -1 | awk '{gsub(",", "", $1); print $1}')
    [ -n "$n" ] || { echo "callgrind.sh: no run(_:) in $1" >&2; exit 1; }
    echo "$n"
}
printf '| workload | raw C instructions | Strata instructions | **Strata / raw C** | per row or call | GRDB best / raw C | load (1 min) |\n|:--|--:|--:|--:|--:|--:|--:|\n'
for workload in "${workloads[@]}"; do
    rows=$("$bin" --sizes | awk -v w="$workload" '$1 == w {print $2}')
    for impl in raw strata grdbBest; do
        valgrind --tool=callgrind --callgrind-out-file="$dir/$workload-$impl.out" "$bin" "$workload" "$impl" 1 > "$dir/$workload-$impl.log" 2>&1 &
    done
    wait
    raw=$(count "$dir/$workload-raw.out")
    strata=$(count "$dir/$workload-strata.out")
    grdb=$(count "$dir/$workload-grdbBest.out")
    load=$(cut -d' ' -f1 /proc/loadavg)
    python3 -c "print('| $workload | {:,} | {:,} | **{:.3f}** | {:+,.0f} | {:.3f} | $load |'.format($raw, $strata, $strata / $raw, ($strata - $raw) / $rows, $grdb / $raw))"
done
