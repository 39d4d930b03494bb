-- wrk script for bench:postgres: every request a new sale, as the
-- game's client sends it. Arguments after `--`: session tokens (comma separated), stakes
-- in cents (comma separated, taken in turn), and a number below 4096 that no other wrk
-- process of the benchmark run has (so that no two requests share a playId).
-- playIds are UUIDv7-shaped like the client's (src/client/net/playId.ts): 48 bits of
-- Unix milliseconds first, so that they sort by time; wrk's Lua has a clock in seconds
-- only, so the milliseconds are the second's, then the process's number, then a counter.

local tokens, stakes = {}, {}
local process_tag, counter = 0, 0

local function split(text)
  local out = {}
  for part in string.gmatch(text, '[^,]+') do out[#out + 1] = part end
  return out
end

function init(args)
  tokens = split(args[1])
  stakes = split(args[2])
  process_tag = tonumber(args[3])
end

local function play_id()
  local ms = os.time() * 1000
  counter = counter + 1
  -- 8-4-4-4-12 hex digits: milliseconds (32 + 16 bits), version 7 and the process tag,
  -- variant 10 and 14 bits of zeros, then the counter (16 zero bits + 32 bits)
  return string.format('%08x-%04x-7%03x-8000-0000%04x%04x', math.floor(ms / 65536), ms % 65536, process_tag,
    math.floor(counter / 65536) % 65536, counter % 65536)
end

function request()
  local n = counter
  local body = '{"stakeCents":' .. stakes[n % #stakes + 1] .. ',"playId":"' .. play_id() .. '"}'
  return wrk.format('POST', '/api/plays', {
    ['Authorization'] = 'Bearer ' .. tokens[n % #tokens + 1],
    ['Content-Type'] = 'application/json',
  }, body)
end
