#!/usr/bin/env bash
# Make a PostgreSQL server from Debian's packages run on loopback for the test suite, with a
# role and database "civtable" (password "civtable"). Idempotent: does nothing that is done.
#   URL for the tests: postgresql://civtable:civtable@127.0.0.1:5432/civtable
#   (override the port with CIVTABLE_PG_PORT; the tests read CIVTABLE_TEST_PG)
set -euo pipefail

PORT="${CIVTABLE_PG_PORT:-5432}"
ROLE=civtable
PASSWORD=civtable
DB=civtable

SUDO=""
if [ "$(id -u)" != 0 ]; then
    if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; fi
fi

ready() { command -v pg_isready >/dev/null 2>&1 && pg_isready -q -h 127.0.0.1 -p "$PORT"; }

as_postgres() {
    if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else $SUDO -u postgres "$@"; fi
}

if ! ready; then
    if ! ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1 || ! command -v pg_ctlcluster >/dev/null 2>&1; then
        if [ "$(id -u)" != 0 ] && [ -z "$SUDO" ]; then
            echo "ensure-postgres: not root and no sudo: install Debian's 'postgresql' package" >&2
            exit 1
        fi
        echo "ensure-postgres: installing Debian's postgresql package" >&2
        export DEBIAN_FRONTEND=noninteractive
        $SUDO apt-get update -qq
        $SUDO apt-get install -y -qq --no-install-recommends postgresql >/dev/null
    fi
    VERSION="$(ls /usr/lib/postgresql | sort -V | tail -n 1)"
    if ! pg_lsclusters -h 2>/dev/null | awk '{print $1" "$2}' | grep -qx "$VERSION main"; then
        $SUDO pg_createcluster "$VERSION" main --port "$PORT" >/dev/null
    fi
    CLUSTER_PORT="$(pg_lsclusters -h | awk -v v="$VERSION" '$1==v && $2=="main" {print $3}')"
    if [ "$CLUSTER_PORT" != "$PORT" ]; then
        echo "ensure-postgres: cluster $VERSION/main uses port $CLUSTER_PORT; set CIVTABLE_PG_PORT=$CLUSTER_PORT" >&2
        PORT="$CLUSTER_PORT"
    fi
    echo "ensure-postgres: starting PostgreSQL $VERSION on 127.0.0.1:$PORT" >&2
    $SUDO pg_ctlcluster "$VERSION" main start -- -o "-c listen_addresses=127.0.0.1" 2>/dev/null \
        || $SUDO pg_ctlcluster "$VERSION" main start || true
    for _ in $(seq 1 60); do
        ready && break
        sleep 0.5
    done
    if ! ready; then
        echo "ensure-postgres: PostgreSQL did not come up on 127.0.0.1:$PORT" >&2
        exit 1
    fi
fi

# The role and database of the tests (needs the postgres superuser through the local socket).
if id postgres >/dev/null 2>&1 && { [ "$(id -u)" = 0 ] || [ -n "$SUDO" ]; }; then
    as_postgres psql -q -p "$PORT" -v ON_ERROR_STOP=1 -d postgres >/dev/null <<SQL
DO \$\$
BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '$ROLE') THEN
    CREATE ROLE $ROLE LOGIN CREATEDB PASSWORD '$PASSWORD';
  END IF;
END
\$\$;
SQL
    if ! as_postgres psql -qAt -p "$PORT" -d postgres -c "SELECT 1 FROM pg_database WHERE datname='$DB'" | grep -q 1; then
        as_postgres createdb -p "$PORT" -O "$ROLE" "$DB"
    fi
fi
echo "postgresql://$ROLE:$PASSWORD@127.0.0.1:$PORT/$DB"
