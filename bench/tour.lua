-- wrk script: cycle through the tour's positions on the explorer's API and report p95.
--   wrk -t2 -c50 -d20s -s bench/tour.lua http://127.0.0.1:8080
local paths = {
  "/api/v1/nim?position=3+4+5",
  "/api/v1/tic-tac-toe",
  "/api/v1/coins?position=10+3+4",
  "/api/v1/stones?position=5+3+4+5",
  "/api/v1/octal?position=0.77+3+4+5",
  "/api/v1/can-i-win?position=10+11",
  "/api/v1/sum?position=0.77:10+grundy:12+squares:100+nim:5",
  "/api/v1/dodgem",
}
local i = 0
request = function()
  i = i + 1
  return wrk.format("GET", paths[(i % #paths) + 1])
end
local failures = 0
response = function(status, headers, body)
  if status ~= 200 then failures = failures + 1 end
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
