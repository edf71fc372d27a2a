// Serving a sample web: routes.tsv per site, files read from disk per
// request (a 20,000-page web need not sit in memory), calendar months from
// the template.
#include "sampleweb/sample_web_server.h"

#include <httplib.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "sampleweb/living_server.h"

namespace cronista::sampleweb {
namespace {

namespace fs = std::filesystem;

struct Route {
  int status = 200;
  bool trap = false;
  std::string content_type;
  std::string file;      // absolute path, for pages
  std::string location;  // for redirects
};

struct Host {
  std::string name;
  std::string address;
  std::string authority;  // "memoria-lusa.pt:18080": what Host names on a shared address
  fs::path dir;
  std::map<std::string, Route> routes;       // exact paths
  std::map<std::string, Route> trap_prefix;  // "/calendario/" → template
  std::vector<std::string> months;
  std::string trap_template;
};

Result<std::string> slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) return Result<std::string>::Error("cannot open '" + p.string() + "': " + std::strerror(errno));
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void replace_all(std::string& s, const std::string& from, const std::string& to) {
  for (std::size_t pos = s.find(from); pos != std::string::npos; pos = s.find(from, pos + to.size()))
    s.replace(pos, from.size(), to);
}

std::string two(int v) { return (v < 10 ? "0" : "") + std::to_string(v); }

// /calendario/YYYY/MM with (YYYY, MM) from 2024-05 on: the month page.
bool serve_trap(const Host& h, const std::string& prefix, const std::string& path, httplib::Response& res) {
  const std::string rest = path.substr(prefix.size());
  if (rest.size() != 7 || rest[4] != '/') return false;
  for (std::size_t i : {0u, 1u, 2u, 3u, 5u, 6u})
    if (rest[i] < '0' || rest[i] > '9') return false;
  const int y = std::stoi(rest.substr(0, 4)), m = std::stoi(rest.substr(5, 2));
  if (m < 1 || m > 12 || y < 2024 || (y == 2024 && m < 5) || h.months.size() != 12) return false;
  const int ny = m == 12 ? y + 1 : y, nm = m == 12 ? 1 : m + 1;
  if (ny > 9999) return false;
  std::string body = h.trap_template;
  std::string month = h.months[static_cast<std::size_t>(m - 1)], cap = month;
  if (!cap.empty() && cap[0] >= 'a' && cap[0] <= 'z') cap[0] = static_cast<char>(cap[0] - 'a' + 'A');
  replace_all(body, "{{month}}", month);
  replace_all(body, "{{Month}}", cap);
  replace_all(body, "{{yyyy}}", std::to_string(y));
  replace_all(body, "{{next}}", prefix + std::to_string(ny) + "/" + two(nm));
  res.status = 200;
  res.set_content(body, "text/html; charset=utf-8");
  return true;
}

}  // namespace

struct SampleWebServer::Impl {
  SampleWebServerOptions options;
  int port = 0;
  std::vector<Host> hosts;
  // Distinct addresses in order of first appearance, each with its hosts.
  std::vector<std::pair<std::string, std::vector<const Host*>>> by_address;
  std::vector<std::unique_ptr<httplib::Server>> servers;
  std::vector<std::thread> threads;
  std::mutex log_mutex;
  std::unique_ptr<LivingSite> living;
  std::chrono::steady_clock::time_point t0;
  std::int64_t t0_offset_ms = 0;  // the real start lies this far after t = 0 (a whole second)
  std::ofstream request_log;
  std::string log_buffer;
  std::chrono::steady_clock::time_point last_flush;

  // The host a request names in its Host header among those sharing an
  // address (named virtual hosts); an address alone serves its first host.
  static const Host& pick(const std::vector<const Host*>& hosts, const httplib::Request& req) {
    if (hosts.size() > 1) {
      std::string name = req.get_header_value("Host");
      for (char& ch : name)
        if (ch >= 'A' && ch <= 'Z') ch = static_cast<char>(ch - 'A' + 'a');
      for (const Host* h : hosts)
        if (name == h->authority || name == h->name) return *h;
    }
    return *hosts.front();
  }

  void handle(const Host& h, const httplib::Request& req, httplib::Response& res) {
    const std::int64_t t =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count() +
        t0_offset_ms;
    int version = -1;
    if (living) {
      LivingRequest lr{h.name, req.path, req.get_header_value("If-None-Match"), req.get_header_value("If-Modified-Since"), t};
      if (auto r = living->respond(lr)) {
        res.status = r->status;
        for (const auto& [name, value] : r->headers) res.set_header(name, value);
        if (r->status != 304) res.set_content(std::move(r->body), r->content_type.c_str());
        version = r->version;
        log_request(h, req, res.status, t, version);
        return;
      }
    }
    serve_static(h, req, res);
    log_request(h, req, res.status, t, version);
  }

