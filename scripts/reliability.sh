#!/usr/bin/env bash
# The long reliability run of docs/Reliability.md: 50 SIGKILLs of `strata migrate` on 200,000
# rows, 100,000 fuzzed schema inputs, a 30-second concurrency stress, an I/O fault at every
# point of a migration and of a DAO transaction, racing `strata migrate`s, the fault tests, 3,000
# random schema evolutions, 100,000 steps of the combination test.
# Each suite runs on its own (so timings are not disturbed by the others) and is bounded by
# `timeout`; the figures are printed at the end and kept in $STRATA_FIGURES_FILE.
#
#   scripts/reliability.sh                      # everything, about 10 minutes on 2 cores + the combination test (~5 min CPU)
#   STRATA_KILL_TRIALS=100 scripts/reliability.sh CrashSafetyTests
#
# Sizes can be overridden: STRATA_KILL_ROWS, STRATA_KILL_TRIALS, STRATA_FUZZ_INPUTS,
# STRATA_FUZZ_LARGEST, STRATA_STRESS_SECONDS, STRATA_NAME_TRIALS, STRATA_FAULT_ROWS,
# STRATA_MIGRATE_RACE_ROWS, STRATA_EVOLUTION_TRIALS, STRATA_EVOLUTION_SEED, STRATA_COMPOSE_STEPS,
# STRATA_COMPOSE_SEED.
set -euo pipefail
cd "$(dirname "$0")/.."
scratch="${STRATA_SCRATCH_PATH:-.build-reliability}"
export STRATA_LONG_TESTS=1
export STRATA_FIGURES_FILE="${STRATA_FIGURES_FILE:-$PWD/$scratch/reliability-figures.txt}"
mkdir -p "$(dirname "$STRATA_FIGURES_FILE")"
rm -f "$STRATA_FIGURES_FILE"
suites=("$@")
if [ ${#suites[@]} -eq 0 ]; then
    suites=(CrashSafetyTests DiskFullTests IOFaultTests ConcurrentMigrateTests ConcurrencyStressTests InjectionTests SchemaFuzzTests SchemaEvolutionTests CompositionTests)
fi
swift build --build-tests --scratch-path "$scratch"
status=0
for suite in "${suites[@]}"; do
    echo "== $suite"
    timeout 30m swift test --skip-build --scratch-path "$scratch" --filter "StrataReliabilityTests.$suite" || status=1
done
echo "== figures ($STRATA_FIGURES_FILE)"
cat "$STRATA_FIGURES_FILE"
exit $status
