#!/usr/bin/env bash
# A throwaway PostgreSQL on loopback for the integration tests.
#
#   scripts/test-postgres.sh start   # initdb into a temp dir, start, create a role and a database;
#                                    # prints the DATABASE_URL to use on stdout (and nothing else)
#   scripts/test-postgres.sh stop    # stop it and delete its data directory
#   scripts/test-postgres.sh restart # pg_ctl restart -m fast, as a failover or a minor upgrade does
#   scripts/test-postgres.sh pause   # stop it, keeping its data (the database is down until resume)
#   scripts/test-postgres.sh resume  # start it again after pause
#
#   DATABASE_URL=$(scripts/test-postgres.sh start) npm run test:unit
#
# PostgreSQL refuses to run as root, so as root the server runs as user postgres.
# The role may create databases: the tests create a fresh one per test file and
# drop it afterwards. Settings: PG_TEST_PORT (55432), PG_TEST_DIR (/tmp/pm-test-postgres).
set -euo pipefail

port="${PG_TEST_PORT:-55432}"
dir="$(realpath -m "${PG_TEST_DIR:-/tmp/pm-test-postgres}")"
role="app_test"
password="app_test_password"
database="app_test"

# Durability is irrelevant for a cluster that lives for one test run: fsync off makes CREATE DATABASE fast.
options="-p $port -c listen_addresses=127.0.0.1 -k $dir -c fsync=off -c synchronous_commit=off -c full_page_writes=off"

log() { echo "test-postgres: $*" >&2; }

find_bin() {
  local found
  found=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
  if [[ -z "$found" || ! -x "$found/initdb" ]]; then
    log "no PostgreSQL server binaries under /usr/lib/postgresql/*/bin (apt-get install -y postgresql)"
    exit 1
  fi
  echo "$found"
}

# Runs a command as the user that owns the cluster.
as_owner() {
  if [[ $(id -u) -eq 0 ]]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

start() {
  local bin
  bin=$(find_bin)
  if [[ -e "$dir" ]]; then
    log "$dir already exists; stopping and removing the previous cluster"
    stop
  fi
  mkdir -p "$dir"
  if [[ $(id -u) -eq 0 ]]; then chown postgres:postgres "$dir"; fi
  chmod 700 "$dir"

  as_owner "$bin/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 ||
    { cat "$dir/initdb.log" >&2; exit 1; }
  as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 -o "$options" start >&2 || { cat "$dir/server.log" >&2; exit 1; }

  as_owner "$bin/psql" -h "$dir" -p "$port" -U postgres -d postgres -v ON_ERROR_STOP=1 -q >&2 <<SQL
CREATE ROLE $role LOGIN CREATEDB PASSWORD '$password';
-- DROP DATABASE ... WITH (FORCE) ends every session on the database, an autovacuum
-- worker's too; without this grant that fails now and then with "must be a member
-- of the role whose process is being terminated or member of pg_signal_backend".
GRANT pg_signal_backend TO $role;
CREATE DATABASE $database OWNER $role;
SQL
  log "PostgreSQL $("$bin/postgres" --version | awk '{print $3}') on 127.0.0.1:$port (data in $dir)"
  echo "postgres://$role:$password@127.0.0.1:$port/$database"
}

stop() {
  local bin
  bin=$(find_bin)
  if [[ -f "$dir/data/postmaster.pid" ]]; then
    as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >&2 || log "pg_ctl stop failed"
  fi
  rm -rf "$dir"
}

# The same port and settings as start (PG_TEST_PORT and PG_TEST_DIR must be those it was started with).
ctl() {
  local bin
  bin=$(find_bin)
  as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -m fast -w -t 60 -o "$options" "$@" >&2 ||
    { tail -n 20 "$dir/server.log" >&2; exit 1; }
}

# User postgres may not be allowed into the caller's directory (a checkout under /root, say).
cd /

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  restart) ctl restart ;;
  pause) ctl stop ;;
  resume) ctl start ;;
  *)
    echo "usage: $0 start|stop|restart|pause|resume" >&2
    exit 2
    ;;
esac
