#!/usr/bin/env bash
# Crawl throughput and memory on a local site served by nginx on loopback:
# `cronista crawl --mode general` and `--mode temporal` (politeness off for
# loopback: --delay-ms 0, 32 connections to the one host), next to a plain
# Scrapy spider following every link and `wget2 --recursive`, in the same
# run on the same site. Reports pages, seconds, pages/s and peak RSS
# (/usr/bin/time -v). Then the cost of a shared frontier: the same
# `--mode general` crawl alone and as one worker against a Redis the script
# starts on a unix socket (and stops), one after the other, with the
# worker's pages/s as a share of the lone crawl's, and CPU per page of each
# and of redis-server. Then a crawl that
# discovers about 1 million URLs (pages with many links, --max-pages small)
# for peak memory.
#
#   bench/crawl_bench.sh                 5,000-page site + 1M-URL memory run
#   bench/crawl_bench.sh --pages 20000   a larger site
#   bench/crawl_bench.sh --no-million    skip the 1M-URL run
#   bench/crawl_bench.sh --shared-runs 3 lone vs worker 3 times, medians reported
#   bench/crawl_bench.sh --keep          keep the work folder (site, databases, logs)
#   bench/crawl_bench.sh --pin           lone vs worker with the servers on a core of their own
#
# --pin gives the crawl (lone and worker alike) every core but the last
# (taskset), and nginx and redis-server the last one: the share then says what
# a worker keeps of a lone crawler's pages/s when Redis does not take the
# crawler's cores, as on a machine that has cores for both. It needs 2 cores
# or more and taskset (util-linux).
#
# Needs build/cronista (scripts/setup) and redis-server; CRONISTA_RESOURCES=DIR is passed as
# --resources, CRONISTA_BIN overrides the binary. Installs nginx, python3-scrapy and
# wget2 with apt-get when missing (they are benchmark-only dependencies).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
pages=5000
million=1
keep=0
shared_runs=1
pin=0
bin="${CRONISTA_BIN:-$here/build/cronista}"
while (($#)); do
  case "$1" in
    --pages) pages="$2"; shift 2 ;;
    --no-million) million=0; shift ;;
    --shared-runs) shared_runs="$2"; shift 2 ;;
    --keep) keep=1; shift ;;
    --pin) pin=1; shift ;;
    -h|--help) sed -n '2,30p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "crawl_bench: unknown option '$1' (try --help)" >&2; exit 2 ;;
  esac
done
[[ -x "$bin" ]] || { echo "crawl_bench: $bin not found; run scripts/setup first" >&2; exit 1; }
[[ "$shared_runs" =~ ^[1-9][0-9]*$ ]] || { echo "crawl_bench: --shared-runs needs a positive number" >&2; exit 2; }
crawl_cpus=""; server_cpus=""; crawl_pin=(); server_pin=()
if ((pin)); then
  command -v taskset >/dev/null 2>&1 || { echo "crawl_bench: --pin needs taskset (util-linux)" >&2; exit 1; }
  ((  $(nproc) >= 2 )) || { echo "crawl_bench: --pin needs 2 cores or more ($(nproc) here)" >&2; exit 2; }
  last=$(( $(nproc) - 1 ))
  server_cpus="$last"
  crawl_cpus="0"; ((last > 1)) && crawl_cpus="0-$((last - 1))"
  crawl_pin=(taskset -c "$crawl_cpus")
  server_pin=(taskset -c "$server_cpus")
fi
command -v redis-server >/dev/null 2>&1 && command -v redis-cli >/dev/null 2>&1 ||
  { echo "crawl_bench: redis-server and redis-cli not found; run scripts/setup first" >&2; exit 1; }

