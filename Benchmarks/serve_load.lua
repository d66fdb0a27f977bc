-- wrk script for Benchmarks/serve_vs_thumbor.py: the requests of one scenario, and one line of
-- figures at the end.
--
-- wrk ... -s serve_load.lua URL -- MODE ARGS...
--   kf PATH_PREFIX SOURCE_PREFIX THREADS       every request a new source URL SOURCE_PREFIX<n>.jpg,
--                                              sent as PATH_PREFIX<base64url of it>.jpg (kf serve)
--   thumbor PATH_PREFIX SOURCE_PREFIX THREADS  the same sources, sent as PATH_PREFIX<source>
--   fixed PATH                                 the same path every time
--
-- Each thread walks its own numbers (thread i of THREADS sends i, i + THREADS, ...), so no URL
-- repeats within a run; SOURCE_PREFIX carries a per-run tag so none repeats across runs either.
-- done() prints `KFBENCH {json}`: requests, duration, errors and latency percentiles in µs.

local threads = 0

function setup(thread)
   thread:set("thread_index", threads)
   threads = threads + 1
end

local alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

-- base64url without padding; arithmetic only (no bit library needed).
local function base64url(text)
   local out = {}
   for i = 1, #text, 3 do
      local a, b, c = text:byte(i, i + 2)
      local n = a * 65536 + (b or 0) * 256 + (c or 0)
      local count = 2 + (b and 1 or 0) + (c and 1 or 0)
      for j = 0, count - 1 do
         local index = math.floor(n / 2 ^ (18 - 6 * j)) % 64
         out[#out + 1] = alphabet:sub(index + 1, index + 1)
      end
   end
   return table.concat(out)
end

local mode, path_prefix, source_prefix, fixed_request
local next_number, step

function init(args)
   mode = args[1]
   next_number = thread_index or 0
   if mode == "fixed" then
      fixed_request = wrk.format("GET", args[2])
   elseif mode == "kf" or mode == "thumbor" then
      path_prefix, source_prefix = args[2], args[3]
      step = tonumber(args[4])
   else
      error("serve_load.lua: unknown mode " .. tostring(mode))
   end
end

function request()
   if fixed_request then
      return fixed_request
   end
   local source = source_prefix .. next_number .. ".jpg"
   next_number = next_number + step
   if mode == "kf" then
      return wrk.format("GET", path_prefix .. base64url(source) .. ".jpg")
   end
   return wrk.format("GET", path_prefix .. source)
end

function done(summary, latency, requests)
   local e = summary.errors
   io.write(string.format(
      'KFBENCH {"requests": %d, "duration_us": %d, "connect": %d, "read": %d, "write": %d, "status": %d, '
         .. '"timeout": %d, "p50_us": %d, "p90_us": %d, "p99_us": %d, "max_us": %d, "mean_us": %.1f}\n',
      summary.requests, summary.duration, e.connect, e.read, e.write, e.status, e.timeout,
      latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max, latency.mean))
end
