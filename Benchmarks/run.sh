#!/usr/bin/env bash
# Runs every benchmark of docs/Benchmarks.md once and writes its tables to results/report.md,
# and (full run) into docs/Benchmarks.md between its marker lines (Scripts/write_docs.py), so
# the page's Results section is this one run: regenerating the page is this one command. About
# an hour on an idle 2-core machine after the first builds (which take 20–40 minutes more:
# the Benchmarks package, the Observation package, the strata tool in release and debug).
# Results go to Benchmarks/results/ (ignored by git); every figure of the report comes from this one run.
#   Benchmarks/run.sh            everything; rewrites the Results section of docs/Benchmarks.md
#   Benchmarks/run.sh --runtime  only the runtime workloads (the ordo-one/benchmark harness); the page is not written
#   Benchmarks/run.sh --skip-probe  everything but the build cost and plugin probe (which build packages)
#   Benchmarks/run.sh --quick    everything at tiny sizes, debug builds, BenchOne instead of the
#                                harness, no plugin probe, no build cost, callgrind on every
#                                workload, the planner at 20 and 60 tables: a check that the whole
#                                pipeline works (CI runs it), not figures; the page is not written
#   Benchmarks/run.sh --build-cost [REF]  only the first hour's build cost (Scripts/build_cost.sh:
#                                the README's first command and a user package's builds in a fresh
#                                clone at REF, default HEAD, and the plugin probe); writes
#                                results/build-cost-<commit>/report.md. The full run does it too
#                                (at HEAD: commit first), unless --skip-probe.
# Needs python3 (timings: Scripts/timeit.py); valgrind for the instruction counts (skipped with a note when missing).
set -euo pipefail
cd "$(dirname "$0")"

command_line="Benchmarks/run.sh${*:+ $*}"
started=$(date +%s)
quick=0
runtime_only=0
probe=1
build_cost_only=0
build_cost_ref=HEAD
while [ $# -gt 0 ]; do
    case "$1" in
        --quick) quick=1 ;;
        --runtime) runtime_only=1 ;;
        --skip-probe) probe=0 ;;
        --build-cost)
            build_cost_only=1
            if [ $# -gt 1 ] && [ "${2#--}" = "$2" ]; then build_cost_ref=$2; shift; fi ;;
        *) echo "usage: run.sh [--quick] [--runtime] [--skip-probe] [--build-cost [REF]]" >&2; exit 2 ;;
    esac
    shift
done

machine_lines() {
    echo "date:    $(date -u '+%Y-%m-%d %H:%M UTC')"
    echo "nproc:   $(nproc)"
    echo "cpu:     $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
    echo "memory:  $(free -g | awk '/Mem:/ {print $2 " GiB"}')"
    echo "swift:   $(swift --version 2>/dev/null | head -1)"
    echo "kernel:  $(uname -sr)"
}

