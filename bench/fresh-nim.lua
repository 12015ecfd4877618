-- wrk script: Nim positions that are (nearly) all different, so the answer cache rarely
-- helps: the cost of computing answers under load.
--   wrk -t2 -c50 -d20s -s bench/fresh-nim.lua http://127.0.0.1:8080
local n = 0
request = function()
  n = n + 1
  local a, b, c = n % 13 + 1, math.floor(n / 13) % 17 + 1, math.floor(n / 221) % 19 + 1
  return wrk.format("GET", string.format("/api/v1/nim?position=%d+%d+%d", a, b, c))
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
