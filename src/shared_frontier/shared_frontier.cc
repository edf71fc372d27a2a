#include "shared_frontier/shared_frontier.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>
#include <variant>

namespace cronista::shared_frontier {
namespace {

// Every script takes the key prefix as ARGV[1] and reads the server's clock
// itself, so workers on several machines agree on time.
constexpr const char* kNow = R"lua(
local function now_ms()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
)lua";

// Whether any worker of the crawl, alive or not yet reaped, has a URL in flight.
constexpr const char* kAnyInflight = R"lua(
local function any_inflight(p)
  for _, w in ipairs(redis.call('ZRANGE', p .. 'workers', 0, -1)) do
    if redis.call('EXISTS', p .. 'inflight:' .. w) == 1 then return true end
  end
  return false
end
)lua";

// The index of the new-URL queues that the free-slot rule reads (claim):
// 'qbest', each host with a queue by its best score, and 'qprio', how many
// URLs are queued at each priority (a score's priority is its multiple of
// 2^32). Every script that changes a queue keeps both.
constexpr const char* kQueueIndex = R"lua(
local function priority_of(score) return math.floor(tonumber(score) / 4294967296) end
local function count_priority(p, score, delta)
  local prio = tostring(priority_of(score))
  if redis.call('HINCRBY', p .. 'qprio', prio, delta) <= 0 then redis.call('HDEL', p .. 'qprio', prio) end
end
-- A URL joined host's queue (or moved up in it) with `score`.
local function indexed(p, host, score)
  redis.call('ZADD', p .. 'qbest', 'LT', score, host)
end
-- A URL left host's queue: its best is the next one, if any.
local function unindexed(p, host)
  local top = redis.call('ZRANGE', p .. 'q:' .. host, 0, 0, 'WITHSCORES')
  if #top > 0 then redis.call('ZADD', p .. 'qbest', top[2], host) else redis.call('ZREM', p .. 'qbest', host) end
end
)lua";

// Returns a worker's in-flight URL to its host's queue with its score, and
// the page to the budget; a revisit (a URL with a copy in 'copy') goes back
// to its host's revisits, due now, and costs the budget nothing. `v` is the
// in-flight value "HOST\tSCORE".
constexpr const char* kRequeue = R"lua(
local function requeue(p, worker, url, v)
  local tab = string.find(v, '\t', 1, true)
  local host, score = string.sub(v, 1, tab - 1), string.sub(v, tab + 1)
  if redis.call('HEXISTS', p .. 'copy', url) == 1 then
    local t = redis.call('TIME')
    redis.call('ZADD', p .. 'r:' .. host, tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000), url)
  else
    redis.call('ZADD', p .. 'q:' .. host, score, url)
    count_priority(p, score, 1)
    indexed(p, host, score)
    redis.call('SADD', p .. 'qhosts', host)
    if redis.call('EXISTS', p .. 'budget') == 1 then redis.call('INCR', p .. 'budget') end
  end
  redis.call('ZADD', p .. 'hosts', 'NX', 0, host)
  redis.call('HDEL', p .. 'inflight:' .. worker, url)
  return host
end
)lua";

// One of this worker's URLs of `host` is released (its transfer ended, or
// it went back unfetched). The holder counts its URLs of the host claimed
// and not released ('conns:HOST'); the lease ends with the last of them.
// Returns whether the host is free of this worker now (true as well when
// the lease is not this worker's: it ended, or another worker holds it).
constexpr const char* kReleaseHost = R"lua(
local function release_host(p, worker, host)
  if redis.call('GET', p .. 'lease:' .. host) ~= worker then return true end
  if tonumber(redis.call('GET', p .. 'conns:' .. host) or '1') > 1 then
    redis.call('DECR', p .. 'conns:' .. host)
    return false
  end
  redis.call('DEL', p .. 'lease:' .. host, p .. 'conns:' .. host)
  redis.call('SREM', p .. 'holds:' .. worker, host)
  return true
end
)lua";

// ARGV: prefix, n, then n × (url, host, address, priority, backlinks, order,
// penalty). Returns {added, {i for each URL i (from 1) never seen
// before}}. A queued URL absent from 'links' has one link (most have),
// so that only the others cost memory. A host with a queued URL is in
// 'qhosts'. A new URL's score is its priority times 2^32 plus its place:
// the next of 'seq', or the order given (a redirect target's, its source's
// place). A URL seen and queued keeps its place and moves up to a better
// priority: the one offered, or, with a penalty >= 0 (a crawler's link
// priority, crawler::priority_for), floor(100 / (links + 1)) for its links
// counted with this offer's, plus the lower of this link's penalty and the
// lowest before (its queued priority less what its links before gave), as
// a lone crawl's frontier ranks it. Priority -1 (a URL a hub announced)
// is kept, not recomputed.
constexpr const char* kAdd = R"lua(
local p = ARGV[1]
local added = 0
local fresh = {}
local function by_links(n) return math.floor(100 / (n + 1)) end
for i = 0, tonumber(ARGV[2]) - 1 do
  local url, host, addr = ARGV[3 + i * 7], ARGV[4 + i * 7], ARGV[5 + i * 7]
  local prio, links, order = tonumber(ARGV[6 + i * 7]), tonumber(ARGV[7 + i * 7]), tonumber(ARGV[8 + i * 7])
  local penalty = tonumber(ARGV[9 + i * 7])
  local q = p .. 'q:' .. host
  if redis.call('SADD', p .. 'seen', url) == 1 then
    local s = order
    if s <= 0 then s = redis.call('INCR', p .. 'seq') end
    redis.call('ZADD', q, prio * 4294967296 + s, url)
    count_priority(p, prio * 4294967296, 1)
    indexed(p, host, prio * 4294967296 + s)
    redis.call('SADD', p .. 'qhosts', host)
    if addr ~= '' then redis.call('HSET', p .. 'host_addr', host, addr) end
    if links ~= 1 then redis.call('HSET', p .. 'links', url, links) end
    redis.call('ZADD', p .. 'hosts', 'NX', 0, host)
    added = added + 1
    fresh[#fresh + 1] = i + 1
  else
    local cur = redis.call('ZSCORE', q, url)
    if cur then
      cur = tonumber(cur)
      local had = tonumber(redis.call('HGET', p .. 'links', url) or '1')
      local total = had + links
      local cur_prio = math.floor(cur / 4294967296)
      if penalty >= 0 and prio >= 0 and cur_prio >= 0 then
        prio = by_links(total) + math.max(0, math.min(penalty, cur_prio - by_links(had)))
      end
      local score = prio * 4294967296 + (cur % 4294967296)
      if score < cur then
        redis.call('ZADD', q, score, url)
        count_priority(p, cur, -1)
        count_priority(p, score, 1)
        indexed(p, host, score)
      end
      if links > 0 then redis.call('HSET', p .. 'links', url, total) end
    end
  end
end
return {added, fresh}
)lua";

