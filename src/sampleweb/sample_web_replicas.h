// The replica web: named sites beside the sample web, some of them replicas
// of others, with the truth (`sample-web generate --replicas`).
//
// Each original site holds articles written from the corpus (a fact's
// clause, filler sentences), a home page listing them, /sobre.html and
// /contactos.html. Its copies render the same articles with their own host
// in every absolute link and footer:
// - alias:   "www." + the name, on the same address;
// - tld:     the same label under another public suffix, on another address;
// - prefix:  another site that also holds its own articles copies every
//            page under /espelho/<label>/;
// - partial: an unrelated name holding about half of the articles;
// - stale:   an unrelated name holding the older articles in an older
//            version (a final sentence not yet written).
// And sites that are NOT replicas of each other (the hard negatives):
// two unrelated sites on one address (shared hosting), sites whose
// /sobre.html and /contactos.html paths are the same with other texts (every
// site), and a site that republishes a tenth of another's articles under its
// own paths beside its own.
//
// Names come from the corpus (site titles and fact categories, slugified) in
// an order drawn from the seed; addresses follow the sample web's
// (127.0.0.<first_host + 7> on). Replicas are reached by links only (the
// seeds are the originals' and the unrelated sites' homes), some by many,
// some by one.
//
// Files written beside the web: sites/<host>/ per named host (entries
// appended to web.json's hosts, with their authority, which the server
// matches against the Host header), replicas.json (the truth: hosts and
// their pages' content origins, clusters with the kind of each replica,
// hard-negative pairs), resolve.txt (HOST:PORT:ADDRESS lines for
// `crawl --resolve-file`), hosts.replicas (an /etc/hosts fragment) and
// seeds-replicas.txt. The rest of the web is byte-identical with or
// without it.
#pragma once

#include "sampleweb/sample_web.h"
#include "sampleweb/sample_web_corpus.h"
#include "temporal/status.h"

namespace cronista::sampleweb {

inline constexpr int kReplicaWebAddresses = 11;  // addresses the replica web uses after the sample web's

struct ReplicaWebSummary {
  int hosts = 0, pages = 0, clusters = 0, replicas = 0, hard_negatives = 0;
};

// Writes the replica web into options.out_dir, after the sample web itself
// (web.json must exist: its hosts list is extended).
Result<ReplicaWebSummary> write_replica_web(const SampleCorpus& corpus, const SampleWebOptions& options,
                                            int first_address);

}  // namespace cronista::sampleweb
