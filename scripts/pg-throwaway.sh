#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the store tests: `source scripts/pg-throwaway.sh start`
# initialises a cluster in a temporary directory as the `postgres` user, starts it on a free
# port of 127.0.0.1 and exports FRAY_TEST_PG_URL; `pg_throwaway_stop` stops and deletes it.
# Needs Debian's `postgresql` (server binaries in /usr/lib/postgresql/*/bin).
set -euo pipefail
PG_BIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
PG_DIR=$(mktemp -d /tmp/fray-pg.XXXXXX)
chown postgres "$PG_DIR"
PG_PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
su postgres -s /bin/sh -c "$PG_BIN/initdb -D $PG_DIR/data -U postgres --auth=trust -E UTF8 >$PG_DIR/initdb.log"
su postgres -s /bin/sh -c "$PG_BIN/pg_ctl -D $PG_DIR/data -l $PG_DIR/server.log -w \
  -o '-c listen_addresses=127.0.0.1 -p $PG_PORT -k $PG_DIR -c fsync=on' start >/dev/null"
su postgres -s /bin/sh -c "$PG_BIN/createdb -h 127.0.0.1 -p $PG_PORT -U postgres fray"
export FRAY_TEST_PG_URL="postgres://postgres@127.0.0.1:$PG_PORT/fray"
pg_throwaway_stop() {
  su postgres -s /bin/sh -c "$PG_BIN/pg_ctl -D $PG_DIR/data -m fast -w stop >/dev/null" || true
  rm -rf "$PG_DIR"
}
echo "PostgreSQL on 127.0.0.1:$PG_PORT ($PG_DIR)"
