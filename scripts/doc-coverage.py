#!/usr/bin/env python3
"""Fails when a public symbol declared in this package's sources has no doc comment.

Usage: doc-coverage.py <symbol-graph-directory> <Module>
Reads <Module>*.symbols.json (written by `swift package generate-documentation`) and lists every
public or open symbol whose declaration is in a file under Sources/ and that has no `///`
comment. Extensions themselves are skipped (their members are checked); synthesized members
(Equatable's !=, Hashable's hashValue, …) have no source location and are skipped too.
"""
import glob
import json
import os
import sys


def main() -> int:
    directory, module = sys.argv[1], sys.argv[2]
    files = glob.glob(os.path.join(directory, f"{module}.symbols.json")) + glob.glob(
        os.path.join(directory, f"{module}@*.symbols.json"))
    if not files:
        print(f"doc-coverage: no symbol graph for {module} in {directory}", file=sys.stderr)
        return 2
    checked, missing = 0, []
    for path in files:
        with open(path, encoding="utf-8") as handle:
            graph = json.load(handle)
        for symbol in graph["symbols"]:
            if symbol.get("accessLevel") not in ("public", "open"):
                continue
            if symbol["kind"]["identifier"] == "swift.extension":
                continue
            location = symbol.get("location", {})
            uri = location.get("uri", "")
            if "/Sources/" not in uri and "/Examples/" not in uri and "/plugins/outputs/" not in uri:
                continue
            # Members a public type inherits from a dependency's protocol extension (postgres-nio's
            # `decode` and swift-async-algorithms' `flatMapLatest` on every AsyncSequence) are
            # documented, or not, there.
            if "/checkouts/" in uri:
                continue
            checked += 1
            if not symbol.get("docComment"):
                line = location.get("position", {}).get("line", 0) + 1
                name = ".".join(symbol["pathComponents"])
                shown = uri.split("/Sources/")[-1] if "/Sources/" in uri else uri.rsplit("/", 1)[-1]
                missing.append(f"{shown}:{line}: error: public symbol '{name}' has no doc comment")
    for line in sorted(set(missing)):
        print(line)
    print(f"doc-coverage: {module}: {checked} public symbols, {len(set(missing))} undocumented")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
