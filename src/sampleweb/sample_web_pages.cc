// Rendering the sample web's pages: the furniture every page carries
// (header with its dateline, navigation, "most read" sidebar, footer), the
// paragraphs of a content page, and the page assembled around its main part
// with the truth of every block.
#include "sampleweb/sample_web_generator.h"
#include "sampleweb/sample_web_noise.h"

#include <algorithm>
#include <cstdlib>
#include <set>
#include <sstream>

namespace cronista::sampleweb::gen {

std::vector<Block> Generator::furniture_top(int page) {
  const Page& p = pages_[page];
  const std::string site = kSiteName[p.site];
  std::vector<Block> out;
  Block header;
  header.section.boilerplate = true;
  header.html = "<header><p class=\"marca\">" + temporal::xml_escape(c_.site_text(site, "title")) + " - " +
                temporal::xml_escape(c_.site_text(site, "tagline")) + "</p>";
  if (p.dct && is_content(p.kind)) {
    header.html += "<p class=\"data\"><time datetime=\"" + iso(*p.dct) + "\">" +
                   temporal::xml_escape(fill(c_.site_text(site, "dateline"), date_vars(*p.dct))) + "</time></p>";
    header.section.periods.push_back(day_span(*p.dct));
  }
  header.html += "</header>";
  out.push_back(header);

  Block nav;
  nav.section.boilerplate = true;
  std::vector<std::string> labels;
  std::stringstream ss(c_.site_text(site, "nav"));
  for (std::string item; std::getline(ss, item, '|');) labels.push_back(item);
  const std::string trap = base(kCalendario) + "/calendario/2024/05";
  std::vector<std::string> targets;
  switch (p.site) {
    case kEnc: targets = {"/", "/wiki/anos", "/especial/aleatorio", "/especial/pesquisa", trap}; break;
    case kJornal:
      targets = {"/"};
      for (std::size_t i = 1; i + 2 < labels.size(); ++i) targets.push_back("/seccao/" + slugify(labels[i]));
      targets.push_back("/arquivo/");
      targets.push_back(trap);
      break;
    case kFolha:
      targets = {"/"};
      for (std::size_t i = 1; i + 2 < labels.size(); ++i) targets.push_back("/secao/" + slugify(labels[i]));
      targets.push_back("/memoria/");
      targets.push_back(trap);
      break;
    case kBlog: targets = {"/", "/sobre", "/etiquetas", trap}; break;
    case kHemeroteca: targets = {"/", "/titulos/", "/pesquisa", trap}; break;
    case kCalendario: targets = {"/", "/calendario/2024/05", "/feriados"}; break;
    case kPortal: targets = {"/", "/diretorio/", "/novidades", trap}; break;
  }
  nav.html = "<nav><ul>";
  for (std::size_t i = 0; i < labels.size() && i < targets.size(); ++i) {
    const std::string u = targets[i][0] == '/' ? base(p.site) + targets[i] : targets[i];
    nav.html += "<li>" + anchor(page, u, labels[i]) + "</li>";
    nav.section.links.push_back(u);
    if (p.site == kHemeroteca && targets[i] == "/pesquisa" && !path_index_[kHemeroteca].count("/pesquisa")) {
      extras_.push_back({kHemeroteca, "/pesquisa", 404, ""});
      path_index_[kHemeroteca]["/pesquisa"] = -1;
    }
  }
  nav.html += "</ul></nav>";
  out.push_back(nav);
  return out;
}

std::vector<Block> Generator::furniture_bottom(int page) {
  const Page& p = pages_[page];
  const std::string site = kSiteName[p.site];
  std::vector<Block> out;
  Block aside;
  aside.section.boilerplate = true;
  aside.html = "<aside><h2>" + temporal::xml_escape(c_.site_text(site, "sidebar")) + "</h2><ul>";
  std::set<int> used;
  for (int i = 0; i < 5 && !content_by_center_.empty(); ++i) {
    const int t = random_content_page(p.site);
    if (t == page || !used.insert(t).second) continue;
    aside.html += "<li>" + anchor(page, url(t), pages_[t].title) + "</li>";
    aside.section.links.push_back(url(t));
  }
  const Date updated = Date::from_day_number(rng_.uniform(Date{2022, 1, 1}.day_number(), Date{2024, 12, 31}.day_number()));
  aside.html += "</ul><p>" + temporal::xml_escape(fill(c_.site_text(site, "updated"), date_vars(updated))) + "</p>";
  if (const std::string visits = noise_visits(c_, site, o_.seed, page); !visits.empty())
    aside.html += "<p>" + temporal::xml_escape(visits) + "</p>";
  aside.html += "</aside>";
  aside.section.periods.push_back(day_span(updated));
  out.push_back(aside);

  Block footer;
  footer.section.boilerplate = true;
  footer.html = "<footer><p>" + temporal::xml_escape(fill(c_.site_text(site, "footer"), {{"yyyy", "2024"}, {"site", c_.site_text(site, "title")}})) +
                "</p><p>";
  footer.section.periods.push_back(year_span(2024));
  for (int k = 1; k <= 3; ++k) {
    const int other = (p.site + k * 2) % kSiteCount;
    const std::string u = base(other) + "/";
    footer.html += (k > 1 ? " | " : "") + anchor(page, u, c_.site_text(kSiteName[other], "title"));
    footer.section.links.push_back(u);
  }
  if (p.site == kPortal) {
    footer.html += " | " + anchor(page, base(kPortal) + "/antigo", c_.site_text("portal", "tagline"));
    footer.section.links.push_back(base(kPortal) + "/antigo");
  }
  footer.html += "</p>";
  if (const std::string address = noise_address(c_, site, o_.seed, page); !address.empty())
    footer.html += "<p>" + temporal::xml_escape(address) + "</p>";
  footer.html += "</footer>";
  out.push_back(footer);
  return out;
}

std::vector<Block> Generator::content_blocks(int page) {
  const Page p = pages_[page];
  const Fact& f = c_.facts[static_cast<std::size_t>(p.fact)];
  std::vector<Block> out;
  auto paragraph = [&](std::vector<Sentence> sentences, int links, const std::string& extra = {}) {
    Block b;
    std::string text;
    for (const Sentence& s : sentences) {
      text += (text.empty() ? "" : " ") + s.text;
      b.section.periods.insert(b.section.periods.end(), s.periods.begin(), s.periods.end());
    }
    if (!extra.empty()) text += " " + upper_first(extra) + ".";
    b.html = "<p>" + temporal::xml_escape(text);
    add_links(page, b, b.section.periods, links);
    b.html += "</p>";
    out.push_back(std::move(b));
  };
  const std::string site = kSiteName[p.site];
  const std::vector<std::string>* leads = c_.sentences.count("news-lead") ? &c_.sentences.at("news-lead") : nullptr;

  // Opening paragraph.
  switch (p.kind) {
    case Kind::News:
    case Kind::Edition:
      paragraph({deictic_sentence("yesterday", *p.dct, 0, f.clause)}, rng_.uniform(1, 3),
                leads && !leads->empty() ? rng_.pick(*leads) : std::string());
      break;
    case Kind::Anniversary:
      paragraph({deictic_sentence("years-ago", *p.dct, p.years_ago, f.clause)}, rng_.uniform(1, 2));
      paragraph({explicit_sentence(f, true)}, rng_.uniform(1, 2));
      break;
    case Kind::Post: {
      const auto& acts = c_.sentences.at("blog-activity");
      paragraph({deictic_sentence("yesterday", *p.dct, 0, rng_.pick(acts))}, 0);
      paragraph({explicit_sentence(f, true)}, rng_.uniform(1, 3));
      break;
    }
    default: {
      std::vector<Sentence> first{explicit_sentence(f, true)};
      paragraph(first, rng_.uniform(1, 3));
    }
  }
  // Neighbouring facts, some with an anaphoric follow-up.
  const int idx = p.fact;
  const int n = static_cast<int>(c_.facts.size());
  const int paragraphs = rng_.uniform(2, 5);
  for (int i = 0; i < paragraphs; ++i) {
    int step = 1;
    while (step < 12 && rng_.percent(45)) ++step;
    int j = idx + (rng_.percent(50) ? step : -step);
    if (p.kind == Kind::Edition || p.kind == Kind::News) j = idx - step;  // a newspaper knows only the past
    j = std::clamp(j, 0, n - 1);
    const Fact& g = c_.facts[static_cast<std::size_t>(j)];
    if (p.dct && g.when.span.last >= *p.dct) continue;  // nobody writes about what has not happened yet
    std::vector<Sentence> ss{explicit_sentence(g, true)};
    if (j + 1 < n && rng_.percent(40)) {
      const Fact& h = c_.facts[static_cast<std::size_t>(j + 1)];
      if (!(p.dct && h.when.span.last >= *p.dct))
        if (auto rel = relative_sentence(ss.back(), h)) ss.push_back(*rel);
    }
    paragraph(ss, rng_.uniform(1, 3));
    if (rng_.percent(30)) {
      Block filler;
      filler.html = "<p>" + temporal::xml_escape(filler_text(rng_.uniform(2, 4)));
      if (rng_.percent(30)) add_links(page, filler, {}, 1);
      filler.html += "</p>";
      out.push_back(std::move(filler));
    }
  }
  // A hand-written paragraph near the fact's time.
  if (!c_.free.empty() && rng_.percent(35)) {
    auto it = std::lower_bound(c_.free.begin(), c_.free.end(), p.center,
                               [](const FreeParagraph& fp, DayNumber v) { return fp.periods.front().mid() < v; });
    if (it == c_.free.end()) --it;
    if (std::abs(it->periods.front().mid() - p.center) < 5 * 366 && !(p.dct && it->periods.back().last >= *p.dct)) {
      Block b;
      b.section.periods = it->periods;
      b.html = "<p>" + temporal::xml_escape(it->text);
      add_links(page, b, b.section.periods, rng_.uniform(1, 2));
      b.html += "</p>";
      out.push_back(std::move(b));
    }
  }
  // Filler and the closing paragraph.
  {
    Block filler;
    filler.html = "<p>" + temporal::xml_escape(filler_text(rng_.uniform(2, 4)));
    if (rng_.percent(30)) add_links(page, filler, {}, 1);
    filler.html += "</p>";
    out.push_back(std::move(filler));
  }
  if (p.kind == Kind::Anniversary && c_.sentences.count("commemoration")) {
    paragraph({deictic_sentence("today", *p.dct, 0, rng_.pick(c_.sentences.at("commemoration")))}, 0);
  }
  if (p.bad_utf8) {
    Block bad;
    bad.html = "<p>" + temporal::xml_escape(filler_text(1)) + " \xC3\x28\xFF\xFE " + temporal::xml_escape(filler_text(1)) + "</p>";
    out.push_back(std::move(bad));
  }
  return out;
}

std::string Generator::render(int page, std::vector<Section>* truth) {
  const Page& p = pages_[page];
  const bool latin1 = p.site == kHemeroteca;
  std::vector<Block> blocks = furniture_top(page);
  std::vector<Block> main = is_content(p.kind) ? content_blocks(page) : index_blocks(page);
  std::vector<Block> bottom = furniture_bottom(page);
  std::string html = "<!DOCTYPE html>\n<html lang=\"pt\">\n<head>\n";
  html += latin1 ? "<meta http-equiv=\"Content-Type\" content=\"text/html; charset=iso-8859-1\">\n" : "<meta charset=\"utf-8\">\n";
  html += "<title>" + temporal::xml_escape(p.title) + " - " + temporal::xml_escape(c_.site_text(kSiteName[p.site], "title")) + "</title>\n";
  if (p.dct && is_content(p.kind)) {
    html += "<meta property=\"article:published_time\" content=\"" + iso(*p.dct) + "T08:00:00Z\">\n";
    html += "<meta name=\"date\" content=\"" + iso(*p.dct) + "\">\n";
  }
  html += "</head>\n<body>\n";
  for (Block& b : blocks) html += b.html + "\n";
  html += "<main><article>\n<h1>" + temporal::xml_escape(p.title) + "</h1>\n";
  for (Block& b : main) html += b.html + "\n";
  html += "</article></main>\n";
  for (Block& b : bottom) html += b.html + "\n";
  html += "</body>\n</html>\n";
  if (truth) {
    for (auto* list : {&blocks, &main, &bottom})
      for (Block& b : *list)
        if (b.counted && (!b.section.periods.empty() || !b.section.links.empty())) truth->push_back(b.section);
  }
  if (p.malformed) html = malformed_html(html);
  return latin1 ? to_latin1(html) : html;
}

}  // namespace cronista::sampleweb::gen
