// What a revisiting crawl keeps in memory of each downloaded page between
// its visits: the URL, the validators and digest of the newest full
// response, and the signature of its main text. With the schedule's record
// (revisit_schedule.h) and the URL's key in an index, this is the crawl's
// memory per page under revisit; bench/revisit_bench.cc measures it at a
// million pages.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "revisit/content_signature.h"

namespace cronista::crawler {

struct PageCopy {
  std::string url;
  std::string etag, last_modified;  // validators of the newest full response
  std::string content_hash;         // sha1 of the newest body
  std::string captured_at;          // fetched_at of the newest response record (WARC revisits refer to it)
  std::optional<revisit::ContentSignature> signature;  // the main text of the copy
  std::uint32_t host = 0;
  std::uint16_t depth = 0;
  bool in_flight = false;
};

}  // namespace cronista::crawler
