#!/usr/bin/env python3
"""Puts a run's report (Scripts/report.py's output) into docs/Benchmarks.md between its two
marker lines, replacing what was there; the prose around them stays as it is. Fails, leaving
the page unchanged, when the page lacks either marker.

    write_docs.py REPORT.md PAGE.md
"""
import sys

BEGIN = "<!-- BEGIN Benchmarks/run.sh report: generated, edit Benchmarks/Scripts/report.py instead -->"
END = "<!-- END Benchmarks/run.sh report -->"

if len(sys.argv) != 3:
    sys.exit("usage: write_docs.py REPORT.md PAGE.md")
report_path, page_path = sys.argv[1], sys.argv[2]
report = open(report_path, encoding="utf-8").read().strip()
page = open(page_path, encoding="utf-8").read()
start, end = page.find(BEGIN), page.find(END)
if start < 0 or end < start:
    sys.exit(f"write_docs.py: {page_path} lacks the lines\n{BEGIN}\n{END}")
page = page[:start + len(BEGIN)] + "\n\n" + report + "\n\n" + page[end:]
with open(page_path, "w", encoding="utf-8") as f:
    f.write(page)
print(f"write_docs.py: wrote the report into {page_path}", file=sys.stderr)
