#!/usr/bin/env bash
# The PostgreSQL benchmark (docs/Benchmarks.md, "PostgreSQL: generated DAOs against hand-written
# postgres-nio"): builds PostgresBench in release (scratch folder .build here), starts a throwaway
# cluster on loopback (initdb + pg_ctl in a folder under /tmp, as the postgres user when run as
# root, since initdb refuses root), runs the workloads, stops and removes the cluster, prints a
# markdown table.
#   Benchmarks/Postgres/run.sh                  20 runs; 5,000 inserts, 10,000 rows fetched, 2,000 lookups
#   Benchmarks/Postgres/run.sh --runs 3 --insert 500 --fetch 1000 --find 200 --totals 200    (arguments go to PostgresBench)
#   Benchmarks/Postgres/run.sh --only totals     the typed join + aggregate (BenchPostgresQueries) alone
#   BENCH_WRAPPER="perf record -g -o /tmp/pgbench.perf --" Benchmarks/Postgres/run.sh …   (profile it)
# PostgreSQL's server programs: STRATA_PG_BINDIR, else the newest /usr/lib/postgresql/N/bin, else PATH.
set -euo pipefail
cd "$(dirname "$0")"

if [ -n "${STRATA_PG_BINDIR:-}" ]; then
    bindir=$STRATA_PG_BINDIR
else
    bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)
    if [ -z "$bindir" ] && command -v initdb > /dev/null; then
        bindir=$(dirname "$(readlink -f "$(command -v initdb)")")
    fi
fi
if [ -z "$bindir" ] || [ ! -x "$bindir/initdb" ]; then
    echo "PostgreSQL is not installed (no initdb in /usr/lib/postgresql/*/bin or on PATH): apt-get install postgresql" >&2
    exit 1
fi

echo "== building PostgresBench (release)" >&2
mkdir -p .build
swift build -c release --scratch-path .build --product PostgresBench > .build/bench-build.log 2>&1 || { cat .build/bench-build.log >&2; exit 1; }
bin=$(swift build -c release --scratch-path .build --show-bin-path)

# The cluster: trust authentication, loopback only, the socket in its own folder.
cluster=$(mktemp -d /tmp/strata-pgbench-XXXXXX)
as_postgres=()
if [ "$(id -u)" = 0 ]; then
    chown postgres: "$cluster"
    as_postgres=(/usr/sbin/runuser -u postgres --)
fi
pg() { "${as_postgres[@]}" /usr/bin/env -C "$cluster" "$bindir/$1" "${@:2}"; }
stop() {
    pg pg_ctl -D "$cluster/data" -m immediate -w -t 30 stop > /dev/null 2>&1 || true
    rm -rf "$cluster"
}
trap stop EXIT

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
echo "== starting PostgreSQL ($("$bindir/postgres" --version)) on 127.0.0.1:$port" >&2
pg initdb -D "$cluster/data" -A trust -U strata -E UTF8 --locale=C --no-sync > "$cluster/initdb.log" 2>&1 \
    || { cat "$cluster/initdb.log" >&2; exit 1; }
cat >> "$cluster/data/postgresql.conf" <<EOF
# strata benchmark server
listen_addresses = '127.0.0.1'
port = $port
unix_socket_directories = '$cluster'
fsync = off
logging_collector = off
EOF
pg pg_ctl -D "$cluster/data" -l "$cluster/server.log" -w -t 60 start > /dev/null \
    || { cat "$cluster/server.log" >&2; exit 1; }

echo "== running" >&2
echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'); $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
echo "load before: $(uptime | sed 's/.*load average/load average/')"
echo "swift: $(swift --version 2>/dev/null | head -1)"
echo "postgres: $("$bindir/postgres" --version) (fsync = off, loopback TCP)"
echo
# BENCH_WRAPPER runs the benchmark under a profiler: BENCH_WRAPPER="perf record -g -o /tmp/pgbench.perf --" run.sh …
${BENCH_WRAPPER:-} "$bin/PostgresBench" "postgres://strata@127.0.0.1:$port/postgres" "$@"
echo
echo "load after: $(uptime | sed 's/.*load average/load average/')"

