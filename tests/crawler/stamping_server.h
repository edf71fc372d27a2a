// A loopback HTTP/1.1 server that stamps each request with the kernel's
// receive time of its first byte (SO_TIMESTAMPNS, read with recvmsg), not
// with the time a thread got round to it: a stamp a loaded machine cannot
// delay. One thread polls the listening socket and every connection; pages
// are fixed bodies (text/html, 200), anything else is a 404; connections
// are kept alive. For politeness tests: the gap between two arrivals as the
// server's network stack saw them.
#pragma once

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "crawler/loopback_listener.h"

namespace cronista::testing {

class StampingServer {
 public:
  struct Arrival {
    std::string path;
    std::chrono::nanoseconds at;  // kernel receive time (CLOCK_REALTIME) of the request's first byte
  };

  explicit StampingServer(std::map<std::string, std::string> pages) : pages_(std::move(pages)) {
    listener_ = loopback_listener(64, &port_);
    if (listener_ < 0) throw std::runtime_error("loopback listener: " + std::string(std::strerror(errno)));
    // Set before any connection: an accepted socket inherits it, so even the
    // bytes that arrive before accept() returns are stamped.
    const int on = 1;
    ::setsockopt(listener_, SOL_SOCKET, SO_TIMESTAMPNS, &on, sizeof on);
    thread_ = std::thread([this] { loop(); });
  }
  ~StampingServer() {
    stop_ = true;
    if (thread_.joinable()) thread_.join();
    for (const Connection& c : connections_) ::close(c.fd);
    ::close(listener_);
  }
  StampingServer(const StampingServer&) = delete;
  StampingServer& operator=(const StampingServer&) = delete;

  std::string url(const std::string& path) const { return "http://127.0.0.1:" + std::to_string(port_) + path; }

  std::vector<Arrival> arrivals() const {
    std::lock_guard lk(mu_);
    return arrivals_;
  }
  // Requests whose first bytes came without a kernel timestamp (stamped 0).
  int unstamped() const { return unstamped_; }

 private:
  struct Connection {
    int fd = -1;
    std::string buffer;  // bytes of requests not yet answered
    std::chrono::nanoseconds first_byte{0};  // of the request at the buffer's head
  };

  void loop() {
    while (!stop_) {
      std::vector<pollfd> fds{{listener_, POLLIN, 0}};
      for (const Connection& c : connections_) fds.push_back({c.fd, POLLIN, 0});
      if (::poll(fds.data(), fds.size(), 20) <= 0) continue;
      std::vector<Connection> open;
      for (std::size_t i = 0; i + 1 < fds.size(); ++i) {  // the connections polled
        Connection& c = connections_[i];
        const short ev = fds[i + 1].revents;
        if ((ev & (POLLIN | POLLHUP | POLLERR)) && !receive(c)) {
          ::close(c.fd);
          continue;
        }
        open.push_back(std::move(c));
      }
      if (fds[0].revents & POLLIN) {
        const int fd = ::accept(listener_, nullptr, nullptr);
        if (fd >= 0) {
          const int on = 1;  // inherited from the listener; set again in case a kernel does not
          ::setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &on, sizeof on);
          open.push_back(Connection{fd, {}, {}});
        }
      }
      connections_ = std::move(open);
    }
  }

  // Reads what arrived, stamps a request's first byte, answers complete
  // requests; false when the peer closed.
  bool receive(Connection& c) {
    char data[8192];
    alignas(cmsghdr) char control[256];
    iovec iov{data, sizeof data};
    msghdr msg{};
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control;
    msg.msg_controllen = sizeof control;
    const ssize_t n = ::recvmsg(c.fd, &msg, 0);
    if (n <= 0) return false;
    std::chrono::nanoseconds stamp{0};
    for (cmsghdr* cm = CMSG_FIRSTHDR(&msg); cm != nullptr; cm = CMSG_NXTHDR(&msg, cm)) {
      if (cm->cmsg_level == SOL_SOCKET && cm->cmsg_type == SCM_TIMESTAMPNS) {
        timespec ts{};
        std::memcpy(&ts, CMSG_DATA(cm), sizeof ts);
        stamp = std::chrono::seconds(ts.tv_sec) + std::chrono::nanoseconds(ts.tv_nsec);
      }
    }
    if (c.buffer.empty()) {
      if (stamp.count() == 0) ++unstamped_;  // the test checks there is none
      c.first_byte = stamp;
    }
    c.buffer.append(data, static_cast<std::size_t>(n));
    for (std::size_t end; (end = c.buffer.find("\r\n\r\n")) != std::string::npos;) {
      const std::string head = c.buffer.substr(0, end);
      c.buffer.erase(0, end + 4);
      const std::size_t sp1 = head.find(' ');
      const std::size_t sp2 = head.find(' ', sp1 + 1);
      const std::string path = sp1 == std::string::npos || sp2 == std::string::npos ? "" : head.substr(sp1 + 1, sp2 - sp1 - 1);
      {
        std::lock_guard lk(mu_);
        arrivals_.push_back({path, c.first_byte});
      }
      // Pipelined bytes of the next request came in this same read.
      if (!c.buffer.empty()) c.first_byte = stamp;
      auto it = pages_.find(path);
      const std::string body = it == pages_.end() ? "not found" : it->second;
      const std::string response = std::string(it == pages_.end() ? "HTTP/1.1 404 Not Found" : "HTTP/1.1 200 OK") +
                                   "\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: " +
                                   std::to_string(body.size()) + "\r\nConnection: keep-alive\r\n\r\n" + body;
      for (std::size_t sent = 0; sent < response.size();) {
        const ssize_t w = ::send(c.fd, response.data() + sent, response.size() - sent, MSG_NOSIGNAL);
        if (w <= 0) return false;
        sent += static_cast<std::size_t>(w);
      }
    }
    return true;
  }

  std::map<std::string, std::string> pages_;
  int listener_ = -1;
  int port_ = 0;
  std::atomic<bool> stop_{false};
  std::atomic<int> unstamped_{0};
  std::thread thread_;
  std::vector<Connection> connections_;  // the server thread's only
  mutable std::mutex mu_;
  std::vector<Arrival> arrivals_;
};

}  // namespace cronista::testing