if [ "$build_cost_only" = 1 ]; then
    out=results/build-cost-$(git rev-parse --short "$build_cost_ref")
    mkdir -p "$out"
    rm -f "$out"/*.json "$out"/*.md "$out"/*.txt "$out"/*.log
    machine_lines > "$out/machine.txt"
    echo "== build cost at $build_cost_ref" >&2
    Scripts/build_cost.sh "$out" "$build_cost_ref"
    {
        echo "### The first hour: build cost in a fresh clone (warm package cache)"
        echo
        python3 Scripts/buildcost.py report "$out/build-cost.json"
        echo
        python3 Scripts/report.py --plugin-only "$out"
        echo
        echo '```'
        cat "$out/machine.txt"
        echo '```'
    } > "$out/report.md"
    cat "$out/report.md"
    exit 0
fi

scratch=.build-bench
if [ "$quick" = 1 ]; then
    export STRATA_BENCH_QUICK=1
    config=debug
    out=results/quick
    tables=(3 30)      # generate: tiny schemas
    runs_small=2
    runs_big=1
    huge=0
    cursor_runs=1
else
    config=release
    out=results
    # generate: 300, 2,000 and 10,000 tables. 10,000 tables take tens of seconds per run
    # (SQLite's own cost of creating tables grows with the tables already created; see
    # docs/Benchmarks.md, "The generator at scale"), so that size runs once with each tool.
    tables=(300 2000 10000)
    runs_small=10
    runs_big=3
    huge=10000
    cursor_runs=3
fi
mkdir -p "$out"
rm -f "$out"/*.json "$out"/*.md "$out"/*.txt

{
    echo "date:    $(date -u '+%Y-%m-%d %H:%M UTC')"
    echo "mode:    $([ "$quick" = 1 ] && echo 'quick (tiny sizes, debug build: not figures)' || echo 'full (release build)')"
    echo "nproc:   $(nproc)"
    echo "cpu:     $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
    echo "memory:  $(free -g | awk '/Mem:/ {print $2 " GiB"}')"
    echo "swift:   $(swift --version 2>/dev/null | head -1)"
    echo "sqlite:  $(pkg-config --modversion sqlite3 2>/dev/null || echo unknown) (system libsqlite3)"
    echo "kernel:  $(uname -sr)"
    echo "command: $command_line"
    echo "commit:  $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- .. ':!results' 2>/dev/null || echo ' with uncommitted changes')"
    echo "load before the run: $(cut -d' ' -f1-3 /proc/loadavg)"
} > "$out/machine.txt"

echo "== building the benchmarks ($config)" >&2
swift build -c "$config" --scratch-path "$scratch" > "$out/build.log" 2>&1 || { cat "$out/build.log" >&2; exit 1; }
bin=$(swift build -c "$config" --scratch-path "$scratch" --show-bin-path)
"$bin/BenchOne" --sizes > "$out/sizes.txt"

# 1. Runtime workloads through the ordo-one/benchmark harness: p0, p50, mallocs.
#    Quick mode runs every workload and contender through BenchOne instead (3 runs each, no
#    malloc counts): ordo-one/benchmark 1.38.1 crashes on debug builds under Swift 6.3 on Linux
#    without its RuntimeInterposer trait, whose package (swift-runtime-interposer) is not among
#    the packages this project can use; the harness target is still built above.
if [ "$quick" = 1 ]; then
    echo "== runtime workloads (BenchOne, quick)" >&2
    for workload in $(cut -d' ' -f1 "$out/sizes.txt"); do
        for impl in raw rawRollback strata grdbBest grdbCodable; do
            "$bin/BenchOne" "$workload" "$impl" 3 >> "$out/bench-one.txt"
        done
    done
else
    echo "== runtime workloads (ordo-one/benchmark harness)" >&2
    swift package --scratch-path "$scratch" benchmark --benchmark-build-configuration "$config" \
        --format markdown --no-progress > "$out/benchmark.md" 2> "$out/benchmark.log" \
        || { tail -50 "$out/benchmark.log" >&2; exit 1; }
    grep -q '^### ' "$out/benchmark.md" || { echo "the harness wrote no results" >&2; exit 1; }
fi
echo "load after the runtime benchmarks: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/machine.txt"

# 2. The cursor over many rows, one process per contender: wall time and peak memory.
echo "== cursor: peak memory" >&2
for impl in raw strata grdbBest grdbCodable; do
    "$bin/BenchOne" cursorItems "$impl" "$cursor_runs" >> "$out/cursor.txt"
done

if [ "$runtime_only" = 0 ]; then
    # 3. The generator, release build (the tool of `swift build -c release`) and debug build (the
    #    tool a debug build's plugin runs), on generated schemas with their migrations.
    echo "== generate" >&2
    #    Quick mode builds and times the debug tool only.
    kinds=(release debug)
    [ "$quick" = 1 ] && kinds=(debug)
    for kind in "${kinds[@]}"; do
        swift build -c "$kind" --scratch-path "$scratch" --product strata >> "$out/build.log" 2>&1 \
            || { tail -30 "$out/build.log" >&2; exit 1; }
    done
    debug_tool="$(swift build -c debug --scratch-path "$scratch" --show-bin-path)/strata"
    release_tool=$debug_tool
    [ "$quick" = 0 ] && release_tool="$(swift build -c release --scratch-path "$scratch" --show-bin-path)/strata"
    for n in "${tables[@]}"; do
        dir="$out/big-$n"
        python3 Scripts/make_schema.py "$dir" "$n" "$release_tool"
        if [ "$n" = "${tables[0]}" ]; then runs=$runs_small warm=1; else runs=$runs_big warm=0; fi
        kinds_n=("${kinds[@]}")
        if [ "$n" = "$huge" ]; then runs=1; fi
        for kind in "${kinds_n[@]}"; do
            tool=$release_tool
            [ "$kind" = debug ] && tool=$debug_tool
            python3 Scripts/timeit.py "$out/generate.json" "strata generate, $n tables, $kind tool" "$runs" "$warm" \
                "rm -f $dir/Big.swift" "$tool generate $dir/Big.schema.yml --output-file $dir/Big.swift" >&2
            [ -s "$dir/Big.swift" ] || { echo "generate wrote nothing for $n tables" >&2; exit 1; }
        done
        echo "$n tables: $(wc -l < "$dir/Big.schema.yml") lines of YAML, $(wc -l < "$dir/Big.swift") lines of Swift" >> "$out/generate-sizes.txt"
    done
    # 3b. The planner: `strata migration new` at 1,000, 5,000 and 10,000 tables, a first
    #     migration and a change after it (Scripts/planner.py; CPU of the tool's process).
    echo "== planner" >&2
    if [ "$quick" = 1 ]; then
        python3 Scripts/planner.py "$out/planner.json" "$debug_tool" "$out" 20 60
    else
        python3 Scripts/planner.py "$out/planner.json" "$release_tool" "$out" 1000 5000 10000
    fi
    # 4. The first hour's build cost in a fresh clone at HEAD (the README's first command, a user
    #    package's cold build) and what the plugin adds to a no-change build (the plugin probe,
    #    on that clone): minutes, so not in quick mode.
    if [ "$quick" = 0 ] && [ "$probe" = 1 ]; then
        echo "== build cost and plugin probe" >&2
        Scripts/build_cost.sh "$out" HEAD
    fi
    # 5. Instructions, raw C against Strata, for every runtime workload (valgrind's callgrind:
    #    the same count under any load, so these are the figures of record). Quick mode counts
    #    every workload too, at its tiny sizes in the debug build: a check that each one is
    #    counted, not figures.
    if command -v valgrind > /dev/null; then
        echo "== callgrind" >&2
        if [ "$quick" = 1 ]; then
            Scripts/callgrind.sh --config debug --out "$out" > "$out/callgrind.md"
        else
            Scripts/callgrind.sh --out "$out" > "$out/callgrind.md"
            echo "load after callgrind: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/machine.txt"
        fi
    else
        echo "valgrind is missing: no instruction counts (apt-get install -y valgrind)" | tee "$out/callgrind.md" >&2
    fi
    # 6. The typed-query benchmark (Scripts/typed_query.sh): a join where SQLite does nearly
    #    all the work, and 100,000 small typed queries where the libraries' layers matter;
    #    wall clock and instructions of each library's whole read.
    if command -v valgrind > /dev/null; then
        echo "== typed queries" >&2
        if [ "$quick" = 1 ]; then
            Scripts/typed_query.sh --config debug 2 > "$out/typed-query.txt"
        else
            Scripts/typed_query.sh 10 > "$out/typed-query.txt"
        fi
    fi
    # 7. What observers cost a write: a 50,000-row insert with 0, 1 and 100 observers,
    #    instructions under callgrind, Strata and GRDB (Observation/callgrind.sh, its own
    #    package and release build). Not in quick mode: the numbers need the release build.
    if [ "$quick" = 0 ] && command -v valgrind > /dev/null; then
        echo "== observation" >&2
        Observation/callgrind.sh --grdb --out "$PWD/$out/observation-callgrind" > "$out/observation.md"
    fi
    echo "load at the end: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/machine.txt"
fi
echo "duration: $(( ($(date +%s) - started + 30) / 60 )) minutes" >> "$out/machine.txt"

python3 Scripts/report.py "$out" > "$out/report.md"
cat "$out/report.md"
# A full run is the page's Results section.
if [ "$quick" = 0 ] && [ "$runtime_only" = 0 ]; then
    python3 Scripts/write_docs.py "$out/report.md" ../docs/Benchmarks.md
fi
