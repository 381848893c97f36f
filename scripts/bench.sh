#!/usr/bin/env bash
# Measures what users feel: the initial JavaScript the landing page loads, and
# API latency and throughput on the local server (wrk, 2 threads, 16 connections).
#   make bench            (builds first)
set -euo pipefail
cd "$(dirname "$0")/.."
command -v wrk >/dev/null || { echo "==> installing wrk"; if [ "$(id -u)" -eq 0 ]; then apt-get install -y -q wrk; else sudo apt-get install -y -q wrk; fi; }

echo "== Initial JavaScript (landing page), gzip"
total=0
for f in $(grep -oE '/assets/[^"]+\.js' frontend/dist/index.html | sort -u); do
  size=$(gzip -9 -c "frontend/dist$f" | wc -c)
  total=$((total + size))
  printf '  %-44s %6d B\n' "$f" "$size"
done
printf '  %-44s %6d B\n' "total" "$total"
budget=$((120 * 1024))
if [ "$total" -le "$budget" ]; then echo "  within the budget of 120 KB"; else echo "  OVER the budget of 120 KB"; fi

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
data=$(mktemp -d)
export PORT=$port TEF_DATA_DIR=$data RUST_LOG=warn
target/debug/tef-local publish >/dev/null
target/debug/tef-local & pid=$!
trap 'kill $pid 2>/dev/null; rm -rf "$data"' EXIT
for _ in $(seq 1 50); do python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/api/health')" 2>/dev/null && break; sleep 0.2; done
token=$(target/debug/tef-local token bench@example.com)
python3 -c "import urllib.request,sys; urllib.request.urlopen(urllib.request.Request(sys.argv[1], data=b'{}', headers={'Authorization': 'Bearer '+sys.argv[2], 'Content-Type': 'application/json'}))" \
  "http://127.0.0.1:$port/api/me/privacy-acceptance" "$token"

run() {
  echo "== $1"
  wrk -t2 -c16 -d5s --latency -H "Authorization: Bearer $token" "http://127.0.0.1:$port$1" \
    | grep -E 'Requests/sec|50%|99%'
}
run /api/health
run /api/me
run /api/tests/reading/1
run /api/progress
echo "(debug build of tef-local; Lambda functions are built in release)"