need=()
command -v nginx >/dev/null 2>&1 || [[ -x /usr/sbin/nginx ]] || need+=(nginx)
/usr/bin/python3 -c 'import scrapy' 2>/dev/null || need+=(python3-scrapy)
command -v wget2 >/dev/null 2>&1 || need+=(wget2)
if ((${#need[@]})); then
  [[ $(id -u) -eq 0 ]] || { echo "crawl_bench: install ${need[*]} (needs root)" >&2; exit 1; }
  echo "crawl_bench: installing ${need[*]}" >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >&2
fi
nginx_bin="$(command -v nginx || echo /usr/sbin/nginx)"

work="$(mktemp -d /tmp/cronista-crawl-bench.XXXXXX)"
chmod 755 "$work"  # nginx workers run as an unprivileged user
nginx_pid=""
redis_pid=""
cleanup() {
  if [[ -f "$work/nginx.pid" ]]; then kill "$(cat "$work/nginx.pid")" 2>/dev/null || true; fi
  if [[ -n "$redis_pid" ]]; then kill "$redis_pid" 2>/dev/null || true; wait "$redis_pid" 2>/dev/null || true; fi
  if ((keep)); then echo "crawl_bench: kept $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT

# ---- the site ----
# Page i: Portuguese paragraphs, each anchored to a date; the links of the
# first paragraph (1939-1945) and of the second (other years) go to pseudo-
# random other pages, so both the general and the temporal crawl reach the
# whole site. About 6 KB of HTML and 16 links per page.
generate_site() {  # dir pages links_per_page extra_dead_links
  python3 - "$@" <<'PY'
import os, random, sys
root, n, per, dead = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
os.makedirs(os.path.join(root, "p"), exist_ok=True)
rnd = random.Random(1944)
meses = ["janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho", "agosto", "setembro",
         "outubro", "novembro", "dezembro"]
factos = ["as tropas aliadas avançaram sobre a cidade", "o governo anunciou novas medidas",
          "os jornais de Lisboa noticiaram o acontecimento", "a população saiu à rua em festa",
          "o navio partiu do porto com centenas de refugiados", "a conferência reuniu os chefes de Estado",
          "o racionamento de pão foi alargado a todo o país", "a rádio transmitiu o discurso do presidente"]
def frase(ano):
    return f"A {rnd.randint(1, 28)} de {rnd.choice(meses)} de {ano}, {rnd.choice(factos)}. No dia seguinte, {rnd.choice(factos)}."
def links(k):
    return " ".join(f'<a href="/p/{rnd.randrange(n)}.html">ver página</a>' for _ in range(k))
with open(os.path.join(root, "index.html"), "w") as f:
    f.write("<!DOCTYPE html><html lang=pt><head><meta charset=utf-8><title>Arquivo</title></head><body><p>")
    f.write(frase(1942) + " ")
    f.write(" ".join(f'<a href="/p/{i}.html">página {i}</a>' for i in range(n if dead else min(n, 50))))
    f.write("</p></body></html>")
for i in range(n):
    half = per // 2
    body = [f"<h1>Página {i}</h1>",
            f"<p>{frase(rnd.randint(1939, 1945))} {links(half)}</p>",
            f"<p>{frase(rnd.choice([1910, 1974, 1986, 2001, 2015]))} {links(per - half)}</p>",
            f"<p>{frase(rnd.randint(1939, 1945))} {frase(rnd.randint(1939, 1945))}</p>",
            f"<p>Entre 1950 e 1960 {rnd.choice(factos)}. {frase(rnd.randint(1900, 2020))}</p>"]
    if dead:
        body.append("<ul>" + "".join(f'<li><a href="/u/{i}/{j}.html">{j}</a></li>' for j in range(dead)) + "</ul>")
    body.append('<footer><p>© 2024 Arquivo. <a href="/index.html">Início</a></p></footer>')
    with open(os.path.join(root, "p", f"{i}.html"), "w") as f:
        f.write("<!DOCTYPE html><html lang=pt><head><meta charset=utf-8><title>Página " + str(i) +
                "</title></head><body>" + "".join(body) + "</body></html>")
PY
}

start_nginx() {  # root port
  cat > "$work/nginx.conf" <<EOF
worker_processes 1;
daemon on;
pid $work/nginx.pid;
error_log $work/nginx-error.log;
events { worker_connections 1024; }
http {
  access_log off;
  types { text/html html; }
  default_type text/html;
  keepalive_requests 100000;
  client_body_temp_path $work/tmp; proxy_temp_path $work/tmp; fastcgi_temp_path $work/tmp;
  uwsgi_temp_path $work/tmp; scgi_temp_path $work/tmp;
  server { listen 127.0.0.1:$2; root $1; }
}
EOF
  mkdir -p "$work/tmp"
  "$nginx_bin" -c "$work/nginx.conf" -p "$work"
}

stop_nginx() {
  if [[ -f "$work/nginx.pid" ]]; then kill "$(cat "$work/nginx.pid")" 2>/dev/null || true; sleep 0.3; fi
  rm -f "$work/nginx.pid"
}

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# Runs a command under /usr/bin/time -v; sets secs (wall clock), cpu (user +
# system seconds) and rss_mb.
timed() {  # log command...
  local log="$1"; shift
  /usr/bin/time -v "$@" >"$log.out" 2>"$log.err" || { echo "crawl_bench: failed: $*" >&2; tail -5 "$log.err" >&2; return 1; }
  local wall
  wall="$(grep 'Elapsed (wall clock)' "$log.err" | awk '{print $NF}')"
  secs="$(python3 -c "import sys; p=[float(x) for x in sys.argv[1].split(':')]; print(sum(v*60**i for i,v in enumerate(reversed(p))))" "$wall")"
  rss_mb="$(awk '/Maximum resident set size/ {printf "%.0f", $NF/1024}' "$log.err")"
  cpu="$(awk -F': ' '/User time|System time/ {s += $2} END {printf "%.2f", s}' "$log.err")"
}

# One table row: name pages seconds cpu-seconds peak-MB.
row() {
  printf "%-34s %8s %8.2f %8.2f %10.1f %10s\n" "$1" "$2" "$3" "$4" "$(python3 -c "print($2/$3 if $3 else 0)")" "$5"
}
# The crawl summary goes to standard error (captured with /usr/bin/time's report).
crawled() { sed -n 's/^pages downloaded: \([0-9]*\).*/\1/p' "$1.err"; }

cat > "$work/spider.py" <<'PY'
import scrapy
class Follow(scrapy.Spider):
    name = "follow"
    def __init__(self, start=None, **kw):
        super().__init__(**kw)
        self.start_urls = [start]
    def parse(self, response):
        for href in response.css("a::attr(href)").getall():
            yield response.follow(href, self.parse)
    def closed(self, reason):
        with open(self.settings.get("COUNT_FILE"), "w") as f:
            f.write(str(self.crawler.stats.get_value("response_received_count", 0)))
PY

echo "crawl_bench: generating $pages pages" >&2
generate_site "$work/site" "$pages" 16 0
port="$(free_port)"
start_nginx "$work/site" "$port"
seed="http://127.0.0.1:$port/index.html"
cores="$(nproc)"

printf "\nsite: %s pages (+ index), ~%s KB each, 16 links/page, nginx on loopback, %s cores\n\n" "$pages" \
  "$(( $(du -sk "$work/site" | cut -f1) / (pages + 1) ))" "$cores"
printf "%-34s %8s %8s %8s %10s %10s\n" "crawler" "pages" "seconds" "CPU s" "pages/s" "peak MB"

declare -A rate
common=(--from 1939 --to 1945 --delay-ms 0 --host-connections 32 --connections 32 --quiet)
[[ -n "${CRONISTA_RESOURCES:-}" ]] && common+=(--resources "$CRONISTA_RESOURCES")
for mode in general temporal; do
  timed "$work/$mode" "$bin" crawl "${common[@]}" --mode "$mode" --db "$work/$mode.db" "$seed"
  n="$(crawled "$work/$mode")"
  row "cronista crawl --mode $mode" "$n" "$secs" "$cpu" "$rss_mb"
  rate[$mode]="$(python3 -c "print($n/$secs if $secs else 0)")"
done
# The learned patterns (patterns/pt.patterns) dominate the tagging cost;
# the hand-written set alone shows the crawler with a lighter tagger.
manual="$here/patterns/pt.manual.patterns"
if [[ -f "$manual" ]]; then
  timed "$work/manual" "$bin" crawl "${common[@]}" --mode temporal --patterns "$manual" --db "$work/manual.db" "$seed"
  n="$(crawled "$work/manual")"
  row "  temporal, manual patterns only" "$n" "$secs" "$cpu" "$rss_mb"
fi

# The cost of a shared frontier: lone, then one worker against Redis (a
# fresh crawl id each run), same site and options, --shared-runs times.
# Both without replica detection, which a worker does not do.
# Moves nginx (master and workers) to the given cores.
pin_nginx() {  # cpus
  local master
  master="$(cat "$work/nginx.pid")"
  for pid in "$master" $(pgrep -P "$master"); do taskset -a -p -c "$1" "$pid" >/dev/null; done
}
start_redis() {
  "${server_pin[@]}" redis-server --port 0 --unixsocket "$work/redis.sock" --unixsocketperm 700 --dir "$work" --save '' \
    --appendonly no >"$work/redis.log" 2>&1 &
  redis_pid=$!
  for _ in $(seq 1 100); do redis-cli -s "$work/redis.sock" ping >/dev/null 2>&1 && break; sleep 0.05; done
  redis-cli -s "$work/redis.sock" ping >/dev/null 2>&1 ||
    { echo "crawl_bench: redis-server did not start" >&2; cat "$work/redis.log" >&2; exit 1; }
}
stop_redis() { kill "$redis_pid" 2>/dev/null || true; wait "$redis_pid" 2>/dev/null || true; redis_pid=""; }
median() { python3 -c "import statistics, sys; print(statistics.median(float(x) for x in sys.argv[1:]))" "$@"; }
# Redis's own CPU seconds so far (user + system), from INFO.
redis_cpu() { redis-cli -s "$work/redis.sock" info cpu | awk -F: '/^used_cpu_(user|sys):/ {s += $2} END {printf "%.2f", s}'; }
start_redis
((pin)) && pin_nginx "$server_cpus"
lone_rates=(); worker_rates=(); lone_cpus=(); worker_cpus=(); redis_cpus=()
for run in $(seq 1 "$shared_runs"); do
  timed "$work/lone$run" "${crawl_pin[@]}" "$bin" crawl "${common[@]}" --mode general --replicas off --db "$work/lone$run.db" "$seed"
  n="$(crawled "$work/lone$run")"
  row "lone --mode general (run $run)" "$n" "$secs" "$cpu" "$rss_mb"
  lone_rates+=("$(python3 -c "print($n/$secs if $secs else 0)")")
  lone_cpus+=("$(python3 -c "print($cpu/$n if $n else 0)")")
  before="$(redis_cpu)"
  timed "$work/worker$run" "${crawl_pin[@]}" "$bin" crawl "${common[@]}" --mode general --replicas off --db "$work/worker$run.db" \
    --frontier "unix://$work/redis.sock" --crawl-id "bench$run" "$seed"
  n="$(crawled "$work/worker$run")"
  rcpu="$(python3 -c "print(round($(redis_cpu) - $before, 2))")"
  row "one worker, Redis (run $run)" "$n" "$secs" "$cpu" "$rss_mb"
  printf "  %-32s %26.2f\n" "redis-server's CPU s" "$rcpu"
  worker_rates+=("$(python3 -c "print($n/$secs if $secs else 0)")")
  worker_cpus+=("$(python3 -c "print($cpu/$n if $n else 0)")")
  redis_cpus+=("$(python3 -c "print($rcpu/$n if $n else 0)")")
done
stop_redis
((pin)) && pin_nginx "0-$(( $(nproc) - 1 ))"
lone_median="$(median "${lone_rates[@]}")"
worker_median="$(median "${worker_rates[@]}")"
lone_cpu_median="$(median "${lone_cpus[@]}")"
worker_cpu_median="$(median "${worker_cpus[@]}")"
redis_cpu_median="$(median "${redis_cpus[@]}")"

timed "$work/scrapy" scrapy runspider "$work/spider.py" -a "start=$seed" -s LOG_LEVEL=WARNING \
  -s CONCURRENT_REQUESTS=32 -s CONCURRENT_REQUESTS_PER_DOMAIN=32 -s DOWNLOAD_DELAY=0 -s ROBOTSTXT_OBEY=True \
  -s TELNETCONSOLE_ENABLED=False -s "COUNT_FILE=$work/scrapy.count"
n="$(cat "$work/scrapy.count")"
row "scrapy (follow every link)" "$n" "$secs" "$cpu" "$rss_mb"
scrapy_rate="$(python3 -c "print($n/$secs if $secs else 0)")"

timed "$work/wget2" wget2 --recursive --level=inf --no-parent --max-threads=32 --quiet -P "$work/wget2-out" "$seed" || true
n="$(find "$work/wget2-out" -type f -name '*.html' | wc -l)"
row "wget2 --recursive" "$n" "$secs" "$cpu" "$rss_mb"
stop_nginx
for mode in general temporal; do
  printf "cronista --mode %s: %.1fx Scrapy's pages/s\n" "$mode" \
    "$(python3 -c "print(${rate[$mode]}/$scrapy_rate if $scrapy_rate else 0)")"
done
((pin)) && printf "shared frontier: the crawls on cores %s, nginx and redis-server on core %s\n" "$crawl_cpus" "$server_cpus"
printf "shared frontier (median of %s): lone %.1f pages/s, one worker against Redis %.1f pages/s, share %.0f%%\n" \
  "$shared_runs" "$lone_median" "$worker_median" "$(python3 -c "print(100*$worker_median/$lone_median if $lone_median else 0)")"
# The machine's cores decide the wall-clock share when Redis and the crawl
# compete for them; CPU per page says what each costs wherever it runs.
printf "shared frontier, CPU ms per page (medians): lone %.3f, worker %.3f (share %.0f%%), redis-server %.3f\n" \
  "$(python3 -c "print(1000*$lone_cpu_median)")" "$(python3 -c "print(1000*$worker_cpu_median)")" \
  "$(python3 -c "print(100*$lone_cpu_median/$worker_cpu_median if $worker_cpu_median else 0)")" \
  "$(python3 -c "print(1000*$redis_cpu_median)")"

if ((million)); then
  # 2,000 pages × 500 links to distinct (missing) URLs each = 1 M URLs
  # discovered; only the index and 1,999 pages are downloaded (the index
  # links every page, and equal priorities are served first come, first
  # served).
  echo "crawl_bench: generating the 1M-URL site" >&2
  generate_site "$work/msite" 2000 16 500
  rm -rf "$work/site"
  port="$(free_port)"
  start_nginx "$work/msite" "$port"
  timed "$work/million" "$bin" crawl "${common[@]}" --mode general --max-pages 2000 --db "$work/million.db" \
    "http://127.0.0.1:$port/index.html"
  urls="$(sqlite3 "$work/million.db" 'SELECT COUNT(*) FROM urls')"
  printf "\n1M-URL crawl: %s URLs discovered, %s pages downloaded, %.1f s, peak %s MB\n" "$urls" \
    "$(crawled "$work/million")" "$secs" "$rss_mb"
  stop_nginx
fi
