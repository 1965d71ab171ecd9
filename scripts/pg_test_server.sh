#!/usr/bin/env bash
# A throwaway PostgreSQL for the team-store tests (tests/team_pg_test.ts) and
# scripts/bench_team.ts.
#
#   scripts/pg_test_server.sh start DIR   initialise a cluster in DIR (created if
#                                         missing, must be empty), start it on a
#                                         free loopback port, print its URL
#                                         (the only line on stdout)
#   scripts/pg_test_server.sh stop DIR    stop that cluster and delete DIR
#
# On a fresh Debian machine it installs the server first (`apt-get install -y
# postgresql`, as root). PostgreSQL refuses to run as root, so when run as root
# the cluster belongs to the `postgres` user (created by the package) and is
# driven through `runuser`. Trust authentication on 127.0.0.1 only; fsync off:
# the data is thrown away. CI: see docs/development.md, "Tests against PostgreSQL".
set -euo pipefail

die() {
  echo "pg_test_server: $*" >&2
  exit 3
}

# The newest installed server's bin folder (Debian keeps them versioned, off PATH).
find_bin() {
  local dir
  for dir in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
    if [ -x "$dir/initdb" ] && [ -x "$dir/pg_ctl" ]; then
      echo "$dir"
      return 0
    fi
  done
  return 1
}

ensure_server() {
  local bin
  if bin=$(find_bin); then
    echo "$bin"
    return 0
  fi
  [ "$(id -u)" = 0 ] || die "no PostgreSQL server under /usr/lib/postgresql/*/bin; install it: sudo apt-get install -y postgresql"
  echo "pg_test_server: installing postgresql (apt-get)" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq postgresql >&2
  bin=$(find_bin) || die "apt-get installed postgresql but no initdb/pg_ctl under /usr/lib/postgresql/*/bin"
  echo "$bin"
}

# Runs a command as the cluster's owner: ourselves, or `postgres` when we are root.
as_owner() {
  if [ "$(id -u)" = 0 ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

# A port nobody listens on (bash's /dev/tcp connect fails on a closed port).
free_port() {
  local port
  for _ in $(seq 1 50); do
    port=$((20000 + RANDOM % 40000))
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
      echo "$port"
      return 0
    fi
  done
  die "no free loopback port found in 50 tries"
}

start() {
  local dir=$1 bin port cluster
  bin=$(ensure_server)
  mkdir -p "$dir"
  [ -z "$(ls -A "$dir")" ] || die "\"$dir\" is not empty; pass a new or empty folder"
  if [ "$(id -u)" = 0 ]; then
    id postgres >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin postgres
    # The owner must reach the cluster: DIR's parents may be closed to it, so
    # the cluster lives in a folder the owner makes itself, named in DIR/cluster.
    cluster=$(as_owner mktemp -d /tmp/heimdall-pg.XXXXXX)
  else
    cluster="$dir/cluster.d"
    mkdir -m 700 "$cluster"
  fi
  echo "$cluster" >"$dir/cluster"
  as_owner "$bin/initdb" -D "$cluster/data" -U heimdall --auth=trust -E UTF8 --no-sync \
    >"$dir/initdb.log" 2>&1 || die "initdb failed; see $dir/initdb.log"
  for attempt in 1 2 3 4 5; do
    port=$(free_port)
    if as_owner "$bin/pg_ctl" -D "$cluster/data" -l "$cluster/server.log" -w -t 60 \
      -o "-p $port -k $cluster -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
      start >/dev/null 2>&1; then
      echo "postgres://heimdall@127.0.0.1:$port/postgres"
      return 0
    fi
    echo "pg_test_server: start on port $port failed (try $attempt); retrying" >&2
  done
  cp "$cluster/server.log" "$dir/server.log" 2>/dev/null || true
  die "the server did not start; see $dir/server.log"
}

stop() {
  local dir=$1 bin cluster
  [ -f "$dir/cluster" ] || die "\"$dir\" holds no cluster started by this script"
  cluster=$(cat "$dir/cluster")
  bin=$(find_bin) || die "no PostgreSQL server installed"
  if [ -f "$cluster/data/postmaster.pid" ]; then
    as_owner "$bin/pg_ctl" -D "$cluster/data" -m immediate -w stop >/dev/null 2>&1 || true
  fi
  rm -rf "$cluster" "$dir"
}

case "${1:-}" in
start) [ $# -eq 2 ] || die "usage: $0 start DIR"; start "$2" ;;
stop) [ $# -eq 2 ] || die "usage: $0 stop DIR"; stop "$2" ;;
*) die "usage: $0 start DIR | stop DIR" ;;
esac
