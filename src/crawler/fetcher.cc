// libcurl multi loop. Each transfer owns an easy handle that is reset and
// reused for the next transfer, so the multi handle's connection cache keeps
// connections alive across transfers to the same host.
#include "crawler/fetcher.h"

#include <curl/curl.h>

#include <algorithm>
#include <cstring>
#include <mutex>

namespace cronista::crawler {

namespace {

std::once_flag g_curl_init;

bool iequals_prefix(std::string_view line, std::string_view name) {
  if (line.size() < name.size()) return false;
  for (std::size_t i = 0; i < name.size(); ++i) {
    char a = line[i], b = name[i];
    if (a >= 'A' && a <= 'Z') a = static_cast<char>(a - 'A' + 'a');
    if (b >= 'A' && b <= 'Z') b = static_cast<char>(b - 'A' + 'a');
    if (a != b) return false;
  }
  return true;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r' || s.back() == '\n')) s.remove_suffix(1);
  return s;
}

FetchError classify(CURLcode code) {
  switch (code) {
    case CURLE_OK: return FetchError::None;
    case CURLE_OPERATION_TIMEDOUT: return FetchError::Timeout;
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_RESOLVE_PROXY: return FetchError::Dns;
    case CURLE_COULDNT_CONNECT: return FetchError::Connect;
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CERTPROBLEM:
    case CURLE_SSL_CIPHER:
    case CURLE_SSL_CACERT_BADFILE: return FetchError::Tls;
    case CURLE_FILESIZE_EXCEEDED: return FetchError::TooLarge;
    case CURLE_WEIRD_SERVER_REPLY:
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM:
    case CURLE_PARTIAL_FILE:
    case CURLE_BAD_CONTENT_ENCODING:
    case CURLE_RECV_ERROR:
    case CURLE_GOT_NOTHING: return FetchError::Protocol;
    default: return FetchError::Other;
  }
}

}  // namespace

std::string_view to_string(FetchError e) {
  switch (e) {
    case FetchError::None: return "";
    case FetchError::Timeout: return "timeout";
    case FetchError::Dns: return "dns";
    case FetchError::Connect: return "connect";
    case FetchError::Tls: return "tls";
    case FetchError::TooLarge: return "too-large";
    case FetchError::Protocol: return "protocol";
    case FetchError::Other: return "other";
  }
  return "other";
}

struct Fetcher::Transfer {
  CURL* easy = nullptr;
  FetchResponse response;
  std::size_t max_body = 0;
  bool too_large = false;
  bool follow = false;
  std::vector<std::string> headers;  // FetchRequest::headers
  curl_slist* header_list = nullptr;
  char errbuf[CURL_ERROR_SIZE] = {};
  std::chrono::steady_clock::time_point t0;

  ~Transfer() {
    if (easy) curl_easy_cleanup(easy);
    curl_slist_free_all(header_list);
  }

  static size_t on_body(char* data, size_t size, size_t n, void* user) {
    auto* t = static_cast<Transfer*>(user);
    const size_t len = size * n;
    if (t->response.body.size() + len > t->max_body) {
      t->too_large = true;
      return 0;  // aborts the transfer (CURLE_WRITE_ERROR)
    }
    t->response.body.append(data, len);
    return len;
  }

