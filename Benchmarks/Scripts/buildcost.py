#!/usr/bin/env python3
"""What a cold build costs: runs one shell command once and adds to a JSON file its wall time,
its CPU time (user + system of every process it waited for: the compiler, the linker, the
plugin), its build steps and the targets it compiled.

    buildcost.py run OUT.json NAME SCRATCH COMMAND   run COMMAND (a shell command), then read SCRATCH
    buildcost.py report OUT.json                     the markdown table of docs/Benchmarks.md
    buildcost.py targets [--server] SCRATCH          the targets compiled under SCRATCH, one a line
                                                     (--server: only the server stack's; .ci/run)

Build steps: SwiftPM's `[N/M]` progress lines; the steps of a phase are its largest N, and a
command's steps are the sum over its phases (the plugins' tools, then the build). Compiled
targets: the `<Target>.build` folders under SCRATCH/<triple>/{debug,release} that hold an object
file (SwiftPM also makes empty folders for targets it plans but does not compile), `-tool` ones
being the host copies built for plugins. Server-stack targets are those of SwiftNIO, BoringSSL,
swift-crypto, postgres-nio and what they bring. A command that fails stops everything.
"""
import json
import os
import re
import resource
import subprocess
import sys
import time

# SwiftNIO, swift-nio-ssl, swift-nio-transport-services, swift-crypto (BoringSSL, CXKCP), swift-asn1,
# postgres-nio (_ConnectionPoolModule), swift-atomics, swift-collections, swift-async-algorithms,
# swift-metrics, swift-service-lifecycle (UnixSignals, ConcurrencyHelpers), swift-log.
SERVER_STACK = ("NIO", "BoringSSL", "Crypto", "CXKCP", "ASN1", "Postgres", "ConnectionPool", "Atomics", "Collections",
                "DequeModule", "ContainersPreview", "AsyncAlgorithms", "Metrics", "Lifecycle", "UnixSignals",
                "ConcurrencyHelpers", "Logging")


def compiled_targets(scratch):
    names = set()
    if not os.path.isdir(scratch):
        return names
    for triple in os.listdir(scratch):
        for configuration in ("debug", "release"):
            folder = os.path.join(scratch, triple, configuration)
            if os.path.islink(os.path.join(scratch, triple)) or not os.path.isdir(folder):
                continue
            for entry in os.listdir(folder):
                if not entry.endswith(".build"):
                    continue
                for _, _, files in os.walk(os.path.join(folder, entry)):
                    if any(f.endswith(".o") for f in files):
                        names.add(entry[: -len(".build")])
                        break
    return names


def steps(output):
    total, phase, last = 0, 0, 0
    for match in re.finditer(r"^\[(\d+)/(\d+)\]", output, re.MULTILINE):
        n = int(match.group(1))
        if n < last:
            total += phase
            phase = 0
        phase = max(phase, n)
        last = n
    return total + phase


def run(out, name, scratch, command):
    before_targets = compiled_targets(scratch)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    result = subprocess.run(command, shell=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    with open(out.replace(".json", "") + "-" + re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") + ".log", "w") as log:
        log.write(result.stdout)
    if result.returncode != 0:
        sys.stderr.write(f"buildcost.py: '{command}' failed with exit code {result.returncode}\n{result.stdout[-4000:]}")
        sys.exit(result.returncode or 1)
    targets = sorted(compiled_targets(scratch) - before_targets)
    entry = {
        "command": name,
        "shell": command,
        "wall": wall,
        "user": after.ru_utime - before.ru_utime,
        "system": after.ru_stime - before.ru_stime,
        "steps": steps(result.stdout),
        "targets": targets,
        "serverStack": [t for t in targets if any(s in t for s in SERVER_STACK)],
        "load": open("/proc/loadavg").read().split()[:3],
    }
    document = {"results": []}
    if os.path.exists(out):
        with open(out, encoding="utf-8") as f:
            document = json.load(f)
    document["results"].append(entry)
    with open(out, "w", encoding="utf-8") as f:
        json.dump(document, f, indent=2)
    print(f"{name}: {wall:.1f} s wall, {entry['user'] + entry['system']:.1f} s CPU, {entry['steps']} steps, "
          f"{len(targets)} targets compiled ({len(entry['serverStack'])} of the server stack)")


def report(out):
    print("| what | wall | CPU (user + sys) | build steps | targets compiled | of which NIO, crypto, postgres-nio… | load avg at the end (1/5/15 min) |")
    print("|:--|--:|--:|--:|--:|--:|:--|")
    for r in json.load(open(out))["results"]:
        cpu = r["user"] + r["system"]
        server = [t for t in r["targets"] if any(s in t for s in SERVER_STACK)]
        print(f"| {r['command']} | {r['wall']:.1f} s | {cpu:.1f} s | {r['steps']} | {len(r['targets'])} | "
              f"{len(server)} | {' / '.join(r['load'])} |")


if __name__ == "__main__":
    if len(sys.argv) == 6 and sys.argv[1] == "run":
        run(*sys.argv[2:])
    elif len(sys.argv) == 3 and sys.argv[1] == "report":
        report(sys.argv[2])
    elif len(sys.argv) in (3, 4) and sys.argv[1] == "targets" and (len(sys.argv) == 3 or sys.argv[2] == "--server"):
        for target in sorted(compiled_targets(sys.argv[-1])):
            if len(sys.argv) == 3 or any(s in target for s in SERVER_STACK):
                print(target)
    else:
        sys.stderr.write(__doc__)
        sys.exit(2)
