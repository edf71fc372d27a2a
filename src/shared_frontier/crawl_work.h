// The crawler's SharedWork (crawler/shared_work.h) served by a
// SharedFrontier on Redis: what `crawl --frontier URI --crawl-id NAME` uses.
#pragma once

#include <memory>
#include <string>

#include "crawler/shared_work.h"
#include "shared_frontier/shared_frontier.h"

namespace cronista::shared_frontier {

// Connects (a one-line error when Redis does not answer).
Result<std::shared_ptr<crawler::SharedWork>> open_crawl_work(const std::string& uri,
                                                             const SharedFrontierOptions& options);

}  // namespace cronista::shared_frontier
