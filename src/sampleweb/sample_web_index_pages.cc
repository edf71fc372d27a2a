// Rendering the sample web's index pages (homes, section lists, the
// directory and its redirect chains, year pages, archives, holidays, the huge
// chronology) and the template of the endless calendar the server fills.
#include "sampleweb/sample_web_generator.h"

#include <algorithm>
#include <cstdlib>

namespace cronista::sampleweb::gen {

std::vector<Block> Generator::index_blocks(int page) {
  const Page p = pages_[page];
  const std::string site = kSiteName[p.site];
  std::vector<Block> out;
  auto plain_list = [&](const std::string& intro, const std::vector<int>& items) {
    Block b;
    b.html = "<p>" + temporal::xml_escape(intro) + "</p><ul>";
    for (int id : items) {
      b.html += "<li>" + anchor(page, url(id), pages_[id].title) + "</li>";
      b.section.links.push_back(url(id));
    }
    b.html += "</ul>";
    out.push_back(std::move(b));
  };
  switch (p.kind) {
    case Kind::Home: {
      std::vector<int> items;
      if (p.site == kCalendario) {
        Block b;
        b.html = "<p>" + temporal::xml_escape(c_.site_text(site, "tagline")) + ": " +
                 anchor(page, base(kCalendario) + "/calendario/2024/05", c_.site_text(site, "title")) +
                 ", " + anchor(page, base(kCalendario) + "/feriados", c_.site_text(site, "holidays_title")) + ".</p>";
        b.section.links = {base(kCalendario) + "/calendario/2024/05", base(kCalendario) + "/feriados"};
        out.push_back(std::move(b));
        break;
      }
      const std::vector<int>& pool = content_of_site_[p.site];
      if (p.site == kPortal) {
        for (int id = 0; id < static_cast<int>(pages_.size()); ++id)
          if (pages_[id].kind == Kind::Directory && pages_[id].path.size() > 2 && pages_[id].path.back() == '1' &&
              pages_[id].path[pages_[id].path.size() - 2] == '/')
            items.push_back(id);
      } else {
        for (int i = 0; i < 30 && !pool.empty(); ++i) {
          const int id = rng_.pick(pool);
          if (!pages_[id].disallowed && std::find(items.begin(), items.end(), id) == items.end()) items.push_back(id);
        }
      }
      plain_list(c_.site_text(site, "tagline"), items);
      break;
    }
    case Kind::ListPage:
    case Kind::DirectoryIndex:
      plain_list(p.label.empty() ? c_.site_text(site, "list_intro") : p.label, p.items);
      break;
    case Kind::Directory: {
      Block b;
      b.html = "<p>" + temporal::xml_escape(c_.site_text(site, "directory_intro")) + "</p><ul>";
      for (int id : p.items) {
        // Every directory link goes through /ir/<n> → 302 → /saida/<n> → 301 → the page.
        const std::string n = std::to_string(++jump_counter_);
        extras_.push_back({kPortal, "/saida/" + n, 301, url(id)});
        extras_.push_back({kPortal, "/ir/" + n, 302, base(kPortal) + "/saida/" + n});
        const std::string u = base(kPortal) + "/ir/" + n;
        b.html += "<li>" + anchor(page, u, pages_[id].title) + "</li>";
        b.section.links.push_back(u);
      }
      b.html += "</ul>";
      out.push_back(std::move(b));
      break;
    }
    case Kind::YearIndex:
    case Kind::ArchiveIndex: {
      // One paragraph listing the year pages: by title, or in an archive by year.
      Block b;
      b.html = "<p>" + temporal::xml_escape(p.title) + ":";
      for (int id : p.items) {
        const std::string text =
            p.kind == Kind::YearIndex ? pages_[id].title : std::to_string(pages_[id].year);
        b.html += " " + anchor(page, url(id), text);
        b.section.links.push_back(url(id));
        b.section.periods.push_back(year_span(pages_[id].year));
      }
      b.html += "</p>";
      out.push_back(std::move(b));
      break;
    }
    case Kind::YearPage: {
      Block intro;
      intro.html = "<p>" + temporal::xml_escape(fill(c_.site_text(site, "year_intro"), {{"yyyy", std::to_string(p.year)}})) + "</p>";
      intro.section.periods.push_back(year_span(p.year));
      out.push_back(std::move(intro));
      out.push_back(Block{"<ul>", {}, false});
      for (int id : p.items) {
        const Fact& f = c_.facts[static_cast<std::size_t>(pages_[id].fact)];
        Block li;
        const Date d = f.when.span.first;
        std::string when;
        if (f.when.grain == DateGrain::Day) {
          when = fill(c_.site_text(site, "item_date"), date_vars(d));
          li.section.periods.push_back(day_span(d));
        } else {
          when = upper_first(c_.months[static_cast<std::size_t>(d.month - 1)]);
          li.section.periods.push_back(month_span(d.year, d.month));
        }
        li.html = "<li>" + temporal::xml_escape(when) + " - " + temporal::xml_escape(upper_first(f.clause)) + ". " + anchor(page, url(id), pages_[id].title) + "</li>";
        li.section.links.push_back(url(id));
        out.push_back(std::move(li));
      }
      out.push_back(Block{"</ul>", {}, false});
      Block nav;
      nav.html = "<p>" + temporal::xml_escape(c_.site_text(site, "year_nav"));
      for (int y : {p.year - 1, p.year + 1}) {
        auto it = year_page_.find(y);
        if (it == year_page_.end()) continue;
        nav.html += " " + anchor(page, url(it->second), std::to_string(y));
        nav.section.links.push_back(url(it->second));
        nav.section.periods.push_back(year_span(y));
      }
      nav.html += "</p>";
      out.push_back(std::move(nav));
      break;
    }
    case Kind::Archive: {
      Block intro;
      intro.html = "<p>" + temporal::xml_escape(fill(c_.site_text(site, "archive_intro"), {{"yyyy", std::to_string(p.year)}})) + "</p>";
      intro.section.periods.push_back(year_span(p.year));
      out.push_back(std::move(intro));
      out.push_back(Block{"<ul>", {}, false});
      for (int id : p.items) {
        Block li;
        li.html = "<li>" + temporal::xml_escape(fill(c_.site_text(site, "item_date"), date_vars(*pages_[id].dct))) + " - " +
                  anchor(page, url(id), pages_[id].title) + "</li>";
        li.section.periods.push_back(day_span(*pages_[id].dct));
        li.section.links.push_back(url(id));
        out.push_back(std::move(li));
      }
      out.push_back(Block{"</ul>", {}, false});
      break;
    }
    case Kind::Holidays: {
      Block intro;
      intro.html = "<p>" + temporal::xml_escape(fill(c_.site_text(site, "holidays_intro"), {{"yyyy", std::to_string(p.year)}})) + "</p>";
      intro.section.periods.push_back(year_span(p.year));
      out.push_back(std::move(intro));
      out.push_back(Block{"<ul>", {}, false});
      for (const auto& [md, name] : c_.holidays) {
        const Date d{p.year, std::atoi(md.substr(0, 2).c_str()), std::atoi(md.substr(3, 2).c_str())};
        Block li;
        li.html = "<li>" + temporal::xml_escape(fill(c_.site_text(site, "item_date"), date_vars(d))) + ": " + temporal::xml_escape(name) + "</li>";
        li.section.periods.push_back(day_span(d));
        out.push_back(std::move(li));
      }
      out.push_back(Block{"</ul>", {}, false});
      break;
    }
    case Kind::About:
    case Kind::Disallowed:
    case Kind::ServerError: {
      Block b;
      b.html = "<p>" + temporal::xml_escape(filler_text(p.kind == Kind::ServerError ? 1 : 3)) + "</p>";
      out.push_back(std::move(b));
      break;
    }
    case Kind::Huge: {
      Block intro;
      intro.html = "<p>" + temporal::xml_escape(c_.site_text(site, "huge_intro")) + "</p>";
      out.push_back(std::move(intro));
      for (std::size_t fi = 0; fi < c_.facts.size(); ++fi) {
        Block b;
        Sentence s = explicit_sentence(c_.facts[fi], false);
        b.section.periods = s.periods;
        b.html = "<p>" + temporal::xml_escape(s.text);
        if (articles_of_fact_[fi] >= 0) {
          b.html += " " + anchor(page, url(articles_of_fact_[fi]), pages_[articles_of_fact_[fi]].title);
          b.section.links.push_back(url(articles_of_fact_[fi]));
        }
        b.html += "</p>";
        out.push_back(std::move(b));
      }
      // Then enough filler to make the page a few megabytes.
      std::size_t size = 0;
      while (size < 2'500'000) {
        Block b;
        b.html = "<p>" + temporal::xml_escape(filler_text(6)) + "</p>";
        size += b.html.size();
        out.push_back(std::move(b));
      }
      break;
    }
    default:
      break;
  }
  return out;
}

std::string Generator::trap_template(std::vector<Section>* truth_template) {
  // The calendar month page, with {{month}}, {{yyyy}} and {{next}} for the
  // server to fill. Its furniture is fixed; its content section states the
  // month and (by "Mês seguinte") the next one.
  Page p;
  p.site = kCalendario;
  p.kind = Kind::About;
  p.title = c_.site_text("calendario", "title");
  pages_.push_back(p);
  const int page = static_cast<int>(pages_.size()) - 1;
  std::vector<Block> top = furniture_top(page), bottom = furniture_bottom(page);
  pages_.pop_back();
  std::string html = "<!DOCTYPE html>\n<html lang=\"pt\">\n<head>\n<meta charset=\"utf-8\">\n<title>{{Month}} {{yyyy}} - " +
                     temporal::xml_escape(p.title) + "</title>\n</head>\n<body>\n";
  for (Block& b : top) html += b.html + "\n";
  html += "<main><h1>{{Month}} {{yyyy}}</h1>\n<p>" +
          temporal::xml_escape(fill(c_.site_text("calendario", "month_intro"), {{"month", "{{month}}"}, {"yyyy", "{{yyyy}}"}})) +
          " <a href=\"{{next}}\">" + temporal::xml_escape(c_.site_text("calendario", "month_next")) + "</a></p>\n</main>\n";
  for (Block& b : bottom) html += b.html + "\n";
  html += "</body>\n</html>\n";
  auto keep = [&](const Block& b) {
    if (!b.section.periods.empty() || !b.section.links.empty()) truth_template->push_back(b.section);
  };
  for (Block& b : top) keep(b);
  truth_template->push_back(Section{});  // the month paragraph, filled per month
  for (Block& b : bottom) keep(b);
  return html;
}

}  // namespace cronista::sampleweb::gen
