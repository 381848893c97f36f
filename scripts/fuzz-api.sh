#!/usr/bin/env bash
# Fuzzes the local API against its own OpenAPI document (docs/openapi.json, served at
# /api/openapi.json) with schemathesis, signed in as a learner who accepted the terms.
#
# Checks: no 5xx; every status, content type and body as documented; requests that break the
# schema are refused; routes that need a token refuse calls without one; and a refused request
# leaves the learner's profile, credits, subscription and progress unchanged (scripts/fuzz/hooks.py).
# The run is bounded (FUZZ_EXAMPLES cases per operation, fixed seed) and takes about a minute.
#
# Needs the debug server built (make server) and schemathesis in .tools/fuzz (ensure-tools.sh test).
set -euo pipefail
cd "$(dirname "$0")/.."

server=target/debug/tef-local
st=.tools/fuzz/bin/st
examples=${FUZZ_EXAMPLES:-25}
seed=${FUZZ_SEED:-20261126}
[ -x "$server" ] || { echo "fuzz-api: $server is not built (make server)" >&2; exit 1; }
[ -x "$st" ] || { echo "fuzz-api: $st is missing (scripts/ensure-tools.sh test)" >&2; exit 1; }

work=$(mktemp -d)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
export TEF_DATA_DIR="$work/data" TEF_MEDIA_DIR="$work/media" PORT="$port"
export TEF_PUBLIC_URL="http://127.0.0.1:$port"
"$server" serve > "$work/server.log" 2>&1 &
pid=$!
cleanup() {
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

url="http://127.0.0.1:$port"
for _ in $(seq 1 100); do
  curl -fsS "$url/api/health" > /dev/null 2>&1 && break
  sleep 0.1
done
curl -fsS "$url/api/health" > /dev/null || { echo "fuzz-api: the server did not start" >&2; cat "$work/server.log" >&2; exit 1; }

token=$("$server" token fuzz@example.com)
curl -fsS -X POST -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
  -d '{}' "$url/api/me/privacy-acceptance" > /dev/null

echo "==> schemathesis: $examples cases per operation, seed $seed, against $url"
status=0
# Run from the scratch folder: schemathesis keeps its example database in the working directory.
hooks=$PWD/scripts/fuzz
st=$PWD/$st
(cd "$work" && TEF_FUZZ_URL="$url" TEF_FUZZ_TOKEN="$token" PYTHONPATH="$hooks" SCHEMATHESIS_HOOKS=hooks \
  "$st" run "$url/api/openapi.json" \
  --header "Authorization: Bearer $token" \
  --checks not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance,negative_data_rejection,ignored_auth,refused_requests_change_nothing \
  --phases examples,coverage,fuzzing \
  --max-examples "$examples" --seed "$seed" --workers 1 \
  --request-timeout 60 --no-color) || status=$?
# The documented examples are well-formed requests: they must have reached the core of the
# graded, corrected and reported routes (a fuzz run that only ever meets 4xx proves little).
progress=$(curl -fsS -H "Authorization: Bearer $token" "$url/api/progress")
if ! PROGRESS="$progress" python3 - <<'PY'
import json, os, sys
skills = json.loads(os.environ["PROGRESS"])["skills"]
counts = {k: len(v) for k, v in skills.items()}
print(f"==> after fuzzing, the learner's stored sessions: {counts}")
missing = [k for k in ("reading", "writing", "speaking") if counts.get(k, 0) == 0]
if missing:
    print(f"fuzz-api: no well-formed {', '.join(missing)} request succeeded", file=sys.stderr)
    sys.exit(1)
PY
then
  status=1
fi
if [ "$status" -ne 0 ]; then
  echo "fuzz-api: failures above; the server's log follows" >&2
  grep -E 'ERROR|panicked' "$work/server.log" | tail -n 40 >&2 || true
fi
exit "$status"
