#include "corpus/passage_export.h"

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <set>
#include <vector>

#include "temporal/calendar.h"
#include "temporal/scope.h"
#include "temporal/utf8.h"
#include "temporal/xml_escape.h"

namespace cronista::corpus {

namespace {

using store::Database;
using store::Statement;

struct Expression {
  std::int64_t start = 0, end = 0;  // into the segment's text
  std::string text, type, value;
};

struct Chronon {
  std::string value, granularity;
};

struct Passage {
  std::string url, title, date;  // date: the document's creation date, or ""
  std::int64_t segment = 0;
  std::optional<bool> in_scope;
  std::optional<std::string> text;  // nullopt: not stored
  std::optional<int> year;          // of the earliest placeable chronon
  std::vector<Expression> expressions;
  std::vector<Chronon> chronons;
};

Status query_error(const Statement& st) {
  return st.status().ok() ? Status::Ok() : Status::Error("export: " + st.status().message());
}

int year_of_day(std::int64_t day) {
  return temporal::Date::from_day_number(static_cast<temporal::DayNumber>(day)).year;
}

// "1944", "44 BC", "undated"; and as an HTML id, without spaces ("y1944", "yBC0044").
std::string year_label(const std::optional<int>& y) { return y ? temporal::year_name(*y) : std::string("undated"); }
std::string year_id(const std::optional<int>& y) { return "y" + (y ? temporal::timex_year(*y) : std::string("undated")); }

// ---- CSV ----

std::string csv_field(std::string_view s) {
  if (s.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(s);
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

void write_csv_header(std::ostream& out) {
  out << "url,title,date,year,in_scope,segment,text,expressions,values,chronons\r\n";
}

void write_csv(std::ostream& out, const Passage& p) {
  std::string texts, values, chronons;
  for (const Expression& e : p.expressions) {
    texts += (texts.empty() ? "" : " | ") + e.text;
    values += (values.empty() ? "" : " | ") + e.value;
  }
  for (const Chronon& c : p.chronons) chronons += (chronons.empty() ? "" : " | ") + c.value;
  out << csv_field(p.url) << ',' << csv_field(p.title) << ',' << p.date << ',' << (p.year ? temporal::year_name(*p.year) : "")
      << ',' << (p.in_scope ? (*p.in_scope ? "1" : "0") : "") << ',' << p.segment << ',' << csv_field(p.text.value_or(""))
      << ',' << csv_field(texts) << ',' << csv_field(values) << ',' << csv_field(chronons) << "\r\n";
}

// ---- JSON Lines ----

void write_jsonl(std::ostream& out, const Passage& p) {
  nlohmann::json j;
  j["url"] = p.url;
  j["title"] = p.title;
  j["date"] = p.date.empty() ? nlohmann::json() : nlohmann::json(p.date);
  j["year"] = p.year ? nlohmann::json(*p.year) : nlohmann::json();
  j["in_scope"] = p.in_scope ? nlohmann::json(*p.in_scope) : nlohmann::json();
  j["segment"] = p.segment;
  j["text"] = p.text ? nlohmann::json(*p.text) : nlohmann::json();
  j["expressions"] = nlohmann::json::array();
  for (const Expression& e : p.expressions)
    j["expressions"].push_back({{"start", e.start}, {"end", e.end}, {"text", e.text}, {"type", e.type}, {"value", e.value}});
  j["chronons"] = nlohmann::json::array();
  for (const Chronon& c : p.chronons) j["chronons"].push_back({{"value", c.value}, {"granularity", c.granularity}});
  out << j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
}

// ---- HTML ----

constexpr const char* kStyle = R"css(
body{font:16px/1.55 Georgia,"Times New Roman",serif;margin:0;color:#222;background:#fdfcf8}
header,main{max-width:46rem;margin:0 auto;padding:0 1rem}
header{padding-top:1.5rem;border-bottom:1px solid #ddd}
h1{font-size:1.6rem;margin:.2rem 0}
.summary{color:#555}
nav ol{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:.3rem .9rem}
nav a{color:#1a4f8b}
section h2{font-size:1.4rem;border-bottom:2px solid #c9a227;padding-bottom:.2rem;margin-top:2rem}
section h2 small{font-size:.9rem;color:#777;font-weight:normal}
article{margin:1.2rem 0;padding:.6rem .8rem;background:#fff;border:1px solid #e6e1d3;border-radius:4px}
article h3{font-size:1.05rem;margin:0 0 .2rem}
article h3 a{color:#1a4f8b;text-decoration:none}
.meta{font:13px/1.4 system-ui,sans-serif;color:#666;margin:0 0 .4rem;overflow-wrap:anywhere}
.text{white-space:pre-line;margin:.3rem 0}
mark{background:#ffe58a;padding:0 .1rem;border-radius:2px}
.chronons{font:13px/1.4 system-ui,sans-serif;color:#555;margin:.3rem 0 0}
.missing{color:#a33;font-style:italic}
details.kwic{margin:1rem 0;font:14px/1.4 system-ui,sans-serif}
details.kwic summary{cursor:pointer;color:#1a4f8b}
.kwic table{border-collapse:collapse;width:100%;table-layout:fixed}
.kwic td{padding:.15rem .3rem;white-space:nowrap;overflow:hidden}
.kwic td.left{text-align:right;width:40%;direction:rtl}
.kwic td.key{text-align:center;width:20%;text-overflow:ellipsis}
.kwic td.right{width:40%;text-overflow:ellipsis}
)css";

// The segment's text with each expression marked, its value as a tooltip.
std::string highlighted(const Passage& p) {
  if (!p.text) return "<p class=\"missing\">(text not stored in this database)</p>";
  // Blank lines at the ends of a segment would show as space in the box.
  std::string_view t = *p.text;
  while (!t.empty() && (t.back() == '\n' || t.back() == ' ' || t.back() == '\r' || t.back() == '\t'))
    t.remove_suffix(1);
  std::string out = "<p class=\"text\">";
  std::size_t at = 0;
  for (const Expression& e : p.expressions) {
    if (e.start < static_cast<std::int64_t>(at) || e.end > static_cast<std::int64_t>(t.size()) || e.end <= e.start)
      continue;  // overlapping or outside: left unmarked
    temporal::append_xml_escaped(&out, t.substr(at, static_cast<std::size_t>(e.start) - at));
    out += "<mark title=\"";
    temporal::append_xml_escaped(&out, e.value.empty() ? e.type : e.value + " (" + e.type + ")");
    out += "\">";
    temporal::append_xml_escaped(&out, t.substr(static_cast<std::size_t>(e.start), static_cast<std::size_t>(e.end - e.start)));
    out += "</mark>";
    at = static_cast<std::size_t>(e.end);
  }
  temporal::append_xml_escaped(&out, t.substr(std::min(at, t.size())));
  return out + "</p>";
}

void write_html_passage(std::ostream& out, const Passage& p) {
  std::string s = "<article>\n<h3>";
  const std::string title = p.title.empty() ? p.url : p.title;
  if (!p.url.empty()) {
    s += "<a href=\"" + temporal::xml_escape(p.url) + "\">" + temporal::xml_escape(title) + "</a>";
  } else {
    s += temporal::xml_escape(title);
  }
  s += "</h3>\n<p class=\"meta\">";
  s += p.date.empty() ? std::string("publication date unknown") : "published " + temporal::xml_escape(p.date);
  if (!p.url.empty()) s += " · " + temporal::xml_escape(p.url);
  if (p.in_scope) s += *p.in_scope ? " · in the crawl's period" : " · outside the crawl's period";
  s += "</p>\n" + highlighted(p) + "\n<p class=\"chronons\">speaks of: ";
  for (std::size_t i = 0; i < p.chronons.size(); ++i)
    s += (i ? ", " : "") + temporal::xml_escape(p.chronons[i].value);
  s += "</p>\n</article>\n";
  out << s;
}

// The keyword-in-context line of each date of a passage: up to kContext
// bytes on each side (cut at a character boundary, line breaks as spaces),
// the date in the middle, as a concordance shows it.
constexpr std::size_t kContext = 70;
constexpr std::size_t kMaxConcordanceRows = 400;  // per year

std::string one_line(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  return out;
}

void add_concordance(std::string& rows, std::size_t& count, const Passage& p) {
  if (!p.text) return;
  const std::string_view t = *p.text;
  auto boundary = [&](std::size_t i) { return temporal::char_start_at_or_before(t, i); };
  for (const Expression& e : p.expressions) {
    if (count >= kMaxConcordanceRows) return;
    const auto start = static_cast<std::size_t>(e.start), end = static_cast<std::size_t>(e.end);
    if (end > t.size() || start >= end) continue;
    const std::size_t from = boundary(start > kContext ? start - kContext : 0);
    const std::size_t to = boundary(std::min(t.size(), end + kContext));
    rows += "<tr><td class=\"left\"><span dir=\"ltr\">" + temporal::xml_escape(one_line(t.substr(from, start - from))) +
            "</span></td><td class=\"key\"><mark title=\"" + temporal::xml_escape(e.value) + "\">" +
            temporal::xml_escape(one_line(t.substr(start, end - start))) + "</mark></td><td class=\"right\">" +
            temporal::xml_escape(one_line(t.substr(end, to - end))) + "</td></tr>\n";
    ++count;
  }
}

void write_concordance(std::ostream& out, const std::string& rows, std::size_t count) {
  if (rows.empty()) return;
  out << "<details class=\"kwic\"><summary>The dates in context (" << count
      << (count >= kMaxConcordanceRows ? ", the first " + std::to_string(kMaxConcordanceRows) : std::string())
      << ")</summary>\n<table>\n" << rows << "</table>\n</details>\n";
}

// ---- reading ----

class PassageReader {
 public:
  PassageReader(Database& db, const ExportOptions& o) : db_(db), o_(o) {}

  Status open() {
    auto docs = db_.has_table("segments");
    if (!docs.ok()) return docs.status();
    if (!*docs) return Status::Error("'" + db_.path() + "' holds no analysed documents (not a crawl or collection database)");
    auto text = db_.has_column("segments", "text");
    if (!text.ok()) return text.status();
    if (o_.in_scope_only) {
      auto st = db_.prepare("SELECT 1 FROM segments WHERE in_scope IS NOT NULL LIMIT 1");
      if (!st.ok()) return st.status();
      const bool any = st->step();
      if (Status s = query_error(*st); !s.ok()) return s;
      if (!any)
        return Status::Error("--in-scope: no period applies to the segments of '" + db_.path() +
                             "' (a collection, or a crawl that analysed no page); leave --in-scope out");
    }
    const std::string where = std::string("s.boilerplate = 0 AND EXISTS (SELECT 1 FROM chronons c WHERE c.segment_id = s.id)") +
                              (o_.in_scope_only ? " AND s.in_scope = 1" : "");
    // HTML is grouped by year; the other formats follow the documents.
    const std::string order = o_.format == ExportFormat::Html ? "first_day IS NULL, first_day, d.id, s.ordinal"
                                                              : "d.id, s.ordinal";
    auto st = db_.prepare(
        "SELECT s.id, s.doc_id, s.ordinal, s.start, s.in_scope, " + std::string(*text ? "s.text" : "NULL") +
        ", coalesce(d.url, d.key), d.title, d.dct, "
        "(SELECT min(first_day) FROM chronons c WHERE c.segment_id = s.id) AS first_day "
        "FROM segments s JOIN documents d ON d.id = s.doc_id WHERE " + where + " ORDER BY " + order);
    if (!st.ok()) return st.status();
    main_ = std::move(*st);
    auto ex = db_.prepare("SELECT start, end, text, type, value FROM expressions WHERE doc_id = ? AND start >= ? AND "
                          "end <= ? ORDER BY start, end DESC");
    if (!ex.ok()) return ex.status();
    expressions_ = std::move(*ex);
    auto ch = db_.prepare("SELECT value, granularity FROM chronons WHERE segment_id = ? ORDER BY id");
    if (!ch.ok()) return ch.status();
    chronons_ = std::move(*ch);
    auto years = db_.prepare(
        "SELECT y, count(*) FROM (SELECT (SELECT min(first_day) FROM chronons c WHERE c.segment_id = s.id) AS y "
        "FROM segments s WHERE " + where + ") GROUP BY y");
    if (!years.ok()) return years.status();
    while (years->step()) {
      std::optional<int> y;
      if (!years->column_is_null(0)) y = year_of_day(years->column_int(0));
      year_counts_[y] += years->column_int(1);
    }
    return query_error(*years);
  }

  // The next passage, or nullopt at the end (then status() says whether
  // the reading ended in an error).
  std::optional<Passage> next() {
    if (!main_.step()) {
      status_ = query_error(main_);
      return std::nullopt;
    }
    Passage p;
    const std::int64_t segment_id = main_.column_int(0), doc_id = main_.column_int(1);
    p.segment = main_.column_int(2);
    const std::int64_t start = main_.column_int(3);
    if (!main_.column_is_null(4)) p.in_scope = main_.column_int(4) != 0;
    if (!main_.column_is_null(5)) p.text = main_.column_text(5);
    p.url = main_.column_text(6);
    p.title = main_.column_text(7);
    p.date = main_.column_text(8);
    if (!main_.column_is_null(9)) p.year = year_of_day(main_.column_int(9));
    const std::int64_t end = start + static_cast<std::int64_t>(p.text ? p.text->size() : 0);
    if (p.text) {
      expressions_.bind(1, doc_id).bind(2, start).bind(3, end);
      while (expressions_.step())
        p.expressions.push_back(Expression{expressions_.column_int(0) - start, expressions_.column_int(1) - start,
                                           expressions_.column_text(2), expressions_.column_text(3),
                                           expressions_.column_text(4)});
      status_ = query_error(expressions_);
      expressions_.reset();
    }
    chronons_.bind(1, segment_id);
    while (chronons_.step()) p.chronons.push_back(Chronon{chronons_.column_text(0), chronons_.column_text(1)});
    if (status_.ok()) status_ = query_error(chronons_);
    chronons_.reset();
    if (!status_.ok()) return std::nullopt;
    documents_.insert(doc_id);
    return p;
  }

  Status status() const { return status_; }
  const std::map<std::optional<int>, std::int64_t>& year_counts() const { return year_counts_; }
  std::int64_t documents() const { return static_cast<std::int64_t>(documents_.size()); }

 private:
  Database& db_;
  const ExportOptions& o_;
  Statement main_, expressions_, chronons_;
  Status status_;
  std::map<std::optional<int>, std::int64_t> year_counts_;
  std::set<std::int64_t> documents_;
};

// The crawl's period, when the database holds a crawl.
std::string crawl_period(Database& db) {
  auto runs = db.has_table("runs");
  if (!runs.ok() || !*runs) return {};
  auto st = db.prepare("SELECT period_from, period_to FROM runs ORDER BY id DESC LIMIT 1");
  if (!st.ok() || !st->step()) return {};
  return temporal::period_end_name(st->column_text(0)) + " to " + temporal::period_end_name(st->column_text(1));
}

}  // namespace

Result<ExportFormat> parse_export_format(std::string_view name) {
  if (name == "csv") return ExportFormat::Csv;
  if (name == "jsonl") return ExportFormat::Jsonl;
  if (name == "html") return ExportFormat::Html;
  return Status::Error("unknown export format '" + std::string(name) + "' (csv, jsonl or html)");
}

Result<ExportStats> export_passages(Database& db, const ExportOptions& o, std::ostream& out) {
  PassageReader reader(db, o);
  if (Status s = reader.open(); !s.ok()) return s;
  ExportStats stats;
  std::int64_t total = 0;
  for (const auto& [year, n] : reader.year_counts()) total += n;

  if (o.format == ExportFormat::Csv) write_csv_header(out);
  if (o.format == ExportFormat::Html) {
    const std::string period = crawl_period(db);
    std::string head = "<!DOCTYPE html>\n<html lang=\"pt\">\n<head>\n<meta charset=\"utf-8\">\n"
                       "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>Passages — " +
                       temporal::xml_escape(o.title) + "</title>\n<style>" + kStyle + "</style>\n</head>\n<body>\n<header>\n" +
                       "<h1>Passages found</h1>\n<p class=\"summary\">" + std::to_string(total) +
                       (total == 1 ? " passage" : " passages") + " from " + temporal::xml_escape(o.title);
    if (o.in_scope_only)
      head += ", in the crawl's period " + temporal::xml_escape(period) + " by its own judgement";
    else if (!period.empty())
      head += "; every dated passage of the crawl of " + temporal::xml_escape(period) +
              ", each said to be inside or outside the period by the crawl's own judgement";
    head += ". Grouped by the year each passage speaks of (its earliest date); a date's value is shown when the "
            "pointer rests on it.</p>\n<nav>\n<ol>\n";
    for (const auto& [year, n] : reader.year_counts())
      head += "<li><a href=\"#" + year_id(year) + "\">" + year_label(year) + "</a> (" + std::to_string(n) + ")</li>\n";
    head += "</ol>\n</nav>\n</header>\n<main>\n";
    if (total == 0) head += "<p>No passage: the database holds no dated segment of main text.</p>\n";
    out << head;
  }
  bool first_group = true;
  std::optional<int> group;
  std::string concordance;  // of the current year
  std::size_t concordance_rows = 0;
  while (auto p = reader.next()) {
    ++stats.passages;
    if (!p->text) ++stats.without_text;
    switch (o.format) {
      case ExportFormat::Csv: write_csv(out, *p); break;
      case ExportFormat::Jsonl: write_jsonl(out, *p); break;
      case ExportFormat::Html:
        if (first_group || p->year != group) {
          if (!first_group) {
            write_concordance(out, concordance, concordance_rows);
            out << "</section>\n";
          }
          concordance.clear();
          concordance_rows = 0;
          first_group = false;
          group = p->year;
          const auto it = reader.year_counts().find(group);
          const std::int64_t n = it == reader.year_counts().end() ? 0 : it->second;
          out << "<section id=\"" << year_id(group) << "\">\n<h2>" << year_label(group) << " <small>" << n
              << (n == 1 ? " passage" : " passages") << "</small></h2>\n";
        }
        write_html_passage(out, *p);
        add_concordance(concordance, concordance_rows, *p);
        break;
    }
    if (!out) return Status::Error("export: cannot write the output");
  }
  if (Status s = reader.status(); !s.ok()) return s;
  if (o.format == ExportFormat::Html) {
    if (!first_group) {
      write_concordance(out, concordance, concordance_rows);
      out << "</section>\n";
    }
    out << "</main>\n</body>\n</html>\n";
  }
  out.flush();
  if (!out) return Status::Error("export: cannot write the output");
  stats.documents = reader.documents();
  return stats;
}

}  // namespace cronista::corpus