// ARGV: prefix, worker, lease_ms, scan, address_gap_ms, n, held,
// new_share, host_connections, slack, lookahead_ms, band, learnt, spare. Claims up to n URLs, best first: the same
// as n claims of one in a row. The candidates are the hosts this worker
// holds with room (fewer than host_connections of their URLs claimed and
// not released: 'conns:HOST') and the ready hosts no one holds; a URL
// claimed of a free host leases it to this worker. Guarantee: a host is
// held by one worker at a time, with at most host_connections of its URLs
// between claim and release (release_host), and no host is leased before
// its gap after the last release has passed ('hosts'). A worker holding
// `held` hosts leases new ones only up to its share of the hosts with
// queues (their number over the workers seen within a lease), so that one
// worker releasing and claiming in one round trip does not keep every host
// from the others; more URLs of the hosts it holds do not count against
// it. With an address gap, a claimed host's address is busy until the host
// is released (or its lease ends), so that hosts on one address are
// fetched one at a time (and one claim leases one host of an address).
//
// The free-slot rule of a lone temporal crawl (crawl.h), with slack >= 0:
// a ready host's best new URL waits while a URL better by more than the
// slack is queued on a host that is leased (being fetched) or ready within
// lookahead_ms ('qbest' gives them best first; the first 64 are looked at),
// unless it is worth a page of the budget: with no budget always; else when
// it ranks among the best queued URLs that the pages left would reach
// ('qprio'), or when the crawl's estimate for its band of priorities is at
// least that of the last URL the budget reaches. The estimate is the
// relevant share of the pages fetched through links of the band, over all
// workers, with one relevant and one irrelevant page assumed: each claim
// stores the claiming worker's counts (`learnt`: "fetched:relevant" per
// band of `band` priorities from priority 0, comma-separated) in
// 'yield:WORKER' and the claim sums those of every worker in 'yielders'.
// A slack of -1 serves every ready host (the general crawl) and reads or
// stores no counts. A crawl queued by a version without the index holds
// nothing back.
//
// Revisits: the URLs of 'due' whose time has come join their host's
// revisits (r:HOST, by due time). New URLs and revisits share one budget
// as in a lone crawl (revisit_schedule.h): the earliest due revisit goes
// first, but while a new URL is ready every revisit claimed owes new URLs
// `new_share` of a claim ('owed', kept across calls and workers), and once
// a whole claim is owed the next goes to the best new URL. A revisit costs
// no page of the budget, and is claimed when the budget is spent.
//
// Returns {'url', now, then url, host, score, and '' for a new URL or 'r'
// and its copy for a revisit, for each claim, then the time the next host
// not ready now will be, if any} | {'budget'} | {'empty'} | {'wait', next_ms, now}. 'empty'
// (no host has a queue, no revisit is scheduled) and 'budget' (no page
// left, no revisit scheduled) only when no worker has a URL in flight:
// 'wait' while any has, since its page may still bring links, give its
// page of the budget back or be scheduled for a revisit.
constexpr const char* kClaim = R"lua(
local p, worker = ARGV[1], ARGV[2]
local lease, scan = tonumber(ARGV[3]), tonumber(ARGV[4])
local address_gap, want, held = tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[7])
local new_share, conns = tonumber(ARGV[8]), tonumber(ARGV[9])
local slack, lookahead = tonumber(ARGV[10] or '-1'), tonumber(ARGV[11] or '0')
local band, learnt = math.max(1, tonumber(ARGV[12] or '10')), ARGV[13] or ''
local spare = ARGV[14] == '1'
local now = now_ms()
-- Whether no one holds `host` and its address is not busy; and its address.
local function unheld(host)
  if redis.call('EXISTS', p .. 'lease:' .. host) == 1 then return false end
  local addr = redis.call('HGET', p .. 'host_addr', host)
  local at = addr and redis.call('GET', p .. 'addr:' .. addr)
  return not (at and tonumber(at) > now), addr
end
-- Leases a host no one holds to this worker with one URL claimed (and its
-- address, with an address gap, until the host is released).
local function lease_host(host, addr)
  if addr and address_gap > 0 then redis.call('SET', p .. 'addr:' .. addr, now + lease, 'PX', lease) end
  redis.call('SET', p .. 'lease:' .. host, worker, 'PX', lease)
  redis.call('SET', p .. 'conns:' .. host, 1, 'PX', lease)
  redis.call('DEL', p .. 'contacted:' .. host)
  redis.call('SADD', p .. 'holds:' .. worker, host)
  redis.call('ZADD', p .. 'hosts', now + lease, host)
end
-- A worker's share of the hosts: theirs over the workers seen within a lease.
local function host_share()
  local active = redis.call('ZCOUNT', p .. 'workers', now - lease, '+inf')
  return math.ceil(redis.call('ZCARD', p .. 'hosts') / math.max(active, 1))
end
-- A spare slot (`spare`: the worker has nothing else to send): the
-- scheduled revisit due earliest whose 'spare_from' time has passed (half
-- its interval after its last visit; never for a hub only), ahead of its
-- time, of a host no one
-- holds whose gaps have passed (the first 64 due are looked at), as a lone
-- crawl fills a budget slot that nothing due takes. Only for a worker that
-- holds fewer hosts than its share of them (or none).
local function spare_revisit()
  if not spare then return nil end
  if held > 0 and held >= host_share() then return nil end
  for _, url in ipairs(redis.call('ZRANGE', p .. 'due', 0, 63)) do
    local from = tonumber(redis.call('HGET', p .. 'spare_from', url) or '0')
    local host = from <= now and redis.call('HGET', p .. 'due_host', url)
    local free, addr = false, nil
    if host then free, addr = unheld(host) end
    local at = free and redis.call('ZSCORE', p .. 'hosts', host)
    if free and (not at or tonumber(at) <= now) then
      redis.call('ZREM', p .. 'due', url)
      redis.call('HDEL', p .. 'due_host', url)
      lease_host(host, addr)
      redis.call('HSET', p .. 'inflight:' .. worker, url, host .. '\t' .. now)
      return {'url', tostring(now), url, host, tostring(now), 'r' .. (redis.call('HGET', p .. 'copy', url) or '')}
    end
  end
  return nil
end
redis.call('ZADD', p .. 'workers', now, worker)
local due = redis.call('ZRANGEBYSCORE', p .. 'due', '-inf', now, 'WITHSCORES', 'LIMIT', 0, 256)
for i = 1, #due, 2 do
  local url = due[i]
  local host = redis.call('HGET', p .. 'due_host', url)
  redis.call('ZREM', p .. 'due', url)
  redis.call('HDEL', p .. 'due_host', url)
  if host then
    redis.call('ZADD', p .. 'r:' .. host, due[i + 1], url)
    redis.call('ZADD', p .. 'hosts', 'NX', 0, host)
  end
end
-- Nothing left to hand out: a wait while anything may still come (a URL
-- in flight, a revisit scheduled), else `why`.
local function nothing(why)
  if any_inflight(p) then return {'wait', tostring(now + 20), tostring(now)} end
  local first_due = redis.call('ZRANGE', p .. 'due', 0, 0, 'WITHSCORES')
  if #first_due > 0 then return {'wait', tostring(math.max(tonumber(first_due[2]), now + 1)), tostring(now)} end
  return {why}