  static size_t on_header(char* data, size_t size, size_t n, void* user) {
    auto* t = static_cast<Transfer*>(user);
    const size_t len = size * n;
    std::string_view line(data, len);
    // A new response (after a redirect or a 1xx) starts a new head.
    if (line.starts_with("HTTP/")) {
      t->response.answered = std::chrono::steady_clock::now();
      t->response.raw_head.clear();
      t->response.content_type.clear();
      t->response.last_modified.clear();
      t->response.etag.clear();
      t->response.location.clear();
      t->response.retry_after.clear();
    }
    t->response.raw_head.append(line);
    auto value = [&](std::string_view name) { return std::string(trim(line.substr(name.size()))); };
    if (iequals_prefix(line, "content-type:")) t->response.content_type = value("content-type:");
    else if (iequals_prefix(line, "last-modified:")) t->response.last_modified = value("last-modified:");
    else if (iequals_prefix(line, "etag:")) t->response.etag = value("etag:");
    else if (iequals_prefix(line, "location:")) t->response.location = value("location:");
    else if (iequals_prefix(line, "retry-after:")) t->response.retry_after = value("retry-after:");
    return len;
  }
};

Fetcher::Fetcher(const FetcherOptions& options) : options_(options) {
  std::call_once(g_curl_init, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
  CURLM* m = curl_multi_init();
  curl_multi_setopt(m, CURLMOPT_PIPELINING, CURLPIPE_MULTIPLEX);
  curl_multi_setopt(m, CURLMOPT_MAX_TOTAL_CONNECTIONS, static_cast<long>(std::max(1, options_.max_connections)));
  if (options_.max_host_connections > 0)
    curl_multi_setopt(m, CURLMOPT_MAX_HOST_CONNECTIONS, static_cast<long>(options_.max_host_connections));
  curl_multi_setopt(m, CURLMOPT_MAXCONNECTS, static_cast<long>(std::max(8, options_.max_connections * 2)));
  multi_ = m;
  curl_slist* list = nullptr;
  for (const auto& entry : options_.resolve)
    if (!invalid_resolve_entry(entry)) list = curl_slist_append(list, entry.c_str());
  resolve_ = list;
}

Fetcher::~Fetcher() {
  abort_all();
  idle_.clear();
  curl_multi_cleanup(static_cast<CURLM*>(multi_));
  curl_slist_free_all(static_cast<curl_slist*>(resolve_));
}

std::optional<std::string> invalid_resolve_entry(std::string_view entry) {
  const std::size_t first = entry.find(':');
  if (first == std::string_view::npos || first == 0) return "expected HOST:PORT:ADDRESS";
  const std::size_t second = entry.find(':', first + 1);
  if (second == std::string_view::npos) return "expected HOST:PORT:ADDRESS";
  const std::string_view port = entry.substr(first + 1, second - first - 1);
  int p = 0;
  for (char c : port) {
    if (c < '0' || c > '9' || p > 65535) return "the port must be a number from 1 to 65535";
    p = p * 10 + (c - '0');
  }
  if (port.empty() || p < 1 || p > 65535) return "the port must be a number from 1 to 65535";
  const std::string_view address = entry.substr(second + 1);
  if (address.empty()) return "no address after HOST:PORT:";
  return std::nullopt;
}

void Fetcher::setup(Transfer& t) {
  CURL* e = t.easy;
  curl_easy_reset(e);
  curl_easy_setopt(e, CURLOPT_URL, t.response.url.c_str());
  curl_easy_setopt(e, CURLOPT_PRIVATE, &t);
  curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(e, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(e, CURLOPT_USERAGENT, options_.user_agent.c_str());
  curl_easy_setopt(e, CURLOPT_ACCEPT_ENCODING, "");
  curl_easy_setopt(e, CURLOPT_HTTP_VERSION, static_cast<long>(CURL_HTTP_VERSION_2TLS));
  if (!options_.ca_file.empty()) curl_easy_setopt(e, CURLOPT_CAINFO, options_.ca_file.c_str());
  if (resolve_) curl_easy_setopt(e, CURLOPT_RESOLVE, static_cast<curl_slist*>(resolve_));
  curl_easy_setopt(e, CURLOPT_PIPEWAIT, 1L);
  curl_easy_setopt(e, CURLOPT_TCP_KEEPALIVE, 1L);
  curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(options_.connect_timeout.count()));
  curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, static_cast<long>(options_.total_timeout.count()));
  curl_easy_setopt(e, CURLOPT_MAXFILESIZE_LARGE, static_cast<curl_off_t>(options_.max_body_bytes));
  curl_easy_setopt(e, CURLOPT_FOLLOWLOCATION, t.follow ? 1L : 0L);
  curl_easy_setopt(e, CURLOPT_MAXREDIRS, 5L);
  curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, &Transfer::on_body);
  curl_easy_setopt(e, CURLOPT_WRITEDATA, &t);
  curl_easy_setopt(e, CURLOPT_HEADERFUNCTION, &Transfer::on_header);
  curl_easy_setopt(e, CURLOPT_HEADERDATA, &t);
  curl_easy_setopt(e, CURLOPT_ERRORBUFFER, t.errbuf);
  curl_slist_free_all(t.header_list);
  t.header_list = nullptr;
  for (const std::string& h : t.headers) t.header_list = curl_slist_append(t.header_list, h.c_str());
  if (t.header_list) curl_easy_setopt(e, CURLOPT_HTTPHEADER, t.header_list);
}

