#!/usr/bin/env bash
# API conformance of `fray serve` (issue 18): schemathesis (PyPI, pinned below, installed into a
# venv under target/) against /api/v1/openapi.json, with a fixed seed and a bounded number of
# examples per operation. It starts the release `fray serve` on 127.0.0.1 with a temporary SQLite
# database, creates one fight (examples/cnc/duel.toml) whose GM token and id every fight
# operation is called with (scripts/schemathesis/schemathesis.toml), and stops the server.
# Checks: no 5xx, every status code documented, every response body matching its schema.
# Needs `cargo build --release` first and python3 with venv.
set -euo pipefail
cd "$(dirname "$0")/.."
SCHEMATHESIS_VERSION=4.32.5
VENV=target/schemathesis-venv
BIN=target/release/fray
[ -x "$BIN" ] || { echo "schemathesis.sh: build the release binary first ($BIN)" >&2; exit 1; }
if ! "$VENV/bin/schemathesis" --version 2>/dev/null | grep -q "version $SCHEMATHESIS_VERSION\$"; then
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION"
fi
"$VENV/bin/schemathesis" --version

WORK=$(mktemp -d /tmp/fray-schemathesis.XXXXXX)
"$BIN" serve --addr 127.0.0.1:0 --db "sqlite://$WORK/fray.db" >"$WORK/serve.out" 2>"$WORK/serve.err" &
SERVER=$!
stop() { kill "$SERVER" 2>/dev/null || true; wait "$SERVER" 2>/dev/null || true; rm -rf "$WORK"; }
trap stop EXIT
for _ in $(seq 100); do grep -q '?key=' "$WORK/serve.out" && break; sleep 0.1; done
BASE=$(sed -n 's|.*listening on \(http://[^/]*\)/.*|\1|p' "$WORK/serve.out")
export FRAY_KEY=$(sed -n 's|.*?key=\([0-9a-f]*\).*|\1|p' "$WORK/serve.out")
[ -n "$BASE" ] && [ -n "$FRAY_KEY" ] || { cat "$WORK/serve.out" "$WORK/serve.err" >&2; echo "schemathesis.sh: fray serve did not start" >&2; exit 1; }

# One real fight for the fight operations to reach.
CREATED=$(python3 - "$BASE" "$FRAY_KEY" <<'PY'
import json, sys, urllib.request
base, key = sys.argv[1], sys.argv[2]
body = json.dumps({"encounter": open("examples/cnc/duel.toml").read(), "name": "duel.toml", "seed": 1}).encode()
req = urllib.request.Request(base + "/api/v1/fights", data=body, method="POST",
    headers={"content-type": "application/json", "authorization": "Bearer " + key})
created = json.load(urllib.request.urlopen(req))
print(created["id"], created["gm"]["token"])
PY
)
export FRAY_FIGHT_ID=${CREATED% *} FRAY_GM_TOKEN=${CREATED#* }

# From the temporary directory: schemathesis keeps its example database in the working one.
ROOT=$PWD
(cd "$WORK" && "$ROOT/$VENV/bin/schemathesis" --config-file "$ROOT/scripts/schemathesis/schemathesis.toml" run "$BASE/api/v1/openapi.json" \
  --seed 18 --max-examples "${SCHEMATHESIS_EXAMPLES:-100}" --workers 1 \
  --checks not_a_server_error,status_code_conformance,response_schema_conformance \
  --phases examples,coverage,fuzzing --request-timeout 30 --no-shrink)
echo "schemathesis: passed"
