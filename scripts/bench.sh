#!/usr/bin/env bash
# make bench: what users feel, against the budgets of docs/PERFORMANCE.md.
#  1. the initial JavaScript of the landing page (gzip), budget 120 KB;
#  2. the local server in a release build under wrk (beside it on the same machine): catalogue
#     and test reads, profile and progress reads, attempt submissions and offline corrections,
#     each by many signed-in users (bench/load/tokens.lua), so per-user limits do not cap it;
#  3. Lighthouse (mobile settings, median of LIGHTHOUSE_RUNS runs, default 5) on the landing,
#     section, quiz, writing, speaking and tracker pages (scripts/lighthouse.mjs), after the load;
#  4. every Lambda function in a release build (the profile cargo lambda deploys): its size and its
#     start to first answer through a Runtime API, on moto (the Runtime API test, run on them).
# Prints a markdown table, also written to target/bench/latest.md.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v wrk >/dev/null || { echo "==> installing wrk"; if [ "$(id -u)" -eq 0 ]; then apt-get install -y -q wrk; else sudo apt-get install -y -q wrk; fi; }
mkdir -p target/bench
out=target/bench/latest.md
USERS=${BENCH_USERS:-400}

echo "== Initial JavaScript (landing page), gzip"
# The scripts index.html names, and the app they start once the first screen is painted (main.tsx
# imports boot.tsx): everything the landing runs before it is interactive.
initial=$(grep -oE '/assets/[^"]+\.js' frontend/dist/index.html | sort -u)
for f in $initial; do
  initial="$initial $( (grep -oE 'assets/[A-Za-z0-9_.-]+\.js' "frontend/dist$f" || true) | sed 's|^|/|' | sort -u | tr '\n' ' ')"
done
total=0
for f in $(printf '%s\n' $initial | sort -u); do
  size=$(gzip -9 -c "frontend/dist$f" | wc -c)
  total=$((total + size))
  printf '  %-44s %6d B\n' "$f" "$size"
done
printf '  %-44s %6d B\n' "total" "$total"
budget=$((120 * 1024))
if [ "$total" -le "$budget" ]; then js_verdict="within"; else js_verdict="OVER"; fi
echo "  $js_verdict the budget of 120 KB"

echo "== building the local server and the 17 functions in release (the first time takes about 40 minutes)"
cargo build --release -q --workspace --bins
bin=target/release/tef-local

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
data=$(mktemp -d)
export PORT=$port TEF_DATA_DIR=$data TEF_MEDIA_DIR=$data/media RUST_LOG=warn
$bin & pid=$!
trap 'kill $pid 2>/dev/null; rm -rf "$data"' EXIT
for _ in $(seq 1 100); do curl -sf "http://127.0.0.1:$port/api/health" >/dev/null && break; sleep 0.2; done

echo "== $USERS signed-in users with a monthly plan"
tokens=$data/tokens.txt
: > "$tokens"
for i in $(seq 1 "$USERS"); do
  t=$($bin token "bench$i@example.com")
  curl -sf -X POST -H "Authorization: Bearer $t" -H 'Content-Type: application/json' -d '{}' \
    "http://127.0.0.1:$port/api/me/privacy-acceptance" >/dev/null
  echo "$t" >> "$tokens"
done
for i in $(seq 1 "$USERS"); do $bin grant "bench$i@example.com" monthly >/dev/null; done
export BENCH_TOKENS=$tokens

answers=$(python3 -c 'import json; print(json.dumps([i % 4 for i in range(40)]))')
text=$(python3 -c 'import json; print(json.dumps("Ce matin-là, Julie a trouvé un portefeuille sur un banc du parc. Elle a regardé à l'"'"'intérieur et elle a vu une carte avec un numéro de téléphone. Elle a appelé tout de suite.\n\nLe propriétaire était un vieil homme très gentil. Il est venu au parc vingt minutes plus tard et il a remercié Julie plusieurs fois. Il lui a offert un café et ils ont parlé longtemps.\n\nDepuis ce jour, ils sont devenus amis et ils se voient chaque semaine au même café."))')