  void log_request(const Host& h, const httplib::Request& req, int status, std::int64_t t, int version) {
    if (!request_log.is_open()) return;
    std::string line = std::to_string(t) + "\t" + h.address + ":" + std::to_string(port) + "\t" + req.path + "\t" +
                       std::to_string(status) + "\t" + std::to_string(version) + "\n";
    std::lock_guard<std::mutex> lock(log_mutex);
    log_buffer += line;
    const auto now = std::chrono::steady_clock::now();
    if (log_buffer.size() > (1u << 16) || now - last_flush > std::chrono::seconds(1)) {
      flush_log();
      last_flush = now;
    }
  }

  // Under log_mutex.
  void flush_log() {
    request_log << log_buffer;
    request_log.flush();
    log_buffer.clear();
  }

  void serve_static(const Host& h, const httplib::Request& req, httplib::Response& res) {
    auto it = h.routes.find(req.path);
    if (it != h.routes.end()) {
      const Route& r = it->second;
      res.status = r.status;
      if (!r.location.empty()) {
        res.set_header("Location", r.location);
        res.set_content("<!DOCTYPE html><html><body><a href=\"" + r.location + "\">" + r.location + "</a></body></html>\n",
                        "text/html; charset=utf-8");
        return;
      }
      if (!r.file.empty()) {
        auto body = slurp(r.file);
        if (body) {
          res.set_content(std::move(*body), r.content_type.c_str());
          return;
        }
        res.status = 500;
        res.set_content("cannot read page\n", "text/plain; charset=utf-8");
        return;
      }
    }
    for (const auto& [prefix, route] : h.trap_prefix)
      if (req.path.compare(0, prefix.size(), prefix) == 0 && serve_trap(h, prefix, req.path, res)) return;
    res.status = 404;
    res.set_content("<!DOCTYPE html><html><head><title>404</title></head><body><h1>404</h1></body></html>\n",
                    "text/html; charset=utf-8");
  }
};

Result<std::unique_ptr<SampleWebServer>> SampleWebServer::load(const SampleWebServerOptions& options) {
  using R = Result<std::unique_ptr<SampleWebServer>>;
  const fs::path root(options.root);
  auto web_text = slurp(root / "web.json");
  if (!web_text) return R::Error(web_text.status().message() + " (is --root a folder written by 'sample-web generate'?)");
  nlohmann::json web = nlohmann::json::parse(*web_text, nullptr, false);
  if (web.is_discarded() || !web.contains("hosts") || !web.contains("port"))
    return R::Error("'" + (root / "web.json").string() + "' is not a sample web description");
  std::unique_ptr<SampleWebServer> server(new SampleWebServer());
  server->impl_ = std::make_unique<Impl>();
  Impl& impl = *server->impl_;
  impl.options = options;
  const int generated_port = web["port"].get<int>();
  impl.port = options.port == 0 ? generated_port : options.port;
  if (impl.port != generated_port)
    return R::Error("the web in '" + options.root + "' was generated for port " + std::to_string(generated_port) +
                    "; serve it on that port or generate it again with --port " + std::to_string(impl.port));
  int count = 0;
  for (const auto& h : web["hosts"]) {
    if (options.hosts > 0 && count >= options.hosts) break;
    ++count;
    Host host;
    host.name = h.value("name", "");
    host.address = h.value("address", "");
    host.authority = h.value("authority", "");
    host.dir = root / "sites" / host.name;
    auto routes = slurp(host.dir / "routes.tsv");
    if (!routes) return routes.status();
    std::istringstream lines(*routes);
    std::string line;
    int line_no = 0;
    while (std::getline(lines, line)) {
      ++line_no;
      if (line.empty() || line[0] == '#') continue;
      std::vector<std::string> f;
      std::stringstream ss(line);
      for (std::string part; std::getline(ss, part, '\t');) f.push_back(part);
      if (f.size() != 4)
        return R::Error((host.dir / "routes.tsv").string() + ":" + std::to_string(line_no) + ": expected 4 tab-separated fields");
      Route r;
      if (f[1] == "trap") {
        r.trap = true;
        auto tmpl = slurp(host.dir / f[3]);
        if (!tmpl) return tmpl.status();
        host.trap_template = *tmpl;
        auto months = slurp(host.dir / "months.txt");
        if (!months) return months.status();
        std::istringstream ms(*months);
        for (std::string m; std::getline(ms, m);)
          if (!m.empty()) host.months.push_back(m);
        host.trap_prefix[f[0]] = r;
        continue;
      }
      r.status = std::atoi(f[1].c_str());
      if (r.status < 100 || r.status > 599)
        return R::Error((host.dir / "routes.tsv").string() + ":" + std::to_string(line_no) + ": bad status '" + f[1] + "'");
      if (r.status >= 300 && r.status < 400) {
        r.location = f[3];
      } else if (f[3] != "-") {
        r.content_type = f[2];
        r.file = (host.dir / f[3]).string();
      }
      host.routes[f[0]] = r;
    }
    impl.hosts.push_back(std::move(host));
  }
  if (impl.hosts.empty()) return R::Error("'" + (root / "web.json").string() + "' lists no hosts");
  for (const Host& h : impl.hosts) {
    auto it = std::find_if(impl.by_address.begin(), impl.by_address.end(),
                           [&](const auto& a) { return a.first == h.address; });
    if (it == impl.by_address.end()) it = impl.by_address.insert(impl.by_address.end(), {h.address, {}});
    it->second.push_back(&h);
  }
  if (options.living) {
    if (options.hosts > 0 && options.hosts < static_cast<int>(web["hosts"].size()))
      return R::Error("the living web is served whole: --hosts cannot be combined with --living");
    const Impl* self = &impl;
    auto living = LivingSite::load(options.root, [self](const std::string& name, const std::string& path)
                                                     -> std::optional<std::pair<std::string, std::string>> {
      for (const Host& h : self->hosts) {
        if (h.name != name) continue;
        auto r = h.routes.find(path);
        if (r == h.routes.end() || r->second.file.empty() || r->second.status != 200) return std::nullopt;
        auto body = slurp(r->second.file);
        if (!body) return std::nullopt;
        return std::make_pair(std::move(*body), r->second.content_type);
      }
      return std::nullopt;
    });
    if (!living) return living.status();
    impl.living = std::move(*living);
  }
  return server;
}

