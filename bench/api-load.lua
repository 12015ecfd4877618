-- wrk script for the explorer's API; prints the request count, errors and p50/p90/p95/p99.
--   wrk -t2 -c50 -d20s -s bench/api-load.lua http://127.0.0.1:8080 -- tour
--       the tour's 8 positions in turn (after the first of each, answered from the cache)
--   wrk -t2 -c50 -d20s -s bench/api-load.lua http://127.0.0.1:8080 -- fresh-nim
--       4,199 different Nim positions (heaps up to 13, 17, 19): the cost of computing answers
local tour = {
  "/api/v1/nim?position=3+4+5",
  "/api/v1/tic-tac-toe",
  "/api/v1/coins?position=10+3+4",
  "/api/v1/stones?position=5+3+4+5",
  "/api/v1/octal?position=0.77+3+4+5",
  "/api/v1/can-i-win?position=10+11",
  "/api/v1/sum?position=0.77:10+grundy:12+squares:100+nim:5",
  "/api/v1/dodgem",
}
local mode = "tour"
local n = 0

init = function(args)
  mode = args[1] or "tour"
end

request = function()
  n = n + 1
  if mode == "fresh-nim" then
    local a, b, c = n % 13 + 1, math.floor(n / 13) % 17 + 1, math.floor(n / 221) % 19 + 1
    return wrk.format("GET", string.format("/api/v1/nim?position=%d+%d+%d", a, b, c))
  end
  return wrk.format("GET", tour[(n % #tour) + 1])
end

done = function(summary, latency, requests)
  io.write(string.format("requests %d, errors (connect/read/write/timeout) %d/%d/%d/%d, non-200 %d\n",
    summary.requests, summary.errors.connect, summary.errors.read, summary.errors.write,
    summary.errors.timeout, summary.errors.status))
  for _, p in ipairs({50, 90, 95, 99}) do
    io.write(string.format("p%d %.2f ms\n", p, latency:percentile(p) / 1000))
  end
  io.write(string.format("max %.2f ms, requests/s %.0f\n", latency.max / 1000,
    summary.requests / (summary.duration / 1e6)))
end
