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
    redis.call('SADD', p .. 'qhosts', host)
    if redis.call('EXISTS', p .. 'budget') == 1 then redis.call('INCR', p .. 'budget') end
  end
  redis.call('ZADD', p .. 'hosts', 'NX', 0, host)
  redis.call('HDEL', p .. 'inflight:' .. worker, url)
  return host
end
)lua";

// ARGV: prefix, n, then n × (url, host, address, priority, backlinks).
// Returns {added, {(i, backlinks) for each URL i (from 1) still queued
// whose links across workers were counted}, {i for each URL never seen
// before}}. A queued URL absent from 'links' has one link (most have), so
// that only the others cost memory. A host with a queued URL is in 'qhosts'.
constexpr const char* kAdd = R"lua(
local p = ARGV[1]
local added = 0
local linked = {}
local fresh = {}
for i = 0, tonumber(ARGV[2]) - 1 do
  local url, host, addr = ARGV[3 + i * 5], ARGV[4 + i * 5], ARGV[5 + i * 5]
  local prio, links = tonumber(ARGV[6 + i * 5]), tonumber(ARGV[7 + i * 5])
  local q = p .. 'q:' .. host
  if redis.call('SADD', p .. 'seen', url) == 1 then
    local s = redis.call('INCR', p .. 'seq')
    redis.call('ZADD', q, prio * 4294967296 + s, url)
    redis.call('SADD', p .. 'qhosts', host)
    if addr ~= '' then redis.call('HSET', p .. 'host_addr', host, addr) end
    if links ~= 1 then redis.call('HSET', p .. 'links', url, links) end
    redis.call('ZADD', p .. 'hosts', 'NX', 0, host)
    added = added + 1
    fresh[#fresh + 1] = i + 1
  else
    local cur = redis.call('ZSCORE', q, url)
    if cur then
      local score = prio * 4294967296 + (tonumber(cur) % 4294967296)
      if score < tonumber(cur) then redis.call('ZADD', q, score, url) end
      if links > 0 then
        local total = links + 1
        if redis.call('HEXISTS', p .. 'links', url) == 1 then
          total = redis.call('HINCRBY', p .. 'links', url, links)
        else
          redis.call('HSET', p .. 'links', url, total)
        end
        linked[#linked + 1] = i + 1
        linked[#linked + 1] = total
      end
    end
  end
end
return {added, linked, fresh}
)lua";

// ARGV: prefix, worker, lease_ms, scan, address_gap_ms, n, held,
// new_share. Claims up to n URLs, each of another ready host: the same as
// n claims of one in a row. A worker holding `held` hosts gets no more than
// its share of the hosts with queues (their number over the workers seen
// within a lease), so that one worker releasing and claiming in one round
// trip does not keep every host from the others. With an address gap, a
// claimed host's address is busy until the host is released (or its lease
// ends), so that hosts on one address are fetched one at a time (and one
// claim takes one host of an address).
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
// and its copy for a revisit, for each claim} | {'budget'} | {'empty'} | {'wait', next_ms, now}. 'empty'
// (no host has a queue, no revisit is scheduled) and 'budget' (no page
// left, no revisit scheduled) only when no worker has a URL in flight:
// 'wait' while any has, since its page may still bring links, give its
// page of the budget back or be scheduled for a revisit.
constexpr const char* kClaim = R"lua(
local p, worker = ARGV[1], ARGV[2]
local lease, scan = tonumber(ARGV[3]), tonumber(ARGV[4])
local address_gap, want, held = tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[7])
local new_share = tonumber(ARGV[8])
local now = now_ms()
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
local ready = {}  -- {host, address or false, best new URL's score or false, earliest revisit's or false}
for _, host in ipairs(redis.call('ZRANGEBYSCORE', p .. 'hosts', '-inf', now, 'LIMIT', 0, scan)) do
  if redis.call('EXISTS', p .. 'lease:' .. host) == 0 then
    local addr = redis.call('HGET', p .. 'host_addr', host)
    local free = true
    if addr then
      local at = redis.call('GET', p .. 'addr:' .. addr)
      if at and tonumber(at) > now then free = false end
    end
    if free then
      local top = redis.call('ZRANGE', p .. 'q:' .. host, 0, 0, 'WITHSCORES')
      local rtop = redis.call('ZRANGE', p .. 'r:' .. host, 0, 0, 'WITHSCORES')
      if #top == 0 then redis.call('SREM', p .. 'qhosts', host) end
      if #top == 0 and #rtop == 0 then
        redis.call('ZREM', p .. 'hosts', host)
      else
        ready[#ready + 1] = {host, addr, #top > 0 and tonumber(top[2]), #rtop > 0 and tonumber(rtop[2])}
      end
    end
  end
end
if #ready == 0 then
  local first = redis.call('ZRANGE', p .. 'hosts', 0, 0, 'WITHSCORES')
  if #first == 0 then return nothing(spent and 'budget' or 'empty') end
  return {'wait', tostring(math.max(tonumber(first[2]), now + 1)), tostring(now)}
end
local active = redis.call('ZCOUNT', p .. 'workers', now - lease, '+inf')
local share = math.ceil(redis.call('ZCARD', p .. 'hosts') / math.max(active, 1))
want = math.min(want, share - held)
if want <= 0 then return {'wait', tostring(now + 20), tostring(now)} end
local owed = tonumber(redis.call('GET', p .. 'owed') or '0')
local out = {'url', tostring(now)}
local busy = {}  -- addresses claimed by this call
local taken = {}  -- ready hosts claimed by this call
while #out < 2 + want * 4 do
  -- The best new URL (while the budget lasts) and the earliest revisit.
  local best_new, best_due
  for i, r in ipairs(ready) do
    if not taken[i] and not (r[2] and address_gap > 0 and busy[r[2]]) then
      if r[3] and not (left and left <= 0) and (not best_new or r[3] < ready[best_new][3]) then best_new = i end
      if r[4] and (not best_due or r[4] < ready[best_due][4]) then best_due = i end
    end
  end
  local i, revisit = best_new, false
  if best_due and not (best_new and owed + new_share >= 1) then i, revisit = best_due, true end
  if not i then break end
  local host, addr = ready[i][1], ready[i][2]
  local top
  if revisit then
    top = redis.call('ZPOPMIN', p .. 'r:' .. host)
    if best_new then owed = owed + new_share end
  else
    top = redis.call('ZPOPMIN', p .. 'q:' .. host)
    if redis.call('EXISTS', p .. 'q:' .. host) == 0 then redis.call('SREM', p .. 'qhosts', host) end
    if redis.call('INCR', p .. 'new_claims') == 1 then redis.call('SET', p .. 'first_claim', now) end
    redis.call('HDEL', p .. 'links', top[1])
    owed = math.max(0, owed + new_share - 1)
    if left then
      redis.call('DECR', p .. 'budget')
      left = left - 1
    end
  end
  taken[i] = true
  if addr and address_gap > 0 then
    redis.call('SET', p .. 'addr:' .. addr, now + lease, 'PX', lease)
    busy[addr] = true
  end
  redis.call('SET', p .. 'lease:' .. host, worker, 'PX', lease)
  redis.call('ZADD', p .. 'hosts', now + lease, host)
  redis.call('HSET', p .. 'inflight:' .. worker, top[1], host .. '\t' .. top[2])
  out[#out + 1] = top[1]
  out[#out + 1] = host
  out[#out + 1] = top[2]
  out[#out + 1] = revisit and ('r' .. (redis.call('HGET', p .. 'copy', top[1]) or '')) or ''
end
redis.call('SET', p .. 'owed', tostring(owed))
-- The budget is spent and no ready host has a revisit due: one may come.
if #out == 2 then return {'wait', tostring(now + 50), tostring(now)} end
return out
)lua";

// ARGV: prefix, worker, host, url, host_gap_ms, address_gap_ms, refund
// ('1': the claim downloaded nothing, its page returns to the budget).
// Returns now.
constexpr const char* kComplete = R"lua(
local p, worker, host, url = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local now = now_ms()
redis.call('HDEL', p .. 'inflight:' .. worker, url)
if redis.call('GET', p .. 'lease:' .. host) == worker then redis.call('DEL', p .. 'lease:' .. host) end
redis.call('ZADD', p .. 'hosts', now + tonumber(ARGV[5]), host)
local addr = redis.call('HGET', p .. 'host_addr', host)
if addr and tonumber(ARGV[6]) > 0 then redis.call('SET', p .. 'addr:' .. addr, now + tonumber(ARGV[6])) end
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

// ARGV: prefix, worker, host, host_gap_ms, address_gap_ms, address ('' if
// unknown). The host's address is recorded; the host (and its address)
// is ready again after its gaps from now and its lease is released when
// this worker holds it; the URL stays in flight. Returns now.
constexpr const char* kRelease = R"lua(
local p, worker, host = ARGV[1], ARGV[2], ARGV[3]
local now = now_ms()
if ARGV[6] ~= '' then redis.call('HSET', p .. 'host_addr', host, ARGV[6]) end
if redis.call('GET', p .. 'lease:' .. host) == worker then redis.call('DEL', p .. 'lease:' .. host) end
redis.call('ZADD', p .. 'hosts', now + tonumber(ARGV[4]), host)
local addr = redis.call('HGET', p .. 'host_addr', host)
local gap = tonumber(ARGV[5])
if addr and gap > 0 then redis.call('SET', p .. 'addr:' .. addr, now + gap, 'PX', gap + 1000) end
return now
)lua";

// ARGV: prefix, worker, url, refund, host, due_ms, copy. The URL leaves
// this worker's in-flight set for good (its page is stored), counted done
// or its page returned to the budget; a revisit (a URL with a copy already)
// costs the budget nothing. With due_ms ('' for none), the URL's copy is
// kept and it falls due for a revisit at due_ms, by any worker: both in one
// step with the settling, so that a worker killed at any moment leaves the
// URL in flight (returned when it is reaped) or scheduled, never lost.
// Returns whether it was still in flight.
constexpr const char* kSettle = R"lua(
local p, worker, url = ARGV[1], ARGV[2], ARGV[3]
if redis.call('HDEL', p .. 'inflight:' .. worker, url) == 0 then return 0 end
if redis.call('HEXISTS', p .. 'copy', url) == 0 then
  if ARGV[4] == '1' then
    if redis.call('EXISTS', p .. 'budget') == 1 then redis.call('INCR', p .. 'budget') end
  else
    redis.call('INCR', p .. 'done')
  end
end
if ARGV[6] ~= '' then
  redis.call('HSET', p .. 'copy', url, ARGV[7])
  redis.call('ZADD', p .. 'due', ARGV[6], url)
  redis.call('HSET', p .. 'due_host', url, ARGV[5])
end
return 1
)lua";

// ARGV: prefix, url, host, due_ms, copy. The URL's copy is kept and it
// falls due at due_ms (a URL not in flight).
constexpr const char* kSchedule = R"lua(
local p, url = ARGV[1], ARGV[2]
redis.call('HSET', p .. 'copy', url, ARGV[5])
redis.call('ZADD', p .. 'due', ARGV[4], url)
redis.call('HSET', p .. 'due_host', url, ARGV[3])
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
    if redis.call('GET', p .. 'lease:' .. host) == worker then
      redis.call('DEL', p .. 'lease:' .. host)
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

// ARGV: prefix, worker, host, lease_ms. Extends the lease on the host only
// when this worker holds it (one released meanwhile may be another's now).
// Returns whether it did.
constexpr const char* kRenew = R"lua(
local p, worker, host = ARGV[1], ARGV[2], ARGV[3]
if redis.call('GET', p .. 'lease:' .. host) ~= worker then return 0 end
redis.call('PEXPIRE', p .. 'lease:' .. host, tonumber(ARGV[4]))
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

// Each script with the Lua functions it calls, put together once.
const std::string kAddScript = kAdd;
const std::string kClaimScript = std::string(kNow) + kAnyInflight + kClaim;
const std::string kCompleteScript = std::string(kNow) + kComplete;
const std::string kGiveBackScript = std::string(kRequeue) + kGiveBack;
const std::string kReleaseScript = std::string(kNow) + kRelease;
const std::string kSettleScript = kSettle;
const std::string kScheduleScript = kSchedule;
const std::string kRenewScript = kRenew;
const std::string kViewScript = std::string(kNow) + kView;
const std::string kLeaveScript = kLeave;
const std::string kMoveScript = kMove;
const std::string kPaceScript = kPace;
const std::string kReapScript = std::string(kNow) + kRequeue + kReap;

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

std::vector<std::string> SharedFrontier::add_args(const std::vector<QueuedUrl>& urls, std::size_t from,
                                                 std::size_t n) const {
  std::vector<std::string> args = {prefix(), std::to_string(n)};
  args.reserve(2 + n * 5);
  for (std::size_t j = from; j < from + n; ++j) {
    args.push_back(urls[j].url);
    args.push_back(urls[j].host);
    args.push_back(urls[j].address);
    args.push_back(std::to_string(urls[j].priority));
    args.push_back(std::to_string(urls[j].backlinks));
  }
  return args;
}

namespace {

// The reply of the add script for the URLs from `from`: how many were new,
// and the linked ones.
Result<std::size_t> added_from(const Result<RedisReply>& r, std::size_t from, std::vector<Linked>* linked,
                               std::vector<std::size_t>* fresh) {
  if (!r.ok()) return failed("queueing URLs", r.status());
  const auto& e = r->elements;
  if (e.size() < 3) return Result<std::size_t>::Error("queueing URLs: unexpected reply from Redis");
  if (linked)
    for (std::size_t k = 0; k + 1 < e[1].elements.size(); k += 2)
      linked->push_back(Linked{from + static_cast<std::size_t>(e[1].elements[k].integer) - 1, e[1].elements[k + 1].integer});
  if (fresh)
    for (const RedisReply& i : e[2].elements) fresh->push_back(from + static_cast<std::size_t>(i.integer) - 1);
  return static_cast<std::size_t>(e[0].integer);
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
    for (std::size_t i = 2; i + 3 < e.size(); i += 4) {
      Claim c;
      c.url = e[i].str;
      c.host = e[i + 1].str;
      if (e[i + 3].str.empty())
        c.priority = static_cast<std::int64_t>(std::stod(e[i + 2].str) / 4294967296.0);
      else
        c.copy = e[i + 3].str.substr(1);
      c.claimed_at_ms = now;
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

Result<std::size_t> SharedFrontier::add(const std::vector<QueuedUrl>& urls, std::vector<Linked>* linked,
                                        std::vector<std::size_t>* fresh) {
  std::size_t added = 0;
  for (std::size_t i = 0; i < urls.size(); i += kAddBatch) {
    const std::size_t n = std::min(kAddBatch, urls.size() - i);
    auto r = added_from(redis_->script(kAddScript, {}, add_args(urls, i, n)), i, linked, fresh);
    if (!r.ok()) return r;
    added += *r;
  }
  return added;
}

std::vector<std::string> SharedFrontier::claim_args(int n, int held) const {
  return {prefix(),
          options_.worker_id,
          std::to_string(options_.lease_ms),
          std::to_string(options_.scan),
          std::to_string(options_.address_gap_ms),
          std::to_string(std::max(1, n)),
          std::to_string(std::max(0, held)),
          std::to_string(options_.new_share)};
}

Result<std::variant<std::vector<Claim>, NoClaim>> SharedFrontier::claim_up_to(int n, int held) {
  return claims_of(redis_->script(kClaimScript, {}, claim_args(n, held)));
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
  for (const auto& [c, address] : x.releases) calls.push_back(Call{&kReleaseScript, release_args(c, address)});
  for (const Settle& st : x.settles) calls.push_back(Call{&kSettleScript, settle_args(st)});
  if (x.claims > 0) calls.push_back(Call{&kClaimScript, claim_args(x.claims, x.held)});
  auto replies = redis_->scripts(calls);
  ExchangeResult out;
  std::size_t k = 0;
  for (std::size_t i = 0; i < x.add.size(); i += kAddBatch, ++k)
    if (auto r = added_from(replies[k], i, &out.linked, &out.fresh); !r.ok() && out.added.ok()) out.added = r.status();
  for (const auto& [c, address] : x.releases)
    out.released.push_back(replies[k++].ok() ? Status::Ok() : failed("releasing " + c.host, replies[k - 1].status()));
  for (const Settle& st : x.settles)
    out.settled.push_back(replies[k++].ok() ? Status::Ok()
                                            : failed("settling " + st.claim.url, replies[k - 1].status()));
  if (x.claims > 0) out.claimed = claims_of(replies[k]);
  return out;
}

Result<std::int64_t> SharedFrontier::complete(const Claim& c, bool refund) {
  auto r = redis_->script(kCompleteScript, {},
                          {prefix(), options_.worker_id, c.host, c.url, std::to_string(options_.host_gap_ms),
                           std::to_string(options_.address_gap_ms), refund ? "1" : "0"});
  if (!r.ok()) return failed("completing " + c.url, r.status());
  return static_cast<std::int64_t>(r->integer);
}

std::vector<std::string> SharedFrontier::release_args(const Claim& c, const std::string& address) const {
  return {prefix(), options_.worker_id, c.host, std::to_string(options_.host_gap_ms),
          std::to_string(options_.address_gap_ms), address};
}

Result<std::int64_t> SharedFrontier::release(const Claim& c, const std::string& address) {
  auto r = redis_->script(kReleaseScript, {}, release_args(c, address));
  if (!r.ok()) return failed("releasing " + c.host, r.status());
  return static_cast<std::int64_t>(r->integer);
}

std::vector<std::string> SharedFrontier::settle_args(const Settle& st) const {
  return {prefix(), options_.worker_id, st.claim.url, st.refund ? "1" : "0", st.claim.host,
          st.next ? std::to_string(st.next->due_ms) : "", st.next ? st.next->copy : ""};
}

Status SharedFrontier::settle(const Settle& st) {
  auto r = redis_->script(kSettleScript, {}, settle_args(st));
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
    c.priority = std::stoll(v.substr(tab + 1));
    out.push_back(std::move(c));
  }
  return out;
}

Status SharedFrontier::put_robots(const std::string& host, const std::string& value, std::int64_t ttl_s) {
  auto r = redis_->command({"SET", prefix() + "robots:" + host, value, "EX", std::to_string(std::max<std::int64_t>(1, ttl_s))});
  return r.ok() ? Status::Ok() : failed("sharing the robots.txt of " + host, r.status());
}

Result<std::optional<std::string>> SharedFrontier::robots(const std::string& host) {
  auto r = redis_->command({"GET", prefix() + "robots:" + host});
  if (!r.ok()) return failed("reading the robots.txt of " + host, r.status());
  if (r->kind != RedisReply::Kind::kString) return std::optional<std::string>();
  return std::optional<std::string>(std::move(r->str));
}

Status SharedFrontier::schedule_revisit(const std::string& url, const std::string& host, const NextVisit& next) {
  auto r = redis_->script(kScheduleScript, {}, {prefix(), url, host, std::to_string(next.due_ms), next.copy});
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