SampleWebServer::~SampleWebServer() { stop(); }

Status SampleWebServer::start() {
  Impl& impl = *impl_;
  // t = 0 is the last whole second of the wall clock before now.
  const std::int64_t now_unix_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
  impl.t0 = std::chrono::steady_clock::now();
  impl.t0_offset_ms = now_unix_ms % 1000;
  if (impl.living) impl.living->set_start_unix_ms(now_unix_ms - impl.t0_offset_ms);
  if (!impl.options.request_log.empty()) {
    impl.request_log.open(impl.options.request_log, std::ios::binary | std::ios::trunc);
    if (!impl.request_log)
      return Status::Error("cannot write '" + impl.options.request_log + "': " + std::strerror(errno));
    impl.request_log << "# cronista sample-web request log\tstart_unix_ms=" << now_unix_ms - impl.t0_offset_ms
                     << "\tliving=" << (impl.living ? 1 : 0) << "\n# t_ms\thost\ttarget\tstatus\tversion\n";
    impl.request_log.flush();
  }
  for (const auto& [address, hosts] : impl.by_address) {
    auto s = std::make_unique<httplib::Server>();
    const int threads = std::max(1, impl.options.threads_per_host);
    s->new_task_queue = [threads] { return new httplib::ThreadPool(static_cast<std::size_t>(threads)); };
    s->set_read_timeout(5, 0);
    s->set_write_timeout(5, 0);
    // Headers and body go out in two writes: without TCP_NODELAY, Nagle's
    // algorithm holds the body until the client's delayed ACK, some tens of
    // milliseconds per request on a kept-alive connection.
    s->set_tcp_nodelay(true);
    const std::vector<const Host*>* on_address = &hosts;
    Impl* self = &impl;
    s->Get(".*", [self, on_address](const httplib::Request& req, httplib::Response& res) {
      self->handle(Impl::pick(*on_address, req), req, res);
    });
    if (impl.options.log) {
      s->set_logger([self, on_address](const httplib::Request& req, const httplib::Response& res) {
        const Host& host = Impl::pick(*on_address, req);
        std::lock_guard<std::mutex> lock(self->log_mutex);
        std::cerr << (host.authority.empty() ? host.address + ":" + std::to_string(self->port) : host.authority) << " "
                  << req.method << " " << req.path << " " << res.status << "\n";
      });
    }
    // cpp-httplib's default options add SO_REUSEPORT, with which a second
    // server on the same port binds too and the kernel splits the requests
    // between the two webs. Keep only SO_REUSEADDR (quick restarts).
    s->set_socket_options([](socket_t sock) {
      int yes = 1;
      setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, reinterpret_cast<const void*>(&yes), sizeof(yes));
    });
    errno = 0;
    if (!s->bind_to_port(address, impl.port)) {
      const std::string why = errno ? std::strerror(errno) : "address in use or unavailable";
      stop();
      return Status::Error("cannot listen on " + address + ":" + std::to_string(impl.port) + ": " + why);
    }
    impl.servers.push_back(std::move(s));
  }
  for (auto& s : impl.servers) {
    httplib::Server* raw = s.get();
    impl.threads.emplace_back([raw] { raw->listen_after_bind(); });
  }
  // The sockets listen since bind_to_port; waiting for the accept loops
  // makes a later stop() effective (stop() is a no-op before they run).
  for (auto& s : impl.servers)
    while (!s->is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  return Status::Ok();
}

void SampleWebServer::stop() {
  if (!impl_) return;
  for (auto& s : impl_->servers) s->stop();
  for (auto& t : impl_->threads)
    if (t.joinable()) t.join();
  impl_->threads.clear();
  impl_->servers.clear();
  std::lock_guard<std::mutex> lock(impl_->log_mutex);
  if (impl_->request_log.is_open()) {
    impl_->flush_log();
    impl_->request_log.close();
  }
}

int SampleWebServer::port() const { return impl_->port; }

std::vector<std::string> SampleWebServer::addresses() const {
  std::vector<std::string> out;
  for (const auto& a : impl_->by_address) out.push_back(a.first);
  return out;
}

int SampleWebServer::host_count() const { return static_cast<int>(impl_->hosts.size()); }

}  // namespace cronista::sampleweb
