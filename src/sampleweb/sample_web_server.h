// Serving a generated sample web (sample_web.h) over real HTTP: one
// cpp-httplib server per loopback address (127.0.0.2, 127.0.0.3, …; Linux
// routes all of 127.0.0.0/8 to lo, so no set-up is needed) on the port the
// web was generated for. Named hosts sharing an address (the replica web,
// sample_web_replicas.h) are told apart by the Host header; a request naming
// none of them gets the address's first host. Every response is what
// the generator wrote: the file's bytes untouched (so the ISO-8859-1 page and
// the invalid UTF-8 stay as they are), its status and Content-Type, redirects
// with their Location, 404 for everything unknown, and the endless calendar
// months filled in from a template.
//
// With `living`, pages change with the time elapsed since start()
// (living_server.h), and the request log records what was served when.
//
// Thread-safety: start() and stop() from one thread; the handlers only read
// (the living web's counters and the log are synchronised).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "temporal/status.h"

namespace cronista::sampleweb {

struct SampleWebServerOptions {
  std::string root;      // the folder `sample-web generate` wrote
  int hosts = 0;         // serve only the first N sites; 0 = all
  int port = 0;          // 0 = the port the web was generated for
  bool log = false;      // one line per request on stderr
  int threads_per_host = 4;
  // Serve the living web (living.jsonl; docs/living-web.md) instead of the static one.
  bool living = false;
  // Append one line per request here: arrival (ms since the start), host,
  // target, status, main-content version served (-1 outside the living web).
  std::string request_log;
};

class SampleWebServer {
 public:
  // Loads the web's routes; does not bind yet.
  static Result<std::unique_ptr<SampleWebServer>> load(const SampleWebServerOptions& options);
  ~SampleWebServer();

  // Binds every host and starts serving in background threads. An address
  // or port already in use is an error naming it; nothing stays bound then.
  Status start();
  // Stops every host and joins the threads. Idempotent.
  void stop();

  int port() const;
  // "127.0.0.2", "127.0.0.3", … the distinct addresses served.
  std::vector<std::string> addresses() const;
  // Hosts served; several named hosts may share an address.
  int host_count() const;

 private:
  SampleWebServer() = default;
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace cronista::sampleweb