void Fetcher::start(FetchRequest request) {
  std::unique_ptr<Transfer> t;
  if (!idle_.empty()) {
    t = std::move(idle_.back());
    idle_.pop_back();
  } else {
    t = std::make_unique<Transfer>();
    t->easy = curl_easy_init();
  }
  t->response = FetchResponse{};
  t->response.token = request.token;
  t->response.url = std::move(request.url);
  t->response.started = std::chrono::system_clock::now();
  t->follow = request.follow_redirects;
  t->headers = std::move(request.headers);
  t->max_body = options_.max_body_bytes;
  t->too_large = false;
  t->errbuf[0] = '\0';
  t->t0 = std::chrono::steady_clock::now();
  setup(*t);
  curl_multi_add_handle(static_cast<CURLM*>(multi_), t->easy);
  active_.push_back(std::move(t));
  ++in_flight_;
}

void Fetcher::run_once(std::chrono::milliseconds wait, const std::function<void(FetchResponse&&)>& done) {
  CURLM* m = static_cast<CURLM*>(multi_);
  int running = 0;
  curl_multi_perform(m, &running);
  if (wait.count() > 0) {
    curl_multi_poll(m, nullptr, 0, static_cast<int>(wait.count()), nullptr);
    curl_multi_perform(m, &running);
  }
  int left = 0;
  while (CURLMsg* msg = curl_multi_info_read(m, &left)) {
    if (msg->msg != CURLMSG_DONE) continue;
    CURL* e = msg->easy_handle;
    const CURLcode code = msg->data.result;
    Transfer* tp = nullptr;
    curl_easy_getinfo(e, CURLINFO_PRIVATE, reinterpret_cast<char**>(&tp));
    curl_multi_remove_handle(m, e);
    auto it = std::find_if(active_.begin(), active_.end(), [&](const auto& p) { return p.get() == tp; });
    if (it == active_.end()) continue;
    std::unique_ptr<Transfer> t = std::move(*it);
    *it = std::move(active_.back());
    active_.pop_back();
    --in_flight_;

    FetchResponse& r = t->response;
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t->t0).count();
    long status = 0;
    curl_easy_getinfo(e, CURLINFO_RESPONSE_CODE, &status);
    r.status = status;
    char* eff = nullptr;
    curl_easy_getinfo(e, CURLINFO_EFFECTIVE_URL, &eff);
    r.effective_url = eff ? eff : r.url;
    char* ip = nullptr;
    curl_easy_getinfo(e, CURLINFO_PRIMARY_IP, &ip);
    if (ip) r.ip = ip;
    long version = 0;
    curl_easy_getinfo(e, CURLINFO_HTTP_VERSION, &version);
    r.http_version = version == CURL_HTTP_VERSION_2_0 ? "2"
                     : version == CURL_HTTP_VERSION_1_0 ? "1.0"
                     : version == CURL_HTTP_VERSION_3 ? "3"
                                                      : "1.1";
    if (t->too_large || code == CURLE_FILESIZE_EXCEEDED) {
      r.error = FetchError::TooLarge;
      r.error_message = "body larger than " + std::to_string(options_.max_body_bytes) + " bytes";
    } else if (code != CURLE_OK) {
      r.error = classify(code);
      r.error_message = t->errbuf[0] ? std::string(t->errbuf) : std::string(curl_easy_strerror(code));
    }
    // The request as a server would have seen it, for the WARC request record.
    std::string_view url = r.effective_url;
    std::size_t after_scheme = url.find("://");
    std::size_t host_begin = after_scheme == std::string_view::npos ? 0 : after_scheme + 3;
    std::size_t path_begin = url.find('/', host_begin);
    std::string_view host = url.substr(host_begin, path_begin == std::string_view::npos ? url.npos : path_begin - host_begin);
    std::string_view target = path_begin == std::string_view::npos ? std::string_view("/") : url.substr(path_begin);
    r.raw_request = "GET " + std::string(target) + " HTTP/1.1\r\nHost: " + std::string(host) +
                    "\r\nUser-Agent: " + options_.user_agent +
                    "\r\nAccept: */*\r\nAccept-Encoding: gzip, deflate, br, zstd\r\n";
    for (const std::string& h : t->headers) r.raw_request += h + "\r\n";
    r.raw_request += "\r\n";
    done(std::move(r));
    idle_.push_back(std::move(t));
  }
}

void Fetcher::wake() { curl_multi_wakeup(static_cast<CURLM*>(multi_)); }

void Fetcher::abort_all() {
  CURLM* m = static_cast<CURLM*>(multi_);
  for (auto& t : active_) {
    curl_multi_remove_handle(m, t->easy);
    idle_.push_back(std::move(t));
  }
  active_.clear();
  in_flight_ = 0;
}

}  // namespace cronista::crawler
