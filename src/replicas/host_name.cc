#include "replicas/host_name.h"

#include <libpsl.h>

#include <algorithm>
#include <cctype>

namespace cronista::replicas {
namespace {

bool is_ipv4(std::string_view h) {
  if (h.empty()) return false;
  int dots = 0;
  for (char c : h) {
    if (c == '.') ++dots;
    else if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  }
  return dots == 3;
}

bool is_www_label(std::string_view label) {
  if (label == "ww") return true;
  if (label.substr(0, 3) != "www") return false;
  return std::all_of(label.begin() + 3, label.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

}  // namespace

HostName parse_host_name(std::string_view authority) {
  HostName h;
  std::string a(authority);
  std::transform(a.begin(), a.end(), a.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (!a.empty() && a.front() == '[') {
    const auto close = a.find(']');
    h.host = a.substr(0, close == std::string::npos ? a.size() : close + 1);
    if (close != std::string::npos && close + 1 < a.size() && a[close + 1] == ':') h.port = a.substr(close + 2);
    h.address = true;
  } else {
    const auto colon = a.rfind(':');
    h.host = a.substr(0, colon);
    if (colon != std::string::npos) h.port = a.substr(colon + 1);
    h.address = is_ipv4(h.host);
  }
  while (!h.host.empty() && h.host.back() == '.') h.host.pop_back();
  if (h.address) {
    h.registrable = h.label = h.host;
    return h;
  }
  const psl_ctx_t* psl = psl_builtin();
  const char* reg = psl ? psl_registrable_domain(psl, h.host.c_str()) : nullptr;
  h.registrable = reg ? reg : h.host;
  const auto dot = h.registrable.find('.');
  h.label = h.registrable.substr(0, dot);
  h.suffix = dot == std::string::npos ? "" : h.registrable.substr(dot + 1);
  if (h.host.size() > h.registrable.size() + 1) h.subdomain = h.host.substr(0, h.host.size() - h.registrable.size() - 1);
  return h;
}

std::string without_www(const HostName& h) {
  if (h.address) return h.host;
  const auto dot = h.host.find('.');
  if (dot != std::string::npos && is_www_label(std::string_view(h.host).substr(0, dot)) &&
      h.host.size() - dot - 1 >= h.registrable.size())
    return h.host.substr(dot + 1);
  return h.host;
}

NameRelation name_relation(const HostName& a, const HostName& b) {
  if (a.address || b.address) return NameRelation::kUnrelated;
  const std::string wa = without_www(a), wb = without_www(b);
  if (wa == wb) return a.host != b.host ? NameRelation::kAlias : NameRelation::kUnrelated;
  auto strip = [](const std::string& sub) {
    const auto dot = sub.find('.');
    const std::string_view first = std::string_view(sub).substr(0, dot);
    if (is_www_label(first)) return dot == std::string::npos ? std::string() : sub.substr(dot + 1);
    return sub;
  };
  if (a.label == b.label && a.suffix != b.suffix && strip(a.subdomain) == strip(b.subdomain))
    return NameRelation::kOtherSuffix;
  return NameRelation::kUnrelated;
}

std::vector<std::string> host_tokens(const HostName& h) {
  std::vector<std::string> out;
  std::string name = h.address ? h.host : (h.subdomain.empty() ? h.label : h.subdomain + "." + h.label);
  std::string cur;
  auto flush = [&] {
    if (!cur.empty() && !is_www_label(cur)) out.push_back(cur);
    cur.clear();
  };
  for (char c : name) {
    if (c == '.' || c == '-') flush();
    else cur.push_back(c);
  }
  flush();
  return out;
}

}  // namespace cronista::replicas