end
local budget = redis.call('GET', p .. 'budget')
local left = budget and tonumber(budget)
local spent = left and left <= 0
-- Spent, unless a claim in flight may still give its page back (an error,
-- a redirect, or a dead worker's URL returning when it is reaped) or
-- revisits are kept.
if spent and redis.call('EXISTS', p .. 'copy') == 0 then return nothing('budget') end
-- A host's best new URL's score and earliest revisit's (false: none).
local function tops(host)
  local top = redis.call('ZRANGE', p .. 'q:' .. host, 0, 0, 'WITHSCORES')
  local rtop = redis.call('ZRANGE', p .. 'r:' .. host, 0, 0, 'WITHSCORES')
  return #top > 0 and tonumber(top[2]), #rtop > 0 and tonumber(rtop[2])
end
-- {host, address or false, best new URL's score or false, earliest
-- revisit's or false, room (URLs it may still give), held by this worker}
local ready = {}
if conns > 1 then
  for _, host in ipairs(redis.call('SMEMBERS', p .. 'holds:' .. worker)) do
    if redis.call('GET', p .. 'lease:' .. host) == worker then
      local room = conns - tonumber(redis.call('GET', p .. 'conns:' .. host) or '0')
      if room > 0 then
        local new, rev = tops(host)
        if new or rev then ready[#ready + 1] = {host, false, new, rev, room, true} end
      end
    else
      redis.call('SREM', p .. 'holds:' .. worker, host)
    end
  end
end
for _, host in ipairs(redis.call('ZRANGEBYSCORE', p .. 'hosts', '-inf', now, 'LIMIT', 0, scan)) do
  local free, addr = unheld(host)
  if free then
    local new, rev = tops(host)
    if not new then
      redis.call('SREM', p .. 'qhosts', host)
      redis.call('ZREM', p .. 'qbest', host)
    end
    if not new and not rev then
      redis.call('ZREM', p .. 'hosts', host)
    else
      ready[#ready + 1] = {host, addr, new, rev, conns, false}
    end
  end
end
if #ready == 0 then
  local early = spare_revisit()
  if early then return early end
  local first = redis.call('ZRANGE', p .. 'hosts', 0, 0, 'WITHSCORES')
  if #first == 0 then return nothing(spent and 'budget' or 'empty') end
  return {'wait', tostring(math.max(tonumber(first[2]), now + 1)), tostring(now)}
end
-- The hosts it may lease now.
local fresh = host_share() - held
-- The free-slot rule: new URLs of a priority above hold_above wait, unless worth a slot.
local hold_above
if slack >= 0 and not (left and left <= 0) then
  local best = redis.call('ZRANGE', p .. 'qbest', 0, 63, 'WITHSCORES')
  for i = 1, #best, 2 do
    local at = redis.call('ZSCORE', p .. 'hosts', best[i])
    if redis.call('EXISTS', p .. 'lease:' .. best[i]) == 1 or (at and tonumber(at) <= now + lookahead) then
      hold_above = priority_of(best[i + 1]) + slack
      break
    end
  end
end
local marginal, marginal_known = nil, false
local function marginal_priority()  -- the priority of the last queued URL the pages left reach (nil: all)
  if not marginal_known then
    marginal_known = true
    local counts = redis.call('HGETALL', p .. 'qprio')
    local prios = {}
    for i = 1, #counts, 2 do prios[#prios + 1] = {tonumber(counts[i]), tonumber(counts[i + 1])} end
    table.sort(prios, function(a, b) return a[1] < b[1] end)
    local seen = 0
    for _, pc in ipairs(prios) do
      seen = seen + pc[2]
      if seen >= left then
        marginal = pc[1]
        break
      end
    end
  end
  return marginal
end
if slack >= 0 and learnt ~= '' then
  local fields, i = {}, 0
  for counts in string.gmatch(learnt, '[^,]+') do
    fields[#fields + 1] = tostring(i)
    fields[#fields + 1] = counts
    i = i + 1
  end
  redis.call('HSET', p .. 'yield:' .. worker, unpack(fields))
  redis.call('SADD', p .. 'yielders', worker)
end
local sums  -- band → {fetched, relevant} over all workers
local function estimate(prio)
  if not sums then
    sums = {}
    for _, w in ipairs(redis.call('SMEMBERS', p .. 'yielders')) do
      local h = redis.call('HGETALL', p .. 'yield:' .. w)
      for i = 1, #h, 2 do
        local f, r = string.match(h[i + 1], '(%d+):(%d+)')
        local b = tonumber(h[i])
        local s = sums[b] or {0, 0}
        sums[b] = {s[1] + tonumber(f or '0'), s[2] + tonumber(r or '0')}
      end
    end
  end
  local s = sums[math.floor(math.max(0, prio) / band)] or {0, 0}
  return (s[2] + 1) / (s[1] + 2)
end
local function holds(score)
  if not hold_above then return false end
  local prio = priority_of(score)
  if prio <= hold_above or not left then return false end
  local m = marginal_priority()
  if not m or prio <= m then return false end
  return estimate(prio) < estimate(m)
end
-- A ready host's best new URL that waits is no candidate.
local function hold(r)
  if r[3] and holds(r[3]) then r[3] = false end
end
for _, r in ipairs(ready) do hold(r) end
local owed = tonumber(redis.call('GET', p .. 'owed') or '0')
local out = {'url', tostring(now)}
local busy = {}  -- addresses leased by this call
local claimed = 0
while claimed < want do
  -- The best new URL (while the budget lasts) and the earliest revisit.
  local best_new, best_due
  for i, r in ipairs(ready) do
    if r[5] > 0 and (r[6] or (fresh > 0 and not (r[2] and address_gap > 0 and busy[r[2]]))) then
      if r[3] and not (left and left <= 0) and (not best_new or r[3] < ready[best_new][3]) then best_new = i end
      if r[4] and (not best_due or r[4] < ready[best_due][4]) then best_due = i end
    end
  end
  local i, revisit = best_new, false
  if best_due and not (best_new and owed + new_share >= 1) then i, revisit = best_due, true end
  if not i then break end
  local r = ready[i]
  local host, addr = r[1], r[2]
  local top
  if revisit then
    top = redis.call('ZPOPMIN', p .. 'r:' .. host)
    if best_new then owed = owed + new_share end
  else
    top = redis.call('ZPOPMIN', p .. 'q:' .. host)
    count_priority(p, top[2], -1)
    unindexed(p, host)
    if redis.call('EXISTS', p .. 'q:' .. host) == 0 then redis.call('SREM', p .. 'qhosts', host) end
    if redis.call('INCR', p .. 'new_claims') == 1 then redis.call('SET', p .. 'first_claim', now) end
    redis.call('HDEL', p .. 'links', top[1])
    owed = math.max(0, owed + new_share - 1)
    if left then
      redis.call('DECR', p .. 'budget')
      left = left - 1
    end
  end
  if r[6] then
    redis.call('INCR', p .. 'conns:' .. host)
    redis.call('PEXPIRE', p .. 'conns:' .. host, lease)
    redis.call('PEXPIRE', p .. 'lease:' .. host, lease)
  else
    r[6] = true
    fresh = fresh - 1
    if addr and address_gap > 0 then busy[addr] = true end
    lease_host(host, addr)
  end
  r[5] = r[5] - 1
  if r[5] > 0 then
    r[3], r[4] = tops(host)
    hold(r)
  end
  redis.call('HSET', p .. 'inflight:' .. worker, top[1], host .. '\t' .. top[2])
  out[#out + 1] = top[1]
  out[#out + 1] = host
  out[#out + 1] = top[2]
  out[#out + 1] = revisit and ('r' .. (redis.call('HGET', p .. 'copy', top[1]) or '')) or ''
  claimed = claimed + 1
end
redis.call('SET', p .. 'owed', tostring(owed))
-- Nothing for this worker now: it holds its share of the hosts and has no
-- room on them, or the budget is spent and no ready host has a revisit
-- due (one may come), or better URLs are on hosts soon ready.
if claimed == 0 then return spare_revisit() or {'wait', tostring(now + 20), tostring(now)} end
-- Last, when the next host not ready now will be (none: no element), so
-- that a worker that took every ready host asks again then.
local soon = redis.call('ZRANGEBYSCORE', p .. 'hosts', '(' .. now, '+inf', 'WITHSCORES', 'LIMIT', 0, 1)
if #soon > 0 then out[#out + 1] = soon[2] end
return out
)lua";

// ARGV: prefix, worker, host, url, host_gap_ms, address_gap_ms, refund
// ('1': the claim downloaded nothing, its page returns to the budget).
// Returns now.
constexpr const char* kComplete = R"lua(
local p, worker, host, url = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local now = now_ms()
redis.call('HDEL', p .. 'inflight:' .. worker, url)
if release_host(p, worker, host) then
  redis.call('ZADD', p .. 'hosts', now + tonumber(ARGV[5]), host)
  local addr = redis.call('HGET', p .. 'host_addr', host)
  if addr and tonumber(ARGV[6]) > 0 then redis.call('SET', p .. 'addr:' .. addr, now + tonumber(ARGV[6])) end
end
if redis.call('HEXISTS', p .. 'copy', url) == 1 then
  -- A revisit whose next due time was not told: due again now.
  redis.call('ZADD', p .. 'r:' .. host, now, url)
elseif ARGV[7] == '1' then
  if redis.call('EXISTS', p .. 'budget') == 1 then redis.call('INCR', p .. 'budget') end
else
  redis.call('INCR', p .. 'done')
end
redis.call('ZADD', p .. 'workers', now, worker)
return now
)lua";

// ARGV: prefix, worker, host_gap_ms, address_gap_ms, then for each URL
// released: host, address ('' if unknown), contacted ('1': its transfer
// ended; '0': no request went to the host). The host's address is
// recorded; one of this worker's URLs of the host is released
// (release_host): with the last, the lease ends and the host (and its
// address) is ready again after its gaps from now, or at once when no URL
// of the lease made a request ('contacted:HOST' records that one did):
// its gaps had passed when it was leased, and a URL robots.txt forbids
// costs no more than in a lone crawl. The URL stays in flight. Returns now.
constexpr const char* kRelease = R"lua(
local p, worker = ARGV[1], ARGV[2]
local host_gap, gap = tonumber(ARGV[3]), tonumber(ARGV[4])
local now = now_ms()
for i = 5, #ARGV - 2, 3 do
  local host, contacted = ARGV[i], ARGV[i + 2] == '1'
  if ARGV[i + 1] ~= '' then redis.call('HSET', p .. 'host_addr', host, ARGV[i + 1]) end
  local mine = redis.call('GET', p .. 'lease:' .. host) == worker
  if contacted and mine then redis.call('SET', p .. 'contacted:' .. host, 1, 'PX', math.max(1, redis.call('PTTL', p .. 'lease:' .. host))) end
  if release_host(p, worker, host) then
    local addr = redis.call('HGET', p .. 'host_addr', host)
    if contacted or not mine or redis.call('EXISTS', p .. 'contacted:' .. host) == 1 then
      redis.call('ZADD', p .. 'hosts', now + host_gap, host)
      if addr and gap > 0 then redis.call('SET', p .. 'addr:' .. addr, now + gap, 'PX', gap + 1000) end
    else
      redis.call('ZADD', p .. 'hosts', now, host)
      if addr and gap > 0 then redis.call('DEL', p .. 'addr:' .. addr) end
    end
    redis.call('DEL', p .. 'contacted:' .. host)
  end
end
return now
)lua";

// ARGV: prefix, worker, then for each URL: url, refund, host, due_ms, copy,
// spare_from (ms: no spare slot takes it ahead of its time before; '0': any time). The URL leaves
// this worker's in-flight set for good (its page is stored), counted done
// or its page returned to the budget; a revisit (a URL with a copy already)
// costs the budget nothing. With due_ms ('' for none), the URL's copy is
// kept and it falls due for a revisit at due_ms, by any worker: both in one
// step with the settling, so that a worker killed at any moment leaves the
// URL in flight (returned when it is reaped) or scheduled, never lost.
// A URL no longer in flight is left alone. Returns how many were still in flight.
constexpr const char* kSettle = R"lua(
local p, worker = ARGV[1], ARGV[2]
local n = 0
for i = 3, #ARGV - 5, 6 do
  local url = ARGV[i]
  if redis.call('HDEL', p .. 'inflight:' .. worker, url) == 1 then
    n = n + 1
    if redis.call('HEXISTS', p .. 'copy', url) == 0 then
      if ARGV[i + 1] == '1' then
        if redis.call('EXISTS', p .. 'budget') == 1 then redis.call('INCR', p .. 'budget') end
      else
        redis.call('INCR', p .. 'done')
      end
    end
    if ARGV[i + 3] ~= '' then
      redis.call('HSET', p .. 'copy', url, ARGV[i + 4])
      redis.call('ZADD', p .. 'due', ARGV[i + 3], url)
      redis.call('HSET', p .. 'due_host', url, ARGV[i + 2])
    end
    if ARGV[i + 3] ~= '' and ARGV[i + 5] ~= '0' then
      redis.call('HSET', p .. 'spare_from', url, ARGV[i + 5])
    else
      redis.call('HDEL', p .. 'spare_from', url)
    end
  end
end
return n
)lua";

// ARGV: prefix, url, host, due_ms, copy, spare_from. The URL's copy is kept and it
// falls due at due_ms (a URL not in flight).
constexpr const char* kSchedule = R"lua(
local p, url = ARGV[1], ARGV[2]
redis.call('HSET', p .. 'copy', url, ARGV[5])
redis.call('ZADD', p .. 'due', ARGV[4], url)
redis.call('HSET', p .. 'due_host', url, ARGV[3])
if ARGV[6] ~= '0' then redis.call('HSET', p .. 'spare_from', url, ARGV[6]) else redis.call('HDEL', p .. 'spare_from', url) end
return 1
)lua";

// Puts a worker's in-flight URLs (all, or those of one URL) back in their
// queues and the budget back. ARGV: prefix, worker, url or ''.
constexpr const char* kGiveBack = R"lua(
local p, worker, only = ARGV[1], ARGV[2], ARGV[3]
local inflight = p .. 'inflight:' .. worker
local entries = redis.call('HGETALL', inflight)
local n = 0
for i = 1, #entries, 2 do
  local url, v = entries[i], entries[i + 1]
  if only == '' or only == url then
    local host = requeue(p, worker, url, v)
    if redis.call('GET', p .. 'lease:' .. host) == worker and release_host(p, worker, host) then
      redis.call('ZADD', p .. 'hosts', 0, host)
    end
    n = n + 1
  end
end
return n
)lua";

// ARGV: prefix, worker, dead_after_ms. Heartbeat, then the dead workers'
// in-flight URLs return (as kGiveBack for each dead worker).
constexpr const char* kReap = R"lua(
local p, me, dead_after = ARGV[1], ARGV[2], tonumber(ARGV[3])
local now = now_ms()
redis.call('ZADD', p .. 'workers', now, me)
local n = 0
for _, w in ipairs(redis.call('ZRANGEBYSCORE', p .. 'workers', '-inf', now - dead_after)) do
  local inflight = p .. 'inflight:' .. w
  local entries = redis.call('HGETALL', inflight)
  for i = 1, #entries, 2 do
    requeue(p, w, entries[i], entries[i + 1])
    n = n + 1
  end
  redis.call('DEL', p .. 'holds:' .. w)
  redis.call('ZREM', p .. 'workers', w)
end
return n
)lua";

// ARGV: prefix, n, then n × (url, from_ms, to_ms). Each URL's revisit
// falls due at to_ms instead, only while it is still scheduled at from_ms:
// a revisit made since by any worker (a new due time), fallen due or in
// flight is left alone, so that only the worker whose visit set a due time
// moves it. Returns the indices (from 1) of the URLs moved.
constexpr const char* kMove = R"lua(
local p = ARGV[1]
local moved = {}
for i = 0, tonumber(ARGV[2]) - 1 do
  local url = ARGV[3 + i * 3]
  local at = redis.call('ZSCORE', p .. 'due', url)
  if at and tonumber(at) == tonumber(ARGV[4 + i * 3]) then
    redis.call('ZADD', p .. 'due', 'XX', ARGV[5 + i * 3], url)
    moved[#moved + 1] = i + 1
  end
end
return moved
)lua";

// ARGV: prefix, worker, lease_ms. What a worker's revisit schedule needs
// of the whole crawl, read in one step: the workers alive (seen within a
// lease; this one counts), the new URLs claimed so far ('new_claims') and
// when the first was ('first_claim', 0: none yet), the hosts with new URLs
// queued ('qhosts': their number and up to 64 of them drawn at random,
// for the caller to weigh by what each host allows), the pages scheduled
// for revisits ('copy') and the server's clock. Returns {workers,
// new_claims, qhosts, copies, now, first_claim, {sampled hosts}}.
constexpr const char* kView = R"lua(
local p, me, lease = ARGV[1], ARGV[2], tonumber(ARGV[3])
local now = now_ms()
redis.call('ZADD', p .. 'workers', now, me)
return {redis.call('ZCOUNT', p .. 'workers', now - lease, '+inf'), tonumber(redis.call('GET', p .. 'new_claims') or '0'),
        redis.call('SCARD', p .. 'qhosts'), redis.call('HLEN', p .. 'copy'), now,
        tonumber(redis.call('GET', p .. 'first_claim') or '0'), redis.call('SRANDMEMBER', p .. 'qhosts', 64)}
)lua";

// ARGV: prefix, interval_us, tolerance_us. The crawl's --fetch-rate, one
// pacer for all its workers: a virtual schedule of send slots one interval
// (1/rate) apart, kept as the next slot's time ('pace', µs on the server's
// clock: the generic cell rate algorithm). A request may go when the next
// slot is no more than `tolerance` ahead of now; taking it moves the next
// slot one interval past the later of the two. So over any window of t
// seconds, all workers together take at most rate·t + burst slots, where
// burst = 1 + rate·tolerance (as a lone crawl's bucket). Returns 0 when
// the slot is taken, else the µs until one may be.
constexpr const char* kPace = R"lua(
local p, interval, tolerance = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local next_slot = tonumber(redis.call('GET', p .. 'pace') or '0')
if next_slot - tolerance > now then return math.max(1, next_slot - tolerance - now) end
redis.call('SET', p .. 'pace', string.format('%.0f', math.max(next_slot, now) + interval))
return 0
)lua";

// ARGV: prefix, worker, host, lease_ms. Extends the lease on the host (and
// its count of URLs) only when this worker holds it (one released
// meanwhile may be another's now). Returns whether it did.
constexpr const char* kRenew = R"lua(
local p, worker, host = ARGV[1], ARGV[2], ARGV[3]
if redis.call('GET', p .. 'lease:' .. host) ~= worker then return 0 end
redis.call('PEXPIRE', p .. 'lease:' .. host, tonumber(ARGV[4]))
redis.call('PEXPIRE', p .. 'conns:' .. host, tonumber(ARGV[4]))
return 1
)lua";

