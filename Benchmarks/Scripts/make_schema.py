#!/usr/bin/env python3
"""Writes a schema of N tables (default 300) for timing the generator: Big.schema.yml in the
given folder, and its migrations, Big.migrations/0001_initial.sql, written by the strata tool
given as third argument (`strata migration new`), so that `strata generate` finds the schema
and its migrations in agreement. Each table has eight columns of the common types, a foreign
key to the table before it, an index and two named queries.

    make_schema.py <folder> <tables> <strata tool>
"""
import os
import shutil
import subprocess
import sys

if len(sys.argv) != 4:
    sys.exit("usage: make_schema.py <folder> <tables> <strata tool>")
folder = sys.argv[1]
count = int(sys.argv[2])
tool = sys.argv[3]
lines = ["database: Big", "options:", "  strict: true", "", "tables:"]
for i in range(count):
    lines += [
        f"  Table{i}:",
        f"    table: table_{i}",
        f"    doc: Table number {i}.",
        "    columns:",
        "      id:        { type: int, primaryKey: autoincrement }",
        "      name:      text",
        "      note:      text?",
        "      amount:    { type: double, default: 0 }",
        "      active:    { type: bool, default: true }",
        "      createdAt: { type: date, default: now }",
        "      token:     uuid",
        "      kind:      { type: enum, values: [small, medium, large], default: small }",
    ]
    if i > 0:
        lines.append(f"      parentId:  {{ type: int?, references: Table{i - 1}.id, onDelete: setNull }}")
    lines += [
        "    indexes:",
        "      - columns: [name]",
        "    queries:",
        "      byName: { where: \"name = :name\", returns: one }",
        "      activeSince: { where: \"active = :active AND createdAt >= :since\", orderBy: createdAt, limit: 100 }",
    ]
os.makedirs(folder, exist_ok=True)
schema = os.path.join(folder, "Big.schema.yml")
with open(schema, "w") as f:
    f.write("\n".join(lines) + "\n")
shutil.rmtree(os.path.join(folder, "Big.migrations"), ignore_errors=True)
subprocess.run([tool, "migration", "new", schema, "--name", "initial"], check=True, stdout=subprocess.DEVNULL)
if not os.path.exists(os.path.join(folder, "Big.migrations", "0001_initial.sql")):
    sys.exit(f"make_schema.py: {tool} wrote no Big.migrations/0001_initial.sql")
