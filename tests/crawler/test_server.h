// A real HTTP server on loopback for the crawler tests (cpp-httplib): binds
// an ephemeral port on a chosen 127.0.0.x address, serves in a thread, and
// logs every request (path, arrival time, User-Agent, Host) so tests can check
// what the crawler asked for, in which order and how far apart.
#pragma once

#include <httplib.h>

#include <chrono>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace cronista::testing {

class TestServer {
 public:
  struct Request {
    std::string path;  // path with query
    std::chrono::steady_clock::time_point at;
    std::string user_agent;
    std::string host;  // the Host header as received
  };

  explicit TestServer(std::string address = "127.0.0.1") : address_(std::move(address)) {
    // More threads than any test opens connections: a kept-alive idle
    // connection holds its thread.
    server_.new_task_queue = [] { return new httplib::ThreadPool(48); };
    server_.set_logger([this](const httplib::Request& req, const httplib::Response&) { (void)req; });
    server_.set_pre_routing_handler([this](const httplib::Request& req, httplib::Response&) {
      std::string target = req.path;
      if (!req.params.empty()) {
        std::string q;
        for (const auto& [k, v] : req.params) q += (q.empty() ? "" : "&") + k + "=" + v;
        target += "?" + q;
      }
      std::lock_guard lk(mu_);
      log_.push_back({target, std::chrono::steady_clock::now(), req.get_header_value("User-Agent"),
                      req.get_header_value("Host")});
      return httplib::Server::HandlerResponse::Unhandled;
    });
  }
  ~TestServer() { stop(); }

  httplib::Server& http() { return server_; }

  // Starts serving; the port is chosen by the kernel.
  void start() {
    port_ = server_.bind_to_any_port(address_);
    thread_ = std::thread([this] { server_.listen_after_bind(); });
    while (!server_.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  void stop() {
    if (thread_.joinable()) {
      server_.stop();
      thread_.join();
    }
  }

  int port() const { return port_; }
  // "http://127.0.0.1:PORT"
  std::string origin() const { return "http://" + address_ + ":" + std::to_string(port_); }
  std::string url(const std::string& path) const { return origin() + path; }

  std::vector<Request> log() const {
    std::lock_guard lk(mu_);
    return log_;
  }
  std::vector<std::string> paths() const {
    std::lock_guard lk(mu_);
    std::vector<std::string> out;
    for (const auto& r : log_) out.push_back(r.path);
    return out;
  }
  int count(const std::string& path) const {
    std::lock_guard lk(mu_);
    int n = 0;
    for (const auto& r : log_) n += r.path == path;
    return n;
  }

 private:
  std::string address_;
  httplib::Server server_;
  std::thread thread_;
  int port_ = 0;
  mutable std::mutex mu_;
  std::vector<Request> log_;
};

}  // namespace cronista::testing