// ARGV: prefix, worker. A worker stopping cleanly leaves the crawl's
// workers at once (the others' share of the hosts grows now, not a lease
// later), but only with nothing in flight: a worker that still holds URLs
// stays listed, so that its silence returns them. Returns whether it left.
constexpr const char* kLeave = R"lua(
local p, me = ARGV[1], ARGV[2]
if redis.call('HLEN', p .. 'inflight:' .. me) > 0 then return 0 end
redis.call('ZREM', p .. 'workers', me)
return 1
)lua";

// ARGV: prefix, then name, value pairs. A setting absent from 'settings'
// takes the value given; one present with another value is returned with
// the crawl's value. Returns {name, crawl's value, ...}.
constexpr const char* kAgree = R"lua(
local p = ARGV[1]
local out = {}
for i = 2, #ARGV - 1, 2 do
  if redis.call('HSETNX', p .. 'settings', ARGV[i], ARGV[i + 1]) == 0 then
    local had = redis.call('HGET', p .. 'settings', ARGV[i])
    if had ~= ARGV[i + 1] then
      out[#out + 1] = ARGV[i]
      out[#out + 1] = had
    end
  end
end
return out
)lua";

// ARGV: the robots:HOST key. Returns {value, ms left} or {} when absent.
constexpr const char* kRobots = R"lua(
local v = redis.call('GET', ARGV[1])
if not v then return {} end
return {v, redis.call('PTTL', ARGV[1])}
)lua";

