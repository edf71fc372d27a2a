// The HTTP side of the crawler: many concurrent transfers in one libcurl
// multi event loop. Connections are kept alive and reused across transfers
// (HTTP/2 multiplexing where the server offers it over TLS), bodies are
// decoded (gzip, deflate, br, zstd as libcurl was built) and capped while
// they arrive: the write callback aborts a transfer as soon as the body
// passes the limit, so a huge or endless response costs at most the limit.
//
// Redirects are NOT followed here (except for robots.txt requests, which ask
// for it): the crawler turns each hop into a new frontier entry so that every
// hop is recorded and checked against robots.txt and the crawl's scope.
// Retries and back-off are the crawler's business too (they must respect
// politeness); the fetcher reports Retry-After.
//
// Thread-safety: one thread drives a Fetcher (start/run_once); wake() may be
// called from any thread to interrupt a wait.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cronista::crawler {

// Why a transfer produced no usable HTTP response.
enum class FetchError { None, Timeout, Dns, Connect, Tls, TooLarge, Protocol, Other };
std::string_view to_string(FetchError e);  // "", "timeout", "dns", "connect", "tls", "too-large", "protocol", "other"

struct FetcherOptions {
  std::string user_agent = "cronista/0.1";
  int max_connections = 32;       // concurrent transfers
  int max_host_connections = 0;   // per host, 0 = no libcurl limit (the crawler enforces its own)
  std::chrono::milliseconds connect_timeout{10000};
  std::chrono::milliseconds total_timeout{30000};
  std::size_t max_body_bytes = 10 * 1024 * 1024;
  // PEM file of certificate authorities trusted for HTTPS instead of the
  // system store (an institution's own CA, a test server); empty: the system's.
  std::string ca_file;
  // Names resolved without DNS, in curl's --resolve form HOST:PORT:ADDRESS
  // (connect to ADDRESS; the name still goes in Host and TLS SNI), so that
  // named virtual hosts can be crawled on loopback. See valid_resolve_entry().
  std::vector<std::string> resolve;
};

// Whether `entry` has the form HOST:PORT:ADDRESS (an IPv6 address in
// brackets), with a port from 1 to 65535; the reason when not.
std::optional<std::string> invalid_resolve_entry(std::string_view entry);

struct FetchRequest {
  std::uint64_t token = 0;  // the caller's handle, returned in the response
  std::string url;
  bool follow_redirects = false;  // robots.txt only (RFC 9309: at least five hops)
  // Extra request header lines ("If-None-Match: \"abc\""), sent as given
  // and written into FetchResponse::raw_request.
  std::vector<std::string> headers;
};

struct FetchResponse {
  std::uint64_t token = 0;
  std::string url;            // as requested
  std::string effective_url;  // differs from url only when following redirects
  long status = 0;            // 0 when no response arrived
  FetchError error = FetchError::None;
  std::string error_message;  // libcurl's explanation
  // The final response's status line and header lines exactly as received
  // ("HTTP/1.1 200 OK\r\n...\r\n\r\n").
  std::string raw_head;
  // A plausible HTTP/1.1 request for the WARC request record.
  std::string raw_request;
  std::string body;  // content-decoded payload (complete unless error == TooLarge/Timeout)
  std::string content_type, last_modified, etag, location, retry_after;
  std::string http_version;  // "1.0", "1.1", "2"
  std::string ip;            // the server's address, when connected
  std::chrono::system_clock::time_point started;
  double seconds = 0;  // wall time of the transfer
  // When the status line of the last response arrived (the server had read
  // the request by then); the clock's epoch when no response arrived.
  std::chrono::steady_clock::time_point answered{};
};

class Fetcher {
 public:
  explicit Fetcher(const FetcherOptions& options);
  ~Fetcher();
  Fetcher(const Fetcher&) = delete;
  Fetcher& operator=(const Fetcher&) = delete;

  // Queues a transfer; it starts at the next run_once().
  void start(FetchRequest request);
  // Drives the transfers: waits up to `wait` for network activity (or a
  // wake()), then hands every finished transfer to `done`.
  void run_once(std::chrono::milliseconds wait, const std::function<void(FetchResponse&&)>& done);
  // Interrupts a run_once() wait. Thread-safe.
  void wake();
  // Transfers started and not yet handed back.
  std::size_t in_flight() const { return in_flight_; }
  // Abandons every transfer in flight (shutdown).
  void abort_all();

  const FetcherOptions& options() const { return options_; }

 private:
  struct Transfer;
  void setup(Transfer& t);

  FetcherOptions options_;
  void* multi_ = nullptr;  // CURLM*
  void* resolve_ = nullptr;  // curl_slist* of FetcherOptions::resolve
  std::vector<std::unique_ptr<Transfer>> idle_;  // finished transfers, reused
  std::vector<std::unique_ptr<Transfer>> active_;
  std::size_t in_flight_ = 0;
};

}  // namespace cronista::crawler
