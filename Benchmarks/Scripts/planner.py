#!/usr/bin/env python3
"""Times `strata migration new` (the planner) on make_schema.py's schemas of each size, and adds
the results to a JSON file: CPU seconds (user + system of the tool's process, from wait4) and
wall clock, per size, for two cases:

- "first": the first migration of the schema (no migration yet: the plan creates every table);
- "change": a second migration after that first one, for a change of the schema (a column added
  to the first table, one table added): the existing migration is replayed, then the plan checked.

    planner.py OUT.json STRATA_TOOL FOLDER SIZE [SIZE ...]

Each size runs once per case (10,000 tables take tens of seconds). Fails when the tool fails or
writes no migration, or when the second migration is not the small change it should be.
"""
import json
import os
import shutil
import subprocess
import sys
import time

if len(sys.argv) < 5:
    sys.exit("usage: planner.py OUT.json STRATA_TOOL FOLDER SIZE [SIZE ...]")
out, tool, folder = sys.argv[1], sys.argv[2], sys.argv[3]
sizes = [int(s) for s in sys.argv[4:]]
here = os.path.dirname(os.path.abspath(__file__))


def timed(args):
    """Runs args; returns (wall seconds, user + system CPU seconds, peak resident MB)."""
    start = time.perf_counter()
    process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    stderr = process.stderr.read().decode(errors="replace")
    process.stderr.close()
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        sys.exit(f"planner.py: {' '.join(args)} failed with exit code {code}\n{stderr}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def changed(schema_text, n):
    """The schema with a nullable column added to Table0 and a table added after the last."""
    marker = "      kind:      { type: enum, values: [small, medium, large], default: small }\n"
    position = schema_text.index(marker) + len(marker)
    text = schema_text[:position] + "      extra:     text?\n" + schema_text[position:]
    return text + "\n".join([
        f"  Table{n}:",
        f"    table: table_{n}",
        "    columns:",
        "      id:   { type: int, primaryKey: autoincrement }",
        "      name: text",
        f"      parentId: {{ type: int?, references: Table{n - 1}.id, onDelete: setNull }}",
        "    indexes:",
        "      - columns: [name]",
    ]) + "\n"


document = {"results": []}
if os.path.exists(out):
    with open(out, encoding="utf-8") as f:
        document = json.load(f)
for n in sizes:
    dir = os.path.join(folder, f"planner-{n}")
    shutil.rmtree(dir, ignore_errors=True)
    subprocess.run([sys.executable, os.path.join(here, "make_schema.py"), dir, str(n), tool], check=True)
    schema = os.path.join(dir, "Big.schema.yml")
    migrations = os.path.join(dir, "Big.migrations")
    # The first migration, timed (make_schema.py wrote one already: the same command, untimed).
    shutil.rmtree(migrations)
    first = timed([tool, "migration", "new", schema, "--name", "initial"])
    if not os.path.exists(os.path.join(migrations, "0001_initial.sql")):
        sys.exit(f"planner.py: no first migration for {n} tables")
    # A change after it.
    with open(schema, encoding="utf-8") as f:
        text = f.read()
    with open(schema, "w", encoding="utf-8") as f:
        f.write(changed(text, n))
    change = timed([tool, "migration", "new", schema, "--name", "change"])
    second = os.path.join(migrations, "0002_change.sql")
    if not os.path.exists(second):
        sys.exit(f"planner.py: no second migration for {n} tables")
    sql = open(second, encoding="utf-8").read()
    if sql.count("CREATE TABLE") != 1 or "ADD COLUMN" not in sql:
        sys.exit(f"planner.py: the second migration of {n} tables is not the change:\n{sql[:2000]}")
    for case, (wall, cpu, rss) in (("first", first), ("change", change)):
        document["results"].append({"tool": tool, "tables": n, "case": case, "wall": wall, "cpu": cpu, "peak_mb": rss})
        print(f"migration new, {n} tables, {case}: {cpu:.2f} s CPU ({cpu / n * 1000:.3f} ms a table), {wall:.2f} s wall, {rss:.0f} MB",
              file=sys.stderr)
    shutil.rmtree(dir, ignore_errors=True)
with open(out, "w", encoding="utf-8") as f:
    json.dump(document, f, indent=2)
