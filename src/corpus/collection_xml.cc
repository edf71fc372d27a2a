#include "corpus/collection_xml.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "temporal/xml_escape.h"

namespace cronista::corpus {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kHeader = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<colCHAVE>\n";
constexpr std::string_view kFooter = "</colCHAVE>\n";

std::string span(std::size_t start, std::size_t end) {
  return " start=\"" + std::to_string(start) + "\" end=\"" + std::to_string(end) + "\"";
}

}  // namespace

std::string document_xml(const AnalysedDocument& d, std::int64_t doc_id) {
  const std::string& text = d.text.text;
  std::string x = "<DOC>\n<DOCNO>" + temporal::xml_escape(d.info.key) + "</DOCNO>\n<DOCID>" + std::to_string(doc_id) + "</DOCID>\n";
  if (d.info.dct) {
    std::string ymd = d.info.dct->to_string();
    ymd.erase(std::remove(ymd.begin(), ymd.end(), '-'), ymd.end());
    x += "<DATE source=\"" + temporal::xml_escape(d.info.dct_source) + "\">" + ymd + "</DATE>\n";
  } else {
    x += "<DATE/>\n";
  }
  if (!d.info.url.empty()) x += "<URL>" + temporal::xml_escape(d.info.url) + "</URL>\n";
  if (!d.info.title.empty()) x += "<TITLE>" + temporal::xml_escape(d.info.title) + "</TITLE>\n";
  x += "<TEXT>\n";
  for (const temporal::Block& b : d.text.blocks) {
    if (b.end > text.size() || b.start >= b.end) continue;
    x += "<P" + span(b.start, b.end) + (b.boilerplate ? " boilerplate=\"1\"" : "") + ">";
    temporal::append_xml_escaped(&x, std::string_view(text).substr(b.start, b.end - b.start));
    x += "</P>\n";
  }
  x += "</TEXT>\n<SEGMENTS>\n";
  // Links by segment, from the stored link list (resolved targets).
  std::vector<std::vector<const store::LinkInfo*>> links(d.segments.size());
  for (const store::LinkInfo& l : d.links)
    if (l.segment && *l.segment < links.size()) links[*l.segment].push_back(&l);
  for (std::size_t i = 0; i < d.segments.size(); ++i) {
    const temporal::Segment& s = d.segments[i];
    x += "<SEGMENT n=\"" + std::to_string(i + 1) + "\"" + span(s.start, s.end) + (s.boilerplate ? " boilerplate=\"1\"" : "") +
         ">\n";
    for (const temporal::Chronon& c : s.chronons) x += "<CHRONON>" + temporal::xml_escape(c.to_string()) + "</CHRONON>\n";
    for (std::size_t e : s.expressions) {
      if (e >= d.expressions.size()) continue;
      const temporal::TemporalExpression& t = d.expressions[e];
      x += "<TIMEX3 tid=\"t" + std::to_string(e + 1) + "\"" + span(t.start, t.end) + " type=\"" +
           std::string(temporal::to_string(t.type)) + "\" value=\"" + temporal::xml_escape(t.value) + "\"" +
           (t.resolved ? "" : " resolved=\"0\"") + ">";
      temporal::append_xml_escaped(&x, t.text);
      x += "</TIMEX3>\n";
    }
    for (const store::LinkInfo* l : links[i]) {
      x += "<LINK";
      if (l->position) x += " start=\"" + std::to_string(*l->position) + "\"";
      x += " href=\"" + temporal::xml_escape(l->target) + "\">";
      temporal::append_xml_escaped(&x, l->anchor);
      x += "</LINK>\n";
    }
    x += "</SEGMENT>\n";
  }
  x += "</SEGMENTS>\n</DOC>\n";
  return x;
}

