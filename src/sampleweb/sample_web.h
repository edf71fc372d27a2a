// The bundled sample web: a deterministic, multi-host Portuguese web written
// from the texts in corpora/sample-web/ (facts about known periods, date
// forms, filler sentences, site furniture), with a ground-truth file that says
// which periods every paragraph speaks of.
//
// Why: users can try the crawler without the internet, and crawls can be
// measured against ground truth instead of the crawler judging itself
// (method.md §4). The web is built so that a focused crawl has something to
// exploit (links in a paragraph lead mostly to pages about the paragraph's
// period) and something to get wrong (navigation, sidebars and footers full
// of dates and links outside any scope, robots.txt rules, redirects, a
// calendar that never ends, broken pages). docs/sample-web.md documents the
// layout, the truth file and its semantics.
//
// Same options → byte-identical output (own PRNG, ordered containers, no
// clock).
#pragma once

#include <cstdint>
#include <string>

#include "temporal/status.h"

namespace cronista::sampleweb {

struct SampleWebOptions {
  std::string corpora_dir;  // the folder with facts/, forms.txt, filler.txt, sites.txt
  std::string out_dir;
  int pages = 2000;         // content pages (articles, news, posts, editions); index pages come on top
  std::uint64_t seed = 1;
  int port = 18080;         // baked into every absolute URL
  int first_host = 2;       // hosts are 127.0.0.<first_host>, <first_host + 1>, …
  // Also write living.jsonl, the truth of the living web (living_web.h): the
  // static files are the same bytes with or without it.
  bool living = false;
  double living_horizon_s = 3600;
  // Also write the replica web (sample_web_replicas.h): named hosts on the
  // addresses after the sample web's, some replicas of others, with
  // replicas.json; the rest of the web is the same bytes with or without it.
  bool replicas = false;
};

struct SampleWebSummary {
  int hosts = 0;
  int pages = 0;          // every URL in the truth file that answers 200
  int redirects = 0;
  int relevant_1939_1945 = 0;
  int relevant_2001 = 0;
  // With --living: the collection, its changes within the horizon, the new articles.
  int living_pages = 0;
  int living_changes = 0;
  int living_new_articles = 0;
  // With --replicas: named hosts, their pages, replica clusters, replicas, hard-negative pairs.
  int replica_hosts = 0, replica_pages = 0, replica_clusters = 0, replicas = 0, replica_negatives = 0;
};

// Writes the web into options.out_dir (created if missing; files of an
// earlier web are overwritten, not removed): web.json, hosts.txt,
// truth.jsonl, seeds-1939-1945.txt, seeds-2001.txt and sites/<name>/ (and
// living.jsonl with options.living).
Result<SampleWebSummary> generate_sample_web(const SampleWebOptions& options);

// The corpora folder of a cronista home (<home>/corpora/sample-web).
std::string default_sample_corpora_dir();

}  // namespace cronista::sampleweb
