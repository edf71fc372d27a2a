#include "shared_frontier/redis_connection.h"

#include <hiredis/hiredis.h>
#include <signal.h>

#include <charconv>

namespace cronista::shared_frontier {
namespace {

RedisReply flatten(const redisReply* r) {
  RedisReply out;
  switch (r->type) {
    case REDIS_REPLY_INTEGER:
      out.kind = RedisReply::Kind::kInteger;
      out.integer = r->integer;
      break;
    case REDIS_REPLY_STRING:
    case REDIS_REPLY_STATUS:
      out.kind = RedisReply::Kind::kString;
      out.str.assign(r->str, r->len);
      break;
    case REDIS_REPLY_ARRAY:
      out.kind = RedisReply::Kind::kArray;
      for (std::size_t i = 0; i < r->elements; ++i) out.elements.push_back(flatten(r->element[i]));
      break;
    default:
      break;
  }
  return out;
}

bool parse_int(std::string_view s, int* out) {
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return ec == std::errc() && p == s.data() + s.size();
}

}  // namespace

Result<RedisAddress> parse_redis_address(std::string_view uri) {
  RedisAddress a;
  a.text = std::string(uri);
  auto bad = [&](const std::string& why) {
    return Result<RedisAddress>::Error("bad Redis address '" + a.text + "': " + why +
                                       " (expected redis://HOST:PORT/DB or unix:///path/redis.sock)");
  };
  if (uri.starts_with("unix://")) {
    std::string_view rest = uri.substr(7);
    if (const auto q = rest.find("?db="); q != std::string_view::npos) {
      if (!parse_int(rest.substr(q + 4), &a.db) || a.db < 0) return bad("the database is not a number");
      rest = rest.substr(0, q);
    }
    if (rest.empty() || rest.front() != '/') return bad("the socket path must be absolute");
    a.socket_path = std::string(rest);
    return a;
  }
  if (!uri.starts_with("redis://")) return bad("unknown scheme");
  std::string_view rest = uri.substr(8);
  if (const auto slash = rest.find('/'); slash != std::string_view::npos) {
    const std::string_view db = rest.substr(slash + 1);
    if (!db.empty() && (!parse_int(db, &a.db) || a.db < 0)) return bad("the database is not a number");
    rest = rest.substr(0, slash);
  }
  const auto colon = rest.rfind(':');
  a.host = std::string(rest.substr(0, colon));
  if (colon != std::string_view::npos && (!parse_int(rest.substr(colon + 1), &a.port) || a.port <= 0 || a.port > 65535))
    return bad("the port is not a number from 1 to 65535");
  if (a.host.empty()) return bad("no host");
  return a;
}

Result<std::unique_ptr<RedisConnection>> RedisConnection::open(const RedisAddress& address, int timeout_ms) {
  // hiredis writes with write(2): a server that died would end the whole
  // process with SIGPIPE instead of returning an error. Where nobody set a
  // disposition for SIGPIPE, it is ignored (writes then fail with EPIPE).
  struct sigaction current {};
  if (::sigaction(SIGPIPE, nullptr, &current) == 0 && current.sa_handler == SIG_DFL) ::signal(SIGPIPE, SIG_IGN);
  std::unique_ptr<RedisConnection> c(new RedisConnection(address, timeout_ms));
  if (Status s = c->connect(); !s.ok()) return s;
  return c;
}

RedisConnection::~RedisConnection() {
  if (ctx_) redisFree(ctx_);
}

Status RedisConnection::connect() {
  if (ctx_) redisFree(ctx_);
  timeval tv{timeout_ms_ / 1000, (timeout_ms_ % 1000) * 1000};
  ctx_ = address_.socket_path.empty() ? redisConnectWithTimeout(address_.host.c_str(), address_.port, tv)
                                      : redisConnectUnixWithTimeout(address_.socket_path.c_str(), tv);
  if (ctx_ == nullptr) return Status::Error("cannot reach Redis at " + address_.text + ": out of memory");
  if (ctx_->err) {
    const std::string why = ctx_->errstr;
    redisFree(ctx_);
    ctx_ = nullptr;
    return Status::Error("cannot reach Redis at " + address_.text + ": " + why);
  }
  redisSetTimeout(ctx_, tv);
  if (address_.db != 0) {
    auto r = send({"SELECT", std::to_string(address_.db)});
    if (!r.ok()) return r.status();
  }
  return Status::Ok();
}

namespace {
std::vector<const char*> argv_of(const std::vector<std::string>& args, std::vector<std::size_t>* lens) {
  std::vector<const char*> argv;
  for (const auto& a : args) {
    argv.push_back(a.data());
    lens->push_back(a.size());
  }
  return argv;
}
}  // namespace

Result<RedisReply> RedisConnection::send(const std::vector<std::string>& args) {
  std::vector<std::size_t> lens;
  auto argv = argv_of(args, &lens);
  return take(redisCommandArgv(ctx_, static_cast<int>(argv.size()), argv.data(), lens.data()));
}

Result<RedisReply> RedisConnection::take(void* r) {
  auto* reply = static_cast<redisReply*>(r);
  if (reply == nullptr) {
    const std::string why = ctx_->errstr[0] ? ctx_->errstr : "no reply";
    redisFree(ctx_);
    ctx_ = nullptr;  // reconnect on the next command
    return Result<RedisReply>::Error("Redis at " + address_.text + " lost: " + why);
  }
  if (reply->type == REDIS_REPLY_ERROR) {
    const std::string why(reply->str, reply->len);
    freeReplyObject(reply);
    return Result<RedisReply>::Error("Redis at " + address_.text + ": " + why);
  }
  RedisReply out = flatten(reply);
  freeReplyObject(reply);
  return out;
}

Result<RedisReply> RedisConnection::command(const std::vector<std::string>& args) {
  if (ctx_ == nullptr) {
    if (Status s = connect(); !s.ok()) return s;
  }
  return send(args);
}

Result<std::string> RedisConnection::sha_of(const std::string& source) {
  for (const auto& [src, sha] : loaded_)
    if (src == source) return sha;
  auto loaded = command({"SCRIPT", "LOAD", source});
  if (!loaded.ok()) return loaded.status();
  loaded_.emplace_back(source, loaded->str);
  return loaded->str;
}

namespace {
bool noscript(const Result<RedisReply>& r) {
  return !r.ok() && r.status().message().find("NOSCRIPT") != std::string::npos;
}
}  // namespace

Result<RedisReply> RedisConnection::script(const std::string& source, const std::vector<std::string>& keys,
                                           const std::vector<std::string>& args) {
  for (int attempt = 0; attempt < 2; ++attempt) {
    auto sha = sha_of(source);
    if (!sha.ok()) return sha.status();
    std::vector<std::string> call = {"EVALSHA", *sha, std::to_string(keys.size())};
    call.insert(call.end(), keys.begin(), keys.end());
    call.insert(call.end(), args.begin(), args.end());
    auto r = command(call);
    if (!noscript(r)) return r;
    std::erase_if(loaded_, [&](const auto& e) { return e.first == source; });  // the server restarted and forgot it
  }
  return Result<RedisReply>::Error("Redis at " + address_.text + " keeps forgetting a script");
}

std::vector<Result<RedisReply>> RedisConnection::scripts(const std::vector<ScriptCall>& calls) {
  std::vector<Result<RedisReply>> out;
  auto fail_rest = [&](const Status& s) {
    while (out.size() < calls.size()) out.push_back(s);
    return std::move(out);
  };
  std::vector<std::vector<std::string>> commands;
  for (const auto& c : calls) {
    auto sha = sha_of(*c.source);
    if (!sha.ok()) return fail_rest(sha.status());
    std::vector<std::string> call = {"EVALSHA", *sha, "0"};
    call.insert(call.end(), c.args.begin(), c.args.end());
    commands.push_back(std::move(call));
  }
  if (ctx_ == nullptr)
    if (Status s = connect(); !s.ok()) return fail_rest(s);
  for (const auto& call : commands) {
    std::vector<std::size_t> lens;
    auto argv = argv_of(call, &lens);
    if (redisAppendCommandArgv(ctx_, static_cast<int>(argv.size()), argv.data(), lens.data()) !=
        REDIS_OK)
      return fail_rest(take(nullptr).status());
  }
  for (std::size_t i = 0; i < commands.size(); ++i) {
    void* reply = nullptr;
    if (redisGetReply(ctx_, &reply) != REDIS_OK) return fail_rest(take(nullptr).status());
    out.push_back(take(reply));
  }
  // A server restarted since the scripts were loaded forgot them all: each
  // runs again, in order, loaded anew.
  for (std::size_t i = 0; i < calls.size(); ++i)
    if (noscript(out[i])) {
      std::erase_if(loaded_, [&](const auto& e) { return e.first == *calls[i].source; });
      out[i] = script(*calls[i].source, {}, calls[i].args);
    }
  return out;
}

}  // namespace cronista::shared_frontier