Result<std::unique_ptr<CollectionXmlWriter>> CollectionXmlWriter::open(store::Database& db, const std::string& path,
                                                                        std::string* warning) {
  using R = Result<std::unique_ptr<CollectionXmlWriter>>;
  auto fail = [&](const std::string& why) { return R::Error("cannot write '" + path + "': " + why); };
  if (Status s = db.exec("CREATE TABLE IF NOT EXISTS collection_xml (path TEXT PRIMARY KEY, "
                         "committed_bytes INTEGER NOT NULL, finished INTEGER NOT NULL DEFAULT 0)");
      !s.ok())
    return R::Error("database '" + db.path() + "': " + s.message());
  std::error_code ec;
  const std::string key = fs::absolute(path, ec).lexically_normal().string();
  std::optional<std::int64_t> committed;
  {
    auto st = db.prepare("SELECT committed_bytes FROM collection_xml WHERE path = ?");
    if (!st.ok()) return st.status();
    st->bind(1, key);
    if (st->step()) committed = st->column_int(0);
  }
  std::int64_t docs = 0;
  {
    auto st = db.prepare("SELECT count(*) FROM documents");
    if (!st.ok()) return st.status();
    if (st->step()) docs = st->column_int(0);
  }
  const auto size = fs::file_size(path, ec);
  if (committed && !ec && static_cast<std::int64_t>(size) >= *committed) {
    fs::resize_file(path, static_cast<std::uintmax_t>(*committed), ec);
    if (ec) return fail(ec.message());
    std::FILE* f = std::fopen(path.c_str(), "ab");
    if (!f) return fail(std::strerror(errno));
    return std::unique_ptr<CollectionXmlWriter>(new CollectionXmlWriter(f, path, key));
  }
  if (docs > 0 && warning)
    *warning = "'" + path + "' will hold only the documents built from now on; the " + std::to_string(docs) +
               " already in the database are not rewritten";
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) return fail(std::strerror(errno));
  if (std::fwrite(kHeader.data(), 1, kHeader.size(), f) != kHeader.size() || std::fflush(f) != 0) {
    std::fclose(f);
    return fail(std::strerror(errno));
  }
  auto st = db.prepare("INSERT OR REPLACE INTO collection_xml(path, committed_bytes, finished) VALUES (?, ?, 0)");
  if (!st.ok()) {
    std::fclose(f);
    return st.status();
  }
  st->bind(1, key).bind(2, static_cast<std::int64_t>(kHeader.size()));
  if (Status s = st->run(); !s.ok()) {
    std::fclose(f);
    return s;
  }
  return std::unique_ptr<CollectionXmlWriter>(new CollectionXmlWriter(f, path, key));
}

CollectionXmlWriter::~CollectionXmlWriter() {
  if (file_) std::fclose(file_);
}

Status CollectionXmlWriter::append(const AnalysedDocument& doc, std::int64_t doc_id) {
  const std::string x = document_xml(doc, doc_id);
  if (std::fwrite(x.data(), 1, x.size(), file_) != x.size())
    return Status::Error("cannot write '" + path_ + "': " + std::strerror(errno));
  return Status::Ok();
}

Status CollectionXmlWriter::checkpoint(store::Database& db) {
  if (std::fflush(file_) != 0) return Status::Error("cannot write '" + path_ + "': " + std::strerror(errno));
  const long end = std::ftell(file_);
  if (end < 0) return Status::Error("cannot write '" + path_ + "': " + std::strerror(errno));
  auto st = db.prepare("UPDATE collection_xml SET committed_bytes = ?, finished = 0 WHERE path = ?");
  if (!st.ok()) return st.status();
  st->bind(1, static_cast<std::int64_t>(end)).bind(2, key_);
  return st->run();
}

Status CollectionXmlWriter::finish(store::Database& db) {
  if (std::fwrite(kFooter.data(), 1, kFooter.size(), file_) != kFooter.size() || std::fflush(file_) != 0)
    return Status::Error("cannot write '" + path_ + "': " + std::strerror(errno));
  auto st = db.prepare("UPDATE collection_xml SET finished = 1 WHERE path = ?");
  if (!st.ok()) return st.status();
  st->bind(1, key_);
  return st->run();
}

}  // namespace cronista::corpus
