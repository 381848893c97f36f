#!/usr/bin/env bash
# Runs a command with moto's server (DynamoDB + S3) on a free loopback port,
# and TEF_TEST_AWS_ENDPOINT pointing at it. Stops the server afterwards.
set -euo pipefail
cd "$(dirname "$0")/.."
py=.tools/venv/bin/python
[ -x .tools/venv/bin/moto_server ] || { echo "moto is not installed: run scripts/ensure-tools.sh test" >&2; exit 1; }

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
log=$(mktemp)
# One request at a time: see scripts/moto-serial.py.
"$py" scripts/moto-serial.py "$port" >"$log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true; rm -f "$log"' EXIT

up() { python3 -c "import urllib.request,sys; urllib.request.urlopen(sys.argv[1], timeout=1)" "http://127.0.0.1:$port/moto-api/" >/dev/null 2>&1; }
for _ in $(seq 1 150); do
  if up; then break; fi
  if ! kill -0 $pid 2>/dev/null; then cat "$log" >&2; echo "moto failed to start" >&2; exit 1; fi
  sleep 0.2
done
up || { cat "$log" >&2; echo "moto did not answer" >&2; exit 1; }

export TEF_TEST_AWS_ENDPOINT="http://127.0.0.1:$port"
export AWS_ACCESS_KEY_ID=test AWS_SECRET_ACCESS_KEY=test AWS_REGION=us-east-1
echo "==> moto on $TEF_TEST_AWS_ENDPOINT"
"$@"
