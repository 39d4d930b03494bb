-- wrk script for the control of bench:wallet --machines: bets sent straight to the reference
-- wallet, signed as the game signs them (contract version 2: HMAC-SHA256 of "/bet\n" ..
-- timestamp .. "\n" .. raw body under the shared secret, 64 lowercase hex digits in
-- X-Spincake-Signature, the unix time in X-Spincake-Timestamp, src/walletApi/signature.ts), each a new bet:
-- its own requestId and roundId. The HMAC comes from the libcrypto that wrk itself links (for
-- TLS), through LuaJIT's FFI. Arguments after `--`: the secret, the player, the amount in cents,
-- and a number below 4096 that no other wrk process of the benchmark run has (so that no two
-- bets share a requestId: a repeated one would be answered from the wallet's idempotency record).

local ffi = require('ffi')
ffi.cdef([[
const void *EVP_sha256(void);
unsigned char *HMAC(const void *evp_md, const void *key, int key_len, const unsigned char *data, size_t data_len,
                    unsigned char *md, unsigned int *md_len);
]])

local secret, player, amount
local process_tag, counter = 0, 0
local digest = ffi.new('unsigned char[32]')
local digest_length = ffi.new('unsigned int[1]')
local HEX = {}
for byte = 0, 255 do HEX[byte] = string.format('%02x', byte) end

local function hmac_sha256_hex(message)
  if ffi.C.HMAC(ffi.C.EVP_sha256(), secret, #secret, message, #message, digest, digest_length) == nil then
    error('HMAC failed')
  end
  local hex = {}
  for i = 0, 31 do hex[i + 1] = HEX[digest[i]] end
  return table.concat(hex)
end

function init(args)
  secret, player, amount, process_tag = args[1], args[2], tonumber(args[3]), tonumber(args[4])
  if not (secret and player and amount and process_tag) then
    error('bets.lua takes: secret player amountCents processTag')
  end
  -- Fails here, before any request, where this wrk does not link libcrypto.
  local ok, problem = pcall(hmac_sha256_hex, 'check')
  if not ok then error('bets.lua needs libcrypto in wrk (HMAC through the FFI): ' .. tostring(problem)) end
end

function request()
  counter = counter + 1
  local id = string.format('bench-%d-%d', process_tag, counter)
  local body = '{"requestId":"bet-' .. id .. '","playerId":"' .. player .. '","roundId":"round-' .. id ..
    '","amountCents":' .. amount .. ',"currency":"EUR"}'
  local timestamp = tostring(os.time())
  return wrk.format('POST', '/bet', {
    ['Content-Type'] = 'application/json',
    ['X-Spincake-Timestamp'] = timestamp,
    ['X-Spincake-Signature'] = hmac_sha256_hex('/bet\n' .. timestamp .. '\n' .. body),
  }, body)
end
