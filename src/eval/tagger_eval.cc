#include "eval/tagger_eval.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>

#include "temporal/utf8.h"

namespace cronista::eval {

namespace {

struct Item {
  std::size_t start, end;
  std::string type, value, text;
  int match = -1;  // index of the relaxed partner
  bool strict = false;
};

bool overlaps(std::size_t a, std::size_t b, std::size_t c, std::size_t d) { return a < d && c < b; }

// TimeML values compare without trailing zero seconds or minutes: the same
// clock time written to another precision ("T01:58:00" = "T01:58", "T17:00" =
// "T17").
std::string norm_value(std::string v) {
  auto zero_tail = [&v] { return v.size() > 3 && v.compare(v.size() - 3, 3, ":00") == 0; };
  if (zero_tail() && std::count(v.begin(), v.end(), ':') == 2) v.resize(v.size() - 3);
  if (zero_tail() && std::count(v.begin(), v.end(), ':') == 1 && v.size() > 6 && v[v.size() - 6] == 'T')
    v.resize(v.size() - 3);
  return v;
}

std::string context_of(const std::string& text, std::size_t s, std::size_t e) {
  std::size_t a = s > 60 ? s - 60 : 0, b = std::min(text.size(), e + 60);
  a = temporal::char_start_at_or_before(text, a);
  b = temporal::char_start_at_or_after(text, b);
  std::string out = text.substr(a, s - a) + "[" + text.substr(s, e - s) + "]" + text.substr(e, b - e);
  for (char& c : out)
    if (c == '\n' || c == '\t' || c == '\r') c = ' ';
  return out;
}

// One-to-one matching: exact pairs first, then the largest overlaps.
void match(std::vector<Item>& gold, std::vector<Item>& sys) {
  for (std::size_t g = 0; g < gold.size(); ++g)
    for (std::size_t s = 0; s < sys.size(); ++s)
      if (sys[s].match < 0 && gold[g].match < 0 && gold[g].start == sys[s].start && gold[g].end == sys[s].end) {
        gold[g].match = static_cast<int>(s), sys[s].match = static_cast<int>(g);
        gold[g].strict = sys[s].strict = true;
      }
  for (std::size_t g = 0; g < gold.size(); ++g) {
    if (gold[g].match >= 0) continue;
    int best = -1;
    std::size_t best_len = 0;
    for (std::size_t s = 0; s < sys.size(); ++s) {
      if (sys[s].match >= 0 || !overlaps(gold[g].start, gold[g].end, sys[s].start, sys[s].end)) continue;
      std::size_t len = std::min(gold[g].end, sys[s].end) - std::max(gold[g].start, sys[s].start);
      if (len > best_len) best = static_cast<int>(s), best_len = len;
    }
    if (best >= 0) gold[g].match = best, sys[best].match = static_cast<int>(g);
  }
}

}  // namespace

std::string harem_label(const temporal::TemporalExpression& e) {
  using temporal::HaremSubtype;
  using temporal::HaremType;
  switch (e.harem_type) {
    case HaremType::CalendarRef:
      return e.harem_subtype == HaremSubtype::Hour       ? "TEMPO_CALEND/HORA"
             : e.harem_subtype == HaremSubtype::Interval ? "TEMPO_CALEND/INTERVALO"
                                                          : "TEMPO_CALEND/DATA";
    case HaremType::Duration: return "DURACAO";
    case HaremType::Frequency: return "FREQUENCIA";
    case HaremType::Generic: return "GENERICO";
  }
  return "TEMPO_CALEND/DATA";
}

GoldScheme harem_scheme(std::string_view version) {
  return version.rfind("PrimeiroHAREM", 0) == 0 ? GoldScheme::FirstHarem : GoldScheme::Harem;
}

std::string_view to_string(GoldScheme s) {
  switch (s) {
    case GoldScheme::TimeML: return "timeml";
    case GoldScheme::Harem: return "second-harem";
    case GoldScheme::FirstHarem: return "first-harem";
  }
  return "timeml";
}

namespace {

// A decade ("194") or century ("19") value.
bool decade_or_century(const std::string& v) {
  return !v.empty() && v.size() <= 3 && std::all_of(v.begin(), v.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// An interval written as one token ("1939-1945", "2005/06"): nothing but
// the dash or slash between its ends.
bool compact_interval(const temporal::TemporalExpression& e, std::string_view text) {
  if (e.endpoints.size() != 2) return false;
  const auto& a = e.endpoints[0];
  const auto& b = e.endpoints[1];
  if (b.start < a.end || b.start > text.size()) return false;
  return text.substr(a.end, b.start - a.end).find_first_of(" \t\n\r") == std::string_view::npos;
}

}  // namespace

std::string first_harem_label(const temporal::TemporalExpression& e) {
  using temporal::TimexType;
  switch (e.type) {
    case TimexType::Time: return "HORA";
    case TimexType::Duration: return "PERIODO";
    case TimexType::Set: return "CICLICO";
    case TimexType::Date: break;
  }
  if (decade_or_century(e.value)) return "PERIODO";
  if (e.names.cyclic && !e.names.number && !e.names.month) return "CICLICO";
  return "DATA";
}

std::vector<SchemeMention> scheme_mentions(const temporal::TemporalExpression& e, GoldScheme scheme,
                                           std::string_view text) {
  std::vector<SchemeMention> out;
  switch (scheme) {
    case GoldScheme::TimeML:
      if (!e.in_timeml) break;
      if (e.endpoints.size() == 2) {
        for (const auto& p : e.endpoints)
          out.push_back(SchemeMention{p.start, p.end, std::string(temporal::to_string(p.type)), p.value, p.type});
      } else {
        out.push_back(SchemeMention{e.start, e.end, std::string(temporal::to_string(e.type)), e.value, e.type});
      }
      break;
    case GoldScheme::Harem:
      if (e.in_harem) out.push_back(SchemeMention{e.harem_start, e.harem_end, harem_label(e), e.value, e.type});
      break;
    case GoldScheme::FirstHarem:
      if (!(e.in_harem || e.in_timeml)) break;
      if (e.endpoints.size() == 2 && !compact_interval(e, text)) {
        for (const auto& p : e.endpoints)
          if (p.name_end > p.name_start)
            out.push_back(SchemeMention{p.name_start, p.name_end,
                                        p.type == temporal::TimexType::Time ? "HORA" : "DATA", p.value, p.type});
      } else if (e.name_end > e.name_start) {
        out.push_back(SchemeMention{e.name_start, e.name_end,
                                    e.endpoints.size() == 2 ? std::string("PERIODO") : first_harem_label(e),
                                    e.value, e.type});
      }
      break;
  }
  return out;
}

std::string normalize_harem_type(const std::string& t) {
  if (t == "DATA") return "TEMPO_CALEND/DATA";
  if (t == "HORA") return "TEMPO_CALEND/HORA";
  if (t == "PERIODO") return "DURACAO";
  if (t == "CICLICO") return "FREQUENCIA";
  if (t == "TEMPO_CALEND") return "TEMPO_CALEND/DATA";
  return t;
}

EvalReport evaluate(const std::vector<GoldDocument>& docs, GoldScheme scheme, const temporal::Tagger& tagger,
                    bool want_errors) {
  EvalReport rep;
  rep.scheme = scheme;
  const bool harem = scheme != GoldScheme::TimeML;
  // Second HAREM gold types are compared in their TIPO/SUBTIPO form; First
  // HAREM ones as they are (DATA, HORA, PERIODO, CICLICO).
  auto gold_type = [scheme](const std::string& t) { return scheme == GoldScheme::Harem ? normalize_harem_type(t) : t; };
  for (const GoldDocument& doc : docs) {
    ++rep.documents;
    auto found = tagger.tag(doc.text, doc.dct);
    std::vector<Item> sys;
    for (const auto& e : found) {
      for (SchemeMention& m : scheme_mentions(e, scheme, doc.text)) {
        if (m.end > doc.text.size() || m.start >= m.end) continue;
        Item it{m.start, m.end, std::move(m.type), std::move(m.value), "", -1, false};
        bool omitted = false;
        for (const auto& r : doc.omitted) omitted |= overlaps(it.start, it.end, r.start, r.end);
        if (omitted) continue;
        if (!doc.scored.empty()) {
          bool inside = false;
          for (const auto& r : doc.scored) inside |= overlaps(it.start, it.end, r.start, r.end);
          if (!inside) continue;
        }
        it.text = doc.text.substr(it.start, it.end - it.start);
        sys.push_back(std::move(it));
      }
    }
    // Gold: drop omitted, put vague apart, keep the best alternative of each ALT group.
    std::vector<Item> gold, vague;
    std::vector<const GoldExpression*> alts;
    for (const auto& g : doc.expressions) {
      bool omitted = false;
      for (const auto& r : doc.omitted) omitted |= overlaps(g.start, g.end, r.start, r.end);
      if (omitted) continue;
      Item it{g.start, g.end, gold_type(g.type), g.value, g.text, -1, false};
      if (g.alt_group > 0) alts.push_back(&g);
      else if (g.vague) vague.push_back(std::move(it));
      else gold.push_back(std::move(it));
    }
    for (std::size_t group = 1; group <= doc.alt_ranges.size(); ++group) {
      const GoldRange& range = doc.alt_ranges[group - 1];
      int best_alt = 0;
      long best_score = -1000000;
      for (int a = 0; a < std::max(1, range.alternatives); ++a) {
        // Two points for an overlapped expression (minus two for a missed
        // one), one more when the extent is exact: overlap decides, exactness
        // breaks ties.
        long score = 0, items = 0;
        for (const auto* g : alts) {
          if (g->alt_group != static_cast<int>(group) || g->alternative != a) continue;
          ++items;
          bool hit = false, exact = false;
          for (const auto& s : sys) {
            hit |= overlaps(g->start, g->end, s.start, s.end);
            exact |= g->start == s.start && g->end == s.end;
          }
          score += hit ? 2 + (exact ? 1 : 0) : -2;
        }
        if (items == 0)
          for (const auto& s : sys) score -= overlaps(range.start, range.end, s.start, s.end) ? 2 : 0;
        if (score > best_score) best_score = score, best_alt = a;
      }
      for (const auto* g : alts) {
        if (g->alt_group != static_cast<int>(group) || g->alternative != best_alt) continue;
        Item it{g->start, g->end, gold_type(g->type), g->value, g->text, -1, false};
        (g->vague ? vague : gold).push_back(std::move(it));
      }
    }
    // Vague gold: system expressions on them are neither right nor wrong.
    if (!vague.empty()) {
      rep.vague_gold += static_cast<long>(vague.size());
      std::vector<Item> kept;
      std::vector<bool> vague_hit(vague.size(), false);
      for (auto& s : sys) {
        bool on_vague = false;
        for (std::size_t v = 0; v < vague.size(); ++v) {
          if (overlaps(s.start, s.end, vague[v].start, vague[v].end)) {
            bool on_gold = false;
            for (const auto& g : gold) on_gold |= overlaps(s.start, s.end, g.start, g.end);
            if (!on_gold) {
              on_vague = true;
              vague_hit[v] = true;
            }
          }
        }
        if (!on_vague) kept.push_back(std::move(s));
      }
      sys = std::move(kept);
      for (bool h : vague_hit) rep.vague_found += h ? 1 : 0;
    }
    std::sort(gold.begin(), gold.end(), [](const Item& a, const Item& b) { return a.start < b.start; });
    match(gold, sys);
    MatchCounts c;
    c.gold = static_cast<long>(gold.size());
    c.system = static_cast<long>(sys.size());
    for (const auto& g : gold) {
      rep.per_type[g.type].gold++;
      if (g.match < 0) {
        if (want_errors)
          rep.errors.push_back(EvalError{doc.id, "miss", g.text, g.type, "", g.value, "", context_of(doc.text, g.start, g.end)});
        continue;
      }
      const Item& s = sys[static_cast<std::size_t>(g.match)];
      ++c.relaxed_gold;
      if (g.strict) ++c.strict;
      if (s.type == g.type) {
        rep.per_type[g.type].relaxed_gold++;
        if (g.strict) rep.per_type[g.type].strict++;
      }
      if (!g.strict && want_errors)
        rep.errors.push_back(EvalError{doc.id, "extent", s.text, s.type, g.text, g.value, s.value,
                                       context_of(doc.text, g.start, g.end)});
      if (!harem) {
        ++rep.value_pairs;
        if (norm_value(g.value) == norm_value(s.value)) ++rep.value_correct;
        else if (want_errors)
          rep.errors.push_back(EvalError{doc.id, "value", s.text, g.type + "/" + s.type, g.text, g.value, s.value,
                                         context_of(doc.text, g.start, g.end)});
      }
    }
    for (const auto& s : sys) {
      rep.per_type[s.type].system++;
      if (s.match >= 0) {
        ++c.relaxed_system;
        if (gold[static_cast<std::size_t>(s.match)].type == s.type) rep.per_type[s.type].relaxed_system++;
      } else if (want_errors) {
        rep.errors.push_back(EvalError{doc.id, "false-alarm", s.text, s.type, "", "", s.value,
                                       context_of(doc.text, s.start, s.end)});
      }
    }
    rep.overall.add(c);
  }
  return rep;
}

std::string format_report_text(const EvalReport& r, bool errors) {
  std::string out;
  char buf[512];
  const bool harem = r.scheme != GoldScheme::TimeML;
  std::snprintf(buf, sizeof buf, "%s gold%s%s: %ld documents, %ld expressions; system: %ld expressions\n",
                r.scheme == GoldScheme::FirstHarem ? "First HAREM" : harem ? "HAREM" : "TimeML", r.name.empty() ? "" : " ", r.name.c_str(), r.documents, r.overall.gold,
                r.overall.system);
  out += buf;
  out += "              precision  recall     F1\n";
  std::snprintf(buf, sizeof buf, "  strict      %.3f      %.3f      %.3f\n", r.overall.strict_precision(),
                r.overall.strict_recall(), r.overall.strict_f1());
  out += buf;
  std::snprintf(buf, sizeof buf, "  relaxed     %.3f      %.3f      %.3f\n", r.overall.relaxed_precision(),
                r.overall.relaxed_recall(), r.overall.relaxed_f1());
  out += buf;
  if (!harem) {
    std::snprintf(buf, sizeof buf, "  value accuracy (over %ld relaxed matches): %.3f\n", r.value_pairs,
                  r.value_accuracy());
    out += buf;
  } else {
    std::snprintf(buf, sizeof buf, "  vague/generic gold expressions (scored apart): %ld, found %ld (%.3f)\n",
                  r.vague_gold, r.vague_found, r.vague_gold ? double(r.vague_found) / r.vague_gold : 0.0);
    out += buf;
  }
  out += "  per type (type must agree)   gold  system  strict-F1  relaxed-F1\n";
  for (const auto& [type, c] : r.per_type) {
    std::snprintf(buf, sizeof buf, "    %-26s %5ld  %6ld  %9.3f  %10.3f\n", type.c_str(), c.gold, c.system,
                  c.strict_f1(), c.relaxed_f1());
    out += buf;
  }
  if (errors) {
    out += "errors:\n";
    for (const auto& e : r.errors) {
      out += "  " + e.kind + "\t" + e.document + "\t\"" + e.text + "\"";
      if (!e.gold_text.empty() && e.gold_text != e.text) out += " gold=\"" + e.gold_text + "\"";
      out += "\t" + e.type;
      if (!e.gold_value.empty() || !e.system_value.empty()) out += "\t" + e.gold_value + " → " + e.system_value;
      out += "\t| " + e.context + "\n";
    }
  }
  return out;
}

std::string format_report_json(const std::vector<EvalReport>& reports, bool errors) {
  nlohmann::ordered_json all = nlohmann::ordered_json::array();
  auto counts = [](const MatchCounts& c) {
    nlohmann::ordered_json j;
    j["gold"] = c.gold;
    j["system"] = c.system;
    j["strict"] = {{"precision", c.strict_precision()}, {"recall", c.strict_recall()}, {"f1", c.strict_f1()},
                   {"matches", c.strict}};
    j["relaxed"] = {{"precision", c.relaxed_precision()}, {"recall", c.relaxed_recall()}, {"f1", c.relaxed_f1()},
                    {"gold_matched", c.relaxed_gold}, {"system_matched", c.relaxed_system}};
    return j;
  };
  for (const auto& r : reports) {
    nlohmann::ordered_json j;
    // "harem" is the Second HAREM, as it was before the First HAREM profile.
    j["scheme"] = r.scheme == GoldScheme::Harem ? "harem" : std::string(to_string(r.scheme));
    j["name"] = r.name;
    j["documents"] = r.documents;
    j["overall"] = counts(r.overall);
    if (r.scheme == GoldScheme::TimeML) {
      j["value_accuracy"] = r.value_accuracy();
      j["value_pairs"] = r.value_pairs;
      j["value_correct"] = r.value_correct;
    } else {
      j["vague_gold"] = r.vague_gold;
      j["vague_found"] = r.vague_found;
    }
    nlohmann::ordered_json pt;
    for (const auto& [type, c] : r.per_type) pt[type] = counts(c);
    j["per_type"] = pt;
    if (errors) {
      auto list = nlohmann::ordered_json::array();
      for (const auto& e : r.errors)
        list.push_back({{"document", e.document}, {"kind", e.kind}, {"text", e.text}, {"type", e.type},
                        {"gold_text", e.gold_text}, {"gold_value", e.gold_value}, {"system_value", e.system_value},
                        {"context", e.context}});
      j["errors"] = list;
    }
    all.push_back(std::move(j));
  }
  nlohmann::ordered_json doc;
  doc["reports"] = all;
  return doc.dump(2) + "\n";
}

}  // namespace cronista::eval