rows=()
# Each route runs BENCH_RUNS times (default 3); the run with the median p99 is reported, so one
# scheduler hiccup on a shared 2-core machine neither makes nor breaks a budget.
run() { # name, method, path, body, connections, seconds
  local name=$1 method=$2 path=$3 body=$4 conns=$5 secs=$6
  local lines=() line
  for _ in $(seq 1 "${BENCH_RUNS:-3}"); do
    line=$(BENCH_METHOD=$method BENCH_BODY=$body wrk -t2 -c"$conns" -d"${secs}s" -s bench/load/tokens.lua \
      "http://127.0.0.1:$port$path" | grep '^BENCH')
    echo "  $name: $line"
    lines+=("$line")
  done
  rows+=("$(python3 - "$name" "$conns" "${lines[@]}" <<'PY'
import sys
name, conns, lines = sys.argv[1], sys.argv[2], sys.argv[3:]
runs = sorted((dict(kv.split("=") for kv in l.split()[1:]) for l in lines), key=lambda v: float(v["p99_ms"]))
v = runs[len(runs) // 2]
p99s = ", ".join(r["p99_ms"] for r in runs)
print(f"| {name} | {conns} | {int(v['requests']):,} | {int(float(v['rps'])):,} | {v['p50_ms']} | {v['p99_ms']} ({p99s}) | {sum(int(r['non2xx']) + int(r['socket_errors']) for r in runs)} |")
PY
)")
}
echo "== load (wrk, 2 threads)"
run "GET /api/tests/reading (catalogue)" GET /api/tests/reading "" 16 5
run "GET /api/tests/reading/1 (40 questions, signed links)" GET /api/tests/reading/1 "" 16 5
run "GET /api/me" GET /api/me "" 16 5
run "GET /api/progress" GET /api/progress "" 16 5
run "POST attempts (graded, stored, de-duplicated)" POST /api/tests/reading/1/attempts \
  "{\"answers\": $answers, \"durationSeconds\": 900, \"attemptId\": \"{{id}}\"}" 16 3
run "POST /api/openai/tef-correction (offline, Grammalecte)" POST /api/openai/tef-correction \
  "{\"studentText\": $text, \"section\": \"A\", \"topicId\": \"luckyFind\"}" 4 10

echo "== Lighthouse (mobile settings), median of ${LIGHTHOUSE_RUNS:-5} runs per page"
if [ ! -f .tools/lighthouse/node_modules/lighthouse/package.json ]; then
  echo "==> installing Lighthouse into .tools/lighthouse (once, about 20 s)"
  mkdir -p .tools/lighthouse
  (cd .tools/lighthouse && npm install --no-audit --no-fund --silent lighthouse@13 > /dev/null)
fi
lighthouse_table=$data/lighthouse.md
lighthouse_status=0
node scripts/lighthouse.mjs "http://127.0.0.1:$port" "${LIGHTHOUSE_RUNS:-5}" > "$lighthouse_table" || lighthouse_status=$?

echo "== Lambda functions (release build) through a Runtime API, on moto"
rm -f target/lambda-start-release.txt
TEF_LAMBDA_PROFILE=release scripts/with-moto.sh cargo test -q -p local --test integration runtime_api > "$data/runtime_api.log" 2>&1 \
  || { cat "$data/runtime_api.log"; exit 1; }

size() { python3 -c 'import os,sys; print(f"{os.path.getsize(sys.argv[1])/1e6:.1f} MB")' "$1"; }
stripped=$data/tef-local.stripped
objcopy --strip-all "$bin" "$stripped"
{
  echo "Measured $(date -u '+%Y-%m-%d %H:%M UTC') on $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)), wrk beside the server; release build of tef-local, embedded store."
  echo
  echo "Each route ran ${BENCH_RUNS:-3} times; the run with the median p99 is shown (every run's p99 in brackets; errors are summed over the runs)."
  echo
  echo "| Route | Connections | Requests | Requests/s | p50 ms | p99 ms | Errors (non-2xx, socket) |"
  echo "|---|---|---|---|---|---|---|"
  printf '%s\n' "${rows[@]}"
  echo
  echo
  cat "$lighthouse_table"
  echo
  echo "- Initial JavaScript of the landing page (index.html's scripts and the app they start): $total B gzip ($js_verdict the 120 KB budget)."
  echo "- tef-local release binary: $(size "$stripped") stripped."
  echo "- Lambda functions, release build: start to first answer through the Runtime API, and size:"
  sed 's/^/  - /' target/lambda-start-release.txt
} | tee "$out"
echo "(written to $out)"
