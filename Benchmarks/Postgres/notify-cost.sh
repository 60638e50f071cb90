#!/usr/bin/env bash
# What the observation triggers (strata_notify, docs/PostgreSQL.md "Observation") cost a writer:
# pgbench against a throwaway cluster on loopback, the same single-row INSERT transactions into a
# table without the trigger and into one with it, alternated over several rounds (the median
# of each is printed), and transactions of 10 INSERTs into each.
#   Benchmarks/Postgres/notify-cost.sh                 5 rounds of 10 s per workload, 1 client
#   ROUNDS=3 SECONDS_PER_RUN=5 CLIENTS=4 Benchmarks/Postgres/notify-cost.sh
set -euo pipefail
rounds=${ROUNDS:-5}
seconds=${SECONDS_PER_RUN:-10}
clients=${CLIENTS:-1}
bindir=${STRATA_PG_BINDIR:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)}
[ -x "$bindir/initdb" ] || { echo "PostgreSQL is not installed: apt-get install postgresql" >&2; exit 1; }
dir=$(mktemp -d /tmp/strata-notify-XXXXXX)
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
[ "$(id -u)" = 0 ] && chown postgres "$dir"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
cleanup() { as_pg "$bindir/pg_ctl" -D "$dir/data" -m immediate stop > /dev/null 2>&1 || true; rm -rf "$dir"; }
trap cleanup EXIT
as_pg "$bindir/initdb" -D "$dir/data" -A trust -U strata --no-sync > /dev/null
as_pg "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off" start > /dev/null
psql=("$bindir/psql" -X -q -h 127.0.0.1 -p "$port" -U strata -d postgres -v ON_ERROR_STOP=1)
"${psql[@]}" <<'SQL'
CREATE TABLE plain (id BIGSERIAL PRIMARY KEY, name TEXT NOT NULL);
CREATE TABLE observed (id BIGSERIAL PRIMARY KEY, name TEXT NOT NULL);
CREATE OR REPLACE FUNCTION strata_notify() RETURNS trigger LANGUAGE plpgsql AS $strata$
BEGIN
  PERFORM pg_notify('strata_changes', TG_TABLE_NAME);
  RETURN NULL;
END
$strata$;
CREATE TRIGGER strata_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON observed
  FOR EACH STATEMENT EXECUTE FUNCTION strata_notify();
SQL
for table in plain observed; do
    echo "INSERT INTO $table (name) VALUES ('x');" > "$dir/$table-1.sql"
    { echo "BEGIN;"; for _ in $(seq 10); do echo "INSERT INTO $table (name) VALUES ('x');"; done; echo "COMMIT;"; } > "$dir/$table-10.sql"
done
tps() { "$bindir/pgbench" -n -h 127.0.0.1 -p "$port" -U strata -c "$clients" -T "$seconds" -f "$1" postgres 2>/dev/null | awk '/^tps/ {print $3; exit}'; }
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
echo "| workload | without trigger (tps, median of $rounds) | with strata_notify (tps) | cost |"
echo "|---|---:|---:|---:|"
for shape in 1 10; do
    : > "$dir/plain.tps"; : > "$dir/observed.tps"
    for _ in $(seq "$rounds"); do
        tps "$dir/plain-$shape.sql" >> "$dir/plain.tps"
        tps "$dir/observed-$shape.sql" >> "$dir/observed.tps"
    done
    p=$(median < "$dir/plain.tps" | xargs printf '%.0f'); o=$(median < "$dir/observed.tps" | xargs printf '%.0f')
    echo "| $shape INSERT(s) per transaction, $clients client(s) | $p | $o | $(python3 -c "print(f'{(1/$o - 1/$p) * 1e6:+.1f} µs per transaction ({($p/$o - 1) * 100:+.1f}%)')") |"
done
