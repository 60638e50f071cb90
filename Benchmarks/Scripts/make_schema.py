#!/usr/bin/env python3
"""Writes a schema of N tables (default 300) for timing the generator: Big.schema.yml in the
given folder. Each table has eight columns of the common types, a foreign key to the table
before it, an index and two named queries."""
import os
import sys

folder = sys.argv[1]
count = int(sys.argv[2]) if len(sys.argv) > 2 else 300
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
with open(os.path.join(folder, "Big.schema.yml"), "w") as f:
    f.write("\n".join(lines) + "\n")
