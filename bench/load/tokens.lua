-- wrk: each request uses the next signed-in user's token (users.txt: one token per line),
-- so per-user rate limits measure the server, not one user's quota.
-- Set wrk.method / wrk.body / path in the calling script before `request`.
local tokens = {}
local n = 0

local function load_tokens()
  for line in io.lines(os.getenv("BENCH_TOKENS")) do
    n = n + 1
    tokens[n] = line
  end
end
load_tokens()

local i = math.random(n)
local counter = 0
local body = os.getenv("BENCH_BODY") or ""
local method = os.getenv("BENCH_METHOD") or "GET"

request = function()
  i = i % n + 1
  counter = counter + 1
  local b = body:gsub("{{id}}", string.format("bench-%d-%d-%d", i, counter, math.random(1e9)))
  return wrk.format(method, nil, {
    ["Authorization"] = "Bearer " .. tokens[i],
    ["Content-Type"] = "application/json",
  }, b ~= "" and b or nil)
end

-- One line wrk's output can be parsed from: requests, non-2xx responses, socket errors.
done = function(summary, latency, requests)
  local errors = summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout
  io.write(string.format("BENCH requests=%d non2xx=%d socket_errors=%d rps=%.0f p50_ms=%.2f p99_ms=%.2f\n",
    summary.requests, summary.errors.status, errors, summary.requests / (summary.duration / 1e6),
    latency:percentile(50) / 1000, latency:percentile(99) / 1000))
end
