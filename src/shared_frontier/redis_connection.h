// A connection to one Redis server (hiredis, synchronous): the thin adapter
// between the shared frontier and the network.
//
// Addresses: redis://HOST:PORT[/DB] and unix:///path/to/redis.sock[?db=N].
// Every command has a timeout; after an I/O error the connection is
// dropped and the next command reconnects once before failing, so a worker
// survives a Redis restart. Errors come back as a Status naming the server.
// Server-side scripts are sent once (SCRIPT LOAD) and run by their SHA-1;
// after a restart that lost them (NOSCRIPT) they are sent again. Several
// scripts may go in one round trip (pipelined).
// Not thread-safe: one connection per thread. Opening one ignores SIGPIPE
// when the process has left it at its default (see open()).
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "temporal/status.h"

struct redisContext;

namespace cronista::shared_frontier {

struct RedisAddress {
  std::string host;         // empty for a unix socket
  int port = 6379;
  std::string socket_path;  // for unix://
  int db = 0;
  std::string text;         // as given, for messages
};

Result<RedisAddress> parse_redis_address(std::string_view uri);

// A reply, flattened: nil, an integer, a string (status and bulk alike) or
// an array of replies.
struct RedisReply {
  enum class Kind { kNil, kInteger, kString, kArray } kind = Kind::kNil;
  long long integer = 0;
  std::string str;
  std::vector<RedisReply> elements;
};

class RedisConnection {
 public:
  static Result<std::unique_ptr<RedisConnection>> open(const RedisAddress& address, int timeout_ms = 2000);
  ~RedisConnection();
  RedisConnection(const RedisConnection&) = delete;
  RedisConnection& operator=(const RedisConnection&) = delete;

  Result<RedisReply> command(const std::vector<std::string>& args);

  // Runs a server-side script with its keys and arguments, loading it first
  // when the server does not know it.
  Result<RedisReply> script(const std::string& source, const std::vector<std::string>& keys,
                            const std::vector<std::string>& args);

  // Runs scripts (no keys) in one round trip: the server runs them in the
  // order given, each atomically by itself (another client's command may
  // run between two). One reply per script; after a lost connection the
  // scripts not answered fail (those sent may have run).
  struct ScriptCall {
    const std::string* source = nullptr;
    std::vector<std::string> args;
  };
  std::vector<Result<RedisReply>> scripts(const std::vector<ScriptCall>& calls);

  const RedisAddress& address() const { return address_; }

 private:
  explicit RedisConnection(RedisAddress address, int timeout_ms) : address_(std::move(address)), timeout_ms_(timeout_ms) {}
  Status connect();
  Result<RedisReply> send(const std::vector<std::string>& args);
  Result<RedisReply> take(void* reply);  // a reply read from ctx_ (nullptr: the connection is lost)
  Result<std::string> sha_of(const std::string& source);

  RedisAddress address_;
  int timeout_ms_;
  redisContext* ctx_ = nullptr;
  std::vector<std::pair<std::string, std::string>> loaded_;  // source → sha1
};

}  // namespace cronista::shared_frontier
