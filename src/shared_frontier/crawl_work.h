// The crawler's SharedWork (crawler/shared_work.h) served by a
// SharedFrontier on Redis: what `crawl --frontier URI --crawl-id NAME` uses.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "crawler/shared_work.h"
#include "shared_frontier/shared_frontier.h"

namespace cronista::shared_frontier {

// Connects (a one-line error when Redis does not answer) and agrees on the
// settings every worker of the crawl must be given alike
// (SharedFrontier::agree): those the crawl has with other values are put in
// `clashes`, for the caller to refuse to join.
Result<std::shared_ptr<crawler::SharedWork>> open_crawl_work(
    const std::string& uri, const SharedFrontierOptions& options,
    const std::vector<std::pair<std::string, std::string>>& settings = {},
    std::vector<SharedFrontier::Clash>* clashes = nullptr);

}  // namespace cronista::shared_frontier