// ARGV: prefix, from, most, then entries. The crawl's log of page titles
// ('titles'): the entries are appended in their order, then the log's
// length is returned, followed by up to `most` entries from index `from`
// (none when `from` < 0). Atomic, so a worker reading from where its last
// read ended meets every entry of the log once, its own among them, in the
// one order every worker reads, and knows where its own were put: the last
// of them just before the length returned.
constexpr const char* kTitles = R"lua(
local key = ARGV[1] .. 'titles'
local from, most = tonumber(ARGV[2]), tonumber(ARGV[3])
for i = 4, #ARGV, 1000 do
  redis.call('RPUSH', key, unpack(ARGV, i, math.min(i + 999, #ARGV)))
end
local out = {redis.call('LLEN', key)}
if from < 0 or most <= 0 then return out end
for _, e in ipairs(redis.call('LRANGE', key, from, from + most - 1)) do out[#out + 1] = e end
return out
)lua";

// Each script with the Lua functions it calls, put together once.
const std::string kAddScript = std::string(kQueueIndex) + kAdd;
const std::string kClaimScript = std::string(kNow) + kAnyInflight + kQueueIndex + kClaim;
const std::string kCompleteScript = std::string(kNow) + kReleaseHost + kComplete;
const std::string kGiveBackScript = std::string(kQueueIndex) + kRequeue + kReleaseHost + kGiveBack;
const std::string kReleaseScript = std::string(kNow) + kReleaseHost + kRelease;
const std::string kSettleScript = kSettle;
const std::string kScheduleScript = kSchedule;
const std::string kRenewScript = kRenew;
const std::string kViewScript = std::string(kNow) + kView;
const std::string kLeaveScript = kLeave;
const std::string kMoveScript = kMove;
const std::string kPaceScript = kPace;
const std::string kAgreeScript = kAgree;
const std::string kTitlesScript = kTitles;
const std::string kRobotsScript = kRobots;
const std::string kReapScript = std::string(kNow) + kQueueIndex + kRequeue + kReap;

Status failed(const std::string& what, const Status& s) { return Status::Error(what + ": " + s.message()); }

}  // namespace

SharedFrontier::SharedFrontier(std::unique_ptr<RedisConnection> redis, SharedFrontierOptions options)
    : redis_(std::move(redis)), options_(std::move(options)) {}

Result<std::unique_ptr<SharedFrontier>> SharedFrontier::connect(const std::string& uri,
                                                                const SharedFrontierOptions& options) {
  auto address = parse_redis_address(uri);
  if (!address.ok()) return address.status();
  if (options.crawl_id.empty() || options.crawl_id.find_first_of(": \t\n") != std::string::npos)
    return Result<std::unique_ptr<SharedFrontier>>::Error("bad crawl id '" + options.crawl_id +
                                                          "': use letters, digits, '-' or '_'");
  auto redis = RedisConnection::open(*address, options.timeout_ms);
  if (!redis.ok()) return redis.status();
  auto pong = (*redis)->command({"PING"});
  if (!pong.ok()) return pong.status();
  SharedFrontierOptions o = options;
  if (o.worker_id.empty()) {
    char host[256] = {0};
    ::gethostname(host, sizeof host - 1);
    o.worker_id = std::string(host) + "-" + std::to_string(::getpid());
  }
  return std::unique_ptr<SharedFrontier>(new SharedFrontier(std::move(*redis), std::move(o)));
}

Status SharedFrontier::set_budget(std::int64_t pages) {
  auto r = redis_->command({"SET", prefix() + "budget", std::to_string(pages), "NX"});
  return r.ok() ? Status::Ok() : failed("setting the page budget", r.status());
}

Result<std::vector<SharedFrontier::Clash>> SharedFrontier::agree(
    const std::vector<std::pair<std::string, std::string>>& settings) {
  std::vector<std::string> args = {prefix()};
  for (const auto& [name, value] : settings) {
    args.push_back(name);
    args.push_back(value);
  }
  auto r = redis_->script(kAgreeScript, {}, args);
  if (!r.ok()) return failed("reading the crawl's settings", r.status());
  std::vector<Clash> out;
  for (std::size_t i = 0; i + 1 < r->elements.size(); i += 2) {
    Clash c{r->elements[i].str, "", r->elements[i + 1].str};
    for (const auto& [name, value] : settings)
      if (name == c.name) c.given = value;
    out.push_back(std::move(c));
  }
  return out;
}

std::vector<std::string> SharedFrontier::add_args(const std::vector<QueuedUrl>& urls, std::size_t from,
                                                 std::size_t n) const {
  std::vector<std::string> args = {prefix(), std::to_string(n)};
  args.reserve(2 + n * 7);
  for (std::size_t j = from; j < from + n; ++j) {
    args.push_back(urls[j].url);
    args.push_back(urls[j].host);
    args.push_back(urls[j].address);
    args.push_back(std::to_string(urls[j].priority));
    args.push_back(std::to_string(urls[j].backlinks));
    args.push_back(std::to_string(urls[j].order));
    args.push_back(std::to_string(urls[j].penalty));
  }
  return args;
}

namespace {

// The reply of the add script for the URLs from `from`: how many were new,
// and which.
Result<std::size_t> added_from(const Result<RedisReply>& r, std::size_t from, std::vector<std::size_t>* fresh) {
  if (!r.ok()) return failed("queueing URLs", r.status());
  const auto& e = r->elements;
  if (e.size() < 2) return Result<std::size_t>::Error("queueing URLs: unexpected reply from Redis");
  if (fresh)
    for (const RedisReply& i : e[1].elements) fresh->push_back(from + static_cast<std::size_t>(i.integer) - 1);
  return static_cast<std::size_t>(e[0].integer);
}

// A queued URL's score as its priority and its place (kAdd).
void split_score(double score, Claim* c) {
  const double priority = std::floor(score / 4294967296.0);
  c->priority = static_cast<std::int64_t>(priority);
  const double order = score - priority * 4294967296.0;
  c->order = order >= 0 && order < 4294967296.0 ? static_cast<std::uint32_t>(order) : 0;
}

Result<std::variant<std::vector<Claim>, NoClaim>> claims_of(const Result<RedisReply>& r) {
  using Out = std::variant<std::vector<Claim>, NoClaim>;
  if (!r.ok()) return failed("claiming URLs", r.status());
  const auto& e = r->elements;
  if (e.empty()) return Result<Out>::Error("claiming URLs: empty reply from Redis");
  NoClaim none;
  if (e[0].str == "url" && e.size() >= 2) {
    const std::int64_t now = std::stoll(e[1].str);
    std::vector<Claim> claims;
    // After the claims, when the next host not ready at the claim will be.
    const std::int64_t next = (e.size() - 2) % 4 == 1 ? std::stoll(e.back().str) : 0;
    for (std::size_t i = 2; i + 3 < e.size(); i += 4) {
      Claim c;
      c.url = e[i].str;
      c.host = e[i + 1].str;
      if (e[i + 3].str.empty())
        split_score(std::stod(e[i + 2].str), &c);
      else
        c.copy = e[i + 3].str.substr(1);
      c.claimed_at_ms = now;
      c.next_ready_ms = next;
      claims.push_back(std::move(c));
    }
    return Out(std::move(claims));
  }
  if (e[0].str == "budget") none.why = NoClaim::Why::kBudgetSpent;
  else if (e[0].str == "wait" && e.size() >= 3) {
    none.why = NoClaim::Why::kWait;
    none.next_ready_ms = std::stoll(e[1].str);
    none.now_ms = std::stoll(e[2].str);
  }
  return Out(none);
}

}  // namespace

Result<std::size_t> SharedFrontier::add(const std::vector<QueuedUrl>& urls, std::vector<std::size_t>* fresh) {
  std::size_t added = 0;
  for (std::size_t i = 0; i < urls.size(); i += kAddBatch) {
    const std::size_t n = std::min(kAddBatch, urls.size() - i);
    auto r = added_from(redis_->script(kAddScript, {}, add_args(urls, i, n)), i, fresh);
    if (!r.ok()) return r;
    added += *r;
  }
  return added;
}

std::vector<std::string> SharedFrontier::claim_args(int n, int held, const SlotRule& rule) const {
  std::string learnt;
  for (const auto& [fetched, relevant] : rule.learnt) {
    if (!learnt.empty()) learnt += ',';
    learnt += std::to_string(fetched) + ":" + std::to_string(relevant);
  }
  return {prefix(),
          options_.worker_id,
          std::to_string(options_.lease_ms),
          std::to_string(options_.scan),
          std::to_string(options_.address_gap_ms),
          std::to_string(std::max(1, n)),
          std::to_string(std::max(0, held)),
          std::to_string(options_.new_share),
          std::to_string(std::max(1, options_.host_connections)),
          std::to_string(rule.slack),
          std::to_string(std::max(0, rule.lookahead_ms)),
          std::to_string(std::max(1, rule.band)),
          learnt,
          rule.spare ? "1" : "0"};
}

Result<std::variant<std::vector<Claim>, NoClaim>> SharedFrontier::claim_up_to(int n, int held, const SlotRule& rule) {
  return claims_of(redis_->script(kClaimScript, {}, claim_args(n, held, rule)));
}

Result<std::variant<Claim, NoClaim>> SharedFrontier::claim() {
  auto r = claim_up_to(1);
  if (!r.ok()) return r.status();
  if (auto* claims = std::get_if<std::vector<Claim>>(&*r); claims && !claims->empty())
    return std::variant<Claim, NoClaim>(std::move(claims->front()));
  if (auto* none = std::get_if<NoClaim>(&*r)) return std::variant<Claim, NoClaim>(*none);
  return Result<std::variant<Claim, NoClaim>>::Error("claiming a URL: no URL in a claim reply from Redis");
}

SharedFrontier::ExchangeResult SharedFrontier::exchange(const Exchange& x) {
  using Call = RedisConnection::ScriptCall;
  std::vector<Call> calls;
  for (std::size_t i = 0; i < x.add.size(); i += kAddBatch)
    calls.push_back(Call{&kAddScript, add_args(x.add, i, std::min(kAddBatch, x.add.size() - i))});
  // The releases in one script, the settles in another.
  if (!x.releases.empty()) calls.push_back(Call{&kReleaseScript, release_args(x.releases)});
  if (!x.settles.empty()) calls.push_back(Call{&kSettleScript, settle_args(x.settles)});
  if (x.claims > 0) calls.push_back(Call{&kClaimScript, claim_args(x.claims, x.held, x.slot_rule)});
  const bool titles = !x.titles.empty() || x.titles_from >= 0;
  if (titles) {
    std::vector<std::string> args = {prefix(), std::to_string(x.titles_from), std::to_string(kTitlesPerRead)};
    args.insert(args.end(), x.titles.begin(), x.titles.end());
    calls.push_back(Call{&kTitlesScript, std::move(args)});
  }
  auto replies = redis_->scripts(calls);
  ExchangeResult out;
  std::size_t k = 0;
  for (std::size_t i = 0; i < x.add.size(); i += kAddBatch, ++k)
    if (auto r = added_from(replies[k], i, &out.fresh); !r.ok() && out.added.ok()) out.added = r.status();
  if (!x.releases.empty()) {
    const auto& r = replies[k++];
    for (const HostRelease& h : x.releases)
      out.released.push_back(r.ok() ? Status::Ok() : failed("releasing " + h.claim.host, r.status()));
  }
  if (!x.settles.empty()) {
    const auto& r = replies[k++];
    for (const Settle& st : x.settles)
      out.settled.push_back(r.ok() ? Status::Ok() : failed("settling " + st.claim.url, r.status()));
  }
  if (x.claims > 0) out.claimed = claims_of(replies[k++]);
  if (titles) {
    auto& r = replies[k++];
    if (!r.ok()) {
      out.titles = failed("sharing page titles", r.status());
    } else {
      std::vector<std::string> read;
      read.reserve(r->elements.size());
      for (std::size_t i = 0; i < r->elements.size(); ++i) {
        RedisReply& e = r->elements[i];
        if (i == 0) out.titles_end = e.integer;  // the log's length
        else read.push_back(std::move(e.str));
      }
      out.titles = std::move(read);
    }
  }
  return out;
}

Result<std::int64_t> SharedFrontier::complete(const Claim& c, bool refund) {
  auto r = redis_->script(kCompleteScript, {},
                          {prefix(), options_.worker_id, c.host, c.url, std::to_string(options_.host_gap_ms),
                           std::to_string(options_.address_gap_ms), refund ? "1" : "0"});
  if (!r.ok()) return failed("completing " + c.url, r.status());
  return static_cast<std::int64_t>(r->integer);
}

std::vector<std::string> SharedFrontier::release_args(const std::vector<HostRelease>& ended) const {
  std::vector<std::string> args = {prefix(), options_.worker_id, std::to_string(options_.host_gap_ms),
                                   std::to_string(options_.address_gap_ms)};
  for (const HostRelease& h : ended) {
    args.push_back(h.claim.host);
    args.push_back(h.address);
    args.push_back(h.contacted ? "1" : "0");
  }
  return args;
}

Result<std::int64_t> SharedFrontier::release(const Claim& c, const std::string& address, bool contacted) {
  auto r = redis_->script(kReleaseScript, {}, release_args({HostRelease{c, address, contacted}}));
  if (!r.ok()) return failed("releasing " + c.host, r.status());
  return static_cast<std::int64_t>(r->integer);
}

std::vector<std::string> SharedFrontier::settle_args(const std::vector<Settle>& settles) const {
  std::vector<std::string> args = {prefix(), options_.worker_id};
  for (const Settle& st : settles)
    args.insert(args.end(), {st.claim.url, st.refund ? "1" : "0", st.claim.host,
                             st.next ? std::to_string(st.next->due_ms) : "", st.next ? st.next->copy : "",
                             st.next ? std::to_string(st.next->spare_from_ms) : "0"});
  return args;
}

Status SharedFrontier::settle(const Settle& st) {
  auto r = redis_->script(kSettleScript, {}, settle_args({st}));
  return r.ok() ? Status::Ok() : failed("settling " + st.claim.url, r.status());
}

Status SharedFrontier::give_back(const Claim& c) {
  auto r = redis_->script(kGiveBackScript, {}, {prefix(), options_.worker_id, c.url});
  return r.ok() ? Status::Ok() : failed("giving back " + c.url, r.status());
}

Result<bool> SharedFrontier::leave() {
  auto r = redis_->script(kLeaveScript, {}, {prefix(), options_.worker_id});
  if (!r.ok()) return failed("leaving the crawl", r.status());
  return r->integer == 1;
}

Status SharedFrontier::renew(const Claim& c) {
  auto r = redis_->script(kRenewScript, {}, {prefix(), options_.worker_id, c.host, std::to_string(options_.lease_ms)});
  return r.ok() ? Status::Ok() : failed("renewing the lease on " + c.host, r.status());
}

Result<std::size_t> SharedFrontier::heartbeat_and_reap() {
  auto r = redis_->script(kReapScript, {}, {prefix(), options_.worker_id, std::to_string(options_.dead_after_ms)});
  if (!r.ok()) return failed("reaping dead workers", r.status());
  return static_cast<std::size_t>(r->integer);
}

Result<std::size_t> SharedFrontier::recover_own() {
  auto r = redis_->script(kGiveBackScript, {}, {prefix(), options_.worker_id, ""});
  if (!r.ok()) return failed("recovering this worker's in-flight URLs", r.status());
  return static_cast<std::size_t>(r->integer);
}

Result<std::vector<Claim>> SharedFrontier::own_claims() {
  auto r = redis_->command({"HGETALL", prefix() + "inflight:" + options_.worker_id});
  if (!r.ok()) return failed("listing this worker's in-flight URLs", r.status());
  std::vector<Claim> out;
  for (std::size_t i = 0; i + 1 < r->elements.size(); i += 2) {
    const std::string& v = r->elements[i + 1].str;  // "HOST\tSCORE"
    const auto tab = v.find('\t');
    if (tab == std::string::npos) continue;
    Claim c;
    c.url = r->elements[i].str;
    c.host = v.substr(0, tab);
    split_score(std::stod(v.substr(tab + 1)), &c);
    out.push_back(std::move(c));
  }
  return out;
}

Status SharedFrontier::put_robots(const std::string& host, const std::string& value, std::int64_t ttl_ms) {
  auto r = redis_->command({"SET", prefix() + "robots:" + host, value, "PX", std::to_string(std::max<std::int64_t>(1, ttl_ms))});
  return r.ok() ? Status::Ok() : failed("sharing the robots.txt of " + host, r.status());
}

Result<std::optional<SharedFrontier::StoredRobots>> SharedFrontier::robots(const std::string& host) {
  auto r = redis_->script(kRobotsScript, {}, {prefix() + "robots:" + host});
  if (!r.ok()) return failed("reading the robots.txt of " + host, r.status());
  if (r->elements.size() < 2 || r->elements[0].kind != RedisReply::Kind::kString) return std::optional<StoredRobots>();
  return std::optional<StoredRobots>(StoredRobots{std::move(r->elements[0].str), r->elements[1].integer});
}

Status SharedFrontier::schedule_revisit(const std::string& url, const std::string& host, const NextVisit& next) {
  auto r = redis_->script(kScheduleScript, {}, {prefix(), url, host, std::to_string(next.due_ms), next.copy,
                                                   std::to_string(next.spare_from_ms)});
  return r.ok() ? Status::Ok() : failed("scheduling a revisit of " + url, r.status());
}

Result<std::int64_t> SharedFrontier::now_ms() {
  auto r = redis_->command({"TIME"});
  if (!r.ok()) return r.status();
  if (r->elements.size() < 2) return Result<std::int64_t>::Error("Redis TIME: unexpected reply");
  return std::stoll(r->elements[0].str) * 1000 + std::stoll(r->elements[1].str) / 1000;
}

Result<std::vector<std::size_t>> SharedFrontier::move_due(const std::vector<DueMove>& moves) {
  std::vector<std::size_t> moved;
  for (std::size_t i = 0; i < moves.size(); i += kAddBatch) {
    const std::size_t n = std::min(kAddBatch, moves.size() - i);
    std::vector<std::string> args = {prefix(), std::to_string(n)};
    for (std::size_t j = i; j < i + n; ++j) {
      args.push_back(moves[j].url);
      args.push_back(std::to_string(moves[j].from_ms));
      args.push_back(std::to_string(moves[j].to_ms));
    }
    auto r = redis_->script(kMoveScript, {}, args);
    if (!r.ok()) return failed("moving due times", r.status());
    for (const RedisReply& k : r->elements) moved.push_back(i + static_cast<std::size_t>(k.integer) - 1);
  }
  return moved;
}

Result<std::int64_t> SharedFrontier::pace(double rate, double burst) {
  if (!(rate > 0)) return std::int64_t{0};
  const double interval_us = 1e6 / rate;
  const double tolerance_us = std::max(0.0, burst - 1) * interval_us;
  auto r = redis_->script(kPaceScript, {}, {prefix(), std::to_string(static_cast<std::int64_t>(std::llround(interval_us))),
                                            std::to_string(static_cast<std::int64_t>(std::llround(tolerance_us)))});
  if (!r.ok()) return failed("taking a request slot of the crawl's --fetch-rate", r.status());
  return static_cast<std::int64_t>(r->integer);
}

Result<CrawlView> SharedFrontier::view() {
  auto r = redis_->script(kViewScript, {}, {prefix(), options_.worker_id, std::to_string(options_.lease_ms)});
  if (!r.ok()) return failed("reading the crawl's figures", r.status());
  const auto& e = r->elements;
  if (e.size() < 7) return Result<CrawlView>::Error("reading the crawl's figures: unexpected reply from Redis");
  CrawlView v;
  v.workers = e[0].integer;
  v.new_claims = e[1].integer;
  v.queued_hosts = e[2].integer;
  v.scheduled = e[3].integer;
  v.now_ms = e[4].integer;
  v.first_claim_ms = e[5].integer;
  for (const RedisReply& h : e[6].elements) v.queued_host_sample.push_back(h.str);
  return v;
}

Result<FrontierCounts> SharedFrontier::counts() {
  FrontierCounts c;
  auto integer = [&](std::vector<std::string> cmd, std::int64_t* out) -> Status {
    auto r = redis_->command(cmd);
    if (!r.ok()) return r.status();
    if (r->kind == RedisReply::Kind::kInteger) *out = r->integer;
    else if (r->kind == RedisReply::Kind::kString) *out = std::stoll(r->str);
    return Status::Ok();
  };
  if (Status s = integer({"SCARD", prefix() + "seen"}, &c.seen); !s.ok()) return s;
  if (Status s = integer({"ZCARD", prefix() + "due"}, &c.due); !s.ok()) return s;
  auto done = redis_->command({"GET", prefix() + "done"});
  if (!done.ok()) return done.status();
  if (done->kind == RedisReply::Kind::kString) c.done = std::stoll(done->str);
  auto budget = redis_->command({"GET", prefix() + "budget"});
  if (!budget.ok()) return budget.status();
  if (budget->kind == RedisReply::Kind::kString) c.budget_left = std::stoll(budget->str);
  // Queued and in flight: every host queue and worker hash (SCAN, bounded by their number).
  for (const auto& [pattern, field] : {std::pair<std::string, std::int64_t*>{prefix() + "q:*", &c.queued},
                                       std::pair<std::string, std::int64_t*>{prefix() + "inflight:*", &c.inflight}}) {
    std::string cursor = "0";
    do {
      auto r = redis_->command({"SCAN", cursor, "MATCH", pattern, "COUNT", "1000"});
      if (!r.ok()) return r.status();
      if (r->elements.size() < 2) break;
      cursor = r->elements[0].str;
      for (const auto& key : r->elements[1].elements) {
        std::int64_t n = 0;
        const bool queue = field == &c.queued;
        if (Status s = integer({queue ? "ZCARD" : "HLEN", key.str}, &n); !s.ok()) return s;
        *field += n;
      }
    } while (cursor != "0");
  }
  auto mem = redis_->command({"MEMORY", "STATS"});
  if (mem.ok())
    for (std::size_t i = 0; i + 1 < mem->elements.size(); i += 2)
      if (mem->elements[i].str == "total.allocated") c.redis_memory_bytes = mem->elements[i + 1].integer;
  return c;
}

}  // namespace cronista::shared_frontier
