// Site profiles from a finished crawl or collection database: the offline
// setting of the replica study, and what `cronista replicas` reads.
//
// A page's main text is its segments without page furniture (segments.text,
// schema version 2 and later); its signature is computed here
// (revisit/content_signature.h). A database without segment texts falls
// back, for a crawl, on the SHA-1 of the whole body (pages.content_hash),
// which counts pages whose furniture differs as different; the result says
// which evidence was used.
#pragma once

#include <string>
#include <vector>

#include "replicas/site_profile.h"
#include "store/database.h"
#include "temporal/status.h"

namespace cronista::replicas {

struct SiteProfiles {
  std::vector<SiteProfile> sites;
  bool main_text = true;  // false: whole-body hashes stood in for main texts
  std::size_t documents = 0;
};

Result<SiteProfiles> read_site_profiles(store::Database& db);

// "http://www.x.pt:8080/a/b?c" → authority "www.x.pt:8080", path "/a/b?c".
bool split_url(const std::string& url, std::string* authority, std::string* path);

}  // namespace cronista::replicas
