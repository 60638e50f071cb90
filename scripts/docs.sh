#!/usr/bin/env bash
# Builds the DocC documentation with warnings as errors (a broken symbol link fails) and fails
# when a public symbol has no doc comment:
#   - the Strata runtime (Sources/Strata, catalog Sources/Strata/Strata.docc);
#   - the PostgreSQL runtime StrataPostgres (Sources/StrataPostgres);
#   - the example target LibraryDemo, whose public symbols are the code the build plugin
#     generates from schemas/Library.schema.yml: records, DAOs, queries as users see them.
# Usage:
#   scripts/docs.sh              # build both into .build/docs/*.doccarchive
#   scripts/docs.sh --preview    # serve the runtime's on http://localhost:8080/documentation/strata
set -euo pipefail
cd "$(dirname "$0")/.."
out=.build/docs
if [ "${1:-}" = "--preview" ]; then
    exec swift package --disable-sandbox preview-documentation --target Strata
fi
mkdir -p "$out"
for target in Strata StrataPostgres LibraryDemo; do
    rm -rf "$out/$target.doccarchive"
    swift package --allow-writing-to-directory "$out" generate-documentation \
        --target "$target" --output-path "$out/$target.doccarchive" --warnings-as-errors
    graph=$(find .build -path '*extracted-symbols*' -name "$target.symbols.json" -print -quit)
    [ -n "$graph" ] || { echo "docs: no symbol graph for $target"; exit 1; }
    python3 scripts/doc-coverage.py "$(dirname "$graph")" "$target"
done
echo "docs: $out/Strata.doccarchive, $out/StrataPostgres.doccarchive, $out/LibraryDemo.doccarchive"
