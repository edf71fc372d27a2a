// Canonicalization speed (URLs/s), the crawler's hot path: every href of
// every page goes through CanonicalUrl::resolve. Run:
//   build/url_bench --benchmark_counters_tabular=true
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "crawler/url.h"

namespace {

using cronista::crawler::CanonicalUrl;

// A mix of what hrefs look like on Portuguese news sites.
const std::vector<std::string> kAbsolute = {
    "https://www.publico.pt/2020/10/11/politica/noticia/orcamento-estado-2021-1934567",
    "https://g1.globo.com/economia/noticia/2020/10/11/dolar.ghtml?utm_source=twitter&utm_medium=social",
    "HTTP://WWW.Example.COM:80/a/./b/../c/index.html?x=%7e1#frag",
    "https://noticias.uol.com.br/politica/ultimas-noticias/2020/10/11/eleicoes.htm",
    "http://127.0.0.2:18080/arquivo/2019/05/pagina-7.html",
    "https://economia.ig.com.br/2020-10-11/reforma.html?page=2&sort=desc",
    "https://www.otempo.com.br/cidades/são-joão-del-rei-1.2395",
    "https://açores.pt/ilhas/são-miguel",
};

const std::vector<std::string> kRelative = {
    "/2020/10/11/politica/noticia/orcamento-estado-2021-1934567",
    "../sociedade/noticia/2020/10/10/ensino.html",
    "noticia-2.html#comentarios",
    "?page=3",
    "//imagens.publico.pt/imagens.aspx/1523891?tp=UH&db=IMAGENS",
    "https://www.publico.pt/autor/joao-silva",
    "/tag/orçamento do estado",
    "mailto:redacao@publico.pt",
};

void BM_ParseAbsolute(benchmark::State& state) {
  std::size_t i = 0;
  for (auto _ : state) {
    auto r = CanonicalUrl::parse(kAbsolute[i++ % kAbsolute.size()]);
    benchmark::DoNotOptimize(r);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ParseAbsolute);

void BM_ResolveHref(benchmark::State& state) {
  auto base = CanonicalUrl::parse("https://www.publico.pt/2020/10/11/politica/noticia/orcamento-1934567");
  std::size_t i = 0;
  for (auto _ : state) {
    auto r = CanonicalUrl::resolve(*base, kRelative[i++ % kRelative.size()]);
    benchmark::DoNotOptimize(r);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ResolveHref);

}  // namespace

BENCHMARK_MAIN();
