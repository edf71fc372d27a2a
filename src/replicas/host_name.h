// Host names as replica evidence: the parts of an authority
// ("www.arquivo.pt:8080") that mirrors share or vary.
//
// The registrable domain comes from the Public Suffix List through libpsl
// (its built-in list), so "arquivo.com.br" and "arquivo.pt" are both the
// label "arquivo" under different suffixes, and "www.arquivo.pt" is
// "arquivo.pt" with a "www" subdomain. Address literals (127.0.0.2,
// [::1]) have no suffix: their label is the address itself.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace cronista::replicas {

struct HostName {
  std::string host;         // lower-case, without port
  std::string port;         // "" when none
  std::string registrable;  // "arquivo.com.br"; the host itself for an address
  std::string suffix;       // "com.br"; "" for an address
  std::string label;        // registrable without its suffix: "arquivo"
  std::string subdomain;    // "www", "noticias.www", ""
  bool address = false;     // an IPv4 or IPv6 literal
};

HostName parse_host_name(std::string_view authority);

// The host without a leading "www." (or "www2." …, "ww.") label.
std::string without_www(const HostName& h);

// How two names relate when they look like one site:
// - kAlias: the same but for a "www." prefix (and the port);
// - kOtherSuffix: the same label and subdomain under another public suffix
//   ("arquivo.pt", "arquivo.com.br");
// - kUnrelated: anything else.
enum class NameRelation { kUnrelated, kAlias, kOtherSuffix };
NameRelation name_relation(const HostName& a, const HostName& b);

// The tokens of a host name (split at dots and hyphens), without the
// public suffix and the "www" label: "noticias-lusa.com.br" → {noticias, lusa}.
std::vector<std::string> host_tokens(const HostName& h);

}  // namespace cronista::replicas
