// The HTML form of the report (report.h, render_html): a page a person
// reads. First a summary card and a contents list; for a crawl, its own
// figures, seeds and hosts; then the years the content speaks of and the
// most frequent dates and expressions; then each table of the method, its
// number as a tag, beside its chart. Charts are inline SVG that scale to
// their column (viewBox, width 100%), with titled and ticked axes and a
// legend; an empty chart says "No data". No script, nothing fetched.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "corpus/report.h"
#include "crawler/crawl_record.h"
#include "temporal/chronon.h"
#include "temporal/scope.h"
#include "temporal/xml_escape.h"

namespace cronista::corpus {

namespace {

using temporal::xml_escape;

struct Series {
  std::string name;
  std::vector<double> values;
  const char* color;
};

struct Chart {
  std::string title;   // for screen readers and the figure caption
  std::string x_title, y_title;
  std::vector<std::string> labels;
  std::vector<Series> series;
  bool percent = false;  // values are fractions shown as %
};

std::string fmt(const char* format, double a) {
  char b[64];
  std::snprintf(b, sizeof b, format, a);
  return b;
}

// A tick step of 1, 2 or 5 × 10^k giving four to eight ticks up to max.
double tick_step(double max) {
  if (max <= 0) return 1;
  const double raw = max / 5;
  const double p = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * p >= raw) return m * p;
  return 10 * p;
}

std::string tick_label(double v, bool percent) {
  if (percent) return fmt("%.0f%%", v * 100);
  if (std::fabs(v - std::round(v)) < 1e-9) return fmt("%.0f", v);
  return fmt("%g", v);
}

std::string legend(const std::vector<Series>& series) {
  std::string out = "<ul class=\"legend\">";
  for (const Series& s : series)
    out += "<li><span class=\"swatch\" style=\"background:" + std::string(s.color) + "\"></span>" + xml_escape(s.name) +
           "</li>";
  return out + "</ul>";
}

// A vertical bar chart: y ticks with grid lines, x labels thinned to fit,
// both axes titled, the legend above the plot.
std::string bar_chart(const Chart& c) {
  double max_v = 0;
  for (const Series& s : c.series)
    for (double v : s.values) max_v = std::max(max_v, v);
  if (c.labels.empty() || max_v <= 0) return "<p class=\"nodata\">No data for “" + xml_escape(c.title) + "”.</p>\n";
  const double step = c.percent ? std::max(0.05, tick_step(max_v)) : std::max(1.0, tick_step(max_v));
  const double top_v = std::ceil(max_v / step - 1e-9) * step;
  const double width = 640, height = 330, left = 64, right = 12, top = 14, bottom = 92;
  const double plot_w = width - left - right, plot_h = height - top - bottom;
  const std::size_t n = c.labels.size();
  const double group_w = plot_w / static_cast<double>(n);
  const double bar_w = std::max(1.0, (group_w * 0.8) / static_cast<double>(c.series.size()));
  std::size_t longest = 0;
  for (const auto& l : c.labels) longest = std::max(longest, l.size());
  const bool rotate = longest * 6.5 > group_w;
  const std::size_t every = std::max<std::size_t>(1, static_cast<std::size_t>(std::ceil(n / (rotate ? 28.0 : 16.0))));

  std::string svg = "<figure class=\"chart\">\n<figcaption>" + xml_escape(c.title) + legend(c.series) +
                    "</figcaption>\n<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 640 330\" width=\"100%\" "
                    "role=\"img\" aria-label=\"" + xml_escape(c.title) + "\">\n";
  for (double v = 0; v <= top_v + step / 2; v += step) {
    const double y = top + plot_h - plot_h * v / top_v;
    svg += "<line class=\"grid\" x1=\"" + fmt("%.1f", left) + "\" x2=\"" + fmt("%.1f", width - right) + "\" y1=\"" +
           fmt("%.1f", y) + "\" y2=\"" + fmt("%.1f", y) + "\"/><text class=\"tick\" x=\"" + fmt("%.1f", left - 6) +
           "\" y=\"" + fmt("%.1f", y + 4) + "\" text-anchor=\"end\">" + tick_label(v, c.percent) + "</text>\n";
  }
  for (std::size_t i = 0; i < n; ++i) {
    const double gx = left + group_w * static_cast<double>(i) + group_w * 0.1;
    for (std::size_t k = 0; k < c.series.size(); ++k) {
      const double v = i < c.series[k].values.size() ? c.series[k].values[i] : 0;
      const double h = plot_h * v / top_v;
      svg += "<rect x=\"" + fmt("%.2f", gx + bar_w * static_cast<double>(k)) + "\" y=\"" +
             fmt("%.2f", top + plot_h - h) + "\" width=\"" + fmt("%.2f", std::max(0.5, bar_w - 0.5)) + "\" height=\"" +
             fmt("%.2f", h) + "\" fill=\"" + c.series[k].color + "\"><title>" + xml_escape(c.series[k].name) + ", " +
             xml_escape(c.labels[i]) + ": " + (c.percent ? fmt("%.1f%%", v * 100) : tick_label(v, false)) +
             "</title></rect>\n";
    }
    if (i % every != 0) continue;
    const double x = left + group_w * (static_cast<double>(i) + 0.5), y = top + plot_h + 14;
    svg += "<text class=\"tick\" x=\"" + fmt("%.1f", x) + "\" y=\"" + fmt("%.1f", y) + "\"" +
           (rotate ? " text-anchor=\"end\" transform=\"rotate(-40 " + fmt("%.1f", x) + " " + fmt("%.1f", y) + ")\""
                   : std::string(" text-anchor=\"middle\"")) +
           ">" + xml_escape(c.labels[i]) + "</text>\n";
  }
  svg += "<line class=\"axis\" x1=\"" + fmt("%.1f", left) + "\" x2=\"" + fmt("%.1f", width - right) + "\" y1=\"" +
         fmt("%.1f", top + plot_h) + "\" y2=\"" + fmt("%.1f", top + plot_h) + "\"/>\n";
  svg += "<line class=\"axis\" x1=\"" + fmt("%.1f", left) + "\" x2=\"" + fmt("%.1f", left) + "\" y1=\"" +
         fmt("%.1f", top) + "\" y2=\"" + fmt("%.1f", top + plot_h) + "\"/>\n";
  svg += "<text class=\"axis-title\" x=\"" + fmt("%.1f", left + plot_w / 2) + "\" y=\"" + fmt("%.1f", height - 6) +
         "\" text-anchor=\"middle\">" + xml_escape(c.x_title) + "</text>\n";
  svg += "<text class=\"axis-title\" x=\"14\" y=\"" + fmt("%.1f", top + plot_h / 2) +
         "\" text-anchor=\"middle\" transform=\"rotate(-90 14 " + fmt("%.1f", top + plot_h / 2) + ")\">" +
         xml_escape(c.y_title) + "</text>\n";
  return svg + "</svg>\n</figure>\n";
}

double number(const ReportValue& v) {
  if (const auto* i = std::get_if<std::int64_t>(&v)) return static_cast<double>(*i);
  if (const auto* d = std::get_if<double>(&v)) return *d;
  return 0;
}

// A cell; a count of days too large to read also in years.
std::string cell(const ReportRow& row, std::size_t i, const std::string& column) {
  std::string s = format_report_value(row.values[i], column == "share");
  const double v = number(row.values[i]);
  if (row.name.find("in days") != std::string::npos && std::fabs(v) >= 3650)
    s += " (≈ " + fmt("%.0f", v / 365.2425) + " years)";
  return xml_escape(s);
}

std::string html_table(const ReportTable& t, const std::vector<const ReportRow*>& rows) {
  std::string out = "<div class=\"scroll\"><table>\n<thead><tr><th></th>";
  for (const std::string& c : t.columns) out += "<th>" + xml_escape(c) + "</th>";
  out += "</tr></thead>\n<tbody>\n";
  for (const ReportRow* row : rows) {
    out += "<tr><th scope=\"row\">" + xml_escape(row->name) + "</th>";
    for (std::size_t i = 0; i < row->values.size() && i < t.columns.size(); ++i)
      out += "<td>" + cell(*row, i, t.columns[i]) + "</td>";
    out += "</tr>\n";
  }
  return out + "</tbody></table></div>\n";
}

std::vector<const ReportRow*> all_rows(const ReportTable& t) {
  std::vector<const ReportRow*> rows;
  for (const ReportRow& r : t.rows) rows.push_back(&r);
  return rows;
}

// The chart of a table: its first column over its rows (totals left out).
Chart table_chart(const ReportTable& t, std::string x_title) {
  Chart c{t.title, std::move(x_title), t.columns.empty() ? "" : t.columns[0], {}, {}, false};
  Series s{t.columns.empty() ? "" : t.columns[0], {}, "#3b6ea8"};
  for (const ReportRow& r : t.rows) {
    if (r.name.rfind("all ", 0) == 0 || r.values.empty()) continue;
    c.labels.push_back(r.name);
    s.values.push_back(number(r.values[0]));
  }
  c.series.push_back(std::move(s));
  return c;
}

// Years in a row, in bins of 1, 10 or 100 years so that about 60 bars or
// fewer cover the span from the 0.5th to the 99.5th percentile of the
// mentions; the few years beyond (a stray "4800" of noise, one "1066") are
// counted in the first and last bars, labelled "≤" and "≥".
Chart year_chart(const std::map<int, std::int64_t>& years, std::int64_t* folded) {
  Chart c{"Years the content speaks of", "year spoken of", "segments", {}, {}, false};
  *folded = 0;
  if (years.empty()) return c;
  std::int64_t total = 0;
  for (const auto& [y, n] : years) total += n;
  int lo = years.begin()->first, hi = years.rbegin()->first;
  std::int64_t seen = 0;
  bool lo_set = false;
  for (const auto& [y, n] : years) {
    seen += n;
    if (!lo_set && seen * 200 > total) lo = y, lo_set = true;
    if (seen * 200 >= total * 199) {
      hi = y;
      break;
    }
  }
  const int bin = hi - lo < 60 ? 1 : hi - lo < 600 ? 10 : 100;
  // With years before 1 the bars are cut as years are counted, with no year 0:
  // "100–1 BC", "1–100", "101–200"; otherwise "1940s", "1900–1999".
  const int offset = lo <= 0 && bin > 1 ? 1 : 0;
  auto floor_to = [bin, offset](int y) {
    const int z = y - offset;
    return offset + (z >= 0 ? z / bin * bin : -((-z + bin - 1) / bin) * bin);
  };
  const int first = floor_to(lo), last = floor_to(hi);
  Series s{"segments speaking of the year", {}, "#3b6ea8"};
  for (int b = first; b <= last; b += bin) {
    if (bin == 1) c.labels.push_back(temporal::year_name(b));
    else if (offset)
      c.labels.push_back((b <= 0 ? std::to_string(temporal::bc_of_year(b)) : temporal::year_name(b)) + "–" +
                         temporal::year_name(b + bin - 1));
    else c.labels.push_back(std::to_string(b) + (bin == 10 ? "s" : "–" + std::to_string(b + bin - 1)));
    s.values.push_back(0);
  }
  for (const auto& [y, n] : years) {
    const int b = std::clamp(floor_to(y), first, last);
    s.values[static_cast<std::size_t>((b - first) / bin)] += static_cast<double>(n);
    if (y < first || y >= last + bin) *folded += n;
  }
  if (years.begin()->first < first) c.labels.front() = "≤" + c.labels.front();
  if (years.rbegin()->first >= last + bin) c.labels.back() = "≥" + c.labels.back();
  c.series.push_back(std::move(s));
  return c;
}

struct Section {
  std::string id, title, tag;  // tag: the method's table number, or ""
};

std::string heading(const Section& s) {
  return "<h2 id=\"" + s.id + "\">" + xml_escape(s.title) +
         (s.tag.empty() ? std::string() : " <span class=\"tag\">" + xml_escape(s.tag) + "</span>") + "</h2>\n";
}

std::string pair(const std::string& table, const std::string& chart) {
  return "<div class=\"pair\"><div>" + table + "</div><div>" + chart + "</div></div>\n";
}

std::string card(const CollectionReport& r) {
  const ReportReading& g = r.reading;
  auto item = [](const std::string& k, const std::string& v) {
    return "<div><dt>" + xml_escape(k) + "</dt><dd>" + xml_escape(v) + "</dd></div>";
  };
  std::string out = "<section class=\"card\" id=\"summary\" aria-label=\"Summary\"><dl>";
  if (g.crawl) {
    std::size_t downloaded = 0;
    for (const auto& s : g.seeds) downloaded += s.downloaded ? 1 : 0;
    out += item("period", temporal::period_end_name(g.period_from) + " to " + temporal::period_end_name(g.period_to));
    out += item("crawl", g.mode);
    out += item("seeds", std::to_string(g.seeds.size()) + " (" + std::to_string(downloaded) + " downloaded)");
    out += item("pages downloaded", std::to_string(g.pages));
    out += item("relevant pages", std::to_string(g.relevant) + " (" +
                                      fmt("%.1f%%", g.pages ? 100.0 * g.relevant / g.pages : 0.0) + ")*");
    out += item("elapsed", crawler::clock_time(g.elapsed_seconds));
  }
  out += item("documents", std::to_string(g.documents));
  out += item("temporal expressions", std::to_string(g.expressions));
  out += item("dated segments", std::to_string(g.dated_segments) + " of " + std::to_string(g.segments));
  out += item("report", g.generated_at.substr(0, 10) + ", cronista " + g.version);
  out += "</dl>";
  if (g.crawl)
    out += "<p class=\"note\">* “Relevant” is the crawl's own judgement, made by its tagger: a page is relevant when "
           "at least one of its segments has " + fmt("%.0f%%", g.threshold * 100) +
           " or more of its dates inside the period. No one checked it against the pages.</p>";
  return out + "</section>\n";
}

std::string crawl_sections(const CollectionReport& r, std::vector<Section>& toc) {
  const ReportReading& g = r.reading;
  std::string out;
  if (const ReportTable* t = r.table("8.2")) {
    toc.push_back({"crawl", "The crawl", "8.2"});
    out += heading(toc.back());
    std::vector<const ReportRow*> main, curve;
    for (const ReportRow& row : t->rows) (row.name.rfind("precision at ", 0) == 0 ? curve : main).push_back(&row);
    Chart c{"Precision by pages downloaded", "pages downloaded", "precision", {}, {}, true};
    Series p{"share of relevant pages so far", {}, "#3b6ea8"};
    for (const auto& [pages, precision] : r.precision_curve) {
      c.labels.push_back(std::to_string(pages));
      p.values.push_back(precision);
    }
    c.series.push_back(std::move(p));
    out += pair(html_table(*t, main), bar_chart(c));
    if (!curve.empty())
      out += "<details><summary>Precision at each checkpoint (" + std::to_string(curve.size()) + " rows)</summary>" +
             html_table(*t, curve) + "</details>\n";
    out += "<p class=\"note\">" + xml_escape(t->note) + "</p>\n";
  }
  toc.push_back({"seeds", "Seeds", ""});
  out += heading(toc.back());
  if (g.seeds.empty()) {
    out += "<p class=\"nodata\">No data.</p>\n";
  } else {
    out += "<div class=\"scroll\"><table><thead><tr><th>seed</th><th>what became of it</th></tr></thead><tbody>\n";
    for (const auto& s : g.seeds)
      out += "<tr><td class=\"url\">" + xml_escape(s.url) + "</td><td>" + xml_escape(s.fate) + "</td></tr>\n";
    out += "</tbody></table></div>\n";
  }
  toc.push_back({"hosts", "Hosts", ""});
  out += heading(toc.back());
  if (g.hosts.empty()) {
    out += "<p class=\"nodata\">No data.</p>\n";
  } else {
    out += "<div class=\"scroll\"><table><thead><tr><th>host</th><th>pages</th><th>relevant</th><th>errors</th>"
           "<th>robots.txt</th></tr></thead><tbody>\n";
    for (const auto& h : g.hosts)
      out += "<tr><td class=\"url\">" + xml_escape(h.authority) + "</td><td>" + std::to_string(h.pages) + "</td><td>" +
             std::to_string(h.relevant) + "</td><td>" + std::to_string(h.errors) + "</td><td>" + xml_escape(h.robots) +
             "</td></tr>\n";
    out += "</tbody></table></div>\n";
    if (g.more_hosts > 0)
      out += "<p class=\"note\">And " + std::to_string(g.more_hosts) + " more hosts with fewer pages.</p>\n";
  }
  return out;
}

std::string frequency_table(const std::string& what, const std::vector<std::pair<std::string, std::int64_t>>& rows,
                            const std::string& unit) {
  if (rows.empty()) return "<p class=\"nodata\">No data.</p>\n";
  std::string out = "<div class=\"scroll\"><table><thead><tr><th>" + xml_escape(what) + "</th><th>" + xml_escape(unit) +
                    "</th></tr></thead><tbody>\n";
  for (const auto& [k, n] : rows)
    out += "<tr><td>" + xml_escape(k) + "</td><td>" + std::to_string(n) + "</td></tr>\n";
  return out + "</tbody></table></div>\n";
}

// The x-axis title of each table's chart; tables without one have no chart.
const std::map<std::string, std::string>& chart_axes() {
  static const std::map<std::string, std::string> axes = {
      {"6.6", "temporal expressions in the document"}, {"6.7", "quartile of the document"},
      {"6.8", "granularity"},                          {"6.10", "quartile of the document"},
      {"6.13", "links in the document"},               {"6.14", "quartile of the document"},
      {"6.15", "time the content speaks of"},          {"6.16", "year of the creation date"},
      {"8.4", "mean interval between changes (estimated)"}};
  return axes;
}

constexpr const char* kStyle = R"css(
*{box-sizing:border-box}
body{font:15px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#1f2328;background:#fafaf7}
header,main{max-width:1200px;margin:0 auto;padding:0 1.2rem}
header{padding-top:1.4rem}
h1{font-size:1.7rem;margin:.2rem 0 .8rem;overflow-wrap:anywhere}
h2{font-size:1.25rem;margin:2.2rem 0 .6rem;padding-bottom:.2rem;border-bottom:1px solid #d8d8d0}
.tag{font-size:.75rem;font-weight:600;color:#3b6ea8;background:#e8eef7;border-radius:3px;padding:.1rem .4rem;vertical-align:middle}
.card{background:#fff;border:1px solid #d8d8d0;border-radius:6px;padding:1rem 1.2rem;margin:0 0 1rem}
.card dl{display:grid;grid-template-columns:repeat(auto-fill,minmax(11rem,1fr));gap:.8rem 1.4rem;margin:0}
.card dt{font-size:.8rem;color:#59636e;text-transform:uppercase;letter-spacing:.03em}
.card dd{margin:0;font-size:1.15rem;font-weight:600}
nav ol{columns:2 20rem;column-gap:3rem;margin:.3rem 0;padding-left:1.8rem}
nav a,td a{color:#2457a0}
.pair{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:1.4rem;align-items:start}
@media (max-width:900px){.pair{grid-template-columns:minmax(0,1fr)}}
.scroll{overflow-x:auto;max-width:100%}
table{border-collapse:collapse;margin:.3rem 0;font-variant-numeric:tabular-nums}
th,td{border-bottom:1px solid #e2e2da;padding:.25rem .6rem;text-align:right;vertical-align:top}
thead th{border-bottom:2px solid #c9c9c0;font-weight:600}
th[scope=row],td.url,td:first-child,thead th:first-child{text-align:left}
td.url{overflow-wrap:anywhere;max-width:36rem}
figure.chart{max-width:760px;margin:0;background:#fff;border:1px solid #e2e2da;border-radius:6px;padding:.5rem .6rem}
figcaption{font-weight:600;font-size:.9rem}
.legend{list-style:none;margin:.2rem 0 0;padding:0;display:flex;flex-wrap:wrap;gap:.2rem 1rem;font-weight:400;font-size:.85rem}
.swatch{display:inline-block;width:.8rem;height:.8rem;border-radius:2px;margin-right:.35rem;vertical-align:-1px}
svg{display:block;max-width:100%;height:auto}
svg .grid{stroke:#e6e6e0}
svg .axis{stroke:#59636e}
svg .tick{font-size:11px;fill:#444}
svg .axis-title{font-size:12px;fill:#222;font-weight:600}
.note{color:#59636e;font-size:.88rem}
.nodata{color:#8a6d3b;font-style:italic}
details{margin:.4rem 0}
footer{max-width:1200px;margin:2rem auto;padding:0 1.2rem;color:#59636e;font-size:.85rem}
)css";

}  // namespace

std::string render_html(const CollectionReport& r) {
  const ReportReading& g = r.reading;
  std::vector<Section> toc;
  std::string body;
  if (g.crawl) body += crawl_sections(r, toc);

  toc.push_back({"timeline", "Years the content speaks of", ""});
  std::int64_t folded = 0;
  const Chart years = year_chart(g.year_mentions, &folded);
  body += heading(toc.back()) + bar_chart(years) +
          "<p class=\"note\">Segments speaking of each year: every date of a year or finer counts for its year "
          "(a decade or a century names no year).";
  if (folded > 0)
    body += " " + std::to_string(folded) + " mentions of years before or after the bars shown (the outer 1%) are "
            "counted in the first and last bars.";
  body += "</p>\n";
  toc.push_back({"frequent", "Most frequent dates and expressions", ""});
  body += heading(toc.back()) +
          pair(frequency_table("date (day or month)", g.top_dates, "segments"),
               frequency_table("expression as written", g.top_expressions, "occurrences"));

  for (const ReportTable& t : r.tables) {
    if (t.id == "8.2") continue;
    toc.push_back({"t" + t.id, t.title, t.id});
    body += heading(toc.back());
    const auto axis = chart_axes().find(t.id);
    std::string table = html_table(t, all_rows(t));
    if (!t.note.empty()) table += "<p class=\"note\">" + xml_escape(t.note) + "</p>\n";
    bool empty = true;
    for (const ReportRow& row : t.rows)
      for (const ReportValue& v : row.values) empty = empty && number(v) == 0;
    if (empty) table = "<p class=\"nodata\">No data.</p>\n" + table;
    body += axis == chart_axes().end() ? table : pair(table, bar_chart(table_chart(t, axis->second)));
  }

  std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                    "<title>Temporal analysis of " + xml_escape(r.database) + "</title>\n<style>" + kStyle +
                    "</style>\n</head>\n<body>\n<header>\n<h1>Temporal analysis of " + xml_escape(r.database) +
                    "</h1>\n" + card(r) + "<nav id=\"contents\" aria-label=\"Contents\"><strong>Contents</strong><ol>\n";
  for (const Section& s : toc)
    out += "<li><a href=\"#" + s.id + "\">" + xml_escape(s.title) + "</a>" +
           (s.tag.empty() ? std::string() : " <span class=\"tag\">" + xml_escape(s.tag) + "</span>") + "</li>\n";
  out += "</ol></nav>\n</header>\n<main>\n" + body + "</main>\n<footer>\n";
  for (const std::string& n : r.notes) out += "<p>" + xml_escape(n) + "</p>\n";
  out += "<p>Tables numbered as in the method (6.1–6.16, 8.2); definitions in docs/report.md.</p>\n</footer>\n"
         "</body>\n</html>\n";
  return out;
}

}  // namespace cronista::corpus
