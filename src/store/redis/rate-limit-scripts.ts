import { luaScript } from './redis-script.ts';

/**
 * GCRA in Lua, the same arithmetic as src/store/memory/memory-rate-limiter.ts (Lua numbers are
 * the same IEEE doubles, so both give the same numbers). One "theoretical arrival time" (TAT,
 * in ms) per key. The clock is the Redis server's (TIME), so replicas whose clocks disagree
 * still share one bucket; ARGV[3] replaces it in tests only.
 *
 * Numbers go back as strings: Redis turns a Lua number into an integer reply, cutting off
 * the fractions of 60000 / limit. The TAT is stored with 17 digits, enough to read back the
 * exact double. A key expires when its TAT passes (an absent key is a full bucket), so idle
 * keys cost nothing.
 */
const PRELUDE = `
if redis.replicate_commands then redis.replicate_commands() end
local function num(x) return string.format('%.17g', x) end
local perMinute = tonumber(ARGV[1])
local t
if ARGV[3] == nil or ARGV[3] == '' then
  local now = redis.call('TIME')
  t = tonumber(now[1]) * 1000 + tonumber(now[2]) / 1000
else
  t = tonumber(ARGV[3])
end
local interval = 60000 / perMinute
local window = interval * perMinute
local stored = redis.call('GET', KEYS[1])
`;

/** KEYS[1] bucket; ARGV perMinute, cost, clock ('' = server). Returns {allowed, remaining, resetMs, retryAfterMs}. */
export const CONSUME = luaScript(`${PRELUDE}
local cost = tonumber(ARGV[2])
local tat = t
if stored then tat = math.max(tonumber(stored), t) end
local nxt = tat + interval * cost
local debt = nxt - t
if debt > window then
  return {0, '0', num(tat - t), num(debt - window)}
end
redis.call('SET', KEYS[1], num(nxt), 'PX', math.max(1, math.ceil(debt)))
return {1, num(math.floor((window - debt) / interval)), num(debt), '0'}
`);

/** KEYS[1] bucket; ARGV perMinute, unused, clock ('' = server). Takes nothing; same reply as CONSUME for a cost of 1. */
export const PEEK = luaScript(`${PRELUDE}
local debt = 0
if stored then debt = math.max(tonumber(stored) - t, 0) end
if debt + interval <= window then
  return {1, num(math.max(1, math.floor((window - debt) / interval))), num(debt), '0'}
end
return {0, '0', num(debt), num(debt + interval - window)}
`);
