-- perfgate's wrk script: sends the scenario's method and body (headers come as -H flags),
-- and at the end writes what perfgate records to $PERFGATE_WRK_OUT: the summary, the
-- error counts, and every distinct response time in µs with its count, so that perfgate
-- builds its own histogram from them (wrk keeps each latency at µs resolution).
wrk.method = os.getenv("PERFGATE_WRK_METHOD") or "GET"
local body_file = os.getenv("PERFGATE_WRK_BODY_FILE")
if body_file and body_file ~= "" then
  local file = assert(io.open(body_file, "rb"))
  wrk.body = file:read("*a")
  file:close()
end

done = function(summary, latency, requests)
  local out = assert(io.open(os.getenv("PERFGATE_WRK_OUT"), "w"))
  local errors = summary.errors
  out:write(string.format("summary %d %d %d\n", summary.duration, summary.requests, summary.bytes))
  out:write(string.format("errors %d %d %d %d %d\n", errors.connect, errors.read, errors.write, errors.status, errors.timeout))
  for i = 1, #latency do
    local value, count = latency(i)
    out:write(string.format("latency %d %d\n", value, count))
  end
  out:close()
end
