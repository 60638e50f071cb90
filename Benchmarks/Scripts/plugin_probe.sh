#!/usr/bin/env bash
# Times what the StrataPlugin adds to a no-change `swift build` (debug, the everyday build):
# two small packages on the same Strata checkout, one compiling Bench.schema.yml through the
# plugin, one holding the same generated Swift file as a plain source. Each is built once, then
# Scripts/timeit.py times further no-change builds.
# Usage: plugin_probe.sh <results folder> [<Strata checkout>, default this one] [--setup-only | --time-only]
# (Scripts/build_cost.sh writes the packages with --setup-only, times their first build itself,
# then runs the rest with --time-only.)
set -euo pipefail
out=$(cd "$1" && pwd)
bench=$(cd "$(dirname "$0")/.." && pwd)
repo=$(cd "${2:-$bench/..}" && pwd)
phase=${3:-all}
identity=$(basename "$repo" | tr '[:upper:]' '[:lower:]')
probe="$out/plugin-probe"
if [ "$phase" != --time-only ]; then
rm -rf "$probe"
for kind in with without; do
    dir="$probe/$kind"
    mkdir -p "$dir/Sources/Probe"
    if [ "$kind" = with ]; then
        plugins=", plugins: [.plugin(name: \"StrataPlugin\", package: \"$identity\")]"
        cp "$bench/Sources/BenchKit/Bench.schema.yml" "$dir/Sources/Probe/"
        cp -r "$bench/Sources/BenchKit/Bench.migrations" "$dir/Sources/Probe/"
    else
        plugins=""
    fi
    cat > "$dir/Package.swift" <<SWIFT
// swift-tools-version: 6.1
import PackageDescription
let package = Package(
    name: "Probe",
    dependencies: [.package(path: "$repo")],
    targets: [
        .executableTarget(name: "Probe", dependencies: [.product(name: "Strata", package: "$identity")]$plugins),
    ]
)
SWIFT
    echo 'print(Bench.version, ItemDAO.selectSQL)' > "$dir/Sources/Probe/main.swift"
done
fi
[ "$phase" = --setup-only ] && exit 0
# The plugin's output of the first package becomes a plain source of the second.
(cd "$probe/with" && swift build > "$out/plugin-probe-with-first.log" 2>&1)
generated=$(find "$probe/with/.build/plugins/outputs" -name "Bench*.swift" | head -1)
[ -n "$generated" ] || { echo "the plugin wrote no Bench*.swift under $probe/with/.build/plugins/outputs" >&2; exit 1; }
cp "$generated" "$probe/without/Sources/Probe/Bench.swift"
(cd "$probe/without" && swift build > "$out/plugin-probe-without-first.log" 2>&1)
rm -f "$out/plugin.json"
python3 "$bench/Scripts/timeit.py" "$out/plugin.json" "no-change build, with plugin" 10 2 "" "cd $probe/with && swift build"
python3 "$bench/Scripts/timeit.py" "$out/plugin.json" "no-change build, without plugin" 10 2 "" "cd $probe/without && swift build"
