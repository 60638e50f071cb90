#!/usr/bin/env bash
# Builds the DocC documentation of the Strata runtime with warnings as errors (a broken symbol
# link fails), then fails when a public symbol has no doc comment.
#   scripts/docs.sh                 # build into .build/docs/Strata.doccarchive
#   scripts/docs.sh --preview       # serve it on http://localhost:8080/documentation/strata
set -euo pipefail
cd "$(dirname "$0")/.."
out=.build/docs
if [ "${1:-}" = "--preview" ]; then
    exec swift package --disable-sandbox preview-documentation --target Strata
fi
mkdir -p "$out"
swift package --allow-writing-to-directory "$out" generate-documentation \
    --target Strata --output-path "$out/Strata.doccarchive" --warnings-as-errors
graphs=$(find .build -path '*extracted-symbols*' -name 'Strata.symbols.json' -newer Package.swift -print -quit 2>/dev/null || true)
[ -n "$graphs" ] || graphs=$(find .build -path '*extracted-symbols*' -name 'Strata.symbols.json' -print -quit)
python3 scripts/doc-coverage.py "$(dirname "$graphs")" Strata
echo "docs: .build/docs/Strata.doccarchive"
