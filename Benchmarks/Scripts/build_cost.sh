#!/usr/bin/env bash
# The first hour's build cost (issue 29), in a fresh clone of this repository with SwiftPM's
# package cache as the machine has it (warm after any earlier build: nothing is downloaded):
#   1. the README's first command, `swift run strata generate schemas/Library.schema.yml
#      --output .build/generated`, in the clone;
#   2. `swift build` of a user package that depends on the clone by path and compiles a schema
#      through the build plugin (its own fresh .build);
#   3. `swift package strata check` in that package (the command plugin, its tool already built);
#   4. no-change rebuilds of that package with and without the plugin (Scripts/plugin_probe.sh:
#      what the plugin adds to an everyday build).
# 1-3 go to build-cost.json (Scripts/buildcost.py: wall, CPU, build steps, compiled targets),
# 4 to plugin.json. Usage: build_cost.sh <results folder> [<git ref>, default HEAD]
set -euo pipefail
out=$(cd "$1" && pwd)
ref=${2:-HEAD}
bench=$(cd "$(dirname "$0")/.." && pwd)
repo=$(cd "$bench/.." && pwd)
work="$out/build-cost"
rm -rf "$work" "$out/build-cost.json" "$out"/build-cost-*.log
mkdir -p "$work"
commit=$(git -C "$repo" rev-parse "$ref")
# Named strata, so the path dependency's identity is the README's `package: "strata"`.
git clone -q --no-checkout "$repo" "$work/strata"
git -C "$work/strata" checkout -q "$commit"
echo "build cost: commit $(git -C "$repo" log -1 --format='%h %s' "$commit" | cut -c1-100)" >> "$out/machine.txt"
echo "build cost: load before: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/machine.txt"

clone="$work/strata"
python3 "$bench/Scripts/buildcost.py" run "$out/build-cost.json" "README's first command: swift run strata generate …" "$clone/.build" \
    "cd $clone && swift run strata generate schemas/Library.schema.yml --output .build/generated"
[ -s "$clone/.build/generated/Library.swift" ] || { echo "the README's first command wrote no Library.swift" >&2; exit 1; }

# The user package: plugin_probe.sh's package with the plugin, on the clone.
probe="$out/plugin-probe"
"$bench/Scripts/plugin_probe.sh" "$out" "$clone" --setup-only
python3 "$bench/Scripts/buildcost.py" run "$out/build-cost.json" "swift build of a user package with the plugin (cold)" "$probe/with/.build" \
    "cd $probe/with && swift build"
grep -q StrataCommandPlugin "$clone/Package.swift" && python3 "$bench/Scripts/buildcost.py" run "$out/build-cost.json" "then swift package strata check (the command plugin)" "$probe/with/.build" \
    "cd $probe/with && swift package strata check Sources/Probe/Bench.schema.yml"
"$bench/Scripts/plugin_probe.sh" "$out" "$clone" --time-only
echo "build cost: load after: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/machine.txt"
